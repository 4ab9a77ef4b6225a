"""Götterdämmerung overruns (rulebook 7.0-7.5) as pure rule functions.

An overrun is combat made during movement by one moving Soviet unit against the enemy
units in one adjacent hex (7.0, 7.22, 7.24). Built on combat.py (strengths, odds, retreat),
movement.py (the step's cost), zoc.py (stacking) and tables.py (the Soviet CRT read with a
d10, 7.1). No dice: the roll is a parameter. Unit dicts are those of combat.py / zoc.py;
`mover` is the moving unit, `launch_hex` the hex it overruns from (where it stands now in
its move: its dict's `hex` may still be where the move began).

Readings where the rulebook is silent or contradicts itself (also for docs/gotterdammerung.md):
- 7.21 vs 5.42 and 7.29: 7.21 names Transition Hexes among the hexes an overrun may target,
  5.42 and 7.29 forbid overruns into them. Ruling: forbidden (two rules against one, and
  5.42 is the Transition Hex rule itself); 7.21 is read as "from Operational and
  Transition Hexes" (which 7.52 states for the launch hex).
- 7.29 "major river": on the shipped map every Elbe hexside is also a major river, so the
  9.72 Elbe ban for American units is already covered; it is checked on its own as well.
  A major river can never matter for 7.32's doubling: 7.29 forbids that overrun.
- 7.32 "river hexside": 6.44's "river" class (md.river / combat.crossing), not a minor
  river. 7.31 and 7.32 both apply to one overrun when both hold: the defence is doubled
  twice (x4), each rule saying "in addition to" its 6.4 modifier.
- 7.1, 7.22, 7.27: the overrun's 3 points replace any ZOC cost: leaving the launch hex's
  weak ZOC costs nothing more (5.22's +3 is not added) and ZOC never forbids the overrun.
- 5.23's minimum move (one hex whatever it costs) does not cover an overrun: the unit must
  have the terrain cost (without road, 7.29) + 3 points left (7.1 "must spend").
- 7.24 "stacking limit": the points limit of 4.0/4.1 (zoc.stack_points / stack_limit).
  4.12's support-unit and 4.17's nationality rules hold only at the end of a phase.
- 6.15 and 6.18 apply: an overrun "is a kind of combat" (7.0), so a unit with no attack
  strength, a supply depot, or a 2nd Belorussian Front unit on turns 1-2 may not overrun.
- 6.46/6.92 artillery support never applies: the markers act only in the Soviet Combat
  Phase of turn 1 (6.92, 6.94), never in a movement phase.
- 6.65 applies as in combat: a unit that retreated into the target hex this phase (an
  earlier overrun) adds no defence.
- 7.25/7.26 "the result against the attacker": any attacker part of the result (steps,
  retreat, EX) ends the move, even when Support Points pay the steps (6.59).
- 7.42 "on either side": neither hex of the defender's two-hex retreat may be adjacent to
  the overrunning unit's hex. The two examples of 7.42 refer to diagrams the text lacks;
  nothing here reproduces them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.games.gotterdammerung import combat as cb
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import movement as mv
from pbem.games.gotterdammerung import tables as tb
from pbem.games.gotterdammerung import zoc

Unit = Mapping[str, Any]
PHASES = ("normal", "breakthrough")  # 7.0, 7.21
FORBIDDEN_TERRAIN = ("small-city", "major-city", "mountain", "marsh")  # 7.29
DOUBLED = 2  # 7.31, 7.32


def mover_facts(data: Mapping[str, Any], mover: Unit) -> dict[str, Any]:
    """The mover as movement.py takes it: its counter's `class`, `branch`, `movement` under
    the unit dict's own keys."""
    return {**zoc.counter(data, mover), **mover}


# --- may it overrun? (7.0, 7.2, 7.5) ------------------------------------------------------


def overrun_cost(
    board: Mapping[str, Any],
    tables: dict[str, Any],
    mover: Unit,
    launch_hex: str,
    target: str,
    *,
    data: Mapping[str, Any] | None = None,
) -> int:
    """The movement points an overrun from `launch_hex` into `target` costs: the terrain of
    the hex and hexside without the road benefit (7.29, 5.32), a fortification's +1 for a
    Soviet unit (5.37), and 3 more (7.1, 7.23). `mover` carries `class`, `branch`,
    `movement` and `side` (or pass `data` to read them from its counter). ValueError (one
    line) if the unit may not make that step at all."""
    unit = mover_facts(data, mover) if data is not None else mover
    cost = mv.step_cost(board, tables, unit, launch_hex, target, overrun=True)
    if cost is None:
        raise ValueError(f"{mover['id']} may not move from {launch_hex} into {target}")
    return cost


