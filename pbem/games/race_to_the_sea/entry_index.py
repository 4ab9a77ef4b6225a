"""Where reinforcements may enter (7.1.B, 15.5-15.6), derived once per position.

A placement asks for the entry hexes of every unit of its batch, twice (the kit's check of
the entry's commitments, `recovery.hit_on_placement`, then the rules), and a bot asks them
for each of its choices: rescanning the control of the map, the enemy counters and the
railroads from Mons on every call was a third of a verification. An `EntryIndex` holds
everything the answer is derived from, copied out of the state, and memoises each unit's
answer; `entry_index(state, side)` finds the one of a position.

What does not depend on the batch being placed (the control of each hex, the friendly
hexes, the answer for each location but "with the first units" and GRL's used slots) is
kept apart (`PositionFacts`), by the position without its batch, and shared by the
indexes of a placement's successive positions, which differ only in their batch.

Nothing here is kept in the state, so nothing changes what the state serialises to or
what a view shows. The memo is keyed by the whole content the answer depends on (the
control record, the flooded hexes, the enemy counters' hexes, the batch's units and
used Cambrai/Valenciennes slots, the side) and by the identity of the static map and unit
tables (never changed once loaded, shared by every copy of a state): a state changed in
place makes another key, so a stale index is never found, only a fresh one built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea import units as ru

Key = tuple[Any, ...]


class PositionFacts:
    """What the entry hexes of one position for one side derive from the position alone,
    whatever the batch being placed: each hex's control, the friendly hexes, and the
    answer for each location of the tables but "with the first units" (which reads the
    batch) and GRL (which reads the used Cambrai and Valenciennes slots: kept by them).
    Shared by the indexes of a placement's positions that differ only in their batch (a
    placement takes a unit out of it; the map, the control and the enemy stay): made from
    copies of the position (immutable), it never reads a state again."""

    def __init__(
        self,
        board: Mapping[str, Any],
        side: str,
        control: Mapping[str, str],
        flooded: tuple[int, ...],
        enemy: frozenset[int],
    ) -> None:
        self.board, self.side = board, side
        self.control, self.flooded, self.enemy = dict(control), flooded, enemy
        self._controller: dict[int, str | None] = {}
        self._friendly: frozenset[int] | None = None
        self.by_location: dict[Any, tuple[int, ...]] = {}
        self.grl: dict[tuple[int, ...], list[int]] = {}

    def control_of(self, hex_: int) -> str | None:
        found = self._controller.get(hex_, _UNKNOWN)
        if found is _UNKNOWN:
            found = self._controller[hex_] = mv.control_of(
                self.board, self.control, hex_, self.flooded
            )
        return found  # type: ignore[return-value]

    def friendly_hexes(self) -> frozenset[int]:
        if self._friendly is None:
            hexes = rm.map_hexes(self.board)  # (`rm.grid(board).hexes`)
            self._friendly = frozenset(h for h in hexes if self.control_of(h) == self.side)
        return self._friendly


class EntryIndex:
    """The entry hexes of one position for one side. Built from copies of its inputs: it
    never reads the state it came from again (that state may change after)."""

    def __init__(
        self,
        board: Mapping[str, Any],
        units: Mapping[str, Any],
        side: str,
        control: Mapping[str, str],
        flooded: tuple[int, ...],
        enemy: frozenset[int],
        batch_units: tuple[str, ...],
        grl_used: tuple[int, ...],
        facts: PositionFacts | None = None,
    ) -> None:
        if facts is None:
            facts = PositionFacts(board, side, control, flooded, enemy)
        self.facts = facts
        self.board, self.units, self.side = board, units, side
        self.control, self.flooded, self.enemy = facts.control, flooded, enemy
        self.batch_units, self.grl_used = batch_units, grl_used
        self._entry: dict[str, tuple[int, ...]] = {}

    # --- control (14.1 B, 15.3) --------------------------------------------------------

    def control_of(self, hex_: int) -> str | None:
        return self.facts.control_of(hex_)

    def friendly(self, hex_: int) -> bool:
        return self.facts.control_of(hex_) == self.side

    def friendly_hexes(self) -> frozenset[int]:
        return self.facts.friendly_hexes()

    # --- the hexes the tables list (15.5-15.6) ------------------------------------------

    def named_hexes(self, location: str) -> list[int]:
        if location == "GRL":
            return self.grl_hexes()
        return list(static_hexes(self.board, location))

    def grl_hexes(self) -> list[int]:
        """15.6.2.1: Mons for any number; Cambrai and Valenciennes one unit each, only if
        not NML and joined to a friendly-controlled Mons by friendly-controlled railroad
        hexes."""
        found = self.facts.grl.get(self.grl_used)
        if found is None:
            found = self.facts.grl[self.grl_used] = self._grl_scan()
        return list(found)

    def _grl_scan(self) -> list[int]:
        board = self.board
        mons = rm.hex_of(board, "Mons")
        out = [mons]
        if not self.friendly(mons):
            return out  # enemy-controlled: 7.1.B's fallback decides
        around = rm.neighbour_table(board)  # (`grid(board).neighbours`)
        nml = {n for h in self.enemy for n in around[h]}  # mv.nml_hexes
        for name in ("Cambrai", "Valenciennes"):
            h = rm.hex_of(board, name)
            if h in nml or h in self.grl_used or not self.friendly(h):
                continue
            if rm.rail_connected(board, h, mons, self.friendly):
                out.append(h)
        return out

    # --- 7.1.B --------------------------------------------------------------------------

    def entry_hexes(self, unit_id: str) -> tuple[int, ...]:
        found = self._entry.get(unit_id)
        if found is None:
            found = self._entry[unit_id] = self._entry_of(unit_id)
        return found

    def _entry_of(self, unit_id: str) -> tuple[int, ...]:
        """`_entry_scan`, kept with the position's facts by the unit's location (and the
        used GRL slots) when the batch does not matter to it."""
        location = self.units[unit_id]["entry"]["location"]
        if location == ru.WITH_FIRST_UNITS:
            return tuple(self._entry_scan(unit_id))
        key = (location, self.grl_used) if location == "GRL" else location
        found = self.facts.by_location.get(key)
        if found is None:
            found = self.facts.by_location[key] = tuple(self._entry_scan(unit_id))
        return found

    def _entry_scan(self, unit_id: str) -> list[int]:
        location = self.units[unit_id]["entry"]["location"]
        if location == ru.WITH_FIRST_UNITS:
            found: set[int] = set()
            for other_id in self.batch_units:
                if self.units[other_id]["entry"]["location"] != ru.WITH_FIRST_UNITS:
                    found.update(self.entry_hexes(other_id))
            return sorted(found)
        listed = self.named_hexes(location)
        enemy = self.enemy
        good = [h for h in listed if self.friendly(h) and h not in enemy]
        if good or location == "GRL" and len(listed) > 1:
            return good
        candidates = sorted(self.friendly_hexes() - enemy)
        if not candidates or not listed:
            return []
        away = distances_to(self.board, tuple(listed))
        best = min(away[h] for h in candidates)
        return [h for h in candidates if away[h] == best]

    def listed_hexes(self, unit_id: str) -> list[int]:
        location = self.units[unit_id]["entry"]["location"]
        if location == ru.WITH_FIRST_UNITS:
            return list(self.entry_hexes(unit_id))
        return self.named_hexes(location)


_UNKNOWN = object()


def static_hexes(board: Mapping[str, Any], location: str) -> tuple[int, ...]:
    """The hexes a table's `location` names, other than GRL (which depends on control): the
    Allied start area, near St Quentin, Antwerp, or a named place; by map (by identity)."""
    key = (id(board), location)
    found = _STATIC.get(key)
    if found is None or found[0] is not board:
        if len(_STATIC) >= 256:
            _STATIC.clear()
        found = _STATIC[key] = (board, tuple(_static_hexes(board, location)))
    return found[1]


def _static_hexes(board: Mapping[str, Any], location: str) -> list[int]:
    if location == ru.START_AREA:
        return list(rm.allied_start_area(board))
    if location == ru.NEAR_ST_QUENTIN:  # (`grid.within(St Quentin, 2)`, from the table)
        away = _each(board, (rm.hex_of(board, "St Quentin"),))
        return sorted(
            h for h, d in away.items() if d <= 2 and rm.terrain(board, h) not in rm.PROHIBITED
        )
    if location == "A":
        return list(board["antwerp"])
    return [rm.hex_of(board, location)]


_STATIC: dict[tuple[int, str], tuple[Mapping[str, Any], tuple[int, ...]]] = {}


def distances_to(board: Mapping[str, Any], targets: tuple[int, ...]) -> Mapping[int, int]:
    """Every hex's distance to the closest of `targets` (7.1.B's closest friendly hex), by
    map (by identity: never changed once loaded) and targets, which the tables fix."""
    key = (id(board), targets)
    found = _DISTANCES.get(key)
    if found is None or found[0] is not board:
        if len(_DISTANCES) >= 64:
            _DISTANCES.clear()
        # (a few targets: a distance each is quicker than the search)
        away = _spread(board, targets) if len(targets) > 4 else _each(board, targets)
        found = _DISTANCES[key] = (board, away)
    return found[1]


# The six steps of the axial grid: `Grid.distance` is the length of a path of them.
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def _spread(board: Mapping[str, Any], targets: tuple[int, ...]) -> dict[int, int]:
    """`{h: min(g.distance(h, t) for t in targets) for h in g.hexes}`, by one breadth-first
    search from every target at once over the axial lattice instead of a distance for each
    hex and target (a start area lists a hundred hexes: 15 ms a verification). Exact:
    `distance` is the cube distance of an unbroken grid, the length of a shortest path of
    `_STEPS`, and some shortest path between two hexes moves monotonically in q and in r,
    so it stays within the q and r ranges of the hexes and targets, which the search
    covers whole (map holes and prohibited hexes included, as `distance` ignores them)."""
    where = rm.axial_table(board)
    frontier = list(dict.fromkeys(where.get(t) or rm.grid(board).axial(t) for t in targets))
    cells = [*where.values(), *frontier]
    q_lo, q_hi = min(q for q, _ in cells), max(q for q, _ in cells)
    r_lo, r_hi = min(r for _, r in cells), max(r for _, r in cells)
    seen = dict.fromkeys(frontier, 0)
    steps = 0
    while frontier:
        steps += 1
        ahead = []
        for q, r in frontier:
            for dq, dr in _STEPS:
                cell = (q + dq, r + dr)
                if q_lo <= cell[0] <= q_hi and r_lo <= cell[1] <= r_hi and cell not in seen:
                    seen[cell] = steps
                    ahead.append(cell)
        frontier = ahead
    return {h: seen[cell] for h, cell in where.items()}


def _each(board: Mapping[str, Any], targets: tuple[int, ...]) -> dict[int, int]:
    """`strict_distances`, each hex's `Grid.distance` to each target worked out from a
    table of the map's axial coordinates (no call per pair: 7.1.B asks it of a fresh
    map in every verification)."""
    if not targets:
        return strict_distances(board, targets)  # (refused there: no target)
    where = rm.axial_table(board)
    ends = [where.get(t) or rm.grid(board).axial(t) for t in targets]
    out = {}
    for h, (q, r) in where.items():
        best = None
        for qt, rt in ends:
            dq, dr = q - qt, r - rt
            away = (abs(dq) + abs(dr) + abs(dq + dr)) // 2  # Grid.distance
            if best is None or away < best:
                best = away
        out[h] = best
    return out  # type: ignore[return-value]


def strict_distances(board: Mapping[str, Any], targets: tuple[int, ...]) -> dict[int, int]:
    """What `distances_to` must equal: each hex's distance to each target (tests)."""
    g = rm.grid(board)
    return {h: min(g.distance(h, t) for t in targets) for h in g.hexes}


