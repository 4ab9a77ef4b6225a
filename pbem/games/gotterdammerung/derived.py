"""Götterdämmerung: the per-map lookup tables the rules derive from the map, made with the
loaded data (so that a verification finds them ready, not built during its entries).

The rules build these lazily per map object (map_data's hexside table, supply.py's step
tables, zoc.py's stacking limits), at a cost of about a tenth of a whole game's verify.
`derive` makes them once per map file (remembered by the file's digest within a process)
and `GotterdammerungEngine.read_data` keeps them beside the map as `data["derived"]`; they
are plain data, so pbem/prebuilt and the table cache ship them with the parsed tables.
`seed` installs them for the game's map when a game is set up, if that map is the loaded
one (12.35/12.51 change the fronts: a map of its own, built lazily as before).

The tables are those the lazy builders make, made by the builders themselves; never
changed once made (the lazy ones are not either). Sets are kept as sorted tuples (a set's
order, and so the data's repr, would depend on how it was made). Nothing here is in a
state, a view or an entry: a state's JSON and its views are unchanged. tests/games/gotterdammerung/
test_gd_derived.py: the seeded tables equal the lazily built ones, and a game played with
them is the game played without.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import supply, victory, zoc

# supply._per_map's tables a verification uses (the step tables of each side on the maps
# it traces, turned round, the closed hexsides, the railroads and 11.15's exit hexes)
PER_MAP = (
    ("steps", "soviet", md.OP),
    ("steps", "german", md.OP),
    ("steps", "german", None),
    ("back", "soviet", md.OP),
    ("back", "german", md.OP),
    ("back", "german", None),
)


# the distances to a whole map edge (supply._distances_to) its searches head for (8.18's
# eastern edge for the Soviet side; the western edge of 8.32/8.33 and 8.43)
EDGE_DISTANCES = (
    ("soviet", md.OP, "east"),
    ("german", md.OP, "west"),
    ("german", None, "west"),
)


def _per_map_key(what: str, side: str, on: str | None) -> str:
    return f"{what} {side} {on}"  # (supply._steps' and _back_steps' names)


def derive(board: Mapping[str, Any], map_bytes: bytes) -> dict[str, Any]:
    """The tables of a map parsed from `map_bytes`, made by the lazy builders (remembered
    by the bytes' digest: tests set up many games of one map)."""
    digest = hashlib.sha256(map_bytes).hexdigest()
    found = _MADE.get(digest)
    if found is not None:
        return found
    per_map: dict[str, Any] = {}
    for what, side, on in PER_MAP:
        build = supply._steps if what == "steps" else supply._back_steps
        per_map[_per_map_key(what, side, on)] = build(board, side, on)
    for side, on, edge in EDGE_DISTANCES:
        ends = frozenset(board["edges"][edge])
        per_map[f"distances {side} {on} {edge}"] = supply._distances_to(board, side, on, ends)
    unused, closed, op_hexes = supply._closed(board)
    per_map["closed"] = (
        tuple(sorted(unused)),
        {h: tuple(sorted(near)) for h, near in closed.items()},
        tuple(sorted(op_hexes)),
    )
    per_map["rail"] = {h: tuple(sorted(near)) for h, near in supply._rail_links(board).items()}
    per_map["exit hexes"] = tuple(sorted(victory._exits(board)))
    made = {"sides": md._sides(board), "per_map": per_map, "limits": zoc._limits(board)}
    if len(_MADE) >= 4:
        _MADE.clear()
    _MADE[digest] = made
    return made


_MADE: dict[str, dict[str, Any]] = {}


def seed(board: Mapping[str, Any], made: Mapping[str, Any]) -> None:
    """Install `made` (`derive`'s tables of this map's data) as the lazy builders' tables
    for `board`, unless the map already has its own."""
    if md._DERIVED.get(id(board), (None,))[0] is board:
        return  # (derived already: its tables stand)
    md.seed_sides(board, made["sides"])
    token = md._sides(board)
    for what, table in _as_built(made["per_map"]).items():
        supply._PER_MAP[(id(board), what)] = (token, table)
    zoc._LIMITS[id(board)] = (token, made["limits"])


def _as_built(per_map: Mapping[str, Any]) -> dict[str, Any]:
    """`derive`'s per-map tables as the builders make them: the sets that `derive` keeps as
    sorted tuples (so that the loaded data shows alike however it was made: a set's order
    is its history's) made sets again."""
    out = dict(per_map)
    unused, closed, op_hexes = per_map["closed"]
    out["closed"] = (
        frozenset(unused),
        {h: frozenset(near) for h, near in closed.items()},
        frozenset(op_hexes),
    )
    out["rail"] = {h: set(near) for h, near in per_map["rail"].items()}
    out["exit hexes"] = frozenset(per_map["exit hexes"])
    return out
