"""Götterdämmerung combat (rulebook 6.1-6.7, 6.9) as pure rule functions.

No engine yet and no dice: the die roll is a parameter. Every function takes the loaded map
(`map_data.load_map`), tables (`tables.load_tables`), counters (`counters.load_counters`) and
plain unit dicts as zoc.py describes them (`id`, `side`, `hex`), with optional keys `steps`
(the steps left, 6.52; default the counter's), `disrupted` (6.66), `out_of_supply` (6.17),
`attacked` (it attacked this phase, 6.14), `defended` (its hex was attacked this phase,
6.14), `advanced` (it advanced after combat this phase, 6.73), `retreated_into` (it retreated
into its hex this phase, 6.65), `artillery` (it bears an Artillery Support marker, 6.91).

Readings where the rulebook is terse (also in docs/gotterdammerung.md):
- 6.59 vs 10.3: the starting Support Points are a parameter; SUPPORT_POINTS = 12 (6.59, and
  the printed track has 12 spaces), SUPPORT_POINTS_10_3 = 15 the other printed figure.
- 6.59: while points remain, a numerical Soviet loss is paid in points as far as they go,
  the rest in steps; an "E X" costs the Soviet side one point per Soviet unit in the combat.
- 6.53, 6.57: every hex of the two-hex retreat that cannot be made costs the stack one step
  (chosen by the opposing player); a retreat "as far as possible" is always made first.
- 6.75: "destroyed by a numerical result": vehicles may advance (result - steps applied)
  hexes, at least one.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import tables as tb
from pbem.games.gotterdammerung import zoc

Unit = Mapping[str, Any]
SOVIET, GERMAN = tb.SOVIET, tb.GERMAN
SUPPORT_POINTS = 12  # 6.59 (10.3 prints 15: see SUPPORT_POINTS_10_3)
SUPPORT_POINTS_10_3 = 15
RETREAT_HEXES = 2  # 6.61
NO_ATTACK = ("fuhrer", "depot")  # 6.15: the Hitler unit and supply depots
STOP_TERRAIN = ("fortification", "built-up", "major-city", "small-city", "marsh")  # 6.76


def other(side: str) -> str:
    return GERMAN if side == SOVIET else SOVIET


# --- strengths (6.17, 6.52) -----------------------------------------------------------------


def steps_left(data: Mapping[str, Any], unit: Unit) -> int:
    return int(unit.get("steps", zoc.counter(data, unit).get("steps", 1)))


def strength(data: Mapping[str, Any], unit: Unit, which: str) -> int:
    """The unit's "attack" or "defence" strength: its back side once it lost a step (6.52),
    halved rounding up when out of supply (6.17). A unit dict may carry its own value (a
    revealed Volkssturm marker, 8.45)."""
    if which in unit:
        value = int(unit[which])
    else:
        c = zoc.counter(data, unit)
        face = c if steps_left(data, unit) >= c.get("steps", 1) or not c.get("reduced") else None
        value = int((face or c["reduced"])[which])
    if unit.get("out_of_supply"):
        value = -(-value // 2)
    return value


# --- who may attack whom (6.1, 6.2) -------------------------------------------------------


def attack_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    attackers: Sequence[Unit],
    target: str,
    *,
    turn: int = 1,
) -> list[str]:
    """Why these units may not attack hex `target` together (empty: they may)."""
    problems: list[str] = []
    if not attackers:
        return ["an attack needs at least one attacking unit (6.3)"]
    sides = {u["side"] for u in attackers}
    if len(sides) > 1:
        return ["all the units of an attack belong to one side (6.0)"]
    side = sides.pop()
    found = defenders(units, target, side)
    if not found:
        problems.append(f"hex {target} holds no enemy unit to attack (6.11)")
    elif any(u.get("defended") for u in found):
        problems.append(f"hex {target} was already attacked this phase (6.14)")
    for u in attackers:
        name, h = u["id"], u["hex"]
        c = zoc.counter(data, u)
        if h == target or not md.adjacent(board, h, target):
            problems.append(f"{name} is not adjacent to hex {target} (6.11, 6.23)")
            continue
        if md.kind(board, h) == md.CITY_HEX and md.kind(board, target) == md.TRANSITION:
            problems.append(
                f"{name} is in a Berlin City hex: it may not attack a Transition Hex (6.13, 6.25)"
            )
        if md.full_lake(board, h, target):
            problems.append(
                f"{name} may not attack across a full sea/lake hexside or the Spree (6.16)"
            )
        if u.get("attacked"):
            problems.append(f"{name} already attacked this phase (6.14)")
        if c.get("branch") in NO_ATTACK or strength(data, u, "attack") < 1:
            problems.append(f"{name} may not attack: no attack strength (6.15)")
        if c.get("front") == "2BF" and turn <= 2:
            problems.append(
                f"{name} is of the 2nd Belorussian Front: no attacks on turns 1-2 (6.18)"
            )
        if u.get("disrupted"):
            problems.append(f"{name} is disrupted and may not attack (6.67)")
        if u.get("advanced"):
            problems.append(f"{name} advanced after combat this phase and may not attack (6.73)")
    return problems


def defenders(units: Iterable[Unit], target: str, attacker_side: str) -> list[Unit]:
    """Every enemy unit in the target hex: a stack is attacked as one (6.21)."""
    return [u for u in units if u["hex"] == target and u["side"] != attacker_side]


# --- odds (6.3, 6.4, 6.9) -----------------------------------------------------------------


@dataclass(frozen=True)
class Combat:
    crt: str  # the table read (6.3: the attacker's; 9.3 is the caller's `crt`)
    attack: int
    defence: int
    shift: int
    odds: tb.Odds
    terrain: str


def crossing(board: Mapping[str, Any], a: str, b: str) -> str | None:
    """The 6.44 class of the hexside an attacker in `a` attacks `b` across."""
    found = md.river(board, a, b)
    return found if found in tb.RIVER_CLASSES else None


def combat_odds(
    board: Mapping[str, Any],
    tables: dict[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    attackers: Sequence[Unit],
    target: str,
    *,
    turn: int = 1,
    crt: str | None = None,
    u_bahn: bool = False,
) -> Combat:
    """Totals, the defender's rounding, and every shift of an attack on `target`: terrain
    (6.42), fortification for a German defender (6.43), rivers (6.44-6.45), one Artillery
    Support marker on turn 1 (6.46, 6.92-6.94). Units that retreated into the hex this
    phase add no defence (6.65)."""
    side = attackers[0]["side"]
    table = crt or side
    attack = sum(strength(data, u, "attack") for u in attackers)
    defence = sum(
        strength(data, u, "defence")
        for u in defenders(units, target, side)
        if not u.get("retreated_into")
    )
    artillery = side == SOVIET and turn == 1 and any(u.get("artillery") for u in attackers)
    where = md.terrain(board, target)
    shift = tb.combat_shift(
        tables,
        table,
        where,
        crossings=[crossing(board, u["hex"], target) for u in attackers],
        fortified=md.fortified(board, target),
        defender=other(side),
        artillery=artillery,
        u_bahn=u_bahn,
    )
    found = tb.odds(tables, attack, max(defence, 1), shift, attacker=side)
    return Combat(table, attack, defence, shift, found, where)


# --- losses (6.52-6.59) -------------------------------------------------------------------


@dataclass(frozen=True)
class Losses:
    attacker_steps: int = 0  # steps the attacker's side must lose (after Support Points)
    defender_steps: int = 0
    support_spent: int = 0  # 6.59
    attacker_each: bool = False  # 6.54: one step from every attacking unit
    defender_each: bool = False
    defenders_destroyed: bool = False  # 6.55


def losses(
    result: tb.Result,
    attacker_side: str,
    attackers: Sequence[Unit],
    support_points: int = 0,
    defenders: Sequence[Unit] = (),
) -> Losses:
    """The step losses of a result, with Soviet Support Points spent first (6.59).
    `defenders` matters only for an "E X" against Soviet defenders (a German attack on the
    Soviet CRT, 9.3)."""
    a, d = result.attacker_steps, result.defender_steps
    soviet_is_attacker = attacker_side == SOVIET
    if result.exchange:
        # 6.59: while points remain, the Soviet share of an "E X" is paid in points
        soviets = len(attackers) if soviet_is_attacker else len(defenders)
        paid = min(support_points, soviets) > 0
        return Losses(
            support_spent=min(support_points, soviets),
            attacker_each=not (paid and soviet_is_attacker),
            defender_each=not (paid and not soviet_is_attacker),
        )
    owed = a if soviet_is_attacker else d
    spent = min(support_points, owed)
    if soviet_is_attacker:
        a -= spent
    else:
        d -= spent
    return Losses(a, d, spent, defenders_destroyed=result.destroyed)


@dataclass
class Applied:
    units: list[dict[str, Any]]  # the units left, steps updated
    destroyed: list[str] = field(default_factory=list)
    applied: int = 0  # steps actually lost (6.75)
    ignored: int = 0  # owed steps left when the side is gone (6.52)


def take_steps(
    data: Mapping[str, Any],
    units: Sequence[Unit],
    side_ids: Sequence[str],
    order: Sequence[str],
    count: int,
) -> Applied:
    """Take `count` steps from the units `side_ids`, the owner naming one unit per step in
    `order` (6.52: a two-step unit flips, then dies). Steps owed once all are gone are
    ignored (6.52). ValueError (one line) for a bad order."""
    left = {u["id"]: steps_left(data, u) for u in units if u["id"] in side_ids}
    applied = 0
    for ident in order[:count]:
        if ident not in left:
            raise ValueError(f"{ident} did not take part in this combat (6.52)")
        if left[ident] == 0:
            raise ValueError(f"{ident} is already destroyed")
        left[ident] -= 1
        applied += 1
    alive = sum(left.values())
    if applied < count and alive:
        raise ValueError(f"{count} steps must be lost, {applied} were named (6.52)")
    out, destroyed = [], []
    for u in units:
        if u["id"] in left:
            if left[u["id"]] == 0:
                destroyed.append(u["id"])
                continue
            out.append({**u, "steps": left[u["id"]]})
        else:
            out.append(dict(u))
    return Applied(out, destroyed, applied, count - applied)


# --- retreat (6.53, 6.57, 6.6) ------------------------------------------------------------


def retreat_chooser(attacker_side: str, retreating_side: str) -> str:
    """The side that picks the retreat hexes: the owner (6.61), but after a German attack
    the opposing player (6.61): the Soviet player retreats the German attackers (6.57), the
    German player the Soviet defenders (6.58: "carried out by the German player")."""
    return other(retreating_side) if attacker_side == GERMAN else retreating_side


def sides_by_hex(units: Iterable[Unit]) -> dict[str, set[str]]:
    """hex -> the sides with a unit there: what retreat_problems asks of each hex entered."""
    out: dict[str, set[str]] = {}
    for u in units:
        out.setdefault(u["hex"], set()).add(u["side"])
    return out


def retreat_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    path: Sequence[str],
    *,
    enemy_hex: str,
    attacking: bool,
    sides_at: Mapping[str, Collection[str]] | None = None,
    zone: Mapping[str, str] | None = None,
) -> list[str]:
    """Why `unit` may not retreat along `path` (the hexes entered). `enemy_hex` is the
    defender's hex when the attacker retreats (6.64), ignored otherwise. `sides_at` (hex ->
    the sides of `units` there, `sides_by_hex`) and `zone` (the enemy ZOC of the unit's
    side, `zoc._zone`) may be given by a caller that asks for many paths of one position,
    instead of being found again for each path."""
    name, start = unit["id"], unit["hex"]
    side = unit["side"]
    problems: list[str] = []
    if zoc.counter(data, unit).get("movement", 1) == 0 and "movement" not in unit:
        return [f"{name} has no movement allowance and ignores the retreat (6.69)"]
    if sides_at is None:
        sides_at = sides_by_hex(units)
    start_kind = md.kind(board, start)
    disrupted = bool(unit.get("disrupted"))
    before = start
    last = len(path) - 1
    for i, h in enumerate(path):
        if not md.adjacent(board, before, h):
            problems.append(f"{name}: {h} is not adjacent to {before}")
            break
        if zone is None:
            zone = zoc._zone(board, data, units, side)
        problems.extend(
            step_problems(
                board, name, side, start_kind, disrupted, before, h, sides_at.get(h, ()), zone
            )
        )
        if i < last and start_kind == md.OPERATIONAL and md.kind(board, h) == md.TRANSITION:
            problems.append(f"{name} stops its retreat in Transition Hex {h} (6.68)")
        before = h
    stops_early = bool(path) and md.kind(board, path[-1]) == md.TRANSITION
    stops_early = stops_early and start_kind == md.OPERATIONAL
    if not problems and not stops_early:
        if len(path) != RETREAT_HEXES:
            problems.append(f"{name} must retreat {RETREAT_HEXES} hexes (6.61, 6.62)")
        elif path[-1] == start or md.adjacent(board, start, path[-1]):
            problems.append(f"{name} must end its retreat two hexes from {start} (6.64)")
    if not problems and attacking and path and md.adjacent(board, path[-1], enemy_hex):
        problems.append(f"{name} is an attacker: it may not end beside hex {enemy_hex} (6.64)")
    return problems


def step_problems(
    board: Mapping[str, Any],
    name: str,
    side: str,
    start_kind: str,
    disrupted: bool,
    before: str,
    h: str,
    here: Collection[str],
    zone: Mapping[str, str],
) -> list[str]:
    """The problems of one step of a retreat from `before` into the adjacent hex `h`,
    whatever its place in the path (retreat_problems adds 6.68's stop in a Transition Hex,
    which depends on it): `start_kind` is the kind of the retreat's first hex, `here` the
    sides with a unit in `h`, `zone` the enemy ZOC of `side`. A path with a step that has
    problems has problems (retreat_options skips every path through it)."""
    problems = []
    where = md.kind(board, h)
    if md.full_lake(board, before, h):
        problems.append(f"{name} may not retreat across a full sea/lake hexside (6.63)")
    if side == SOVIET and md.front_boundary(board, before, h):
        problems.append(f"{name} may not retreat across a Front boundary hexside (6.19)")
    if start_kind == md.CITY_HEX and where != md.CITY_HEX:
        problems.append(f"{name} began in a Berlin City hex: only City hexes (6.68)")
    if start_kind == md.OPERATIONAL and where == md.CITY_HEX:
        problems.append(f"{name} may not retreat from an Operational hex into Berlin (6.68)")
    if start_kind == md.TRANSITION and where == md.CITY_HEX and side == SOVIET:
        problems.append(f"{name} is Soviet: no retreat from a Transition Hex into Berlin (6.68)")
    if any(there != side for there in here):
        problems.append(f"{name} may not retreat into {h}: an enemy unit is there (6.63)")
    # zoc.zoc_at(..., "retreat") with the position's ZOC map looked up once
    strength_here = zone.get(h)
    if strength_here == zoc.WEAK and side in here:
        strength_here = None  # 4.28: a friendly unit cancels a weak ZOC for a retreat
    if strength_here == zoc.STRONG:
        problems.append(f"{name} may not retreat into {h}: enemy strong ZOC (6.63)")
    elif strength_here == zoc.WEAK and disrupted:
        problems.append(f"{name} is disrupted: no retreat into enemy weak ZOC at {h} (6.62)")
    return problems


def retreat_zoc_steps(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    side: str,
    path: Sequence[str],
) -> int:
    """Steps lost retreating along `path` (6.63): one per hex of enemy weak ZOC with no
    friendly unit in it; a stack retreating together pays once per hex. Not part of the
    result's numbers."""
    return sum(1 for h in path if zoc.zoc_at(board, data, units, side, h, "retreat") == zoc.WEAK)


