"""Götterdämmerung: stacking (rulebook 4.1) and Zones of Control (4.2) as pure functions.

No engine yet: every function takes the loaded map (`map_data.load_map`), the counters data
(`counters.load_counters`) and a plain list of the units on the maps, each a dict with at
least `id`, `side` ("soviet"/"german") and `hex` (a map_data id: "op:2419", "city:1320"; a
unit in a Transition Hex has "op:2420" and is on both maps, 4.15). Optional keys:
`disrupted` (6.66), `volkssturm` (a face-down Volkssturm marker, 8.4; its id need not be in
the counters data). `map` and `steps` are carried by callers and not needed here.

Readings where the rulebook is terse (also in docs/gotterdammerung.md):
- 4.12: a Soviet support unit may share its hex only with a single Soviet Battle group: no
  corps, no second support unit, no other unit. While a corps is being split (5.7) the two
  Battle groups and the support unit share a Transition Hex during the phase: 4.16 allows it.
- 4.13: the first Volkssturm unit in a hex counts 0, every further one 1 (4.13 names "the
  second and third" because a City hex holds no more; a fourth on the Operational Map counts
  1 as well).
- 4.14: a Soviet (or Polish, 2.3) Rifle Corps counts 2 on a Berlin City Hex, 4 elsewhere.
- 4.17: "nationality" is the counter's (german, soviet, polish, american): Soviet and Polish
  units may not end a phase in one hex.
- 4.18: the opposing player's removal must leave a legal stack and remove nothing more than
  needed: putting back any one removed unit would break the stack again.
- 4.28: "the presence of a friendly unit" means a friendly unit in the hex itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import zoc_index
from pbem.games.gotterdammerung.counters import STACK_LIMIT, ZERO_STACK_GERMAN

Unit = Mapping[str, Any]
PURPOSES = ("movement", "retreat", "supply")  # 4.28
STRONG, WEAK = "strong", "weak"


# --- unit facts ---------------------------------------------------------------------------


def counter(data: Mapping[str, Any], unit: Unit) -> Mapping[str, Any]:
    """The counters-data entry of a unit on the map (a Volkssturm marker has its own)."""
    if unit.get("volkssturm"):
        return {
            "nationality": "german",
            "size": "battalion",
            "branch": "infantry",
            "stacking": 0,
            "zoc": WEAK,  # 4.22: German units other than those of 4.21
            "place": {},
        }
    found = data["units"].get(unit["id"])
    if found is None:
        raise ValueError(f"unit {unit['id']} is not in the counters data")
    return found


def is_support(data: Mapping[str, Any], unit: Unit) -> bool:
    """A Soviet support unit of 5.7 (heavy tank, heavy SP gun, heavy artillery; 4.12)."""
    return counter(data, unit).get("place", {}).get("pool") == "support"


def is_rifle_corps(data: Mapping[str, Any], unit: Unit) -> bool:
    """4.14: Soviet forces (Polish included, 2.3) Rifle Corps."""
    c = counter(data, unit)
    return unit["side"] == "soviet" and c["size"] == "corps" and c["branch"] == "rifle"


def zoc_strength(data: Mapping[str, Any], unit: Unit) -> str | None:
    """ "strong", "weak" or None: 4.21-4.22 from the counter, none while disrupted (4.27)."""
    if unit.get("disrupted"):
        return None
    kind = counter(data, unit)["zoc"]
    return None if kind == "none" else str(kind)


# --- 4.1 stacking -------------------------------------------------------------------------


def stack_limit(board: Mapping[str, Any], h: str) -> int:
    """4.0: 4 points on the Operational Map and Transition Hexes (4.15), 2 on the City Map."""
    return STACK_LIMIT[md.CITY if md.kind(board, h) == md.CITY_HEX else md.OP]


def stacking_value(board: Mapping[str, Any], data: Mapping[str, Any], unit: Unit) -> int:
    """The points a unit counts where it stands, before 4.13's Volkssturm count."""
    c = counter(data, unit)
    if unit.get("volkssturm"):
        return 0  # counted per hex by stack_points (4.13)
    if unit["side"] == "german" and c["branch"] in ZERO_STACK_GERMAN:
        return 0  # 4.11
    if is_rifle_corps(data, unit) and md.kind(board, unit["hex"]) == md.CITY_HEX:
        return 2  # 4.14
    return int(c["stacking"])


