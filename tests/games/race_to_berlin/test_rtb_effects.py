"""Rulebook 4.2.1.2 step 9 (combat effects) and the Counterattack token.

Dice: `WIN` gives the attacker +5 and the defender +0, `LOSE` the reverse. Reserves
tokens are turned down first (`no_reserves`) so that no re-roll prompt intervenes.
"""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.decisions import Advance, Counterattack, Retreat
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.testing import ScriptedContext, Table
from tests.games.race_to_berlin.rtb_support import (
    LOSE,
    WIN,
    action_game,
    block,
    clear_area,
    no_reserves,
    put_block,
    put_unit,
    set_area,
    units_at,
)


def use_all(g: Table, role: str, kind: str) -> None:
    for token in g.state["tokens"][role]:
        if token["kind"] == kind:
            token["used"] = True


def west_wins_lower_rhine(g: Table | None = None, soviet_value: int = 3) -> tuple[Table, str, str]:
    """West's 4-block in 1 attacks 4 (de-1fj, de-25, regular fortification) and wins."""
    if g is None:
        g = action_game("west")
    no_reserves(g)
    west = put_block(g, "west", "1", 4)
    german = put_block(g, "soviet", "4", soviet_value)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    g.decide("west", "no tokens", rolls=WIN)
    return g, west, german


# --- losses ---------------------------------------------------------------------------------------


def test_4_2_1_2_step_9_losing_german_defenders_lose_one_strength_chosen_by_the_loser() -> None:
    g, _, _ = west_wins_lower_rhine()
    assert g.state["step"] == "counterattack"
    g.decide("soviet", "no counterattack")
    assert g.state["step"] == "loss" and g.asked() == "soviet"
    assert {d.unit for d in ENGINE.choices(g.state, "soviet")} == {"de-1fj", "de-25"}
    ctx = g.decide("soviet", "loss de-25")
    assert g.state["units"]["de-25"]["strength"] == 3
    assert g.state["units"]["de-1fj"]["strength"] == 4
    assert ctx.said("de-25 (25th Army) loses 1 strength: now 3")


def test_4_2_1_2_step_9_a_unit_at_strength_1_is_eliminated_and_its_block_removed() -> None:
    g = action_game("west")
    put_unit(g, "de-1fj", None)
    put_unit(g, "de-25", "4", strength=1)
    g, _, german = west_wins_lower_rhine(g)
    # a single unit of strength 1: no counterattack, the loss is automatic
    assert g.state["units"]["de-25"]["status"] == "eliminated"
    assert block(g, german)["area"] is None
    assert block(g, german)["off"].startswith("no friendly unit left")
    assert g.state["cubes"]["soviet"]["pool"] == 20  # its cube came back
    assert g.state["areas"]["4"]["control"] == "west"
    assert g.state["step"] == "advance"


def test_4_2_1_2_step_9_attacking_germans_that_lose_take_the_loss() -> None:
    g = action_game("soviet")
    no_reserves(g)
    put_block(g, "soviet", "4", 3)
    put_block(g, "west", "2", 3)
    g.decide("soviet", "attack 1 from 4 cubes 2")
    g.decide("west", "no support")
    g.decide("soviet", "no tokens", rolls=LOSE)
    assert g.state["step"] == "loss" and g.asked() == "soviet"
    g.decide("soviet", "loss de-1fj")
    assert g.state["units"]["de-1fj"]["strength"] == 3
    assert g.state["combat"] is None and g.state["step"] == "action"


def test_4_2_1_2_step_9_the_defender_winning_changes_nothing_else() -> None:
    g = action_game("west")
    no_reserves(g)
    put_block(g, "west", "1", 2)
    put_block(g, "soviet", "4", 3)
    put_block(g, "soviet", "29", 2)
    before = {u: r["area"] for u, r in g.state["units"].items()}
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    g.decide("west", "no tokens", rolls=LOSE)
    assert {u: r["area"] for u, r in g.state["units"].items()} == before
    assert g.state["areas"]["4"]["control"] == "german"
    assert g.state["areas"]["4"]["fortification"]["kind"] == "regular"


# --- retreat ----------------------------------------------------------------------------------


def test_4_2_1_2_step_9_retreat_to_adjacent_friendly_areas_with_the_block() -> None:
    g, _, german = west_wins_lower_rhine()
    g.decide("soviet", "no counterattack")
    g.decide("soviet", "loss de-25")
    assert g.state["step"] == "retreat"
    # 4 borders 1 (West), 5 (German, full: 3 units) and 7 (German, empty)
    with pytest.raises(IllegalOrderError, match="cannot retreat to 5"):
        g.decide("soviet", "retreat de-1fj -> 5, de-25 -> 7, block -> 7")
    with pytest.raises(IllegalOrderError, match="must withdraw with its units"):
        g.decide("soviet", "retreat de-1fj -> 7, de-25 -> 7")
    ctx = g.decide("soviet", "retreat de-1fj -> 7, de-25 -> 7, block -> 7")
    assert units_at(g, "7") == ["de-1fj", "de-25"]
    assert block(g, german)["area"] == "7"
    assert ctx.said("fortification Westwall: Reichswald in 4 removed")
    assert g.state["areas"]["4"]["control"] == "west"
    assert g.state["areas"]["4"]["fortification"] is None


