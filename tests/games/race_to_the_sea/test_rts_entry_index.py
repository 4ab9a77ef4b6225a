"""The entry hexes derived once per position (entry_index.py) equal a fresh rescan of the
state, over every placement of seeded bot games, and a memoised index is never used for a
state that changed in place since (issue 29: the fast path gives the strict answer).

The rescan below is the rules as state.py computed them before the index (a call of
`entry_hexes` read the control of the map, every counter and the railroads afresh)."""

from __future__ import annotations

import random

import pytest

from pbem.core.engine import State
from pbem.games.race_to_the_sea import entry_index as ei
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea import units as ru
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.state import (
    SIDES,
    control_of,
    entry_hexes,
    hex_text,
    listed_hexes,
    positions,
    unit,
)
from pbem.testing import Table
from tests.games.race_to_the_sea import rts_games

DATA = ENGINE.load_data({})


# --- the rescan (the strict path) -------------------------------------------------------------


def scan_named(state: State, location: str, side: str) -> list[int]:
    board = state["board"]
    if location == ru.START_AREA:
        return list(rm.allied_start_area(board))
    if location == ru.NEAR_ST_QUENTIN:
        g = rm.grid(board)
        return sorted(
            h
            for h in g.within(rm.hex_of(board, "St Quentin"), 2)
            if rm.terrain(board, h) not in rm.PROHIBITED
        )
    if location == "A":
        return list(board["antwerp"])
    if location == "GRL":
        return scan_grl(state, side)
    return [rm.hex_of(board, location)]


def scan_grl(state: State, side: str) -> list[int]:
    board = state["board"]
    mons = rm.hex_of(board, "Mons")
    out = [mons]
    if control_of(state, mons) != side:
        return out
    nml = mv.nml_hexes(board, positions(state), side)
    used = state["batch"]["grl_used"] if state["batch"] else []

    def friendly(h: int) -> bool:
        return control_of(state, h) == side

    for name in ("Cambrai", "Valenciennes"):
        h = rm.hex_of(board, name)
        if h in nml or h in used or not friendly(h):
            continue
        if rm.rail_connected(board, h, mons, friendly):
            out.append(h)
    return out


def scan_entry(state: State, unit_id: str, side: str) -> list[int]:
    location = unit(state, unit_id)["entry"]["location"]
    if location == ru.WITH_FIRST_UNITS:
        batch = state["batch"] or {"units": []}
        found: set[int] = set()
        for other_id in batch["units"]:
            if unit(state, other_id)["entry"]["location"] != ru.WITH_FIRST_UNITS:
                found.update(scan_entry(state, other_id, side))
        return sorted(found)
    listed = scan_named(state, location, side)
    enemy = mv.enemy_hexes(positions(state), side)
    good = [h for h in listed if control_of(state, h) == side and h not in enemy]
    if good or location == "GRL" and len(listed) > 1:
        return good
    g = rm.grid(state["board"])
    friendly = frozenset(h for h in g.hexes if control_of(state, h) == side)
    candidates = sorted(friendly - enemy)
    if not candidates or not listed:
        return []
    best = min(min(g.distance(h, t) for t in listed) for h in candidates)
    return sorted(h for h in candidates if min(g.distance(h, t) for t in listed) == best)


def scan_listed(state: State, unit_id: str, side: str) -> list[int]:
    location = unit(state, unit_id)["entry"]["location"]
    if location == ru.WITH_FIRST_UNITS:
        return scan_entry(state, unit_id, side)
    return scan_named(state, location, side)


# --- the comparisons ---------------------------------------------------------------------------


def asked_units(state: State, side: str) -> list[str]:
    """Units whose entry hexes the position may be asked: the batch's and its False
    Reports; for the side placing, every unit of its tables too (the fallback, GRL and
    every location)."""
    batch = state["batch"]
    every = state["units_data"]["sides"][side] if side == batch["side"] else []
    return sorted({*batch["units"], *batch["false_ids"], *every})


