"""Götterdämmerung: the initial deployment (rulebook 10.1-10.22, 6.91, 12.33) as pure functions.

Inputs are plain data as in zoc.py: the loaded map, the counters data and the list of units
already on the maps (`id`, `side`, `hex`). The rulebook's deployment charts are not printed
in it: the counters data's `place` is the stand-in chart (a start hex, or a German
deployment code A-J whose hexes are the map's `deployment` areas).

Readings where the rulebook is terse (also for docs/gotterdammerung.md):
- 10.22: a German unit with a code A-J goes on a hex of its own area; every hex of the area
  must hold a unit of that code or lie in the ZOC (4.21-4.26, zoc.zoc_reach) of one standing
  in the area. German units without a code go on their chart hex. A German unit may not be
  placed with Soviet units (4.17 and 6.0: the sides never share a hex).
- 6.91: one marker per corps (the engine's unit carries one `artillery` flag), on a Soviet or
  Polish corps on the map whose army (`parent`) is the marker's army.
- 12.33: "Operational Map hexes" include the Transition Hexes (they are on both maps, 4.15,
  and 12.34 lets 6th SS units enter them), never Berlin City hexes; "within six hexes" is the
  hex distance on the Operational Map grid, whatever lies between; all nineteen units are
  placed, none with Soviet units.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from pbem.games.gotterdammerung import counters as cn
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import zoc

Unit = Mapping[str, Any]
SIXTH_SS_RANGE = 6  # 12.33
SIXTH_SS = "6th-ss"


def _num(h: str) -> str:
    return h.split(":")[-1]


def chart_hex(unit: Mapping[str, Any]) -> str | None:
    """The start hex of a counters-data unit with a `map` place (the stand-in chart)."""
    place = unit["place"]
    if "map" not in place:
        return None
    return md.ref(place["map"], int(place["hex"]))


# --- 10.1 Soviet ------------------------------------------------------------------------


def soviet_deployment(data: Mapping[str, Any]) -> dict[str, str]:
    """10.11: every Soviet initial unit and its chart hex (full strength, 10.0)."""
    out = {}
    for uid in cn.initial(dict(data), "soviet"):
        h = chart_hex(data["units"][uid])
        if h is not None:
            out[uid] = h
    return out


def soviet_out_of_supply(data: Mapping[str, Any]) -> list[str]:
    """10.12: the units whose chart hex is marked ※ start with an out-of-supply marker
    (8.18 may still give them defence-only supply)."""
    return [
        uid
        for uid in cn.initial(dict(data), "soviet")
        if data["units"][uid]["place"].get("out_of_supply")
    ]


# --- 10.2 German ------------------------------------------------------------------------


def german_initial(data: Mapping[str, Any]) -> list[str]:
    """The German units of the initial deployment (a code A-J or a chart hex)."""
    return cn.initial(dict(data), "german")


def german_placement_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: str,
    h: str,
) -> list[str]:
    """What is wrong with placing German unit `unit` (an id) on hex `h` in the initial
    deployment (10.21, 10.22), given the `units` already placed; [] if allowed. Area
    coverage is checked for the whole deployment by `german_deployment_problems`."""
    c = data["units"].get(unit)
    if c is None or c["side"] != "german":
        return [f"{unit} is not a German unit (10.2)"]
    place = c["place"]
    problems = []
    if "area" in place:
        area = place["area"]
        if h not in board["deployment"][area]:
            problems.append(f"{unit} has code {area}: hex {_num(h)} is not in area {area} (10.22)")
    elif "map" in place:
        home = chart_hex(c)
        if h != home:
            problems.append(f"{unit} is placed on hex {_num(str(home))} (10.21)")
    else:
        return [f"{unit} is not part of the German initial deployment (10.2)"]
    if any(u["hex"] == h and u["side"] != "german" for u in units):
        problems.append(f"hex {_num(h)} holds Soviet units (10.0)")
    stack = [u for u in units if u["hex"] == h and u["id"] != unit]
    stack.append({"id": unit, "side": "german", "hex": h})
    problems.extend(f"{p} (10.22)" for p in zoc.stack_problems(board, data, stack))
    return problems


def area_uncovered(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Iterable[Unit], area: str
) -> list[str]:
    """10.22: the hexes of `area` neither occupied by a German unit with that code nor in the
    ZOC of one standing in the area."""
    hexes = list(board["deployment"][area])
    mine = [
        u
        for u in units
        if u["side"] == "german"
        and data["units"].get(u["id"], {}).get("place", {}).get("area") == area
        and u["hex"] in hexes
    ]
    covered = {u["hex"] for u in mine}
    for u in mine:
        if zoc.zoc_strength(data, u) is not None:
            covered.update(zoc.zoc_reach(board, u["hex"]))
    return [h for h in hexes if h not in covered]


def german_deployment_problems(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit]
) -> list[str]:
    """What is wrong with the German initial deployment in `units` (10.2), [] if legal: every
    initial German unit placed where 10.21/10.22 allow, each area covered, stacking (4.1)."""
    problems = []
    by_id = {u["id"]: u for u in units}
    for uid in german_initial(data):
        u = by_id.get(uid)
        if u is None:
            problems.append(f"{uid} is not placed (10.2)")
            continue
        for p in german_placement_problems(board, data, [], uid, u["hex"]):
            if "stacking" not in p and "(4.1" not in p:
                problems.append(p)
        if any(o["hex"] == u["hex"] and o["side"] != "german" for o in units):
            problems.append(f"hex {_num(u['hex'])} holds Soviet units (10.0)")
    for area in md.DEPLOYMENT_AREAS:
        empty = area_uncovered(board, data, units, area)
        if empty:
            hexes = ", ".join(_num(h) for h in empty)
            problems.append(
                f"area {area}: hexes {hexes} hold no unit of code {area} and lie in none's "
                "ZOC (10.22)"
            )
    german = [u for u in units if u["side"] == "german"]
    for _h, lines in sorted(zoc.end_of_phase_problems(board, data, german).items()):
        problems.extend(f"{p} (10.22)" for p in lines)
    return problems


def _cover(board: Mapping[str, Any], hexes: Sequence[str], n: int) -> list[str]:
    """The fewest hexes of the area (at most n) whose occupants' ZOC covers the area; when
    none does (a map whose area its units cannot cover), the n hexes covering the most."""
    best: tuple[int, list[str]] = (-1, [])
    for size in range(1, min(n, len(hexes)) + 1):
        for pick in combinations(hexes, size):
            covered = set(pick)
            for h in pick:
                covered.update(zoc.zoc_reach(board, h))
            count = sum(1 for h in hexes if h in covered)
            if count == len(hexes):
                return list(pick)
            if count > best[0]:
                best = (count, list(pick))
    return best[1]


def default_german_deployment(board: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, str]:
    """A legal stand-in German set-up (10.22) so an engine can offer "deploy standard": chart
    units on their hex; each area's units spread over the fewest hexes whose ZOC covers the
    area, the rest filling hexes within the stacking limit. Where a map's area cannot be
    covered by its units at all, the layout covers as much as it can (and
    `german_deployment_problems` names the rest)."""
    out: dict[str, str] = {}
    for uid in german_initial(data):
        h = chart_hex(data["units"][uid])
        if h is not None:
            out[uid] = h
    for area in md.DEPLOYMENT_AREAS:
        ids = cn.in_area(dict(data), area)
        hexes = list(board["deployment"][area])
        zoc_ids = [u for u in ids if data["units"][u]["zoc"] != "none"]
        picks = _cover(board, hexes, len(zoc_ids))
        order = picks + [h for h in hexes if h not in picks]
        # the biggest stacks first, so each cover hex gets a unit that exerts a ZOC
        queue = sorted(ids, key=lambda u: (data["units"][u]["zoc"] == "none", u))
        placed: list[dict[str, Any]] = []
        for i, uid in enumerate(queue):
            start = i if i < len(picks) else 0
            for h in order[start:] + order[:start]:
                trial = [
                    *[p for p in placed if p["hex"] == h],
                    {"id": uid, "side": "german", "hex": h},
                ]
                if not zoc.stack_problems(board, data, trial):
                    placed.append(trial[-1])
                    out[uid] = h
                    break
            else:
                raise ValueError(f"no room in area {area} for {uid} (4.1)")
    return out


# --- 6.91 artillery -----------------------------------------------------------------------


def artillery_problems(
    data: Mapping[str, Any], units: Sequence[Unit], marker: str, unit: str
) -> list[str]:
    """What is wrong with placing Artillery Support marker `marker` on unit `unit` at the
    initial deployment (6.91), [] if allowed: a corps on the map of the marker's army."""
    found = next((m for m in data["artillery"] if m["id"] == marker), None)
    if found is None:
        return [f"{marker} is not an Artillery Support marker (6.91)"]
    c = data["units"].get(unit)
    here = next((u for u in units if u["id"] == unit), None)
    if c is None or here is None:
        return [f"{unit} is not a unit on the map (6.91)"]
    problems = []
    if c["side"] != "soviet" or c["size"] != "corps":
        problems.append(f"{unit} is not a Soviet corps (6.91)")
    elif c["parent"] != found["army"]:
        problems.append(
            f"{marker} goes on a corps of army {found['army']}; {unit} belongs to "
            f"{c['parent'] or 'no army'} (6.91)"
        )
    if here.get("artillery"):
        problems.append(f"{unit} already bears an Artillery Support marker (6.91)")
    return problems