def test_4_2_1_2_step_9_units_that_cannot_withdraw_are_eliminated() -> None:
    g = action_game("west")
    put_unit(g, "de-11", "7")
    put_unit(g, "de-12", "7")  # 7 has room for one more
    g, _, german = west_wins_lower_rhine(g)
    g.decide("soviet", "no counterattack")
    g.decide("soviet", "loss de-25")
    with pytest.raises(IllegalOrderError, match="1 of the 2 defending units can withdraw"):
        # no text says "retreat nothing": the public decision is applied as it is
        ENGINE.apply(g.state, "soviet", Retreat((), ()), ScriptedContext())
    g.decide("soviet", "retreat de-1fj -> 7, block -> 7")
    assert g.state["units"]["de-25"]["status"] == "eliminated"
    assert g.state["units"]["de-1fj"]["area"] == "7"
    assert block(g, german)["area"] == "7"


def test_4_2_1_2_step_9_a_failed_retreat_eliminates_units_and_removes_the_block() -> None:
    g = action_game("west")
    for unit in ("de-11", "de-12", "de-blumentritt"):
        put_unit(g, unit, "7")
    g, _, german = west_wins_lower_rhine(g)
    g.decide("soviet", "no counterattack")
    ctx = g.decide("soviet", "loss de-25")
    assert g.state["units"]["de-1fj"]["status"] == "eliminated"
    assert g.state["units"]["de-25"]["status"] == "eliminated"
    assert block(g, german)["area"] is None
    assert ctx.said("no retreat possible")
    assert g.state["areas"]["4"]["control"] == "west"


def test_4_2_1_2_step_9_a_block_retreats_only_with_its_own_units() -> None:
    g, _, _ = west_wins_lower_rhine()
    g.decide("soviet", "no counterattack")
    g.decide("soviet", "loss de-25")
    with pytest.raises(IllegalOrderError, match="retreats only with a unit"):
        g.raw("soviet", Retreat((("de-1fj", "7"), ("de-25", "7")), ((None, "5"),)))


# --- fortifications ---------------------------------------------------------------------------


def test_4_2_1_2_step_6_major_fortification_holds_and_becomes_an_improved_position() -> None:
    g = action_game("west")
    no_reserves(g)
    put_block(g, "west", "2", 5)
    put_block(g, "soviet", "5", 2)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 5 from 2 cubes 2")  # 10 against 2 + 2 + 2 + 1 = 7
    g.decide("soviet", "support in 5")
    g.decide("west", "no tokens", rolls=WIN)
    assert g.state["step"] == "loss"  # no Counterattack: the major fortification holds anyway
    ctx = g.decide("soviet", "loss de-15")
    assert g.state["areas"]["5"]["control"] == "german"
    assert g.state["areas"]["5"]["fortification"]["kind"] == "improved"
    assert g.state["areas"]["5"]["fortification"]["defense"] == 1
    assert len(units_at(g, "5")) == 3
    assert ctx.said("major fortification Westwall: Hurtgen and Roer holds")


def test_4_2_1_2_step_6_major_fortification_without_defenders_is_removed() -> None:
    g = action_game("west")
    no_reserves(g)
    clear_area(g, "5")
    put_block(g, "west", "2", 5)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 5 from 2 cubes 2")
    g.decide("west", "no tokens", rolls=WIN)
    assert g.state["areas"]["5"]["fortification"] is None
    assert g.state["areas"]["5"]["control"] == "west"


# --- front line -------------------------------------------------------------------------------


def test_4_2_1_2_step_9_the_front_line_shifts_with_the_markers() -> None:
    g = action_game("west")
    assert g.state["markers"]["west"] == {"total": 25, "used": 5, "left": 20}
    g, _, _ = west_wins_lower_rhine(g)
    g.decide("soviet", "no counterattack")
    g.decide("soviet", "loss de-25")
    g.decide("soviet", "retreat de-1fj -> 7, de-25 -> 7, block -> 7")
    # 4 is West: 1-4 freed; 4-5 and 4-7 added
    assert g.state["markers"]["west"] == {"total": 25, "used": 6, "left": 19}


