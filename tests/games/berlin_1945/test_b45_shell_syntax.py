"""Issue 14: Berlin 1945's canonical decision text is shell-safe from rules 1.2. 1.1 wrote
`plan 15 -> 8:2; 3 -> 9:all` (a shell ends the command at `;` and redirects at `>`),
`discard #3` (`#` starts a comment) and `cards play 1!` (`!` is bash's history expansion);
1.2 writes `plan 15 to 8:2 then 3 to 9:all`, `discard slot 3`, `cards play 1 bang`.
Games of 1.0 and 1.1 keep signing their text; every version reads both."""

from __future__ import annotations

import random
from typing import Any

import pytest

import pbem.games  # noqa: F401  (registers berlin-1945)
from pbem.errors import PbemError
from pbem.games.berlin_1945.decisions import (
    Cancel,
    Cards,
    Casualties,
    Discard,
    Draw,
    EndMovement,
    Execute,
    Fight,
    Move,
    NoReaction,
    Open,
    Plan,
    PlanOrder,
    Play,
    Rebuild,
    Reinforce,
    RemoveUnit,
    RetreatOrder,
)
from pbem.games.berlin_1945.rulebook import ROLES
from pbem.games.berlin_1945.rules import ENGINE
from pbem.testing import SignedTable
from tests.games.berlin_1945.b45_support import table
from tests.support.shell_words import assert_shell_safe, shell_problems

OLD = {version: ENGINE.for_version(version) for version in ("1.0", "1.1")}

# (the 1.2 canonical text, the 1.0 and 1.1 canonical text, the decision)
FORMS: list[tuple[str, str, Any]] = [
    ("draw", "draw", Draw()),
    ("open", "open", Open()),
    ("end movement", "end movement", EndMovement()),
    ("no cards", "no cards", Cards(())),
    ("cards play 7, 12", "cards play 7, 12", Cards((7, 12))),
    ("cards play 1 bang, 7", "cards play 1!, 7", Cards((1, 7), (1,))),  # 2.3: ! mode
    ("discard slot 3", "discard #3", Discard((3,))),
    ("discard slots 2, 5", "discard #2, #5", Discard((2, 5))),
    ("discard slot 3 for move", "discard #3 for move", Discard((3,), "move")),
    ("plan", "plan", Plan(sealed=True)),
    ("plan none", "plan none", Plan()),
    (
        "plan 15 to 8:2, 16:2 then 3 to 9:all then extra 4 to 3:2",
        "plan 15 -> 8:2, 16:2; 3 -> 9:all; extra 4 -> 3:2",
        Plan(
            (PlanOrder("15", (("8", 2), ("16", 2))), PlanOrder("3", (("9", None),))),
            extra=PlanOrder("4", (("3", 2),)),
        ),
    ),
    (
        "plan 15 to 8:all then rebuild in 12 then card 13",
        "plan 15 -> 8:all; rebuild in 12; card 13",
        Plan((PlanOrder("15", (("8", None),)),), rebuild="12", card=13),
    ),
    (
        "move 4 to 3 with de-a, de-b and to 9 with de-c",
        "move 4 -> 3: de-a, de-b; 9: de-c",
        Move("4", (("3", ("de-a", "de-b")), ("9", ("de-c",)))),
    ),
    ("move i to iii with de-a", "move i -> iii: de-a", Move("I", (("III", ("de-a",)),))),
    (
        "rebuild de-a in 12 discard slots 1, 2",
        "rebuild de-a in 12 discard #1, #2",
        Rebuild("de-a", "12", (1, 2)),
    ),
    ("execute 2", "execute 2", Execute(2)),
    (
        "execute 2 with su-a, su-b / su-c discard slots 1, 2",
        "execute 2 with su-a, su-b / su-c discard #1, #2",
        Execute(2, (("su-a", "su-b"), ("su-c",)), (1, 2)),
    ),
    ("retreat 1 with su-a", "retreat 1 with su-a", RetreatOrder(1, (("su-a",),))),
    ("cancel 3 discard slots 1, 4", "cancel 3 discard #1, #4", Cancel(3, (1, 4))),
    ("play 24", "play 24", Play(24)),
    ("play 5 in 12, 13", "play 5 in 12, 13", Play(5, "12", more_zones=("13",))),
    ("play 7 on 2", "play 7 on 2", Play(7, None, 2)),
    ("play 9 on card 4", "play 9 on card 4", Play(9, None, None, 4)),
    ("no reaction", "no reaction", NoReaction()),
    ("reinforce b, e", "reinforce b, e", Reinforce("B", "E")),
    ("fight iv", "fight iv", Fight("IV")),
    ("casualties su-a, su-b", "casualties su-a, su-b", Casualties(("su-a", "su-b"))),
    ("remove none", "remove none", RemoveUnit(None)),
    ("remove de-a", "remove de-a", RemoveUnit("de-a")),
]


