"""Götterdämmerung: supply (rulebook 8.1, 8.2) as pure functions.

Every function takes the loaded map (`map_data.load_map`), the counters data
(`counters.load_counters`), the plain list of units on the maps (as in zoc.py: `id`, `side`,
`hex`, optional `disrupted`/`volkssturm`) and, where the rules need it, the set of hexes
bearing a Soviet Occupied marker (11.12). Only the Soviet player determines supply (8.2).

Readings where the rulebook is terse:
- 8.12 length: "no more than 8 hexes" counts the hexes entered after the unit's own hex.
- 8.14 "hexes or hexsides that the unit is prohibited from entering": full sea/lake and the
  City Map's unbridged Spree (5.28, 4.26), the unused hexes 2321/2322 (2.1) and, for Soviet
  units, Front boundary hexsides (5.27).
- 8.15 with 4.28: a friendly unit in a hex cancels a weak enemy ZOC for the trace, never a
  strong one (zoc.zoc_at with purpose "supply"); the unit's own hex is not checked (only
  8.13's depot rail line names its own hex).
- 8.12/8.13: the turn-1 limit to hexes ending in 01 applies to every use of the eastern edge
  as a source (depots arrive from turn 3, 9.5, so it never bites for 8.13).
- 8.13: the railroad line runs along the printed railroad chains of the Operational Map
  (consecutive hexes of a chain); it must reach an eastern-edge hex.
- 8.12: a unit with no front (a support unit, 5.78) may use the depot of any front.
- 8.17: from the Soviet Occupied Transition Hex the 8-hex line may end at a supplied depot of
  either front or at a supply source (8.17 says "in accordance with 8.12").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import zoc

Unit = Mapping[str, Any]
SUPPLY_RANGE = 8  # 8.12
SUPPLIED, DEFENCE_ONLY, OUT = "supplied", "defence-only", "out"  # 8.11, 8.18
DEPOT = "depot"


def halved(value: int) -> int:
    """8.16: an out-of-supply unit's strengths and movement points, fractions rounded up."""
    return (int(value) + 1) // 2


def source_hexes(board: Mapping[str, Any], turn: int) -> list[str]:
    """8.12: the eastern edge; on Game Turn 1 only the hexes whose last two digits are 01."""
    east = md.edge_hexes(board, "east")
    if turn == 1:
        return [h for h in east if h.endswith("01")]
    return east


def may_step(board: Mapping[str, Any], side: str, a: str, b: str) -> bool:
    """May a supply line pass from hex `a` into the adjacent hex `b` (8.14)?"""
    if md.kind(board, b) == md.UNUSED:
        return False
    if md.full_lake(board, a, b):
        return False
    return not (side == "soviet" and md.front_boundary(board, a, b) is not None)


def blocker(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    side: str,
    *,
    strong_cancelled: bool = False,
) -> Callable[[str], bool]:
    """A test "does hex h stop a supply line of `side`" (8.15, 4.28): an enemy unit in it, or
    an enemy ZOC not cancelled by a friendly unit there. `strong_cancelled` is 11.15's
    option that a Soviet strong ZOC does not extend into German-occupied hexes."""
    return stopped_hexes(board, data, units, side, strong_cancelled=strong_cancelled).__contains__


def stopped_hexes(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    side: str,
    *,
    strong_cancelled: bool = False,
) -> frozenset[str]:
    """The hexes `blocker` stops a supply line of `side` in. Remembered for the position
    asked last, by what they are made of: the enemy ZOC map (`zoc._zone`'s, never changed
    once given out: the same map object is the same zone) and every unit's hex and side
    (the bot asks this of one position for every hex it tries, 8.43)."""
    zone = zoc._zone(board, data, units, side)
    placed = list(map(_HEX_SIDE, units))
    key = (id(board), id(data), side, strong_cancelled)
    kept = _STOPPED.get(key)
    if kept is not None and kept[0] is zone and kept[1] == placed:
        return kept[2]
    found = stopped_strict(zone, units, side, strong_cancelled=strong_cancelled)
    if len(_STOPPED) >= 8:
        _STOPPED.clear()
    _STOPPED[key] = (zone, placed, found)  # (holding the zone: its id names no other map)
    return found