def short_retreat_steps(hexes_retreated: int, stopped_in_transition: bool = False) -> int:
    """6.53/6.57: each hex of the two the stack could not retreat costs it one step (the
    unit chosen by the opposing player); none when it stopped in a Transition Hex (6.68)."""
    if stopped_in_transition:
        return 0
    return max(RETREAT_HEXES - hexes_retreated, 0)


def retreat_end_problems(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit]
) -> list[str]:
    """6.63: stacks may exceed the limit during a retreat but not at its end: the stacking
    problems of every hex once all the retreating units have arrived."""
    return [
        p for stack in zoc.by_hex(units).values() for p in zoc.stack_problems(board, data, stack)
    ]


def after_retreat(unit: Unit, path: Sequence[str]) -> dict[str, Any]:
    """The unit at the end of its retreat: moved and disrupted (6.62, 6.66; a second
    disruption changes nothing)."""
    return {**unit, "hex": path[-1] if path else unit["hex"], "disrupted": True}


# --- advance after combat (6.7) -----------------------------------------------------------


def advance_limit(
    data: Mapping[str, Any],
    unit: Unit,
    result: tb.Result,
    *,
    attacking: bool,
    steps_applied: int = 0,
    by_steps: bool = False,
) -> int:
    """How many hexes `unit` (of the side that won the hex) may advance (6.53-6.55, 6.57,
    6.71, 6.74, 6.75). `by_steps`: the defenders were destroyed by a numerical result, of
    which `steps_applied` steps were actually taken."""
    c = zoc.counter(data, unit)
    if unit.get("disrupted") or c.get("class") == "static" or c.get("movement", 0) == 0:
        return 0  # 6.67, 6.71
    if result.exchange:
        return 0  # 6.54
    vehicle = c.get("class") == "vehicle"
    if not attacking:
        return 1 if result.attacker_retreat else 0  # 6.74
    if result.destroyed:
        return 3 if vehicle else 1  # 6.55, 6.75
    if by_steps:
        return max(result.defender_steps - steps_applied, 1) if vehicle else 1  # 6.75
    if result.defender_retreat:
        return 2 if vehicle else 1  # 6.53, 6.74
    return 0


