"""After a won attack (rulebook 4.2.1.2 step 9): where the defenders may retreat and what
may advance, as questions on the state (the decisions themselves are `effects`').

Retreats go to adjacent friendly areas with room (3 units an area, 3 per force in
Berlin); units that cannot withdraw are eliminated, and a block withdraws with a unit of
its owner's to the same area (never two blocks in one area, B1: one per player).
The attacker advances attacking units of the winning force (and its block, never alone)
into the area it took.
"""

from __future__ import annotations

from typing import Any

from pbem.games.race_to_berlin.board import entry_problem, stacking_problem
from pbem.games.race_to_berlin.data import BERLIN
from pbem.games.race_to_berlin.decisions import Advance, Retreat
from pbem.games.race_to_berlin.state import (
    NAMES,
    State,
    blocks_in,
    control_of,
    controlled_units_in,
    force_units_in,
    neighbours,
    own_block_in,
    room_for,
)

# --- retreat ----------------------------------------------------------------------------------


def retreat_destinations(state: State) -> list[str]:
    combat = state["combat"]
    target, dforce = combat["target"], combat["defence_force"]
    return [n for n in neighbours(state, target) if entry_problem(state, dforce, target, n) is None]


def retreat_capacity(state: State) -> int:
    """How many defending units can withdraw at most (stacking, Berlin's force limit)."""
    combat = state["combat"]
    target, dforce = combat["target"], combat["defence_force"]
    units = force_units_in(state, target, dforce)
    placed: dict[str, int] = {}
    total = 0
    for dest in retreat_destinations(state):
        while total < len(units) and _fits(state, dforce, dest, placed, units):
            placed[dest] = placed.get(dest, 0) + 1
            total += 1
    return total


def _fits(state: State, dforce: str, dest: str, placed: dict[str, int], leaving: list[str]) -> bool:
    room = room_for(state, dest, dforce, leaving)
    if dest in BERLIN:
        in_berlin = sum(n for a, n in placed.items() if a in BERLIN and a != dest)
        room -= in_berlin
    return placed.get(dest, 0) < room


def retreat_problem(state: State, d: Retreat) -> str | None:
    combat = state["combat"]
    target, dforce = combat["target"], combat["defence_force"]
    units = force_units_in(state, target, dforce)
    dests = retreat_destinations(state)
    placed: dict[str, int] = {}
    for unit, dest in d.units:
        if unit not in units:
            return f"{unit} is not a defending unit in {target}"
        if dest not in dests:
            shown = ", ".join(dests) or "none"
            return (
                f"{unit} cannot retreat to {dest}: retreats go to adjacent friendly areas ({shown})"
            )
        if not _fits(state, dforce, dest, placed, units):
            return (
                f"{unit} cannot retreat to {dest}: no room there (at most 3 units per area, "
                "3 per force in Berlin)"
            )
        placed[dest] = placed.get(dest, 0) + 1
    need = retreat_capacity(state)
    if len(d.units) < need:
        return (
            f"{need} of the {len(units)} defending units can withdraw; only units that cannot "
            "withdraw are eliminated"
        )
    here = blocks_in(state, target)
    seen: set[str] = set()
    taken: set[str] = set()
    for owner, dest in d.blocks:
        matching = [b for b in here if owner is None or b["owner"] == owner]
        if owner is None and len(matching) > 1:
            return "two blocks retreat from B1: name the owner ('block west to ...')"
        if not matching:
            return f"there is no {'' if owner is None else owner + ' '}block in {target} to retreat"
        block = matching[0]
        if block["label"] in seen:
            return "a block is named twice"
        seen.add(block["label"])
        problem = _block_retreat_problem(state, block, dest, d)
        if problem:
            return problem
        if dest in taken and dest != "B1":
            return f"two blocks cannot retreat to {dest} (at most 1 per area)"
        taken.add(dest)
    for block in here:
        free = [a for a in _block_destinations(state, block, d) if a not in taken]
        if block["label"] not in seen and free:
            return (
                f"the {NAMES[block['owner']]} block must withdraw with its units "
                f"(to {' or '.join(free)})"
            )
    return None


def _block_destinations(state: State, block: dict[str, Any], d: Retreat) -> list[str]:
    return [
        dest
        for dest in sorted({a for _, a in d.units})
        if _block_retreat_problem(state, block, dest, d) is None
    ]


def _block_retreat_problem(
    state: State, block: dict[str, Any], dest: str, d: Retreat
) -> str | None:
    owner = block["owner"]
    with_units = [
        u
        for u, a in d.units
        if a == dest and u in controlled_units_in(state, state["combat"]["target"], owner)
    ]
    if not with_units:
        return (
            f"a block retreats only with a unit of its own withdrawing to the same area, and "
            f"none goes to {dest}"
        )
    taken = blocks_in(state, dest)
    if dest == "B1":
        taken = [b for b in taken if b["owner"] == owner]
    if taken:
        return f"{dest} already holds a logistics block (rulebook 4.2.1.1: at most 1 per area)"
    return None


# --- advance ----------------------------------------------------------------------------------


def advance_candidates(state: State) -> list[str]:
    combat = state["combat"]
    frm, target = combat["from"], combat["target"]
    force = combat["attack_force"]
    if state["areas"][target]["control"] != force:
        return []
    if entry_problem(state, force, frm, target) is not None:
        return []
    if room_for(state, target, force) == 0:
        return []
    units = controlled_units_in(state, frm, combat["attacker"])
    return [u for u in units if force_of(state, u) == force]


def force_of(state: State, unit: str) -> str:
    return control_of(state["units"][unit]["force"])


def advance_problem(state: State, d: Advance, candidates: list[str] | None = None) -> str | None:
    """Why the attacker may not advance `d` (None: it may); `candidates` are the
    `advance_candidates` of this state, if already known."""
    combat = state["combat"]
    frm, target, role = combat["from"], combat["target"], combat["attacker"]
    if candidates is None:
        candidates = advance_candidates(state)
    for unit in d.units:
        if unit not in candidates:
            return f"{unit} is not an attacking unit that may advance into {target}"
    problem = stacking_problem(state, combat["attack_force"], target, len(d.units))
    if problem:
        return problem
    block = own_block_in(state, frm, role)
    staying = [u for u in controlled_units_in(state, frm, role) if u not in d.units]
    if d.block:
        if block is None:
            return f"there is no {NAMES[role]} block in {frm} to advance"
        if not d.units:
            return "the block cannot end up by itself: it advances only with units"
    elif (
        block is not None
        and block["force"] == combat["attack_force"]
        and not [u for u in staying if force_of(state, u) == block["force"]]
    ):
        return f"the block in {frm} would be left without a friendly unit: advance it too"
    return None