def test_the_check_finds_each_old_trap() -> None:
    assert "';' is special to the shell" in shell_problems("plan 15 -> 8:2; 3 -> 9:all")
    assert shell_problems("discard #3") == ["'#' is special to the shell"]
    assert shell_problems("cards play 1!, 7") == ["'!' is special to the shell"]


@pytest.mark.parametrize(("new", "old", "decision"), FORMS)
def test_1_2_writes_every_decision_shell_safe_and_reads_both(
    new: str, old: str, decision: Any
) -> None:
    assert ENGINE.format(decision) == new
    assert_shell_safe(new)
    assert ENGINE.parse(new, {}, "german") == decision
    assert ENGINE.parse(old, {}, "german") == decision
    assert ENGINE.parse("  " + new.upper().replace(" ", "  ") + " ", {}, "german") == decision


@pytest.mark.parametrize("version", ["1.0", "1.1"])
@pytest.mark.parametrize(("new", "old", "decision"), FORMS)
def test_earlier_versions_keep_their_text_whatever_was_typed(
    version: str, new: str, old: str, decision: Any
) -> None:
    engine = OLD[version]
    assert engine.version == version
    assert engine.format(engine.parse(new, {}, "german")) == old
    assert engine.format(engine.parse(old, {}, "german")) == old


def test_other_spellings_read_alike() -> None:
    for text in ("move 4 to 3 g1 and 9 g2", "move 4 -> 3 with g1; -> 9 with g2"):
        assert ENGINE.parse(text, {}, "german") == Move("4", (("3", ("g1",)), ("9", ("g2",))))
    assert ENGINE.parse("discard slot 2, slot 4", {}, "german") == Discard((2, 4))
    assert ENGINE.parse("cards play 1 !", {}, "german") == Cards((1,), (1,))
    assert ENGINE.parse("plan 15 to 8:2; 3 to 9", {}, "german") == ENGINE.parse(
        "plan 15 -> 8:2 then 3 -> 9", {}, "german"
    )


def test_versions() -> None:
    assert ENGINE.version == "1.2" and ENGINE.earlier_versions == ("1.0", "1.1")
    # 1.1 keeps the rules fixes of 1.1 (its states record "rules"); 1.0 keeps 1.0's
    assert OLD["1.1"].fixes and not OLD["1.1"].shell_safe
    assert not OLD["1.0"].fixes and not OLD["1.0"].shell_safe


def check(text: str, decision: Any) -> None:
    assert_shell_safe(text)
    assert ENGINE.parse(text, {}, "german") == decision


@pytest.mark.parametrize("seed", range(8))
def test_bot_games_list_and_sign_only_shell_safe_text(seed: int) -> None:
    """Every choice listed (menus, `pbem show`) and every decision the bots make (richer
    plans than the choices list) and its public part: shell-safe, and read back alike."""
    t = table(seed)
    t.check = False
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(3000):
        if t.over():
            break
        role = t.asked()
        assert role is not None
        private = t.private(role)
        for option in ENGINE.choices(private, role):
            check(ENGINE.format(option), option)
            kinds.add(type(option).__name__)
        decision = t.choose(role, rng)
        public, _values = ENGINE.seal(private, role, decision)
        check(ENGINE.format(decision), decision)
        check(ENGINE.format(public), public)
        kinds.add(type(decision).__name__)
        t.decide(role, decision)
    assert t.over()
    assert {"Draw", "Plan", "Move", "Execute", "Cards"} <= kinds


def test_a_1_1_game_signs_the_text_of_1_1() -> None:
    """A game made under 1.1 keeps its canonical text: the adjudicator refuses 1.2's, and
    the client signs what the 1.1 engine formats, whatever was typed."""
    signed = SignedTable("berlin-1945", ROLES, nonce="v1.1", signed=False, version="1.1")
    signed.join_all()
    assert signed.engine.version == "1.1"
    rng = random.Random(2)
    for _ in range(500):
        prompts = signed.game.prompts()
        if signed.game.state["step"] == "german" and prompts[0].role == "german":
            break
        signed.step(rng)
    state = signed.engine.with_secrets(signed.game.state, "german", signed.known("german"))
    move = next(c for c in signed.engine.choices(state, "german") if isinstance(c, Move))
    new, old = ENGINE.format(move), OLD["1.1"].format(move)
    assert " -> " in old and new.startswith("move ") and " to " in new
    # the client parses what was typed and signs the game's engine's text
    assert signed.engine.format(signed.engine.parse(new, state, "german")) == old
    signed.engine = ENGINE  # a client that would sign 1.2's text in a 1.1 game
    with pytest.raises(PbemError, match="canonical"):
        signed.decide("german", move)
    signed.engine = OLD["1.1"]
    signed.decide("german", move)
    assert signed.game.entries[-1].body["decision"] == old
