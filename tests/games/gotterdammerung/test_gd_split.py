"""Götterdämmerung: splitting Soviet corps (rulebook 5.7, with 4.12, 5.48, 6.67): split.py."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.gotterdammerung import movement as mv
from pbem.games.gotterdammerung import split as sp
from pbem.games.gotterdammerung import zoc
from pbem.games.gotterdammerung.counters import default_counters
from pbem.games.gotterdammerung.map_data import default_map

BOARD = default_map()
DATA = default_counters()
T = "op:2420"  # a Transition Hex


def unit(ident: str, h: str = T, **extra: Any) -> dict[str, Any]:
    c = DATA["units"][ident]
    return {"id": ident, "side": c["side"], "hex": h, "steps": c["steps"], **extra}


def problems(
    corps: dict[str, Any], support: str = "sov-htr-1", *, others: Any = (), **kw: Any
) -> list[str]:
    options: dict[str, Any] = {"phase": "normal", "used_support": (), **kw}
    return sp.split_problems(BOARD, DATA, [corps, *others], corps, support, **options)


def values(ident: str) -> tuple[int, int, int]:
    c = DATA["units"][ident]
    return (c["attack"], c["defence"], c["movement"])


def test_5_71_a_tank_mechanized_or_cavalry_corps_splits() -> None:
    for corps in ("sov-11gtc", "sov-8gmc", "sov-2gcc", "sov-11tc", "sov-1mc", "sov-1pol-tc"):
        assert problems(unit(corps)) == [], corps


def test_5_71_other_units_do_not_split() -> None:
    assert problems(unit("sov-11gtc-bg1")) == [
        "sov-11gtc-bg1: only a corps-size tank, mechanized or cavalry unit splits (5.71, 5.73)"
    ]
    assert problems(unit("ger-25-pzg-a")) == ["ger-25-pzg-a: only Soviet corps split (5.71)"]


def test_5_79_a_rifle_corps_never_splits() -> None:
    assert problems(unit("sov-18rc")) == [
        "sov-18rc is a Rifle Corps: it enters Berlin City hexes without splitting (5.79)"
    ]


def test_5_72_only_in_a_transition_hex() -> None:
    assert problems(unit("sov-11gtc", "op:2419")) == [
        "sov-11gtc splits only in a Transition Hex (5.72)"
    ]


@pytest.mark.parametrize("phase", ["normal", "siege"])
def test_5_48_5_72_in_the_soviet_normal_and_siege_movement_phases(phase: str) -> None:
    assert problems(unit("sov-11gtc"), phase=phase) == []


@pytest.mark.parametrize("phase", ["breakthrough", "counter-move"])
def test_5_72_not_in_other_phases(phase: str) -> None:
    assert problems(unit("sov-11gtc"), phase=phase) == [
        "a corps splits only in the Soviet Normal or Siege Movement Phase (5.48, 5.72)"
    ]


def test_5_13_a_corps_that_moved_this_phase_does_not_split() -> None:
    assert problems(unit("sov-11gtc", moved=True)) == [
        "sov-11gtc has already moved this phase (5.13)"
    ]


def test_6_67_a_disrupted_corps_splits_in_the_normal_phase_only() -> None:
    assert problems(unit("sov-11gtc", disrupted=True), phase="normal") == []
    assert problems(unit("sov-11gtc", disrupted=True), phase="siege") == [
        "sov-11gtc is disrupted and may not move in the Siege Movement Phase (6.67)"
    ]


def test_5_74_the_support_unit_comes_from_the_support_pool() -> None:
    for support in ("sov-htr-1", "sov-hsp-2", "sov-hab-3"):
        assert problems(unit("sov-11gtc"), support) == []
    assert problems(unit("sov-11gtc"), "sov-11gtc-bg1") == [
        "sov-11gtc-bg1 is not a support unit (heavy tank, heavy SP gun or heavy artillery, 5.74)"
    ]


def test_5_75_a_support_unit_on_the_map_or_destroyed_is_not_available() -> None:
    corps = unit("sov-11gtc")
    on_map = unit("sov-htr-1", "city:1320")
    assert problems(corps, others=[on_map]) == ["sov-htr-1 is already on the map (5.75)"]
    assert problems(corps, used_support={"sov-htr-1"}) == [
        "sov-htr-1 was committed and destroyed: it may not be used again (5.75)"
    ]
    pool = sp.available_support(DATA, [corps, on_map], {"sov-hsp-1"})
    assert "sov-htr-1" not in pool and "sov-hsp-1" not in pool
    assert "sov-htr-2" in pool and "sov-hab-1" in pool


@pytest.mark.parametrize(
    ("corps", "expected"),
    [
        ("sov-11gtc", [(9, 4, 9), (9, 3, 9)]),  # Guards Tank Corps (20-18-8)
        ("sov-8gmc", [(9, 5, 9), (9, 4, 9)]),  # Guards Mechanized Corps (19-19-8)
        ("sov-2gcc", [(6, 2, 8), (6, 2, 8)]),  # Guards Cavalry Corps (14-10-7)
        ("sov-11tc", [(7, 3, 9), (7, 3, 9)]),  # Tank Corps (18-16-8)
        ("sov-1mc", [(7, 4, 9), (7, 4, 9)]),  # Mechanized Corps (19-19-8)
    ],
)
def test_5_73_5_74_two_battle_groups_and_a_support_unit(corps: str, expected: list) -> None:
    out = sp.split(DATA, unit(corps), "sov-hab-1")
    assert [u["id"] for u in out] == [f"{corps}-bg1", f"{corps}-bg2", "sov-hab-1"]
    assert [values(u["id"]) for u in out[:2]] == expected
    assert all(u["hex"] == T and u["side"] == "soviet" and u["steps"] == 1 for u in out)
    # 4.12: the three share the Transition Hex for the phase, but not at its end
    assert zoc.stack_problems(BOARD, DATA, out) == [
        "hex 2420: a support unit may stack with one Battle group only (4.12)"
    ]
    assert zoc.stack_problems(BOARD, DATA, [out[0], out[2]]) == []


def test_5_77_a_reduced_corps_becomes_one_battle_group() -> None:
    out = sp.split(DATA, unit("sov-11gtc", steps=1), "sov-htr-1")
    assert [u["id"] for u in out] == ["sov-11gtc-bg1", "sov-htr-1"]
    out = sp.split(DATA, unit("sov-11gtc", steps=1), "sov-htr-1", keep="sov-11gtc-bg2")
    assert [u["id"] for u in out] == ["sov-11gtc-bg2", "sov-htr-1"]
    with pytest.raises(ValueError, match="not a Battle group of sov-11gtc"):
        sp.split(DATA, unit("sov-11gtc", steps=1), "sov-htr-1", keep="sov-8gmc-bg1")


def test_split_status_carries_over_to_the_battle_groups() -> None:
    corps = unit("sov-11gtc", disrupted=True, out_of_supply=True)
    bg1, bg2, support = sp.split(DATA, corps, "sov-htr-1")
    assert bg1["disrupted"] and bg2["disrupted"] and not support["disrupted"]
    assert bg1["out_of_supply"] and bg2["out_of_supply"] and support["out_of_supply"]
    # 5.19: the disrupted groups move at half their allowance
    bg = {**DATA["units"]["sov-11gtc-bg1"], **bg1}
    assert mv.movement_points(bg, halved=True) == 5


def test_5_18_a_delay_revealed_at_the_split_slows_both_groups() -> None:
    corps = unit("sov-11gtc", delays=1)
    bg1, bg2, support = sp.split(DATA, corps, "sov-htr-1", delay=2)
    assert bg1["delay"] == bg2["delay"] == 2 and support["delay"] == 0
    assert bg1["delays"] == bg2["delays"] == 0  # the markers went back to the cup (6.85)
    assert mv.movement_points(DATA["units"]["sov-11gtc-bg1"], delay=bg1["delay"]) == 7


def test_5_73_a_corps_without_battle_groups_cannot_be_split() -> None:
    with pytest.raises(ValueError, match="no Battle groups"):
        sp.split(DATA, unit("sov-18rc"), "sov-htr-1")
