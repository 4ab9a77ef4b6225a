"""Götterdämmerung: state.py's shorter paths give what the plain code they replace gives:
`on_map` (every unit in one C-level test, else the comprehension), `mover` (the counter and
the movement read in line for a unit that is not Volkssturm), `enemy_hexes`."""

from __future__ import annotations

from typing import Any

import pytest

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