def _stacking_value(board: Mapping[str, Any], unit: Unit, c: Mapping[str, Any]) -> int:
    """`stacking_value` with the unit's counter already looked up."""
    if unit.get("volkssturm"):
        return 0
    if unit["side"] == "german" and c["branch"] in ZERO_STACK_GERMAN:
        return 0
    rifle = unit["side"] == "soviet" and c["size"] == "corps" and c["branch"] == "rifle"
    if rifle and md.kind(board, unit["hex"]) == md.CITY_HEX:
        return 2
    return int(c["stacking"])


def stack_points(board: Mapping[str, Any], data: Mapping[str, Any], stack: Sequence[Unit]) -> int:
    """The stacking points of one side's units in one hex (4.11-4.14)."""
    points = sum(stacking_value(board, data, u) for u in stack)
    volkssturm = sum(1 for u in stack if u.get("volkssturm"))
    return points + max(0, volkssturm - 1)  # 4.13: the first free, each further one 1


def stack_problems(
    board: Mapping[str, Any], data: Mapping[str, Any], stack: Sequence[Unit]
) -> list[str]:
    """What is wrong with the units in one hex at the end of a phase (4.1), one line each;
    [] for a legal stack. `stack` is every unit in the hex (the stacks of both sides never
    share a hex)."""
    if not stack:
        return []
    h = stack[0]["hex"]
    where = h.split(":")[1]
    if len(stack) == 1:  # (most hexes: one unit can break only the limit of 4.0)
        points = _stacking_value(board, stack[0], counter(data, stack[0]))
        limit = stack_limit(board, h)
        if points > limit:
            return [f"hex {where}: {points} stacking points, the limit is {limit} (4.0, 4.1)"]
        return []
    problems = []
    # each unit's counter looked up once (the bots ask this for every hex they consider)
    faces = [(u, counter(data, u)) for u in stack]
    nations = sorted({str(c["nationality"]) for _, c in faces})
    if len(nations) > 1:
        problems.append(f"hex {where}: {' and '.join(nations)} units may not share a hex (4.17)")
    points = sum(_stacking_value(board, u, c) for u, c in faces)
    points += max(0, sum(1 for u in stack if u.get("volkssturm")) - 1)  # as stack_points
    limit = stack_limit(board, h)
    if points > limit:
        problems.append(f"hex {where}: {points} stacking points, the limit is {limit} (4.0, 4.1)")
    support = [u for u, c in faces if c.get("place", {}).get("pool") == "support"]
    if support:
        others = [u for u in stack if not is_support(data, u)]
        if len(support) > 1:
            problems.append(f"hex {where}: only one support unit may occupy a hex (4.12)")
        if any(is_rifle_corps(data, u) for u in others):
            problems.append(f"hex {where}: a Rifle Corps may not stack with a support unit (4.14)")
        elif any(counter(data, u)["size"] == "corps" for u in others):
            problems.append(f"hex {where}: a support unit may not stack with a corps (4.12)")
        elif len(others) > 1 or any(counter(data, u)["size"] != "battle-group" for u in others):
            problems.append(
                f"hex {where}: a support unit may stack with one Battle group only (4.12)"
            )
    return problems


def by_hex(units: Iterable[Unit]) -> dict[str, list[Unit]]:
    out: dict[str, list[Unit]] = {}
    for u in units:
        out.setdefault(u["hex"], []).append(u)
    return out


def end_of_phase_problems(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Iterable[Unit]
) -> dict[str, list[str]]:
    """Every hex breaking 4.1 at the end of a phase (4.16-4.18): hex -> problems. Kept up to
    date from the position asked before (`zoc_index`: {} while no hex breaks 4.1), else
    `end_of_phase_strict`."""
    listed = units if type(units) is list else list(units)
    return zoc_index.overstacked(
        board,
        md._sides(board),
        data,
        _zoc_kinds(data),
        listed,
        zoc_reach,
        stack_problems,
        lambda: end_of_phase_strict(board, data, listed),
    )


