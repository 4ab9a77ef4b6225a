"""Götterdämmerung: the unlimited supply searches of issue 29's sixth session give what the
plain ones do (rulebook 8.14, 8.15, 8.18, 8.32, 8.43).

- supply._Toward orders each hex's steps for a search toward a set of ends: the same
  hexes as supply._steps, farthest from the ends first (distances along the steps, every
  hex open), ties in the map's order. A depth-first search over it (supply._connected)
  answers as one over the map's order and as a breadth-first trace, on bot games'
  positions and shuffled ones, for the ends the rules use and for other ends.
- The tables are per map: a map edited after `map_data.changed` is searched anew, never
  with the order (or the distances) of the map as it was.
- supply.reaches_unlimited searches from the start until a position has been asked about
  `_BUILD_AFTER` times, then answers from one search backwards: both answer as the trace.
"""

from __future__ import annotations

import copy
from collections import deque
from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import supply, zoc
from tests.games.gotterdammerung.test_gd_speed import game, on_maps, plain_trace

__all__ = ["game"]  # (the module's fixture, used here)


def plain_distances(board: Any, side: str, on: str | None, ends: Any) -> dict[str, int]:
    """Each hex's number of steps to the nearest of `ends`, every hex open, one forward
    search per hex (nothing shared with supply.py's backward one)."""
    steps = supply._steps(board, side, on)
    out = {}
    for start in steps:
        if start in ends:
            out[start] = 0
            continue
        seen = {start: 0}
        todo = deque([start])
        while todo:
            h = todo.popleft()
            found = next((n for n in steps[h] if n in ends), None)
            if found is not None:
                out[start] = seen[h] + 1
                break
            for n in steps[h]:
                if n not in seen:
                    seen[n] = seen[h] + 1
                    todo.append(n)
    return out


def test_toward_orders_each_hexes_steps_by_their_distance_to_the_ends() -> None:
    board = md.default_map()
    west = frozenset(md.edge_hexes(board, "west"))
    for side, on, ends in (
        ("soviet", md.OP, frozenset(md.edge_hexes(board, "east"))),
        ("german", None, west),
        ("german", md.OP, frozenset(["op:2419", "op:3010"])),
    ):
        toward = supply._toward(board, side, on, ends)
        assert supply._toward(board, side, on, ends) is toward  # (one per map)
        steps = supply._steps(board, side, on)
        dist = plain_distances(board, side, on, ends)
        assert supply._distances_to(board, side, on, ends) == dist
        far = len(steps) + 1
        for h in list(steps)[::5]:
            order = toward[h]
            assert sorted(order) == sorted(steps[h])
            keys = [dist.get(n, far) for n in order]
            assert keys == sorted(keys, reverse=True), (side, on, h)
            for a, b in zip(order, order[1:], strict=False):  # ties: the map's order
                if dist.get(a, far) == dist.get(b, far):
                    assert steps[h].index(a) < steps[h].index(b)


def test_searches_toward_the_ends_answer_as_the_trace(game: Any) -> None:
    board, data, found = game
    east = frozenset(md.edge_hexes(board, "east"))
    west = frozenset(md.edge_hexes(board, "west"))
    answers: set[bool] = set()
    for position in found:
        units = on_maps(position)
        for side, on, ends in (
            ("soviet", md.OP, east),
            ("german", md.OP, west),
            ("german", None, west),
            ("german", None, frozenset(["city:1320", "op:2419"])),
        ):
            stopped = supply.stopped_hexes(board, data, units, side)
            toward = supply._toward(board, side, on, ends)
            steps = supply._steps(board, side, on)
            for u in units[::4]:
                if u["hex"] in ends or u["hex"] not in steps:
                    continue
                got = supply._connected(toward, u["hex"], ends, stopped)
                assert got == supply._connected(steps, u["hex"], ends, stopped)
                trace = plain_trace(board, side, u["hex"], ends, stopped.__contains__, None, on)
                assert got == (trace is not None), (side, on, u["hex"])
                answers.add(got)
    assert answers == {True, False}


def test_an_edited_map_gets_a_new_order() -> None:
    """A sea/lake hexside added to a map already searched (then `map_data.changed`): the
    line no longer crosses it, and the order is made from the edited map."""
    board = copy.deepcopy(md.default_map())
    start, end = "op:2419", "op:2520"
    ends = frozenset([end])
    before = supply._toward(board, "german", md.OP, ends)
    assert end in before[start]
    assert supply._connected(before, start, ends, frozenset())
    board["hexsides"][md.side_key(start, end)] = ["sea-lake"]
    md.changed(board)
    after = supply._toward(board, "german", md.OP, ends)
    assert after is not before
    assert end not in after[start]
    reached = supply._connected(after, start, ends, frozenset())
    assert reached == (plain_trace(board, "german", start, ends, lambda h: False) is not None)
    assert reached  # (round the lake)


def test_reaches_unlimited_by_search_and_by_lines_answer_as_the_trace(game: Any) -> None:
    """Asked about one position more than `_BUILD_AFTER` times, the first answers come
    from a search each and the later ones from the position's backward search: every one
    is the trace's."""
    board, data, found = game
    west = md.edge_hexes(board, "west")
    city = sorted(h for h in board["hexes"] if md.kind(board, h) == md.CITY_HEX)
    starts = city[:: max(1, len(city) // (3 * supply._BUILD_AFTER))]
    assert len(starts) > 2 * supply._BUILD_AFTER
    answers: set[bool] = set()
    for position in found[::2]:
        units = on_maps(position)
        for side, ends in (("german", west), ("soviet", supply.source_hexes(board, 3))):
            supply._REACHED.clear()
            blocked = supply.blocker(board, data, units, side)
            for h in starts:
                got = supply.reaches_unlimited(board, data, units, side, h, ends, on=None)
                expected = plain_trace(board, side, h, set(ends), blocked, None, None)
                assert got == (expected is not None), (side, h)
                answers.add(got)
            built = [v for v in supply._REACHED.values() if v[2] is not None]
            assert built, "the position's backward search was never made"
    assert answers == {True, False}


def test_stopped_hexes_are_the_plain_ones(game: Any) -> None:
    """supply.stopped_hexes (the zone as a set, less the hexes a friendly unit cancels) is
    8.15/4.28 hex by hex: an enemy unit's hex, or an enemy ZOC not cancelled by a friendly
    unit (a weak one; a strong one too under 11.15), on positions with both sides' units in
    one hex (the shuffled ones)."""
    board, data, found = game
    cancelled = both = 0
    for position in found:
        units = on_maps(position)
        for side in ("soviet", "german"):
            zone = zoc.enemy_zoc(board, data, units, side)
            enemy = {u["hex"] for u in units if u["side"] != side}
            friendly = {u["hex"] for u in units if u["side"] == side}
            both += len(enemy & friendly & set(zone))
            for strong_cancelled in (False, True):
                plain = set(enemy)
                for h, strength in zone.items():
                    if not (h in friendly and (strength == zoc.WEAK or strong_cancelled)):
                        plain.add(h)
                got = supply.stopped_hexes(
                    board, data, units, side, strong_cancelled=strong_cancelled
                )
                assert got == plain
                cancelled += len(set(zone) - plain)
    assert cancelled and both
