"""Race to the Sea's per-map tables give the answers of the functions they stand for
(issue 29): each is made once per map (by the identity of its loaded data, never changed)
from the map's records or HexGrid's arithmetic, without a call per hex or per pair.
"""

from __future__ import annotations

import pytest

from pbem.core.canonical import copy_json
from pbem.games.race_to_the_sea import entry_index as ei
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea import redeploy, victory
from pbem.games.race_to_the_sea import units as ru
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.maps.hexes import OFFSETS

DATA = ENGINE.load_data({})


def _fresh_map(**changes: object) -> dict[str, object]:
    board: dict[str, object] = copy_json(DATA["map"])  # a map of its own: no table yet
    board.update(changes)
    return board


@pytest.mark.parametrize("offset", OFFSETS)
def test_the_axial_table_is_the_grids_for_every_offset(offset: str) -> None:
    # (the map's hexsides join neighbours of its own offset only: none here)
    board = _fresh_map(offset=offset, rivers=[], trench_line=[], rail_links=[])
    g = rm.grid(board)
    assert dict(rm.axial_table(board)) == {h: g.axial(h) for h in g}
    assert list(rm.axial_table(board)) == list(g.hexes)
    assert redeploy._axial(board) is rm.axial_table(board)


def test_the_victory_table_is_what_the_rules_functions_say() -> None:
    board = _fresh_map()
    table = victory._hex_table(board)
    assert list(table) == list(rm.grid(board).hexes)
    for h, (start, trench, behind) in table.items():
        assert start == mv.initial_control(board, h)
        assert trench == rm.side_of_trench_line(board, h)
        assert behind == frozenset(s for s in mv.SIDES if rm.is_behind_enemy_lines(board, h, s))


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 9])
def test_the_distances_to_targets_are_the_grids(count: int) -> None:
    board = _fresh_map()
    hexes = rm.map_hexes(board)
    targets = tuple(hexes[(i * 37) % len(hexes)] for i in range(count))
    assert dict(ei.distances_to(board, targets)) == ei.strict_distances(board, targets)
    assert ei._each(board, targets) == ei.strict_distances(board, targets)


def test_the_hexes_near_st_quentin_are_the_grids_within_two() -> None:
    board = _fresh_map()
    g = rm.grid(board)
    strict = sorted(
        h
        for h in g.within(rm.hex_of(board, "St Quentin"), 2)
        if rm.terrain(board, h) not in rm.PROHIBITED
    )
    assert list(ei.static_hexes(board, ru.NEAR_ST_QUENTIN)) == strict


def test_no_target_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        ei._each(_fresh_map(), ())


def test_the_allied_start_area_is_the_grids_region() -> None:
    board = _fresh_map()
    assert rm.allied_start_area(board) == rm.strict_allied_start_area(board)
    # and without the Somme, or with the trench line's west side elsewhere
    assert rm._allied_start_area(_fresh_map(rivers=[])) == rm.strict_allied_start_area(
        _fresh_map(rivers=[])
    )


def test_the_adjacency_answers_and_refuses_as_the_grid() -> None:
    board = _fresh_map()
    g, light = rm.grid(board), rm.adjacency(board)
    outside = [0, -1, 9999, 100, 2700, 101.5, "0101", None]
    for h in [*g, *outside]:
        assert (h in light) == (h in g)
    for h in g:
        assert light.neighbours(h) == g.neighbours(h)
        for other in [*g.neighbours(h), h, *outside[:4], h + 2]:
            assert light.adjacent(h, other) == g.adjacent(h, other)
    for h in outside[:5]:
        with pytest.raises(KeyError) as strict:
            g.neighbours(h)  # type: ignore[arg-type]
        with pytest.raises(KeyError) as fast:
            light.neighbours(h)  # type: ignore[arg-type]
        assert str(fast.value) == str(strict.value)


def test_the_hexside_features_are_the_grids() -> None:
    board = _fresh_map()
    g = rm.grid(board)
    features = rm.hexside_features(board)
    for h in g:
        for n in g.neighbours(h):
            assert features.get(frozenset((h, n)), frozenset()) == g.hexside(h, n)
            for feature in (rm.RIVER, rm.TRENCH, rm.RAIL):
                assert rm._has(board, h, n, feature) == g.has(h, n, feature)
    with pytest.raises(ValueError):
        rm._has(board, 101, 105, rm.RIVER)  # not neighbours, as the grid refuses
    with pytest.raises(KeyError):
        rm._has(board, 9999, 101, rm.RIVER)


def test_the_rail_tracks_and_distances_are_the_grids() -> None:
    board = _fresh_map()
    g = rm.grid(board)
    rails = {h for h in g if rm.is_railroad(board, h)}
    strict = {
        h: tuple(n for n in g.neighbours(h) if n in rails and g.has(h, n, rm.RAIL)) for h in rails
    }
    assert rm._rail_tracks(board) == strict
    hexes = list(g)
    for a in hexes[::17]:
        for b in [*hexes[::23], 9999, 0]:
            assert rm.distance(board, a, b) == g.distance(a, b)