_STOPPED: dict[tuple[int, int, str, bool], tuple[Mapping[str, str], list[Any], frozenset[str]]] = {}
_HEX_SIDE = itemgetter("hex", "side")


def stopped_strict(
    zone: Mapping[str, str], units: Sequence[Unit], side: str, *, strong_cancelled: bool = False
) -> frozenset[str]:
    """`stopped_hexes` of the enemy ZOC map `zone`, found from every unit."""
    enemy_here = {u["hex"] for u in units if u["side"] != side}
    friendly_here = {u["hex"] for u in units if u["side"] == side}
    # the blocked hexes are a finite set, found once: a search asks for thousands of hexes.
    # Every hex of the zone, but where a friendly unit cancels a weak ZOC (4.28), or a
    # strong one under 11.15 (and no enemy unit is: a hex of both sides stops anyway)
    stopped = set(zone)
    stopped.update(enemy_here)
    for h in friendly_here.intersection(zone):
        if (strong_cancelled or zone[h] == zoc.WEAK) and h not in enemy_here:
            stopped.discard(h)
    return frozenset(stopped)


def trace(
    board: Mapping[str, Any],
    side: str,
    start: str,
    targets: Collection[str],
    blocked: Callable[[str], bool],
    *,
    limit: int | None = None,
    on: str | None = md.OP,
) -> str | None:
    """The nearest target hex reachable from `start` by a supply line of at most `limit`
    hexes (None: unlimited) on map `on` (8.14, 8.15), or None. The start hex is not tested."""
    if start in targets:
        return start
    steps = _steps(board, side, on)
    if start not in steps:
        md.neighbours(board, start, on)  # the error for a hex not on the maps
    seen = {start: 0}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        if limit is not None and seen[h] >= limit:
            continue
        for n in steps[h]:
            if n in seen or blocked(n):
                continue
            if n in targets:
                return n
            seen[n] = seen[h] + 1
            todo.append(n)
    return None


# Per loaded map (valid while map_data's derived lookups are: `map_data.changed` makes new
# ones): the hexes a supply line of a side may step into from each hex (8.14, in
# `md.neighbours` order), and the railroad links. A trace asks them for every hex it visits.
_PER_MAP: dict[tuple[int, Hashable], tuple[object, Any]] = {}


def _per_map(board: Mapping[str, Any], what: Hashable, build: Callable[[], Any]) -> Any:
    token = md._sides(board)
    cached = _PER_MAP.get((id(board), what))
    if cached is None or cached[0] is not token:
        if len(_PER_MAP) >= 64:  # (a map has about 25: its steps, distances, searches)
            _PER_MAP.clear()
        cached = (token, build())
        _PER_MAP[(id(board), what)] = cached
    return cached[1]


def _steps(board: Mapping[str, Any], side: str, on: str | None) -> dict[str, list[str]]:
    side = "soviet" if side == "soviet" else "german"  # (only the Soviet side has fronts, 5.27)
    return _per_map(board, f"steps {side} {on}", lambda: _build_steps(board, side, on))


def _build_steps(board: Mapping[str, Any], side: str, on: str | None) -> dict[str, list[str]]:
    """For each hex, `[n for n in md.neighbours(board, h, on) if may_step(board, side, h, n)]`
    with may_step's map lookups taken once (every game builds these: a verification's first
    supply trace waits for them). Each table is made from a wider one: the Soviet one from
    the German one on the same map (less the Front boundary hexsides, 5.27), a map's from
    the one of both maps (`_closed`: what every table shares); the equivalence with the
    plain definition: tests/games/gotterdammerung/test_gd_speed.py."""
    hexes = board["hexes"]
    if on is not None and on not in md.MAPS:
        md.neighbours(board, next(iter(hexes)), on)  # (its error for an unknown map)
    if side == "soviet":
        # the ordered pairs across a Front boundary hexside (as md.front_boundary finds them)
        fronts: dict[str, set[str]] = {}
        for key in md._fronts(board):
            a, _, b = key.partition("|")
            if md.side_key(a, b) == key:
                fronts.setdefault(a, set()).add(b)
                fronts.setdefault(b, set()).add(a)
        out = dict(_steps(board, "german", on))  # (the lists are shared: never changed)
        for h, barred in fronts.items():
            if h in out:
                out[h] = [n for n in out[h] if n not in barred]
        return out
    unused, closed, op_hexes = _closed(board)
    if on is None:
        return {
            h: [n for n in info["neighbours"] if n not in unused and n not in closed.get(h, ())]
            for h, info in hexes.items()
        }
    # one map's (md.neighbours(board, h, on), inline: on the Operational Map the pairs of two
    # Operational-map hexes, on the City Map every other pair), from both maps'
    both = _steps(board, "german", None)
    if on == md.OP:
        return {
            h: [n for n in near if n in op_hexes] if h in op_hexes else []
            for h, near in both.items()
        }
    return {
        h: [n for n in near if n not in op_hexes] if h in op_hexes else near
        for h, near in both.items()
    }