def advance_problems(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    path: Sequence[str],
    *,
    vacated: str,
    limit: int,
    retreat_path: Sequence[str] | None = None,
    siege: bool = False,
) -> list[str]:
    """Why `unit` may not advance along `path` (6.72-6.78). `retreat_path`: the hexes the
    enemy retreated through (6.72, 6.74); None after a "D E" (6.75: any direction)."""
    name, side = unit["id"], unit["side"]
    vehicle = zoc.counter(data, unit).get("class") == "vehicle"
    problems: list[str] = []
    if len(path) > limit:
        hexes = "hex" if limit == 1 else "hexes"
        return [f"{name} may advance at most {limit} {hexes} (6.74, 6.75)"]
    if path and path[0] != vacated:
        return [f"{name}: the first hex of an advance is the vacated hex {vacated} (6.74)"]
    before = unit["hex"]
    for i, h in enumerate(path):
        if not md.adjacent(board, before, h) or md.full_lake(board, before, h):
            problems.append(f"{name} may not advance from {before} to {h}")
            break
        where, features = md.kind(board, h), md.hexside(board, before, h)
        if i > 0 and retreat_path is not None and h not in retreat_path:
            problems.append(
                f"{name} may advance beyond {vacated} only along the retreat path (6.74)"
            )
        if i > 0 and "major-river" in features and "road" not in features:
            problems.append(
                f"{name} may not cross a major river without a road after its first hex (6.77)"
            )
        if side == SOVIET and md.front_boundary(board, before, h):
            problems.append(f"{name} may not advance across a Front boundary hexside (6.19)")
        if not siege and where == md.CITY_HEX:
            problems.append(
                f"{name} may not advance into a Berlin City hex in a combat phase (6.78)"
            )
        if siege and where != md.CITY_HEX:
            problems.append(
                f"{name} may advance only into City hexes in a Siege Combat Phase (6.78)"
            )
        if any(u["hex"] == h and u["side"] != side for u in units):
            problems.append(f"{name} may not advance into {h}: an enemy unit is there")
        stop = "major-river" in features  # 6.77
        if side == SOVIET and vehicle:
            terrain = "fortification" if md.fortified(board, h) else md.terrain(board, h)
            stop = stop or terrain in STOP_TERRAIN or where == md.TRANSITION  # 6.76
            if i > 0 and zoc.zoc_at(board, data, units, side, h) is not None:
                stop = True  # 6.76
        if stop and i < len(path) - 1:
            problems.append(f"{name} must stop its advance at {h} (6.76, 6.77)")
            break
        before = h
    return problems