def mismatches(state: State) -> list[str]:
    out = []
    for side in SIDES:
        for unit_id in asked_units(state, side):
            slow = scan_entry(state, unit_id, side)
            for _ in range(2):  # the second answer comes from the memo
                fast = entry_hexes(state, unit_id, side)
                if fast != slow:
                    out.append(f"entry {unit_id} {side}: {fast} != {slow}")
            fast, slow = listed_hexes(state, unit_id, side), scan_listed(state, unit_id, side)
            if fast != slow:
                out.append(f"listed {unit_id} {side}: {fast} != {slow}")
    return out


@pytest.mark.parametrize("seed", [3])
def test_the_index_equals_a_rescan_at_every_placement_of_bot_games(seed: int) -> None:
    checked = 0
    for state in rts_games.placements(seed):  # (the game test_rts_fast_paths.py reads too)
        assert mismatches(state) == [], f"seed {seed}, turn {state['turn']}"
        checked += 1
    assert rts_games.finished(seed) and checked > 40


def placing_table(seed: int = 5) -> Table:
    """A game at its first German placement of turn 2 (GRL and Mons in play)."""
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=seed, check=False)
    rng = random.Random(seed)
    for _ in range(5000):
        s = t.state
        if s["step"] == "place" and s["turn"] >= 2 and s["batch"]["side"] == "germans":
            return t
        t.decide(t.asked(), t.choose(t.asked(), rng))  # type: ignore[arg-type]
    raise AssertionError("no German placement")


def test_a_state_changed_in_place_never_finds_the_stale_index() -> None:
    state = placing_table().state
    side = "germans"
    batch_unit = state["batch"]["units"][0]
    before = entry_hexes(state, batch_unit, side)  # memoised now
    assert before == scan_entry(state, batch_unit, side) and before
    # an enemy counter in the first hex, and the control of the second taken, in place
    first = before[0]
    state["counters"]["c99"] = {**next(iter(state["counters"].values())), "side": "allies"}
    state["counters"]["c99"]["hex"] = first
    assert first not in entry_hexes(state, batch_unit, side)
    assert entry_hexes(state, batch_unit, side) == scan_entry(state, batch_unit, side)
    for h in before:
        state["control"][hex_text(h)] = "allies"
    assert entry_hexes(state, batch_unit, side) == scan_entry(state, batch_unit, side)
    # a flooded hex and a used Cambrai slot change the answer too
    state["flooded"].append(before[-1])
    state["batch"]["grl_used"].append(rm.hex_of(state["board"], "Cambrai"))
    assert mismatches(state) == []
    del state["counters"]["c99"]
    state["control"].clear()
    assert mismatches(state) == []


def test_an_index_reads_only_its_own_copies_of_the_position() -> None:
    state = placing_table().state
    index = ei.entry_index(state, "germans")
    key = ei.position_key(state, "germans")
    state["control"].clear()
    state["counters"].clear()
    assert index.control == dict(key[3]) and index.enemy == key[5]
    assert ei.position_key(state, "germans") != key
    fresh = ei.build(state, "germans")
    assert fresh is not index and ei.entry_index(state, "germans") is not index


def test_the_distances_to_a_set_of_hexes_are_each_hexs_distance_to_the_closest() -> None:
    """7.1.B's closest friendly hex: the breadth-first search over the axial lattice gives
    `Grid.distance` to the closest target, for every hex of the map (a strict scan)."""
    board = DATA["map"]
    hexes = sorted(rm.grid(board).hexes)
    rng = random.Random(29)
    sets = [tuple(ei.static_hexes(board, where)) for where in (ru.START_AREA, "A")]
    sets += [tuple(rng.sample(hexes, k)) for k in (1, 3, 5, 12, 60)]
    corners = (hexes[0], hexes[-1])  # the lattice's far ends
    sets += [corners * 3, (hexes[len(hexes) // 2],) * 5]
    for targets in sets:
        assert ei._spread(board, targets) == ei.strict_distances(board, targets), targets
        assert ei.distances_to(board, targets) == ei.strict_distances(board, targets)