def end_of_phase_strict(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Iterable[Unit]
) -> dict[str, list[str]]:
    """`end_of_phase_problems` found from every unit.

    Each hex's stacking points are added up from per-unit facts looked up once per counters
    data (`_stack_facts`): a stack found legal that way is what stack_problems would pass,
    exactly (the same sums as `_stacking_value` and 4.13's Volkssturm count, one nationality).
    Any other stack (over the limit, mixed nationalities, a support unit among several, a unit
    not in the data, a hex not on the map) goes through stack_problems itself, which words
    the problems (or raises its error)."""
    out = {}
    facts = _stack_facts(data)
    alone = _alone(data)
    limits = _limits(board)
    # by_hex, without a list for each hex of one unit (most hexes): the first unit of each
    # hex in the order the hexes first appear, and the stacks of several units
    first: dict[str, Unit] = {}
    several: dict[str, list[Unit]] = {}
    for u in units:
        h = u["hex"]
        if h not in first:
            first[h] = u
        elif h in several:
            several[h].append(u)
        else:
            several[h] = [first[h], u]
    for h, u in first.items():
        found = limits.get(h)
        stack = several.get(h) if several else None
        if stack is None:
            # (most hexes: a unit alone breaks at most 4.0's limit, and within its most
            # points, `_alone`, it cannot; a Volkssturm unit alone counts 0)
            most = 0 if u.get("volkssturm") else alone.get(u["id"])
            if found is not None and most is not None and most <= found[0]:
                continue
            stack = [u]
        elif found is not None:
            limit, city = found
            points = 0
            volkssturm = 0
            nation = None
            for u in stack:
                if u.get("volkssturm"):
                    volkssturm += 1
                    if nation is None:
                        nation = "german"
                    elif nation != "german":
                        break
                    continue
                fact = facts.get(u["id"])
                if fact is None or fact[4]:
                    break  # not in the data (stack_problems says so), or 4.12's support unit
                zero_german, rifle, stacking, nationality, _support = fact
                side = u["side"]
                if side == "german" and zero_german:
                    pass  # 4.11
                elif rifle and city and side == "soviet":
                    points += 2  # 4.14
                else:
                    points += stacking
                if nation is None:
                    nation = nationality
                elif nation != nationality:
                    break  # 4.17
            else:
                if points + max(0, volkssturm - 1) <= limit:
                    continue
        problems = stack_problems(board, data, stack)
        if problems:
            out[h] = problems
    return out


def _stack_facts(data: Mapping[str, Any]) -> dict[str, tuple[bool, bool, int, str, bool]]:
    """unit id -> what `_stacking_value` and stack_problems read of its counter: (a German
    branch that counts 0, 4.11; a Rifle Corps, 4.14; its stacking points; its nationality;
    a support unit, 4.12), per counters data object (never changed by a game; the memo
    holds it and checks its identity)."""
    cached = _FACTS.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    facts = {
        uid: (
            c["branch"] in ZERO_STACK_GERMAN,
            c["size"] == "corps" and c["branch"] == "rifle",
            int(c["stacking"]),
            str(c["nationality"]),
            c.get("place", {}).get("pool") == "support",
        )
        for uid, c in data["units"].items()
    }
    if len(_FACTS) >= 8:
        _FACTS.clear()
    _FACTS[id(data)] = (data, facts)
    return facts


_FACTS: dict[int, tuple[Mapping[str, Any], dict[str, tuple[bool, bool, int, str, bool]]]] = {}


def _alone(data: Mapping[str, Any]) -> dict[str, int]:
    """unit id -> the most stacking points its unit counts alone on any hex: its counter's,
    or 4.14's 2 for a Rifle Corps if more (`_stacking_value` gives 0, 2 or the counter's),
    per counters data object (never changed by a game; the memo checks its identity)."""
    cached = _ALONE.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    alone = {
        uid: max(stacking, 2) if rifle else stacking
        for uid, (_zero, rifle, stacking, _nation, _support) in _stack_facts(data).items()
    }
    if len(_ALONE) >= 8:
        _ALONE.clear()
    _ALONE[id(data)] = (data, alone)
    return alone


_ALONE: dict[int, tuple[Mapping[str, Any], dict[str, int]]] = {}


def _limits(board: Mapping[str, Any]) -> dict[str, tuple[int, bool]]:
    """hex -> (`stack_limit`, a Berlin City Hex?), per loaded map (valid while map_data's
    derived lookups are: `map_data.changed` makes a new token)."""
    token = md._sides(board)
    cached = _LIMITS.get(id(board))
    if cached is not None and cached[0] is token:
        return cached[1]
    limits = {h: (stack_limit(board, h), md.kind(board, h) == md.CITY_HEX) for h in board["hexes"]}
    if len(_LIMITS) >= 8:
        _LIMITS.clear()
    _LIMITS[id(board)] = (token, limits)
    return limits


