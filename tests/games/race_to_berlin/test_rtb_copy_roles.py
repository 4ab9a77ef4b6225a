"""Race to Berlin's small parts (cube pools, markers, eagles, victory points, bases,
stranded areas, placements, tokens, strategic moves: `state.LAZY_PARTS`) are shared
between a state and its copy until the copy changes one (`own_part`): a change never
reaches a part another state holds, whatever the record says or lacks."""

from __future__ import annotations

from pbem.core.canonical import copy_json
from pbem.games.race_to_berlin.state import (
    LAZY_PARTS,
    State,
    copy_state,
    forget_owned_parts,
    own_part,
)
from tests.games.race_to_berlin.rtb_support import action_game


def _state() -> State:
    state = action_game().state
    state["strategic"] = {r: {"own": None, "german": None, "done": False} for r in state["vp"]}
    return state


def test_a_copy_shares_the_small_parts_until_it_changes_one() -> None:
    source = _state()
    before = copy_json(source)
    copy = copy_state(source)
    assert all(copy[key] is source[key] for key in LAZY_PARTS)
    cubes = own_part(copy, "cubes")
    assert cubes is copy["cubes"] is not source["cubes"]
    assert cubes["west"] is not source["cubes"]["west"]  # (per player, each copied)
    cubes["west"]["pool"] -= 1
    assert own_part(copy, "cubes") is cubes  # its own now: not copied again
    for key in LAZY_PARTS:
        part = own_part(copy, key)
        if isinstance(part, dict):
            part["x"] = 1
        else:
            part.append("x")
    assert copy_json(source) == before
    assert copy_state(source)["vp"] is source["vp"]


def test_a_copied_copy_and_a_state_without_a_record_copy_before_changing() -> None:
    source = _state()
    first = copy_state(source)
    mine = own_part(first, "vp")
    second = copy_state(first)  # `first` is copied: its parts are shared from now on
    again = own_part(first, "vp")
    assert again is not mine and second["vp"] is mine
    forget_owned_parts()
    third = copy_state(second)
    forget_owned_parts()
    fresh = own_part(third, "stranded")
    assert fresh is not second["stranded"] and own_part(third, "stranded") is fresh
    assert own_part(_state(), "strategic") is not None
