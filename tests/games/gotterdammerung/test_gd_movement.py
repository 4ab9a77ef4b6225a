"""Götterdämmerung movement rules (rulebook 5.1-5.3, the step parts of 5.4): movement.py.

The shipped map is a stand-in, so each test first gives the hexes it uses the terrain the
rulebook's example states (on a fresh copy of the map)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import map_data as m
from pbem.games.gotterdammerung import movement as mv
from pbem.games.gotterdammerung import tables as t

A, B, C = "op:1010", "op:1011", "op:1012"  # a line of adjacent Operational hexes


@pytest.fixture(scope="module")
def shipped() -> dict[str, Any]:
    return m.default_map()


@pytest.fixture()
def board(shipped: dict[str, Any]) -> dict[str, Any]:
    b = copy.deepcopy(shipped)
    for h in (A, B, C):
        b["hexes"][h]["terrain"] = "clear"
        b["hexes"][h]["fortified"] = False
    for x, y in ((A, B), (B, C)):
        b["hexsides"].pop(m.side_key(x, y), None)
        m.changed(b)
    return b


@pytest.fixture(scope="module")
def tables() -> dict[str, Any]:
    return t.default_tables()


def unit(side: str = "german", cls: str = "foot", movement: int = 4, branch: str = "") -> dict:
    return {
        "id": "u",
        "name": "Test unit",
        "side": side,
        "class": cls,
        "branch": branch or ("armour" if cls == "vehicle" else "infantry"),
        "movement": movement,
    }


def side(board: dict[str, Any], a: str, b: str, *features: str) -> None:
    board["hexsides"][m.side_key(a, b)] = sorted(features)
    m.changed(board)


def test_5_12_foot_unit_into_a_city_hex_spends_2(board: dict, tables: dict) -> None:
    for city in ("small-city", "major-city"):
        board["hexes"][B]["terrain"] = city
        assert mv.step_cost(board, tables, unit(), A, B) == 2


def test_5_12_vehicle_into_forest_across_a_minor_river_spends_4(board: dict, tables: dict) -> None:
    board["hexes"][B]["terrain"] = "forest"
    side(board, A, B, "minor-river")
    assert mv.step_cost(board, tables, unit(cls="vehicle"), A, B) == 4


def test_5_31_vehicle_into_forest_across_a_major_river_spends_7(board: dict, tables: dict) -> None:
    board["hexes"][B]["terrain"] = "forest"
    side(board, A, B, "major-river")
    assert mv.step_cost(board, tables, unit(cls="vehicle"), A, B) == 7


def test_5_18_delay_marker_example_5_less_2_moves_3() -> None:
    assert mv.movement_points(unit(side="soviet", movement=5), delay=-2) == 3
    assert mv.movement_points(unit(side="soviet", movement=1), delay=-2) == 0


def test_5_19_out_of_supply_soviet_halved_rounded_up() -> None:
    assert mv.movement_points(unit(side="soviet", movement=5), halved=True) == 3
    assert mv.movement_points(unit(side="german", movement=5), halved=True) == 5


def test_5_32_road_along_the_hexside_replaces_the_terrain(board: dict, tables: dict) -> None:
    board["hexes"][B]["terrain"] = "forest"
    side(board, A, B, "major-river", "road")
    road = tables["hexside_terrain"]["road"]["vehicle"]
    v = unit(cls="vehicle")
    assert mv.step_cost(board, tables, v, A, B) == road
    # weak ZOC to weak ZOC withholds the benefit (5.32); an overrun too (7.29, +3 of 7.1)
    assert mv.step_cost(board, tables, v, A, B, no_road=lambda a, b: True) == 7
    assert mv.step_cost(board, tables, v, A, B, overrun=True) == 10


def test_5_32_a_road_in_the_hex_alone_gives_no_benefit(board: dict, tables: dict) -> None:
    board["hexes"][B]["terrain"] = "forest"
    side(board, B, C, "road")  # the road runs through B, not along A-B
    assert mv.step_cost(board, tables, unit(cls="vehicle"), A, B) == 2


def test_5_37_fortification_costs_soviet_units_only(board: dict, tables: dict) -> None:
    board["hexes"][B]["fortified"] = True
    assert mv.step_cost(board, tables, unit(side="soviet"), A, B) == 2
    assert mv.step_cost(board, tables, unit(side="german"), A, B) == 1


def test_5_27_and_5_28_prohibited_hexsides(board: dict, tables: dict) -> None:
    side(board, A, B, "sea-lake")
    assert mv.step_cost(board, tables, unit(), A, B) is None
    side(board, A, B, "front-boundary")
    assert mv.step_cost(board, tables, unit(side="soviet"), A, B) is None
    assert mv.step_cost(board, tables, unit(side="german"), A, B) == 1


def test_5_28_zero_allowance_never_moves(board: dict, tables: dict) -> None:
    assert mv.step_cost(board, tables, unit(movement=0, cls="static"), A, B) is None
    with pytest.raises(IllegalOrderError, match="5.28"):
        mv.check_path(board, tables, unit(movement=0, cls="static"), [A, B])


def test_5_29_soviet_depot_only_along_railroads_at_1(board: dict, tables: dict) -> None:
    depot = unit(side="soviet", branch="depot", movement=4)
    board["hexes"][B]["terrain"] = "forest"
    assert mv.step_cost(board, tables, depot, A, B) is None
    side(board, A, B, "railroad", "major-river")
    assert mv.step_cost(board, tables, depot, A, B) == 1


def test_5_22_zoc_cost_is_added_or_forbids(board: dict, tables: dict) -> None:
    assert mv.step_cost(board, tables, unit(), A, B, zoc_cost=lambda a, b: 3) == 4
    assert mv.step_cost(board, tables, unit(), A, B, zoc_cost=lambda a, b: None) is None


def test_path_cost_adds_up(board: dict, tables: dict) -> None:
    board["hexes"][C]["terrain"] = "forest"
    assert mv.path_cost(board, tables, unit(), [A, B, C]) == 3
    assert mv.path_cost(board, tables, unit(), [A, C]) is None  # not adjacent (5.0)


def test_check_path_limits_and_the_5_23_minimum_move(board: dict, tables: dict) -> None:
    board["hexes"][B]["terrain"] = "forest"
    side(board, A, B, "major-river")
    v = unit(cls="vehicle", movement=4)
    assert mv.check_path(board, tables, v, [A, B]) == 7  # 5.23: one hex, whatever it costs
    with pytest.raises(IllegalOrderError, match="needs 8 movement points but has 4"):
        mv.check_path(board, tables, v, [A, B, C])
    with pytest.raises(IllegalOrderError, match="has 4"):
        mv.check_path(board, tables, unit("soviet", "vehicle"), [A, B], phase="breakthrough")
    # the minimum move does not pass a forbidden step (5.23: strong ZOC to strong ZOC)
    with pytest.raises(IllegalOrderError, match="may not move"):
        mv.check_path(board, tables, v, [A, B], zoc_cost=lambda a, b: None)


def test_5_21_and_5_22_enemy_hexes_and_strong_zoc_stop(board: dict, tables: dict) -> None:
    with pytest.raises(IllegalOrderError, match="5.21"):
        mv.check_path(board, tables, unit(), [A, B], enemy={B})
    with pytest.raises(IllegalOrderError, match="5.22"):
        mv.check_path(board, tables, unit(), [A, B, C], stops=lambda h: h == B)
    assert mv.check_path(board, tables, unit(), [A, B], stops=lambda h: h == B) == 1


def test_5_41_transition_entry_costs_3_and_5_44_ends_the_move(shipped: dict, tables: dict) -> None:
    board = copy.deepcopy(shipped)
    op, tr, beyond = "op:2419", "op:2420", "op:2421"
    board["hexsides"].pop(m.side_key(op, tr), None)
    m.changed(board)
    board["hexsides"].pop(m.side_key(tr, beyond), None)
    m.changed(board)
    for cls in ("foot", "vehicle"):
        assert mv.step_cost(board, tables, unit(cls=cls), op, tr) == 3
    with pytest.raises(IllegalOrderError, match="5.44"):
        mv.check_path(board, tables, unit(movement=9), [op, tr, beyond])
    # 5.33: with the benefit a German unit entering by road goes on, Transition to Transition
    # at the road's cost
    side(board, op, tr, "road")
    road = tables["hexside_terrain"]["road"]["foot"]
    cost = mv.check_path(board, tables, unit(movement=9), [op, tr, beyond], transition_roads=True)
    assert cost == 2 * road
    # 5.34: a German unit may not use the road into a Soviet Occupied Transition Hex
    assert mv.step_cost(board, tables, unit(), op, tr, soviet_occupied={tr}) == 3
    assert mv.step_cost(board, tables, unit(side="soviet"), op, tr, soviet_occupied={tr}) == road


def test_5_45_never_from_a_city_hex_into_a_transition_hex(shipped: dict, tables: dict) -> None:
    assert mv.step_cost(shipped, tables, unit(), "city:1019", "op:2420") is None
    assert mv.step_cost(shipped, tables, unit(), "op:2420", "city:1019") is not None


def test_5_46_siege_movement_stays_on_the_city_map(shipped: dict, tables: dict) -> None:
    soviet = unit(side="soviet")
    with pytest.raises(IllegalOrderError, match="5.46"):
        mv.check_path(shipped, tables, soviet, ["op:2420", "op:2419"], phase="siege")
    assert mv.check_path(shipped, tables, soviet, ["op:2420", "city:1019"], phase="siege") >= 1


def test_5_26_the_ngp_box_from_a_red_arrow_only_and_no_return(shipped: dict, tables: dict) -> None:
    assert mv.step_cost(shipped, tables, unit(), "op:0316", mv.NGP) == 1  # a plain hex
    road = tables["hexside_terrain"]["road"]["vehicle"]
    assert mv.step_cost(shipped, tables, unit(cls="vehicle"), "op:0516", mv.NGP) == road
    assert mv.step_cost(shipped, tables, unit(), A, mv.NGP) is None
    assert (
        mv.step_cost(shipped, tables, unit(side="soviet", branch="depot"), "op:0316", mv.NGP)
        is None
    )
    with pytest.raises(IllegalOrderError, match="5.26"):
        mv.check_path(shipped, tables, unit(), ["op:0316", mv.NGP, "op:0316"])


def test_5_16_5_54_5_55_who_moves_in_the_extra_phases(shipped: dict, tables: dict) -> None:
    with pytest.raises(IllegalOrderError, match="counter-move"):
        mv.check_path(shipped, tables, unit("german", "foot"), [A, B], phase="counter-move")
    tank = unit("german", "vehicle", movement=20)
    assert mv.check_path(shipped, tables, tank, [A, B], phase="counter-move") >= 1
    with pytest.raises(IllegalOrderError, match="5.54"):
        mv.check_path(
            shipped,
            tables,
            unit("german", "vehicle"),
            ["city:1019", "city:1020"],
            phase="counter-move",
        )
    with pytest.raises(IllegalOrderError, match="5.16"):
        mv.check_path(
            shipped, tables, unit("soviet", "vehicle"), ["op:2420", "op:2419"], phase="breakthrough"
        )
