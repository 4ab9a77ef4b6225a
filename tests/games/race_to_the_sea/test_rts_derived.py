"""Race to the Sea's per-map tables made with the loaded data (derived.py): seeded for a
game's map, they are the tables the rules build lazily, and a game played with them is the
game played without; a map never gets another map's tables, nor loses its own."""

from __future__ import annotations

import random
from typing import Any

from pbem.games.race_to_the_sea import derived, victory
from pbem.games.race_to_the_sea import entry_index as ei
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.rules import ENGINE, STATIC_KEYS
from pbem.testing import Table

FILES = ENGINE.default_data()
ENGINE.read_data(FILES)  # (its tables derived once: each map loaded below is fresh)


def _loaded(seeded: bool) -> dict[str, Any]:
    """Data loaded from the shipped files: a map object of its own, with its tables
    seeded (as a set-up does) or without them (every table built lazily)."""
    data = ENGINE.read_data(FILES)
    if seeded:
        derived.seed(data["map"], data["derived"])
    else:
        del data["derived"]
    return data


def _tables(data: dict[str, Any]) -> dict[str, Any]:
    """Every table derived.py ships, as the rules read it for this map."""
    board, units = data["map"], data["units"]
    hexes = rm.map_hexes(board)
    around = rm.neighbour_table(board)
    pairs = [(a, b) for a in hexes for b in around[a]]
    places = derived.locations(units)
    listed = [ei.static_hexes(board, place) for place in places]
    targets = [t for t in {*listed, (rm.hex_of(board, "Mons"),)} if t]
    return {
        "hexes": hexes,
        "around": dict(around),
        "axial": dict(rm.axial_table(board)),
        "terrains": {h: rm.terrain(board, h) for h in hexes},
        "features": dict(rm.hexside_features(board)),
        "costs": {pair: rm.move_cost(board, *pair) for pair in pairs},
        "rivers": {pair: rm.is_river(board, *pair) for pair in pairs},
        "tracks": {h: rm.rail_reachable(board, h) for h in hexes if rm.is_railroad(board, h)},
        "edges": {side: rm.own_edge_hexes(board, side) for side in rm.SIDES},
        "start area": rm.allied_start_area(board),
        "initial": {h: mv.initial_control(board, h) for h in hexes},
        "static": listed,
        "distances": {t: dict(ei.distances_to(board, t)) for t in sorted(targets)},
        "victory": dict(victory._hex_table(board)),
    }


def test_the_seeded_tables_are_the_lazily_built_ones() -> None:
    lazy, seeded = _loaded(False), _loaded(True)
    assert lazy["map"] is not seeded["map"] and lazy["map"] == seeded["map"]
    assert rm._AXIALS[id(seeded["map"])][0] is seeded["map"]  # (seeded, not built)
    assert _tables(seeded) == _tables(lazy)
    assert rm._EDGES[id(seeded["map"])][1] is not seeded["derived"]["edges"]  # a copy to fill


def test_a_seed_never_replaces_a_maps_own_tables_nor_serves_another_map() -> None:
    data = _loaded(False)
    board = data["map"]
    own = rm.axial_table(board)
    derived.seed(board, ENGINE.read_data(FILES)["derived"])
    assert rm.axial_table(board) is own  # (built already: its own stands)
    other = _loaded(True)
    assert rm.axial_table(other["map"]) is not own
    assert rm._AXIALS[id(other["map"])][0] is other["map"]


def _played(data: dict[str, Any], seed: int) -> list[Any]:
    t = Table(ENGINE, ENGINE.setup(data, {}), seed=seed, check=False)
    rng = random.Random(seed)
    states = []
    for _ in range(700):
        if t.over():
            break
        t.decide(t.asked(), t.choose(t.asked(), rng))  # type: ignore[arg-type]
        states.append({k: v for k, v in t.state.items() if k not in STATIC_KEYS})
    return states


def test_a_game_played_with_the_seeded_tables_is_the_game_played_without() -> None:
    seeded, lazy = _loaded(True), _loaded(False)
    assert _played(seeded, 4) == _played(lazy, 4)
