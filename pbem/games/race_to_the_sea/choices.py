"""Race to the Sea 1914: the legal choices of each step, listed and sampled (for bots and
menus). They read the state a role knows (`with_secrets`): its own hidden identities, its
hand of Initiative Cards. Listed choices are those the public checks accept; a choice
whose hidden claims the role's own state shows false (stacking, 4 SZ by rail) is left out.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.core.engine import State
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
)
from pbem.games.race_to_the_sea.flow import playable
from pbem.games.race_to_the_sea.state import (
    SIDES,
    entry_hexes,
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
        for end in sorted(rm.rail_reachable(board, piece["hex"])):
            if end == piece["hex"] or rm.terrain(board, end) not in rm.SETTLEMENTS:
                continue
            if mv.rail_move_problem(board, pos, state["control"], label, end).ok:
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


def _counter_actions(state: State, role: str, label: str, pos: dict[str, Any]) -> list[Any]:
    counter = state["counters"][label]
    out: list[Any] = []
    if counter["cavalry"]:
        out.append(Flip(label))
        if counter["scouting"]:
            g = rm.grid(state["board"])
            near = set(g.neighbours(counter["hex"]))
            skirmish = {
                c["hex"]
                for c in state["counters"].values()
                if c["side"] != role and c["cavalry"] and c["scouting"]
            }
            for other_label, c in sorted(state["counters"].items()):
                if (
                    c["side"] != role
                    and c["hex"] in near
                    and c["hex"] not in skirmish
                    and not c["cavalry"]
                    and c["unit"] is None
                    and not state["pieces"][f"unit/{other_label}"]["due"]
                ):
                    out.append(Recon(label, counter["hex"], c["hex"], other_label))
    for hex_, path in mv.reachable(state["board"], pos, label).items():
        if mv.stacking_check(pos, {"id": label, **pos[label]}, hex_).ok:
            out.append(Move(label, tuple(path)))
    return out


def actions(state: State, role: str) -> list[Any]:
    pos = positions(state)
    out: list[Any] = []
    for label in sorted(state["counters"]):
        counter = state["counters"][label]
        if counter["side"] == role and not counter["activated"] and not leaving(state, label):
            out.extend(_counter_actions(state, role, label, pos))
    return out or [Pass()]


def sample_action(state: State, role: str, rng: random.Random) -> Any:
    pos = positions(state)
    mine = [
        label
        for label, c in sorted(state["counters"].items())
        if c["side"] == role and not c["activated"] and not leaving(state, label)
    ]
    for label in rng.sample(mine, len(mine)):
        options = _counter_actions(state, role, label, pos)
        recons = [o for o in options if isinstance(o, Recon)]
        if recons and rng.random() < 0.7:
            return rng.choice(recons)
        moves = [o for o in options if isinstance(o, Move)]
        if moves and rng.random() < 0.9:
            return rng.choice(moves)
        if options:
            return rng.choice(options)
    return Pass()


# --- 7.7 ----------------------------------------------------------------------------------------


def firsts(state: State, role: str) -> list[Any]:
    return [First(side) for side in SIDES]


def _marches(state: State, role: str) -> list[March]:
    board, pos = state["board"], positions(state)
    g = rm.grid(board)
    out = []
    for label in sorted(pos):
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
                mv.forced_march_check(board, pos, label, path).ok
                and mv.stacking_check(pos, {"id": label, **piece}, path[-1]).ok
            ):
                out.append(March(label, tuple(path)))
    return out


def marches(state: State, role: str) -> list[Any]:
    return [Done(), *_marches(state, role)]


def sample_march(state: State, role: str, rng: random.Random) -> Any:
    if rng.random() < 0.2:
        return Done()
    options = _marches(state, role)
    return rng.choice(options) if options else Done()


def hides(state: State, role: str) -> list[Any]:
    return [Hide()]


def finals(state: State, role: str) -> list[Any]:
    return [OpenAll()]