# --- 12.33 the 6th SS Panzer Army -----------------------------------------------------------


def _distance(board: Mapping[str, Any], a: str, b: str) -> int:
    grid = md.grids(board)[md.OP]
    return int(grid.distance(int(_num(a)), int(_num(b))))


def sixth_ss_members(data: Mapping[str, Any]) -> tuple[str | None, list[str]]:
    """12.32: the 6th SS Panzer Army's HQ id and its other nineteen units."""
    members = cn.pool(dict(data), SIXTH_SS)
    hq = next((u for u in members if data["units"][u]["branch"] == "hq"), None)
    return hq, [u for u in members if u != hq]


def to_deploy(data: Mapping[str, Any], sixth_ss: bool = False) -> list[str]:
    """The German units of the set-up: the initial units (10.2) and, with 12.3, the twenty of
    the 6th SS Panzer Army (12.33)."""
    ids = german_initial(data)
    if sixth_ss:
        hq, others = sixth_ss_members(data)
        ids += ([hq] if hq else []) + others
    return ids


def sixth_ss_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    hq_hex: str | None = None,
    placements: Mapping[str, str] | None = None,
) -> list[str]:
    """What is wrong with the 6th SS Panzer Army set-up (12.33), [] if legal: the HQ on a
    Transition Hex, then each of the nineteen other units of the army on an Operational Map
    hex within six hexes of it (see the module doc), within the stacking limit (4.1), with
    `units` the units already on the map. Without `hq_hex` and `placements` the army's
    units are read from `units` (the whole set-up already in place)."""
    hq, others = sixth_ss_members(data)
    problems = []
    if placements is None:
        mine = {u["id"]: u["hex"] for u in units if u["id"] in others}
        placements = mine
        if hq_hex is None:
            hq_hex = next((u["hex"] for u in units if u["id"] == hq), None)
        units = [u for u in units if u["id"] not in others and u["id"] != hq]
    if hq_hex is None:
        return ["the 6th SS Panzer Army HQ is not placed (12.33)"]
    if md.kind(board, hq_hex) != md.TRANSITION:
        problems.append(
            f"the 6th SS Panzer Army HQ goes on a Transition Hex, not {_num(hq_hex)} (12.33)"
        )
    for uid in placements:
        if uid not in others:
            problems.append(f"{uid} is not a unit of the 6th SS Panzer Army (12.32)")
    for uid in others:
        if uid not in placements:
            problems.append(f"{uid} is not placed (12.33)")
    soviet = {u["hex"] for u in units if u["side"] != "german"}
    for uid, h in placements.items():
        if uid not in others:
            continue
        if md.kind(board, h) not in (md.OPERATIONAL, md.TRANSITION):
            problems.append(f"{uid}: hex {_num(h)} is not on the Operational Map (12.33)")
        elif (
            md.kind(board, hq_hex) == md.TRANSITION and _distance(board, hq_hex, h) > SIXTH_SS_RANGE
        ):
            problems.append(f"{uid}: hex {_num(h)} is more than six hexes from the HQ (12.33)")
        if h in soviet:
            problems.append(f"{uid}: hex {_num(h)} holds Soviet units (12.33)")
    placed = [
        {"id": uid, "side": "german", "hex": h} for uid, h in placements.items() if uid in others
    ]
    if hq is not None:
        placed.append({"id": hq, "side": "german", "hex": hq_hex})
    german = [u for u in units if u["side"] == "german"] + placed
    new_hexes = {p["hex"] for p in placed}
    for h, lines in sorted(zoc.end_of_phase_problems(board, data, german).items()):
        if h in new_hexes:
            problems.extend(f"{p} (12.33)" for p in lines)
    return problems