_DISTANCES: dict[tuple[int, tuple[int, ...]], tuple[Mapping[str, Any], dict[int, int]]] = {}


def position_key(state: Mapping[str, Any], side: str) -> Key:
    """Everything an `EntryIndex` for `side` is derived from, by content (the static map
    and unit tables by identity)."""
    foe = mv.other(side)
    batch = state["batch"]
    return (
        id(state["board"]),
        id(state["units_data"]),
        side,
        tuple(state["control"].items()),
        tuple(state.get("flooded", ())),
        frozenset(c["hex"] for c in state["counters"].values() if c["side"] == foe),
        tuple(batch["units"]) if batch else (),
        tuple(batch["grl_used"]) if batch else (),
    )


def entry_index(state: Mapping[str, Any], side: str) -> EntryIndex:
    """The position's index for `side`: the memoised one for the same content, else a new
    one."""
    key = position_key(state, side)
    found = _MEMO.get(key)
    if (
        found is not None
        and found.board is state["board"]
        and found.units is state["units_data"]["units"]
    ):
        return found
    if len(_MEMO) >= _KEPT:
        _MEMO.clear()
    facts = _FACTS.get(key[:6])
    if facts is None or facts.board is not state["board"]:
        if len(_FACTS) >= _KEPT:
            _FACTS.clear()
        facts = _FACTS[key[:6]] = PositionFacts(state["board"], side, dict(key[3]), key[4], key[5])
    found = _MEMO[key] = build(state, side, key, facts)
    return found


def build(
    state: Mapping[str, Any],
    side: str,
    key: Key | None = None,
    facts: PositionFacts | None = None,
) -> EntryIndex:
    """A fresh index of the position (no memo, and facts of its own unless given, made of
    the same position): what `entry_index` must always equal."""
    key = position_key(state, side) if key is None else key
    return EntryIndex(
        state["board"],
        state["units_data"]["units"],
        side,
        dict(key[3]),
        key[4],
        key[5],
        key[6],
        key[7],
        facts,
    )


# The last positions' indexes (a placement asks the same position a few times, the two
# sides alternate), and the facts of the last positions by everything but the batch (the
# first six parts of `position_key`: a placement changes only the batch); cleared when
# full, which costs only a rebuild.
_MEMO: dict[Key, EntryIndex] = {}
_FACTS: dict[Key, PositionFacts] = {}
_KEPT = 32
