"""Hex grids: printed XXYY hex ids, neighbours, hexside features, distances, movement paths,
zones of control and supply lines -- the geometry of Race to the Sea 1914 and Götterdämmerung.

Hex ids are the printed numbers as ints (docs: "Hex ids are the printed numbers (XXYY) as
ints; geometry in cube coordinates"): column XX, row YY, so hex "0825" is 825 and
`label(825)` prints "0825" again. Geometry is done in axial/cube coordinates, converted
from the printed column and row by the grid's *offset convention*:

    "odd-q"   columns are straight (flat-topped hexes); odd-numbered columns sit half a hex
              lower than even-numbered ones
    "even-q"  the same with even-numbered columns lower -- Götterdämmerung's grid: its
              rulebook 4.25 example gives all six neighbours of 2419 as 2319, 2320, 2418,
              2420, 2519, 2520 (even column: the rows r and r+1 beside it), and 6.45 makes
              1611 adjacent to 1712 (odd column: rows r-1 and r beside it)
    "odd-r", "even-r"  rows are straight (pointy-topped hexes); odd / even rows sit half a
              hex to the right

The parity is that of the printed number, so a grid numbered from 01 and one numbered from
00 with the same look need different conventions. Race to the Sea 1914's rulebook names
hexes by town and terrain, never by number; its data will number them with whatever the
printed map shows.

Directions are the grid's own, as `center` draws it in its natural orientation: "N" is
toward row 01 in a q grid, "E" toward higher columns in an r grid. A game whose printed map
is turned on the page maps them to the compass itself.

Rules differ from game to game, so what blocks or costs what is passed in as callables:
movement costs per hex entered and per hexside crossed (`cheapest`), where ZOC reaches
(`zone_of_control`), what a supply line may pass through (`SupplyRule`). The docstrings of
those helpers cite what each rulebook says.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from types import MappingProxyType

from pbem.maps.regions import spread
from pbem.record import Record

HexId = int
Side = frozenset[int]  # a hexside: the unordered pair of hexes it separates
# A movement cost: None where the move is prohibited.
Cost = float | int | None

OFFSETS = ("odd-q", "even-q", "odd-r", "even-r")
EDGES = ("first-column", "last-column", "first-row", "last-row")

# Axial direction vectors (dq, dr), and their names in the two natural orientations.
AXIAL_STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
_FLAT_NAMES = ("N", "NE", "SE", "S", "SW", "NW")  # q grids, flat-topped
_POINTY_NAMES = ("NW", "NE", "E", "SE", "SW", "W")  # r grids, pointy-topped
SQRT3 = math.sqrt(3)


def hex_id(col: int, row: int, digits: int = 2) -> HexId:
    """The printed id of column `col`, row `row` (1320 for column 13, row 20)."""
    limit = 10**digits
    if not (0 <= col < limit and 0 <= row < limit):
        raise ValueError(f"column {col}, row {row} do not fit {digits} digits each")
    return col * limit + row


def split(hex_: HexId, digits: int = 2) -> tuple[int, int]:
    """(column, row) of a printed id."""
    if hex_ < 0:
        raise ValueError(f"hex ids are not negative: {hex_}")
    return divmod(hex_, 10**digits)


def label(hex_: HexId, digits: int = 2) -> str:
    """The id as printed, zero-padded: 825 -> "0825"."""
    split(hex_, digits)
    return f"{hex_:0{2 * digits}d}"


def _side(a: HexId, b: HexId) -> Side:
    return frozenset((a, b))


def _as_test(where: Callable[[HexId], bool] | AbstractSet[HexId] | None) -> Callable[[HexId], bool]:
    if where is None:
        return lambda _h: True
    if callable(where):
        return where
    return where.__contains__


class Route(Record, fields=("cost", "hexes")):
    """A path found by `HexGrid.cheapest`: its hexes from start to goal, and its cost.

    A frozen record (pbem.record), not a @dataclass: importing dataclasses was a tenth of
    a cold `pbem show` of a game on this grid (issue 29)."""

    cost: float
    hexes: tuple[HexId, ...]

    def __init__(self, cost: float, hexes: tuple[HexId, ...]) -> None:
        fields = self.__dict__
        fields["cost"] = cost
        fields["hexes"] = hexes


class HexGrid:
    """A rectangle of hexes `columns` x `rows` (ranges of printed numbers), less `absent`
    hexes (off the map, not used), with features on hexsides ("river", "bridge",
    "major-river", "sea", ...) and terrain on hexes ("clear", "forest", "city", ...).

    Unknown hexes and features on pairs that are not neighbours are refused (ValueError).
    """

    def __init__(
        self,
        columns: range,
        rows: range,
        *,
        offset: str = "even-q",
        digits: int = 2,
        absent: Iterable[HexId] = (),
        hexsides: Mapping[Side, Iterable[str]] | None = None,
        terrain: Mapping[HexId, str] | None = None,
    ) -> None:
        if offset not in OFFSETS:
            raise ValueError(f"unknown offset {offset!r} (expected {', '.join(OFFSETS)})")
        if columns.step != 1 or rows.step != 1 or not columns or not rows:
            raise ValueError("columns and rows are non-empty ranges with step 1")
        self.columns, self.rows, self.offset, self.digits = columns, rows, offset, digits
        self.flat = offset.endswith("-q")  # straight columns, flat-topped hexes
        self._shift = 1 if offset.startswith("odd") else 0  # the parity sitting lower/right
        gone = set(absent)
        all_hexes = [hex_id(c, r, digits) for c in columns for r in rows]
        unknown = gone - set(all_hexes)
        if unknown:
            raise ValueError(f"absent hexes off the grid: {sorted(unknown)}")
        self.hexes: tuple[HexId, ...] = tuple(h for h in all_hexes if h not in gone)
        self._set = frozenset(self.hexes)
        self._order = {h: i for i, h in enumerate(self.hexes)}
        self._neighbours = {h: tuple(n for n in self._around(h) if n in self._set) for h in self}
        self._sides: dict[Side, frozenset[str]] = {}
        for key, names in (hexsides or {}).items():
            pair = tuple(key)
            if len(pair) != 2 or not self.adjacent(*pair):
                raise ValueError(f"hexside {sorted(pair)} does not join two neighbouring hexes")
            if names:
                self._sides[frozenset(pair)] = frozenset(names)
        for h in terrain or {}:
            self._check(h)
        self.terrain: Mapping[HexId, str] = MappingProxyType(dict(terrain or {}))

    # --- ids and coordinates ------------------------------------------------------------------

    def __contains__(self, hex_: object) -> bool:
        return hex_ in self._set

    def __iter__(self) -> Iterator[HexId]:
        return iter(self.hexes)

    def __len__(self) -> int:
        return len(self.hexes)

    def _check(self, hex_: HexId) -> HexId:
        if hex_ not in self._set:
            raise KeyError(f"hex {hex_} is not on the map")
        return hex_

    def label(self, hex_: HexId) -> str:
        return label(hex_, self.digits)

    def parse(self, text: str) -> HexId:
        """A hex on the map from its printed id ("0825", "825")."""
        if not text.strip().isdigit():
            raise ValueError(f"{text!r} is not a hex number")
        return self._check(int(text))

    def axial(self, hex_: HexId) -> tuple[int, int]:
        """The axial (q, r) coordinates of a printed id (on the map or not)."""
        col, row = split(hex_, self.digits)
        if self.flat:
            return col, row - self._half(col)
        return col - self._half(row), row

    def _half(self, n: int) -> int:
        """How far the straight lines drift: half the column (q) or row (r) number,
        rounded toward the parity that sits lower (q) or to the right (r)."""
        return (n - (n & 1)) // 2 if self._shift else (n + (n & 1)) // 2

    def _offset(self, q: int, r: int) -> tuple[int, int] | None:
        """(column, row) of axial coordinates; None off the printable range."""
        col, row = (q, r + self._half(q)) if self.flat else (q + self._half(r), r)
        limit = 10**self.digits
        if not (0 <= col < limit and 0 <= row < limit):
            return None
        return col, row

    def _around(self, hex_: HexId) -> list[HexId]:
        q, r = self.axial(hex_)
        out = []
        for dq, dr in AXIAL_STEPS:
            cr = self._offset(q + dq, r + dr)
            if cr is not None:
                out.append(hex_id(*cr, self.digits))
        return out

    # --- neighbours -------------------------------------------------------------------------

    @property
    def direction_names(self) -> tuple[str, ...]:
        return _FLAT_NAMES if self.flat else _POINTY_NAMES

    def neighbours(self, hex_: HexId) -> tuple[HexId, ...]:
        """The hexes of the map around `hex_` (six, fewer at an edge or next to an absent
        hex), clockwise from "N" (flat) or "NW" (pointy)."""
        return self._neighbours[self._check(hex_)]

    def adjacent(self, a: HexId, b: HexId) -> bool:
        return b in self._neighbours[self._check(a)]

    def neighbour(self, hex_: HexId, direction: str) -> HexId | None:
        """The hex next to `hex_` in `direction` ("N", "NE", ...); None off the map."""
        names = self.direction_names
        if direction not in names:
            raise ValueError(f"unknown direction {direction!r} (expected {', '.join(names)})")
        q, r = self.axial(self._check(hex_))
        dq, dr = AXIAL_STEPS[names.index(direction)]
        cr = self._offset(q + dq, r + dr)
        if cr is None:
            return None
        there = hex_id(*cr, self.digits)
        return there if there in self._set else None

    def direction(self, a: HexId, b: HexId) -> str:
        """The direction from `a` to its neighbour `b` ("N", "SE", ...)."""
        if not self.adjacent(a, b):
            raise ValueError(f"hexes {self.label(a)} and {self.label(b)} are not neighbours")
        (qa, ra), (qb, rb) = self.axial(a), self.axial(b)
        return self.direction_names[AXIAL_STEPS.index((qb - qa, rb - ra))]

    def edges(self, hex_: HexId) -> frozenset[str]:
        """Which sides of the grid's rectangle the hex lies on ("first-column", ...)."""
        col, row = split(self._check(hex_), self.digits)
        found = {
            "first-column": col == self.columns[0],
            "last-column": col == self.columns[-1],
            "first-row": row == self.rows[0],
            "last-row": row == self.rows[-1],
        }
        return frozenset(name for name, on in found.items() if on)

    def edge_hexes(self, edge: str) -> list[HexId]:
        """The hexes on one side of the rectangle, in map order."""
        if edge not in EDGES:
            raise ValueError(f"unknown edge {edge!r} (expected {', '.join(EDGES)})")
        return [h for h in self.hexes if edge in self.edges(h)]

    # --- hexsides and terrain ---------------------------------------------------------------

    def hexside(self, a: HexId, b: HexId) -> frozenset[str]:
        """The features of the hexside between neighbours `a` and `b` (same both ways)."""
        if not self.adjacent(a, b):
            raise ValueError(f"hexes {self.label(a)} and {self.label(b)} are not neighbours")
        return self._sides.get(_side(a, b), frozenset())

    def has(self, a: HexId, b: HexId, feature: str) -> bool:
        return feature in self.hexside(a, b)

    def hexsides_with(self, feature: str) -> list[tuple[HexId, HexId]]:
        """The hexsides carrying `feature`, as (lower id, higher id), in map order."""
        return sorted(
            (min(side), max(side)) for side, names in self._sides.items() if feature in names
        )

    def terrain_of(self, hex_: HexId, default: str = "clear") -> str:
        return self.terrain.get(self._check(hex_), default)

    # --- distance and regions ---------------------------------------------------------------

    def distance(self, a: HexId, b: HexId) -> int:
        """Hexes between `a` and `b` on an unbroken grid (cube distance): the length of the
        shortest path when nothing is absent or impassable."""
        (qa, ra), (qb, rb) = self.axial(a), self.axial(b)
        dq, dr = qa - qb, ra - rb
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def within(self, hex_: HexId, radius: int) -> list[HexId]:
        """The hexes of the map at most `radius` hexes from `hex_` (by `distance`)."""
        self._check(hex_)
        return [h for h in self.hexes if self.distance(hex_, h) <= radius]

    def region(
        self,
        start: Iterable[HexId],
        inside: Callable[[HexId], bool] | AbstractSet[HexId] | None = None,
        step: Callable[[HexId, HexId], bool] | None = None,
    ) -> set[HexId]:
        """The hexes reachable from `start` through hexes `inside` by steps `step` allows
        (a connected region: a line of communications of friendly-controlled hexes, the
        hexes a railroad joins, ...). Start hexes not `inside` are left out."""
        test = _as_test(inside)
        reached = {self._check(h) for h in start if test(h)}
        return spread(reached, self._neighbours, test, step)

    def components(self, hexes: Iterable[HexId]) -> list[list[HexId]]:
        """The connected groups of `hexes` through themselves, each in map order, ordered
        by their first hex."""
        left = set(hexes)
        out = []
        for h in sorted(left, key=self._order.__getitem__):
            if h in left:
                group = self.region([h], left)
                left -= group
                out.append(sorted(group, key=self._order.__getitem__))
        return out

    # --- movement -----------------------------------------------------------------------------

    def costs(
        self,
        start: HexId | Iterable[HexId],
        *,
        enter: Callable[[HexId], Cost] | None = None,
        cross: Callable[[HexId, HexId], Cost] | None = None,
        step: Callable[[HexId, HexId], Cost] | None = None,
        stop: Callable[[HexId], bool] | AbstractSet[HexId] | None = None,
        max_cost: float | None = None,
    ) -> dict[HexId, float]:
        """The cheapest cost from `start` to every hex reachable within `max_cost`
        (Dijkstra). See `cheapest` for the cost callables."""
        dist, _came, _end = self._search(start, enter, cross, step, stop, max_cost, None)
        return dist

    def cheapest(
        self,
        start: HexId | Iterable[HexId],
        goals: HexId | Collection[HexId],
        *,
        enter: Callable[[HexId], Cost] | None = None,
        cross: Callable[[HexId, HexId], Cost] | None = None,
        step: Callable[[HexId, HexId], Cost] | None = None,
        stop: Callable[[HexId], bool] | AbstractSet[HexId] | None = None,
        max_cost: float | None = None,
    ) -> Route | None:
        """The cheapest path from `start` to the nearest of `goals` (None: none within
        `max_cost`). Ties go to the path found first, searching neighbours clockwise:
        the same answer on every machine.

        The cost of a step from `a` into its neighbour `b` is `step(a, b)` when given,
        else `enter(b) + cross(a, b)` (defaults 1 and 0): Götterdämmerung 5.31 adds the
        costs of the hex and the hexside; Race to the Sea 10.3.1 counts a forest hex or a
        river crossing as two hexes, and both together still as two (10.3.1 C), which a
        `step` callable says. A cost of None is prohibited: water and entrenchment hexes
        (Race to the Sea 10.3.2), full sea or lake hexsides (Götterdämmerung 5.28).
        `stop` hexes may be entered but not left (a German unit stops on entering enemy
        strong ZOC, Götterdämmerung 5.22; any unit on entering No Man's Land, Race to the
        Sea 10.1.1 B); the start hex is never a stop.
        """
        targets = {goals} if isinstance(goals, int) else set(goals)
        dist, came, end = self._search(start, enter, cross, step, stop, max_cost, targets)
        if end is None:
            return None
        path = [end]
        while (prev := came[path[-1]]) is not None:
            path.append(prev)
        return Route(dist[end], tuple(reversed(path)))

    def _search(
        self,
        start: HexId | Iterable[HexId],
        enter: Callable[[HexId], Cost] | None,
        cross: Callable[[HexId, HexId], Cost] | None,
        step: Callable[[HexId, HexId], Cost] | None,
        stop: Callable[[HexId], bool] | AbstractSet[HexId] | None,
        max_cost: float | None,
        goals: set[HexId] | None,
    ) -> tuple[dict[HexId, float], dict[HexId, HexId | None], HexId | None]:
        """Dijkstra from `start`; with `goals`, it ends at the first goal settled (the
        nearest, the first in map order among equally near ones), returned third."""
        starts = [start] if isinstance(start, int) else list(start)
        halts = _as_test(stop) if stop is not None else (lambda _h: False)
        dist: dict[HexId, float] = {}
        came: dict[HexId, HexId | None] = {}
        heap: list[tuple[float, int, HexId]] = []
        for h in starts:
            self._check(h)
            dist[h], came[h] = 0, None
            heapq.heappush(heap, (0, self._order[h], h))
        origin = set(starts)
        done: set[HexId] = set()
        while heap:
            cost, _, here = heapq.heappop(heap)
            if here in done:
                continue
            done.add(here)
            if goals is not None and here in goals:
                return dist, came, here
            if here not in origin and halts(here):
                continue
            for there in self._neighbours[here]:
                if there in done:
                    continue
                if step is not None:
                    price = step(here, there)
                else:
                    price_in = 1 if enter is None else enter(there)
                    price_side = 0 if cross is None else cross(here, there)
                    if price_in is None or price_side is None:
                        continue
                    price = price_in + price_side
                if price is None:
                    continue
                total = cost + price
                if max_cost is not None and total > max_cost:
                    continue
                if there not in dist or total < dist[there]:
                    dist[there], came[there] = total, here
                    heapq.heappush(heap, (total, self._order[there], there))
        return dist, came, None

    # --- drawing ------------------------------------------------------------------------------

    def _natural(self, hex_: HexId, size: float) -> tuple[float, float]:
        col, row = split(hex_, self.digits)
        c0, r0 = self.columns[0], self.rows[0]
        if self.flat:
            lower = 1 if (col & 1) == self._shift else 0
            return size * (1 + 1.5 * (col - c0)), size * SQRT3 / 2 * (1 + 2 * (row - r0) + lower)
        right = 1 if (row & 1) == self._shift else 0
        return size * SQRT3 / 2 * (1 + 2 * (col - c0) + right), size * (1 + 1.5 * (row - r0))

    def _transposed(self, top: str | None) -> bool:
        if top not in (None, "flat", "pointy"):
            raise ValueError(f"top is 'flat' or 'pointy', not {top!r}")
        return top is not None and (top == "flat") != self.flat

    def center(self, hex_: HexId, size: float = 1.0, top: str | None = None) -> tuple[float, float]:
        """The centre of `hex_` for drawing, `size` the distance from centre to corner, the
        grid's top-left corner at (0, 0). `top`: "flat" or "pointy" hexes; the default is
        the grid's natural one (flat for q grids). The other one draws the grid turned a
        quarter (mirrored on the diagonal: columns become rows)."""
        x, y = self._natural(hex_, size)
        return (y, x) if self._transposed(top) else (x, y)

    def corners(
        self, hex_: HexId, size: float = 1.0, top: str | None = None
    ) -> list[tuple[float, float]]:
        """The six corners of `hex_` as drawn by `center`, for a polygon."""
        x, y = self.center(hex_, size, top)
        flat_top = self.flat != self._transposed(top)
        first = 0 if flat_top else 30
        return [
            (
                x + size * math.cos(math.radians(first + 60 * i)),
                y + size * math.sin(math.radians(first + 60 * i)),
            )
            for i in range(6)
        ]

    def hexside_line(
        self, a: HexId, b: HexId, size: float = 1.0, top: str | None = None
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners the neighbours `a` and `b` share, to draw a river on."""
        if not self.adjacent(a, b):
            raise ValueError(f"hexes {self.label(a)} and {self.label(b)} are not neighbours")
        bx, by = self.center(b, size, top)
        near = sorted(self.corners(a, size, top), key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2)
        return near[0], near[1]

    def extent(self, size: float = 1.0, top: str | None = None) -> tuple[float, float]:
        """(width, height) of the drawing of the whole rectangle."""
        xs, ys = [], []
        for h in self.hexes:
            for x, y in self.corners(h, size, top):
                xs.append(x)
                ys.append(y)
        return max(xs), max(ys)


# --- zones of control and supply ------------------------------------------------------------


def zone_of_control(
    grid: HexGrid,
    units: Iterable[HexId],
    *,
    exerts: Callable[[HexId], bool] | None = None,
    extends: Callable[[HexId, HexId], bool] | None = None,
) -> set[HexId]:
    """The hexes in the ZOC of units standing in the hexes `units`.

    Both games put ZOC on the six hexes around a unit: Race to the Sea 10.1.1 A ("The six
    hexes adjacent to an enemy unit are termed No Man's Land (NML) hexes"), Götterdämmerung
    4.21. `exerts(hex)` says whether the units there exert any (Götterdämmerung 4.21: not
    Hitler, factories, depots, HQs; 4.27: not disrupted units); `extends(from, to)` whether
    it reaches across that hexside (Götterdämmerung 4.26: not across a full sea or lake
    hexside, the Spree on the city map but for its bridges; 4.25: not from a city hex into
    a Transition Hex).
    """
    found: set[HexId] = set()
    for here in set(units):
        if exerts is not None and not exerts(here):
            continue
        for there in grid.neighbours(here):
            if extends is None or extends(here, there):
                found.add(there)
    return found


class SupplyRule(
    Record,
    fields=(
        "length",
        "enemy_units",
        "enemy_zoc",
        "strong_zoc",
        "friendly_units",
        "friendly_negates_zoc",
        "inside",
        "cost",
    ),
):
    """What a supply line (line of communications) may pass through, and how long it may be.

    A hex is closed to the line when it holds an enemy unit, is outside `inside`, or is
    in enemy ZOC (`enemy_zoc`) without a friendly unit when `friendly_negates_zoc`, or in
    `strong_zoc` (never negated). The tracing unit's own hex counts as holding a friendly
    unit. `length` limits the hexes entered after the unit's own (None: unlimited), or
    the movement points when `cost(from, to)` is given (None cost: prohibited).

    What the rulebooks say:

    - Götterdämmerung 8.12: a Soviet unit traces "no more than 8 hexes" to a supply source
      hex or a supplied depot of its front; 8.14: not through hexes or hexsides it may not
      enter (`cost` None, or `inside`); 8.15: "may not be traced through a hex containing
      enemy units, or through an enemy-ZOC hex that contains no friendly unit", but
      through an enemy-ZOC hex with one (4.28: a friendly unit cancels only a weak ZOC,
      so a strong one goes in `strong_zoc`). 8.13: a depot traces along a railroad
      through no enemy units or ZOC "even if friendly units are present":
      `friendly_negates_zoc=False`. 11.15: a surviving German unit traces any length, a
      Soviet strong ZOC not reaching hexes with German units (leave those out of
      `strong_zoc`).
    - Race to the Sea 9.5 and 14.1 C: a line of communications is "a connected path of
      friendly-controlled hexes" of any length (`inside` = friendly-controlled); no ZOC
      rule. Rail movement (7.3 D) may not enter an enemy NML hex "even if occupied by a
      friendly unit" (`friendly_negates_zoc=False`); rail reinforcements (15.6.2.1 A)
      need connected friendly-controlled railroad hexes back to Mons (`inside`).
    """

    length: float | None = None
    enemy_units: AbstractSet[HexId] = frozenset()
    enemy_zoc: AbstractSet[HexId] = frozenset()
    strong_zoc: AbstractSet[HexId] = frozenset()
    friendly_units: AbstractSet[HexId] = frozenset()
    friendly_negates_zoc: bool = True
    inside: Callable[[HexId], bool] | None = None
    cost: Callable[[HexId, HexId], Cost] | None = None

    def __init__(
        self,
        length: float | None = None,
        enemy_units: AbstractSet[HexId] = frozenset(),
        enemy_zoc: AbstractSet[HexId] = frozenset(),
        strong_zoc: AbstractSet[HexId] = frozenset(),
        friendly_units: AbstractSet[HexId] = frozenset(),
        friendly_negates_zoc: bool = True,
        inside: Callable[[HexId], bool] | None = None,
        cost: Callable[[HexId, HexId], Cost] | None = None,
    ) -> None:
        """(A frozen record, pbem.record, as `Route`.)"""
        fields = self.__dict__
        fields["length"] = length
        fields["enemy_units"] = enemy_units
        fields["enemy_zoc"] = enemy_zoc
        fields["strong_zoc"] = strong_zoc
        fields["friendly_units"] = friendly_units
        fields["friendly_negates_zoc"] = friendly_negates_zoc
        fields["inside"] = inside
        fields["cost"] = cost

    def closed(self, hex_: HexId, friendly_here: bool = False) -> bool:
        """Whether a supply line may not pass through `hex_`."""
        if hex_ in self.enemy_units or hex_ in self.strong_zoc:
            return True
        if self.inside is not None and not self.inside(hex_):
            return True
        if hex_ in self.enemy_zoc:
            friendly = friendly_here or hex_ in self.friendly_units
            return not (self.friendly_negates_zoc and friendly)
        return False


def supply_line(
    grid: HexGrid, start: HexId, sources: Collection[HexId], rule: SupplyRule
) -> Route | None:
    """The shortest supply line from a unit in `start` to one of `sources` under `rule`
    (None: the unit is out of supply). The line includes both ends, and both must be open."""
    if rule.closed(grid._check(start), friendly_here=True):
        return None
    targets = {h for h in sources if h in grid}
    return grid.cheapest(
        start,
        targets,
        step=_line_step(rule),
        max_cost=rule.length,
    )


def supplied_hexes(
    grid: HexGrid, sources: Collection[HexId], rule: SupplyRule
) -> dict[HexId, float]:
    """Every hex from which a unit could trace a supply line to `sources` under `rule`,
    with the length of its shortest line: one search from the sources serves every unit
    (`supply_line` gives the same answer hex by hex). A hex closed to lines passing
    through but open to a unit standing in it (enemy ZOC negated by the unit itself) ends
    a line without carrying it further."""
    cost = rule.cost

    def backward(a: HexId, b: HexId) -> Cost:
        # searching outward from the sources: the line itself runs from b to a
        if rule.closed(b, friendly_here=True):
            return None
        return 1 if cost is None else cost(b, a)

    passable = [h for h in sources if h in grid and not rule.closed(h)]
    found = grid.costs(passable, step=backward, stop=rule.closed, max_cost=rule.length)
    for h in sources:
        # a source only the unit on it keeps open supplies that unit, and no other
        if h in grid and not rule.closed(h, friendly_here=True):
            found[h] = 0
    return found


def _line_step(rule: SupplyRule) -> Callable[[HexId, HexId], Cost]:
    def step(a: HexId, b: HexId) -> Cost:
        if rule.closed(b):
            return None
        return 1 if rule.cost is None else rule.cost(a, b)

    return step
