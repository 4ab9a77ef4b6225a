"""`clone` tells a state of these rules by its number of keys and each key found in C
(`_SHAPE_PARTS`): a state with as many keys but another one among them, or with one key
more or less, takes the reference copy; a 1.0 state (no "rules") is copied in line."""

from __future__ import annotations

from pbem.games.berlin_1945.rules import ENGINE, generic_clone
from tests.games.berlin_1945.b45_support import table
from tests.support.sharing import same_sharing


def test_states_of_other_shapes_are_copied_as_the_reference_copies() -> None:
    state = table(0).state
    assert "rules" in state
    swapped = {k: v for k, v in state.items() if k != "result"}
    swapped["extra"] = {"a": [1]}
    older = {k: v for k, v in state.items() if k != "rules"}  # a 1.0 state
    fewer = {k: v for k, v in older.items() if k != "react"}
    more = {**state, "extra": [[1]], "other": {"b": []}}
    for odd in (state, swapped, older, fewer, more):
        copy = ENGINE.clone(odd)
        same_sharing(copy, generic_clone(odd), odd)
    assert ENGINE.clone(swapped)["extra"] is not swapped["extra"]
