"""Götterdämmerung: German railroad movement (rulebook 5.6) as pure functions.

Functions take the loaded map (`map_data.load_map`), the counters data
(`counters.load_counters`) and plain unit dicts as zoc.py describes them (`id`, `side`,
`hex`; optional `disrupted`, `moved`). A railroad move is a path of hex ids whose first hex
is where the unit stands (or, entering as a reinforcement, its entry hex). It spends no
movement points (5.0, 5.62, 5.64), so movement.py's costs play no part.

A step follows a railroad when the two hexes are consecutive in one of `board["railroads"]`
(the loader marks that hexside "railroad"). Railroad lines exist on the Operational Map
only: the loader accepts none on the City Map, and a step into or out of a City hex is
never a railroad step (5.35, 5.69).

Readings where the rulebook is silent or terse:
- 5.61: its first sentence excludes "artillery regiment units with a movement allowance of
  3", its second "German artillery units": every German artillery unit is excluded (the
  second sentence contains the first; the shipped counters hold one German artillery unit,
  a regiment with movement 3, so both readings agree on them).
- 5.63 "at the start of a movement phase": the unit's hex now. A unit moves once a phase
  (5.13) and no Soviet unit moves or changes its ZOC during the German Movement Phase, so
  the ZOC on its hex is the ZOC it had at the phase start.
- 5.66 "unless enemy ZOC extends over it": the hexside is unusable when either of its hexes
  is in enemy ZOC; 5.63 already forbids both (the start hex and every entered hex), so 5.66
  adds no case of its own and its problem is 5.63's, citing both.
- 5.68 without the benefit: the Transition Hexes are not railroad hexes among themselves
  (no step from one to another), but 5.66 still lets a line cross a Transition/Operational
  hexside; a move entering a Transition Hex from an Operational hex then ends there (5.44).
  With the benefit it does not stop, and the ring joining the eight (map.toml's "Transition
  Hex ring railroad") is usable.
- 5.68's benefit is fixed "at the start of the German Normal Movement Phase": the engine
  computes `transition_benefit` then and passes the result to each move of that phase.
  `transition_benefit` answers 5.33's road benefit too (the same condition).
- 5.69 second paragraph: a railroad is no bridge for movement costs or combat; railroad
  movement spends no points, so a river a line crosses does not hinder it.
- 5.67 with 9.16: a unit the counters schedule to enter by railroad (`place.rail`: the
  344th Infantry Division's two regiments, turn 2) counts 0 toward the limit when it enters
  so; any other unit entering by railroad counts as 5.67 says. A reinforcement entering by
  railroad enters at a railroad hex of its entry code not in enemy ZOC (9.13 lets a unit
  enter a hex in enemy ZOC, but 5.63 forbids a railroad move to enter one) and goes on
  along the line; it has no "start of phase" hex, so 5.63's first sentence does not apply.
- 5.67's "division-, regiment- and brigade-size vehicle units count as two": every other
  unit (foot units of any size, vehicle battalions and battle groups) counts one.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import zoc

Unit = Mapping[str, Any]
RAIL_LIMIT = 4  # 5.67: units moved by railroad in one German Normal Movement Phase
HEAVY_SIZES = ("division", "regiment", "brigade")  # 5.67: these vehicle units count 2
RAIL_ENTRY_TURN = 2  # 9.16: the 344th Infantry Division enters by railroad on turn 2


def is_railroad(board: Mapping[str, Any], a: str, b: str) -> bool:
    """Does a railroad line join neighbours `a` and `b` (5.62)? Never on the City Map (5.35)."""
    if md.kind(board, a) == md.CITY_HEX or md.kind(board, b) == md.CITY_HEX:
        return False
    return md.adjacent(board, a, b) and "railroad" in md.hexside(board, a, b)


def railroad_hexes(board: Mapping[str, Any]) -> set[str]:
    """Every hex some railroad line passes through (Operational and Transition Hexes)."""
    return {h for line in board.get("railroads", ()) for h in line["hexes"]}


def transition_benefit(
    units: Sequence[Unit], occupied: Collection[str], board: Mapping[str, Any] | None = None
) -> bool:
    """5.68 (and 5.33): no Soviet unit and no Soviet Occupied marker on the Berlin City Map,
    its Transition Hexes included. `occupied` is every hex with a Soviet Occupied marker
    (5.47, 11.12); markers on Operational hexes do not count. `board` tells which hexes are
    Transition Hexes: pass the game's map (default: the shipped one)."""
    if board is None:
        board = _shipped_map()
    if any(u["side"] == "soviet" and md.on_map(board, u["hex"], md.CITY) for u in units):
        return False
    return not any(h in board["hexes"] and md.on_map(board, h, md.CITY) for h in occupied)


@lru_cache(maxsize=1)
def _shipped_map() -> dict[str, Any]:
    return md.default_map()


def entry_by_rail(board: Mapping[str, Any], entry_code: str) -> list[str]:
    """5.67: the entry hexes of code `entry_code` ("SW", ...) where a railroad runs, at which
    a reinforcement may enter by railroad ([] when none: it enters by normal movement).
    Given one entry hex id instead ("op:4032"), [that hex] if a railroad runs there."""
    entry = board.get("entry", {})
    rails = railroad_hexes(board)
    if entry_code in board["hexes"]:
        entering = any(entry_code in hexes for hexes in entry.values())
        return [entry_code] if entering and entry_code in rails else []
    if entry_code not in entry:
        raise ValueError(f"unknown entry code {entry_code!r}")
    return [h for h in entry[entry_code] if h in rails]


