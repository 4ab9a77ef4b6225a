"""Götterdämmerung supply (rulebook 8.1, 8.2): pure rule functions of supply.py."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.games.gotterdammerung import counters as c
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import supply as s

BOARD = md.default_map()
DATA = c.default_counters()
EAST = set(md.edge_hexes(BOARD, "east"))


def unit(uid: str, h: str) -> dict[str, Any]:
    return {"id": uid, "side": DATA["units"][uid]["side"], "hex": h}


def german_with(zoc: str) -> str:
    return next(k for k, v in DATA["units"].items() if v["side"] == "german" and v["zoc"] == zoc)


def test_8_16_halving_rounds_up() -> None:
    assert s.halved(5) == 3 and s.halved(4) == 2 and s.halved(1) == 1
    full = {"attack": 5, "defence": 3, "movement": 7}
    assert s.strengths(full, s.OUT) == {"attack": 3, "defence": 2, "movement": 4}
    assert s.strengths(full, s.SUPPLIED) == full
    assert s.strengths(full, None) == full  # 8.2: German units are never out of supply
    # 8.18: defence-only supply escapes the halved defence strength only
    assert s.strengths(full, s.DEFENCE_ONLY) == {"attack": 3, "defence": 3, "movement": 4}


def test_8_12_turn_one_sources_are_the_01_hexes() -> None:
    board = copy.deepcopy(BOARD)
    board["edges"]["east"] = [*board["edges"]["east"], "op:4402"]
    assert "op:4402" in s.source_hexes(board, 2)
    assert "op:4402" not in s.source_hexes(board, 1)
    assert all(h.endswith("01") for h in s.source_hexes(board, 1))


def test_8_12_eight_hex_limit() -> None:
    inside = unit("sov-18rc", "op:3009")  # 8 hexes from the eastern edge
    beyond = unit("sov-46rc", "op:3010")  # 9 hexes
    status = s.supply_status(BOARD, DATA, [inside, beyond], turn=2)
    assert status["sov-18rc"] == s.SUPPLIED
    assert status["sov-46rc"] != s.SUPPLIED


def test_8_14_trace_respects_blocked_hexes_and_length() -> None:
    wall = {h for h in BOARD["hexes"] if h.startswith("op:") and h.endswith("05")}
    assert s.trace(BOARD, "soviet", "op:3008", EAST, lambda h: False, limit=8) is not None
    assert s.trace(BOARD, "soviet", "op:3008", EAST, wall.__contains__) is None
    assert s.trace(BOARD, "soviet", "op:3008", EAST, lambda h: False, limit=6) is None


def test_8_15_enemy_units_and_zoc_block_friendly_units_cancel_weak_zoc() -> None:
    weak = unit(german_with("weak"), "op:3010")
    alone = s.blocker(BOARD, DATA, [weak], "soviet")
    assert alone("op:3010")  # an enemy unit
    assert alone("op:3009")  # enemy ZOC, no friendly unit
    assert not alone("op:3007")
    helped = s.blocker(BOARD, DATA, [weak, unit("sov-18rc", "op:3009")], "soviet")
    assert not helped("op:3009")  # 8.15: traced through a ZOC hex with a friendly unit


def test_8_15_strong_zoc_is_not_cancelled_4_28() -> None:
    strong = unit("sov-18rc", "op:3010")  # a Soviet corps: strong ZOC (4.21)
    assert DATA["units"]["sov-18rc"]["zoc"] == "strong"
    units = [strong, unit(german_with("weak"), "op:3009")]
    assert s.blocker(BOARD, DATA, units, "german")("op:3009")
    # 11.15's option: a strong ZOC does not reach a German-occupied hex
    assert not s.blocker(BOARD, DATA, units, "german", strong_cancelled=True)("op:3009")


def test_8_13_depot_on_railroad_to_the_eastern_edge() -> None:
    depot = unit("sov-1bf-depot", "op:2613")
    assert s.depot_supplied(BOARD, DATA, [depot], depot, turn=5)
    off_rail = unit("sov-1bf-depot", "op:3010")
    assert not s.depot_supplied(BOARD, DATA, [off_rail], off_rail, turn=5)
    # an enemy unit on the railroad line cuts it (one line only, so no way round)
    board = copy.deepcopy(BOARD)
    board["railroads"] = [r for r in board["railroads"] if "op:2613" in r["hexes"]][:1]
    assert s.depot_supplied(board, DATA, [depot], depot, turn=5)
    cut = [depot, unit(german_with("weak"), "op:2905")]
    assert not s.depot_supplied(board, DATA, cut, depot, turn=5)


def test_8_13_zoc_on_the_depot_hex_cuts_even_with_friendly_units() -> None:
    depot = unit("sov-1bf-depot", "op:2613")
    units = [depot, unit("sov-9grc", "op:2613"), unit(german_with("weak"), "op:2513")]
    if "op:2613" not in md.neighbours(BOARD, "op:2513"):
        pytest.skip("stand-in map changed")
    assert not s.depot_supplied(BOARD, DATA, units, depot, turn=5)


def test_8_12_depot_of_own_front_only() -> None:
    depot = unit("sov-1bf-depot", "op:2613")
    own = unit("sov-9grc", "op:2616")
    other = unit("sov-18rc", "op:2616")
    status = s.supply_status(BOARD, DATA, [depot, own, other], turn=5)
    assert status["sov-1bf-depot"] == s.SUPPLIED
    assert status["sov-9grc"] == s.SUPPLIED
    assert status["sov-18rc"] != s.SUPPLIED


def test_8_17_city_units_through_a_soviet_occupied_transition_hex() -> None:
    depot = unit("sov-2bf-depot", "op:2517")  # either front's depot will do in Berlin
    inside = unit("sov-9grc", "city:1119")
    units = [depot, inside]
    assert not s.unit_supplied(BOARD, DATA, units, inside, turn=5)
    assert s.unit_supplied(BOARD, DATA, units, inside, turn=5, occupied={"op:2420"})
    # the Transition Hex must itself be within 8 hexes of the supplied depot
    far = unit("sov-2bf-depot", "op:2905")
    assert s.trace(BOARD, "soviet", "op:2420", {"op:2905"}, lambda h: False, limit=8) is None
    assert not s.unit_supplied(BOARD, DATA, [far, inside], inside, turn=5, occupied={"op:2420"})


def test_8_18_defence_only_east_of_the_start_line() -> None:
    assert md.east_of_start_line(BOARD, "op:3006")
    assert not md.east_of_start_line(BOARD, "op:3007")
    wall = [unit(german_with("weak"), f"op:{x:02d}03") for x in range(1, 45, 2)]
    east = unit("sov-18rc", "op:3006")
    west = unit("sov-46rc", "op:3008")
    status = s.supply_status(BOARD, DATA, [east, west], turn=2)
    assert status["sov-18rc"] == s.SUPPLIED
    # without a wall nothing changes; the defence-only rule needs only an unlimited line
    assert s.defence_only(BOARD, DATA, [east], east)
    assert not s.defence_only(BOARD, DATA, [west], west)
    walled = s.supply_status(BOARD, DATA, [east, *wall], turn=2)
    assert walled["sov-18rc"] == s.OUT
