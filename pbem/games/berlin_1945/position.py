"""Where the units are, who controls each zone, and what follows from it (rulebook 2.1,
5.1-5.5, 7.4.2, 9).

The state keeps only what changes: `at` (side -> zone -> the sorted ids of that side's
units there), `removed` (the sorted ids of removed units), `control` (zone -> side) and the
first-entry `flags`. A unit neither in `at` nor in `removed` is off the map (a
reinforcement or a card's unit not yet in play). What a counter is (side, strength, ...)
is in `tables`. `at` is the index the rules ask most ("the German units in 8"), so it is
the one record of a unit's zone, kept sorted so that every list of units comes out in one
order.

Only this module changes `at` and `removed`, and it never changes one of their lists in
place: it puts a new list instead. A copy of the state can then share the lists (the
engine's `clone` copies the dicts that hold them).
"""

from __future__ import annotations

from itertools import chain

from pbem.core.engine import State
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.rulebook import INNER, MITTE, REICHSTAG, REICHSTAG_APPROACHES, ROLES
from pbem.games.berlin_1945.shared_parts import own_part

# --- the board ----------------------------------------------------------------------------


def ring(state: State, zone: str) -> int:
    return tables.of(state).ring[zone]


def is_area(state: State, zone: str) -> bool:
    return tables.of(state).ring[zone] == 0


def adjacent(state: State, a: str, b: str, side: str) -> bool:
    graph = tables.of(state).graph[side]
    return a in graph and graph.adjacent(a, b)


def limit(state: State, zone: str, side: str) -> int | None:
    """The stacking limit of `side` in `zone` (rulebook 5.3); None: unlimited."""
    if zone == REICHSTAG and side == "german" and state["flags"]["sectors"]:
        return None  # 5.3: unlimited once a Soviet unit entered Sectors I-IV
    return tables.of(state).limit[zone][side]


# --- units ----------------------------------------------------------------------------------


def units_at(state: State, zone: str, side: str | None = None) -> list[str]:
    """The ids of the units of `side` (of both sides: None) in `zone`, sorted."""
    at = state["at"]
    if side is not None:
        return list(at[side].get(zone, ()))
    return sorted([*at["german"].get(zone, ()), *at["soviet"].get(zone, ())])


def on_map(state: State, side: str) -> list[str]:
    return [u for uids in state["at"][side].values() for u in uids]


def zone_of(state: State, uid: str) -> str | None:
    """The zone of a unit on the map, else None."""
    for zone, uids in state["at"][tables.of(state).units[uid].side].items():
        if uid in uids:
            return zone
    return None


def status_of(state: State, uid: str) -> str:
    """ "on" the map, "removed", or "off" the map (not yet in play)."""
    if uid in state["removed"]:
        return "removed"
    return "off" if zone_of(state, uid) is None else "on"


def put(state: State, uid: str, zone: str) -> None:
    """Place a unit that is not on the map in `zone`."""
    side_at = state["at"][tables.of(state).units[uid].side]
    side_at[zone] = sorted([*side_at.get(zone, ()), uid])


def lift(state: State, uid: str, zone: str | None = None) -> str | None:
    """Take a unit off the map (from `zone` if the caller knows it); returns the zone it
    left, None if it was not on the map."""
    side_at = state["at"][tables.of(state).units[uid].side]
    if zone is None:
        zone = next((z for z, uids in side_at.items() if uid in uids), None)
        if zone is None:
            return None
    rest = [u for u in side_at[zone] if u != uid]
    if rest:
        side_at[zone] = rest
    else:
        del side_at[zone]  # no empty zones: one position has one form
    return zone


def move(state: State, uid: str, frm: str, to: str) -> None:
    lift(state, uid, frm)
    put(state, uid, to)


def remove(state: State, uid: str, zone: str | None = None) -> str | None:
    """A unit is removed (combat, a card, rule 7.5); returns the zone it left."""
    zone = lift(state, uid, zone)
    state["removed"] = sorted([*state["removed"], uid])
    return zone


