"""Götterdämmerung: state.py's shorter paths give what the plain code they replace gives:
`on_map` (every unit in one C-level test, else the comprehension), `mover` (the counter and
the movement read in line for a unit that is not Volkssturm), `enemy_hexes`."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.canonical import copy_json
from pbem.games.gotterdammerung import state as gs
from tests.games.gotterdammerung import gd_games


def plain_on_map(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [u for u in state["units"].values() if u["hex"] not in (None, gs.NGP)]


def plain_mover(state: dict[str, Any], unit: dict[str, Any]) -> dict[str, Any]:
    c = gs.counter(state, unit["id"])
    foot = {"class": "foot"} if unit.get("volkssturm") and "class" not in c else {}
    return {**c, **foot, **unit, "name": unit["id"], "movement": gs.face(state, unit)["movement"]}


def plain_enemy_hexes(state: dict[str, Any], side: str) -> set[str]:
    return {u["hex"] for u in state["units"].values() if u["side"] != side} - {None, gs.NGP}


@pytest.mark.parametrize("n", [0, 150, 400])
def test_as_the_plain_code(n: int) -> None:
    state = gd_games.position(3, min(n, gd_games.length(3) - 1))
    listed = gs.on_map(state)
    assert listed == plain_on_map(state)
    assert all(a is b for a, b in zip(listed, plain_on_map(state), strict=True))
    for side in gs.SIDES:
        assert gs.enemy_hexes(state, side) == plain_enemy_hexes(state, side)
    for unit in state["units"].values():
        assert gs.mover(state, unit) == plain_mover(state, unit)
        reduced = dict(unit, steps=1)  # (a reduced face, where the counter has one)
        assert gs.mover(state, reduced) == plain_mover(state, reduced)
    # units off the maps: in the box, or with no hex
    uids = sorted(state["units"])
    gs.own(state, uids[0])["hex"] = gs.NGP
    gs.own(state, uids[5])["hex"] = None
    assert gs.on_map(state) == plain_on_map(state)
    assert len(gs.on_map(state)) == len(state["units"]) - 2
    for side in gs.SIDES:
        assert gs.enemy_hexes(state, side) == plain_enemy_hexes(state, side)


def test_a_volkssturm_unit_and_a_unit_not_in_the_data() -> None:
    state = gd_games.position(3, gd_games.length(3) - 1)
    vs = [u for u in state["units"].values() if u.get("volkssturm")]
    assert vs  # (the bots place Volkssturm units by the end of a game)
    for unit in vs:
        assert gs.mover(state, unit) == plain_mover(state, unit)
    stranger = {"id": "nobody", "side": "german", "hex": "op:2419", "steps": 1}
    with pytest.raises(Exception, match="there is no unit nobody"):
        gs.mover(state, stranger)


def plain_copy(state: dict[str, Any]) -> dict[str, Any]:
    """copy_state as it was: the parts to copy by copy_json, in this order of keys."""
    shared = {*gs.STATIC_KEYS, "units", "waiting"}
    new = {
        k: v if k in gs._REPLACED_ONLY else copy_json(v)
        for k, v in state.items()
        if k not in shared
    }
    new["waiting"] = dict(state["waiting"])
    new["units"] = dict(state["units"])
    for key in gs.STATIC_KEYS:
        if key in state:
            new[key] = state[key]
    return new


def test_copy_state_as_the_plain_copy_in_the_same_order() -> None:
    """A state in set-up order, a copy of it (the copy's order: its `.copy()` path), and
    one with a key the rules added since (the other path again): equal, keys in the same
    order, nothing mutable shared but the units, the static data and the replaced parts."""
    first = gd_games.position(3, 0)
    second = gs.copy_state(first)
    added = gs.copy_state(second)
    added["split"] = ["sov-x"]
    added["phase_data"]["nested"] = {"a": [1, {"b": "c"}]}
    for state in (first, second, added):
        new = gs.copy_state(state)
        expected = plain_copy(state)
        assert new == expected and list(new) == list(expected)
        for k, v in new.items():
            if k in gs.STATIC_KEYS or k in gs._REPLACED_ONLY or type(v) not in (dict, list):
                continue
            assert v is not state[k], k
        for k, v in state["phase_data"].items():
            if type(v) in (dict, list):
                assert new["phase_data"][k] is not v, k
    assert (
        added["phase_data"]["nested"]["a"] is not gs.copy_state(added)["phase_data"]["nested"]["a"]
    )