def test_4_2_1_2_step_9_without_markers_the_front_line_does_not_shift() -> None:
    g = action_game("west")
    g.state["markers"]["west"]["total"] = 5
    g, _, _ = west_wins_lower_rhine(g)
    g.decide("soviet", "no counterattack")
    g.decide("soviet", "loss de-25")
    ctx = g.decide("soviet", "retreat de-1fj -> 7, de-25 -> 7, block -> 7")
    assert ctx.said("front line does not shift")
    assert g.state["areas"]["4"]["control"] == "german"
    assert g.state["cubes"]["west"]["lost"] == 0  # no penalty for a West attacker
    assert g.state["step"] == "action"  # no advance into a German area


def marker_short_german_attack(pool: int) -> Table:
    """The West holds 1-6; Germans in 8 attack 5 (West, us-1): West's front would grow."""
    g = action_game("soviet")
    no_reserves(g)
    for area in ("4", "5", "6"):
        set_area(g, area, "west")
        clear_area(g, area)
    g.state["areas"]["5"]["fortification"] = None
    put_unit(g, "us-1", "5")
    put_unit(g, "us-9", "4")
    put_unit(g, "us-7", "6")
    put_unit(g, "de-24", "8")
    put_block(g, "soviet", "8", 5)
    put_block(g, "west", "1", 2)
    g.state["markers"]["west"]["total"] = g.state["markers"]["west"]["used"]
    g.state["cubes"]["west"]["pool"] = pool
    g.decide("soviet", "attack 5 from 8 cubes 2")
    g.decide("west", "no support")
    g.decide("soviet", "no tokens", rolls=WIN)
    return g


def test_4_2_1_2_step_9_german_success_without_defender_markers_costs_3_cubes() -> None:
    g = marker_short_german_attack(pool=10)
    ctx = g.decide("west", "retreat us-1 -> 1")
    assert ctx.said("front line does not shift")
    assert g.state["areas"]["5"]["control"] == "west"
    assert g.state["cubes"]["west"] == {"pool": 7, "lost": 3}


def test_5_an_unpayable_cube_penalty_loses_the_game_at_once() -> None:
    g = marker_short_german_attack(pool=2)
    g.decide("west", "retreat us-1 -> 1")
    assert g.state["result"] == {
        "winner": "soviet",
        "level": "cube loss",
        "reason": "West cannot pay 3 action cubes",
    }
    assert g.state["phase"] in ("opening", "over")
    while not g.over():
        g.decide(g.asked(), "open blocks")
    outcome = ENGINE.outcome(g.state)
    assert outcome is not None and outcome.winner == "soviet" and outcome.level == "cube loss"


def test_4_2_1_2_step_9_supply_base_special_rule() -> None:
    g = action_game("soviet")
    no_reserves(g)
    put_block(g, "soviet", "4", 5)
    put_block(g, "west", "2", 3)
    g.decide("soviet", "attack 1 from 4 cubes 2")
    g.decide("west", "no support")
    ctx = g.decide("soviet", "no tokens", rolls=WIN)
    assert g.state["cubes"]["west"] == {"pool": 19, "lost": 1}
    assert units_at(g, "1") == ["ca-1", "br-2", "us-9"]
    assert g.state["areas"]["1"]["control"] == "west"
    assert ctx.said("supply base 1: the defending units do not retreat")


# --- advance ----------------------------------------------------------------------------------


def conquer_4(g: Table | None = None) -> Table:
    g, _, _ = west_wins_lower_rhine(g)
    g.decide("soviet", "no counterattack")
    g.decide("soviet", "loss de-25")
    g.decide("soviet", "retreat de-1fj -> 7, de-25 -> 7, block -> 7")
    return g


def test_4_2_1_2_step_9_advance_any_or_all_attacking_pieces() -> None:
    g = conquer_4()
    assert g.state["step"] == "advance" and g.asked() == "west"
    options = ENGINE.choices(g.private("west"), "west")
    assert Advance() in options and Advance(("br-2", "ca-1", "us-9"), True) in options
    g.decide("west", "advance ca-1 us-9 + block")
    assert units_at(g, "4") == ["ca-1", "us-9"]
    assert g.state["step"] == "action" and g.state["active"] == "soviet"


def test_4_2_1_2_step_9_the_block_never_advances_alone_nor_stays_alone() -> None:
    g = conquer_4()
    with pytest.raises(Exception, match="never advances alone"):
        ENGINE.parse("advance block", g.state, "west")
    with pytest.raises(IllegalOrderError, match="by itself"):
        # the syntax refuses "advance block" (above): the public decision as it is
        ENGINE.apply(g.state, "west", Advance((), True), ScriptedContext())
    with pytest.raises(IllegalOrderError, match="left without a friendly unit"):
        g.decide("west", "advance br-2 ca-1 us-9")