def restore(state: State, uid: str, zone: str) -> None:
    """A removed unit comes back into `zone` (rebuilt, or a cancelled removal)."""
    state["removed"] = [u for u in state["removed"] if u != uid]
    put(state, uid, zone)


# --- strength, disputes, control --------------------------------------------------------------


def strength_of(state: State, uids: list[str]) -> int:
    return sum(map(_strengths(state).__getitem__, uids))


# Tables (by identity, held) -> each unit's strength: the sums above and below add them in C
# (`berlin_strength` is asked after every entry from turn 4 on: a generator over every unit
# of both sides was a tenth of an entry's rules). The same sums, in the same order, of the
# same `Unit.strength` values (tests/games/berlin_1945/test_b45_strength_sums.py).
_STRENGTHS: dict[int, tuple[tables.Tables, dict[str, int]]] = {}


def _strengths(state: State) -> dict[str, int]:
    t = tables.of(state)
    found = _STRENGTHS.get(id(t))
    if found is None or found[0] is not t:
        if len(_STRENGTHS) >= 16:
            _STRENGTHS.clear()
        found = _STRENGTHS[id(t)] = (t, {uid: unit.strength for uid, unit in t.units.items()})
    return found[1]


def disputed(state: State, zone: str) -> bool:
    at = state["at"]
    return zone in at["german"] and zone in at["soviet"]


def disputed_zones(state: State) -> list[str]:
    """Zones holding units of both sides, in map order (rulebook 7.4)."""
    german, soviet = state["at"]["german"], state["at"]["soviet"]
    return [z for z in tables.of(state).zones if z in german and z in soviet]


def berlin_strength(state: State, side: str) -> int:
    """`side`'s combat strength on the whole map (rulebook 9.2)."""
    return sum(map(_strengths(state).__getitem__, chain.from_iterable(state["at"][side].values())))


def update_control(state: State, zone: str) -> None:
    """5.5: a zone is controlled by the side whose units alone are in it; else unchanged."""
    if is_area(state, zone):
        return
    german = zone in state["at"]["german"]
    soviet = zone in state["at"]["soviet"]
    if german and not soviet:
        state["control"][zone] = "german"
    elif soviet and not german:
        state["control"][zone] = "soviet"


def note_soviet_entry(state: State, zone: str) -> None:
    """First Soviet entries: order reductions (5.4), V stacking (5.3), frozen garrison (5.2)."""
    r = ring(state, zone)
    if r == INNER:
        _raise_flag(state, "inner")
    if r == MITTE:
        _raise_flag(state, "mitte")
        if zone in REICHSTAG_APPROACHES:
            _raise_flag(state, "sectors")
        if zone == REICHSTAG:
            _raise_flag(state, "reichstag")


def _raise_flag(state: State, name: str) -> None:
    """Set a first-entry flag (a copy of the flags changed only when it was not set)."""
    if state["flags"][name] is not True:
        own_part(state, "flags")[name] = True


def german_base_orders(state: State) -> int:
    """5.4: 4 German Movement orders, 3 once the Soviets reached the inner ring, 2 Sectors
    I-IV, 1 the Reichstag; the reductions are irreversible (the flags never go back)."""
    flags = state["flags"]
    if flags["reichstag"]:
        return 1
    if flags["sectors"]:
        return 2
    if flags["inner"]:
        return 3
    return 4


def new_position(state: State) -> None:
    """The initial display (rulebook 3): every unit with a start zone on the map, every
    district and sector under German control (5.5), no Soviet entry yet."""
    t = tables.of(state)
    state["at"] = {side: {} for side in ROLES}
    state["removed"] = []
    for uid in sorted(t.units):
        start = t.units[uid].start
        if start:
            state["at"][t.units[uid].side].setdefault(start, []).append(uid)
    state["control"] = {z: "german" for z in t.zones if t.ring[z] != 0}
    state["flags"] = {"inner": False, "sectors": False, "reichstag": False, "mitte": False}