def rail_load(
    data: Mapping[str, Any], unit: Unit, *, turn: int | None = None, entering: bool = False
) -> int:
    """How much a railroad move uses of the RAIL_LIMIT (5.67): 2 for a division-, regiment-
    or brigade-size vehicle unit, 1 for any other; 0 for a unit the counters schedule to
    enter by railroad (the 344th, 9.16) entering on its turn."""
    c = zoc.counter(data, unit)
    place = c.get("place", {})
    if entering and place.get("rail") and place.get("turn") == turn:
        return 0
    return 2 if c.get("class") == "vehicle" and c.get("size") in HEAVY_SIZES else 1


def rail_limit_problem(used: int, load: int) -> str | None:
    """5.67: the German player moves at most four units by railroad each Normal Movement
    Phase. `used` is what earlier railroad moves of the phase used (their `rail_load`)."""
    if used + load > RAIL_LIMIT:
        return (
            f"railroad movement is limited to {RAIL_LIMIT} units a phase: {used} used, "
            f"this unit counts {load} (5.67)"
        )
    return None


def rail_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    path: Sequence[str],
    *,
    phase: str,
    transition_benefit: bool,
    entry: str | None = None,
    started_in_zoc: bool | None = None,
) -> list[str]:
    """Why `unit` may not move by railroad along `path` (empty: it may). `phase` is the
    movement phase (movement.PHASES), `transition_benefit` the 5.68 condition at the start
    of the phase, `entry` the entry code when a reinforcement enters by railroad (path[0]
    is then its entry hex, and `unit` is not yet among `units`), `started_in_zoc` whether
    the unit was in enemy ZOC at the phase start when the engine recorded it (default: the
    ZOC on its hex now, the same in a German phase; see the module doc)."""
    name = unit.get("id", "the unit")
    c = zoc.counter(data, unit)
    if unit["side"] != "german":
        return [f"{name}: only German units move by railroad (5.61)"]
    problems = []
    if c.get("branch") == "artillery":
        problems.append(f"{name} is an artillery unit and may not move by railroad (5.61)")
    if int(unit.get("movement", c.get("movement", 0))) < 1:
        problems.append(f"{name} has no movement allowance and may not move by railroad (5.61)")
    if unit.get("disrupted"):
        problems.append(f"{name} is disrupted and may not move by railroad (6.67)")
    if phase != "normal":
        problems.append("railroad movement is only made in the German Normal Movement Phase (5.65)")
    if unit.get("moved"):
        problems.append(f"{name} has already moved this phase (5.13)")
    if len(path) < 2:
        problems.append("a railroad move needs at least one hex to enter")
        return problems
    unknown = [h for h in path if h not in board["hexes"]]
    if unknown:
        problems.append(f"{unknown[0]} is not a hex of the maps: railroad movement stays on them")
        return problems
    enemy_zoc = zoc._zone(board, data, units, "german")  # (read only)
    enemy_at = {u["hex"] for u in units if u["side"] != "german"}
    start = path[0]
    if entry is not None:
        if start not in entry_by_rail(board, entry):
            problems.append(f"{start} is not a railroad hex of entry {entry} (5.67)")
    elif start != unit["hex"]:
        problems.append(f"the path of {name} must begin at its hex {unit['hex']}")
    elif enemy_zoc.get(start) if started_in_zoc is None else started_in_zoc:
        problems.append(f"{name} began the phase in enemy ZOC and may not move by railroad (5.63)")
    if entry is not None and enemy_zoc.get(start):
        problems.append(f"{name} may not enter {start} by railroad: it is in enemy ZOC (5.63)")
    for i, (a, b) in enumerate(zip(path, path[1:], strict=False)):
        kind_a, kind_b = md.kind(board, a), md.kind(board, b)
        if i > 0 and _stops((md.kind(board, path[i - 1]), kind_a), transition_benefit):
            problems.append(
                f"{name} must stop in Transition Hex {a}: the Transition Hexes are no railroad "
                "without the 5.68 benefit (5.44, 5.68)"
            )
            break
        if md.CITY_HEX in (kind_a, kind_b):
            problems.append(
                f"{name} may not move by railroad from {a} into {b}: the railroads of the "
                "Berlin City Map are not railroads (5.35, 5.69)"
            )
            break
        if not is_railroad(board, a, b):
            problems.append(
                f"{name} may not move by railroad from {a} into {b}: no railroad line joins "
                "them (5.62)"
            )
            break
        if kind_a == kind_b == md.TRANSITION and not transition_benefit:
            problems.append(
                f"{name} may not move by railroad from {a} into {b}: the Transition Hexes are "
                "railroad hexes only with no Soviet unit or Occupied marker on the City Map (5.68)"
            )
            break
        if b in enemy_at:
            problems.append(f"{name} may not enter {b}: an enemy unit is there (5.21)")
            break
        if enemy_zoc.get(b):
            across = md.TRANSITION in (kind_a, kind_b) and md.OPERATIONAL in (kind_a, kind_b)
            rules = "5.63, 5.66" if across else "5.63"
            problems.append(f"{name} may not enter railroad hex {b}: it is in enemy ZOC ({rules})")
            break
    return problems


def _stops(kinds: tuple[str, str], transition_benefit: bool) -> bool:
    """5.44 with 5.66 and 5.68: a railroad move entering a Transition Hex from an
    Operational hex ends there, unless the 5.68 benefit holds."""
    return kinds == (md.OPERATIONAL, md.TRANSITION) and not transition_benefit
