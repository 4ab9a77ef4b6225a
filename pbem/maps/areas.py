"""Area graphs: the board of an area-movement game as areas, borders and border features.

An `AreaGraph` is built from what a game's data loader already reads (the borders of
`map.toml`, or the neighbour lists the loader derived from them) and never holds a second
copy of the map: it is an index over those data for the questions the rules ask --
neighbours, adjacency, whether a border is a river, the areas reachable through a
predicate (own areas for supply, friendly areas for strategic movement), connected groups,
steps between areas, the areas touching a set and the borders cutting it (front lines).

Everything comes out in the graph's own *map order* (the order the areas were given in,
which is the order a game shows them in), so rules that iterate over a graph make the
same decisions on every machine: neighbours are listed in map order, borders in the
order of their first then second area, regions and groups by their first area.

The graph is immutable once built; games cache it beside their static data (it is a
plain Python object, never part of a JSON state).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from types import MappingProxyType

from pbem.maps.regions import spread

Area = str
Border = tuple[str, str]
# Where a region may go: an area predicate, or a set of areas.
Inside = Callable[[str], bool] | AbstractSet[str]
# Whether a step from one area into a neighbour is allowed (e.g. Berlin access rules).
Step = Callable[[str, str], bool]

RIVER = "river"


def _test(inside: Inside | None) -> Callable[[str], bool] | None:
    if inside is None or callable(inside):
        return inside
    return inside.__contains__


class AreaGraph:
    """An undirected graph of areas with optional features on its borders ("river", ...)
    and named groups of areas (rings, edges, Berlin sub-areas, ...).

    `areas` fixes the map order; `borders` are pairs of areas (each pair once);
    `features` maps a border (`frozenset({a, b})`) to its features; `groups` names sets
    of areas. Unknown areas, self-borders, repeated borders and features on pairs that
    share no border are refused with ValueError.
    """

    def __init__(
        self,
        areas: Iterable[str],
        borders: Iterable[Sequence[str]],
        *,
        features: Mapping[frozenset[str], Iterable[str]] | None = None,
        groups: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self.areas: tuple[str, ...] = tuple(areas)
        self._index = {a: i for i, a in enumerate(self.areas)}
        if len(self._index) != len(self.areas):
            raise ValueError("an area is listed twice")
        around: dict[str, list[str]] = {a: [] for a in self.areas}
        pairs: list[Border] = []
        seen: set[frozenset[str]] = set()
        for pair in borders:
            a, b = self._pair(pair)
            key = frozenset((a, b))
            if key in seen:
                raise ValueError(f"the border {a}-{b} is given twice")
            seen.add(key)
            around[a].append(b)
            around[b].append(a)
            pairs.append((a, b))
        order = self._index.__getitem__
        self._neighbours = {a: tuple(sorted(n, key=order)) for a, n in around.items()}
        self._near = {a: frozenset(n) for a, n in around.items()}
        # Borders in map order: by their first area, then their second.
        self.borders: tuple[Border, ...] = tuple(
            sorted(
                ((a, b) if order(a) < order(b) else (b, a) for a, b in pairs),
                key=lambda p: (order(p[0]), order(p[1])),
            )
        )
        self._features: dict[frozenset[str], frozenset[str]] = {}
        for key, names in (features or {}).items():
            a, b = self._pair(tuple(key))
            if b not in self._near[a]:
                raise ValueError(f"{a} and {b} share no border to carry {sorted(names)}")
            if names:
                self._features[frozenset(key)] = frozenset(names)
        self._groups: dict[str, tuple[str, ...]] = {}
        for name, members in (groups or {}).items():
            listed = set(members)
            unknown = listed - set(self.areas)
            if unknown:
                raise ValueError(f"group {name!r} names unknown area(s) {sorted(unknown)}")
            self._groups[name] = tuple(a for a in self.areas if a in listed)
        self._from: dict[str, Mapping[str, int]] = {}

    @classmethod
    def from_neighbours(
        cls,
        neighbours: Mapping[str, Iterable[str]],
        *,
        order: Iterable[str] | None = None,
        features: Mapping[frozenset[str], Iterable[str]] | None = None,
        groups: Mapping[str, Iterable[str]] | None = None,
    ) -> AreaGraph:
        """A graph from each area's neighbour list (as game data keep them); the lists
        must agree (b next to a exactly when a is next to b). `order` defaults to the
        mapping's order."""
        areas = list(order if order is not None else neighbours)
        index = {a: i for i, a in enumerate(areas)}
        pairs = []
        for a in areas:
            for b in neighbours[a]:
                if b not in index:
                    raise ValueError(f"{a} borders unknown area {b!r}")
                if a not in neighbours[b]:
                    raise ValueError(f"{a} lists {b} as a neighbour, but {b} does not list {a}")
                if index[a] < index[b]:
                    pairs.append((a, b))
        return cls(areas, pairs, features=features, groups=groups)

    def _pair(self, pair: Sequence[str]) -> Border:
        if len(pair) != 2:
            raise ValueError(f"a border joins two areas, not {list(pair)!r}")
        a, b = pair
        for area in (a, b):
            if area not in self._index:
                raise ValueError(f"unknown area {area!r}")
        if a == b:
            raise ValueError(f"area {a} cannot border itself")
        return a, b

    # --- the map ----------------------------------------------------------------------------

    def __contains__(self, area: object) -> bool:
        return area in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self.areas)

    def __len__(self) -> int:
        return len(self.areas)

    def index(self, area: str) -> int:
        """The area's place in map order."""
        try:
            return self._index[area]
        except KeyError:
            raise KeyError(f"unknown area {area!r}") from None

    def neighbours(self, area: str) -> tuple[str, ...]:
        """The areas sharing a border with `area`, in map order."""
        try:
            return self._neighbours[area]
        except KeyError:
            raise KeyError(f"unknown area {area!r}") from None

    def adjacent(self, a: str, b: str) -> bool:
        """Whether `a` and `b` share a border."""
        try:
            return b in self._near[a]
        except KeyError:
            raise KeyError(f"unknown area {a!r}") from None

    def features(self, a: str, b: str) -> frozenset[str]:
        """The features of the border between `a` and `b` (ValueError if there is none)."""
        if not self.adjacent(a, b):
            self.index(b)
            raise ValueError(f"areas {a} and {b} share no border")
        return self._features.get(frozenset((a, b)), frozenset())

    def has_feature(self, a: str, b: str, feature: str) -> bool:
        return feature in self.features(a, b)

    def is_river(self, a: str, b: str) -> bool:
        """Whether the border between `a` and `b` is a river."""
        return self.has_feature(a, b, RIVER)

    def borders_with(self, feature: str) -> list[Border]:
        """The borders carrying `feature`, in map order."""
        return [p for p in self.borders if feature in self._features.get(frozenset(p), ())]

    def group(self, name: str) -> tuple[str, ...]:
        """The areas of a named group, in map order."""
        try:
            return self._groups[name]
        except KeyError:
            raise KeyError(f"unknown group {name!r}") from None

    @property
    def groups(self) -> Mapping[str, tuple[str, ...]]:
        return MappingProxyType(self._groups)

    def in_order(self, areas: Iterable[str]) -> list[str]:
        """`areas` (each once) in map order."""
        return sorted(set(areas), key=self.index)

    # --- reachability -------------------------------------------------------------------------

    def region(
        self, start: Iterable[str], inside: Inside | None = None, step: Step | None = None
    ) -> set[str]:
        """The areas reachable from `start` moving only into areas `inside` (every area
        when None), by steps `step(from, to)` allows (every step when None). Start areas
        outside `inside` are left out. Supply lines, strategic movement and cut-off
        pockets are all regions."""
        test = _test(inside)
        reached = {a for a in start if test is None or test(a)}
        for a in reached:
            self.index(a)
        return spread(reached, self._neighbours, test, step)

    def connected(self, areas: Collection[str]) -> bool:
        """Whether `areas` form one piece through themselves (an empty set does)."""
        if not areas:
            return True
        inside = set(areas)
        return len(self.region([next(iter(inside))], inside)) == len(inside)

    def components(self, areas: Iterable[str] | None = None) -> list[list[str]]:
        """The connected groups of `areas` (all areas when None) through themselves: each
        group in map order, the groups ordered by their first area."""
        left = set(self.areas if areas is None else areas)
        out = []
        for a in self.in_order(left):
            if a not in left:
                continue
            group = self.region([a], left)
            left -= group
            out.append(self.in_order(group))
        return out

    # --- steps --------------------------------------------------------------------------------

    def distances(self, start: Iterable[str] | str, inside: Inside | None = None) -> dict[str, int]:
        """Steps from the nearest of `start` to every area reachable through `inside`
        (breadth first; the start areas are at 0, whatever `inside` says of them)."""
        sources = [start] if isinstance(start, str) else list(start)
        test = _test(inside)
        dist: dict[str, int] = {}
        for a in sources:
            self.index(a)
            dist.setdefault(a, 0)
        queue = deque(dist)
        while queue:
            here = queue.popleft()
            for there in self._neighbours[here]:
                if there not in dist and (test is None or test(there)):
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist

    def distances_from(self, area: str) -> Mapping[str, int]:
        """Steps from `area` to every area over the whole map, computed once per graph."""
        found = self._from.get(area)
        if found is None:
            found = self._from[area] = MappingProxyType(self.distances(area))
        return found

    def distance(self, a: str, b: str, inside: Inside | None = None) -> int | None:
        """Steps from `a` to `b` through `inside` (None: no way)."""
        self.index(b)
        if inside is None:
            return self.distances_from(a).get(b)
        return self.distances(a, inside).get(b)

    def shortest_path(self, a: str, b: str, inside: Inside | None = None) -> list[str] | None:
        """A shortest chain of areas from `a` to `b` (both included) through `inside`; of
        several, the one that at each step takes the first neighbour in map order."""
        self.index(a)
        self.index(b)
        test = _test(inside)
        came: dict[str, str | None] = {a: None}
        queue = deque([a])
        while queue:
            here = queue.popleft()
            if here == b:
                break
            for there in self._neighbours[here]:
                if there not in came and (test is None or test(there)):
                    came[there] = here
                    queue.append(there)
        if b not in came:
            return None
        path = [b]
        while (prev := came[path[-1]]) is not None:
            path.append(prev)
        return path[::-1]

    # --- fronts -------------------------------------------------------------------------------

    def touching(self, areas: Iterable[str]) -> list[str]:
        """The areas outside `areas` that border one of them, in map order."""
        inside = set(areas)
        found = {n for a in inside for n in self.neighbours(a) if n not in inside}
        return self.in_order(found)

    def bordering(self, inside: Inside, outside: Inside) -> list[str]:
        """The areas `inside` with a neighbour `outside`, in map order (the front line
        areas of one side facing another)."""
        test_in, test_out = _test(inside), _test(outside)
        assert test_in is not None and test_out is not None
        return [
            a for a in self.areas if test_in(a) and any(test_out(n) for n in self._neighbours[a])
        ]

    def cut(self, inside: Inside) -> list[Border]:
        """The borders with exactly one area `inside`, in map order (where a side's front
        line markers go)."""
        test = _test(inside)
        assert test is not None
        return [(a, b) for a, b in self.borders if test(a) != test(b)]

    def borders_around(self, areas: Iterable[str]) -> list[Border]:
        """The borders with at least one area in `areas`, each once, in map order."""
        order = self._index
        found = {
            (a, n) if order[a] < order[n] else (n, a)
            for a in set(areas)
            for n in self.neighbours(a)
        }
        return sorted(found, key=lambda p: (order[p[0]], order[p[1]]))
