"""`copy_state` copies the parts kept per player in one step for two players, and the
same way as its reference for any other number (`_copy_per_role`): a part with one or
three players, or a strategic record of one, is copied as `reference_copy` copies it."""

from __future__ import annotations

from pbem.games.race_to_berlin.state import copy_state
from tests.games.race_to_berlin.rtb_support import action_game
from tests.games.race_to_berlin.test_rtb_copy_state import reference_copy
from tests.support.sharing import same_sharing


def test_parts_of_other_numbers_of_players_are_copied_as_the_reference_copies() -> None:
    state = action_game().state
    variants = [
        {**state, "cubes": {**state["cubes"], "third": {"pool": 1, "lost": 0}}},
        {**state, "hands": {"west": [2, 3]}},
        {**state, "strategic": {"west": {"own": None, "german": None, "done": False}}},
        {**state, "bases": {}, "tokens": {**state["tokens"], "x": [], "y": []}},
        {**state, "strategic": {r: {"own": None, "german": None, "done": True} for r in "ab"}},
    ]
    for variant in [state, *variants]:
        same_sharing(copy_state(variant), reference_copy(variant), variant)
