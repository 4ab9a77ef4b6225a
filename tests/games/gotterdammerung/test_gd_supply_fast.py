"""Götterdämmerung: the supply fast paths of issue 29 give what the plain searches give.

- supply._Lines.near (a search keeping only the hexes reached) is the set of hexes that
  `_Lines._distances` finds within limit - 1 steps, for every limit (none, 0 included),
  with the blocked hexes given as a set's own test or as any other test.
- supply.stopped_hexes (remembered for the position asked last, by its ZOC map and the
  units' hexes and sides) is what the plain computation gives, asked again of the same
  list after a unit moved or was disrupted in place, or of another list.
- supply._facts (each counter's depot and front, per counters data object) is never read
  for another counters data: a copy with a unit made a depot of another front answers
  with its own facts.

supply_status and _Lines.reaches against the unit-by-unit traces: test_gd_speed.py.
"""

from __future__ import annotations

from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import supply, zoc
from tests.games.gotterdammerung import gd_games


def _positions() -> list[dict[str, Any]]:
    seed = 3  # (played once per process: gd_games.py)
    last = gd_games.length(seed) - 1
    return [gd_games.position(seed, n) for n in (0, last // 3, 2 * last // 3, last)]


def test_near_is_the_hexes_the_distances_find_within_the_limit() -> None:
    for state in _positions():
        board, data = state["board"], state["counters"]
        units = gs.on_map(state)
        for side in ("soviet", "german"):
            stopped = supply.stopped_hexes(board, data, units, side)
            for on in (md.OP, None):
                by_set = supply._Lines(board, side, stopped.__contains__, on)
                by_test = supply._Lines(board, side, lambda h, s=stopped: h in s, on)  # type: ignore[misc]
                ends = [
                    frozenset(supply.source_hexes(board, state["turn"])),
                    frozenset(board["edges"]["west"]),
                    frozenset(u["hex"] for u in units[:5]),
                ]
                for targets in ends:
                    for limit in (None, 0, 1, 2, 8):
                        dist = by_set._distances(targets, limit)
                        most = None if limit is None else limit - 1
                        expected = {h for h, d in dist.items() if most is None or d <= most}
                        assert by_set.near(targets, limit) == expected
                        assert by_test.near(targets, limit) == expected


def test_depot_facts_are_those_of_the_counters_data_asked() -> None:
    state = _positions()[-1]
    data = state["counters"]
    unit = next(u for u in gs.on_map(state) if u["side"] == "soviet")
    facts = supply._facts(data)
    assert facts[unit["id"]] == (
        supply._is_depot(data, unit),
        supply._front(data, unit),
    )
    other = {**data, "units": dict(data["units"])}
    other["units"][unit["id"]] = {**data["units"][unit["id"]], "branch": "depot", "front": "X"}
    assert supply._facts(other)[unit["id"]] == (True, "X")
    assert supply._depot_and_front(supply._facts(other), other, unit) == (True, "X")
    assert supply._facts(data) is facts  # (the first data's own, kept)
    assert supply._depot_and_front(facts, data, {**unit, "volkssturm": True}) == (False, None)


def plain_stopped(board: Any, data: Any, units: Any, side: str, cancelled: bool) -> frozenset[str]:
    enemy_here = {u["hex"] for u in units if u["side"] != side}
    friendly_here = {u["hex"] for u in units if u["side"] == side}
    zone = zoc.zone_strict(board, data, units, side)
    stopped = set(zone) | enemy_here
    for h in friendly_here.intersection(zone):
        if (cancelled or zone[h] == zoc.WEAK) and h not in enemy_here:
            stopped.discard(h)
    return frozenset(stopped)


def _check_stopped(board: Any, data: Any, units: Any, side: str, cancelled: bool) -> None:
    got = supply.stopped_hexes(board, data, units, side, strong_cancelled=cancelled)
    assert got == plain_stopped(board, data, units, side, cancelled)


def test_stopped_hexes_remembered_are_never_those_of_a_changed_position() -> None:
    for state in _positions()[1:3]:
        board, data = state["board"], state["counters"]
        units = [dict(u) for u in gs.on_map(state)]
        hexes = sorted({u["hex"] for u in units})
        for side, cancelled in (("soviet", False), ("german", True), ("german", False)):
            args = (board, data, units, side, cancelled)
            _check_stopped(*args)
            _check_stopped(*args)  # (remembered)
            mover = next(u for u in units if u["side"] != side)
            mover["hex"] = next(h for h in hexes if h != mover["hex"])  # moved in place
            _check_stopped(*args)
            friend = next(u for u in units if u["side"] == side)
            friend["hex"], mover["hex"] = mover["hex"], friend["hex"]  # swapped in place
            _check_stopped(*args)
            mover["disrupted"] = not mover.get("disrupted")  # its ZOC goes or comes (4.27)
            _check_stopped(*args)
            units.append({**mover, "id": mover["id"]})  # (a list of another length)
            _check_stopped(*args)
            units.pop()
            _check_stopped(*args)
