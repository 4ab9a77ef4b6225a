"""The legal decisions of each step (for bots, menus and tests): one function per step of
the step table (`rules.STEPS`), each `(state, role) -> list`; the kit's `choices` asks
only the role the step asks.

Choices are computed on the state the asking player knows: the public state, or its own
`with_secrets` state, where its sealed block values are filled in (then placements name
their value and attacks carry the right exhaustion claim). Moves are a sensible subset
(each unit alone, all units, with or without the block, the block alone); `parse`
accepts every legal form.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from pbem.games.race_to_berlin.actions import move_problem
from pbem.games.race_to_berlin.combat import attack_problem, support_options, tokens_problem
from pbem.games.race_to_berlin.decisions import (
    Advance,
    Attack,
    Counterattack,
    EndStrategic,
    Loss,
    Move,
    OpenBlocks,
    Place,
    PlaceReserve,
    RemoveBlock,
    Reserves,
    Retreat,
    Support,
    Tokens,
)
from pbem.games.race_to_berlin.effects import loss_candidates
from pbem.games.race_to_berlin.logistics import eligible_areas
from pbem.games.race_to_berlin.retreats import (
    advance_candidates,
    advance_problem,
    retreat_destinations,
    retreat_problem,
)
from pbem.games.race_to_berlin.state import (
    GERMAN,
    Index,
    State,
    blocks_in,
    control_of,
    controlled_units_in,
    force_player,
    force_units_in,
    graph,
    on_board,
    room_for,
)
from pbem.games.race_to_berlin.strategic import options as strategic_options
from pbem.games.race_to_berlin.strategic import reserve_areas
from pbem.kit.pieces import known_value

# --- Logistics Phase ----------------------------------------------------------------------------


def placements(state: State, role: str) -> list[Place]:
    hand = state["hands"][role]
    areas = eligible_areas(state, role)
    if hand is None:  # the public state: the values are not known here
        return [Place(a) for a in areas]
    return [Place(a, v) for v in sorted(set(hand)) for a in areas]


# --- Action Phase -------------------------------------------------------------------------------


def actions(state: State, role: str) -> list[Any]:
    out: list[Any] = []
    out += attacks(state, role)
    out += moves(state, role)
    out += [RemoveBlock(b["area"]) for b in on_board(state, role)]
    return out


def attacks(state: State, role: str) -> list[Attack]:
    out = []
    fed: dict[str, frozenset[str]] = {}
    for block in on_board(state, role):
        if block["exhausted"]:
            continue
        frm = block["area"]
        value = known_value(block)
        cube_options = (2,) if block["force"] == GERMAN else (1, 2)
        for target in graph(state).neighbours(frm):
            for cubes in cube_options:
                exhausting = value is not None and block["cubes"] + cubes == value
                d = Attack(target, frm, cubes, exhausting)
                if attack_problem(state, role, d, fed) is None:
                    out.append(d)
    return out


def moves(state: State, role: str) -> list[Move]:
    out: list[Move] = []
    mine: dict[str, dict[str, list[str]]] = {}
    for unit, rec in state["units"].items():
        if rec["area"] is not None and force_player(rec["force"]) == role:
            groups = mine.setdefault(rec["area"], {})
            groups.setdefault(control_of(rec["force"]), []).append(unit)
    blocks = {b["area"]: b for b in on_board(state, role)}
    ix = Index(state)
    controls = state["areas"]
    for frm in state["map"]["area_ids"]:
        groups = mine.get(frm, {})
        block = blocks.get(frm)
        if not groups and block is None:
            continue
        for to in graph(state).neighbours(frm):
            here = controls[to]["control"]
            candidates: list[Move] = []
            for force, units in groups.items():
                if force != here:
                    continue
                sets = [[u] for u in units]
                if len(units) > 1:
                    sets.append(units)
                for chosen in sets:
                    candidates.append(Move(frm, to, tuple(sorted(chosen)), False))
                    if block is not None and block["force"] == force:
                        candidates.append(Move(frm, to, tuple(sorted(chosen)), True))
            if block is not None and block["force"] == here:
                candidates.append(Move(frm, to, (), True))
            for d in candidates:
                if move_problem(state, role, d, ix) is None:
                    out.append(d)
    return out


# --- combat -------------------------------------------------------------------------------------


def supports(state: State, role: str) -> list[Support]:
    return support_options(state)


def tokens(state: State, role: str) -> list[Tokens]:
    return [
        Tokens(lg, sp)
        for lg, sp in product((False, True), repeat=2)
        if tokens_problem(state, role, Tokens(lg, sp)) is None
    ]


def reserves(state: State, role: str) -> list[Reserves]:
    return [Reserves(False), Reserves(True)]


def counterattacks(state: State, role: str) -> list[Counterattack]:
    return [Counterattack(False), Counterattack(True)]


def losses(state: State, role: str) -> list[Loss]:
    return [Loss(u) for u in loss_candidates(state)]


def retreats(state: State, role: str) -> list[Retreat]:
    combat = state["combat"]
    target, dforce = combat["target"], combat["defence_force"]
    units = sorted(force_units_in(state, target, dforce))
    dests = retreat_destinations(state)
    here = blocks_in(state, target)
    out: list[Retreat] = []
    orders = [[d] + [x for x in dests if x != d] for d in dests]
    for order in orders:
        for spread in (False, True):
            plan = _assign(state, units, order, dforce, spread)
            d = _with_blocks(state, plan, here)
            if d is not None and d not in out and retreat_problem(state, d) is None:
                out.append(d)
    return out


def _assign(
    state: State, units: list[str], order: list[str], dforce: str, spread: bool
) -> list[tuple[str, str]]:
    placed: dict[str, int] = {}
    plan: list[tuple[str, str]] = []
    i = 0
    for unit in units:
        for k in range(len(order)):
            dest = order[(i + k) % len(order)] if spread else order[k]
            room = room_for(state, dest, dforce, units)
            if placed.get(dest, 0) < room:
                placed[dest] = placed.get(dest, 0) + 1
                plan.append((unit, dest))
                i += 1
                break
    return plan


def _with_blocks(
    state: State, plan: list[tuple[str, str]], here: list[dict[str, Any]]
) -> Retreat | None:
    if not plan:
        return None
    target = state["combat"]["target"]
    blocks: list[tuple[str | None, str]] = []
    used: set[str] = set()
    for block in here:
        owner = block["owner"]
        mine = set(controlled_units_in(state, target, owner))
        for unit, dest in plan:
            taken = blocks_in(state, dest)
            if dest == "B1":
                taken = [b for b in taken if b["owner"] == owner]
            if unit in mine and not taken and dest not in used:
                blocks.append((owner if len(here) > 1 else None, dest))
                used.add(dest)
                break
    return Retreat(tuple(sorted(plan)), tuple(sorted(blocks, key=lambda b: (b[0] or "", b[1]))))


def advances(state: State, role: str) -> list[Advance]:
    combat = state["combat"]
    found = advance_candidates(state)
    candidates = sorted(found)
    room = room_for(state, combat["target"], combat["attack_force"])
    sets: list[tuple[str, ...]] = [()]
    sets += [(u,) for u in candidates]
    if len(candidates) > 1:
        sets.append(tuple(candidates[:room]))
    out: list[Advance] = []
    for units in sets:
        for block in (False, True):
            d = Advance(tuple(sorted(units)), block)
            if d not in out and advance_problem(state, d, found) is None:
                out.append(d)
    return out


# --- Strategic Movement Phase and the end of the turn -------------------------------------------


def strategic(state: State, role: str) -> list[Any]:
    return [*strategic_options(state, role), EndStrategic()]


def reserve_placements(state: State, role: str) -> list[PlaceReserve]:
    return [PlaceReserve(a) for a in reserve_areas(state)]


def openings(state: State, role: str) -> list[OpenBlocks]:
    return [OpenBlocks()]
