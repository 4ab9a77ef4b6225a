"""Götterdämmerung: zoc_index's cheaper updates give the strict answers: units put in a
state after the others (a list longer than the one asked before), a side's ZOC brought up
to date only when that side is asked, and a map changed in place only when nothing but
the index holds it any more (a map a caller holds never changes)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import zoc
from tests.games.gotterdammerung import gd_games


@pytest.fixture(scope="module")
def start() -> dict[str, Any]:
    return gd_games.position(3, 200)


def strict_all(state: dict[str, Any], side: str) -> dict[str, str]:
    return dict(
        zoc.zone_of_all_strict(state["board"], state["counters"], state["units"].values(), side)
    )


def test_units_put_after_the_others(start: dict[str, Any]) -> None:
    """New units put in a state (listed after the others), then changed in place: every
    answer is the strict one, and a list whose new unit repeats an id is the strict one's."""
    board, data = start["board"], start["counters"]
    state = gs.copy_state(start)
    for side in gs.SIDES:
        assert dict(zoc.zone_of_all(board, data, state["units"].values(), side)) == strict_all(
            state, side
        )
    hexes = sorted(h for h in board["hexes"] if md.kind(board, h) == md.OPERATIONAL)
    newcomers = sorted(uid for uid in data["units"] if uid not in state["units"])[:6]
    for n, uid in enumerate(newcomers):
        state = gs.copy_state(state)
        unit = gs.put(state, gs.new_unit(data, uid, hexes[7 * n]))
        for side in gs.SIDES:
            found = zoc.zone_of_all(board, data, state["units"].values(), side)
            assert dict(found) == strict_all(state, side)
        listed = gs.on_map(state)
        assert zoc.end_of_phase_problems(board, data, listed) == zoc.end_of_phase_strict(
            board, data, listed
        )
        unit["hex"] = hexes[7 * n + 3]  # (this state's own: changed in place, then asked)
        for side in gs.SIDES:
            found = zoc.zone_of_all(board, data, state["units"].values(), side)
            assert dict(found) == strict_all(state, side)
    units = list(state["units"].values())
    twice = [*units, dict(units[3], hex=hexes[1])]
    for side in gs.SIDES:
        assert dict(zoc.zone_of_all(board, data, twice, side)) == dict(
            zoc.zone_of_all_strict(board, data, twice, side)
        )


def test_a_map_nobody_holds_is_brought_up_to_date_in_place(start: dict[str, Any]) -> None:
    """The index changes a map in place only when no caller holds it: one held keeps the
    answer of its position, one let go is the same object with the new answer."""
    board, data = start["board"], start["counters"]
    state = gs.copy_state(start)
    german = sorted(u["id"] for u in gs.on_map(state) if u["side"] == "german")
    hexes = sorted(h for h in board["hexes"] if md.kind(board, h) == md.OPERATIONAL)
    held = zoc.zone_of_all(board, data, state["units"].values(), "soviet")
    kept = dict(held)
    first = id(held)
    del held
    same = 0
    for n, uid in enumerate(german[:8]):
        state = gs.copy_state(state)
        gs.own(state, uid)["hex"] = hexes[11 * n]
        found = zoc.zone_of_all(board, data, state["units"].values(), "soviet")
        assert dict(found) == strict_all(state, "soviet")
        same += id(found) == first
        if n == 3:
            held, kept = found, dict(found)  # (held from here on: never changed again)
        first = id(found)
        del found
    assert same >= 2  # (updated in place while nobody held it)
    assert dict(held) == kept
