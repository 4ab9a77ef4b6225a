"""Götterdämmerung: supply (rulebook 8.1, 8.2) as pure functions.

Every function takes the loaded map (`map_data.load_map`), the counters data
(`counters.load_counters`), the plain list of units on the maps (as in zoc.py: `id`, `side`,
`hex`, optional `disrupted`/`volkssturm`) and, where the rules need it, the set of hexes
bearing a Soviet Occupied marker (11.12). Only the Soviet player determines supply (8.2).

Readings where the rulebook is terse:
- 8.12 length: "no more than 8 hexes" counts the hexes entered after the unit's own hex.
- 8.14 "hexes or hexsides that the unit is prohibited from entering": full sea/lake and the
  City Map's unbridged Spree (5.28, 4.26), the unused hexes 2321/2322 (2.1) and, for Soviet
  units, Front boundary hexsides (5.27).
- 8.15 with 4.28: a friendly unit in a hex cancels a weak enemy ZOC for the trace, never a
  strong one (zoc.zoc_at with purpose "supply"); the unit's own hex is not checked (only
  8.13's depot rail line names its own hex).
- 8.12/8.13: the turn-1 limit to hexes ending in 01 applies to every use of the eastern edge
  as a source (depots arrive from turn 3, 9.5, so it never bites for 8.13).
- 8.13: the railroad line runs along the printed railroad chains of the Operational Map
  (consecutive hexes of a chain); it must reach an eastern-edge hex.
- 8.12: a unit with no front (a support unit, 5.78) may use the depot of any front.
- 8.17: from the Soviet Occupied Transition Hex the 8-hex line may end at a supplied depot of
  either front or at a supply source (8.17 says "in accordance with 8.12").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import zoc

Unit = Mapping[str, Any]
SUPPLY_RANGE = 8  # 8.12
SUPPLIED, DEFENCE_ONLY, OUT = "supplied", "defence-only", "out"  # 8.11, 8.18
DEPOT = "depot"


def halved(value: int) -> int:
    """8.16: an out-of-supply unit's strengths and movement points, fractions rounded up."""
    return (int(value) + 1) // 2


def source_hexes(board: Mapping[str, Any], turn: int) -> list[str]:
    """8.12: the eastern edge; on Game Turn 1 only the hexes whose last two digits are 01."""
    east = md.edge_hexes(board, "east")
    if turn == 1:
        return [h for h in east if h.endswith("01")]
    return east


def may_step(board: Mapping[str, Any], side: str, a: str, b: str) -> bool:
    """May a supply line pass from hex `a` into the adjacent hex `b` (8.14)?"""
    if md.kind(board, b) == md.UNUSED:
        return False
    if md.full_lake(board, a, b):
        return False
    return not (side == "soviet" and md.front_boundary(board, a, b) is not None)


def blocker(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    side: str,
    *,
    strong_cancelled: bool = False,
) -> Callable[[str], bool]:
    """A test "does hex h stop a supply line of `side`" (8.15, 4.28): an enemy unit in it, or
    an enemy ZOC not cancelled by a friendly unit there. `strong_cancelled` is 11.15's
    option that a Soviet strong ZOC does not extend into German-occupied hexes."""
    enemy_here = {u["hex"] for u in units if u["side"] != side}
    friendly_here = {u["hex"] for u in units if u["side"] == side}
    zone = zoc.enemy_zoc(board, data, units, side)

    def blocked(h: str) -> bool:
        if h in enemy_here:
            return True
        strength = zone.get(h)
        if strength is None:
            return False
        # a friendly unit cancels a weak ZOC (4.28), a strong one only under 11.15
        return not (h in friendly_here and (strength == zoc.WEAK or strong_cancelled))

    return blocked


def trace(
    board: Mapping[str, Any],
    side: str,
    start: str,
    targets: Collection[str],
    blocked: Callable[[str], bool],
    *,
    limit: int | None = None,
    on: str | None = md.OP,
) -> str | None:
    """The nearest target hex reachable from `start` by a supply line of at most `limit`
    hexes (None: unlimited) on map `on` (8.14, 8.15), or None. The start hex is not tested."""
    if start in targets:
        return start
    seen = {start: 0}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        if limit is not None and seen[h] >= limit:
            continue
        for n in md.neighbours(board, h, on):
            if n in seen or not may_step(board, side, h, n) or blocked(n):
                continue
            if n in targets:
                return n
            seen[n] = seen[h] + 1
            todo.append(n)
    return None


