"""The typeable syntax: case-insensitive, canonical format, parse(format(d)) == d, errors
that quote the text; and German Rebuild orders (rulebook 6, 6.1) typed as text."""

from __future__ import annotations

import pytest

from pbem.errors import EntropyPending, IllegalOrderError, InvalidOrderError
from pbem.games.berlin_1945.decisions import (
    Cards,
    Casualties,
    Discard,
    Draw,
    EndMovement,
    Execute,
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
from pbem.games.berlin_1945.rules import ENGINE
from pbem.testing import ScriptedContext, Table
from tests.games.berlin_1945.b45_support import Pool, clear, held, remove, say, to_plan, zone_of

CASES = [
    ("draw", Draw()),
    ("open", Open()),
    ("end movement", EndMovement()),
    ("no cards", Cards(())),
    ("cards play 7, 12", Cards((7, 12))),
    ("cards play 1!, 7", Cards((1, 7), (1,))),  # 2.3: Panzerfaust in its ! mode
    ("discard #3", Discard((3,))),
    ("discard #3 for move", Discard((3,), "move")),
    ("plan", Plan(sealed=True)),
    ("plan none", Plan()),
    (
        "plan 15 -> 8:2, 16:2; 3 -> 9:all; extra 4 -> 3:2",
        Plan(
            (PlanOrder("15", (("8", 2), ("16", 2))), PlanOrder("3", (("9", None),))),
            extra=PlanOrder("4", (("3", 2),)),
        ),
    ),
    (
        "plan 15 -> 8:all; rebuild in 12; card 13",
        Plan((PlanOrder("15", (("8", None),)),), rebuild="12", card=13),
    ),
    ("move 4 -> 3: de-a, de-b; 9: de-c", Move("4", (("3", ("de-a", "de-b")), ("9", ("de-c",))))),
    ("move i -> iii: de-a", Move("I", (("III", ("de-a",)),))),
    ("rebuild de-a in 12 discard #1, #2", Rebuild("de-a", "12", (1, 2))),
    ("execute 2", Execute(2)),
    (
        "execute 2 with su-a, su-b / su-c discard #1, #2",
        Execute(2, (("su-a", "su-b"), ("su-c",)), (1, 2)),
    ),
    ("retreat 1", RetreatOrder(1)),
    ("play 24", Play(24)),
    ("play 4 in 8", Play(4, "8")),
    ("play 7 on 2", Play(7, None, 2)),
    ("no reaction", NoReaction()),
    ("play 9 on card 4", Play(9, None, None, 4)),
    ("reinforce b, e", Reinforce("B", "E")),
    ("casualties su-a, su-b", Casualties(("su-a", "su-b"))),
    ("remove none", RemoveUnit(None)),
    ("remove de-a", RemoveUnit("de-a")),
]


@pytest.mark.parametrize(("text", "decision"), CASES)
def test_syntax_round_trip_and_case_insensitive(text: str, decision: object) -> None:
    # The text of rules 1.0 and 1.1, which their games keep signing (1.2's shell-safe text:
    # test_b45_shell_syntax.py); every version reads it.
    assert ENGINE.parse(text, {}, "german") == decision
    assert ENGINE.for_version("1.1").format(decision) == text
    assert ENGINE.parse("  " + text.upper().replace(" ", "  ") + " ", {}, "german") == decision


@pytest.mark.parametrize(
    "text", ["plan 15 -> 8:2, 16:all", "move 4", "fly 3", "plan 15 -> 8:1, 9:1, 10:1", "discard x"]
)
def test_syntax_errors_quote_the_text(text: str) -> None:
    with pytest.raises(InvalidOrderError) as caught:
        ENGINE.parse(text, {}, "german")
    assert repr(text) in str(caught.value)


def german_turn() -> tuple[Table, Pool]:
    t = to_plan(11)
    say(t, "soviet", "plan none")
    clear(t.state)
    return t, Pool(t.state)


def test_rulebook_6_german_rebuild_costs_two_cards_in_a_controlled_zone() -> None:
    t, pool = german_turn()
    lost = pool.take("wehrmacht", 1, "12")[0]
    remove(t.state, lost)
    ss = pool.take("ss", 1, "12")[0]
    remove(t.state, ss)
    hand = held(t, "german")
    with pytest.raises(IllegalOrderError, match="Areas"):
        say(t, "german", f"rebuild {lost} in a discard #{hand[0]}, #{hand[1]}")
    with pytest.raises(IllegalOrderError, match="not SS"):
        say(t, "german", f"rebuild {ss} in 12 discard #{hand[0]}, #{hand[1]}")
    with pytest.raises(IllegalOrderError, match="two"):
        say(t, "german", f"rebuild {lost} in 12")
    t.state["control"]["13"] = "soviet"
    with pytest.raises(IllegalOrderError, match="control"):
        say(t, "german", f"rebuild {lost} in 13 discard #{hand[0]}, #{hand[1]}")
    ctx = say(t, "german", f"rebuild {lost} in 12 discard #{hand[0]}, #{hand[1]}")
    assert zone_of(t, lost) == "12"
    assert ctx.said("unseen")
    assert held(t, "german") == hand[2:]
    other = pool.take("wehrmacht", 1, "14")[0]
    with pytest.raises(IllegalOrderError, match="ends the Movement phase"):
        say(t, "german", f"move 14 -> 15: {other}")


def test_rulebook_5_4_zhukov_and_konev_never_in_one_plan() -> None:
    with pytest.raises(InvalidOrderError, match="never played in one turn"):
        ENGINE.parse("plan 15 -> 8:1; card 13; card 22", {}, "soviet")


def test_engine_validates_before_any_dice() -> None:
    t = to_plan(12)
    clear(t.state)
    pool = Pool(t.state)
    pool.take("wehrmacht", 2, "8")
    pool.take("soviet-regular", 4, "8")
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "end movement")
    say(t, "german", "no cards")
    bad = ENGINE.parse("cards play 99", {}, "soviet")
    with pytest.raises(IllegalOrderError):
        ENGINE.apply(t.state, "soviet", bad, ScriptedContext(seq=50, pending=True))
    with pytest.raises(EntropyPending, match="casualty check"):
        ENGINE.apply(
            t.state,
            "soviet",
            ENGINE.parse("no cards", {}, "soviet"),
            ScriptedContext(seq=50, pending=True),
        )