def _closed(
    board: Mapping[str, Any],
) -> tuple[frozenset[str], dict[str, frozenset[str]], frozenset[str]]:
    """Per map: the hexes no supply line enters (unused, 2.1); for each hex, the neighbours
    no line reaches across a sea/lake or unbridged Spree hexside (8.14: `md.full_lake`); the
    hexes whose map is the Operational Map."""

    def build() -> tuple[frozenset[str], dict[str, frozenset[str]], frozenset[str]]:
        hexes = board["hexes"]
        unused = frozenset(h for h, info in hexes.items() if info["kind"] == md.UNUSED)
        across: dict[str, set[str]] = {}
        for (a, b), features in md._sides(board).items():
            if features and ("sea-lake" in features or "spree" in features):
                across.setdefault(a, set()).add(b)
        closed = {h: frozenset(ns) for h, ns in across.items()}
        op_hexes = frozenset(h for h, info in hexes.items() if info["map"] == md.OP)
        return unused, closed, op_hexes

    found: tuple[frozenset[str], dict[str, frozenset[str]], frozenset[str]] = _per_map(
        board, "closed", build
    )
    return found


def _back_steps(board: Mapping[str, Any], side: str, on: str | None) -> dict[str, list[str]]:
    """`_steps` turned round: for each hex, the hexes from which a line may step into it."""

    def build() -> dict[str, list[str]]:
        back: dict[str, list[str]] = {}
        found = back.get
        for h, nexts in _steps(board, side, on).items():
            for n in nexts:
                into = found(n)
                if into is None:
                    back[n] = [h]  # (setdefault's order and lists, without a list a step)
                else:
                    into.append(h)
        return back

    return _per_map(board, f"back {side} {on}", build)


class _Lines:
    """Supply lines of a whole position at once: for each set of target hexes, one
    breadth-first search backwards from them over the hexes a line may pass (8.14, 8.15)
    gives every hex's distance to the nearest; a unit's line exists if one of the hexes it
    may step into is close enough. The same answers as `trace(...) is not None` for each
    unit (tests/games/gotterdammerung/test_gd_speed.py), without a search per unit."""

    def __init__(
        self,
        board: Mapping[str, Any],
        side: str,
        blocked: Callable[[str], bool],
        on: str | None = md.OP,
    ) -> None:
        self.board = board
        self.on = on
        self.steps = _steps(board, side, on)
        self.back = _back_steps(board, side, on)
        self.blocked = blocked
        self.known: dict[tuple[frozenset[str], int | None], set[str]] = {}

    def reaches(self, start: str, targets: Collection[str], limit: int | None) -> bool:
        """`trace(board, side, start, targets, blocked, limit=limit) is not None`."""
        if start in targets:
            return True
        if start not in self.steps:
            md.neighbours(self.board, start, self.on)  # the error for a hex not on the maps
        # the first hex entered must be at most limit - 1 steps from a target (it and every
        # later hex are not blocked: the search only passes such hexes)
        return not self.near(frozenset(targets), limit).isdisjoint(self.steps[start])

    def near(self, targets: frozenset[str], limit: int | None) -> set[str]:
        """The hexes a line reaches `targets` from in at most limit - 1 steps (any number if
        limit is None), passing no blocked hex and starting in none: the hexes of
        `_distances(targets, limit)` within that distance, found by set operations a level
        at a time (one search per set of targets and limit)."""
        key = (targets, limit)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self._near(targets, limit)
        return found

    def _near(self, targets: frozenset[str], limit: int | None) -> set[str]:
        most = None if limit is None else limit - 1
        if most is not None and most < 0:
            return set()
        back, blocked = self.back, self.blocked
        level = [t for t in sorted(targets) if t in back and not blocked(t)]
        done = set(level)
        # the hexes not to enter: those reached, and the blocked ones when `blocked` is a
        # set's own test (stopped_hexes: one set lookup a hex, not a call and a lookup)
        stopped = getattr(blocked, "__self__", None)
        if isinstance(stopped, frozenset) and blocked == stopped.__contains__:
            barred = done | stopped
            d = 0
            while level and (most is None or d < most):
                d += 1
                following = []
                for x in level:
                    for y in back[x]:
                        if y not in barred:
                            barred.add(y)
                            following.append(y)
                done.update(following)
                level = following
            return done
        return set(self._distances(targets, limit))

    def _distances(self, targets: frozenset[str], limit: int | None) -> dict[str, int]:
        back, blocked = self.back, self.blocked  # (locals: the loop runs for every hex)
        dist: dict[str, int] = {}
        level: list[str] = []
        for t in sorted(targets):
            if t in back and not blocked(t):
                dist[t] = 0
                level.append(t)
        # the hexes not to enter: those reached, and the blocked ones when `blocked` is a
        # set's own test (stopped_hexes: one set lookup a hex, not a call and a lookup)
        stopped = getattr(blocked, "__self__", None)
        if isinstance(stopped, frozenset) and blocked == stopped.__contains__:
            done = set(stopped)
            done.update(dist)
            test: Callable[[str], bool] | None = None
        else:
            done = set(dist)
            test = blocked
        # breadth first, a level at a time (the order a queue would give)
        d = 0
        while level and (limit is None or d < limit - 1):
            d += 1
            following = []
            for x in level:
                for y in back[x]:
                    if y not in done:
                        if test is not None and test(y):
                            continue
                        done.add(y)
                        dist[y] = d
                        following.append(y)
            level = following
        return dist


