"""Götterdämmerung initial deployment (rulebook 10.1-10.22, 6.91, 12.33): deployment.py."""

from __future__ import annotations

import copy
from typing import Any

from pbem.games.gotterdammerung import counters as c
from pbem.games.gotterdammerung import deployment as dp
from pbem.games.gotterdammerung import map_data as md

BOARD = md.default_map()
DATA = c.default_counters()
# The shipped stand-in area B (0810, 0909, 1010, 1011) is not contiguous: its two units
# cannot cover it (reported as a data issue). A contiguous B for the whole-layout tests:
FIXED = copy.deepcopy(BOARD)
FIXED["deployment"]["B"] = ["op:0810", "op:0910", "op:1010", "op:1011"]


def unit(uid: str, h: str, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "side": DATA["units"][uid]["side"], "hex": h, **extra}


def soviets() -> list[dict[str, Any]]:
    return [unit(u, h) for u, h in dp.soviet_deployment(DATA).items()]


def germans(layout: dict[str, str]) -> list[dict[str, Any]]:
    return [unit(u, h) for u, h in layout.items()]


def test_10_11_soviet_chart() -> None:
    chart = dp.soviet_deployment(DATA)
    assert chart["sov-18rc"] == "op:0106" and chart["sov-2gcc"] == "op:2308"
    assert set(chart) == set(c.initial(DATA, "soviet"))
    assert all(DATA["units"][u]["side"] == "soviet" for u in chart)


def test_10_12_out_of_supply_marks() -> None:
    assert dp.soviet_out_of_supply(DATA) == ["sov-9grc"]


def test_10_22_placement_in_the_area_of_the_code() -> None:
    assert dp.german_placement_problems(BOARD, DATA, [], "ger-281-inf", "op:0307") == []
    wrong = dp.german_placement_problems(BOARD, DATA, [], "ger-281-inf", "op:0810")
    assert wrong == ["ger-281-inf has code A: hex 0810 is not in area A (10.22)"]
    # 10.21: units without a code go on their chart hex
    assert dp.german_placement_problems(BOARD, DATA, [], "ger-depot", "op:3625") == []
    assert dp.german_placement_problems(BOARD, DATA, [], "ger-depot", "op:3626") == [
        "ger-depot is placed on hex 3625 (10.21)"
    ]
    assert "10.2" in dp.german_placement_problems(BOARD, DATA, [], "ger-fru-1", "op:0307")[0]
    assert "10.2" in dp.german_placement_problems(BOARD, DATA, [], "sov-18rc", "op:0307")[0]


def test_10_22_placement_stacking_and_soviet_hexes() -> None:
    placed = [unit("ger-281-inf", "op:0307"), unit("ger-610-zbv", "op:0307")]
    over = dp.german_placement_problems(BOARD, DATA, placed, "ger-stettin-flak", "op:0307")
    assert any("stacking points" in p for p in over)
    soviet = [unit("sov-18rc", "op:0407")]
    assert any(
        "Soviet" in p
        for p in dp.german_placement_problems(BOARD, DATA, soviet, "ger-281-inf", "op:0407")
    )


def test_10_22_every_area_hex_occupied_or_in_zoc() -> None:
    one = [unit("ger-281-inf", "op:0307")]
    assert dp.area_uncovered(BOARD, DATA, one, "A") == ["op:0507", "op:0607"]
    two = [*one, unit("ger-610-zbv", "op:0507")]
    assert dp.area_uncovered(BOARD, DATA, two, "A") == []
    # a unit of another code does not cover area A
    other = [*one, unit("ger-1-naval", "op:0507")]
    assert dp.area_uncovered(BOARD, DATA, other, "A") == ["op:0507", "op:0607"]
    # a disrupted unit has no ZOC (4.27) but still occupies its hex
    dis = [unit("ger-281-inf", "op:0407", disrupted=True)]
    assert dp.area_uncovered(BOARD, DATA, dis, "A") == ["op:0307", "op:0507", "op:0607"]


def test_10_22_default_layout_is_legal() -> None:
    layout = dp.default_german_deployment(FIXED, DATA)
    assert set(layout) == set(c.initial(DATA, "german"))
    assert dp.german_deployment_problems(FIXED, DATA, soviets() + germans(layout)) == []
    # the shipped map: only its non-contiguous area B is left short
    shipped = dp.default_german_deployment(BOARD, DATA)
    problems = dp.german_deployment_problems(BOARD, DATA, soviets() + germans(shipped))
    assert all(p.startswith("area B") for p in problems)


