"""Units on the board: moving, strength losses, elimination, and the block-needs-a-unit rule.

A logistics block must always be with at least one friendly unit (rulebook 4.1): here,
a unit its owner commands (a West block with a West unit, the West player's German block
with an Eastern Front German unit). When the last such unit leaves or is eliminated,
the block is removed, exhausted for the turn, and its cubes return to the pool
(rulebook 4.2.1.2 step 9).
"""

from __future__ import annotations

from pbem.core.engine import Context
from pbem.games.race_to_berlin.blocks import take_off
from pbem.games.race_to_berlin.state import (
    State,
    area_name,
    blocks_in,
    controlled_units_in,
    update_unit,
)


def unit_text(state: State, unit: str) -> str:
    rec = state["units"][unit]
    strength = f", strength {rec['strength']}" if rec["strength"] is not None else ""
    return f"{unit} ({rec['name']}{strength})"


def move_unit(state: State, unit: str, to: str) -> None:
    update_unit(state, unit, area=to)


def eliminate(state: State, unit: str, ctx: Context, why: str) -> None:
    where = state["units"][unit]["area"]
    ctx.event(
        f"{unit_text(state, unit)} eliminated in {where} ({why})",
        unit=unit,
        area=where,
    )
    update_unit(state, unit, area=None, status="eliminated")
    if where is not None:
        drop_orphan_blocks(state, where, ctx)


def lose_strength(state: State, unit: str, ctx: Context, why: str) -> None:
    """One German strength loss: the block turns down one step; at 1 it is eliminated."""
    rec = state["units"][unit]
    if rec["strength"] is None:
        return
    if rec["strength"] <= 1:
        eliminate(state, unit, ctx, f"{why}: it was at strength 1")
        return
    rec = update_unit(state, unit, strength=rec["strength"] - 1)
    ctx.event(
        f"{unit} ({rec['name']}) loses 1 strength: now {rec['strength']} ({why})",
        unit=unit,
        strength=rec["strength"],
    )


def drop_orphan_blocks(state: State, area: str, ctx: Context) -> None:
    """Remove any block left in `area` without a unit of its owner."""
    for block in blocks_in(state, area):
        if not controlled_units_in(state, area, block["owner"]):
            take_off(
                state,
                block,
                ctx,
                f"no friendly unit left in {area_name(state, area)}",
            )