def _connected(
    steps: Mapping[str, list[str]], start: str, ends: Collection[str], stopped: Collection[str]
) -> bool:
    """`trace(...) is not None` with no limit: is a target reachable from `start` through
    hexes not stopped (the start not tested)? Depth first: only whether, not how far. Any
    order of each hex's steps gives the same answer; with a `_toward` table of the ends the
    search heads for them (the nearest step is taken first) and stops after a few dozen
    hexes where the map's order wandered over a hundred."""
    seen = {start}
    todo = [start]
    while todo:
        for n in steps[todo.pop()]:
            if n in seen or n in stopped:
                continue
            if n in ends:
                return True
            seen.add(n)
            todo.append(n)
    return False


def _toward(board: Mapping[str, Any], side: str, on: str | None, ends: frozenset[str]) -> _Toward:
    """`_steps(board, side, on)` with each hex's steps in the order a search for `ends`
    should push them (`_Toward`). One per map, side and set of ends (the whole edges and
    8.43's ends: a few a game)."""
    side = "soviet" if side == "soviet" else "german"
    found: _Toward = _per_map(
        board,
        ("toward", side, on, ends),
        lambda: _Toward(_steps(board, side, on), _distances_to(board, side, on, ends)),
    )
    return found


def _distances_to(
    board: Mapping[str, Any], side: str, on: str | None, ends: frozenset[str]
) -> dict[str, int]:
    """Each hex's number of steps (`_steps`) to the nearest of `ends`, every hex open (none
    for a hex that reaches none). A whole edge's are made with the loaded data (derived.py:
    a search over the whole map), other ends' once per map."""
    edge = _edge_names(board).get(ends)
    what = f"distances {side} {on} {edge}" if edge is not None else ("distances", side, on, ends)
    found: dict[str, int] = _per_map(board, what, lambda: _build_distances(board, side, on, ends))
    return found


def _edge_names(board: Mapping[str, Any]) -> dict[frozenset[str], str]:
    """Each map edge's hexes (as a set) -> the edge's name."""
    found: dict[frozenset[str], str] = _per_map(
        board, "edge names", lambda: {frozenset(board["edges"][e]): e for e in md.EDGES}
    )
    return found


def _build_distances(
    board: Mapping[str, Any], side: str, on: str | None, ends: Collection[str]
) -> dict[str, int]:
    steps = _steps(board, side, on)
    back = _back_steps(board, side, on)
    dist = {t: 0 for t in sorted(ends) if t in steps}
    level = list(dist)
    d = 0
    while level:
        d += 1
        following = []
        for x in level:
            for y in back.get(x, ()):
                if y not in dist:
                    dist[y] = d
                    following.append(y)
        level = following
    return dist


