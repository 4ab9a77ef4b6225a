"""Götterdämmerung: zoc_index (the enemy ZOC and broken stacks kept up to date from one
position to the next) gives what the strict computations give, and never answers from a
position that has changed since: units moved, disrupted or changed in place (in a state's
copy-on-write units, through `state.own`, or in a caller's own list), units come and gone,
lists of other units, and a unit listed twice."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import units_owned, zoc, zoc_index
from tests.games.gotterdammerung import gd_games

Unit = Mapping[str, Any]


def same_as_strict(board: Any, data: Any, units: Sequence[Unit]) -> None:
    """Every fast answer about `units` equals the strict one (maps compared as dicts)."""
    listed = list(units)
    on_maps = [u for u in listed if u["hex"] not in (None, gs.NGP)]
    for side in gs.SIDES:
        assert dict(zoc._zone(board, data, on_maps, side)) == dict(
            zoc.zone_strict(board, data, on_maps, side)
        )
        assert dict(zoc.zone_of_all(board, data, listed, side)) == dict(
            zoc.zone_of_all_strict(board, data, listed, side)
        )
    both = zoc.zones_of_both(board, data, on_maps, gs.SIDES)
    strict = zoc.zones_strict(board, data, on_maps, gs.SIDES)
    assert {s: dict(z) for s, z in both.items()} == {s: dict(z) for s, z in strict.items()}
    assert zoc.end_of_phase_problems(board, data, on_maps) == zoc.end_of_phase_strict(
        board, data, on_maps
    )


@pytest.fixture(scope="module")
def start() -> dict[str, Any]:
    return gd_games.position(3, 200)


def hexes_of(board: Any) -> list[str]:
    return sorted(h for h in board["hexes"] if md.kind(board, h) != md.UNUSED)


def test_positions_of_a_bot_game_as_the_strict_answers() -> None:
    """Consecutive positions of a seeded bot game (each a fresh copy: nothing frozen)."""
    first = gd_games.position(4, 0)
    board, data = first["board"], first["counters"]
    for n in range(0, min(900, gd_games.length(4) - 1), 7):
        same_as_strict(board, data, gs.on_map(gd_games.position(4, n)))


def test_copy_on_write_states_changed_as_the_engine_does(start: dict[str, Any]) -> None:
    """States copied with copy_state and changed through state.own, some units moved, some
    disrupted, one changed again in place after being asked about, units removed and put
    back: each position's answers are the strict ones."""
    board, data = start["board"], start["counters"]
    hexes = hexes_of(board)
    rng = random.Random(29)
    state = gs.copy_state(start)
    same_as_strict(board, data, gs.on_map(state))
    removed: list[dict[str, Any]] = []
    for step in range(120):
        state = gs.copy_state(state)
        ids = sorted(state["units"])
        for uid in rng.sample(ids, rng.choice((1, 1, 2, 5, 30))):
            unit = gs.own(state, uid)
            if rng.random() < 0.7:
                unit["hex"] = rng.choice(hexes)
            else:
                unit["disrupted"] = not unit.get("disrupted")
        if step % 9 == 4:
            uid = rng.choice(sorted(state["units"]))
            removed.append(state["units"].pop(uid))
        if step % 13 == 6 and removed:
            gs.put(state, dict(removed.pop()))
        same_as_strict(board, data, state["units"].values())
        # the unit just asked about, changed in place (it is this state's own): seen
        uid = rng.choice(sorted(state["units"]))
        unit = gs.own(state, uid)
        unit["hex"] = rng.choice(hexes)
        same_as_strict(board, data, state["units"].values())


def test_a_callers_own_list_changed_in_place(start: dict[str, Any]) -> None:
    """Dicts no state holds (a deep copy) changed in place between two questions."""
    board, data = start["board"], start["counters"]
    units = copy.deepcopy(gs.on_map(start))
    hexes = hexes_of(board)
    rng = random.Random(5)
    for _ in range(40):
        same_as_strict(board, data, units)
        u = rng.choice(units)
        choice = rng.random()
        if choice < 0.5:
            u["hex"] = rng.choice(hexes)
        elif choice < 0.7:
            u["disrupted"] = not u.get("disrupted")
        elif choice < 0.85:
            u["side"] = gs.other(u["side"])  # (not a rule: every fact read is compared)
        else:
            u["volkssturm"] = not u.get("volkssturm")
    same_as_strict(board, data, units)


def test_other_lists_and_a_unit_listed_twice(start: dict[str, Any]) -> None:
    """Lists of other units in turn (the index keeps a few), and a list with a unit twice
    (only the strict computation answers it)."""
    board, data = start["board"], start["counters"]
    units = gs.on_map(start)
    rng = random.Random(3)
    lists = [units, units[::2], [u for u in units if u["side"] == "german"], units[5:]]
    for _ in range(3):
        for listed in rng.sample(lists, len(lists)):
            same_as_strict(board, data, listed)
    twice = [*units, units[0]]
    same_as_strict(board, data, twice)
    stranger = {"id": "nobody", "side": "german", "hex": units[0]["hex"]}
    with pytest.raises(ValueError, match="nobody is not in the counters data"):
        zoc._zone(board, data, [*units, stranger], "soviet")
    with pytest.raises(ValueError, match="nobody is not in the counters data"):
        zoc.zone_of_all(board, data, [*units, stranger], "soviet")


def test_a_given_map_is_never_changed_afterwards(start: dict[str, Any]) -> None:
    """A caller may hold the map of an earlier position: an update makes a new one."""
    board, data = start["board"], start["counters"]
    state = gs.copy_state(start)
    before = zoc._zone(board, data, gs.on_map(state), "soviet")
    kept = dict(before)
    state = gs.copy_state(state)
    german = next(u for u in gs.on_map(state) if u["side"] == "german")
    gs.own(state, german["id"])["hex"] = next(
        h for h in hexes_of(board) if h not in before and md.kind(board, h) == md.OPERATIONAL
    )
    after = zoc._zone(board, data, gs.on_map(state), "soviet")
    assert dict(before) == kept
    assert dict(after) == dict(zoc.zone_strict(board, data, gs.on_map(state), "soviet"))


def test_a_dict_the_newest_state_owns_is_held_as_a_copy(start: dict[str, Any]) -> None:
    """What makes a remembered list safe: only unit dicts no state may change again are
    held themselves (state.py's copy-on-write), any other is copied."""
    state = gs.copy_state(start)
    uid = sorted(state["units"])[0]
    owned = gs.own(state, uid)
    other = next(u for k, u in state["units"].items() if k != uid)
    frozen = units_owned.frozen_test()
    assert not frozen(owned)
    assert frozen(other)
    assert not frozen(dict(other))  # (a dict no state holds)
    kept, copied = zoc_index._kept(owned, frozen)
    assert copied and kept == owned and kept is not owned
