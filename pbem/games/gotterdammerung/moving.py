"""Götterdämmerung: the movement phases' decisions (5, 7, 9.1) on the engine state.

A move is one unit at a time (5.11); the unit whose move is under way is `state["moving"]`
with the points it has left, and its move ends when another unit starts (5.15) or the
phase ends. Three things split a move over several entries, so that a player never signs
a path before the dice it depends on are known:

- a unit bearing Delay markers first turns them over, alone (`move sov-x`, 6.83-6.84): the
  markers are drawn there, by public dice, from the cup less the markers already turned
  over since the German Combat Phase (6.82, 6.85), and the unit then moves what is left;
- an overrun (7.1) is an entry of its own, resolved as a combat (fighting.py); if it clears
  the hex the unit enters it and may go on with another `move` (7.26);
- a choice of the other player inside an overrun (losses, retreats) is that player's entry.

Railroad movement (5.6), corps splitting (5.7) and reinforcements (9.1) are here too; their
rules are pure functions in rail.py, split.py and arrivals.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import (
    arrivals,
    countermove,
    fighting,
    overrun,
    phases,
    places,
    rail,
    zoc,
)
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import movement as mv
from pbem.games.gotterdammerung import split as sp
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung.decisions import Done, Enter, Move, Overrun, Rail, Split

NORMAL_PHASES = ("soviet-move", "german-move")


def _phase(state: State) -> str:
    return phases.MOVEMENT[state["phase"]]


def _refuse(message: str, rule: str) -> IllegalOrderError:
    return gs.illegal(message, rule)


# --- ZOC for one mover (5.22, 4.27, 5.32) --------------------------------------------------------


def zoc_rules(
    state: State, unit: dict[str, Any], started_in_zoc: bool
) -> tuple[Callable[[str, str], int | None], Callable[[str], bool], Callable[[str, str], bool]]:
    """`zoc_cost`, `stops` and `no_road` for movement.check_path, from the enemy ZOC now."""
    board, data = state["board"], state["counters"]
    zmap = zoc.zone_of_all(board, data, state["units"].values(), unit["side"])  # (read only)
    german = unit["side"] == "german"

    def zoc_cost(a: str, b: str) -> int | None:
        here, there = zmap.get(a), zmap.get(b)
        if unit.get("disrupted") and not started_in_zoc and there is not None:
            return None  # 4.27
        if here == zoc.STRONG and there == zoc.STRONG:
            return None  # 5.22, 5.23
        if here == zoc.WEAK and there == zoc.WEAK and md.river(board, a, b) == "major-river":
            return None  # 5.22
        return 3 if here is not None else 0  # 5.22: leaving an enemy ZOC

    def stops(h: str) -> bool:
        return german and zmap.get(h) == zoc.STRONG  # 5.22

    def no_road(a: str, b: str) -> bool:
        return zmap.get(a) == zoc.WEAK and zmap.get(b) == zoc.WEAK  # 5.32

    return zoc_cost, stops, no_road


# --- starting a unit's move -------------------------------------------------------------------


def _eligible(
    state: State, unit: dict[str, Any], units: list[dict[str, Any]] | None = None
) -> None:
    """Who may move in this phase (5.13, 5.16-5.17, 5.5, 5.28, 12.22, 12.34)."""
    phase, uid = state["phase"], unit["id"]
    board, data = state["board"], state["counters"]
    if unit.get("moved"):
        raise _refuse(f"{uid} has already moved in this phase", "5.13")
    if unit["hex"] == gs.NGP:
        raise _refuse(f"{uid} is in the North German Plain Box and may not return", "5.26")
    if phase in ("counter-1", "counter-2", "breakthrough"):
        if units is None:  # (the bot passes them: it asks for every unit)
            units = gs.on_map(state)
        start_zoc = set(state["phase_data"]["start_zoc"])
    if phase in ("counter-1", "counter-2") and units is not None:
        problems = countermove.countermove_problems(
            board,
            data,
            units,
            unit,
            moved_groups=state["phase_data"]["groups"],
            start_zoc=start_zoc,
        )
        if problems:
            raise IllegalOrderError(f"illegal: {problems[0]}")
    if phase == "breakthrough" and units is not None:
        problems = countermove.breakthrough_problems(board, data, units, unit, start_zoc=start_zoc)
        if problems:
            raise IllegalOrderError(f"illegal: {problems[0]}")
    options = state["options"]
    counter = data["units"].get(uid, {})
    if (
        options["curse"]
        and state["turn"] <= 2
        and unit["side"] == "german"
        and (counter.get("place") or {}).get("area")
    ):
        raise _refuse(f"{uid} has a deployment code: it may not move on turns 1-2", "12.22")


def allowance(state: State, unit: dict[str, Any], delay: int = 0) -> int:
    """The points the unit may spend in this phase (5.18-5.19, 8.16; 12.34: a 6th SS unit
    cut off from its HQ at the start of the German Movement Phase moves half)."""
    halved = bool(unit.get("out_of_supply") or unit.get("disrupted"))
    points = mv.movement_points(gs.mover(state, unit), delay=delay, halved=halved)
    if unit["id"] in state["phase_data"].get("sixth_cut", ()) and state["phase"] == "german-move":
        points = (points + 1) // 2
    return points


def preview(state: State, unit: dict[str, Any]) -> dict[str, Any]:
    """The move the unit would start now, without starting it (bots, choices): None-free
    only for a unit without Delay markers (their draw is unknown until it starts)."""
    moving = state["moving"]
    if moving is not None and moving["unit"] == unit["id"]:
        return dict(moving)
    _eligible(state, unit)
    return {
        "unit": unit["id"],
        "points": allowance(state, unit),
        "start": unit["hex"],
        "zoc": unit["id"] in state["phase_data"]["start_zoc"],
        "fresh": True,
        "delayed": False,
    }


def _begin(state: State, unit: dict[str, Any], ctx: Context) -> dict[str, Any]:
    """The unit starts to move: the earlier one is done (5.15), Delay markers turn over
    (6.83-6.84), and the points it may spend are fixed (5.18-5.19, 8.16)."""
    _eligible(state, unit)
    uid = unit["id"]
    delay = 0
    if unit.get("delays") and state["phase"] == "soviet-move":
        delay = reveal_delays(state, unit, ctx)
    # split.py's ruling: each Battle group of a corps split after turning its markers over
    # loses their total as it begins its own move (phase_data: gone at the phase's end)
    delay += state["phase_data"].get("split_delay", {}).pop(uid, 0)
    points = allowance(state, unit, delay)
    unit["moved"] = True
    if state["phase"] in ("counter-1", "counter-2"):
        state["phase_data"]["groups"].append(
            countermove.group_key(state["counters"], unit)
        )  # 5.51-5.52
    moving = {
        "unit": uid,
        "points": points,
        "start": unit["hex"],
        "zoc": uid in state["phase_data"]["start_zoc"],
        "fresh": True,
        "delayed": delay != 0,
        "delay": delay,
    }
    state["moving"] = moving
    return moving


def reveal_delays(state: State, unit: dict[str, Any], ctx: Context) -> int:
    """6.83-6.85: each marker is drawn now, by public dice, from the markers not turned over
    since the German Combat Phase, and goes back to the cup at once; the unit loses the sum."""
    pool = state["delay_pool"]
    total = 0
    for _ in range(unit["delays"]):
        values = sorted((int(v) for v, n in pool.items() for _ in range(n)), reverse=True)
        if not values:  # every marker already turned over: the whole cup again
            break
        drawn = values[ctx.roll(0, len(values) - 1, f"Delay marker on {unit['id']} (6.83)")]
        pool[str(drawn)] -= 1
        total += abs(drawn)
    ctx.event(
        f"{unit['id']} turns over {unit['delays']} Delay marker(s): -{total} movement (6.83)",
        unit=unit["id"],
        delay=total,
    )
    unit["delays"] = 0
    return total


# --- move --------------------------------------------------------------------------------------


def _marked(state: State, unit: dict[str, Any]) -> bool:
    """Does the unit turn Delay markers over when it begins to move (6.83: in the Soviet
    Normal Movement Phase only)?"""
    return bool(unit.get("delays")) and state["phase"] == "soviet-move"


def move(state: State, role: str, d: Move, ctx: Context) -> None:
    side = phases.phase_side(state)
    unit = gs.own(state, gs.unit_of(state, d.unit, side)["id"])  # (the dict to change)
    moving = state["moving"]
    if moving is None or moving["unit"] != d.unit:
        if not d.path and not _marked(state, unit):
            raise _refuse(f"give {d.unit}'s path: 'move {d.unit} 2419 2420'", "5.1")
        if d.path and _marked(state, unit):  # (refused before any die is asked for)
            raise _refuse(
                f"{d.unit} bears Delay markers: turn them over first, alone ('move {d.unit}')",
                "6.84",
            )
        moving = _begin(state, unit, ctx)
        if not d.path:
            return  # the markers are turned over: the path comes in the next entry
    elif not d.path:
        raise _refuse(f"give {d.unit}'s path", "5.1")
    walk(state, unit, moving, d.path, ctx)


def walk(
    state: State, unit: dict[str, Any], moving: dict[str, Any], words: tuple[str, ...], ctx: Context
) -> None:
    """Move the unit along the path written (5.1-5.4), spending its points."""
    # the enemy ZOC of this position, found once for the check and the stop (neither moves
    # a unit; `stops` and `no_road` do not depend on where the move began)
    callbacks = zoc_rules(state, unit, moving["zoc"] if moving["fresh"] else False)
    path, cost = check_walk(state, unit, moving, words, callbacks)
    full = [unit["hex"], *path]
    moving["points"] -= cost
    moving["fresh"] = False
    stop = _stop_rule(state, unit, full, callbacks)
    if stop is not None:
        moving["stopped"] = stop  # a later `move` of this unit may not go on from here
    places.enter_hexes(state, unit, path, ctx)
    if path[-1] == gs.NGP:
        unit["left_map"] = True  # 5.26: it never returns (not even by 9.22's entries)
    ctx.event(
        f"{unit['id']} moves {' '.join(gs.hex_text(h) for h in full)} ({cost} MP)",
        unit=unit["id"],
        path=full,
    )


def _stop_rule(
    state: State, unit: dict[str, Any], full: list[str], zoc_callbacks: Any = None
) -> str | None:
    """The rule that ends the unit's move where the path `full` ends, if one does: the NGP
    Box (5.26), an enemy strong ZOC for a German unit (5.22), a Transition Hex entered from
    an Operational hex (5.44, save 5.33's road benefit)."""
    last, before = full[-1], full[-2]
    if last == gs.NGP:
        return "5.26"
    zoc_cost, stops, no_road = zoc_callbacks or zoc_rules(state, unit, False)
    if stops(last):
        return "5.22"
    benefit = bool(
        unit["side"] == "german"
        and state["phase"] == "german-move"
        and state["phase_data"].get("transition_benefit", False)
    )
    if mv._ends_move(state["board"], unit, before, last, benefit, {"no_road": no_road}):
        return "5.44"
    return None


def check_walk(
    state: State,
    unit: dict[str, Any],
    moving: dict[str, Any],
    words: tuple[str, ...] | list[str],
    zoc_callbacks: Any = None,
    enemy: set[str] | None = None,
    facts: Mapping[str, Any] | None = None,
) -> tuple[list[str], int]:
    """The hexes and points of a legal step of the unit's move; IllegalOrderError if not.
    `facts`: `gs.mover(state, unit)`, if the caller (a bot trying many paths) has it."""
    board, tables = state["board"], state["tables"]
    path = gs.resolve_path(state, unit["hex"], words)
    if not path:
        raise _refuse(f"{unit['id']} is already in {gs.hex_text(unit['hex'])}", "5.1")
    full = [unit["hex"], *path]
    fresh = moving["fresh"]
    if moving.get("stopped"):
        raise _refuse(
            f"{unit['id']} had to stop in {gs.hex_text(unit['hex'])}: its move is over",
            moving["stopped"],
        )
    if moving["points"] < 1:
        raise _refuse(f"{unit['id']} has no movement points left", "6.83, 5.14")
    zoc_cost, stops, no_road = zoc_callbacks or zoc_rules(
        state, unit, moving["zoc"] if fresh else False
    )
    _path_rules(state, unit, full)  # (first: their refusals cite the rule that forbids)
    side = unit["side"]
    benefit = bool(
        side == "german"
        and state["phase"] == "german-move"
        and state["phase_data"].get("transition_benefit", False)
    )
    try:
        cost = mv.check_path(
            board,
            tables,
            gs.mover(state, unit) if facts is None else facts,
            full,
            points=moving["points"],
            phase=_phase(state),
            enemy=gs.enemy_hexes(state, side) if enemy is None else enemy,
            stops=stops,
            zoc_cost=zoc_cost,
            no_road=no_road,
            transition_roads=benefit,
            soviet_occupied=set(state["occupied"]),
        )
    except IllegalOrderError as error:
        message = str(error).removeprefix("illegal: ")
        if re.search(r"\([0-9]+\.[0-9]+\)$", message):  # (it cites its rule already)
            raise IllegalOrderError(f"illegal: {message}") from None
        raise _refuse(message, "5") from None
    if not fresh and cost > moving["points"]:  # (5.23's one hex is for a fresh move only)
        raise _refuse(
            f"{unit['id']} needs {cost} movement points but has {moving['points']}", "5.14"
        )
    return path, cost


def _path_rules(state: State, unit: dict[str, Any], full: list[str]) -> None:
    """Rules of a path that depend on the phase and on who the unit is (3.1, 5.45, 12.23,
    and every rule of `barred`)."""
    board = state["board"]
    uid = unit["id"]
    for a, b in zip(full, full[1:], strict=False):
        if b == gs.NGP:
            continue
        kind = md.kind(board, b)
        if state["phase"] in ("counter-1", "counter-2") and kind == md.CITY_HEX:
            raise _refuse(f"{uid} may not counter-move into a Berlin City hex", "5.51, 3.1")
        found = places.barred(state, unit, a, b)
        if found is not None:
            raise _refuse(*found)
        if (
            state["options"]["curse"]
            and state["turn"] <= 4
            and unit["side"] == "german"
            and a != gs.NGP
            and md.kind(board, a) != md.CITY_HEX
            and kind == md.CITY_HEX
        ):
            raise _refuse(f"{uid} may not enter Berlin City hexes on turns 1-4", "12.23")
        if a != gs.NGP and md.kind(board, a) == md.CITY_HEX and kind == md.TRANSITION:
            raise _refuse(
                f"{uid} may not move from a Berlin City hex into a Transition Hex", "5.45"
            )


# --- reinforcements (9.1, 9.22, 5.67) ----------------------------------------------------------


def enter(state: State, role: str, d: Enter, ctx: Context) -> None:
    """A reinforcement enters at one of its entry hexes (9.1) and may move on from there
    (9.14); a German unit in the NGP Box enters at an "N" hex if 9.22 allows it."""
    side = phases.phase_side(state)
    if state["phase"] not in NORMAL_PHASES:
        raise _refuse("reinforcements enter in their owner's Normal Movement Phase", "9.11")
    uid = d.unit
    waiting = state["waiting"].get(uid)
    in_box = state["units"].get(uid, {}).get("hex") == gs.NGP
    if waiting is None and not in_box:
        raise _refuse(f"{uid} is not a reinforcement due now", "9.1")
    if waiting is not None:
        if waiting["turn"] > state["turn"] or gs.counter(state, uid)["side"] not in (
            side,
            "american",
        ):
            raise _refuse(f"{uid} is not a reinforcement due now", "9.1")
        if waiting["at"] == "NGP":
            raise _refuse(f"{uid} enters the North German Plain Box, not the map", "9.22")
        code = waiting["at"] or gs.hex_text(waiting["hex"])
    else:
        code = "N"
        left = state["phase_data"].get("ngp_allowed", 0)
        if left < 1:
            raise _refuse("no more German units may leave the NGP Box this turn", "9.22")
        problems = arrivals.ngp_choice_problems(
            [u["id"] for u in gs.in_box(state, "german")],
            state["phase_data"].get("ngp_arrived", []),
            state["phase_data"].get("ngp_left", []),
            uid,
            left,
            from_map=[u["id"] for u in gs.in_box(state, "german") if u.get("left_map")],
        )
        if problems:
            raise IllegalOrderError(f"illegal: {problems[0]}")
    info = waiting if waiting is not None else {"at": "N"}
    open_hexes = gs.entry_hexes(state, info, side)
    if not d.path:
        raise _refuse(
            f"name the entry hex: one of {', '.join(gs.hex_text(h) for h in open_hexes)}", "9.1"
        )
    first = gs.hex_of(state, d.path[0])
    if first not in open_hexes:
        raise _refuse(
            f"{uid} enters at a free '{code}' hex: {', '.join(gs.hex_text(h) for h in open_hexes)}",
            "9.1, 9.13",
        )
    if waiting is not None:
        unit = gs.put(state, gs.new_unit(state["counters"], uid, first))
        del state["waiting"][uid]
    else:
        unit = gs.own(state, uid)
        unit["hex"] = first
        state["phase_data"]["ngp_allowed"] = left - 1
        state["phase_data"].setdefault("ngp_left", []).append(uid)
    state["phase_data"]["arrived"].append(uid)
    places.enter_hexes(state, unit, [first], ctx)
    ctx.event(f"{uid} enters at {gs.hex_text(first)} (9.1)", unit=uid, hex=first)
    moving = _begin(state, unit, ctx)
    if len(d.path) > 1:
        walk(state, unit, moving, d.path[1:], ctx)


def rail_move(state: State, role: str, d: Rail, ctx: Context) -> None:
    """5.6: up to four units (vehicles of division size and less count two) along a
    continuous railroad, in the German Movement Phase; the 344th enters by railroad on turn 2
    outside that limit (9.16)."""
    if state["phase"] != "german-move":
        raise _refuse("railroad movement is only in the German Movement Phase", "5.65")
    uid = d.unit
    waiting = state["waiting"].get(uid)
    data = state["counters"]
    if waiting is not None:
        if waiting["turn"] > state["turn"] or data["units"][uid]["side"] != "german":
            raise _refuse(f"{uid} is not a reinforcement due now", "9.1")
        start = gs.hex_of(state, d.path[0]) if d.path else None
        open_hexes = gs.entry_hexes(state, waiting, "german")
        if (
            start is None
            or start not in open_hexes
            or not rail.entry_by_rail(state["board"], start)
        ):
            raise _refuse(
                f"{uid} enters by railroad at a free railroad '{waiting['at']}' hex", "5.67, 9.1"
            )
        unit = gs.new_unit(data, uid, start)
        words = d.path[1:]
        free = bool(waiting.get("rail"))  # 9.16: the 344th is not counted
    else:
        unit = gs.own(state, gs.unit_of(state, uid, "german")["id"])  # (the dict to change)
        words = d.path
        free = False
    if unit.get("moved"):
        raise _refuse(f"{uid} has already moved in this phase", "5.13")
    load = (
        0 if free else rail.rail_load(data, unit, turn=state["turn"], entering=waiting is not None)
    )
    if state["phase_data"]["rail_load"] + load > rail.RAIL_LIMIT:
        raise _refuse("at most four units move by railroad in a phase", "5.67")
    path = gs.resolve_path(state, unit["hex"], words)
    units = [u for u in gs.on_map(state) if u["id"] != uid]
    problems = []
    if path or waiting is None:  # (a reinforcement may enter by railroad and stop there)
        problems = rail.rail_problems(
            state["board"],
            data,
            units,
            {**gs.mover(state, unit), "hex": unit["hex"]},
            [unit["hex"], *path],
            phase="normal",
            transition_benefit=state["phase_data"].get("transition_benefit", False),
            entry=None if waiting is None else waiting["at"],
            started_in_zoc=False
            if waiting is not None
            else uid in state["phase_data"]["start_zoc"],
        )
    if problems:
        raise IllegalOrderError(f"illegal: {problems[0]}")
    if waiting is not None:
        gs.put(state, unit)
        del state["waiting"][uid]
        state["phase_data"]["arrived"].append(uid)
    state["phase_data"]["rail_load"] += load
    state["moving"] = None
    unit["moved"] = True
    full = [unit["hex"], *path]
    places.enter_hexes(state, unit, full, ctx)
    ctx.event(
        f"{uid} moves by railroad {' '.join(gs.hex_text(h) for h in full)} (5.6)",
        unit=uid,
        path=full,
    )


# --- splitting (5.7) ---------------------------------------------------------------------------


def split(state: State, role: str, d: Split, ctx: Context) -> None:
    if state["phase"] not in ("soviet-move", "siege-move"):
        raise _refuse("a corps splits in the Soviet Normal or Siege Movement Phase", "5.72")
    unit = gs.unit_of(state, d.unit, "soviet")
    data = state["counters"]
    if _marked(state, unit):  # split.py: the markers are turned over first, in their entry
        raise _refuse(
            f"{d.unit} bears Delay markers: turn them over first ('move {d.unit}')", "6.84"
        )
    moving = state["moving"]
    begun = moving is not None and moving["unit"] == unit["id"] and moving["fresh"]
    delay = int(moving.get("delay", 0)) if begun and moving is not None else 0
    problems = sp.split_problems(
        state["board"],
        data,
        gs.on_map(state),
        {**unit, "moved": False} if begun else unit,  # (its markers turned over, it has not moved)
        d.support,
        phase=_phase(state),
        used_support=[*state["destroyed"], *state["units"]],
    )
    if problems:
        raise IllegalOrderError(f"illegal: {problems[0]}")
    pieces = sp.split(data, unit, d.support, delay=delay)
    for piece in pieces:
        if piece.get("delay"):
            state["phase_data"].setdefault("split_delay", {})[piece["id"]] = piece["delay"]
    del state["units"][unit["id"]]
    state.setdefault("split", []).append(unit["id"])
    for piece in pieces:
        new = gs.new_unit(data, piece["id"], unit["hex"])
        for key in ("steps", "disrupted", "out_of_supply", "delays"):
            if key in piece:
                new[key] = piece[key]
        gs.put(state, new)
    if state["moving"] is not None and state["moving"]["unit"] == unit["id"]:
        state["moving"] = None
    ctx.event(
        f"{unit['id']} splits into {', '.join(p['id'] for p in pieces)} (5.72)", unit=unit["id"]
    )


# --- overrun (7) --------------------------------------------------------------------------------


def start_overrun(state: State, role: str, d: Overrun, ctx: Context) -> None:
    board = state["board"]
    launch = gs.hex_of(state, d.launch)
    target = gs.hex_of(state, d.target, launch)
    moving = state["moving"]
    uid = d.unit
    if uid is None:
        if moving is not None and state["units"][moving["unit"]]["hex"] == launch:
            uid = moving["unit"]
        else:
            mine = [u["id"] for u in gs.units_at(state, launch) if u["side"] == "soviet"]
            if len(mine) != 1:
                raise _refuse(f"name the unit that overruns from {gs.hex_text(launch)}", "7.24")
            uid = mine[0]
    unit = gs.own(state, gs.unit_of(state, uid, "soviet")["id"])  # (the dict to change)
    if unit["hex"] != launch:
        raise _refuse(f"{uid} is not in {gs.hex_text(launch)}", "7.1")
    if moving is None or moving["unit"] != uid:
        if _marked(state, unit):  # (refused before any die is asked for)
            raise _refuse(f"{uid} bears Delay markers: turn them over first ('move {uid}')", "6.84")
        moving = _begin(state, unit, ctx)
    problems = overrun.overrun_problems(
        board,
        state["tables"],
        state["counters"],
        gs.on_map(state),
        gs.mover(state, unit),
        launch,
        target,
        points_left=moving["points"],
        phase=_phase(state),
        turn=state["turn"],
    )
    if problems:
        raise IllegalOrderError(f"illegal: {problems[0]}")
    moving["points"] -= overrun.overrun_cost(
        board, state["tables"], gs.mover(state, unit), launch, target
    )
    moving["fresh"] = False
    ctx.event(f"{uid} overruns {gs.hex_text(target)} from {gs.hex_text(launch)} (7.1)", unit=uid)
    fighting.resolve(state, ctx, [uid], target, overrun=True)


# --- the end of a movement phase ----------------------------------------------------------------


def done(state: State, role: str, d: Done, ctx: Context) -> None:
    """The phase player ends the phase: every reinforcement due must have entered (9.12)
    unless all its entry hexes are held by the enemy (9.13: lost)."""
    side = phases.phase_side(state)
    if state["phase"] in NORMAL_PHASES:
        for uid, info in sorted(state["waiting"].items()):
            counter = state["counters"]["units"][uid]
            owner = "german" if counter["side"] == "german" else "soviet"
            if info["turn"] > state["turn"] or owner != side:
                continue
            if info["at"] == "NGP":
                continue
            if gs.entry_hexes(state, info, side):
                raise _refuse(f"{uid} must enter this turn ('enter {uid} HEX')", "9.12")
            del state["waiting"][uid]
            state["gone"].append(uid)
            ctx.event(f"{uid} cannot enter: every '{info['at']}' hex is held by the enemy (9.13)")
    phases.finish_phase(state, ctx)
