"""Logistics Phase, rulebook 4.1.1: where a player may place its sealed logistics blocks.

Players alternate placing one block each in an eligible area: one with a unit the
player commands (a Western unit or Eastern Front German unit for the West player, a
Soviet unit or Western Front German unit for the Soviet player), holding no block yet
(B1: no block of this player, rulebook 4.5). A player must place if possible; a player
with no eligible area left keeps its remaining blocks unused this turn (`flow` decides
who places next).

The owner types "place 4 in 17"; its client seals the value and signs the public
"place block in 17" with the commitment `block/<role>/t<turn>/<n>` (protocol section 5).
"""

from __future__ import annotations

from pbem.core.engine import Context
from pbem.games.race_to_berlin.blocks import new_block
from pbem.games.race_to_berlin.data import PLAYER_FORCES
from pbem.games.race_to_berlin.decisions import Place
from pbem.games.race_to_berlin.state import (
    NAMES,
    State,
    area_name,
    blocks_in,
    controlled_units_in,
    illegal,
    own_block_in,
    own_part,
    refuse,
)

R_PLACE = "4.1.1"


def eligible_areas(state: State, role: str) -> list[str]:
    """Areas, in map order, with a unit `role` commands and no block (B1: none of `role`'s)."""
    forces = PLAYER_FORCES[role]
    manned = {rec["area"] for rec in state["units"].values() if rec["force"] in forces}
    taken = {
        b["area"]
        for b in state["blocks"]
        if b["area"] is not None and (b["area"] != "B1" or b["owner"] == role)
    }
    return [a for a in state["map"]["area_ids"] if a in manned and a not in taken]


def can_place(state: State, role: str) -> bool:
    return state["placed"][role] < len(state["block_values"][role]) and bool(
        eligible_areas(state, role)
    )


def place_problem(state: State, role: str, area: str) -> str | None:
    if area not in state["map"]["areas"]:
        return f"there is no area {area}"
    if not controlled_units_in(state, area, role):
        kinds = (
            "a Western or Eastern Front German"
            if role == "west"
            else ("a Soviet or Western Front German")
        )
        return (
            f"area {area} holds no unit commanded by {NAMES[role]} (a block is placed with "
            f"{kinds} unit)"
        )
    if area == "B1":
        if own_block_in(state, area, role) is not None:
            return f"B1 already holds a {NAMES[role]} block (rulebook 4.5: one per player)"
    elif blocks_in(state, area):
        return f"area {area} already holds a logistics block (at most 1 per area)"
    return None


def place(state: State, role: str, d: Place, ctx: Context) -> None:
    """Place `role`'s next block, sealed, in `d.area` (the entry commits its value)."""
    if d.value is not None:
        raise illegal(
            f"a block's value is sealed, never public: sign 'place block in {d.area}' with the "
            "value committed",
            "4.1: numbers visible only to the owner",
        )
    refuse(place_problem(state, role, d.area), R_PLACE)
    control = state["areas"][d.area]["control"]
    block = new_block(state, role, d.area, control, ctx)
    own_part(state, "placed")[role] += 1
    ctx.event(
        f"{NAMES[role]} places a block in {area_name(state, d.area)} "
        f"({state['placed'][role]} of {len(state['block_values'][role])})",
        role=role,
        area=d.area,
        label=block["label"],
    )
