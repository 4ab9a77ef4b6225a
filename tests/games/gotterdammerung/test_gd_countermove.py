"""Götterdämmerung: who may move in the German Counter-Move Phases (rulebook 5.5, 3.1, 12.34)
and the Soviet Breakthrough Movement Phase (5.16, 6.67): countermove.py."""

from __future__ import annotations

from typing import Any

from pbem.games.gotterdammerung import countermove as cm
from pbem.games.gotterdammerung.counters import default_counters
from pbem.games.gotterdammerung.map_data import default_map

BOARD = default_map()
DATA = default_counters()
PZG_A, PZG_B, PZG_C = "ger-25-pzg-a", "ger-25-pzg-b", "ger-25-pzg-c"  # parent 25 PzG
OTHER = "ger-20-pzg-a"  # parent 20 PzG
THIRD = "ger-mb-a"  # parent Mb


def unit(ident: str, h: str = "op:1010", **extra: Any) -> dict[str, Any]:
    return {"id": ident, "side": DATA["units"][ident]["side"], "hex": h, "steps": 1, **extra}


def counter(u: dict[str, Any], used: Any = (), start_zoc: Any = (), **kw: Any) -> list[str]:
    return cm.countermove_problems(
        BOARD, DATA, [u], u, moved_groups=set(used), start_zoc=set(start_zoc), **kw
    )


def breakthrough(u: dict[str, Any], start_zoc: Any = ()) -> list[str]:
    return cm.breakthrough_problems(BOARD, DATA, [u], u, start_zoc=set(start_zoc))


def test_5_51_a_german_vehicle_unit_on_the_operational_map_counter_moves() -> None:
    assert counter(unit(PZG_A)) == []
    assert counter(unit("sov-11gtc")) == ["sov-11gtc: only German units counter-move (5.51)"]


def test_5_55_foot_units_do_not_counter_move() -> None:
    assert counter(unit("ger-281-inf")) == [
        "ger-281-inf is a foot unit: only vehicle units counter-move (5.55)"
    ]


def test_5_54_not_from_a_berlin_city_hex() -> None:
    assert counter(unit(PZG_A, "city:1320")) == [
        "ger-25-pzg-a is in a Berlin City hex and may not counter-move (5.54)"
    ]


def test_5_43_5_54_a_transition_hex_may_counter_move_but_not_into_the_city() -> None:
    assert counter(unit(PZG_A, "op:2420"), path=["op:2420", "op:2419"]) == []
    assert counter(unit(PZG_A, "op:2420"), path=["op:2420", "city:1320"]) == [
        "ger-25-pzg-a may not enter a Berlin City hex in a counter-move (3.1, 5.51)"
    ]


def test_5_53_not_if_in_enemy_zoc_at_the_start_of_the_phase() -> None:
    assert counter(unit(PZG_A), start_zoc={PZG_A}) == [
        "ger-25-pzg-a was in enemy ZOC at the start of the phase and may not move (5.53)"
    ]
    # start_zoc as the engine records it: weak ZOC counts, a friendly unit cancels nothing
    german = unit(PZG_A, "op:2419")
    friend = unit("ger-281-inf", "op:2419")
    enemy = unit("sov-11gtc-bg1", "op:2418")
    far = unit(OTHER, "op:1010")
    assert cm.units_in_enemy_zoc(BOARD, DATA, [german, friend, enemy, far], "german") == {
        PZG_A,
        "ger-281-inf",
    }
    assert cm.units_in_enemy_zoc(BOARD, DATA, [german, dict(enemy, disrupted=True)], "german") == (
        set()
    )


def test_5_53_6_67_a_disrupted_unit_does_not_counter_move() -> None:
    assert counter(unit(PZG_A, disrupted=True)) == [
        "ger-25-pzg-a is disrupted and may not move in this phase (5.53, 6.67)"
    ]


def test_12_34_the_6th_ss_panzer_army_does_not_counter_move() -> None:
    assert counter(unit("ger-6ss-lah-1")) == [
        "ger-6ss-lah-1 is of the 6th SS Panzer Army and may not counter-move (12.34)"
    ]


def test_5_13_5_28_moved_units_and_zero_movement() -> None:
    assert counter(unit(PZG_A, moved=True)) == ["ger-25-pzg-a has already moved this phase (5.13)"]
    assert counter(unit("ger-okh")) == ["ger-okh has no movement allowance and may not move (5.28)"]


def test_5_51_at_most_two_units_a_phase() -> None:
    first, second, third = unit(PZG_A), unit(OTHER), unit(THIRD)
    used = {cm.group_key(DATA, first), cm.group_key(DATA, second)}
    assert counter(third, used=used) == [
        "the German player has already counter-moved 2 units this phase (5.51, 5.52)"
    ]
    assert counter(third, used={cm.group_key(DATA, first)}) == []


def test_5_52_same_parent_in_one_hex_counts_as_one() -> None:
    a, b, c = unit(PZG_A, "op:1010"), unit(PZG_B, "op:1010"), unit(PZG_C, "op:1010")
    assert cm.group_key(DATA, a) == cm.group_key(DATA, b) == cm.group_key(DATA, c)
    used = {cm.group_key(DATA, a), cm.group_key(DATA, unit(OTHER))}
    assert counter(b, used=used) == [] and counter(c, used=used) == []
    # the same parent in another hex is another "unit"
    elsewhere = unit(PZG_B, "op:1011")
    assert cm.group_key(DATA, elsewhere) != cm.group_key(DATA, a)
    assert counter(elsewhere, used=used)[0].endswith("(5.51, 5.52)")
    # different parents in one hex are two
    assert cm.group_key(DATA, unit(OTHER, "op:1010")) != cm.group_key(DATA, a)


def test_5_16_breakthrough_soviet_vehicle_units_on_the_operational_map() -> None:
    assert breakthrough(unit("sov-11gtc", "op:2419")) == []
    assert breakthrough(unit("sov-11gtc-bg1", "op:2419")) == []
    assert breakthrough(unit("sov-18rc", "op:2419")) == [
        "sov-18rc is a foot unit: only vehicle units break through (5.16)"
    ]
    assert breakthrough(unit(PZG_A, "op:2419")) == [
        "ger-25-pzg-a: only Soviet units move in the Breakthrough Movement Phase (5.16)"
    ]


def test_5_16_breakthrough_not_on_the_city_map_including_transition_hexes() -> None:
    for h in ("op:2420", "city:1320"):
        assert breakthrough(unit("sov-11gtc-bg1", h)) == [
            "sov-11gtc-bg1 is on the Berlin City Map (Transition Hexes included) and may not "
            "break through (5.16)"
        ]


def test_5_16_6_67_breakthrough_not_from_enemy_zoc_nor_disrupted() -> None:
    assert breakthrough(unit("sov-11gtc", "op:2419"), start_zoc={"sov-11gtc"}) == [
        "sov-11gtc was in enemy ZOC at the start of the phase and may not move (5.16)"
    ]
    assert breakthrough(unit("sov-11gtc", "op:2419", disrupted=True)) == [
        "sov-11gtc is disrupted and may not move in this phase (6.67)"
    ]