_LIMITS: dict[int, tuple[object, dict[str, tuple[int, bool]]]] = {}


def may_enter(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], unit: Unit, h: str
) -> bool:
    """Would the hex stay legal with `unit` in it? For advances after combat, which may not
    exceed the limit even for a moment (4.16)."""
    moved = dict(unit, hex=h)
    stack = [u for u in units if u["hex"] == h and u["id"] != unit["id"]] + [moved]
    return not stack_problems(board, data, stack)


def removal_problem(
    board: Mapping[str, Any], data: Mapping[str, Any], stack: Sequence[Unit], removed: Iterable[str]
) -> str | None:
    """4.18: the opposing player removes excess units of an illegal stack. None if the ids
    `removed` are a valid choice: the rest is legal and no removed unit was needed."""
    gone = set(removed)
    ids = {u["id"] for u in stack}
    if not gone <= ids:
        return f"not in the hex: {', '.join(sorted(gone - ids))}"
    rest = [u for u in stack if u["id"] not in gone]
    problems = stack_problems(board, data, rest)
    if problems:
        return problems[0]
    for u in stack:
        if u["id"] in gone and not stack_problems(board, data, [*rest, u]):
            return f"{u['id']} is not excess: the stack is legal with it (4.18)"
    return None


def rifle_corps_spacing_problem(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], unit: Unit
) -> str | None:
    """4.14: a Rifle Corps moving through Berlin City Hexes may not finish its move adjacent
    to another Soviet Rifle Corps."""
    if not is_rifle_corps(data, unit) or md.kind(board, unit["hex"]) != md.CITY_HEX:
        return None
    near = set(md.neighbours(board, unit["hex"]))
    for other in units:
        if other["id"] != unit["id"] and other["hex"] in near and is_rifle_corps(data, other):
            return f"{unit['id']} may not end its move next to Rifle Corps {other['id']} (4.14)"
    return None


# --- 4.2 zones of control -----------------------------------------------------------------


_REACH: dict[int, tuple[object, dict[str, list[str]]]] = {}


def zoc_reach(board: Mapping[str, Any], h: str) -> list[str]:
    """`_zoc_reach`, remembered per loaded map (valid while map_data's own derived lookups
    are: `map_data.changed` forgets both)."""
    table = _reach_table(board, md._sides(board))
    found = table.get(h)
    if found is None:
        found = table[h] = _zoc_reach(board, h)
    return found


def _reach_table(board: Mapping[str, Any], token: object) -> dict[str, list[str]]:
    """hex -> `_zoc_reach`, as far as found, for the map whose derived lookups are `token`."""
    cached = _REACH.get(id(board))
    if cached is None or cached[0] is not token:
        if len(_REACH) >= 8:
            _REACH.clear()
        cached = (token, {})
        _REACH[id(board)] = cached
    return cached[1]


def _zoc_reach(board: Mapping[str, Any], h: str) -> list[str]:
    """The hexes into which the ZOC of a unit in `h` extends (4.21, 4.25, 4.26): from an
    Operational hex, its Operational and Transition neighbours; from a Transition Hex, those
    and its Berlin City Hex neighbours; from a Berlin City Hex, its Berlin City Hex
    neighbours only. Never across a full sea/lake hexside, nor the City Map's unbridged
    Spree (4.26)."""
    where = md.kind(board, h)
    out = []
    for n in md.neighbours(board, h):
        if where == md.CITY_HEX and md.kind(board, n) != md.CITY_HEX:
            continue  # 4.25: not into Transition Hexes
        if md.full_lake(board, h, n):
            continue
        out.append(n)
    return out


def enemy_zoc(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Iterable[Unit], side: str
) -> dict[str, str]:
    """The hexes in the ZOC of `side`'s enemies (ZOC never affects friendly units, 4.21):
    hex -> "strong" or "weak", strong where both reach. A new dict each call (callers may
    change it); the map itself is remembered by the enemy units' hexes and strengths, since
    the rules ask it thousands of times a game for few distinct positions."""
    return dict(zone_strict(board, data, units, side))  # (strict: its order of hexes)


