"""Race to the Sea: the per-map lookup tables the rules derive from the map, made with the
loaded data (so that a verification finds them ready, not built during its entries).

The rules build these lazily per map object (map_data's axial, terrain, hexside and
railroad tables, the map edges and the Allied start area; movement's initial control;
entry_index's listed hexes of each location of the tables and 7.1.B's distances to them;
victory's table of each hex), at a cost of some 30 million instructions in a verification
of the demo save, none of them in its first three entries. What loads slowly for what it
saves is left to be built lazily: every process that loads the tables (a `pbem show`, an
`apply`) pays for loading these, a verification only for what it asks (the neighbour
table, the movement costs and rivers of each pair of neighbours). `derive` makes them once
per map file (remembered by the file's and the units file's digests within a process) and
`RaceToTheSeaEngine.read_data` keeps them beside the map as `data["derived"]`; they are
plain data, so pbem/prebuilt and the table cache ship them with the parsed tables. `seed`
installs them for the game's map when a game is set up, if that map is the loaded one and
has no tables of its own yet.

The tables are those the lazy builders make, made by the builders themselves; never
changed once made (the lazy ones are not either; a memo that the rules fill in is seeded
with a copy). Nothing here is in a state, a view or an entry: a state's JSON and its views
are unchanged. tests/games/race_to_the_sea/test_rts_derived.py: the seeded tables equal the
lazily built ones, and a game played with them is the game played without.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.race_to_the_sea import entry_index as ei
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea import units as ru
from pbem.games.race_to_the_sea import victory


def locations(units: Mapping[str, Any]) -> list[str]:
    """The entry locations of the units tables whose listed hexes the map alone fixes (not
    GRL, which reads the control, nor "with the first units", which reads the batch)."""
    found = {unit["entry"]["location"] for unit in units["units"].values()}
    return sorted(found - {"GRL", ru.WITH_FIRST_UNITS})


def derive(board: Mapping[str, Any], units: Mapping[str, Any], map_bytes: bytes) -> dict[str, Any]:
    """The tables of a map parsed from `map_bytes` (and of the units table's locations),
    made by the lazy builders (remembered by the map's bytes and the locations: tests set
    up many games of one map)."""
    import hashlib  # (here: a show or a verification reads the tables made, never this)

    places = locations(units)
    key = (hashlib.sha256(map_bytes).hexdigest(), tuple(places))
    found = _MADE.get(key)
    if found is not None:
        return found
    hexes = rm.map_hexes(board)
    static = {place: tuple(ei._static_hexes(board, place)) for place in places}
    # 7.1.B's closest friendly hex measures from the listed hexes: those of each location,
    # and GRL's when Mons alone is listed (Cambrai and Valenciennes not usable).
    targets = {*static.values(), (rm.hex_of(board, "Mons"),)}
    made = {
        "axial": _axial(board, hexes),
        "terrains": {h: str(info["terrain"]) for h, info in rm._index(board).items()},
        # (each hexside's names sorted: a frozenset of strings reloads from marshal in an
        # order of its own, and a loaded table must read, repr included, as the one made)
        "features": {pair: tuple(sorted(names)) for pair, names in rm._features(board).items()},
        "tracks": rm._rail_tracks(board),
        "edges": {side: rm._edge_hexes(board, side) for side in rm.SIDES},
        "start area": rm._allied_start_area(board),
        "initial": {h: mv._initial_control(board, h) for h in hexes},
        "static": static,
        # (each hex's distance in map order, `hexes`: a tuple of small ints loads at once,
        # a dict keyed by hex does not; `seed` pairs them with the map's hexes again)
        "hexes": hexes,
        "distances": {t: _distances(board, t, hexes) for t in sorted(targets) if t},
        "victory": victory._made_table(board),
    }
    if len(_MADE) >= 4:
        _MADE.clear()
    _MADE[key] = made
    return made


_MADE: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}


def _axial(board: Mapping[str, Any], hexes: tuple[int, ...]) -> dict[int, tuple[int, int]]:
    """`rm.axial_table`'s table, by the builder's arithmetic (it reads `map_hexes`)."""
    flat, shift = board["offset"].endswith("-q"), board["offset"].startswith("odd")
    table = {}
    for h in hexes:
        col, row = divmod(h, 100)
        n = col if flat else row
        half = (n - (n & 1)) // 2 if shift else (n + (n & 1)) // 2
        table[h] = (col, row - half) if flat else (col - half, row)
    return table


def _distances(
    board: Mapping[str, Any], targets: tuple[int, ...], hexes: tuple[int, ...]
) -> tuple[int, ...]:
    """`ei.distances_to`'s table, as it makes it, each hex's in the order of `hexes`."""
    away = ei._spread(board, targets) if len(targets) > 4 else ei._each(board, targets)
    if list(away) != list(hexes):  # (both in map order: the map's hexes, every one)
        raise ValueError("the distances are not of the map's hexes in map order")
    return tuple(away.values())


def seed(board: Mapping[str, Any], made: Mapping[str, Any]) -> None:
    """Install `made` (`derive`'s tables of this map's data) as the lazy builders' tables
    for `board`, each unless the map already has its own."""

    def fresh(memos: dict[Any, Any], key: Any = None) -> bool:
        found = memos.get(id(board) if key is None else key)
        return found is None or found[0] is not board

    if fresh(rm._AXIALS):
        rm._kept(rm._AXIALS, board, made["axial"])
    if fresh(rm._TERRAINS):
        rm._kept(rm._TERRAINS, board, made["terrains"])
    if fresh(rm._FEATURES):
        features = {pair: frozenset(names) for pair, names in made["features"].items()}
        rm._kept(rm._FEATURES, board, features)
    if fresh(rm._TRACKS):
        rm._kept(rm._TRACKS, board, made["tracks"])
    if fresh(rm._EDGES):  # (memos the rules fill in: a copy of their own)
        rm._kept(rm._EDGES, board, dict(made["edges"]))
    if fresh(rm._START_AREAS):
        rm._kept(rm._START_AREAS, board, made["start area"])
    if fresh(mv._INITIAL):
        if len(mv._INITIAL) >= 8:
            mv._INITIAL.clear()
        mv._INITIAL[id(board)] = (board, dict(made["initial"]))
    for place, hexes in made["static"].items():
        if fresh(ei._STATIC, (id(board), place)):
            if len(ei._STATIC) >= 256:
                ei._STATIC.clear()
            ei._STATIC[(id(board), place)] = (board, hexes)
    for targets, away in made["distances"].items():
        if fresh(ei._DISTANCES, (id(board), targets)):
            if len(ei._DISTANCES) >= 64:
                ei._DISTANCES.clear()
            away_of = dict(zip(made["hexes"], away, strict=True))
            ei._DISTANCES[(id(board), targets)] = (board, away_of)
    if fresh(victory._TABLES):
        if len(victory._TABLES) >= 8:
            victory._TABLES.clear()
        victory._TABLES[id(board)] = (board, made["victory"])