def overrun_problems(
    board: Mapping[str, Any],
    tables: dict[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    mover: Unit,
    launch_hex: str,
    target: str,
    *,
    points_left: int,
    phase: str,
    turn: int,
) -> list[str]:
    """Why `mover`, standing in `launch_hex` with `points_left` movement points, may not
    overrun hex `target` now (empty: it may)."""
    name = mover["id"]
    if mover["side"] != tb.SOVIET:
        return ["German units never carry out overruns (7.0, 7.21)"]
    if phase not in PHASES:
        return [
            "overruns are made only in the Soviet Normal and Breakthrough Movement Phases (7.21)"
        ]
    if launch_hex == target or not md.adjacent(board, launch_hex, target):
        return [f"{name} may overrun only a hex adjacent to {launch_hex} (7.1)"]
    problems: list[str] = []
    facts = mover_facts(data, mover)
    launch_kind, target_kind = md.kind(board, launch_hex), md.kind(board, target)
    if launch_kind == md.CITY_HEX or target_kind == md.CITY_HEX:
        problems.append("no overruns take place on the Berlin City Map (7.21, 7.51)")
    elif target_kind != md.OPERATIONAL:
        problems.append(f"{name} may not overrun Transition Hex {target} (5.42, 7.29)")
    enemies = cb.defenders(units, target, mover["side"])
    if not enemies:
        problems.append(f"hex {target} holds no enemy unit to overrun (7.0)")
    if phase == "breakthrough" and (facts["class"] != tb.VEHICLE or launch_kind != md.OPERATIONAL):
        problems.append(
            f"{name} may not move in the Breakthrough Movement Phase: only Soviet vehicle "
            "units off the Berlin City Map (5.16)"
        )
    if mover.get("disrupted"):
        problems.append(f"{name} is disrupted and may not carry out an overrun (6.67, 7.28)")
    if facts.get("branch") in cb.NO_ATTACK or cb.strength(data, mover, "attack") < 1:
        problems.append(f"{name} has no attack strength and may not overrun (6.15)")
    if facts.get("front") == "2BF" and turn <= 2:
        problems.append(f"{name} is of the 2nd Belorussian Front: no attacks on turns 1-2 (6.18)")
    problems += _crossing_problems(board, tables, facts, launch_hex, target)
    if md.terrain(board, target) in FORBIDDEN_TERRAIN:
        terrain = md.terrain(board, target).replace("-", " ")
        problems.append(f"{name} may not overrun a {terrain} hex (7.29)")
    stack = [u for u in units if u["hex"] == launch_hex and u["id"] != name]
    stack.append({**mover, "hex": launch_hex})
    points, limit = zoc.stack_points(board, data, stack), zoc.stack_limit(board, launch_hex)
    if points > limit:
        problems.append(
            f"{name} may not overrun from {launch_hex}: {points} stacking points there, "
            f"the limit is {limit} (7.24)"
        )
    cost = mv.step_cost(board, tables, facts, launch_hex, target, overrun=True)
    if cost is not None and points_left < cost:
        problems.append(
            f"{name} needs {cost} movement points to overrun {target} (terrain without road "
            f"+ 3) but has {points_left} (7.1, 7.29)"
        )
    return problems


def _crossing_problems(
    board: Mapping[str, Any],
    tables: dict[str, Any],
    facts: Mapping[str, Any],
    launch_hex: str,
    target: str,
) -> list[str]:
    """The hexside and entry limits of 7.0 and 7.29."""
    name = facts["id"]
    features = md.hexside(board, launch_hex, target)
    problems = []
    if md.river(board, launch_hex, target) == "major-river":
        problems.append(f"{name} may not overrun across a major river hexside, road or not (7.29)")
    if md.full_lake(board, launch_hex, target):
        problems.append(f"{name} may not cross a full sea/lake hexside (5.28, 7.29)")
    if md.front_boundary(board, launch_hex, target):
        problems.append(f"{name} may not overrun across a Front boundary hexside (5.27, 7.0)")
    if "elbe" in features and facts.get("nationality") == "american":
        problems.append(f"{name} is American: it may not cross the Elbe (9.72, 7.29)")
    if not problems and mv.step_cost(board, tables, facts, launch_hex, target) is None:
        problems.append(f"{name} may not move into {target}, so may not overrun it (7.29)")
    return problems


# --- odds (7.1, 7.3) ----------------------------------------------------------------------


@dataclass(frozen=True)
class OverrunOdds(cb.Combat):
    """combat.Combat with the overrun's doubled defence (7.31, 7.32): `defence` is the
    doubled total, `printed` the total before doubling, `doubled_by` the rules applied."""

    printed: int = 0
    doubled_by: tuple[str, ...] = ()


def overrun_odds(
    board: Mapping[str, Any],
    tables: dict[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    mover: Unit,
    target: str,
    *,
    turn: int,
    launch_hex: str | None = None,
) -> OverrunOdds:
    """The odds of `mover` (in `launch_hex`, default its `hex`) overrunning `target`: its
    attack strength, halved when out of supply (6.17, 7.28); the defence of every enemy unit
    in the hex (7.22), doubled in a fortification hex (7.31) and doubled across a river
    hexside (7.32); every 6.4 shift (7.33) on the Soviet CRT, which an overrun reads with a
    d10 (7.1; see `result`)."""
    here = launch_hex or mover["hex"]
    attacker = {**mover, "hex": here, "artillery": False}  # 6.92: not in movement
    base = cb.combat_odds(board, tables, data, units, [attacker], target, turn=turn)
    doubled_by = []
    if md.fortified(board, target):
        doubled_by.append("7.31")  # every defender is German: only Soviet units overrun
    if cb.crossing(board, here, target) == "river":
        doubled_by.append("7.32")
    defence = base.defence * DOUBLED ** len(doubled_by)
    found = tb.odds(tables, base.attack, max(defence, 1), base.shift, attacker=tb.SOVIET)
    return OverrunOdds(
        crt=tb.SOVIET,
        attack=base.attack,
        defence=defence,
        shift=base.shift,
        odds=found,
        terrain=base.terrain,
        printed=base.defence,
        doubled_by=tuple(doubled_by),
    )


def result(tables: dict[str, Any], found: cb.Combat, roll: int) -> tb.Result:
    """The overrun's result for a d10 `roll` (7.1: the Soviet CRT, a ten-sided die)."""
    return tb.overrun_result(tables, found.odds.index, roll)


# --- after the result (7.25-7.27, 7.43) ---------------------------------------------------


def outcome(
    found: tb.Result, target_emptied: bool, mover_survived: bool, mover_retreated: bool
) -> dict[str, Any]:
    """What the overrunning unit does once the result (steps, retreats) is applied:
    `enters` the target hex (compulsory, no points, ZOC ignored: 7.27), `continues` its
    move with the points it has left, `ends_move`, becomes `disrupted` (7.25), and the fixed
    limits `advance_beyond` (7.43: never past the target) and `defenders_advance` (7.27,
    7.42: never)."""
    against_attacker = bool(found.attacker_steps or found.attacker_retreat or found.exchange)
    enters = mover_survived and not mover_retreated and target_emptied  # 7.26
    out = {
        "enters": enters,
        "entry_cost": 0,  # 7.27
        "continues": enters and not against_attacker,  # 7.26: only after "-" against it
        "ends_move": not (enters and not against_attacker),  # 7.25, 7.26 (EX: enters, stops)
        "disrupted": mover_survived and mover_retreated,  # 7.25
        "advance_beyond": False,  # 7.43
        "defenders_advance": False,  # 7.27, 7.42
        "rule": "7.26",
    }
    if not mover_survived:
        out["rule"] = "7.42"
    elif mover_retreated or not target_emptied:
        out["rule"] = "7.25"
    return out


# --- retreats (7.41, 7.42) ----------------------------------------------------------------


def defender_retreat_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    path: Sequence[str],
    *,
    mover_hex: str,
    target: str,
) -> list[str]:
    """Why a defender in `target` may not retreat along `path` after an overrun from
    `mover_hex` (`units` with the overrunning unit there): combat.retreat_problems (6.6;
    passing through a full friendly hex is allowed, 7.41: check the end with
    combat.retreat_end_problems) and 7.42: no hex of the retreat adjacent to the overrunning
    unit. 7.42's examples refer to diagrams the text
    lacks."""
    return _retreat_problems(
        board, data, units, unit, path, target, mover_hex, "the overrunning unit"
    )


def mover_retreat_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    mover: Unit,
    path: Sequence[str],
    *,
    mover_hex: str,
    target: str,
) -> list[str]:
    """Why the overrunning unit in `mover_hex` may not retreat along `path`: combat's
    attacker retreat (6.6, 6.64) and 7.42: no hex of the retreat adjacent to the target hex.
    7.42's examples refer to diagrams the text lacks."""
    return _retreat_problems(
        board, data, units, mover, path, mover_hex, target, f"the target hex {target}"
    )


def _retreat_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    path: Sequence[str],
    start: str,
    away_from: str,
    beside: str,
) -> list[str]:
    """combat.retreat_problems of `unit` retreating from `start` along `path` away from the
    enemy in `away_from`, and 7.42: no hex of the retreat in or adjacent to `away_from`
    (`beside` names it). attacking=False for both sides after an overrun: 7.42 is stricter
    than 6.64's "not end beside the defender"."""
    here = {**unit, "hex": start}
    problems = cb.retreat_problems(
        board, data, units, here, path, enemy_hex=away_from, attacking=False
    )
    for h in path:
        if h == away_from or md.adjacent(board, h, away_from):
            problems.append(f"{unit['id']} may not retreat into {h}, next to {beside} (7.42)")
    return problems
