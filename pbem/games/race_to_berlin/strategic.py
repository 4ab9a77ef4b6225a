"""Strategic Movement Phase, rulebook 4.3, and the 6th SS Panzer Army's transfer.

At the end of turns 1 and 2 each player, the first player first, may move one unit of
its own side and one of its German units any distance through friendly areas, into a
friendly area connected by friendly areas to the force's supply source: the western or
southern edge for the West, the eastern edge for the Soviets, an eagle area or B1 for the
Germans. For this phase the Western and Eastern Front Germans are separate forces: a
German unit passes only through German areas holding no unit of the other front.

Then the special tokens turn face up. After turn 1 the Western Front 6th SS Panzer Army
leaves the board and the West player places the Eastern Front token, at the same
strength, in a German area next to the Eastern Front line (if it was not destroyed).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context
from pbem.games.race_to_berlin.board import berlin_problem, front_line_areas
from pbem.games.race_to_berlin.data import SUPPLY_EDGES
from pbem.games.race_to_berlin.decisions import EndStrategic, PlaceReserve, Strategic
from pbem.games.race_to_berlin.flow import check_b1, end_turn
from pbem.games.race_to_berlin.pieces import move_unit
from pbem.games.race_to_berlin.state import (
    GERMAN,
    NAMES,
    ROLES,
    SOVIET,
    WEST,
    State,
    area_name,
    control_of,
    controlled_units_in,
    illegal,
    is_german,
    other,
    room_for,
)

R_STRATEGIC = "4.3"


def begin_strategic(state: State, ctx: Context) -> None:
    state["phase"] = "strategic"
    state["step"] = "strategic"
    state["strategic"] = {r: {"own": None, "german": None, "done": False} for r in ROLES}
    state["active"] = state["first"]
    ctx.event(
        f"turn {state['turn']}: Strategic Movement Phase, {NAMES[state['first']]} first "
        f"(rulebook {R_STRATEGIC})"
    )
    _next(state, ctx)


def _friendly_areas(state: State, unit: str) -> set[str]:
    """Areas friendly to `unit` for strategic movement: its force's areas; for a German
    unit, German areas without a unit of the other front."""
    rec = state["units"][unit]
    control = control_of(rec["force"])
    areas = {a for a in state["map"]["area_ids"] if state["areas"][a]["control"] == control}
    if control == GERMAN:
        for u, other_rec in state["units"].items():
            if other_rec["area"] in areas and u != unit and other_rec["force"] != rec["force"]:
                areas.discard(other_rec["area"])
    return areas


def _sources(state: State, unit: str, friendly: set[str]) -> set[str]:
    control = control_of(state["units"][unit]["force"])
    static = state["map"]["areas"]
    if control == GERMAN:
        return {a for a in friendly if static[a]["eagle"]}
    edges = set(SUPPLY_EDGES[control])
    return {a for a in friendly if set(static[a]["edges"]) & edges}


def _spread(state: State, start: set[str], inside: set[str], control: str) -> set[str]:
    static = state["map"]["areas"]
    reached = set(start)
    todo = list(start)
    while todo:
        here = todo.pop()
        for there in static[here]["neighbours"]:
            if there in inside and there not in reached:
                if berlin_problem(control, here, there, "enter") is not None:
                    continue
                reached.add(there)
                todo.append(there)
    return reached


def destinations(state: State, unit: str) -> list[str]:
    """Where `unit` may end a strategic move."""
    rec = state["units"][unit]
    here = rec["area"]
    if here is None:
        return []
    control = control_of(rec["force"])
    friendly = _friendly_areas(state, unit)
    friendly.add(here)
    reach = _spread(state, {here}, friendly, control)
    linked = _spread(state, _sources(state, unit, friendly), friendly, control)
    out = []
    for area in state["map"]["area_ids"]:
        if area == here or area not in reach or area not in linked:
            continue
        if room_for(state, area, control, [unit]) < 1:
            continue
        out.append(area)
    return out


def kind_of(state: State, unit: str) -> str:
    return "german" if is_german(state["units"][unit]["force"]) else "own"


def options(state: State, role: str) -> list[Strategic]:
    if state["step"] != "strategic" or state["active"] != role:
        return []
    used = state["strategic"][role]
    out = []
    for area in state["map"]["area_ids"]:
        for unit in controlled_units_in(state, area, role):
            if used[kind_of(state, unit)] is not None:
                continue
            out += [Strategic(unit, area, to) for to in destinations(state, unit)]
    return out


def strategic_problem(state: State, role: str, d: Strategic) -> str | None:
    rec = state["units"].get(d.unit)
    if rec is None:
        return f"there is no unit {d.unit}"
    if d.unit not in controlled_units_in(state, rec["area"] or "", role):
        return f"{d.unit} is not a unit {NAMES[role]} commands on the board"
    if rec["area"] != d.frm:
        return f"{d.unit} is in {rec['area']}, not {d.frm}"
    kind = kind_of(state, d.unit)
    done = state["strategic"][role][kind]
    if done is not None:
        what = "German unit" if kind == "german" else "unit of its own side"
        return f"{NAMES[role]} has already moved a {what} ({done}) this phase"
    if d.to not in destinations(state, d.unit):
        return (
            f"{d.unit} cannot reach {d.to}: a strategic move goes through friendly areas into "
            "a friendly area linked to its supply source, with room for the unit"
        )
    return None


def strategic_move(state: State, role: str, d: Strategic, ctx: Context) -> None:
    problem = strategic_problem(state, role, d)
    if problem is not None:
        raise illegal(problem, R_STRATEGIC)
    move_unit(state, d.unit, d.to)
    state["strategic"][role][kind_of(state, d.unit)] = d.unit
    ctx.event(
        f"{NAMES[role]} moves {d.unit} strategically from {d.frm} to {area_name(state, d.to)}",
        unit=d.unit,
        frm=d.frm,
        to=d.to,
    )
    if check_b1(state, ctx):
        return
    _next(state, ctx)


def end_strategic(state: State, role: str, d: EndStrategic, ctx: Context) -> None:
    state["strategic"][role]["done"] = True
    ctx.event(f"{NAMES[role]} ends its strategic movement")
    _next(state, ctx)


def _next(state: State, ctx: Context) -> None:
    order = [state["first"], other(state["first"])]
    for role in order:
        record = state["strategic"][role]
        if record["done"]:
            continue
        if not options_for(state, role):
            record["done"] = True
            continue
        state["active"] = role
        return
    _end_phase(state, ctx)


def options_for(state: State, role: str) -> list[Strategic]:
    saved = state["active"]
    state["active"] = role
    try:
        return options(state, role)
    finally:
        state["active"] = saved


# --- after the Strategic Movement Phase ---------------------------------------------------------


def _end_phase(state: State, ctx: Context) -> None:
    for role in ROLES:
        for token in state["tokens"][role]:
            token["used"] = False
    ctx.event(f"the special tokens are turned face up (rulebook {R_STRATEGIC})")
    if state["turn"] == 1 and _transfer(state, ctx):
        return
    end_turn(state, ctx)


def reserve_unit(state: State) -> dict[str, Any] | None:
    for rec in state["units"].values():
        if rec["status"] == "reserve":
            return rec
    return None


def reserve_areas(state: State) -> list[str]:
    rec = reserve_unit(state)
    if rec is None:
        return []
    return [
        a
        for a in front_line_areas(state, SOVIET)
        if room_for(state, a, GERMAN) >= 1 and berlin_problem(GERMAN, a, a, "enter") is None
    ]


def _transfer(state: State, ctx: Context) -> bool:
    """After turn 1: the 6th SS Panzer Army changes fronts. True when West must place it."""
    rec = reserve_unit(state)
    if rec is None:
        return False
    old = state["units"].get(rec["replaces"] or "")
    if old is None or old["status"] != "board":
        ctx.event(
            f"the Western Front {rec['name']} was destroyed: no transfer (rulebook {R_STRATEGIC})"
        )
        rec["status"] = "unused"
        return False
    where = old["area"]
    old["area"] = None
    old["status"] = "transferred"
    rec["strength"] = old["strength"]
    ctx.event(
        f"{old['name']} ({old['id']}) leaves the Western Front from {where} at strength "
        f"{old['strength']} (rulebook {R_STRATEGIC})",
        unit=old["id"],
        area=where,
    )
    from pbem.games.race_to_berlin.pieces import drop_orphan_blocks

    if where is not None:
        drop_orphan_blocks(state, where, ctx)
    if not reserve_areas(state):
        ctx.event(f"no German area next to the Eastern Front line has room: {rec['id']} stays off")
        rec["status"] = "unused"
        return False
    state["step"] = "place_reserve"
    state["phase"] = "strategic"
    state["active"] = WEST
    return True


def place_reserve(state: State, role: str, d: PlaceReserve, ctx: Context) -> None:
    allowed = reserve_areas(state)
    if d.area not in allowed:
        raise illegal(
            f"{d.area} is not a German area next to the Eastern Front line with room "
            f"(choose {', '.join(allowed)})",
            R_STRATEGIC,
        )
    rec = reserve_unit(state)
    assert rec is not None
    rec["area"] = d.area
    rec["status"] = "board"
    ctx.event(
        f"West places the Eastern Front {rec['name']} ({rec['id']}) in "
        f"{area_name(state, d.area)} at strength {rec['strength']} (rulebook {R_STRATEGIC})",
        unit=rec["id"],
        area=d.area,
    )
    end_turn(state, ctx)
