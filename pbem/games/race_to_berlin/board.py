"""Race to Berlin board rules: entering areas, Berlin access, front line markers, control.

Front line markers (rulebook 4.2.1.1): a player's marker sits on every border between
one of its areas and any other area (both players' markers where West and Soviet areas
touch), so the markers in use follow from who controls what. A control change is only
possible when the player whose front grows has enough markers (rulebook 4.2.1.2 step 9).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core.engine import Context
from pbem.games.race_to_berlin.data import BERLIN, STACK_LIMIT, SUPPLY_EDGES
from pbem.games.race_to_berlin.state import (
    GERMAN,
    NAMES,
    ROLES,
    SOVIET,
    WEST,
    Index,
    State,
    area_name,
    berlin_allowed,
    graph,
    own_part,
    room_for,
    update_area,
)

# rulebook 4.5: the Berlin sub-areas from which an Allied player may enter or attack B1
B1_GATES = {WEST: ("B4", "B5"), SOVIET: ("B2", "B3")}


def entry_problem(state: State, control_: str, frm: str, to: str) -> str | None:
    """Why pieces of `control_` may not enter `to` from `frm` (None: they may).

    Checks friendliness and Berlin access; stacking is checked separately."""
    if state["areas"][to]["control"] != control_:
        return (
            f"area {to} is {NAMES[state['areas'][to]['control']]}, not friendly to the "
            f"{NAMES[control_]} pieces (rulebook 4.2.1.1: units move only into friendly areas)"
        )
    return berlin_problem(control_, frm, to, "enter")


def berlin_problem(control_: str, frm: str, to: str, verb: str) -> str | None:
    """Rulebook 4.5 access: Germans only in B1; the West only B4/B5 and B1 from them; the
    Soviets only B2/B3 and B1 from them."""
    if to not in BERLIN:
        return None
    if control_ == GERMAN:
        if verb == "enter" and to != "B1":
            return f"German units in Berlin may be only in B1, not {to} (rulebook 4.5)"
        return None
    if to == "B1":
        if frm not in B1_GATES[control_]:
            gates = " or ".join(B1_GATES[control_])
            return (
                f"{NAMES[control_]} units may {verb} B1 only from {gates}, not from {frm} "
                "(rulebook 4.5)"
            )
        return None
    if not berlin_allowed(to, control_):
        return f"{NAMES[control_]} units may never {verb} {to} (rulebook 4.5)"
    return None


def stacking_problem(
    state: State,
    control_: str,
    to: str,
    count: int,
    leaving: list[str] | None = None,
    ix: Index | None = None,
) -> str | None:
    room = room_for(state, to, control_, leaving or [], ix)
    if count <= room:
        return None
    if to in BERLIN:
        return (
            f"Berlin holds at most 3 {NAMES[control_]} units and area {to} at most 3 units; "
            f"{count} cannot enter (rulebook 4.5, 4.2.1.1)"
        )
    here = STACK_LIMIT - room
    more = "" if room == 0 else f"; {count} more would make {here + count}"
    return (
        f"area {to} already holds {here} units{more} (rulebook 4.2.1.1: at most 3 units per area)"
    )


# --- front line markers -----------------------------------------------------------------------


def markers_used(state: State, changes: Mapping[str, str] | None = None) -> dict[str, int]:
    """Markers each player needs with the current control, changed by `changes`."""
    areas = state["areas"]
    changes = changes or {}
    used = {p: 0 for p in ROLES}
    for a, b in graph(state).borders:
        ca = changes[a] if a in changes else areas[a]["control"]
        cb = changes[b] if b in changes else areas[b]["control"]
        if ca != cb:
            # a border between two players' areas needs a marker of each
            if ca in used:
                used[ca] += 1
            if cb in used:
                used[cb] += 1
    return used


def marker_change(state: State, changes: Mapping[str, str]) -> dict[str, int]:
    """How many more front line markers each player needs after `changes` (area -> its new
    control): only the borders of the changed areas can change (`markers_used` of the
    whole map gives the same difference, at the cost of every border)."""
    areas = state["areas"]
    delta = {p: 0 for p in ROLES}
    for a, b in graph(state).borders_around(changes):
        old_a, old_b = areas[a]["control"], areas[b]["control"]
        new_a, new_b = changes.get(a, old_a), changes.get(b, old_b)
        for ca, cb, sign in ((old_a, old_b, -1), (new_a, new_b, 1)):
            if ca != cb:
                if ca in delta:
                    delta[ca] += sign
                if cb in delta:
                    delta[cb] += sign
    return delta


def short_of_markers(state: State, changes: Mapping[str, str]) -> list[str]:
    """Players who would need more markers than they have after `changes`, whose fronts
    the changes make longer (a front that only shortens never lacks markers)."""
    delta = marker_change(state, changes)
    used = state["markers"]
    return [p for p in ROLES if delta[p] > 0 and used[p]["used"] + delta[p] > used[p]["total"]]


def refresh_markers(state: State) -> None:
    used = markers_used(state)
    for p in ROLES:
        m = own_part(state, "markers")[p]
        m["used"] = used[p]
        m["left"] = m["total"] - used[p]


# --- control ----------------------------------------------------------------------------------


def remove_fortification(state: State, area: str, ctx: Context, named: str, why: str) -> None:
    """Remove the fortification in `area`, if any, telling it with the area `named` so."""
    fort = state["areas"][area]["fortification"]
    if fort is not None:
        update_area(state, area, fortification=None)
        ctx.event(f"fortification {fort['name']} in {named} removed ({why})", area=area)


def set_control(state: State, area: str, new: str, ctx: Context, reason: str) -> None:
    """Change who controls `area`, with its consequences: markers, eagles, supply bases."""
    old = state["areas"][area]["control"]
    if old == new:
        return
    delta = marker_change(state, {area: new})
    update_area(state, area, control=new)
    ctx.event(
        f"area {area_name(state, area)} is now {NAMES[new]} ({reason})",
        area=area,
        control=new,
        was=old,
    )
    holder = state["eagles"].get(area)
    if holder is not None and holder != new:
        own_part(state, "eagles")[area] = None
        own_part(state, "vp")[holder] -= 1
        ctx.event(
            f"{NAMES[holder]} loses the victory token of {area_name(state, area)} "
            f"(rulebook 5: control lost)",
            area=area,
            role=holder,
            vp=state["vp"][holder],
        )
    edges = state["map"]["areas"][area]["edges"]
    if new in ROLES and set(edges) & set(SUPPLY_EDGES[new]) and area not in state["bases"][new]:
        own_part(state, "bases")[new].append(area)
    if area in state["stranded"]:
        own_part(state, "stranded").remove(area)
    for p in ROLES:
        markers = own_part(state, "markers")[p]
        markers["used"] += delta[p]
        markers["left"] = markers["total"] - markers["used"]


def front_line_areas(state: State, facing: str, of: str = GERMAN) -> list[str]:
    """Areas of `of` adjacent to an area of `facing` (e.g. German areas on the Eastern Front)."""
    areas = state["areas"]
    return graph(state).bordering(
        lambda a: areas[a]["control"] == of, lambda n: areas[n]["control"] == facing
    )
