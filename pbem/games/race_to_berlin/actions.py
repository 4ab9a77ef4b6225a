"""Action Phase actions without dice: moving (4.2.1.1) and removing a block (4.2.1.3).

A move takes one or more units and/or the player's block from one area to an adjacent
area of the same force: friendly areas only (Western and Eastern Front German units are
friendly to each other), at most 3 units an area (3 per force in Berlin, rulebook 4.5),
at most one block an area (B1: one per player), and a block always with a friendly unit.
Exhausted blocks cannot be used for actions, so they do not move (rulebook 4.1); they
can be removed.
"""

from __future__ import annotations

from pbem.core.engine import Context
from pbem.games.race_to_berlin.blocks import take_off
from pbem.games.race_to_berlin.board import entry_problem, stacking_problem
from pbem.games.race_to_berlin.decisions import Move, RemoveBlock
from pbem.games.race_to_berlin.flow import after_action
from pbem.games.race_to_berlin.state import (
    NAMES,
    Index,
    State,
    adjacent,
    area_name,
    blocks_in,
    control_of,
    own_block_in,
    refuse,
    writable_block,
)
from pbem.games.race_to_berlin.units import move_unit

R_MOVE = "4.2.1.1"
R_REMOVE = "4.2.1.3"


def move_problem(state: State, role: str, d: Move, ix: Index | None = None) -> str | None:
    ix = ix or Index(state)
    areas = state["map"]["areas"]
    if d.frm not in areas or d.to not in areas:
        return "unknown area"
    if not d.units and not d.block:
        return "nothing to move"
    if not adjacent(state, d.frm, d.to):
        return f"{d.to} is not adjacent to {d.frm}"
    own = ix.controlled(d.frm, role)
    forces = set()
    for unit in d.units:
        if unit not in state["units"]:
            return f"there is no unit {unit}"
        if unit not in own:
            rec = state["units"][unit]
            where = rec["area"] or "off the board"
            return f"{unit} is not a unit of {NAMES[role]}'s in {d.frm} (it is in {where})"
        forces.add(control_of(state["units"][unit]["force"]))
    block = own_block_in(state, d.frm, role) if d.block else None
    if d.block:
        if block is None:
            return f"{NAMES[role]} has no logistics block in {d.frm}"
        if block["exhausted"]:
            return "the block is exhausted (rulebook 4.1: exhausted blocks cannot be used)"
        forces.add(block["force"])
    if len(forces) > 1:
        return "Allied units and German units (or their blocks) never move together"
    force = forces.pop()
    problem = entry_problem(state, force, d.frm, d.to)
    if problem:
        return problem
    if d.units:
        problem = stacking_problem(state, force, d.to, len(d.units), list(d.units), ix)
        if problem:
            return problem
    if d.block:
        taken = blocks_in(state, d.to)
        if d.to == "B1":
            taken = [b for b in taken if b["owner"] == role]
        if taken:
            return f"area {d.to} already holds a logistics block (at most 1 per area)"
        if not d.units and not ix.controlled(d.to, role):
            return (
                f"a block must always be with a friendly unit, and {d.to} has none of "
                f"{NAMES[role]}'s"
            )
    staying = own_block_in(state, d.frm, role)
    if staying is not None and not d.block:
        left = [u for u in own if u not in d.units]
        if not left:
            return (
                f"the block in {d.frm} would be left without a friendly unit "
                "(rulebook 4.1: a block must always be with a friendly unit)"
            )
    return None


def move(state: State, role: str, d: Move, ctx: Context) -> None:
    refuse(move_problem(state, role, d), R_MOVE)
    for unit in d.units:
        move_unit(state, unit, d.to)
    if d.block:
        block = own_block_in(state, d.frm, role)
        assert block is not None
        writable_block(state, block)["area"] = d.to
    what = ", ".join(d.units) + (" and the block" if d.units and d.block else "")
    what = what or "the block"
    ctx.event(
        f"{NAMES[role]} moves {what} from {d.frm} to {area_name(state, d.to)}",
        role=role,
        frm=d.frm,
        to=d.to,
        units=list(d.units),
        block=d.block,
    )
    after_action(state, ctx, role)


def remove_problem(state: State, role: str, d: RemoveBlock) -> str | None:
    if d.area not in state["map"]["areas"]:
        return f"there is no area {d.area}"
    if own_block_in(state, d.area, role) is None:
        return f"{NAMES[role]} has no logistics block in {d.area}"
    return None


def remove(state: State, role: str, d: RemoveBlock, ctx: Context) -> None:
    refuse(remove_problem(state, role, d), R_REMOVE)
    block = own_block_in(state, d.area, role)
    assert block is not None
    take_off(state, block, ctx, f"removed by its owner (rulebook {R_REMOVE})")
    after_action(state, ctx, role)
