"""Planned Operations (4.1.4, 9.4, 7.7.5): the marker, its deployment and the action.

`state["planned_ops"]` is None while the marker is in the pool, else `{holder, hex}`:
held off the map (`hex` None) after an Event awards it (13.0), or deployed in a hex at the
Planned Operations Deployment Step (7.7.5.A). An Event awarding it to the other side
steals it, even from the map (7.7.5.C); awarding it to its holder picks it up again
(7.7.5.D): both are events.py's `{holder: side, hex: None}`.

The action `plan 0807 0808` (9.4.A) activates the holder's units in the marker's hex and
in one adjacent hex; each of them may then take one eligible action, in any order
(`state["plan_units"]`: the act step asks the same side again, `done` ends it early), the
whole counting as one action (9.4.D); their assaults get the Big Push (9.4.B) and may
join several units (9.3.B). Then the marker goes back to the pool (9.4.C).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.decisions import Deploy, Done, Plan
from pbem.games.race_to_the_sea.state import (
    NAMES,
    control_of,
    hex_text,
    illegal,
    other,
    writable_counter,
)
from pbem.games.race_to_the_sea.what_next import NEXT_ACTION, TURN_END
from pbem.kit.steps import Next


def marker_lost(state: State, ctx: Context | None) -> None:
    """7.7.5.B: an enemy unit in the marker's hex sends it back to the pool."""
    plan = state.get("planned_ops")
    if not plan or plan["hex"] is None:
        return
    foe = other(plan["holder"])
    if any(c["side"] == foe and c["hex"] == plan["hex"] for c in state["counters"].values()):
        state["planned_ops"] = None
        if ctx is not None:
            ctx.event(
                f"7.7.5.B: the enemy is in hex {hex_text(plan['hex'])}: the Planned "
                "Operations marker goes back to the pool"
            )


# --- 7.7.5: deployment ----------------------------------------------------------------------------


def deploying(state: State) -> str | None:
    """The holder of an undeployed marker, asked at 7.7.5 (once a turn)."""
    plan = state.get("planned_ops")
    if not plan or plan["hex"] is not None or state.get("plan_asked") == state["turn"]:
        return None
    return str(plan["holder"])


def deploy_hexes(state: State, role: str) -> list[int]:
    """7.7.5.A: any friendly-controlled hex, even empty (not one the enemy occupies)."""
    board = state["board"]
    enemy = {c["hex"] for c in state["counters"].values() if c["side"] != role}
    return sorted(
        int(h["hex"])
        for h in board["hexes"].values()
        if control_of(state, int(h["hex"])) == role and int(h["hex"]) not in enemy
    )


def can_deploy(state: State, role: str, hex_: int) -> bool:
    """`hex_ in deploy_hexes(state, role)`, asked of the one hex (not of the map's 360)."""
    if hex_ not in rm.hex_ids(state["board"]) or control_of(state, hex_) != role:
        return False
    return all(c["hex"] != hex_ for c in state["counters"].values() if c["side"] != role)


def deploy(state: State, role: str, d: Deploy, ctx: Context) -> Next:
    state["plan_asked"] = state["turn"]
    if d.hex is not None:
        if not can_deploy(state, role, d.hex):
            raise illegal(f"hex {hex_text(d.hex)} is not a friendly-controlled hex", "7.7.5.A")
        state["planned_ops"] = {"holder": role, "hex": d.hex}
        ctx.event(f"{NAMES[role]} deploy the Planned Operations marker in {hex_text(d.hex)}")
    else:
        ctx.event(f"{NAMES[role]} keep the Planned Operations marker for later")
    return TURN_END


# --- 9.4: the action ------------------------------------------------------------------------------


def plan_problem(state: State, role: str, d: Plan) -> str | None:
    plan = state.get("planned_ops")
    if not plan or plan["holder"] != role or plan["hex"] is None:
        return f"{NAMES[role]} have no Planned Operations marker on the map"
    if plan["hex"] != d.at:
        return f"the marker is in hex {hex_text(plan['hex'])}"
    if not rm.adjacency(state["board"]).adjacent(d.at, d.other):
        return f"hex {hex_text(d.other)} is not adjacent to {hex_text(d.at)}"
    if state.get("plan_units") is not None:
        return "a Planned Operations action is going on"
    if not units_in(state, role, (d.at, d.other)):
        return "no unit of yours in those hexes can act"
    return None


def units_in(state: State, role: str, hexes: tuple[int, ...]) -> list[str]:
    return sorted(
        k
        for k, c in state["counters"].items()
        if c["side"] == role and c["hex"] in hexes and not c["activated"]
    )


def plan(state: State, role: str, d: Plan, ctx: Context) -> None:
    problem = plan_problem(state, role, d)
    if problem is not None:
        raise illegal(problem, "9.4")
    units = units_in(state, role, (d.at, d.other))
    state["plan_units"] = units
    state["planned_ops"] = None  # 9.4.C: back to the pool after this action
    ctx.event(
        f"Planned Operations in {hex_text(d.at)} and {hex_text(d.other)}: "
        f"{', '.join(units)} activated (9.4.A)"
    )


def planning(state: State) -> bool:
    return state.get("plan_units") is not None


def plan_done(state: State, role: str, d: Done, ctx: Context) -> Next:
    """`done`: the Planned Operations end (the units not used stay activated, 9.4.D)."""
    if not planning(state):
        raise illegal("'done' ends a Planned Operations action; none is going on", "9.4")
    for label in state["plan_units"]:
        if label in state["counters"]:
            writable_counter(state, label)["activated"] = True
    state["plan_units"] = []
    ctx.event("the Planned Operations end")
    return NEXT_ACTION


def after_unit_action(state: State) -> bool:
    """Called as an action ends: True while the Planned Operations go on (the same side
    acts again), after dropping the units that have acted or left the map."""
    units = state.get("plan_units")
    if units is None:
        return False
    left = [k for k in units if k in state["counters"] and not state["counters"][k]["activated"]]
    if left:
        state["plan_units"] = left
        return True
    state["plan_units"] = None
    return False


def describe(state: State) -> dict[str, Any] | None:
    return state.get("planned_ops")
