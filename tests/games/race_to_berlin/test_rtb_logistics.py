"""Rulebook 4.1 and 4.1.1: the Logistics Phase, placing sealed logistics blocks."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.decisions import Move, Place
from pbem.games.race_to_berlin.flow import start_turn
from pbem.games.race_to_berlin.logistics import eligible_areas
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.testing import ScriptedContext
from tests.games.race_to_berlin.rtb_support import (
    DATA,
    new_game,
    put_unit,
)


def test_4_1_1_turn_1_the_soviet_player_places_first_then_players_alternate() -> None:
    g = new_game()
    assert g.state["phase"] == "logistics" and g.state["first"] == "soviet"
    assert g.asked() == "soviet"
    g.decide("soviet", "place 5 in 29")
    assert g.asked() == "west"
    g.decide("west", "place 5 in 1")
    assert g.asked() == "soviet"


def test_4_1_1_turn_2_the_west_places_first() -> None:
    state = ENGINE.setup(DATA, {})
    state["turn"] = 2
    ctx = ScriptedContext()
    start_turn(state, ctx)
    assert state["first"] == "west" and state["active"] == "west"
    assert ctx.rolls == []


@pytest.mark.parametrize("vp,first", [((2, 1), "west"), ((0, 1), "soviet")])
def test_4_1_1_turn_3_the_player_with_more_victory_points_places_first(
    vp: tuple[int, int], first: str
) -> None:
    state = ENGINE.setup(DATA, {})
    state["turn"] = 3
    state["vp"] = {"west": vp[0], "soviet": vp[1]}
    ctx = ScriptedContext()
    start_turn(state, ctx)
    assert state["first"] == first and ctx.rolls == []


@pytest.mark.parametrize("die,first", [(1, "west"), (2, "soviet")])
def test_4_1_1_turn_3_a_tie_is_decided_by_a_public_die(die: int, first: str) -> None:
    state = ENGINE.setup(DATA, {})
    state["turn"] = 3
    ctx = ScriptedContext([die])
    start_turn(state, ctx)
    assert ctx.purposes == ["turn 3: first player"]
    assert state["first"] == first
    assert ctx.said(f"die {die}")


def test_4_1_1_eligible_areas_hold_a_unit_the_player_commands() -> None:
    g = new_game()
    soviet = {d.area for d in ENGINE.choices(g.private("soviet"), "soviet")}
    # Soviet units (28-30) and Western Front German units (4, 5, 6, 9, 13, 14, 15)
    assert soviet == {"4", "5", "6", "9", "13", "14", "15", "28", "29", "30"}
    assert ENGINE.choices(g.private("west"), "west") == []  # not the West's turn
    west = set(eligible_areas(g.state, "west"))
    assert west == {"1", "2", "3", "16", "17", "18", "21", "22", "25", "26"}
    with pytest.raises(IllegalOrderError, match="no unit commanded by Soviet"):
        g.decide("soviet", "place 4 in 1")
    with pytest.raises(IllegalOrderError, match="no unit commanded by Soviet"):
        g.decide("soviet", "place 4 in 7")  # an empty German area


def test_4_1_1_one_block_per_area() -> None:
    g = new_game()
    put_unit(g, "de-4", "4")  # both players now command a unit in 4
    g.decide("soviet", "place 5 in 4")
    with pytest.raises(IllegalOrderError, match="already holds a logistics block"):
        g.decide("west", Place("4", 3))
    g.decide("west", "place 3 in 1")
    with pytest.raises(IllegalOrderError, match="already holds a logistics block"):
        g.decide("soviet", "place 2 in 4")


def test_4_1_1_b1_holds_one_block_per_player() -> None:
    g = new_game()
    put_unit(g, "de-11", "B1")  # Western Front (Soviet player)
    put_unit(g, "de-21", "B1")  # Eastern Front (West player)
    g.decide("soviet", "place 4 in B1")
    g.decide("west", "place 4 in b1")
    blocks = [b for b in g.state["blocks"] if b["area"] == "B1"]
    assert [b["owner"] for b in blocks] == ["soviet", "west"]
    assert all(b["force"] == "german" for b in blocks)
    with pytest.raises(IllegalOrderError, match="B1 already holds a Soviet block"):
        g.decide("soviet", "place 3 in B1")


def test_4_1_1_players_choose_any_remaining_block_each_once() -> None:
    g = new_game()
    g.decide("soviet", "place 5 in 28")
    g.decide("west", "place 2 in 1")
    g.decide("soviet", "place 5 in 29")
    assert g.private("soviet")["hands"]["soviet"] == [2, 2, 3, 3, 4, 4]
    g.decide("west", "place 2 in 2")
    with pytest.raises(IllegalOrderError, match="no 5-block left"):
        g.decide("soviet", "place 5 in 30")


def test_4_1_1_a_player_must_place_if_possible() -> None:
    g = new_game()
    options = ENGINE.choices(g.private("soviet"), "soviet")
    assert options and all(isinstance(d, Place) for d in options)
    with pytest.raises(IllegalOrderError, match="not possible now"):
        g.decide("soviet", Move("28", "16", ("su-3bf",)))


def test_4_1_1_blocks_without_an_eligible_area_are_unused() -> None:
    g = new_game()
    # the West keeps units in two areas only
    for unit, rec in g.state["units"].items():
        if rec["force"] in ("west", "german-east") and rec["area"] not in ("1", "2"):
            put_unit(g, unit, None)
    g.decide("soviet", "place 5 in 28")
    g.decide("west", "place 5 in 1")
    g.decide("soviet", "place 5 in 29")
    g.decide("west", "place 4 in 2")
    # the West has no eligible area left: the Soviets place alone
    for value, area in ((4, "30"), (4, "4"), (3, "5"), (3, "6"), (2, "9")):
        assert g.asked() == "soviet"
        g.decide("soviet", f"place {value} in {area}")
    ctx = g.decide("soviet", "place 2 in 13")
    assert g.state["phase"] == "action"
    assert g.state["unplaced"] == {"west": 6, "soviet": 0}
    assert ctx.said("West has no eligible area for its 6 remaining block(s)")
    assert g.state["active"] == "soviet"  # the first player acts first


def test_4_1_a_placement_is_public_without_its_value() -> None:
    g = new_game()
    public, values, opened = g.prepare("soviet", "place 4 in 29")
    assert ENGINE.format(public) == "place block in 29"
    assert values == {"block/soviet/t1/1": 4} and opened == []
    g.decide("soviet", "place 4 in 29")
    b = g.state["blocks"][0]
    assert b["label"] == "block/soviet/t1/1" and b["value"] is None and not b["revealed"]


def test_4_1_a_placement_must_commit_its_value_under_its_label() -> None:
    g = new_game()
    with pytest.raises(IllegalOrderError, match="never public"):
        g.raw("soviet", Place("29", 4))
    with pytest.raises(IllegalOrderError, match=r"must commit block/soviet/t1/1 \(rulebook 4\.1"):
        g.raw("soviet", Place("29"))
    with pytest.raises(IllegalOrderError, match="block/soviet/t1/7 may not be committed"):
        g.raw("soviet", Place("29"), {"block/soviet/t1/7": 4})
    with pytest.raises(IllegalOrderError, match="block/soviet/t1/7 may not be committed"):
        g.raw("soviet", Place("29"), {"block/soviet/t1/1": 4, "block/soviet/t1/7": 4})
    with pytest.raises(IllegalOrderError, match="say which block"):
        ENGINE.seal(g.private("soviet"), "soviet", Place("29"))


def test_4_1_the_action_phase_follows_with_the_same_first_player() -> None:
    g = new_game()
    for _ in range(16):
        role = g.asked()
        hand = g.private(role)["hands"][role]
        area = ENGINE.choices(g.private(role), role)[0].area
        g.decide(role, Place(area, hand[-1]))
    assert g.state["phase"] == "action" and g.state["step"] == "action"
    assert g.asked() == "soviet"
    assert g.state["placed"] == {"west": 8, "soviet": 8}
