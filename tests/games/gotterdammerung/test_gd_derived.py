"""Götterdämmerung: the per-map tables made with the loaded data (derived.py) are the tables
the lazy builders make for a map of their own; a game set up with them plays as one that
builds them; a map with other fronts (12.35) is not given them; and once a map is edited
(`map_data.changed`), what was seeded is not used."""

from __future__ import annotations

import copy
import marshal
from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.games.gotterdammerung import derived, supply, victory, zoc
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung.rules import ENGINE
from pbem.testing import Table


def _lazy(board: Any) -> dict[str, Any]:
    """The tables of `board` as the lazy builders make them (a map object never seeded)."""
    per_map: dict[str, Any] = {}
    for what, side, on in derived.PER_MAP:
        build = supply._steps if what == "steps" else supply._back_steps
        per_map[f"{what} {side} {on}"] = build(board, side, on)
    for side, on, edge in derived.EDGE_DISTANCES:
        ends = frozenset(md.edge_hexes(board, edge))
        per_map[f"distances {side} {on} {edge}"] = supply._distances_to(board, side, on, ends)
    per_map["closed"] = supply._closed(board)
    per_map["rail"] = supply._rail_links(board)
    per_map["exit hexes"] = victory._exits(board)
    return {"sides": md._sides(board), "per_map": per_map, "limits": zoc._limits(board)}


def _sets(value: Any) -> bool:
    """Does `value` hold a set or frozenset anywhere?"""
    if isinstance(value, (set, frozenset)):
        return True
    if isinstance(value, dict):
        return any(_sets(k) or _sets(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_sets(v) for v in value)
    return False


def test_the_loaded_tables_are_those_built_lazily() -> None:
    data = ENGINE.load_data({})
    made = data["derived"]
    assert set(made["per_map"]) == {f"{w} {s} {o}" for w, s, o in derived.PER_MAP} | {
        f"distances {s} {o} {e}" for s, o, e in derived.EDGE_DISTANCES
    } | {"closed", "rail", "exit hexes"}
    fresh = copy.deepcopy(data["map"])  # (another map object: its own lazy tables)
    lazy = _lazy(fresh)
    assert {**made, "per_map": derived._as_built(made["per_map"])} == lazy
    # the data shows alike however it was made: no set in it (a set's order is its history's)
    assert repr(made) == repr(marshal.loads(marshal.dumps(made)))
    assert not _sets(made)
    # seeded: the builders answer with the loaded tables themselves
    state = ENGINE.setup(data, {})
    board = state["board"]
    assert board is data["map"]
    assert md._sides(board) is made["sides"]
    assert supply._steps(board, "soviet", md.OP) is made["per_map"]["steps soviet op"]
    east = frozenset(md.edge_hexes(board, "east"))
    assert (
        supply._distances_to(board, "soviet", md.OP, east)
        is made["per_map"]["distances soviet op east"]
    )
    assert supply._closed(board) == lazy["per_map"]["closed"]
    assert supply._rail_links(board) == lazy["per_map"]["rail"]
    assert victory._exits(board) == lazy["per_map"]["exit hexes"]
    assert zoc._limits(board) is made["limits"]


def test_a_game_with_the_tables_is_the_game_without(monkeypatch: pytest.MonkeyPatch) -> None:
    def play(seed: int) -> tuple[bytes, list[Any]]:
        table = Table(ENGINE, seed=seed)
        table.play()
        plain = {k: v for k, v in table.state.items() if k not in ("board", "tables", "counters")}
        return canonical_bytes(plain), table.history

    seeded = play(7)
    monkeypatch.setattr(derived, "seed", lambda board, made: None)
    assert play(7) == seeded


def test_other_fronts_and_an_edited_map_are_not_given_the_loaded_tables() -> None:
    data = ENGINE.load_data({})
    state = ENGINE.setup(data, {"sixth_ss": True})  # 12.35: the 1BF/2BF boundary goes
    board = state["board"]
    assert board is not data["map"]
    assert md._sides(board) is not data["derived"]["sides"]
    assert (
        supply._steps(board, "soviet", md.OP)
        == _lazy(copy.deepcopy(board))["per_map"]["steps soviet op"]
    )
    # a seeded map, edited: a sea/lake hexside closes a supply step; `changed` forgets
    # the seeded tables, and the builders see the edit
    state = ENGINE.setup(ENGINE.load_data({}), {})
    board = state["board"]
    h, near = next(
        (h, info["neighbours"]) for h, info in board["hexes"].items() if info["neighbours"]
    )
    n = next(n for n in near if n in supply._steps(board, "german", None)[h])
    board["hexsides"][md.side_key(h, n)] = ["sea-lake"]
    md.changed(board)
    assert n not in supply._steps(board, "german", None)[h]
    assert _lazy(board) == _lazy(copy.deepcopy(board))