def _zone(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Iterable[Unit], side: str
) -> Mapping[str, str]:
    """`enemy_zoc`'s map itself, for callers that only read it (membership: the order of
    its hexes is not `zone_strict`'s), kept up to date from the position asked before
    (`zoc_index`), else `zone_strict`'s."""
    listed = units if type(units) is list else list(units)
    kinds = _zoc_kinds(data)
    found = zoc_index.zone(
        board, md._sides(board), data, kinds, listed, side, False, zoc_reach, stack_problems
    )
    if found is not None:
        return found
    return zone_strict(board, data, listed, side)


def zone_strict(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Iterable[Unit], side: str
) -> Mapping[str, str]:
    """`_zone` found from every unit (remembered by the enemies' hexes and strengths)."""
    kinds = _zoc_kinds(data)
    # (one comprehension: the rules ask this several times an entry; a unit with no ZOC
    # has "" in `kinds`, one not in the counters data raises counter()'s error)
    sources = [
        (u["hex"], kind)
        for u in units
        if u["side"] != side
        and not u.get("disrupted")  # 4.27
        and (kind := WEAK if u.get("volkssturm") else kinds[u["id"]])
    ]
    return _zone_of(board, side, sources)


def zones_of_both(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], sides: Sequence[str]
) -> dict[str, Mapping[str, str]]:
    """`{side: _zone(board, data, units, side) for side in sides}` for two sides, with the
    units read in one pass, not one a side (each phase start asks both; each side's sources
    are those _zone lists, in the same order, so the same remembered maps; a unit not in the
    counters data raises counter()'s error unless disrupted or friendly to both sides, as
    _zone's does): tests/games/gotterdammerung/test_gd_plain_copy.py. Read only. Kept up
    to date from the position asked before (`zoc_index`), else `zones_strict`."""
    if len(sides) == 2 and sides[0] != sides[1]:
        listed = units if type(units) is list else list(units)
        kinds = _zoc_kinds(data)
        token = md._sides(board)
        out: dict[str, Mapping[str, str]] = {}
        for side in sides:
            found = zoc_index.zone(
                board, token, data, kinds, listed, side, False, zoc_reach, stack_problems
            )
            if found is None:
                return zones_strict(board, data, listed, sides)
            out[side] = found
        return out
    return zones_strict(board, data, units, sides)


def zones_strict(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], sides: Sequence[str]
) -> dict[str, Mapping[str, str]]:
    """`zones_of_both` found from every unit."""
    if len(sides) != 2:
        return {side: _zone(board, data, units, side) for side in sides}
    first, second = sides
    kinds = _zoc_kinds(data)
    of_first: list[tuple[str, str]] = []  # (the sources of the enemies of `first`)
    of_second: list[tuple[str, str]] = []
    for u in units:
        side = u["side"]
        if side == first:
            if first != second and not u.get("disrupted"):  # 4.27
                kind = WEAK if u.get("volkssturm") else kinds[u["id"]]
                if kind:
                    of_second.append((u["hex"], kind))
        elif side == second:
            if not u.get("disrupted"):
                kind = WEAK if u.get("volkssturm") else kinds[u["id"]]
                if kind:
                    of_first.append((u["hex"], kind))
        elif not u.get("disrupted"):  # (a third side: the enemy of both)
            kind = WEAK if u.get("volkssturm") else kinds[u["id"]]
            if kind:
                of_first.append((u["hex"], kind))
                of_second.append((u["hex"], kind))
    return {
        first: _zone_of(board, first, of_first),
        second: _zone_of(board, second, of_second),
    }


def zone_of_all(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Iterable[Unit], side: str
) -> Mapping[str, str]:
    """`_zone` of those of `units` on the maps (hex neither None nor "ngp": a state's whole
    units mapping, without first listing those on the maps): the same sources, so the same
    remembered map. Read only. Kept up to date from the position asked before
    (`zoc_index`), else `zone_of_all_strict`."""
    listed = units if type(units) is list else list(units)
    kinds = _zoc_kinds(data)
    found = zoc_index.zone(
        board, md._sides(board), data, kinds, listed, side, True, zoc_reach, stack_problems
    )
    if found is not None:
        return found
    return zone_of_all_strict(board, data, listed, side)


def zone_of_all_strict(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Iterable[Unit], side: str
) -> Mapping[str, str]:
    """`zone_of_all` found from every unit."""
    kinds = _zoc_kinds(data)
    sources = [
        (h, kind)
        for u in units
        if u["side"] != side
        and (h := u["hex"]) is not None
        and h != "ngp"
        and not u.get("disrupted")  # 4.27
        and (kind := WEAK if u.get("volkssturm") else kinds[u["id"]])
    ]
    return _zone_of(board, side, sources)


