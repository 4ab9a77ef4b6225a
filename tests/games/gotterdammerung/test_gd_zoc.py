"""Götterdämmerung stacking (rulebook 4.1) and Zones of Control (4.2): zoc.py."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.gotterdammerung import zoc
from pbem.games.gotterdammerung.counters import default_counters
from pbem.games.gotterdammerung.map_data import default_map

BOARD = default_map()
DATA = default_counters()


def unit(ident: str, h: str, **extra: Any) -> dict[str, Any]:
    side = DATA["units"][ident]["side"] if ident in DATA["units"] else "german"
    return {"id": ident, "side": side, "hex": h, "map": h.split(":")[0], "steps": 1, **extra}


def vs(n: int, h: str) -> dict[str, Any]:
    return unit(f"volkssturm-{n}", h, volkssturm=True)


def ok(*stack: dict[str, Any]) -> bool:
    return not zoc.stack_problems(BOARD, DATA, list(stack))


# --- 4.1 stacking ---


def test_4_0_limits_four_on_operational_and_transition_two_on_city() -> None:
    assert zoc.stack_limit(BOARD, "op:2419") == 4
    assert zoc.stack_limit(BOARD, "op:2420") == 4  # 4.15: a Transition Hex is Operational
    assert zoc.stack_limit(BOARD, "city:1320") == 2
    assert ok(unit("ger-281-inf", "op:2419"), unit("ger-1-naval", "op:2419"))
    problems = zoc.stack_problems(
        BOARD,
        DATA,
        [
            unit("ger-281-inf", "op:2419"),
            unit("ger-1-naval", "op:2419"),
            unit("ger-bec", "op:2419"),
        ],
    )
    assert problems == ["hex 2419: 5 stacking points, the limit is 4 (4.0, 4.1)"]
    assert not ok(unit("ger-281-inf", "city:1320"), unit("ger-bec", "city:1320"))
    assert ok(unit("ger-bec", "city:1320"), unit("ger-stettin-flak", "city:1320"))


def test_4_11_german_specials_are_exempt() -> None:
    full = [unit("ger-281-inf", "city:0825")]
    specials = ["ger-hitler", "ger-depot", "ger-okh", "ger-goerlitz", "ger-alkett"]
    assert ok(*full, *(unit(s, "city:0825") for s in specials))


def test_4_12_support_units() -> None:
    bg, bg2 = unit("sov-11gtc-bg1", "city:1320"), unit("sov-11gtc-bg2", "city:1320")
    support, support2 = unit("sov-htr-1", "city:1320"), unit("sov-hsp-1", "city:1320")
    assert ok(bg, support)
    assert zoc.stack_problems(BOARD, DATA, [bg, support, support2]) == [
        "hex 1320: only one support unit may occupy a hex (4.12)"
    ]
    corps = unit("sov-8gmc", "op:2419")
    assert not ok(corps, unit("sov-htr-1", "op:2419"))
    # with one Battle group only: two Battle groups on an Operational hex fit 4 points
    many = [dict(bg, hex="op:2419"), dict(bg2, hex="op:2419"), dict(support, hex="op:2419")]
    assert ok(*many[:2]) and not ok(*many)


def test_4_13_volkssturm_first_free_then_one_point_each() -> None:
    two = unit("ger-281-inf", "city:1320")
    assert ok(two, vs(1, "city:1320"))
    assert not ok(two, vs(1, "city:1320"), vs(2, "city:1320"))
    assert zoc.stack_points(BOARD, DATA, [vs(i, "city:1320") for i in range(3)]) == 2
    assert ok(*(vs(i, "city:1320") for i in range(3)))
    assert not ok(*(vs(i, "city:1320") for i in range(4)))


def test_4_14_rifle_corps_in_berlin() -> None:
    assert zoc.stacking_value(BOARD, DATA, unit("sov-18rc", "city:1320")) == 2
    assert zoc.stacking_value(BOARD, DATA, unit("sov-18rc", "op:2420")) == 4
    assert ok(unit("sov-18rc", "city:1320"))
    assert zoc.stack_problems(
        BOARD, DATA, [unit("sov-18rc", "op:2419"), unit("sov-hab-1", "op:2419")]
    ) == ["hex 2419: a Rifle Corps may not stack with a support unit (4.14)"]
    units = [unit("sov-18rc", "city:1320"), unit("sov-46rc", "city:1321")]
    assert zoc.rifle_corps_spacing_problem(BOARD, DATA, units, units[0]) is not None
    units[1]["hex"] = "city:1323"
    assert zoc.rifle_corps_spacing_problem(BOARD, DATA, units, units[0]) is None


def test_4_16_advance_may_not_exceed_even_for_a_moment() -> None:
    units = [unit("ger-281-inf", "city:1320"), unit("ger-bec", "city:1220")]
    assert not zoc.may_enter(BOARD, DATA, units, units[1], "city:1320")
    assert zoc.may_enter(BOARD, DATA, units, units[1], "city:1219")


def test_4_17_nationalities_may_not_share_at_phase_end() -> None:
    stack = [unit("sov-18rc", "op:2419"), unit("sov-1pol-a", "op:2419")]
    problems = zoc.end_of_phase_problems(BOARD, DATA, stack)
    assert problems["op:2419"][0] == "hex 2419: polish and soviet units may not share a hex (4.17)"


def test_4_18_opponent_removes_only_the_excess() -> None:
    stack = [unit("ger-281-inf", "city:1320"), unit("ger-bec", "city:1320")]
    assert zoc.removal_problem(BOARD, DATA, stack, ["ger-bec"]) is None
    assert zoc.removal_problem(BOARD, DATA, stack, ["ger-281-inf"]) is None
    assert zoc.removal_problem(BOARD, DATA, stack, []) is not None
    assert "not excess" in (
        zoc.removal_problem(BOARD, DATA, stack, ["ger-281-inf", "ger-bec"]) or ""
    )


# --- 4.2 ZOC ---


def test_4_25_example_exactly() -> None:
    assert sorted(zoc.zoc_reach(BOARD, "city:1320")) == [
        "city:1219",
        "city:1220",
        "city:1321",
        "city:1420",
    ]
    assert sorted(zoc.zoc_reach(BOARD, "op:2420")) == [
        "city:1019",
        "city:1119",
        "city:1219",
        "city:1320",
        "city:1420",
        "op:2320",
        "op:2419",
        "op:2421",
        "op:2520",
        "op:2521",
    ]
    assert sorted(zoc.zoc_reach(BOARD, "op:2419")) == [
        "op:2319",
        "op:2320",
        "op:2418",
        "op:2420",
        "op:2519",
        "op:2520",
    ]


def test_4_21_4_22_strengths_and_no_zoc_units() -> None:
    assert zoc.zoc_strength(DATA, unit("sov-18rc", "op:2419")) == "strong"
    assert zoc.zoc_strength(DATA, unit("sov-1pol-a", "op:2419")) == "strong"
    assert zoc.zoc_strength(DATA, unit("sov-11gtc-bg1", "op:2419")) == "weak"
    assert zoc.zoc_strength(DATA, unit("us-9id", "op:2419")) == "weak"
    assert zoc.zoc_strength(DATA, unit("ger-281-inf", "op:2419")) == "weak"
    assert zoc.zoc_strength(DATA, vs(1, "op:2419")) == "weak"
    for ident in ("ger-hitler", "ger-alkett", "ger-depot", "ger-okh"):
        assert zoc.zoc_strength(DATA, unit(ident, "op:2419")) is None


def test_4_21_zoc_only_affects_enemies_and_strong_wins() -> None:
    units = [unit("sov-18rc", "op:2419"), unit("sov-11gtc-bg1", "op:2519")]
    german = zoc.enemy_zoc(BOARD, DATA, units, "german")
    assert german["op:2520"] == "strong"  # reached by both
    assert german["op:2418"] == "strong" and german["op:2619"] == "weak"
    assert zoc.enemy_zoc(BOARD, DATA, units, "soviet") == {}


def test_4_23_4_24_adjacent_units_are_in_each_others_zoc() -> None:
    units = [unit("sov-18rc", "op:2419"), unit("ger-281-inf", "op:2420")]
    assert zoc.in_enemy_zoc(BOARD, DATA, units, units[1]) == "strong"
    assert zoc.in_enemy_zoc(BOARD, DATA, units, units[0]) == "weak"
    assert zoc.must_stop("strong") and not zoc.must_stop("weak") and not zoc.must_stop(None)


def test_4_26_no_zoc_across_lake_or_unbridged_spree() -> None:
    assert "op:0102" not in zoc.zoc_reach(BOARD, "op:0101")  # a sea/lake hexside
    assert "city:0623" not in zoc.zoc_reach(BOARD, "city:0523")  # the Spree, City Map
    assert "city:0623" in zoc.zoc_reach(BOARD, "city:0524")  # bridged: a river


def test_4_27_disrupted_units() -> None:
    corps = unit("sov-18rc", "op:2419", disrupted=True)
    assert zoc.enemy_zoc(BOARD, DATA, [corps], "german") == {}
    german = unit("ger-bec", "op:2617", disrupted=True)
    units = [unit("sov-18rc", "op:2419"), german]
    problem = zoc.disrupted_entry_problem(BOARD, DATA, units, german, False, "op:2519")
    assert problem is not None and "(4.27)" in problem
    assert zoc.disrupted_entry_problem(BOARD, DATA, units, german, True, "op:2519") is None
    assert zoc.disrupted_entry_problem(BOARD, DATA, units, german, False, "op:2617") is None


def test_4_28_friendly_unit_cancels_weak_zoc_for_retreat_and_supply_only() -> None:
    units = [unit("ger-bec", "op:2419"), unit("sov-11gtc-bg1", "op:2520")]
    for purpose, expected in (("movement", "weak"), ("retreat", None), ("supply", None)):
        assert zoc.zoc_at(BOARD, DATA, units, "soviet", "op:2520", purpose) == expected
    strong = [unit("sov-18rc", "op:2419"), unit("ger-bec", "op:2520")]
    assert zoc.zoc_at(BOARD, DATA, strong, "german", "op:2520", "retreat") == "strong"
    with pytest.raises(ValueError, match="unknown purpose"):
        zoc.zoc_at(BOARD, DATA, units, "soviet", "op:2520", "combat")


def test_4_24_exception_4_25_city_unit_does_not_reach_transition_hex() -> None:
    units = [unit("ger-bec", "city:1320"), unit("sov-18rc", "op:2420")]
    assert zoc.in_enemy_zoc(BOARD, DATA, units, units[0]) == "strong"
    assert zoc.in_enemy_zoc(BOARD, DATA, units, units[1]) is None


def test_unknown_unit_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match=r"^unit nobody is not in the counters data$"):
        zoc.zoc_strength(DATA, {"id": "nobody", "side": "german", "hex": "op:2419"})
