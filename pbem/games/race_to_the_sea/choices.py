"""Race to the Sea 1914: the legal choices of each step, listed and sampled (for bots and
menus). They read the state a role knows (`with_secrets`): its own hidden identities, its
hand of Initiative Cards. Listed choices are those the public checks accept; a choice
whose hidden claims the role's own state shows false (stacking, 4 SZ by rail) is left out.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.core.engine import State
from pbem.games.race_to_the_sea import combat_choices, dykes, recovery
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import (
    Bid,
    Discard,
    Done,
    EndRail,
    First,
    Flip,
    Hide,
    March,
    Move,
    OpenAll,
    OpenBid,
    Pass,
    Place,
    Rail,
    Recon,
    Regroup,
)
from pbem.games.race_to_the_sea.flow import playable
from pbem.games.race_to_the_sea.state import (
    SIDES,
    entry_hexes,
    flooded,
    hidden_count,
    identity,
    leaving,
    positions,
    unit,
)

# --- 7.1, 15: placing -------------------------------------------------------------------------


def _remaining(state: State, role: str) -> tuple[list[str], list[str]]:
    """(units still to place, False Reports that may still come along), as `role` knows."""
    batch = state["batch"]
    placed = {identity(state, label) for label in batch["labels"]}
    on_map = {identity(state, label) for label in state["counters"]}
    units = [u for u in batch["units"] if u not in placed]
    need, most = hidden_count(state, batch)
    room = most - len(batch["labels"])
    required = [u for u in units if unit(state, u)["kind"] not in ("false-report",)]
    optional = [u for u in units if unit(state, u)["kind"] == "false-report"]
    optional += [f for f in batch["false_ids"] if f not in on_map and f not in placed]
    hidden_required = [u for u in required if unit(state, u)["kind"] != "cavalry"]
    if room <= len(hidden_required):
        optional = []
    return required, optional


def _place_options(state: State, role: str, unit_id: str) -> list[Place]:
    hexes = entry_hexes(state, unit_id, role)
    if unit(state, unit_id)["kind"] == "cavalry":
        return [Place(unit_id, None, h, face) for h in hexes for face in ("scouting", "deployed")]
    return [Place(unit_id, None, h) for h in hexes]


def placements(state: State, role: str) -> list[Any]:
    required, optional = _remaining(state, role)
    out: list[Any] = []
    for unit_id in required + optional[:1]:
        out.extend(_place_options(state, role, unit_id))
    if not required:
        out.append(Done())
    return out


def sample_placement(state: State, role: str, rng: random.Random) -> Any:
    required, optional = _remaining(state, role)
    for unit_id in rng.sample(required, len(required)):
        options = _place_options(state, role, unit_id)
        if options:
            return rng.choice(options)
    if optional and rng.random() < 0.7:
        options = _place_options(state, role, optional[0])
        if options:
            return rng.choice(options)
    return Done()


# --- 7.2-7.4 ------------------------------------------------------------------------------------


def discards(state: State, role: str) -> list[Any]:
    return [Discard()]


def _rail_moves(state: State, role: str) -> list[Rail]:
    board, pos = state["board"], positions(state)
    out = []
    for label in sorted(pos):
        piece = pos[label]
        if piece["side"] != "allies" or label in state["railed"] or mv.is_scouting(piece):
            continue
        if leaving(state, label):
            continue
        if not rm.is_railroad(board, piece["hex"]):
            continue
        if not mv.rail_limit_check(pos, [*state["railed"], label]).ok or (
            piece["sz"] is not None
            and sum((pos[k]["sz"] or 0) for k in state["railed"]) + piece["sz"] > mv.RAIL_SZ_LIMIT
        ):
            continue
        # the destinations rail_move_problem accepts, in one search (bench/selfplay.py)
        for end in mv.rail_destinations(board, pos, state["control"], label, flooded(state)):
            out.append(Rail(label, piece["hex"], end))
    return out


def rails(state: State, role: str) -> list[Any]:
    return [EndRail(), *_rail_moves(state, role)]


def sample_rail(state: State, role: str, rng: random.Random) -> Any:
    if rng.random() < 0.4:
        return EndRail()
    moves = _rail_moves(state, role)
    return rng.choice(moves) if moves else EndRail()


def bids(state: State, role: str) -> list[Any]:
    return [Bid(v) for v in sorted(set(playable(state, role)))]


def open_bids(state: State, role: str) -> list[Any]:
    return [OpenBid()]


# --- 9: actions ---------------------------------------------------------------------------------


Near = tuple[set[int], set[int]]


def _near(state: State, role: str, pos: dict[str, Any]) -> Near:
    """`role`'s enemy and No Man's Land hexes (mv.reachable's `near`), once per position."""
    return mv.enemy_hexes(pos, role), mv.nml_hexes(state["board"], pos, role)


def _counter_actions(
    state: State, role: str, label: str, pos: dict[str, Any], zones: Near | None = None
) -> list[Any]:
    counter = state["counters"][label]
    out: list[Any] = []
    if counter["cavalry"]:
        out.append(Flip(label))
        if counter["scouting"]:
            g = rm.adjacency(state["board"])  # (`rm.grid`'s answers)
            near = set(g.neighbours(counter["hex"]))
            for other_label, c in sorted(state["counters"].items()):
                if (
                    c["side"] != role
                    and c["hex"] in near
                    and not c["cavalry"]
                    and c["unit"] is None
                    and not state["pieces"][f"unit/{other_label}"]["due"]
                ):
                    out.append(Recon(label, counter["hex"], c["hex"], other_label))
    for path in mv.reachable(state["board"], pos, label, flooded(state), zones).values():
        out.append(Move(label, tuple(path)))  # `reachable` checked the stacking (10.2)
    out += combat_choices.fires(state, role, label)
    out += combat_choices.assaults(state, role, label, None if zones is None else zones[1])
    out += recovery.regroups(state, role, label)  # 9.5
    return out


def actions(state: State, role: str) -> list[Any]:
    pos = positions(state)
    out: list[Any] = []
    zones = _near(state, role, pos)
    for label in _ready_labels(state, role):
        out.extend(_counter_actions(state, role, label, pos, zones))
    if state.get("plan_units") is not None:
        return [*out, Done()]  # 9.4.A: the Planned Operations units, or the end of them
    out += recovery.rebuilds(state, role)  # 9.6
    out += combat_choices.plans(state, role)  # 9.4
    return [*(out or [Pass()]), *dykes.choices(state, role)]  # 9.8: never forced


def _ready_labels(state: State, role: str) -> list[str]:
    """The counters that may act now (9.B; only the Planned Operations units during one)."""
    planned = state.get("plan_units")
    return [
        label
        for label, c in sorted(state["counters"].items())
        if c["side"] == role
        and not c["activated"]
        and not leaving(state, label)
        and (planned is None or label in planned)
    ]


def sample_action(state: State, role: str, rng: random.Random) -> Any:
    pos = positions(state)
    mine = _ready_labels(state, role)
    if state.get("plan_units") is None:
        plans = combat_choices.plans(state, role)
        if plans and rng.random() < 0.5:
            return rng.choice(plans)
    elif not mine or rng.random() < 0.1:
        return Done()
    floods = dykes.choices(state, role)
    if floods and rng.random() < 0.2:
        return rng.choice(floods)  # 9.8: now and then, the Allies open the dykes
    rebuilt = recovery.rebuilds(state, role) if rng.random() < 0.1 else []
    if rebuilt:
        return rng.choice(rebuilt)  # 9.6: now and then
    zones = _near(state, role, pos)
    for label in rng.sample(mine, len(mine)):
        options = _counter_actions(state, role, label, pos, zones)
        recons = [o for o in options if isinstance(o, Recon)]
        if recons and rng.random() < 0.7:
            return rng.choice(recons)
        regroups = [o for o in options if isinstance(o, Regroup)]
        if regroups and rng.random() < 0.2:
            return regroups[0]  # 9.5: now and then
        combats = [o for o in options if not isinstance(o, (Move, Recon, Flip, Regroup))]
        if combats and rng.random() < 0.5:
            return rng.choice(combats)
        moves = [o for o in options if isinstance(o, Move)]
        if moves and rng.random() < 0.9:
            return rng.choice(moves)
        if options:
            return rng.choice(options)
    return Pass()


# --- 7.7 ----------------------------------------------------------------------------------------


def firsts(state: State, role: str) -> list[Any]:
    return [First(side) for side in SIDES]


def _marches(state: State, role: str, only: str | None = None) -> list[March]:
    """7.7.3: every forced march of `role`'s counters (or of the counter `only`)."""
    board, pos = state["board"], positions(state)
    g = rm.grid(board)
    near = (mv.enemy_hexes(pos, role), mv.nml_hexes(board, pos, role))  # once, not per path
    out = []
    for label in sorted(pos) if only is None else [only]:
        piece = pos[label]
        if piece["side"] != role or label in state["march"]["moved"]:
            continue
        if leaving(state, label):
            continue
        paths = [[piece["hex"], n] for n in g.neighbours(piece["hex"])]
        if role == "germans":
            paths += [[*p, n] for p in list(paths) for n in g.neighbours(p[1]) if n != p[0]]
        for path in paths:
            if (
                mv.forced_march_check(board, pos, label, path, flooded(state), near).ok
                and mv.stacking_check(pos, {"id": label, **piece}, path[-1]).ok
            ):
                out.append(March(label, tuple(path)))
    return out


def marches(state: State, role: str) -> list[Any]:
    return [Done(), *_marches(state, role)]


def sample_march(state: State, role: str, rng: random.Random) -> Any:
    """A random counter that can march, then one of its marches (not every march of every
    counter: the bot asks this often, 7.7.3)."""
    if rng.random() < 0.2:
        return Done()
    mine = sorted(k for k, c in state["counters"].items() if c["side"] == role)
    for label in rng.sample(mine, len(mine)):
        options = _marches(state, role, label)
        if options:
            return rng.choice(options)
    return Done()


def hides(state: State, role: str) -> list[Any]:
    return [Hide()]


def finals(state: State, role: str) -> list[Any]:
    return [OpenAll()]
