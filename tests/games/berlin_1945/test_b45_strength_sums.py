"""`strength_of` and `berlin_strength` (their sums made in C from each unit's strength)
give the sums of `Unit.strength` they replaced, on every position of a bot game, and
refuse an unknown unit as the tables do (KeyError)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.position import berlin_strength, strength_of
from pbem.games.berlin_1945.rulebook import ROLES
from tests.games.berlin_1945.b45_support import table


def _reference(state: dict[str, Any], side: str) -> int:
    units = tables.of(state).units
    return sum(units[u].strength for uids in state["at"][side].values() for u in uids)


def test_the_sums_are_the_reference_sums_in_a_bot_game() -> None:
    t = table(3)
    seen = 0
    while not t.over() and seen < 120:
        for side in ROLES:
            assert berlin_strength(t.state, side) == _reference(t.state, side)
            for uids in t.state["at"][side].values():
                units = tables.of(t.state).units
                assert strength_of(t.state, uids) == sum(units[u].strength for u in uids)
        seen += 1
        t.step()
    assert seen > 20
    with pytest.raises(KeyError):
        strength_of(t.state, ["no-such-unit"])
