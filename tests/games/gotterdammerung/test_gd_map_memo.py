"""Götterdämmerung: map_data's derived lookups (`_sides`, `_fronts`, hex_at's answers) and
the token other modules key their per-map memos on. The hexside table built in one pass over
the hexsides is the one built pair by pair; the token of the map asked last is one identity
test away, and is never that of another map object, nor of a map edited and `changed`."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from pbem.games.gotterdammerung import map_data as md


def plain_sides(board: Any) -> dict[tuple[str, str], tuple[str, ...]]:
    """Every ordered pair of neighbours -> its hexside's features, key by key (as built
    before the one-pass table)."""
    sides = {}
    for h, info in board["hexes"].items():
        for n in info["neighbours"]:
            sides[(h, n)] = tuple(board["hexsides"].get(md.side_key(h, n), ()))
    return sides


@pytest.fixture
def board() -> dict[str, Any]:
    return copy.deepcopy(md.default_map())


def test_the_sides_table_is_the_pair_by_pair_one(board: dict[str, Any]) -> None:
    assert md._build_sides(board) == plain_sides(board)
    assert any(features for features in md._build_sides(board).values())


def test_the_sides_table_is_the_pair_by_pair_one_for_odd_maps(board: dict[str, Any]) -> None:
    """Hexsides between hexes that are not neighbours, keys written unsorted or of one hex,
    features listed for a hex with no neighbours, ids that hold the separator."""
    hexsides = board["hexsides"]
    a, b = "op:2419", "op:2520"
    assert b in board["hexes"][a]["neighbours"]
    hexsides[f"{b}|{a}"] = ["sea-lake"]  # unsorted: never looked up
    hexsides[f"{a}|op:3030"] = ["river"]  # not neighbours
    hexsides[f"{a}|{a}"] = ["river"]
    hexsides["no separator"] = ["river"]
    hexsides["op:2321|op:2322"] = ["river"]  # unused hexes: no neighbours
    assert md._build_sides(board) == plain_sides(board)
    board["hexes"][a]["neighbours"].append(a)  # a hex beside itself
    assert md._build_sides(board) == plain_sides(board)
    odd = {"hexes": {"x|y": {"neighbours": ["z"]}, "z": {"neighbours": ["x|y"]}}}
    odd["hexsides"] = {"x|y|z": ["river"], "x|y": ["elbe"]}
    assert (
        md._build_sides(odd)
        == plain_sides(odd)
        == {("x|y", "z"): ("river",)} | {("z", "x|y"): ("river",)}
    )


def test_the_token_is_the_map_s_own(board: dict[str, Any], monkeypatch: Any) -> None:
    # An empty memo: a full one is cleared when `other` comes in (other tests' maps), and
    # the board's lookups are then rebuilt (equal, but not the same object).
    monkeypatch.setattr(md, "_DERIVED", {})
    monkeypatch.setattr(md, "_LAST", (None, {}, {}))
    token = md._sides(board)
    assert md._sides(board) is token and md._derived(board)["sides"] is token
    other = json.loads(json.dumps(board))  # equal, another object: its own lookups
    other_token = md._sides(other)
    assert other_token is not token and other_token == token
    assert md._sides(board) is token  # (asked again after the other: the same)
    assert md._sides(other) is other_token


def test_an_edited_and_changed_map_gets_new_lookups(board: dict[str, Any]) -> None:
    """The map asked last, edited and `changed`, is never answered from what was derived
    before (as zoc.py and supply.py rely on: their memos go with the token)."""
    a, b = "op:2419", "op:2520"
    md.hexside(board, a, b)
    token = md._sides(board)
    assert md.full_lake(board, a, b) is False
    board["hexsides"][md.side_key(a, b)] = ["sea-lake"]
    md.changed(board)
    assert md._sides(board) is not token
    assert md.full_lake(board, a, b) is True
    assert md.hexside(board, b, a) == ["sea-lake"]
    # not the map asked last when changed: the same
    other = json.loads(json.dumps(board))
    md._sides(other)
    token = md._sides(board)
    del board["hexsides"][md.side_key(a, b)]
    md._sides(other)
    md.changed(board)
    assert md._sides(board) is not token and md.full_lake(board, a, b) is False


def test_hex_at_answers_belong_to_their_map(board: dict[str, Any]) -> None:
    assert md.hex_at(board, "2420") == "op:2420"
    other = json.loads(json.dumps(board))
    del other["hexes"]["op:2420"]
    other["transition"].remove("op:2420")
    md.changed(other)
    with pytest.raises(ValueError):
        md.hex_at(other, "2420")
    assert md.hex_at(board, "2420") == "op:2420"
