"""Götterdämmerung overruns (rulebook 7.0-7.5): overrun.py.

The hexes 1611, 1711 and 1712 are those of 6.45 (1611|1712 a major river, 1711|1712 clear);
the Front boundary 1113|1213 is 5.27's; 2419 and 2420 are 4.25's. Other terrain comes from
the shipped (stand-in) map, found by the helpers below."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pbem.games.gotterdammerung import combat as cb
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import overrun as ov
from pbem.games.gotterdammerung.counters import default_counters
from pbem.games.gotterdammerung.tables import default_tables, parse_result

BOARD = md.default_map()
DATA = default_counters()
TABLES = default_tables()
TANK = "sov-10gtc"  # 1UF vehicle corps, movement 8
RIFLE = "sov-9grc"  # 1BF foot corps
GER, GER2 = "ger-281-inf", "ger-610-zbv"


def unit(ident: str, h: str, **extra: Any) -> dict[str, Any]:
    return {"id": ident, "side": DATA["units"][ident]["side"], "hex": h, **extra}


def problems(
    mover: dict[str, Any],
    target: str,
    units: list[dict[str, Any]],
    *,
    points: int = 20,
    phase: str = "normal",
    turn: int = 3,
    launch: str | None = None,
) -> list[str]:
    return ov.overrun_problems(
        BOARD,
        TABLES,
        DATA,
        units,
        mover,
        launch or mover["hex"],
        target,
        points_left=points,
        phase=phase,
        turn=turn,
    )


def pair(test: Callable[[str, str, list[str]], bool]) -> tuple[str, str]:
    """An Operational launch hex and target hex (neither fortified unless asked, no Front
    boundary between) whose hexside features pass `test`."""
    for h, info in sorted(BOARD["hexes"].items()):
        if info["kind"] != md.OPERATIONAL:
            continue
        for n in md.neighbours(BOARD, h):
            if md.kind(BOARD, n) != md.OPERATIONAL or md.front_boundary(BOARD, n, h):
                continue
            if test(n, h, md.hexside(BOARD, n, h)):
                return n, h
    raise AssertionError("no such hexes on the shipped map")


def plain_into(terrain: str, fortified: bool = False) -> tuple[str, str]:
    """Clear launch hex, clear hexside, target of `terrain`."""
    return pair(
        lambda a, b, f: (
            f == []
            and md.terrain(BOARD, a) == "clear"
            and md.terrain(BOARD, b) == terrain
            and md.fortified(BOARD, b) == fortified
        )
    )


# --- 7.0, 7.1 -----------------------------------------------------------------------------


def test_7_0_a_legal_overrun_across_the_clear_1711_1712_hexside() -> None:
    s, g = unit(TANK, "op:1711"), unit(GER, "op:1712")
    assert problems(s, "op:1712", [s, g]) == []


def test_7_0_german_units_never_overrun_and_only_in_movement_phases() -> None:
    g, s = unit(GER, "op:1711"), unit(TANK, "op:1712")
    assert "7.0" in problems(g, "op:1712", [g, s])[0]
    s, g = unit(TANK, "op:1711"), unit(GER, "op:1712")
    for phase in ("combat", "siege", "counter-move"):
        assert "7.21" in problems(s, "op:1712", [s, g], phase=phase)[0]
    assert problems(s, "op:1712", [s, g], phase="breakthrough") == []


def test_7_0_the_target_must_hold_enemy_units_and_be_adjacent() -> None:
    s = unit(TANK, "op:1711")
    assert any("7.0" in p for p in problems(s, "op:1712", [s]))
    g = unit(GER, "op:1714")
    assert "7.1" in problems(s, "op:1714", [s, g])[0]


def test_7_0_5_27_no_overrun_across_a_front_boundary() -> None:
    s, g = unit(RIFLE, "op:1113"), unit(GER, "op:1213")
    assert md.front_boundary(BOARD, "op:1113", "op:1213")
    assert any("Front boundary" in p and "7.0" in p for p in problems(s, "op:1213", [s, g]))


def test_7_1_cost_is_terrain_plus_three() -> None:
    s = unit(TANK, "op:1711")
    assert ov.overrun_cost(BOARD, TABLES, s, "op:1711", "op:1712", data=DATA) == 1 + 3
    forest = plain_into("forest")
    vehicle_forest = TABLES["hex_terrain"]["forest"]["vehicle"]
    assert ov.overrun_cost(BOARD, TABLES, s, *forest, data=DATA) == vehicle_forest + 3
    g = unit(GER, "op:1712")
    assert any("7.1" in p for p in problems(s, "op:1712", [s, g], points=3))
    assert problems(s, "op:1712", [s, g], points=4) == []


def test_7_1_the_d10_is_read_on_the_soviet_crt() -> None:
    s, g = unit(TANK, "op:1711"), unit(GER, "op:1712")
    found = ov.overrun_odds(BOARD, TABLES, DATA, [s, g], s, "op:1712", turn=3)
    assert found.crt == "soviet" and isinstance(found, cb.Combat)
    for roll in (7, 10):  # rows a six-sided die never reaches
        got = ov.result(TABLES, found, roll)
        assert got.code == TABLES["soviet_crt"][roll - 1][found.odds.index]
    with pytest.raises(ValueError):
        ov.result(TABLES, found, 11)


# --- 7.2 limits -----------------------------------------------------------------------------


def test_7_21_5_42_no_overrun_into_a_transition_hex_ruling() -> None:
    s, g = unit(TANK, "op:2419"), unit(GER, "op:2420")  # 4.25: 2419 touches 2420
    found = problems(s, "op:2420", [s, g])
    assert any("Transition Hex" in p and "5.42" in p for p in found)


def test_7_21_7_51_no_overrun_on_the_city_map() -> None:
    s, g = unit(TANK, "op:2420"), unit(GER, "city:1320")  # 4.25: 2420 touches City 1320
    assert any("7.51" in p for p in problems(s, "city:1320", [s, g]))
    s, g = unit(TANK, "city:1219"), unit(GER, "city:1320")
    assert md.adjacent(BOARD, "city:1219", "city:1320")
    assert any("7.51" in p for p in problems(s, "city:1320", [s, g]))


def test_7_22_one_overrun_attacks_every_unit_in_the_hex_and_ignores_zoc() -> None:
    s = unit(TANK, "op:1711")
    g1, g2 = unit(GER, "op:1712"), unit(GER2, "op:1712")
    screen = unit("ger-547-vg", "op:1811")  # weak ZOC over 1711 and 1712
    units = [s, g1, g2, screen]
    both = ov.overrun_odds(BOARD, TABLES, DATA, units, s, "op:1712", turn=3)
    one = ov.overrun_odds(BOARD, TABLES, DATA, [s, g1], s, "op:1712", turn=3)
    assert both.defence == one.defence + cb.strength(DATA, g2, "defence")
    # weak ZOC to weak ZOC: no +3 for leaving the ZOC, no ban
    assert problems(s, "op:1712", units, points=4) == []


def test_7_23_no_limit_on_overruns_each_costs_three_more() -> None:
    s = unit(TANK, "op:1711", attacked=True)
    g = unit(GER, "op:1712", defended=True)
    assert problems(s, "op:1712", [s, g]) == []
    normal = ov.mv.step_cost(BOARD, TABLES, ov.mover_facts(DATA, s), "op:1711", "op:1712")
    assert normal is not None
    assert ov.overrun_cost(BOARD, TABLES, s, "op:1711", "op:1712", data=DATA) == normal + 3


def test_7_24_no_overrun_from_an_overstacked_hex() -> None:
    s = unit(TANK, "op:1711")
    other = unit("sov-11gtc", "op:1711")  # 4 + 4 points, limit 4
    g = unit(GER, "op:1712")
    found = problems(s, "op:1712", [s, other, g])
    assert any("7.24" in p for p in found)
    # passing through is fine: the mover's own dict may still name its starting hex
    away = unit(TANK, "op:1611")
    assert any("7.24" in p for p in problems(away, "op:1712", [away, other, g], launch="op:1711"))
    assert problems(away, "op:1712", [away, g], launch="op:1711") == []


@pytest.mark.parametrize(
    ("result", "emptied", "enters", "continues"),
    [
        ("DE", True, True, True),
        ("2DR", True, True, True),
        ("1D", True, True, True),
        ("EX", True, True, False),
        ("1D", False, False, False),
        ("-", False, False, False),
    ],
)
def test_7_25_7_26_what_the_mover_does_after(
    result: str, emptied: bool, enters: bool, continues: bool
) -> None:
    got = ov.outcome(parse_result(result, "soviet"), emptied, True, False)
    assert (got["enters"], got["continues"], got["ends_move"]) == (enters, continues, not continues)
    assert got["disrupted"] is False


def test_7_25_a_retreating_mover_ends_its_move_disrupted() -> None:
    got = ov.outcome(parse_result("1AR", "soviet"), False, True, True)
    assert got["ends_move"] and got["disrupted"] and not got["enters"]


def test_7_27_entry_is_free_compulsory_and_defenders_never_advance() -> None:
    got = ov.outcome(parse_result("DE", "soviet"), True, True, False)
    assert got["enters"] and got["entry_cost"] == 0
    dead = ov.outcome(parse_result("2A", "soviet"), False, False, False)
    assert not dead["enters"] and dead["defenders_advance"] is False
    assert got["defenders_advance"] is False


def test_7_28_out_of_supply_halves_attack_disrupted_may_not() -> None:
    g = unit(GER, "op:1712")
    fresh = unit(TANK, "op:1711")
    hungry = unit(TANK, "op:1711", out_of_supply=True)
    a = ov.overrun_odds(BOARD, TABLES, DATA, [fresh, g], fresh, "op:1712", turn=3).attack
    b = ov.overrun_odds(BOARD, TABLES, DATA, [hungry, g], hungry, "op:1712", turn=3).attack
    assert b == -(-a // 2)
    assert problems(hungry, "op:1712", [hungry, g]) == []
    shaken = unit(TANK, "op:1711", disrupted=True)
    assert any("7.28" in p for p in problems(shaken, "op:1712", [shaken, g]))


def test_7_29_no_overrun_across_the_1611_1712_major_river() -> None:
    s, g = unit(TANK, "op:1611"), unit(GER, "op:1712")
    assert md.river(BOARD, "op:1611", "op:1712") == "major-river"
    assert any("major river" in p and "7.29" in p for p in problems(s, "op:1712", [s, g]))
    bridged = pair(lambda a, b, f: "major-river" in f and "road" in f and "elbe" not in f)
    s, g = unit(TANK, bridged[0]), unit(GER, bridged[1])
    assert any("major river" in p for p in problems(s, bridged[1], [s, g]))


@pytest.mark.parametrize("terrain", ["small-city", "major-city", "mountain", "marsh"])
def test_7_29_forbidden_target_terrain(terrain: str) -> None:
    launch, target = plain_into(terrain)
    s, g = unit(TANK, launch), unit(GER, target)
    assert any("7.29" in p and terrain.replace("-", " ") in p for p in problems(s, target, [s, g]))


def test_7_29_forest_is_allowed_and_full_lakes_are_not() -> None:
    launch, target = plain_into("forest")
    s, g = unit(TANK, launch), unit(GER, target)
    assert problems(s, target, [s, g]) == []
    launch, target = pair(lambda a, b, f: "sea-lake" in f)
    s, g = unit(TANK, launch), unit(GER, target)
    assert any("sea/lake" in p for p in problems(s, target, [s, g]))


def test_7_29_9_72_americans_may_not_overrun_across_the_elbe() -> None:
    launch, target = pair(lambda a, b, f: "elbe" in f)
    us, g = unit("us-9id", launch), unit(GER, target)
    assert any("9.72" in p for p in problems(us, target, [us, g], turn=6))


def test_7_29_5_32_no_road_benefit() -> None:
    launch, target = pair(lambda a, b, f: f == ["road"] and md.terrain(BOARD, b) == "forest")
    s = unit(TANK, launch)
    by_road = ov.mv.step_cost(BOARD, TABLES, ov.mover_facts(DATA, s), launch, target)
    assert by_road is not None
    cost = ov.overrun_cost(BOARD, TABLES, s, launch, target, data=DATA)
    forest = TABLES["hex_terrain"]["forest"]["vehicle"]
    assert by_road == TABLES["hexside_terrain"]["road"]["vehicle"]
    assert cost == forest + 3 and cost > by_road + 3
    g = unit(GER, target)
    assert any("7.1" in p for p in problems(s, target, [s, g], points=by_road + 3))


# --- 7.3 modifiers --------------------------------------------------------------------------


def test_7_31_fortification_doubles_the_defence_and_shifts_a_column() -> None:
    launch, target = plain_into("clear", fortified=True)
    s, g = unit(TANK, launch), unit(GER, target)
    found = ov.overrun_odds(BOARD, TABLES, DATA, [s, g], s, target, turn=3)
    printed = cb.strength(DATA, g, "defence")
    assert found.printed == printed and found.defence == 2 * printed
    assert found.doubled_by == ("7.31",) and found.shift == TABLES["modifiers"]["fortification"]
    assert ov.overrun_cost(BOARD, TABLES, s, launch, target, data=DATA) == 1 + 1 + 3  # 5.37


def test_7_32_a_river_doubles_the_defence_minor_rivers_do_not() -> None:
    launch, target = pair(
        lambda a, b, f: (
            f == ["river"] and md.terrain(BOARD, b) == "clear" and not md.fortified(BOARD, b)
        )
    )
    s, g = unit(TANK, launch), unit(GER, target)
    found = ov.overrun_odds(BOARD, TABLES, DATA, [s, g], s, target, turn=3)
    assert found.doubled_by == ("7.32",) and found.defence == 2 * found.printed
    assert found.shift == TABLES["modifiers"]["river"]  # 6.44 as well
    launch, target = pair(
        lambda a, b, f: (
            f == ["minor-river"] and md.terrain(BOARD, b) == "clear" and not md.fortified(BOARD, b)
        )
    )
    s, g = unit(TANK, launch), unit(GER, target)
    minor = ov.overrun_odds(BOARD, TABLES, DATA, [s, g], s, target, turn=3)
    assert minor.doubled_by == () and minor.defence == minor.printed


def test_7_33_the_6_4_modifiers_apply_but_not_artillery() -> None:
    launch, target = plain_into("forest")
    s, g = unit(TANK, launch, artillery=True), unit(GER, target)
    found = ov.overrun_odds(BOARD, TABLES, DATA, [s, g], s, target, turn=1)
    assert found.shift == TABLES["hex_terrain"]["forest"]["soviet_crt_shift"]  # 6.42
    combat = cb.combat_odds(BOARD, TABLES, DATA, [s, g], [s], target, turn=1)
    assert combat.shift == found.shift + TABLES["modifiers"]["artillery"]


def test_7_33_6_15_6_18_no_attack_strength_and_2bf_turns_1_2() -> None:
    g = unit(GER, "op:1712")
    depot = unit("sov-2bf-depot", "op:1711")
    assert any("6.15" in p for p in problems(depot, "op:1712", [depot, g]))
    north = unit("sov-18rc", "op:1711")
    assert any("6.18" in p for p in problems(north, "op:1712", [north, g], turn=2))
    assert not any("6.18" in p for p in problems(north, "op:1712", [north, g], turn=3))


# --- 7.4 retreat and advance ------------------------------------------------------------------


def test_7_41_retreat_may_pass_a_full_hex_but_not_end_in_one() -> None:
    g = unit(GER, "op:1712")
    s = unit(TANK, "op:1611")
    crowd = [unit("ger-547-vg", "op:1713"), unit("ger-1-naval", "op:1713")]  # 2 + 2 points
    units = [s, g, *crowd]
    through = ov.defender_retreat_problems(
        BOARD, DATA, units, g, ["op:1713", "op:1714"], mover_hex="op:1611", target="op:1712"
    )
    assert through == []
    moved = [*crowd, cb.after_retreat(g, ["op:1713"])]
    assert cb.retreat_end_problems(BOARD, DATA, moved)


def test_7_42_defender_may_not_retreat_next_to_the_overrunning_unit() -> None:
    s, g = unit(TANK, "op:1711"), unit(GER, "op:1712")
    units = [s, g]
    near = [h for h in md.neighbours(BOARD, "op:1712") if md.adjacent(BOARD, h, "op:1711")]
    far = [h for h in md.neighbours(BOARD, "op:1712") if h not in near and h != "op:1711"]
    assert near and far
    for first in near:
        beyond = next(h for h in md.neighbours(BOARD, first) if h not in ("op:1711", "op:1712"))
        got = ov.defender_retreat_problems(
            BOARD, DATA, units, g, [first, beyond], mover_hex="op:1711", target="op:1712"
        )
        assert any("7.42" in p and first in p for p in got)
    ok = [
        (a, b)
        for a in far
        for b in md.neighbours(BOARD, a)
        if not md.adjacent(BOARD, b, "op:1711")
        and not md.adjacent(BOARD, b, "op:1712")
        and b != "op:1712"
        and not ov.defender_retreat_problems(
            BOARD, DATA, units, g, [a, b], mover_hex="op:1711", target="op:1712"
        )
    ]
    assert ok


def test_7_42_the_mover_may_not_retreat_next_to_the_target() -> None:
    s, g = unit(TANK, "op:1711"), unit(GER, "op:1712")
    beside = [h for h in md.neighbours(BOARD, "op:1711") if md.adjacent(BOARD, h, "op:1712")]
    got = ov.mover_retreat_problems(
        BOARD,
        DATA,
        [s, g],
        s,
        [beside[0], "op:1610"],
        mover_hex="op:1711",
        target="op:1712",
    )
    assert any("7.42" in p for p in got)
    away = [
        (a, b)
        for a in md.neighbours(BOARD, "op:1711")
        for b in md.neighbours(BOARD, a)
        if not ov.mover_retreat_problems(
            BOARD, DATA, [s, g], s, [a, b], mover_hex="op:1711", target="op:1712"
        )
    ]
    assert away and all(not md.adjacent(BOARD, h, "op:1712") for a, b in away for h in (a, b))


def test_7_43_no_advance_beyond_the_target() -> None:
    got = ov.outcome(parse_result("DE", "soviet"), True, True, False)
    assert got["advance_beyond"] is False and got["continues"]


# --- 7.5 the Berlin City Map ----------------------------------------------------------------


def test_7_51_no_overrun_from_or_into_city_hexes() -> None:
    s, g = unit(TANK, "city:1219"), unit(GER, "city:1320")
    assert any("7.51" in p for p in problems(s, "city:1320", [s, g]))


def test_7_52_from_a_transition_hex_into_an_operational_hex() -> None:
    s, g = unit(TANK, "op:2420"), unit(GER, "op:2419")
    assert md.kind(BOARD, "op:2419") == md.OPERATIONAL
    found = problems(s, "op:2419", [s, g])
    assert found == [], found
    # but not in the Breakthrough phase: the unit is on the City Map (5.16)
    assert any("5.16" in p for p in problems(s, "op:2419", [s, g], phase="breakthrough"))
