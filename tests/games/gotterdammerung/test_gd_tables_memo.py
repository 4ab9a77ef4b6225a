"""Götterdämmerung: what tables.py remembers (issue 29) is what it works out afresh.

- parse_result is remembered by its code and table (a frozen Result handed out again):
  each code of both CRTs parses to what `_parse_result` gives, asked once or twice, and a
  code no table defines is refused each time.
- odds reads the columns' ratios remembered by the labels themselves: a table whose
  columns differ (fewer, or other labels) gets its own.
- victory's VP hexes remembered per loaded map (supply._per_map) are `vp_hexes`; another
  map object (its VP edited) has its own.
"""

from __future__ import annotations

import pytest

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import tables as t
from pbem.games.gotterdammerung import victory


def test_parse_result_remembered_is_the_parse() -> None:
    data = t.default_tables()
    codes = {(code, t.SOVIET) for row in data["soviet_crt"] for code in row}
    for grid in data["german_crt"].values():
        codes |= {(code, t.GERMAN) for row in grid for code in row}
    assert len(codes) > 5
    for code, crt in sorted(codes):
        fresh = t._parse_result(code, crt)
        assert t.parse_result(code, crt) == fresh
        assert t.parse_result(code, crt) == fresh  # (remembered)
    for _ in range(2):
        with pytest.raises(ValueError):
            t.parse_result("9Q", t.SOVIET)


def test_odds_of_other_columns_are_their_own() -> None:
    data = t.default_tables()
    first = t.odds(data, 7, 2)
    assert t._column_ratios(tuple(data["columns"])) == [t._odds(label) for label in data["columns"]]
    fewer = {**data, "columns": [c for c in data["columns"] if c != first.ratio]}
    other = t.odds(fewer, 7, 2)
    assert other.ratio != first.ratio
    assert other.ratio in fewer["columns"]
    assert t.odds(data, 7, 2) == first


def test_vp_hexes_remembered_per_map() -> None:
    board = md.default_map()
    assert victory._vp_values(board) == victory.vp_hexes(board)
    h = next(iter(victory.vp_hexes(board)))
    edited = {**board, "vp": [item for item in board["vp"] if str(item["hex"]) != h]}
    assert h not in victory._vp_values(edited)
    assert victory._vp_values(edited) == victory.vp_hexes(edited)
    assert victory.soviet_hex_vp(edited, [h]) == 0 < victory.soviet_hex_vp(board, [h])
    assert victory.after_entry(edited, (), "soviet", h) == set()
    assert victory.after_entry(board, (), "soviet", h) == {h}
