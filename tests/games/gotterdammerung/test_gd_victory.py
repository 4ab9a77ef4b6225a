"""Götterdämmerung victory (rulebook 11): pure rule functions of victory.py."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.gotterdammerung import counters as c
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import supply as s
from pbem.games.gotterdammerung import victory as v

BOARD = md.default_map()
DATA = c.default_counters()


def unit(uid: str, h: str) -> dict[str, Any]:
    return {"id": uid, "side": DATA["units"][uid]["side"], "hex": h}


def first(**want: str) -> str:
    return next(k for k, u in DATA["units"].items() if all(u.get(f) == x for f, x in want.items()))


def test_11_13_vp_hexes_as_printed() -> None:
    vp = v.vp_hexes(BOARD)
    assert vp["city:0626"] == 25  # Reichstag
    assert vp["op:2726"] == 15  # Potsdam
    assert vp["city:0825"] == 5 and vp["city:0726"] == 5 and vp["city:0829"] == 5
    assert vp["op:2908"] == 10 and vp["op:3220"] == 10 and vp["op:2928"] == 10
    assert vp["op:0407"] == 5 and vp["op:1812"] == 5 and vp["op:2310"] == 5
    assert vp["op:4110"] == 5
    assert sum(vp.values()) == 105
    assert v.soviet_hex_vp(BOARD, {"city:0626", "op:2726", "op:3010"}) == 40


def test_11_12_occupation_by_soviet_entry_removed_by_german_entry() -> None:
    occupied = v.after_entry(BOARD, set(), "soviet", "op:2726")
    assert occupied == {"op:2726"}
    assert v.after_entry(BOARD, occupied, "soviet", "op:3010") == occupied  # no VP there
    assert v.after_entry(BOARD, occupied, "german", "op:2726") == set()


def test_11_16_bonus_ten_on_turns_1_to_3_once_per_hex() -> None:
    assert v.bonus_vp(BOARD, 1, "city:0626", set()) == 10  # flat, not the 25 printed
    assert v.bonus_vp(BOARD, 3, "op:1812", set()) == 10
    assert v.bonus_vp(BOARD, 4, "op:1812", set()) == 0
    assert v.bonus_vp(BOARD, 2, "op:1812", {"op:1812"}) == 0  # retaken and reoccupied
    assert v.bonus_vp(BOARD, 2, "op:3010", set()) == 0


def test_11_17_meeting_at_the_elbe_table_and_once() -> None:
    assert [v.elbe_vp(t) for t in (5, 6, 7, 8, 9, 10)] == [0, 5, 4, 3, 2, 2]
    soviet = unit("sov-18rc", "op:2020")
    american = {"id": "us-1", "side": "german", "nationality": "american", "hex": "op:2021"}
    assert "op:2021" in md.neighbours(BOARD, "op:2020")
    units = [soviet, american]
    supplied = {"sov-18rc": s.SUPPLIED}
    assert v.meeting_at_elbe(BOARD, units, supplied, 7, already=False) == 4
    assert v.meeting_at_elbe(BOARD, units, supplied, 5, already=False) == 0
    assert v.meeting_at_elbe(BOARD, units, supplied, 8, already=True) == 0
    assert v.meeting_at_elbe(BOARD, units, {"sov-18rc": s.OUT}, 7, already=False) == 0


def test_11_14_unit_values() -> None:
    assert v.unit_vp(DATA, unit("ger-hitler", "city:0825")) == 25
    assert v.unit_vp(DATA, unit(first(parent="12A"), "op:2030")) == 0
    assert (
        v.unit_vp(DATA, {"id": "vs", "side": "german", "hex": "city:1119", "volkssturm": True}) == 0
    )
    for branch in v.ONE_VP_BRANCHES:
        german = [
            k
            for k, u in DATA["units"].items()
            if u["branch"] == branch and u["side"] == "german" and u["parent"] != "12A"
        ]
        assert german, branch
        assert v.unit_vp(DATA, unit(german[0], "op:2030")) == 1, branch
    assert v.unit_vp(DATA, unit(first(side="german", branch="panzergrenadier"), "op:2030")) == 2


def test_11_15_surviving() -> None:
    inf = first(side="german", branch="infantry")
    assert not md.east_of_start_line(BOARD, "op:2030")
    assert v.surviving(BOARD, DATA, [unit(inf, "op:2030")], unit(inf, "op:2030"))
    assert not v.surviving(BOARD, DATA, [], {"id": inf, "side": "german", "hex": v.NGP})
    cut_off = unit(inf, "op:2030")
    ringed = [unit("sov-18rc", h) for h in md.neighbours(BOARD, "op:2030")]
    assert not v.surviving(BOARD, DATA, [cut_off, *ringed], cut_off)
    hitler = unit("ger-hitler", "city:0825")
    ring = [unit("sov-18rc", h) for h in md.neighbours(BOARD, "city:0825")]
    assert v.surviving(BOARD, DATA, [hitler, *ring], hitler)  # the Führer needs no line
    berlin = unit(inf, "city:1119")
    assert not v.surviving(BOARD, DATA, [berlin], berlin)  # no German-held Transition Hex
    gate = unit(first(side="german", branch="panzergrenadier"), "op:2420")
    assert v.surviving(BOARD, DATA, [berlin, gate], berlin)
    assert v.german_vp(BOARD, DATA, [berlin, gate, hitler]) == 25 + 2 + 1


@pytest.mark.parametrize(
    ("difference", "level"),
    [
        (-5, "German strategic victory"),
        (10, "German strategic victory"),
        (11, "German operational victory"),
        (20, "German operational victory"),
        (21, "German tactical victory"),
        (31, "Draw"),
        (40, "Draw"),
        (41, "Soviet tactical victory"),
        (51, "Soviet operational victory"),
        (60, "Soviet operational victory"),
        (61, "Soviet strategic victory"),
    ],
)
def test_11_2_levels(difference: int, level: str) -> None:
    assert v.level(difference) == level