def test_10_22_whole_deployment_problems() -> None:
    layout = dp.default_german_deployment(FIXED, DATA)
    missing = dict(layout)
    del missing["ger-281-inf"]
    problems = dp.german_deployment_problems(FIXED, DATA, germans(missing))
    assert "ger-281-inf is not placed (10.2)" in problems
    moved = dict(layout, **{"ger-fhh": "op:2632"})
    assert any(
        "not in area J" in p for p in dp.german_deployment_problems(FIXED, DATA, germans(moved))
    )
    crowded = dict(layout, **{u: "op:3705" for u in c.in_area(DATA, "J")})
    problems = dp.german_deployment_problems(FIXED, DATA, germans(crowded))
    assert any("stacking points" in p for p in problems)
    assert any(p.startswith("area J") for p in problems)


def test_6_91_artillery_on_a_corps_of_the_same_army() -> None:
    units = soviets()
    assert dp.artillery_problems(DATA, units, "art-8ga", "sov-4grc") == []
    wrong = dp.artillery_problems(DATA, units, "art-8ga", "sov-9grc")
    assert wrong == ["art-8ga goes on a corps of army 8GA; sov-9grc belongs to 61A (6.91)"]
    assert dp.artillery_problems(DATA, units, "art-9xx", "sov-4grc")
    assert dp.artillery_problems(DATA, units, "art-8ga", "ger-281-inf")
    assert dp.artillery_problems(DATA, [], "art-8ga", "sov-4grc")  # not on the map
    marked = [dict(u, artillery=True) if u["id"] == "sov-4grc" else u for u in units]
    assert any("already" in p for p in dp.artillery_problems(DATA, marked, "art-8ga", "sov-4grc"))


def sixth_ss_layout(hq: str) -> dict[str, str]:
    grid = md.grids(BOARD)[md.OP]
    near = sorted(
        h
        for h in BOARD["hexes"]
        if md.kind(BOARD, h) == md.OPERATIONAL
        and grid.distance(int(h[-4:]), int(hq[-4:])) <= dp.SIXTH_SS_RANGE
    )
    members = [u for u in c.pool(DATA, "6th-ss") if DATA["units"][u]["branch"] != "hq"]
    return {u: near[i // 2] for i, u in enumerate(members)}  # two units, 2-4 points a hex


def test_12_33_sixth_ss_placement() -> None:
    hq = "op:2420"
    layout = sixth_ss_layout(hq)
    assert len(layout) == 19
    assert dp.sixth_ss_problems(BOARD, DATA, [], hq, layout) == []
    off = dp.sixth_ss_problems(BOARD, DATA, [], "op:2632", layout)
    assert any("Transition Hex" in p for p in off)
    first = next(iter(layout))
    far = dp.sixth_ss_problems(BOARD, DATA, [], hq, dict(layout, **{first: "op:4432"}))
    assert any("more than six hexes" in p for p in far)
    city = dp.sixth_ss_problems(BOARD, DATA, [], hq, dict(layout, **{first: "city:0726"}))
    assert any("not on the Operational Map" in p for p in city)
    short = dict(layout)
    del short[first]
    assert f"{first} is not placed (12.33)" in dp.sixth_ss_problems(BOARD, DATA, [], hq, short)
    crowded = dict(layout, **dict.fromkeys(list(layout)[:3], layout[first]))
    assert any("stacking" in p for p in dp.sixth_ss_problems(BOARD, DATA, [], hq, crowded))
    soviet = [unit("sov-18rc", layout[first])]
    assert any("Soviet" in p for p in dp.sixth_ss_problems(BOARD, DATA, soviet, hq, layout))
    assert dp.sixth_ss_problems(BOARD, DATA, [], hq, dict(layout, **{"ger-281-inf": hq}))


def test_12_33_read_from_the_units_in_place() -> None:
    hq = "op:2420"
    layout = sixth_ss_layout(hq)
    placed = [unit(u, h) for u, h in layout.items()] + [unit("ger-6ss-hq", hq)]
    assert dp.sixth_ss_problems(BOARD, DATA, placed) == []
    assert dp.sixth_ss_problems(BOARD, DATA, placed[:-1]) == [
        "the 6th SS Panzer Army HQ is not placed (12.33)"
    ]
    first = next(iter(layout))
    moved = [unit(first, "op:4432") if u["id"] == first else u for u in placed]
    assert any("more than six hexes" in p for p in dp.sixth_ss_problems(BOARD, DATA, moved))


def test_12_33_to_deploy_and_default_layout() -> None:
    plain = dp.to_deploy(DATA)
    assert set(plain) == set(c.initial(DATA, "german"))
    both = dp.to_deploy(DATA, sixth_ss=True)
    assert set(both) - set(plain) == set(c.pool(DATA, "6th-ss")) and len(both) == len(plain) + 20
    layout = dp.default_german_deployment(FIXED, DATA)
    rest = soviets() + germans(layout)
    extra = dp.default_sixth_ss(FIXED, DATA, rest)
    assert set(extra) == set(c.pool(DATA, "6th-ss"))
    everything = rest + germans(extra)
    assert dp.sixth_ss_problems(FIXED, DATA, everything) == []
    assert dp.german_deployment_problems(FIXED, DATA, everything) == []
