"""Götterdämmerung: who may move in the German Counter-Move Phases (rulebook 5.5, 3.1,
12.34) and in the Soviet Breakthrough Movement Phase (5.16, 3.1), as pure functions.

These answer "may this unit begin a move in this phase"; the path itself (costs, ZOC,
5.44's stop in a Transition Hex) is movement.check_path's, with phase "counter-move" or
"breakthrough". Functions take the loaded map (`map_data.load_map`), the counters data
(`counters.load_counters`) and plain unit dicts as the engine state holds them (`id`,
`side`, `hex`; optional `disrupted`, `moved`). `start_zoc` is the set of ids of the units
that were in enemy ZOC (strong or weak) at the start of the phase: the engine records it
then, since moves during the phase change who is in enemy ZOC.

Readings where the rulebook is silent or terse:
- Transition Hexes in a counter-move: 5.54 and 5.16 exclude units "in Berlin City hexes";
  3.1 says "vehicle units on the Berlin City Map", but 5.43 describes vehicle units leaving
  a Transition Hex for an Operational hex in "a friendly counter-move", and 4.15 treats a
  Transition Hex as an Operational hex in principle. So a German vehicle unit in a
  Transition Hex may counter-move (onto the Operational Map or into another Transition Hex),
  and no counter-move enters a Berlin City hex (5.51: the phase moves units "on the
  Operational Map"; 3.1). For the Soviet Breakthrough Phase 5.16 says "not on the Berlin City
  Map (including Transition Hexes)": a Soviet unit in a Transition Hex may not break
  through; one may enter a Transition Hex in breakthrough (its move ends there, 5.44).
- 5.52 "counted as one unit": the group is the units of one parent formation in one hex at
  the start of the phase (`group_key`: parent and start hex). Its units still move one at a
  time (5.11) and need not move together or to the same hex; moving any of them uses the
  group's one place of the two. A unit without a parent formation is a group by itself.
- 5.53 with 6.67: a disrupted unit may not counter-move or break through, wherever it is.
- 12.34: no unit of the 6th SS Panzer Army counter-moves, whatever its class.
- A unit with a printed movement allowance of zero (the OKH) never moves (5.28).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import zoc

Unit = Mapping[str, Any]
COUNTER_MOVE_UNITS = 2  # 5.51: any two vehicle units (5.52: or groups)
SIXTH_SS = "6th-ss"  # counters group of 12.32


def group_key(data: Mapping[str, Any], unit: Unit) -> str:
    """The "one unit" of 5.52 a counter-move uses: the unit's parent formation and its hex
    (call it before the unit moves: the hex is its start hex)."""
    parent = str(zoc.counter(data, unit).get("parent") or "")
    return f"{parent or unit['id']}@{unit['hex']}"


def units_in_enemy_zoc(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], side: str
) -> set[str]:
    """The ids of `side`'s units in enemy ZOC, strong or weak (4.24): what the engine records
    as `start_zoc` when a Counter-Move or Breakthrough Phase begins (5.53, 5.16). A friendly
    unit in the hex cancels nothing here (4.28 cancels only for retreat and supply)."""
    reach = zoc._zone(board, data, units, side)  # (read only)
    return {u["id"] for u in units if u["side"] == side and u["hex"] in reach}


def _common(
    data: Mapping[str, Any],
    unit: Unit,
    start_zoc: Collection[str],
    zoc_rule: str,
    disrupted_rule: str,
) -> list[str]:
    """The checks both phases share: a movement allowance, not moved, not in enemy ZOC at
    the phase start, not disrupted."""
    name = unit.get("id", "the unit")
    c = zoc.counter(data, unit)
    problems = []
    if int(unit.get("movement", c.get("movement", 0))) < 1:
        problems.append(f"{name} has no movement allowance and may not move (5.28)")
    if unit.get("moved"):
        problems.append(f"{name} has already moved this phase (5.13)")
    if unit["id"] in start_zoc:
        problems.append(
            f"{name} was in enemy ZOC at the start of the phase and may not move ({zoc_rule})"
        )
    if unit.get("disrupted"):
        problems.append(f"{name} is disrupted and may not move in this phase ({disrupted_rule})")
    return problems


def countermove_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    *,
    moved_groups: Collection[str],
    start_zoc: Collection[str],
    path: Sequence[str] = (),
) -> list[str]:
    """Why `unit` may not move in a German Counter-Move Phase (empty: it may).
    `moved_groups` are the `group_key`s the phase's earlier moves used, `path` (optional)
    the move, its first hex the unit's."""
    name = unit.get("id", "the unit")
    c = zoc.counter(data, unit)
    if unit["side"] != "german":
        return [f"{name}: only German units counter-move (5.51)"]
    if c.get("class") != "vehicle":
        return [f"{name} is a foot unit: only vehicle units counter-move (5.55)"]
    problems = []
    if SIXTH_SS in c.get("groups", ()):
        problems.append(f"{name} is of the 6th SS Panzer Army and may not counter-move (12.34)")
    if md.kind(board, unit["hex"]) == md.CITY_HEX:
        problems.append(f"{name} is in a Berlin City hex and may not counter-move (5.54)")
    problems += _common(data, unit, start_zoc, "5.53", "5.53, 6.67")
    used = set(moved_groups)
    if group_key(data, unit) not in used and len(used) >= COUNTER_MOVE_UNITS:
        problems.append(
            f"the German player has already counter-moved {COUNTER_MOVE_UNITS} units this "
            "phase (5.51, 5.52)"
        )
    if any(h in board["hexes"] and md.kind(board, h) == md.CITY_HEX for h in path[1:]):
        problems.append(f"{name} may not enter a Berlin City hex in a counter-move (3.1, 5.51)")
    return problems


def breakthrough_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    *,
    start_zoc: Collection[str],
) -> list[str]:
    """Why `unit` may not move in the Soviet Breakthrough Movement Phase (empty: it may)."""
    name = unit.get("id", "the unit")
    c = zoc.counter(data, unit)
    if unit["side"] != "soviet":
        return [f"{name}: only Soviet units move in the Breakthrough Movement Phase (5.16)"]
    if c.get("class") != "vehicle":
        return [f"{name} is a foot unit: only vehicle units break through (5.16)"]
    problems = []
    if md.on_map(board, unit["hex"], md.CITY):
        problems.append(
            f"{name} is on the Berlin City Map (Transition Hexes included) and may not "
            "break through (5.16)"
        )
    problems += _common(data, unit, start_zoc, "5.16", "6.67")
    return problems