@pytest.mark.parametrize("offset", OFFSETS)
def test_the_neighbour_ids_are_the_grids_up_to_the_last_two_digit_rows(offset: str) -> None:
    from pbem.maps.hexes import HexGrid

    for columns, rows in [(98, 3), (3, 98), (99, 2), (2, 99), (99, 99), (4, 5)]:
        g = HexGrid(range(1, columns + 1), range(1, rows + 1), offset=offset)
        hexes, table = rm.grid_neighbours(columns, rows, offset)
        assert tuple(hexes) == g.hexes
        assert table == {h: g.neighbours(h) for h in g}


@pytest.mark.parametrize(
    "control",
    [
        {},
        {"0825": "germans", "1010": "allies"},
        {825: "allies", "0825": "germans", "825": "allies"},
        {"0825": "germans", "825": "allies", "00825": "allies", "0101": ""},
        {"825": "germans", 1010: "allies", "1010": "germans"},
        {"0825": "germans", 825.0: "allies"},
        {"0825": "germans", "abc": "allies"},
    ],
)
def test_the_control_changes_read_once_are_those_asked_hex_by_hex(control: dict) -> None:
    board = _fresh_map()
    changes = victory._changes(control)
    if changes is None:
        assert any(type(k) not in (int, str) or not str(k).isdigit() for k in control)
    else:
        for h in rm.map_hexes(board):
            assert (changes.get(h) or None) == (mv._changed(control, h) or None)
    assert victory.victory_hexes(board, control) == victory.strict_victory_hexes(board, control)


def test_the_hex_records_are_those_whose_key_is_a_label() -> None:
    keys = ["0101", "101", "00101", "12345", "01234", "１２３４", "0x10", "", "9999", "10000"]
    board = _fresh_map(hexes={k: {"n": i} for i, k in enumerate(keys)})
    expected = {int(k): {"n": i} for i, k in enumerate(keys) if rm._is_label(k)}
    assert dict(rm.hex_records(board)) == expected
    assert list(rm.hex_records(board)) == list(expected)


def test_the_facts_a_placement_shares_give_what_a_fresh_index_gives() -> None:
    """entry_index.PositionFacts: kept by the position without its batch, shared by the
    indexes of successive placements; each answer equal to an index of its own facts."""
    import random

    from pbem.testing import Table

    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=5, check=False)
    rng = random.Random(5)
    shared = checked = 0
    for _ in range(3000):
        if t.over():
            break
        state = t.state
        if state["step"] == "place" and state["batch"] is not None:
            for side in mv.SIDES:
                index = ei.entry_index(state, side)
                fresh = ei.build(state, side)
                shared += sum(1 for i in ei._MEMO.values() if i.facts is index.facts) > 1
                units = {*state["batch"]["units"], *state["units_data"]["sides"][side]}
                for unit_id in sorted(units):
                    assert index.entry_hexes(unit_id) == fresh.entry_hexes(unit_id), unit_id
                    assert index.listed_hexes(unit_id) == fresh.listed_hexes(unit_id)
                    checked += 1
        t.decide(t.asked(), t.choose(t.asked(), rng))  # type: ignore[arg-type]
    assert checked > 1000 and shared > 10


def test_a_copy_shares_the_decks_until_a_card_is_flipped_on_it() -> None:
    from pbem.core.context import ApplyContext
    from pbem.core.rng import Stream
    from pbem.games.race_to_the_sea import state as rs

    source = ENGINE.setup(DATA, {})
    before = copy_json(source["decks"])
    copy = rs.copy_state(source)
    assert copy["decks"] is source["decks"]
    ctx = ApplyContext(Stream(b"\x01" * 32), 1, 2, {}, (), (), {})
    card = rs.flip_card(copy, "germans", ctx, "a test")
    assert source["decks"] == before  # the source's decks untouched
    assert copy["decks"] is not source["decks"]
    assert copy["decks"]["allies"] == before["allies"]
    assert copy["decks"]["germans"]["discard"] == [*before["germans"]["discard"], card]
    assert list(copy["decks"]) == list(before)  # (the sides in their order)


def test_a_copy_shares_the_control_record_until_control_changes_on_it() -> None:
    from pbem.games.race_to_the_sea import state as rs

    source = ENGINE.setup(DATA, {})
    source["counters"]["c01"] = {
        "side": "germans",
        "nationality": "german",
        "hex": 101,
        "cavalry": False,
        "scouting": False,
        "unit": None,
        "activated": False,
    }
    before = dict(source["control"])
    copy = rs.copy_state(source)
    assert copy["control"] is source["control"]
    target = next(
        h for h in rm.map_hexes(DATA["map"]) if mv.initial_control(DATA["map"], h) == "allies"
    )
    rs.take_control(copy, "c01", target)
    assert source["control"] == before and copy["control"] is not source["control"]
    assert copy["control"][mv.hex_label(target)] == "germans"
