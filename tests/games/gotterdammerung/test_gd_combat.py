"""Götterdämmerung combat (rulebook 6.1-6.7, 6.9): combat.py."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import combat as cb
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung.counters import default_counters
from pbem.games.gotterdammerung.tables import default_tables, parse_result

BOARD = md.default_map()
DATA = default_counters()
TABLES = default_tables()


def unit(ident: str, h: str, **extra: Any) -> dict[str, Any]:
    side = DATA["units"][ident]["side"]
    return {"id": ident, "side": side, "hex": h, **extra}


def sov(ident: str, h: str, attack: int, **extra: Any) -> dict[str, Any]:
    return unit(ident, h, attack=attack, **extra)


def ger(ident: str, h: str, defence: int, **extra: Any) -> dict[str, Any]:
    return unit(ident, h, defence=defence, **extra)


# --- 6.3, 6.4 odds and shifts ---


def test_6_3_example_12_against_5_is_2_to_1_dropping_2() -> None:
    a = sov("sov-9grc", "op:1711", 12)
    d = ger("ger-281-inf", "op:1712", 5)
    found = cb.combat_odds(BOARD, TABLES, DATA, [a, d], [a], "op:1712")
    assert (found.attack, found.defence, found.shift) == (12, 5, 0)
    assert found.odds.column == "2:1" and found.odds.dropped == 2
    assert found.crt == "soviet"


def test_6_44_all_across_a_major_river_shift_three_left() -> None:
    a = sov("sov-9grc", "op:1611", 12)
    d = ger("ger-281-inf", "op:1712", 5)
    found = cb.combat_odds(BOARD, TABLES, DATA, [a, d], [a], "op:1712")
    assert found.shift == -3 and found.odds.ratio == "2:1" and found.odds.column == "1:2"


def test_6_45_example_1611_and_1711_attack_1712_no_river_modifier() -> None:
    a1, a2 = sov("sov-9grc", "op:1611", 6), sov("sov-10gtc", "op:1711", 6)
    d = ger("ger-281-inf", "op:1712", 5)
    found = cb.combat_odds(BOARD, TABLES, DATA, [a1, a2, d], [a1, a2], "op:1712")
    assert found.shift == 0 and found.odds.column == "2:1"


def _major_city() -> tuple[str, str]:
    for h, info in sorted(BOARD["hexes"].items()):
        if info["kind"] != md.OPERATIONAL or info["terrain"] != "major-city" or info["fortified"]:
            continue
        for n in md.neighbours(BOARD, h):
            plain = cb.crossing(BOARD, n, h) is None and not md.full_lake(BOARD, n, h)
            if md.kind(BOARD, n) == md.OPERATIONAL and plain:
                return h, n
    raise AssertionError("no major city hex")


def test_6_48_example_10_against_1_two_left_is_6_to_1() -> None:
    target, start = _major_city()  # a major city: two columns left on the Soviet CRT (6.42)
    a = sov("sov-9grc", start, 10)
    d = ger("ger-281-inf", target, 1)
    found = cb.combat_odds(BOARD, TABLES, DATA, [a, d], [a], target)
    assert found.shift == -2 and found.odds.ratio == "8:1" and found.odds.column == "6:1"


def test_6_3_german_attacks_read_the_german_crt_and_6_48_below_1_3_is_refused() -> None:
    a = unit("ger-281-inf", "op:1711", attack=2)
    d = unit("sov-9grc", "op:1712", defence=7)
    with pytest.raises(IllegalOrderError, match="6.48"):
        cb.combat_odds(BOARD, TABLES, DATA, [a, d], [a], "op:1712")
    d["defence"] = 6
    found = cb.combat_odds(BOARD, TABLES, DATA, [a, d], [a], "op:1712")
    assert found.crt == "german" and found.odds.column == "1:3"


def test_6_43_fortification_helps_only_a_german_defender() -> None:
    target = "op:2210"
    start = next(n for n in md.neighbours(BOARD, target) if cb.crossing(BOARD, n, target) is None)
    terrain_shift = TABLES["hex_terrain"][md.terrain(BOARD, target)]["soviet_crt_shift"]
    a, d = sov("sov-9grc", start, 12), ger("ger-281-inf", target, 2)
    assert cb.combat_odds(BOARD, TABLES, DATA, [a, d], [a], target).shift == terrain_shift - 1
    g, s = unit("ger-281-inf", start, attack=6), unit("sov-9grc", target, defence=2)
    assert cb.combat_odds(BOARD, TABLES, DATA, [g, s], [g], target).shift == 0


def test_6_46_6_93_one_artillery_marker_on_turn_one_only() -> None:
    a1 = sov("sov-9grc", "op:1711", 5, artillery=True)
    a2 = sov("sov-10gtc", "op:1812", 5, artillery=True)
    d = ger("ger-281-inf", "op:1712", 10)
    units = [a1, a2, d]
    assert cb.combat_odds(BOARD, TABLES, DATA, units, [a1, a2], "op:1712", turn=1).shift == 3
    assert cb.combat_odds(BOARD, TABLES, DATA, units, [a1, a2], "op:1712", turn=2).shift == 0


def test_6_21_6_65_stack_adds_up_but_a_unit_retreated_in_does_not() -> None:
    a = sov("sov-9grc", "op:1711", 12)
    d1 = ger("ger-281-inf", "op:1712", 3)
    d2 = ger("ger-35-sspol", "op:1712", 3, retreated_into=True)
    assert cb.combat_odds(BOARD, TABLES, DATA, [a, d1, d2], [a], "op:1712").defence == 3
    d2.pop("retreated_into")
    assert cb.combat_odds(BOARD, TABLES, DATA, [a, d1, d2], [a], "op:1712").defence == 6


def test_6_17_out_of_supply_halves_rounding_up_and_6_52_back_side() -> None:
    full = DATA["units"]["sov-9grc"]
    assert cb.strength(DATA, unit("sov-9grc", "op:1711"), "attack") == full["attack"]
    flipped = unit("sov-9grc", "op:1711", steps=1)
    assert cb.strength(DATA, flipped, "attack") == full["reduced"]["attack"]
    assert (
        cb.strength(DATA, unit("ger-281-inf", "op:1", defence=3, out_of_supply=True), "defence")
        == 2
    )


# --- 6.1, 6.2 who may attack ---


def test_6_1_attack_problems() -> None:
    d = ger("ger-281-inf", "op:1712", 3)
    ok = unit("sov-9grc", "op:1711")
    assert cb.attack_problems(BOARD, DATA, [ok, d], [ok], "op:1712") == []
    far = unit("sov-9grc", "op:1813")
    assert "6.11" in cb.attack_problems(BOARD, DATA, [far, d], [far], "op:1712")[0]
    twice = unit("sov-9grc", "op:1711", attacked=True)
    assert "6.14" in cb.attack_problems(BOARD, DATA, [twice, d], [twice], "op:1712")[0]
    d_hit = ger("ger-281-inf", "op:1712", 3, defended=True)
    assert "6.14" in cb.attack_problems(BOARD, DATA, [ok, d_hit], [ok], "op:1712")[0]
    depot = unit("sov-1bf-depot", "op:1711")
    assert "6.15" in cb.attack_problems(BOARD, DATA, [depot, d], [depot], "op:1712")[0]
    shaken = unit("sov-9grc", "op:1711", disrupted=True)
    assert "6.67" in cb.attack_problems(BOARD, DATA, [shaken, d], [shaken], "op:1712")[0]
    moved = unit("sov-9grc", "op:1711", advanced=True)
    assert "6.73" in cb.attack_problems(BOARD, DATA, [moved, d], [moved], "op:1712")[0]
    empty = cb.attack_problems(BOARD, DATA, [ok], [ok], "op:1712")
    assert "6.11" in empty[0]


def test_6_15_hitler_may_not_attack() -> None:
    hitler = unit("ger-hitler", "op:1711")
    s = unit("sov-9grc", "op:1712")
    assert any(
        "6.15" in p for p in cb.attack_problems(BOARD, DATA, [hitler, s], [hitler], "op:1712")
    )


def test_6_18_2bf_may_not_attack_on_turns_1_and_2() -> None:
    ident = next(k for k, v in DATA["units"].items() if v["front"] == "2BF" and v["attack"] > 0)
    a, d = unit(ident, "op:1711"), ger("ger-281-inf", "op:1712", 3)
    assert any("6.18" in p for p in cb.attack_problems(BOARD, DATA, [a, d], [a], "op:1712", turn=2))
    assert cb.attack_problems(BOARD, DATA, [a, d], [a], "op:1712", turn=3) == []


def test_6_13_6_25_city_hex_may_not_attack_a_transition_hex() -> None:
    a, d = unit("ger-281-inf", "city:1320"), unit("sov-9grc", "op:2420")
    problems = cb.attack_problems(BOARD, DATA, [a, d], [a], "op:2420")
    assert any("6.25" in p for p in problems)
    back = cb.attack_problems(BOARD, DATA, [d, a], [d], "city:1320")
    assert not any("6.25" in p for p in back)


# --- 6.5 losses, 6.59 Support Points ---


def test_6_59_support_points_default_and_spending() -> None:
    assert cb.SUPPORT_POINTS == 12 and cb.SUPPORT_POINTS_10_3 == 15
    two_a = parse_result("2A", "soviet")
    assert cb.losses(two_a, "soviet", [{}], support_points=1) == cb.Losses(1, 0, 1)
    assert cb.losses(two_a, "soviet", [{}], support_points=0) == cb.Losses(2, 0, 0)
    star_one = parse_result("**1", "german")
    assert cb.losses(star_one, "german", [{}], support_points=5).support_spent == 1
    ex = parse_result("EX", "soviet")
    spent = cb.losses(ex, "soviet", [{}, {}], support_points=5)
    assert spent.support_spent == 2 and not spent.attacker_each and spent.defender_each
    assert cb.losses(ex, "soviet", [{}, {}], support_points=0).attacker_each
    twelfth = cb.losses(ex, "german", [{}], support_points=5, defenders=[{}, {}, {}])  # 9.3
    assert twelfth.support_spent == 3 and twelfth.attacker_each and not twelfth.defender_each
    assert cb.losses(parse_result("DE", "soviet"), "soviet", [{}]).defenders_destroyed


def test_6_52_steps_flip_then_destroy_and_excess_is_ignored() -> None:
    units = [unit("sov-9grc", "op:1711"), unit("ger-281-inf", "op:1712")]
    done = cb.take_steps(DATA, units, ["sov-9grc"], ["sov-9grc"], 1)
    assert done.units[0]["steps"] == 1 and done.destroyed == []
    done = cb.take_steps(DATA, units, ["ger-281-inf"], ["ger-281-inf"], 3)
    assert done.destroyed == ["ger-281-inf"] and done.applied == 1 and done.ignored == 2
    with pytest.raises(ValueError, match="6.52"):
        cb.take_steps(DATA, units, ["sov-9grc"], ["sov-9grc"], 2)
    with pytest.raises(ValueError, match="did not take part"):
        cb.take_steps(DATA, units, ["sov-9grc"], ["ger-281-inf"], 1)


# --- 6.6 retreat ---


def test_6_61_who_chooses_the_retreat() -> None:
    assert cb.retreat_chooser("soviet", "german") == "german"
    assert cb.retreat_chooser("soviet", "soviet") == "soviet"
    assert cb.retreat_chooser("german", "german") == "soviet"  # 6.57
    assert cb.retreat_chooser("german", "soviet") == "german"  # 6.58


def test_6_6_retreat_paths() -> None:
    g = unit("ger-281-inf", "op:1712")
    s = unit("sov-9grc", "op:1711")
    units = [g, s]
    ok = cb.retreat_problems(
        BOARD, DATA, units, g, ["op:1713", "op:1714"], enemy_hex="", attacking=False
    )
    assert ok == []
    short = cb.retreat_problems(BOARD, DATA, units, g, ["op:1713"], enemy_hex="", attacking=False)
    assert "6.61" in short[0]
    back = cb.retreat_problems(
        BOARD, DATA, units, g, ["op:1713", "op:1812"], enemy_hex="", attacking=False
    )
    assert "6.64" in back[0]
    strong = cb.retreat_problems(
        BOARD, DATA, units, g, ["op:1611", "op:1511"], enemy_hex="", attacking=False
    )
    assert any("strong ZOC" in p for p in strong)
    hitler = unit("ger-hitler", "op:1712")
    assert (
        "6.69"
        in cb.retreat_problems(BOARD, DATA, units, hitler, [], enemy_hex="", attacking=False)[0]
    )


def test_6_64_an_attacker_may_not_end_beside_the_defender() -> None:
    s = unit("sov-9grc", "op:1711")
    g = unit("ger-281-inf", "op:1712")
    beside = cb.retreat_problems(
        BOARD, DATA, [s, g], s, ["op:1610", "op:1611"], enemy_hex="op:1712", attacking=True
    )
    assert beside and "6.64" in beside[-1]


def test_6_62_6_63_weak_zoc_costs_a_step_and_bars_the_disrupted() -> None:
    g = unit("ger-281-inf", "op:1813")  # weak ZOC over 1713, 1714 ...
    s = unit("sov-9grc", "op:1612")
    path = ["op:1613", "op:1614"]
    weak = [h for h in path if cb.zoc.zoc_at(BOARD, DATA, [g, s], "soviet", h, "retreat") == "weak"]
    assert cb.retreat_zoc_steps(BOARD, DATA, [g, s], "soviet", ["op:1713", "op:1714"]) == 2
    assert cb.retreat_zoc_steps(BOARD, DATA, [g, s], "soviet", path) == len(weak)
    shaken = {**s, "disrupted": True}
    problems = cb.retreat_problems(
        BOARD, DATA, [g, shaken], shaken, ["op:1713", "op:1714"], enemy_hex="", attacking=False
    )
    assert any("6.62" in p for p in problems)
    assert cb.after_retreat(s, ["op:1613", "op:1614"]) == {**s, "hex": "op:1614", "disrupted": True}


def test_6_53_short_retreat_costs_a_step_per_hex() -> None:
    assert cb.short_retreat_steps(2) == 0
    assert cb.short_retreat_steps(1) == 1
    assert cb.short_retreat_steps(0) == 2
    assert cb.short_retreat_steps(1, stopped_in_transition=True) == 0  # 6.68


# --- 6.7 advance after combat ---


def test_6_7_advance_limits() -> None:
    tank, rifle = unit("sov-10gtc", "op:1711"), unit("sov-9grc", "op:1711")
    dr, de = parse_result("1DR", "soviet"), parse_result("DE", "soviet")
    assert cb.advance_limit(DATA, tank, dr, attacking=True) == 2  # 6.53, 6.74
    assert cb.advance_limit(DATA, rifle, dr, attacking=True) == 1
    assert cb.advance_limit(DATA, tank, de, attacking=True) == 3  # 6.55, 6.75
    three = parse_result("3D", "soviet")
    assert cb.advance_limit(DATA, tank, three, attacking=True, by_steps=True, steps_applied=1) == 2
    assert cb.advance_limit(DATA, tank, three, attacking=True, by_steps=True, steps_applied=3) == 1
    assert cb.advance_limit(DATA, tank, parse_result("EX", "soviet"), attacking=True) == 0  # 6.54
    ar = parse_result("AR", "german")
    assert cb.advance_limit(DATA, tank, ar, attacking=False) == 1  # 6.57, 6.74
    assert cb.advance_limit(DATA, {**tank, "disrupted": True}, dr, attacking=True) == 0  # 6.67


def test_6_74_6_76_advance_paths() -> None:
    tank = unit("sov-10gtc", "op:1711")
    ok = cb.advance_problems(
        BOARD,
        DATA,
        [tank],
        tank,
        ["op:1712", "op:1713"],
        vacated="op:1712",
        limit=2,
        retreat_path=["op:1713", "op:1714"],
    )
    assert ok == []
    first = cb.advance_problems(BOARD, DATA, [tank], tank, ["op:1611"], vacated="op:1712", limit=2)
    assert "6.74" in first[0]
    off_path = cb.advance_problems(
        BOARD,
        DATA,
        [tank],
        tank,
        ["op:1712", "op:1612"],
        vacated="op:1712",
        limit=2,
        retreat_path=["op:1713"],
    )
    assert any("retreat path" in p for p in off_path)
    city = cb.advance_problems(
        BOARD, DATA, [tank], tank, ["op:1712", "op:1812", "op:1813"], vacated="op:1712", limit=3
    )
    assert any("6.76" in p for p in city)  # 1812 is a small city
    assert (
        "at most 2"
        in cb.advance_problems(
            BOARD, DATA, [tank], tank, ["op:1712", "op:1713", "op:1714"], vacated="op:1712", limit=2
        )[0]
    )


def test_6_63_stacking_holds_at_the_end_of_a_retreat() -> None:
    arrived = [unit("ger-281-inf", "city:1320"), unit("ger-bec", "city:1320")]
    assert cb.retreat_end_problems(BOARD, DATA, arrived)
    assert cb.retreat_end_problems(BOARD, DATA, arrived[:1]) == []