def _zone_of(
    board: Mapping[str, Any], side: str, sources: list[tuple[str, str]]
) -> Mapping[str, str]:
    """The map of the enemy ZOC of `side` from its enemies' (hex, strength), remembered."""
    token = md._sides(board)
    key = (id(board), side, tuple(sources))
    cached = _ZONES.get(key)
    if cached is not None and cached[0] is token:
        return cached[1]
    reach = _reach_table(board, token)
    reached = []
    strong = []
    plain = True  # (every strength is "strong" or "weak", as counters.py derives them)
    for h, strength in sources:
        found = reach.get(h)
        if found is None:
            found = reach[h] = _zoc_reach(board, h)
        reached.append(found)
        if strength == STRONG:
            strong.append(found)
        elif strength != WEAK:
            plain = False
    if plain:
        # every hex reached, in the order first reached, "strong" where a strong ZOC
        # reaches and "weak" elsewhere (what the loop below gives; two C calls instead)
        out: dict[str, str] = dict.fromkeys(chain.from_iterable(reached), WEAK)
        out.update(dict.fromkeys(chain.from_iterable(strong), STRONG))
    else:  # (a counters file's own ZOC kinds: each hex in turn)
        out = {}
        for (_, strength), found in zip(sources, reached, strict=True):
            for n in found:
                if out.get(n) != STRONG:
                    out[n] = strength
    if len(_ZONES) >= _ZONES_KEPT:
        _ZONES.clear()
    _ZONES[key] = (token, out)
    return out


class _Kinds(dict[str, str]):
    """unit id -> its counter's ZOC, "strong" or "weak", "" for none; an id not in the
    counters data raises counter()'s error."""

    def __missing__(self, uid: str) -> str:
        raise ValueError(f"unit {uid} is not in the counters data")


def _zoc_kinds(data: Mapping[str, Any]) -> _Kinds:
    """`_Kinds` per counters data object (a game never changes its counters data; the memo
    holds it and checks its identity)."""
    cached = _KINDS.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    kinds = _Kinds(
        {uid: "" if c["zoc"] == "none" else str(c["zoc"]) for uid, c in data["units"].items()}
    )
    if len(_KINDS) >= 8:
        _KINDS.clear()
    _KINDS[id(data)] = (data, kinds)
    return kinds


_KINDS: dict[int, tuple[Mapping[str, Any], _Kinds]] = {}
# enemy_zoc's results by (map, side, enemy (hex, strength) in order), with the map's derived
# lookups they were built with (`map_data.changed` makes a new one, so they are not reused).
_ZONES: dict[tuple[int, str, tuple[tuple[str, str], ...]], tuple[object, dict[str, str]]] = {}
_ZONES_KEPT = 64


def zoc_at(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    side: str,
    h: str,
    purpose: str = "movement",
) -> str | None:
    """The enemy ZOC on hex `h` for a unit of `side`: "strong", "weak" or None. For retreat
    and supply a friendly unit in the hex cancels a weak ZOC; for movement it does not, and
    nothing cancels a strong one (4.28)."""
    if purpose not in PURPOSES:
        raise ValueError(f"unknown purpose {purpose!r} (expected {', '.join(PURPOSES)})")
    strength = _zone(board, data, units, side).get(h)
    friendly_here = any(u["side"] == side and u["hex"] == h for u in units)
    if strength == WEAK and purpose != "movement" and friendly_here:
        return None
    return strength


def in_enemy_zoc(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], unit: Unit
) -> str | None:
    """Is the unit in enemy ZOC (4.24), and how strong is it?"""
    return zoc_at(board, data, units, unit["side"], unit["hex"])


def must_stop(strength: str | None) -> bool:
    """4.23: a moving unit stops on entering a strong enemy ZOC; a weak one costs extra to
    leave (5.22) but does not stop it."""
    return strength == STRONG


def disrupted_entry_problem(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    started_in_zoc: bool,
    h: str,
) -> str | None:
    """4.27: a disrupted unit not in enemy ZOC at the start of its move may not enter one."""
    if not unit.get("disrupted") or started_in_zoc:
        return None
    if zoc_at(board, data, units, unit["side"], h) is None:
        return None
    return f"{unit['id']} is disrupted and began outside enemy ZOC: it may not enter one (4.27)"
