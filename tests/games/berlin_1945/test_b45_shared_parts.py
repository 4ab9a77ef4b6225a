"""Berlin 1945's decks, cards played, markers and flags are shared between a state and its
copy until the copy changes one (`shared_parts.own_part`): a change never reaches a part
another state holds, whatever the record says or lacks; a flag already set copies nothing."""

from __future__ import annotations

from pbem.core.canonical import copy_json
from pbem.games.berlin_1945 import shared_parts
from pbem.games.berlin_1945.position import note_soviet_entry
from pbem.games.berlin_1945.rules import ENGINE, generic_clone
from pbem.games.berlin_1945.shared_parts import LAZY_PARTS, own_part
from tests.games.berlin_1945.b45_support import table


def test_a_copy_shares_the_parts_until_it_changes_one() -> None:
    source = table(0).state
    before = copy_json(source)
    copy = ENGINE.clone(source)
    assert all(copy[key] is source[key] for key in LAZY_PARTS)
    decks = own_part(copy, "decks")
    assert decks is copy["decks"] is not source["decks"]
    for role, deck in decks.items():
        assert deck["private"] is not source["decks"][role]["private"]
        deck["private"].append("x")
        deck["discard"].append(1)
    assert own_part(copy, "decks") is decks
    own_part(copy, "played")["german"].append(99)
    own_part(copy, "markers").setdefault("1", []).append({"kind": "x"})
    own_part(copy, "flags")["inner"] = "x"
    assert copy_json(source) == before
    assert generic_clone(source)["flags"] is source["flags"]


def test_a_copied_copy_and_a_state_without_a_record_copy_before_changing() -> None:
    source = table(0).state
    first = ENGINE.clone(source)
    mine = own_part(first, "flags")
    second = ENGINE.clone(first)  # `first` is copied: its parts are shared from now on
    again = own_part(first, "flags")
    assert again is not mine and second["flags"] is mine
    shared_parts.forget()
    third = ENGINE.clone(second)
    shared_parts.forget()
    fresh = own_part(third, "markers")
    assert fresh is not second["markers"] and own_part(third, "markers") is fresh


def test_a_flag_already_raised_is_not_copied() -> None:
    state = ENGINE.clone(table(0).state)
    flags = state["flags"]
    zones = [z for z in ("I", "II", "III", "IV", "V", "1", "2", "3") if z in state["control"]]
    for zone in zones:
        note_soviet_entry(state, zone)
    raised = state["flags"]
    if raised is not flags:  # some flag was raised: in the state's own copy
        assert any(raised[k] and not flags[k] for k in raised)
    for zone in zones:
        note_soviet_entry(state, zone)
    assert state["flags"] is raised