class _Toward(dict[str, list[str]]):
    """hex -> the hexes a supply line may step into from it (`steps`), the one farthest
    from the ends first (`dist`, `_distances_to`), so that a depth-first search (which takes
    the last one pushed) tries the nearest next; ties in the map's order. Filled as the
    search asks for each hex (a search passes a few dozen)."""

    def __init__(self, steps: Mapping[str, list[str]], dist: Mapping[str, int]) -> None:
        super().__init__()
        self.steps = steps
        far = len(steps) + 1  # (a hex from which no end is reached at all: pushed first)
        get = dist.get
        self.distance: Callable[[str], int] = lambda n: get(n, far)

    def __missing__(self, h: str) -> list[str]:
        order = self[h] = sorted(self.steps[h], key=self.distance, reverse=True)
        return order


def reaches_unlimited(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    side: str,
    start: str,
    targets: Collection[str],
    *,
    on: str | None = md.OP,
) -> bool:
    """`trace(board, side, start, targets, blocker(board, data, units, side), on=on) is not
    None`: a supply line of unlimited length. Asked about one start, it is that trace (it
    stops at the first target found); asked again and again about one position (a bot
    trying every City hex for a Volkssturm unit, 8.43), one backward search from the
    targets answers every start. Remembered by the map, side, targets and the content of
    the blocked hexes (what the search depends on): a changed position is a new key."""
    ends = frozenset(targets)
    if start in ends:
        return True
    stopped = stopped_hexes(board, data, units, side)
    token = md._sides(board)
    key = (id(board), side, on, ends, stopped)
    cached = _REACHED.get(key)
    if cached is None or cached[0] is not token or cached[1] < _BUILD_AFTER:
        asked = 1 if cached is None or cached[0] is not token else cached[1] + 1
        if asked < _BUILD_AFTER:
            if len(_REACHED) >= _REACHED_KEPT:
                _REACHED.clear()
            _REACHED[key] = (token, asked, None)
            toward = _toward(board, side, on, ends)
            if start not in toward.steps:
                md.neighbours(board, start, on)  # the error for a hex not on the maps
            return _connected(toward, start, ends, stopped)
        lines = _Lines(board, side, stopped.__contains__, on)
        if start not in lines.steps:
            md.neighbours(board, start, on)  # the error for a hex not on the maps
        cached = (token, asked, (lines.steps, lines.near(ends, None)))
        _REACHED[key] = cached
    found = cached[2]
    assert found is not None
    steps, near = found
    if start not in steps:
        md.neighbours(board, start, on)  # the error for a hex not on the maps
    return not near.isdisjoint(steps[start])


# reaches_unlimited's positions: key -> (map token, times asked, (steps, `near` set) once
# built): built at the _BUILD_AFTER-th question about one position, a trace before.
_REACHED: dict[tuple[Any, ...], tuple[object, int, Any]] = {}
_REACHED_KEPT = 32
_BUILD_AFTER = 12


def _rail_links(board: Mapping[str, Any]) -> dict[str, set[str]]:
    return _per_map(board, "rail", lambda: _build_rail_links(board))


def _build_rail_links(board: Mapping[str, Any]) -> dict[str, set[str]]:
    links: dict[str, set[str]] = {}
    for chain in board["railroads"]:
        hexes = list(chain["hexes"])
        for h in hexes:
            links.setdefault(h, set())
        for a, b in zip(hexes, hexes[1:], strict=False):
            links[a].add(b)
            links[b].add(a)
    return links


def depot_supplied(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    depot: Unit,
    turn: int,
) -> bool:
    """8.13: a depot on a railroad hex joined along the railroad to the eastern edge, with no
    hex of the line (its own included) holding an enemy unit or enemy ZOC, friendly units or
    not."""
    links = _rail_links(board)
    start = depot["hex"]
    if start not in links:
        return False
    zone = zoc._zone(board, data, units, depot["side"])
    enemy_here = {u["hex"] for u in units if u["side"] != depot["side"]}

    def bad(h: str) -> bool:
        return h in enemy_here or h in zone

    if bad(start):
        return False
    sources = set(source_hexes(board, turn))
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        if h in sources:
            return True
        for n in links[h]:
            if n not in seen and not bad(n):
                seen.add(n)
                todo.append(n)
    return False


