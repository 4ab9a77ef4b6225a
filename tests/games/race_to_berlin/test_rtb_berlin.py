"""Rulebook 4.5 (Berlin) and 3/5 (the end of the game and victory)."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.board import set_control
from pbem.games.race_to_berlin.decisions import Support
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.testing import ScriptedContext, Table
from tests.games.race_to_berlin.rtb_support import (
    WIN,
    action_game,
    block,
    no_reserves,
    put_block,
    put_unit,
    set_area,
    units_at,
)


def at_berlin(first: str = "west") -> Table:
    """The West holds 13, 14 and 31 (us-9 in 31 with a 5-block); the Soviets 32 (su-1bf
    with a 5-block); de-11 (Western Front) and de-21 (Eastern Front) hold B1."""
    g = action_game(first)
    no_reserves(g)
    for area in ("13", "14", "31", "10", "7", "4"):
        set_area(g, area, "west")
        g.state["areas"][area]["fortification"] = None
    set_area(g, "32", "soviet")
    g.state["areas"]["32"]["fortification"] = None
    for unit, rec in g.state["units"].items():
        if rec["area"] in ("13", "14", "31", "32", "10", "7", "4"):
            put_unit(g, unit, None)
    put_unit(g, "us-9", "31")
    put_unit(g, "su-1bf", "32")
    put_unit(g, "de-11", "B1")
    put_unit(g, "de-21", "B1")
    put_block(g, "west", "31", 5)
    put_block(g, "soviet", "32", 5)
    return g


def test_4_5_berlin_holds_at_most_3_units_of_each_force() -> None:
    g = at_berlin()
    set_area(g, "B4", "west")
    set_area(g, "B5", "west")
    put_unit(g, "us-1", "B4")
    put_unit(g, "us-3", "B4")
    put_unit(g, "us-7", "B5")
    with pytest.raises(IllegalOrderError, match="Berlin holds at most 3 West units"):
        g.decide("west", "move 31 -> B5: us-9")


def test_4_5_the_west_enters_and_attacks_only_by_b4_and_b5() -> None:
    g = at_berlin()
    with pytest.raises(IllegalOrderError, match="may never attack B2"):
        g.decide("west", "attack B2 from 31 cubes 1")
    with pytest.raises(IllegalOrderError, match="B1 only from B4 or B5"):
        g.decide("west", "attack B1 from 31 cubes 1")
    set_area(g, "B2", "west")
    with pytest.raises(IllegalOrderError, match="may never enter B2"):
        g.decide("west", "move 31 -> B2: us-9")


def test_4_5_the_soviets_enter_and_attack_only_by_b2_and_b3() -> None:
    g = at_berlin("soviet")
    with pytest.raises(IllegalOrderError, match="may never attack B4"):
        g.decide("soviet", "attack B4 from 32 cubes 1")
    with pytest.raises(IllegalOrderError, match="B1 only from B2 or B3"):
        g.decide("soviet", "attack B1 from 32 cubes 1")


def test_4_5_german_units_only_in_b1() -> None:
    g = action_game("soviet")
    put_unit(g, "de-12", "31")
    put_unit(g, "de-11", "31")
    put_block(g, "soviet", "31", 3)
    put_block(g, "west", "1", 3)
    with pytest.raises(IllegalOrderError, match="German units in Berlin may be only in B1"):
        g.decide("soviet", "move 31 -> B4: de-12")
    g.decide("soviet", "move 31 -> B1: de-12")
    assert units_at(g, "B1") == ["de-12"]


def test_4_5_b1_germans_defend_the_outer_areas_and_stay_in_b1() -> None:
    g = at_berlin()
    b1 = put_block(g, "soviet", "B1", 2)
    ctx = g.decide("west", "attack B4 from 31 cubes 2")
    assert ctx.said("the German units in B1 defend B4 and stay in B1")
    combat = g.state["combat"]
    assert combat["defence_area"] == "B1"
    assert combat["defenders"] == ["de-11", "de-21"]
    assert combat["defender"] == "soviet"  # both fronts: the inactive player
    g.decide("soviet", "support in B1")  # B1's block is the defending area's own block
    ctx = g.decide("west", "no tokens", rolls=WIN)
    assert block(g, b1)["cubes"] == 1
    # the defender lost: a loss, no retreat, B4 becomes West; B1's Germans stay
    assert g.state["step"] == "loss"
    g.decide("soviet", "loss de-11")
    assert units_at(g, "B1") == ["de-11", "de-21"]
    assert g.state["areas"]["B4"]["control"] == "west"
    assert g.state["step"] == "advance"
    g.decide("west", "advance us-9 + block")
    assert units_at(g, "B4") == ["us-9"]


def test_4_5_the_west_attacks_b1_from_b4_and_wins_at_once_on_entering() -> None:
    g = at_berlin()
    set_area(g, "B4", "west")
    put_unit(g, "us-1", "B4")
    put_block(g, "west", "B4", 5)
    put_unit(g, "de-21", None)
    put_unit(g, "de-11", "B1", strength=1)  # eliminated by its loss: no retreat needed
    g.decide("west", "attack B1 from B4 cubes 2")
    g.decide("soviet", "no support")
    g.decide("west", "no tokens", rolls=WIN)
    assert g.state["areas"]["B1"]["control"] == "west"
    ctx = g.decide("west", "advance us-1 + block")
    assert ctx.said("West occupies B1: automatic victory (rulebook 5)")
    assert g.state["result"]["winner"] == "west"
    assert g.state["phase"] == "opening"
    while not g.over():
        g.decide(g.asked(), "open blocks")
    outcome = ENGINE.outcome(g.state)
    assert outcome is not None
    assert (outcome.winner, outcome.level) == ("west", "automatic victory")


def test_4_5_german_units_in_b1_attack_outer_areas_and_stay() -> None:
    g = at_berlin("soviet")
    set_area(g, "B4", "west")
    put_unit(g, "us-1", "B4")
    put_unit(g, "de-21", None)
    put_block(g, "soviet", "B1", 4)
    g.decide("soviet", "attack B4 from B1 cubes 2")
    g.decide("west", "no support")
    g.decide("soviet", "no tokens", rolls=WIN)
    g.decide("west", "retreat us-1 -> 31")
    assert g.state["areas"]["B4"]["control"] == "german"
    assert units_at(g, "B1") == ["de-11"]  # no advance into an outer area
    assert g.state["step"] == "action"


def test_4_5_a_b1_block_helps_31_and_32_and_conversely() -> None:
    g = at_berlin()
    set_area(g, "31", "german")
    put_unit(g, "us-9", "14")
    g.state["blocks"] = [b for b in g.state["blocks"] if b["area"] != "31"]
    put_block(g, "west", "14", 4)
    put_unit(g, "de-12", "31")
    helper = put_block(g, "soviet", "B1", 3)
    g.decide("west", "attack 31 from 14 cubes 1")
    assert g.state["combat"]["defender"] == "soviet"
    assert Support("B1", False) in ENGINE.choices(g.private("soviet"), "soviet")
    g.decide("soviet", "support from B1")
    assert block(g, helper)["cubes"] == 1


def test_4_5_with_two_blocks_in_b1_only_the_resolvers_block_is_used() -> None:
    g = at_berlin()
    west_b1 = put_block(g, "west", "B1", 5)  # with de-21 (Eastern Front)
    soviet_b1 = put_block(g, "soviet", "B1", 2)  # with de-11 (Western Front)
    g.decide("west", "attack B4 from 31 cubes 1")
    assert g.state["combat"]["defender"] == "soviet"  # both fronts: the inactive player
    g.decide("soviet", "support in B1")
    assert block(g, soviet_b1)["cubes"] == 1 and block(g, soviet_b1)["revealed"]
    assert block(g, west_b1)["cubes"] == 0 and not block(g, west_b1)["revealed"]


# --- rulebook 5 ---------------------------------------------------------------------------------


def test_5_victory_points_are_lost_with_control() -> None:
    g = action_game()
    set_area(g, "7", "west")
    g.state["eagles"]["7"] = "west"
    g.state["vp"]["west"] = 1
    ctx = ScriptedContext()
    set_control(g.state, "7", "german", ctx, "test")
    assert g.state["eagles"]["7"] is None and g.state["vp"]["west"] == 0
    assert ctx.said("West loses the victory token of 7 (Ruhr)")


def test_5_the_opponents_goal_area_gives_nobody_a_point() -> None:
    g = action_game("soviet")
    no_reserves(g)
    set_area(g, "25", "soviet")
    set_area(g, "13", "german")
    for unit in ("de-steiner", "de-blumentritt"):
        put_unit(g, unit, None)
    put_unit(g, "su-1bf", "25")
    put_block(g, "soviet", "25", 5)
    put_block(g, "west", "1", 3)
    set_area(g, "22", "soviet")
    set_area(g, "19", "soviet")
    set_area(g, "16", "soviet")
    g.decide("soviet", "attack 13 from 25 cubes 2")  # 13 Bremen & Hamburg: a blue eagle
    g.decide("soviet", "no tokens", rolls=WIN)
    ctx = g.decide("soviet", "advance su-1bf + block")
    assert g.state["vp"] == {"west": 0, "soviet": 0}
    assert g.state["eagles"]["13"] is None
    assert ctx.said("is the West goal: nobody gains its point")


@pytest.mark.parametrize("vp,winner,level", [((2, 1), "west", "points"), ((1, 1), None, "draw")])
def test_5_after_turn_3_the_most_victory_points_win_ties_allowed(
    vp: tuple[int, int], winner: str | None, level: str
) -> None:
    g = action_game("west", turn=3)
    g.state["vp"] = {"west": vp[0], "soviet": vp[1]}
    put_block(g, "west", "1", 3)
    put_block(g, "soviet", "29", 3)
    g.decide("west", "remove block in 1")
    g.decide("west", "open blocks")
    g.decide("soviet", "open blocks")
    outcome = ENGINE.outcome(g.state)
    assert outcome is not None and (outcome.winner, outcome.level) == (winner, level)
    assert outcome.score == {"west": vp[0], "soviet": vp[1]}
    assert ENGINE.prompts(g.state) == []
