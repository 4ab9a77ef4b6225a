"""Götterdämmerung German railroad movement (rulebook 5.6, with 5.35, 6.67, 9.16): rail.py.

The railroad lines are the shipped map's stand-in courses; the tests use the Berlin -
Frankfurt line (2420 2419 2519 2518 2517 2516 2615 ...), the Ostbahn (2320 2319 2318 ...),
the Anhalter Bahn to the SW entry hex 4032 and the ring joining the Transition Hexes."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import rail
from pbem.games.gotterdammerung.counters import default_counters
from pbem.games.gotterdammerung.map_data import default_map

BOARD = default_map()
DATA = default_counters()
FRANKFURT = [
    "op:2419", "op:2519", "op:2518", "op:2517", "op:2516", "op:2615", "op:2614", "op:2613",
    "op:2612", "op:2712", "op:2711", "op:2810", "op:2809", "op:2909", "op:2908",
]  # fmt: skip
PANZER = "ger-25-pzg-c"  # a vehicle battalion: counts 1
REGIMENT = "ger-25-pzg-a"  # a vehicle regiment: counts 2
INFANTRY = "ger-281-inf"  # a foot division: counts 1


def unit(ident: str, h: str, **extra: Any) -> dict[str, Any]:
    return {"id": ident, "side": DATA["units"][ident]["side"], "hex": h, "steps": 1, **extra}


def problems(u: dict[str, Any], path: list[str], *others: dict[str, Any], **kw: Any) -> list[str]:
    options: dict[str, Any] = {"phase": "normal", "transition_benefit": False, **kw}
    return rail.rail_problems(BOARD, DATA, [u, *others], u, path, **options)


def test_5_61_a_german_unit_with_movement_moves_by_rail() -> None:
    assert problems(unit(PANZER, "op:2419"), FRANKFURT[:4]) == []
    assert problems(unit(INFANTRY, "op:2419"), FRANKFURT[:4]) == []  # foot units too


def test_5_61_no_soviet_unit_moves_by_rail() -> None:
    corps = unit("sov-8gmc", "op:2419")
    assert problems(corps, FRANKFURT[:3]) == ["sov-8gmc: only German units move by railroad (5.61)"]


def test_5_61_artillery_and_zero_movement_units_may_not() -> None:
    art = unit("ger-18-pzg-4", "op:2419")  # the artillery regiment with movement 3
    assert DATA["units"]["ger-18-pzg-4"]["movement"] == 3
    assert problems(art, FRANKFURT[:3]) == [
        "ger-18-pzg-4 is an artillery unit and may not move by railroad (5.61)"
    ]
    okh = unit("ger-okh", "op:2419")  # movement 0
    assert problems(okh, FRANKFURT[:3]) == [
        "ger-okh has no movement allowance and may not move by railroad (5.61)"
    ]


def test_6_67_a_disrupted_german_unit_may_not_move_by_rail() -> None:
    assert problems(unit(PANZER, "op:2419", disrupted=True), FRANKFURT[:3]) == [
        "ger-25-pzg-c is disrupted and may not move by railroad (6.67)"
    ]


@pytest.mark.parametrize("phase", ["counter-move", "siege", "breakthrough"])
def test_5_65_only_in_the_german_normal_movement_phase(phase: str) -> None:
    assert problems(unit(PANZER, "op:2419"), FRANKFURT[:3], phase=phase) == [
        "railroad movement is only made in the German Normal Movement Phase (5.65)"
    ]


def test_5_13_a_unit_moves_once() -> None:
    assert problems(unit(PANZER, "op:2419", moved=True), FRANKFURT[:3]) == [
        "ger-25-pzg-c has already moved this phase (5.13)"
    ]


def test_5_62_every_step_along_one_continuous_line() -> None:
    u = unit(PANZER, "op:2419")
    # 2419-2418 has no railroad
    assert problems(u, ["op:2419", "op:2418"]) == [
        "ger-25-pzg-c may not move by railroad from op:2419 into op:2418: no railroad line "
        "joins them (5.62)"
    ]
    # 2419 and 2319 are neighbours on different lines: no line joins them
    assert problems(u, ["op:2419", "op:2319", "op:2318"])[0].endswith("(5.62)")
    # a step that leaves the line half-way
    assert problems(u, [*FRANKFURT[:4], "op:2417"])[0].endswith("(5.62)")
    # the path must begin where the unit stands
    assert problems(u, FRANKFURT[1:4]) == ["the path of ger-25-pzg-c must begin at its hex op:2419"]


def test_5_64_no_distance_limit() -> None:
    assert len(FRANKFURT) - 1 > DATA["units"][PANZER]["movement"]
    assert problems(unit(PANZER, "op:2419"), FRANKFURT) == []


def test_5_63_a_unit_in_enemy_zoc_at_the_start_may_not() -> None:
    enemy = unit("sov-11gtc-bg1", "op:2319")  # a weak ZOC on 2419, not on the line beyond
    assert problems(unit(PANZER, "op:2419"), FRANKFURT[:4], enemy) == [
        "ger-25-pzg-c began the phase in enemy ZOC and may not move by railroad (5.63)"
    ]
    # a disrupted enemy exerts no ZOC (4.27)
    assert problems(unit(PANZER, "op:2419"), FRANKFURT[:4], dict(enemy, disrupted=True)) == []


def test_5_63_may_not_enter_a_railroad_hex_in_enemy_zoc() -> None:
    enemy = unit("sov-8gmc", "op:2616")  # 2616 touches 2517
    assert problems(unit(PANZER, "op:2419"), FRANKFURT[:6], enemy) == [
        "ger-25-pzg-c may not enter railroad hex op:2517: it is in enemy ZOC (5.63)"
    ]
    # weak ZOC is enough, and a friendly unit in the hex does not cancel it
    weak = unit("sov-11gtc-bg1", "op:2616")
    friend = unit("ger-281-inf", "op:2517")
    assert problems(unit(PANZER, "op:2419"), FRANKFURT[:6], weak, friend)[0].endswith("(5.63)")
    # stopping short of it is fine
    assert problems(unit(PANZER, "op:2419"), FRANKFURT[:3], enemy) == []


def test_5_21_no_railroad_move_into_an_enemy_unit() -> None:
    depots = [
        i for i, c in DATA["units"].items() if c["branch"] == "depot" and c["side"] == "soviet"
    ]
    depot = unit(depots[0], "op:2518")  # a supply depot exerts no ZOC (4.21)
    assert problems(unit(PANZER, "op:2419"), FRANKFURT[:4], depot) == [
        "ger-25-pzg-c may not enter op:2518: an enemy unit is there (5.21)"
    ]


def test_5_66_a_line_across_the_transition_hexside() -> None:
    # from an Operational hex into a Transition Hex (and the move ends there: 5.44)
    assert problems(unit(PANZER, "op:2519"), ["op:2519", "op:2419", "op:2420"]) == []
    # a unit that starts in a Transition Hex leaves it by railroad
    assert problems(unit(PANZER, "op:2420"), ["op:2420", *FRANKFURT[:3]]) == []
    # unless enemy ZOC extends over the hexside
    enemy = unit("sov-11gtc-bg1", "op:2418")  # ZOC on 2419, not on 2420
    assert problems(unit(PANZER, "op:2420"), ["op:2420", *FRANKFURT[:3]], enemy) == [
        "ger-25-pzg-c may not enter railroad hex op:2419: it is in enemy ZOC (5.63, 5.66)"
    ]


def test_5_68_without_the_benefit_a_transition_hex_ends_the_move() -> None:
    u = unit(PANZER, "op:2419")
    assert problems(u, ["op:2419", "op:2420", "op:2320", "op:2319"]) == [
        "ger-25-pzg-c must stop in Transition Hex op:2420: the Transition Hexes are no railroad "
        "without the 5.68 benefit (5.44, 5.68)"
    ]
    start_there = unit(PANZER, "op:2420")
    assert problems(start_there, ["op:2420", "op:2320"]) == [
        "ger-25-pzg-c may not move by railroad from op:2420 into op:2320: the Transition Hexes "
        "are railroad hexes only with no Soviet unit or Occupied marker on the City Map (5.68)"
    ]


def test_5_68_with_the_benefit_the_ring_is_a_railroad_and_no_stop() -> None:
    u = unit(PANZER, "op:2419")
    path = ["op:2419", "op:2420", "op:2320", "op:2220", "op:2120", "op:2019"]
    assert problems(u, path, transition_benefit=True) == []
    # Frankfurt line -> ring -> Ostbahn
    path = ["op:2519", "op:2419", "op:2420", "op:2320", "op:2319", "op:2318"]
    assert problems(unit(PANZER, "op:2519"), path, transition_benefit=True) == []


def test_5_68_transition_benefit_condition() -> None:
    german_in_city = unit("ger-281-inf", "city:1320")
    assert rail.transition_benefit([german_in_city], set(), BOARD) is True
    assert rail.transition_benefit([unit("sov-11gtc-bg1", "city:1320")], set(), BOARD) is False
    assert rail.transition_benefit([unit("sov-8gmc", "op:2420")], set(), BOARD) is False
    assert rail.transition_benefit([unit("sov-8gmc", "op:2419")], set(), BOARD) is True
    assert rail.transition_benefit([], {"op:2420"}, BOARD) is False  # a Transition Hex
    assert rail.transition_benefit([], {"city:0626"}, BOARD) is False  # a City VP hex (11.12)
    assert rail.transition_benefit([], {"op:2726"}, BOARD) is True  # Potsdam: Operational
    # without a board: the shipped map's Transition Hexes
    assert rail.transition_benefit([unit("sov-8gmc", "op:2420")], set()) is False
    assert rail.transition_benefit([unit("sov-8gmc", "op:2419")], set()) is True


def test_5_35_5_69_city_map_railroads_are_not_railroads() -> None:
    assert not any(line["map"] == "city" for line in BOARD["railroads"])
    assert not rail.is_railroad(BOARD, "op:2420", "city:1320")
    assert problems(unit(PANZER, "op:2420"), ["op:2420", "city:1320"], transition_benefit=True) == [
        "ger-25-pzg-c may not move by railroad from op:2420 into city:1320: the railroads of "
        "the Berlin City Map are not railroads (5.35, 5.69)"
    ]


def test_5_67_rail_load_and_the_limit_of_four() -> None:
    assert rail.RAIL_LIMIT == 4
    assert rail.rail_load(DATA, unit(REGIMENT, "op:2419")) == 2
    assert rail.rail_load(DATA, unit("ger-fueb", "op:2419")) == 2  # a vehicle division
    assert rail.rail_load(DATA, unit("ger-12a-106-pz", "op:2419")) == 2  # a vehicle brigade
    assert rail.rail_load(DATA, unit(PANZER, "op:2419")) == 1  # a vehicle battalion
    assert rail.rail_load(DATA, unit(INFANTRY, "op:2419")) == 1  # a foot division
    assert rail.rail_limit_problem(2, 2) is None
    assert rail.rail_limit_problem(3, 2) == (
        "railroad movement is limited to 4 units a phase: 3 used, this unit counts 2 (5.67)"
    )


def test_9_16_the_344th_enters_by_rail_on_turn_2_and_counts_nothing() -> None:
    for ident in ("ger-344-inf-1", "ger-344-inf-2"):
        u = {"id": ident, "side": "german"}
        assert rail.rail_load(DATA, u, turn=2, entering=True) == 0
        assert rail.rail_load(DATA, u, turn=2) == 1  # a later railroad move counts
    # another reinforcement entering by rail counts (5.67)
    assert rail.rail_load(DATA, {"id": "ger-fru-1", "side": "german"}, turn=2, entering=True) == 2


def test_5_67_entry_by_rail() -> None:
    assert rail.entry_by_rail(BOARD, "SW") == ["op:4032"]  # the 344th's entry (9.16)
    assert rail.entry_by_rail(BOARD, "N") == []  # no railroad: normal entry only
    with pytest.raises(ValueError, match="unknown entry code"):
        rail.entry_by_rail(BOARD, "X")
    u = {"id": "ger-344-inf-1", "side": "german"}
    path = ["op:4032", "op:4031", "op:3931", "op:3930", "op:3829"]
    options = {"phase": "normal", "transition_benefit": False, "entry": "SW"}
    assert rail.rail_problems(BOARD, DATA, [], u, path, **options) == []
    assert rail.rail_problems(BOARD, DATA, [], u, ["op:3932", "op:3931"], **options) == [
        "op:3932 is not a railroad hex of entry SW (5.67)",
        "ger-344-inf-1 may not move by railroad from op:3932 into op:3931: no railroad line "
        "joins them (5.62)",
    ]
    # 9.13 lets a unit enter into enemy ZOC, but not by railroad (5.63)
    enemy = unit("sov-11gtc-bg1", "op:3932")
    assert rail.rail_problems(BOARD, DATA, [enemy], u, path, **options) == [
        "ger-344-inf-1 may not enter op:4032 by railroad: it is in enemy ZOC (5.63)",
        "ger-344-inf-1 may not enter railroad hex op:4031: it is in enemy ZOC (5.63)",
    ]


def test_5_69_a_river_crossed_by_a_railroad_does_not_stop_railroad_movement() -> None:
    board = copy.deepcopy(BOARD)
    key = "op:2518|op:2519"
    board["hexsides"][key] = sorted([*board["hexsides"].get(key, []), "major-river"])
    md.changed(board)
    u = unit(PANZER, "op:2419")
    assert (
        rail.rail_problems(
            board, DATA, [u], u, FRANKFURT[:4], phase="normal", transition_benefit=False
        )
        == []
    )


def test_5_63_the_engine_may_give_the_zoc_recorded_at_the_phase_start() -> None:
    u = unit(PANZER, "op:2419")
    assert problems(u, FRANKFURT[:3], started_in_zoc=True) == [
        "ger-25-pzg-c began the phase in enemy ZOC and may not move by railroad (5.63)"
    ]
    enemy = unit("sov-11gtc-bg1", "op:2319")
    assert problems(u, FRANKFURT[:3], enemy, started_in_zoc=False) == []


def test_5_67_entry_by_rail_of_one_entry_hex() -> None:
    assert rail.entry_by_rail(BOARD, "op:4032") == ["op:4032"]
    assert rail.entry_by_rail(BOARD, "op:3932") == []  # an SW entry hex with no railroad
    assert rail.entry_by_rail(BOARD, "op:2419") == []  # a railroad hex but no entry hex
