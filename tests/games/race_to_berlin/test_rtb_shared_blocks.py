"""Race to Berlin's blocks are shared between a state and its copy until the copy changes
one (`state.share_blocks`, `writable_block`): a change never reaches a block another state
holds, whatever the record says or lacks, and a reference taken before a change finds the
state's own block by its label."""

from __future__ import annotations

from pbem.games.race_to_berlin.rules import ENGINE
from pbem.games.race_to_berlin.state import (
    State,
    copy_state,
    forget_shared_blocks,
    writable_block,
)
from tests.games.race_to_berlin.rtb_support import action_game


def _state() -> State:
    state = action_game().state
    blocks = [
        {
            "label": f"block/west/t1/{n}",
            "owner": "west",
            "value": None,
            "revealed": False,
            "placed_at": 5 + n,
            "claims": [],
            "due": None,
            "force": "west",
            "area": str(n),
            "cubes": 0,
            "exhausted": False,
            "off": None,
        }
        for n in (1, 2, 3)
    ]
    return {**state, "blocks": blocks}


def test_a_copy_shares_its_blocks_until_it_changes_one() -> None:
    source = _state()
    before = [dict(b) for b in source["blocks"]]
    copy = copy_state(source)
    assert all(a is b for a, b in zip(copy["blocks"], source["blocks"], strict=True))
    mine = writable_block(copy, copy["blocks"][1])
    assert mine is not source["blocks"][1] and copy["blocks"][1] is mine
    mine["cubes"] = 2
    assert writable_block(copy, mine) is mine  # its own now: not copied again
    assert source["blocks"] == before
    assert copy["blocks"][0] is source["blocks"][0]  # the others still shared


def test_a_reference_taken_before_a_change_finds_the_states_own_block() -> None:
    copy = copy_state(_state())
    old = copy["blocks"][2]
    mine = writable_block(copy, old)
    mine["cubes"] = 1
    assert writable_block(copy, old) is mine
    assert writable_block(copy, dict(old)) is mine  # (by its label)


def test_a_copied_copy_and_a_state_without_a_record_copy_before_changing() -> None:
    source = _state()
    first = copy_state(source)
    own = writable_block(first, first["blocks"][0])
    second = copy_state(first)  # `first` is copied: its blocks are shared from now on
    again = writable_block(first, own)
    assert again is not own and second["blocks"][0] is own
    forget_shared_blocks()
    third = copy_state(second)
    forget_shared_blocks()
    fresh = writable_block(third, third["blocks"][1])
    assert fresh is not second["blocks"][1]
    assert writable_block(third, fresh) is fresh
    new_list = {**second, "blocks": [{"label": "block/soviet/t1/1", "area": "9"}]}
    made = new_list["blocks"][0]
    assert writable_block(new_list, made) is not made  # no record: copied once


def test_the_kit_changes_blocks_through_the_engine() -> None:
    state = _state()
    state["blocks"][0].update(value=4, known=True)
    view = ENGINE.view(state, "soviet")  # strips the value the West knows, in its copy
    assert state["blocks"][0]["value"] == 4 and state["blocks"][0]["known"] is True
    assert view is not state
