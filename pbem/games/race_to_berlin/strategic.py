"""Strategic Movement Phase, rulebook 4.3, and the 6th SS Panzer Army's transfer: the rules.

At the end of turns 1 and 2 each player, the first player first, may move one unit of
its own side and one of its German units any distance through friendly areas, into a
friendly area connected by friendly areas to the force's supply source: the western or
southern edge for the West, the eastern edge for the Soviets, an eagle area or B1 for the
Germans. For this phase the Western and Eastern Front Germans are separate forces: a
German unit passes only through German areas holding no unit of the other front.

Then the special tokens turn face up. After turn 1 the Western Front 6th SS Panzer Army
leaves the board and the West player places the Eastern Front token, at the same
strength, in a German area next to the Eastern Front line (if it was not destroyed).

Who moves when, and what follows the phase, is `flow`'s.
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context
from pbem.games.race_to_berlin.board import berlin_problem, front_line_areas
from pbem.games.race_to_berlin.data import PLAYER_FORCES
from pbem.games.race_to_berlin.decisions import PlaceReserve, Strategic
from pbem.games.race_to_berlin.state import (
    GERMAN,
    NAMES,
    SOVIET,
    WEST,
    State,
    area_name,
    control_of,
    controlled_units_in,
    graph,
    illegal,
    is_german,
    own_part,
    refuse,
    room_for,
    update_unit,
)
from pbem.games.race_to_berlin.units import drop_orphan_blocks, move_unit

R_STRATEGIC = "4.3"


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
    return {a for a in state["map"]["sources"][control] if a in friendly}


def _spread(state: State, start: set[str], inside: set[str], control: str) -> set[str]:
    return graph(state).region(
        start, inside, lambda here, there: berlin_problem(control, here, there, "enter") is None
    )


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
    """The strategic moves `role` may make now (none unless it is `role`'s turn to move)."""
    if state["step"] != "strategic" or state["active"] != role:
        return []
    return movable(state, role)


def movable(state: State, role: str) -> list[Strategic]:
    """Every strategic move left to `role` this phase, in map order."""
    used = state["strategic"][role]
    out = []
    for area in state["map"]["area_ids"]:
        for unit in controlled_units_in(state, area, role):
            if used[kind_of(state, unit)] is not None:
                continue
            out += [Strategic(unit, area, to) for to in destinations(state, unit)]
    return out


def can_move(state: State, role: str) -> bool:
    """Whether `role` has a strategic move left (without listing them all)."""
    used = state["strategic"][role]
    forces = PLAYER_FORCES[role]
    for unit, rec in state["units"].items():
        if rec["area"] is None or rec["force"] not in forces:
            continue
        if used[kind_of(state, unit)] is None and destinations(state, unit):
            return True
    return False


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


def move(state: State, role: str, d: Strategic, ctx: Context) -> None:
    refuse(strategic_problem(state, role, d), R_STRATEGIC)
    move_unit(state, d.unit, d.to)
    own_part(state, "strategic")[role][kind_of(state, d.unit)] = d.unit
    ctx.event(
        f"{NAMES[role]} moves {d.unit} strategically from {d.frm} to {area_name(state, d.to)}",
        unit=d.unit,
        frm=d.frm,
        to=d.to,
    )


# --- the 6th SS Panzer Army changes fronts ------------------------------------------------------


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


def transfer(state: State, ctx: Context) -> bool:
    """After turn 1: the 6th SS Panzer Army changes fronts. True when West must place it."""
    rec = reserve_unit(state)
    if rec is None:
        return False
    old = state["units"].get(rec["replaces"] or "")
    if old is None or old["status"] != "board":
        ctx.event(
            f"the Western Front {rec['name']} was destroyed: no transfer (rulebook {R_STRATEGIC})"
        )
        update_unit(state, rec["id"], status="unused")
        return False
    where = old["area"]
    update_unit(state, old["id"], area=None, status="transferred")
    rec = update_unit(state, rec["id"], strength=old["strength"])
    ctx.event(
        f"{old['name']} ({old['id']}) leaves the Western Front from {where} at strength "
        f"{old['strength']} (rulebook {R_STRATEGIC})",
        unit=old["id"],
        area=where,
    )
    if where is not None:
        drop_orphan_blocks(state, where, ctx)
    if not reserve_areas(state):
        ctx.event(f"no German area next to the Eastern Front line has room: {rec['id']} stays off")
        update_unit(state, rec["id"], status="unused")
        return False
    state["step"] = "place_reserve"
    state["phase"] = "strategic"
    state["active"] = WEST
    return True


def place_reserve(state: State, role: str, d: PlaceReserve, ctx: Context) -> None:
    """The West places the Eastern Front 6th SS Panzer Army (the turn then ends)."""
    allowed = reserve_areas(state)
    if d.area not in allowed:
        raise illegal(
            f"{d.area} is not a German area next to the Eastern Front line with room "
            f"(choose {', '.join(allowed)})",
            R_STRATEGIC,
        )
    reserve = reserve_unit(state)
    assert reserve is not None
    rec = update_unit(state, reserve["id"], area=d.area, status="board")
    ctx.event(
        f"West places the Eastern Front {rec['name']} ({rec['id']}) in "
        f"{area_name(state, d.area)} at strength {rec['strength']} (rulebook {R_STRATEGIC})",
        unit=rec["id"],
        area=d.area,
    )
