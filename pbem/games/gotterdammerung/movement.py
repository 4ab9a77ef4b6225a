"""Götterdämmerung: pure movement rules (rulebook 5.1-5.3, with what of 5.4 a single step needs).

Functions take the loaded map (`map_data.load_map`), the loaded tables (`tables.load_tables`)
and a plain unit dict (as `counters.load_counters` gives: `side`, `class`, `branch`,
`movement`). Hexes are map ids ("op:2419", "city:1320"); `NGP` stands for the North German
Plain Box as the last hex of a path (5.26).

ZOC is not decided here: the engine passes `zoc_cost(from, to) -> int | None`, the movement
points ZOC adds to that step (5.22: 3 for leaving a weak ZOC) or None where ZOC forbids it
(5.22: strong ZOC to strong ZOC; 4.27: a disrupted unit into enemy ZOC). `no_road(from, to)`
says where the road benefit is withheld (5.32: weak ZOC to weak ZOC), and `stops(hex)` where
the unit must stop (5.22: a German unit entering a strong ZOC). Without them there is no ZOC.

Readings where the rulebook is silent:
- 5.18 and 5.19 together: the Delay marker's points come off first, then the rest is halved,
  rounded up; the allowance never goes below zero.
- 5.43: leaving a Transition Hex costs the terrain of the hex entered, nothing more.
- 5.33: with the benefit, a German step between two Transition Hexes costs the road's cost,
  and entering a Transition Hex along a road does not end the move.
- 5.26: the NGP Box is a plain clear hex beyond a red-arrow hex; from a road exit (0516,
  0616, 1518) it costs the road's cost.
- Railroad movement (5.6) is not here: it is a different kind of move (no points).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import map_data as m
from pbem.games.gotterdammerung import tables as t

NGP = "ngp"  # the North German Plain Box as a destination (5.26)
PHASES = ("normal", "counter-move", "breakthrough", "siege")  # 5.16, 5.17, 5.23
DEPOT = "depot"

ZocCost = Callable[[str, str], "int | None"]
HexTest = Callable[[str], bool]
StepTest = Callable[[str, str], bool]


def movement_points(unit: Mapping[str, Any], *, delay: int = 0, halved: bool = False) -> int:
    """The points a unit may spend this phase: its allowance less a Delay marker's number
    (5.18: 5 with "-2" moves 3), then halved rounded up if out of supply or disrupted (5.19,
    Soviet units only)."""
    points = max(0, int(unit["movement"]) - abs(delay))
    if halved and unit["side"] == t.SOVIET:
        points = (points + 1) // 2
    return points


def step_cost(
    board: Mapping[str, Any],
    tables: dict[str, Any],
    unit: Mapping[str, Any],
    a: str,
    b: str,
    *,
    zoc_cost: ZocCost | None = None,
    no_road: StepTest | None = None,
    overrun: bool = False,
    transition_roads: bool = False,
    soviet_occupied: frozenset[str] | set[str] = frozenset(),
) -> int | None:
    """Movement points `unit` spends to move from hex `a` into the adjacent hex `b`, or None
    if it may not make that step at all (ZOC aside, unless `zoc_cost` is given)."""
    side = unit["side"]
    mover = unit["class"]
    if mover not in (t.FOOT, t.VEHICLE) or int(unit["movement"]) < 1:
        return None  # 5.28: a printed allowance of zero never moves
    extra = 0
    if zoc_cost is not None:
        zoc = zoc_cost(a, b)
        if zoc is None:
            return None
        extra = zoc
    road_ok = not (no_road is not None and no_road(a, b))
    if b == NGP:
        return _ngp_cost(board, tables, unit, a, road_ok and not overrun, extra)
    if not m.adjacent(board, a, b):
        return None
    kind_a, kind_b = m.kind(board, a), m.kind(board, b)
    if kind_a == m.CITY_HEX and kind_b == m.TRANSITION:
        return None  # 5.45: never back out of the city
    features = m.hexside(board, a, b)
    if unit["branch"] == DEPOT and side == t.SOVIET:
        # 5.29: only along railroads, 1 point a hex whatever the terrain (a full lake or a
        # Front boundary still stops it: 5.27, 5.28 are not terrain costs).
        if "railroad" not in features:
            return None
        if (
            t.move_cost(tables, mover, "clear", [f for f in features if f in _BARRIERS], side=side)
            is None
        ):
            return None
        return 1 + extra
    if transition_roads and side == t.GERMAN and kind_a == kind_b == m.TRANSITION:
        features = [*features, "road"]  # 5.33
    into_transition = kind_a == m.OPERATIONAL and kind_b == m.TRANSITION  # 5.41
    if into_transition and side == t.GERMAN and b in soviet_occupied:
        road_ok = False  # 5.34
    return _plus(
        t.move_cost(
            tables,
            mover,
            m.terrain(board, b),
            features,
            side=side,
            fortified=m.fortified(board, b),
            into_transition=into_transition,
            overrun=overrun,
            road=road_ok,
        ),
        extra,
    )


_BARRIERS = ("sea-lake", "spree", "front-boundary")


def _plus(cost: int | None, extra: int) -> int | None:
    return None if cost is None else cost + extra


def _ngp_cost(
    board: Mapping[str, Any],
    tables: dict[str, Any],
    unit: Mapping[str, Any],
    a: str,
    road: bool,
    extra: int,
) -> int | None:
    box = board["ngp_box"]
    if a not in box.get("red_arrows", ()) or unit["branch"] == DEPOT:
        return None  # 5.26 only from a red arrow; 5.29 no depot
    hexsides = ["road"] if road and a in box.get("road_exits", ()) else []
    return _plus(t.move_cost(tables, unit["class"], t.CLEAR, hexsides, side=unit["side"]), extra)


def path_cost(
    board: Mapping[str, Any],
    tables: dict[str, Any],
    unit: Mapping[str, Any],
    path: Sequence[str],
    **options: Any,
) -> int | None:
    """The points spent along `path` (its first hex is where the unit stands), or None if a
    step is impossible. `options` are those of `step_cost`."""
    total = 0
    for a, b in zip(path, path[1:], strict=False):
        cost = step_cost(board, tables, unit, a, b, **options)
        if cost is None:
            return None
        total += cost
    return total


def check_path(
    board: Mapping[str, Any],
    tables: dict[str, Any],
    unit: Mapping[str, Any],
    path: Sequence[str],
    *,
    points: int | None = None,
    phase: str = "normal",
    enemy: frozenset[str] | set[str] = frozenset(),
    stops: HexTest | None = None,
    transition_roads: bool = False,
    **options: Any,
) -> int:
    """The points a legal move along `path` spends; IllegalOrderError (one line) otherwise.

    `points` is what the unit may spend (default its printed allowance; see
    `movement_points`), `enemy` the hexes enemy units hold (5.21), `stops` the hexes where it
    must stop (5.22). 5.23: in a Normal Movement Phase a unit may always move one hex, however
    much it costs, if the step is otherwise allowed."""
    if phase not in PHASES:
        raise ValueError(f"unknown movement phase {phase!r}")
    if len(path) < 2:
        raise IllegalOrderError("a move needs at least one hex to enter")
    name = unit.get("name") or unit.get("id") or "the unit"
    if unit["class"] not in (t.FOOT, t.VEHICLE) or int(unit["movement"]) < 1:
        raise IllegalOrderError(f"{name} has no movement allowance and may not move (5.28)")
    _check_phase(board, unit, path, phase, name)
    limit = int(unit["movement"]) if points is None else points
    total = 0
    for i, (a, b) in enumerate(zip(path, path[1:], strict=False)):
        if a == NGP:
            raise IllegalOrderError("a unit in the North German Plain Box may not return (5.26)")
        if i > 0 and stops is not None and stops(a):
            raise IllegalOrderError(f"{name} must stop in {a} (enemy strong ZOC, 5.22)")
        if i > 0 and _ends_move(board, unit, path[i - 1], a, transition_roads, options):
            raise IllegalOrderError(f"{name} must stop in Transition Hex {a} (5.44)")
        if b in enemy:
            raise IllegalOrderError(f"{name} may not enter {b}: an enemy unit is there (5.21)")
        cost = step_cost(board, tables, unit, a, b, transition_roads=transition_roads, **options)
        if cost is None:
            raise IllegalOrderError(f"{name} may not move from {a} into {b}")
        total += cost
    minimum = phase == "normal" and len(path) == 2  # 5.23
    if total > limit and not minimum:
        raise IllegalOrderError(f"{name} needs {total} movement points but has {limit}")
    return total


def _ends_move(
    board: Mapping[str, Any],
    unit: Mapping[str, Any],
    before: str,
    here: str,
    transition_roads: bool,
    options: Mapping[str, Any],
) -> bool:
    """5.44: entering a Transition Hex from an Operational hex ends the move, except a
    German unit entering along a road with the 5.33 benefit."""
    if here == NGP or m.kind(board, here) != m.TRANSITION:
        return False
    if before == NGP or m.kind(board, before) != m.OPERATIONAL:
        return False
    if not (transition_roads and unit["side"] == t.GERMAN):
        return True
    no_road = options.get("no_road")
    by_road = "road" in m.hexside(board, before, here) and not (no_road and no_road(before, here))
    return not by_road


def _check_phase(
    board: Mapping[str, Any], unit: Mapping[str, Any], path: Sequence[str], phase: str, name: str
) -> None:
    """Who may move in which phase (5.16, 5.17, 5.46, 5.54, 5.55)."""
    start = path[0]
    in_city = m.kind(board, start) == m.CITY_HEX
    on_city_map = in_city or m.kind(board, start) == m.TRANSITION
    if phase == "counter-move":
        if unit["side"] != t.GERMAN or unit["class"] != t.VEHICLE:
            raise IllegalOrderError(f"only German vehicle units move in a counter-move ({name})")
        if in_city:
            raise IllegalOrderError(
                f"{name} is in a Berlin City hex and may not counter-move (5.54)"
            )
    elif phase == "breakthrough":
        if unit["side"] != t.SOVIET or unit["class"] != t.VEHICLE:
            raise IllegalOrderError(f"only Soviet vehicle units move in breakthrough ({name})")
        if on_city_map:
            raise IllegalOrderError(
                f"{name} is on the Berlin City Map and may not break through (5.16)"
            )
    elif phase == "siege":
        if unit["side"] != t.SOVIET or not on_city_map:
            raise IllegalOrderError(f"only Soviet units on the Berlin City Map siege-move ({name})")
        if any(h == NGP or m.kind(board, h) == m.OPERATIONAL for h in path[1:]):
            raise IllegalOrderError(
                f"{name} may not enter an Operational hex in siege movement (5.46)"
            )
