"""Issue 14: Race to Berlin's canonical decision text is shell-safe from rules 1.1 (`move 11
to 12 with us-1`, not `move 11 -> 12: us-1`, which a shell reads as a redirection into a
file `12:`); rules 1.0 games keep signing the text of 1.0; every version reads both."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.core.engine import register
from pbem.errors import PbemError
from pbem.games.race_to_berlin.decisions import (
    Advance,
    Attack,
    Counterattack,
    EndStrategic,
    Loss,
    Move,
    OpenBlocks,
    Place,
    PlaceReserve,
    RemoveBlock,
    Reserves,
    Retreat,
    Strategic,
    Support,
    Tokens,
)
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.testing import SignedTable
from tests.games.race_to_berlin.rtb_support import DATA, new_game
from tests.support.shell_words import assert_shell_safe, shell_problems

register("race-to-berlin", "pbem.games.race_to_berlin.rules:ENGINE")

OLD = ENGINE.for_version("1.0")

# (the 1.1 canonical text, the 1.0 canonical text, the decision): every decision type
FORMS: list[tuple[str, str, Any]] = [
    ("place 4 in 17", "place 4 in 17", Place("17", 4)),
    ("place block in B1", "place block in B1", Place("B1")),
    (
        "move 11 to 12 with us-1, us-3 + block",
        "move 11 -> 12: us-1, us-3 + block",
        Move("11", "12", ("us-1", "us-3"), True),
    ),
    ("move 11 to 12 with block", "move 11 -> 12: block", Move("11", "12", (), True)),
    ("attack 12 from 11 cubes 2", "attack 12 from 11 cubes 2", Attack("12", "11", 2)),
    (
        "attack 12 from 11 cubes 1 exhausting",
        "attack 12 from 11 cubes 1 exhausting",
        Attack("12", "11", 1, True),
    ),
    ("remove block in 12", "remove block in 12", RemoveBlock("12")),
    ("support from 13", "support from 13", Support("13")),
    ("no support", "no support", Support()),
    ("tokens logistics support", "tokens logistics support", Tokens(True, True)),
    ("no tokens", "no tokens", Tokens()),
    ("reroll", "reroll", Reserves(True)),
    ("keep", "keep", Reserves(False)),
    ("counterattack", "counterattack", Counterattack(True)),
    ("no counterattack", "no counterattack", Counterattack(False)),
    ("loss de-4", "loss de-4", Loss("de-4")),
    (
        "retreat de-4 to 14, de-9 to 15, block to 14",
        "retreat de-4 -> 14, de-9 -> 15, block -> 14",
        Retreat((("de-4", "14"), ("de-9", "15")), ((None, "14"),)),
    ),
    (
        "retreat de-11 to 31, block soviet to 31",
        "retreat de-11 -> 31, block soviet -> 31",
        Retreat((("de-11", "31"),), (("soviet", "31"),)),
    ),
    ("advance us-1 us-3 + block", "advance us-1 us-3 + block", Advance(("us-1", "us-3"), True)),
    ("no advance", "no advance", Advance()),
    (
        "strategic us-1 from 11 to 20",
        "strategic us-1 11 -> 20",
        Strategic("us-1", "11", "20"),
    ),
    ("end strategic", "end strategic", EndStrategic()),
    ("place 6ss in 24", "place 6ss in 24", PlaceReserve("24")),
    ("open blocks", "open blocks", OpenBlocks()),
]


def test_the_check_tells_the_old_syntax_from_the_new() -> None:
    # the shell reads `>` as a redirection: `move 11 -> 12: us-1` wrote a file `12:`
    assert shell_problems("move 11 -> 12: us-1") == ["'>' is special to the shell"]
    assert shell_problems("move 11 to 12 with us-1, us-3 + block") == []


@pytest.mark.parametrize(("new", "old", "decision"), FORMS)
def test_1_1_writes_every_decision_shell_safe_and_reads_both(
    new: str, old: str, decision: Any
) -> None:
    state = ENGINE.setup(DATA, {})
    assert ENGINE.format(decision) == new
    assert_shell_safe(new)
    assert ENGINE.parse(new, state, "west") == decision
    assert ENGINE.parse(old, state, "west") == decision
    assert ENGINE.parse(new.upper(), state, "west") == decision


@pytest.mark.parametrize(("new", "old", "decision"), FORMS)
def test_1_0_keeps_its_text_whatever_was_typed(new: str, old: str, decision: Any) -> None:
    state = OLD.setup(DATA, {})
    assert OLD.version == "1.0"
    assert OLD.format(OLD.parse(new, state, "west")) == old
    assert OLD.format(OLD.parse(old, state, "west")) == old


def test_the_words_of_issue_14_are_a_move() -> None:
    state = ENGINE.setup(DATA, {})
    typed = "move 28 to 29 su-3bf"  # as `pbem move G move 28 to 29 su-3bf` joins its words
    assert ENGINE.parse(typed, state, "soviet") == Move("28", "29", ("su-3bf",))
    assert ENGINE.format(ENGINE.parse(typed, state, "soviet")) == "move 28 to 29 with su-3bf"
    for spelling in ("move su-3bf from 28 to 29", "move 28 -> 29: su-3bf", "move 28 to 29: su-3bf"):
        assert ENGINE.parse(spelling, state, "soviet") == Move("28", "29", ("su-3bf",))


def test_new_games_are_1_1() -> None:
    signed = SignedTable("race-to-berlin", ("west", "soviet"), nonce="shell", signed=False)
    assert signed.engine.version == "1.1"
    assert signed.engine.format(Move("1", "2", ("us-9",))) == "move 1 to 2 with us-9"


@pytest.mark.parametrize("seed", range(6))
def test_bot_games_list_only_shell_safe_choices(seed: int) -> None:
    """Every choice listed in a bot game (menus, `pbem show`), every decision made and its
    sealed public part: shell-safe text that reads back as the same decision."""
    t = new_game(seed=seed, check=False)
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(3000):
        if t.over():
            break
        role = t.asked()
        assert role is not None
        private = t.private(role)
        for option in ENGINE.choices(private, role):
            text = ENGINE.format(option)
            assert_shell_safe(text)
            assert ENGINE.parse(text, private, role) == option
            kinds.add(type(option).__name__)
        decision = t.choose(role, rng)
        public, _values = ENGINE.seal(private, role, decision)
        for d in (decision, public):
            assert_shell_safe(ENGINE.format(d))
            assert ENGINE.parse(ENGINE.format(d), private, role) == d
        t.decide(role, decision)
    assert t.over()
    assert {"Place", "Move", "Attack", "Support", "Tokens", "OpenBlocks"} <= kinds


def old_and_new(version: str) -> SignedTable:
    signed = SignedTable(
        "race-to-berlin", ("west", "soviet"), nonce=f"v{version}", signed=False, version=version
    )
    signed.join_all()
    return signed


def test_a_1_0_game_signs_the_text_of_1_0() -> None:
    """The adjudicator asks a move's text to be engine.format(engine.parse(text)) of the
    game's own version: a 1.0 game refuses the new text and keeps the old one."""
    signed = old_and_new("1.0")
    assert signed.engine.version == "1.0"
    rng = random.Random(1)
    while signed.game.state["phase"] != "action":
        signed.step(rng)
    role = signed.game.prompts()[0].role
    state = signed.engine.with_secrets(signed.game.state, role, signed.known(role))
    move = next(c for c in signed.engine.choices(state, role) if isinstance(c, Move))
    new, old = ENGINE.format(move), OLD.format(move)
    assert "->" in old and "->" not in new
    with pytest.raises(PbemError, match="canonical"):
        signed.move(role, new)
    # the client parses what was typed and signs the version's own text
    assert signed.engine.format(signed.engine.parse(new, state, role)) == old
    signed.move(role, old)
    assert signed.game.entries[-1].body["decision"] == old


def test_a_1_1_game_refuses_the_old_text_as_not_canonical() -> None:
    signed = old_and_new("1.1")
    rng = random.Random(1)
    while signed.game.state["phase"] != "action":
        signed.step(rng)
    role = signed.game.prompts()[0].role
    state = signed.engine.with_secrets(signed.game.state, role, signed.known(role))
    move = next(c for c in signed.engine.choices(state, role) if isinstance(c, Move))
    with pytest.raises(PbemError, match="canonical"):
        signed.move(role, OLD.format(move))
    signed.move(role, ENGINE.format(move))