def _rail_links(board: Mapping[str, Any]) -> dict[str, set[str]]:
    links: dict[str, set[str]] = {}
    for chain in board["railroads"]:
        hexes = list(chain["hexes"])
        for h in hexes:
            links.setdefault(h, set())
        for a, b in zip(hexes, hexes[1:], strict=False):
            links[a].add(b)
            links[b].add(a)
    return links


def depot_supplied(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    depot: Unit,
    turn: int,
) -> bool:
    """8.13: a depot on a railroad hex joined along the railroad to the eastern edge, with no
    hex of the line (its own included) holding an enemy unit or enemy ZOC, friendly units or
    not."""
    links = _rail_links(board)
    start = depot["hex"]
    if start not in links:
        return False
    zone = zoc.enemy_zoc(board, data, units, depot["side"])
    enemy_here = {u["hex"] for u in units if u["side"] != depot["side"]}

    def bad(h: str) -> bool:
        return h in enemy_here or h in zone

    if bad(start):
        return False
    sources = set(source_hexes(board, turn))
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        if h in sources:
            return True
        for n in links[h]:
            if n not in seen and not bad(n):
                seen.add(n)
                todo.append(n)
    return False


def _front(data: Mapping[str, Any], unit: Unit) -> str | None:
    value = zoc.counter(data, unit).get("front")
    return None if value is None else str(value)


def _is_depot(data: Mapping[str, Any], unit: Unit) -> bool:
    return zoc.counter(data, unit).get("branch") == DEPOT


def supplied_depots(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], turn: int
) -> list[Unit]:
    return [
        u
        for u in units
        if u["side"] == "soviet"
        and _is_depot(data, u)
        and depot_supplied(board, data, units, u, turn)
    ]


def unit_supplied(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    turn: int,
    occupied: Iterable[str] = (),
) -> bool:
    """Is a Soviet unit supplied (8.12-8.15, 8.17)? A depot follows 8.13."""
    if _is_depot(data, unit):
        return depot_supplied(board, data, units, unit, turn)
    blocked = blocker(board, data, units, "soviet")
    depots = supplied_depots(board, data, units, turn)
    sources = set(source_hexes(board, turn))
    if md.kind(board, unit["hex"]) == md.CITY_HEX:
        # 8.17: unlimited on the City Map to a Soviet Occupied Transition Hex, then 8 hexes to
        # a depot of either front.
        marked = {h for h in occupied if h in board["transition"]}
        ends = sources | {d["hex"] for d in depots}
        for th in sorted(marked):
            if blocked(th):
                continue
            if trace(board, "soviet", unit["hex"], {th}, blocked, on=md.CITY) is None:
                continue
            if trace(board, "soviet", th, ends, blocked, limit=SUPPLY_RANGE) is not None:
                return True
        return False
    front = _front(data, unit)
    ends = sources | {d["hex"] for d in depots if front is None or _front(data, d) == front}
    return trace(board, "soviet", unit["hex"], ends, blocked, limit=SUPPLY_RANGE) is not None


def defence_only(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], unit: Unit
) -> bool:
    """8.18: a Soviet unit east of the start line with an unlimited line to the eastern edge
    keeps its full defence strength."""
    if md.kind(board, unit["hex"]) == md.CITY_HEX or not md.east_of_start_line(board, unit["hex"]):
        return False
    blocked = blocker(board, data, units, "soviet")
    east = set(md.edge_hexes(board, "east"))
    return trace(board, "soviet", unit["hex"], east, blocked) is not None


def supply_status(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    turn: int,
    occupied: Iterable[str] = (),
) -> dict[str, str]:
    """8.11: every Soviet unit's status at the start of the Supply and Reinforcement Phase:
    "supplied", "defence-only" (8.18) or "out". German units have none (8.2)."""
    occupied = set(occupied)
    out: dict[str, str] = {}
    for u in units:
        if u["side"] != "soviet":
            continue
        if unit_supplied(board, data, units, u, turn, occupied):
            out[u["id"]] = SUPPLIED
        elif defence_only(board, data, units, u):
            out[u["id"]] = DEFENCE_ONLY
        else:
            out[u["id"]] = OUT
    return out


def strengths(unit: Mapping[str, Any], status: str | None) -> dict[str, int]:
    """8.16/8.18: attack, defence and movement a unit uses for its supply status (None for a
    German unit, which is never out of supply, 8.2)."""
    a, d, m = int(unit["attack"]), int(unit["defence"]), int(unit["movement"])
    if status == OUT:
        return {"attack": halved(a), "defence": halved(d), "movement": halved(m)}
    if status == DEFENCE_ONLY:
        return {"attack": halved(a), "defence": d, "movement": halved(m)}
    return {"attack": a, "defence": d, "movement": m}