def _front(data: Mapping[str, Any], unit: Unit) -> str | None:
    value = zoc.counter(data, unit).get("front")
    return None if value is None else str(value)


def _is_depot(data: Mapping[str, Any], unit: Unit) -> bool:
    return zoc.counter(data, unit).get("branch") == DEPOT


def _depot_and_front(
    facts: Mapping[str, tuple[bool, str | None]], data: Mapping[str, Any], unit: Unit
) -> tuple[bool, str | None]:
    """(`_is_depot`, `_front`) of a unit, from `_facts(data)` (a face-down Volkssturm marker
    is neither: zoc.counter's own; a unit not in the data: counter's error)."""
    if unit.get("volkssturm"):
        return False, None
    found = facts.get(unit["id"])
    if found is None:
        return _is_depot(data, unit), _front(data, unit)
    return found


def _facts(data: Mapping[str, Any]) -> dict[str, tuple[bool, str | None]]:
    """unit id -> (a supply depot, its front) of every counter, per counters data object (a
    game never changes its counters data; the memo holds it and checks its identity)."""
    cached = _FACTS.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    facts = {}
    for uid, c in data["units"].items():
        front = c.get("front")
        facts[uid] = (c.get("branch") == DEPOT, None if front is None else str(front))
    if len(_FACTS) >= 8:
        _FACTS.clear()
    _FACTS[id(data)] = (data, facts)
    return facts


_FACTS: dict[int, tuple[Mapping[str, Any], dict[str, tuple[bool, str | None]]]] = {}


def supplied_depots(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], turn: int
) -> list[Unit]:
    facts = _facts(data)
    return [
        u
        for u in units
        if u["side"] == "soviet"
        and _depot_and_front(facts, data, u)[0]
        and depot_supplied(board, data, units, u, turn)
    ]


def unit_supplied(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    unit: Unit,
    turn: int,
    occupied: Iterable[str] = (),
) -> bool:
    """Is a Soviet unit supplied (8.12-8.15, 8.17)? A depot follows 8.13."""
    if _is_depot(data, unit):
        return depot_supplied(board, data, units, unit, turn)
    blocked = blocker(board, data, units, "soviet")
    depots = supplied_depots(board, data, units, turn)
    return _supplied(board, data, unit, turn, occupied, blocked, depots)


def _supplied(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    unit: Unit,
    turn: int,
    occupied: Iterable[str],
    blocked: Callable[[str], bool],
    depots: Sequence[Unit],
    lines: _Lines | None = None,
) -> bool:
    """`unit_supplied` for a unit that is not a depot, with the position's blocker and
    supplied depots (and its `_Lines`, if given) worked out once by the caller."""
    sources = set(source_hexes(board, turn))
    if md.kind(board, unit["hex"]) == md.CITY_HEX:
        # 8.17: unlimited on the City Map to a Soviet Occupied Transition Hex, then 8 hexes to
        # a depot of either front.
        marked = {h for h in occupied if h in board["transition"]}
        ends = sources | {d["hex"] for d in depots}
        for th in sorted(marked):
            if blocked(th):
                continue
            if trace(board, "soviet", unit["hex"], {th}, blocked, on=md.CITY) is None:
                continue
            if trace(board, "soviet", th, ends, blocked, limit=SUPPLY_RANGE) is not None:
                return True
        return False
    front = _front(data, unit)
    ends = sources | {d["hex"] for d in depots if front is None or _front(data, d) == front}
    if lines is not None:
        return lines.reaches(unit["hex"], ends, SUPPLY_RANGE)
    return trace(board, "soviet", unit["hex"], ends, blocked, limit=SUPPLY_RANGE) is not None


def defence_only(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], unit: Unit
) -> bool:
    """8.18: a Soviet unit east of the start line with an unlimited line to the eastern edge
    keeps its full defence strength."""
    if md.kind(board, unit["hex"]) == md.CITY_HEX or not md.east_of_start_line(board, unit["hex"]):
        return False
    blocked = blocker(board, data, units, "soviet")
    return _defence_only(board, unit, blocked)