def default_sixth_ss(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit]
) -> dict[str, str]:
    """A legal stand-in 6th SS Panzer Army set-up (12.33) beside `units` (the rest of the
    set-up): the HQ on the first Transition Hex (in map order) with room around it, each
    unit on the nearest Operational hex within six hexes that holds no Soviet unit and has
    room in the stacking limit."""
    hq, others = sixth_ss_members(data)
    soviet = {u["hex"] for u in units if u["side"] != "german"}
    for hq_hex in sorted(board["transition"]):
        if hq_hex in soviet:
            continue
        near = sorted(
            (
                h
                for h in board["hexes"]
                if md.kind(board, h) in (md.OPERATIONAL, md.TRANSITION)
                and h not in soviet
                and _distance(board, hq_hex, h) <= SIXTH_SS_RANGE
            ),
            key=lambda h: (_distance(board, hq_hex, h), h),
        )
        german = [dict(u) for u in units if u["side"] == "german"]
        out: dict[str, str] = {} if hq is None else {hq: hq_hex}
        for uid in others:
            for h in near:
                trial = [u for u in german if u["hex"] == h] + [
                    {"id": uid, "side": "german", "hex": h}
                ]
                if not zoc.stack_problems(board, data, trial):
                    german.append(trial[-1])
                    out[uid] = h
                    break
            else:
                break
        else:
            return out
    raise ValueError("no room for the 6th SS Panzer Army within six hexes of a Transition Hex")