def test_5_advancing_into_an_own_eagle_area_takes_its_victory_token() -> None:
    g = action_game("west")
    no_reserves(g)
    set_area(g, "4", "west")
    clear_area(g, "4")
    put_unit(g, "us-9", "4")
    put_block(g, "west", "4", 4)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 7 from 4 cubes 2")  # 7 (Ruhr, blue eagle) is empty
    g.decide("west", "no tokens", rolls=WIN)
    ctx = g.decide("west", "advance us-9 + block")
    assert g.state["eagles"]["7"] == "west" and g.state["vp"]["west"] == 1
    assert ctx.said("West takes the victory token of 7 (Ruhr)")


# --- who resolves -----------------------------------------------------------------------------


def test_4_2_1_2_step_9_one_player_resolves_both_sides() -> None:
    """The West attacking Eastern Front Germans decides for both sides."""
    g = action_game("west")
    no_reserves(g)
    clear_area(g, "4")
    put_unit(g, "de-4", "4")  # an Eastern Front unit, played by the West player
    put_block(g, "west", "1", 4)
    german = put_block(g, "west", "4", 3)  # the West player's own Eastern Front block
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 4 from 1 cubes 2")
    assert g.state["combat"]["defender"] == "west" and g.asked() == "west"
    g.decide("west", "support in 4")
    assert block(g, german)["revealed"]
    g.decide("west", "no tokens", rolls=WIN)
    # de-4 alone, strength 4: the West decides about a Counterattack against itself
    assert g.asked() == "west" and g.state["step"] == "counterattack"
    g.decide("west", "no counterattack")
    assert g.asked() == "west" and g.state["step"] == "retreat"
    g.decide("west", "retreat de-4 -> 7, block -> 7")
    assert g.state["areas"]["4"]["control"] == "west"


def test_4_2_1_2_step_9_mixed_fronts_defend_with_the_inactive_player() -> None:
    """German units of both fronts defend together: the inactive player resolves the
    defence, even with the active player's block in the target area."""
    g = action_game("west")
    no_reserves(g)
    put_unit(g, "de-25", None)
    put_unit(g, "de-4", "4")  # an Eastern Front unit joins de-1fj (Western Front)
    put_block(g, "west", "1", 4)
    mixed = put_block(g, "west", "4", 3)  # the West player's block with de-4
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 4 from 1 cubes 1")
    assert g.state["combat"]["defender"] == "soviet" and g.asked() == "soviet"
    ctx = g.decide("soviet", "support in 4")
    assert block(g, mixed)["cubes"] == 1 and not block(g, mixed)["revealed"]
    assert g.state["cubes"]["west"]["pool"] == 18  # the block's cube is its owner's
    assert ctx.said("Soviet supports the defence with the block in 4")
    g.decide("west", "no tokens", rolls=LOSE)  # the West opens its own block at step 5
    assert block(g, mixed)["revealed"] and block(g, mixed)["value"] == 3


# --- Counterattack ----------------------------------------------------------------------------


def test_special_tokens_counterattack_cancels_the_retreat_with_a_cube_and_a_loss() -> None:
    g, _, german = west_wins_lower_rhine()
    assert ENGINE.choices(g.state, "soviet") == [Counterattack(False), Counterattack(True)]
    ctx = g.decide("soviet", "counterattack")
    assert block(g, german)["cubes"] == 2 and g.state["cubes"]["soviet"]["pool"] == 18
    assert ctx.said("Soviet plays a Counterattack token")
    g.decide("soviet", "loss de-25")
    g.decide("soviet", "loss de-25")
    assert g.state["units"]["de-25"]["strength"] == 2
    assert units_at(g, "4") == ["de-1fj", "de-25"]
    assert g.state["areas"]["4"]["control"] == "german"
    assert g.state["areas"]["4"]["fortification"] is not None
    assert g.state["step"] == "action"


def test_special_tokens_counterattack_needs_an_active_supporting_block() -> None:
    g = action_game("west")
    no_reserves(g)
    put_block(g, "west", "1", 4)
    put_block(g, "soviet", "4", 2, revealed=True, cubes=1)  # its support cube exhausts it
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    g.decide("west", "no tokens", rolls=WIN)
    assert g.state["step"] == "loss"


def test_special_tokens_counterattack_needs_two_strength_points() -> None:
    g = action_game("west")
    put_unit(g, "de-1fj", None)
    put_unit(g, "de-25", "4", strength=1)
    put_unit(g, "de-24", "7")
    g, _, _ = west_wins_lower_rhine(g)
    assert g.state["step"] != "counterattack"


def test_special_tokens_counterattack_needs_a_token_and_a_cube() -> None:
    g = action_game("west")
    use_all(g, "soviet", "counterattack")
    g, _, _ = west_wins_lower_rhine(g)
    assert g.state["step"] == "loss"
    g = action_game("west")
    g, _, _ = west_wins_lower_rhine(g)
    g.state["cubes"]["soviet"]["pool"] = 0
    with pytest.raises(IllegalOrderError, match="no Counterattack"):
        g.decide("soviet", "counterattack")