def _defence_only(
    board: Mapping[str, Any],
    unit: Unit,
    blocked: Callable[[str], bool],
    lines: _Lines | None = None,
) -> bool:
    if md.kind(board, unit["hex"]) == md.CITY_HEX or not md.east_of_start_line(board, unit["hex"]):
        return False
    east = set(md.edge_hexes(board, "east"))
    if lines is not None:
        return lines.reaches(unit["hex"], east, None)
    return trace(board, "soviet", unit["hex"], east, blocked) is not None


def supply_status(
    board: Mapping[str, Any],
    data: Mapping[str, Any],
    units: Sequence[Unit],
    turn: int,
    occupied: Iterable[str] = (),
) -> dict[str, str]:
    """8.11: every Soviet unit's status at the start of the Supply and Reinforcement Phase:
    "supplied", "defence-only" (8.18) or "out". German units have none (8.2)."""
    occupied = set(occupied)
    # one blocker and one set of supplied depots for the whole position (what unit_supplied
    # and defence_only would each work out again for every unit)
    stopped = stopped_hexes(board, data, units, "soviet")
    blocked = stopped.__contains__
    depots = supplied_depots(board, data, units, turn)
    depot_ids = {d["id"] for d in depots}
    lines = _Lines(board, "soviet", blocked)
    # the ends of an Operational unit's 8-hex line (what _supplied works out for each unit):
    # the supply sources, and the depots of its front, found once; and 8.18's eastern edge.
    # A line to either is a line to both together (a search from several ends finds every
    # hex near the nearest), so each is searched from once, the sources only if a unit
    # reaches no depot of its own: not again for each front with the depots.
    sources = frozenset(source_hexes(board, turn))
    depots_of: dict[str | None, tuple[frozenset[str], set[str]]] = {}
    east = frozenset(md.edge_hexes(board, "east"))
    toward_east = _toward(board, "soviet", md.OP, east)
    facts = _facts(data)
    hexes = board["hexes"]
    steps = lines.steps
    from_sources: set[str] | None = None
    out: dict[str, str] = {}
    for u in units:
        if u["side"] != "soviet":
            continue
        depot, front = _depot_and_front(facts, data, u)
        h = u["hex"]
        info = hexes.get(h)
        kind = md.kind(board, h) if info is None else info["kind"]  # (md.kind's error)
        if depot:
            supplied = u["id"] in depot_ids
        elif kind == md.CITY_HEX:
            supplied = _supplied(board, data, u, turn, occupied, blocked, depots, lines)
        else:
            # lines.reaches in line, with the ends of `_supplied`: the depots of its front,
            # then the sources (either is a line to both together), each kept with the
            # hexes `lines.near` them (every hex of the maps is a key of lines.steps: kind's
            # error above is reaches' own)
            mine = depots_of.get(front)
            if mine is None:
                ends = frozenset(
                    d["hex"] for d in depots if front is None or _front(data, d) == front
                )
                mine = depots_of[front] = (ends, lines.near(ends, SUPPLY_RANGE))
            first = steps[h]
            supplied = h in mine[0] or not mine[1].isdisjoint(first) or h in sources
            if not supplied:
                if from_sources is None:
                    from_sources = lines.near(sources, SUPPLY_RANGE)
                supplied = not from_sources.isdisjoint(first)
        if supplied:
            out[u["id"]] = SUPPLIED
        elif kind != md.CITY_HEX and md.east_of_start_line(board, h):
            # 8.18's unlimited line: a search from the unit, which stops at the first edge
            # hex (few units ask, and near that edge: cheaper than one from the whole edge)
            found = h in east or _connected(toward_east, h, east, stopped)
            out[u["id"]] = DEFENCE_ONLY if found else OUT
        else:
            out[u["id"]] = OUT
    return out


def strengths(unit: Mapping[str, Any], status: str | None) -> dict[str, int]:
    """8.16/8.18: attack, defence and movement a unit uses for its supply status (None for a
    German unit, which is never out of supply, 8.2)."""
    a, d, m = int(unit["attack"]), int(unit["defence"]), int(unit["movement"])
    if status == OUT:
        return {"attack": halved(a), "defence": halved(d), "movement": halved(m)}
    if status == DEFENCE_ONLY:
        return {"attack": halved(a), "defence": d, "movement": halved(m)}
    return {"attack": a, "defence": d, "movement": m}
