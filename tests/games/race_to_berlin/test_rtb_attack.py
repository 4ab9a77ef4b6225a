"""Rulebook 4.2.1.2 steps 1-8 and the special tokens: one test per rule, named by section.

Positions are test arrangements (tests/games/race_to_berlin/rtb_support.py). Dice are
scripted in the order the engine asks: attacker die 1, die 2, defender die 1, die 2.
"""

from __future__ import annotations

import pytest

from pbem.errors import EntropyPending, IllegalOrderError
from pbem.games.race_to_berlin.decisions import Attack, Support, Tokens
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.testing import ScriptedContext, Table
from tests.games.race_to_berlin.rtb_support import (
    action_game,
    block,
    clear_area,
    put_block,
    put_unit,
    set_area,
)


def fight(g: Table) -> dict:
    """The attack in progress, or the last one finished."""
    return g.state["combat"] or g.state["last_combat"]


def lower_rhine(west_value: int = 4, soviet_value: int = 3) -> tuple[Table, str, str]:
    """West block in 1 attacks area 4 (Lower Rhine: de-1fj, de-25, regular fortification,
    terrain 1, no river); the Soviet player's Western Front German block sits in 4."""
    g = action_game("west")
    west = put_block(g, "west", "1", west_value)
    german = put_block(g, "soviet", "4", soviet_value)
    put_block(g, "soviet", "29", 2)
    put_block(g, "west", "2", 2)
    return g, west, german


# --- steps 1-3 ----------------------------------------------------------------------------------


def test_4_2_1_2_step_1_the_attack_starts_from_an_area_with_an_own_block() -> None:
    g, _, _ = lower_rhine()
    with pytest.raises(IllegalOrderError, match=r"no logistics block in 3 .*step 1"):
        g.decide("west", "attack 6 from 3 cubes 1")


def test_4_2_1_2_step_2_only_adjacent_enemy_areas() -> None:
    g, _, _ = lower_rhine()
    with pytest.raises(IllegalOrderError, match="not adjacent"):
        g.decide("west", "attack 7 from 1 cubes 1")
    with pytest.raises(IllegalOrderError, match="not an enemy one"):
        g.decide("west", "attack 2 from 1 cubes 1")


def test_4_2_1_1_allied_areas_cannot_be_attacked() -> None:
    g, _, _ = lower_rhine()
    set_area(g, "4", "soviet")
    clear_area(g, "4")
    g.state["blocks"] = [b for b in g.state["blocks"] if b["area"] != "4"]
    with pytest.raises(IllegalOrderError, match="allied area"):
        g.decide("west", "attack 4 from 1 cubes 1")


def test_4_2_1_2_step_3_one_or_two_cubes_and_two_double_the_block() -> None:
    g, west, _ = lower_rhine()
    g.decide("west", "attack 4 from 1 cubes 2")
    assert g.state["cubes"]["west"]["pool"] == 18
    assert block(g, west)["cubes"] == 2
    assert g.state["combat"]["doubled_by_cubes"] is True
    with pytest.raises(Exception, match="1 or 2"):
        ENGINE.parse("attack 4 from 1 cubes 3", g.state, "west")


def test_4_2_1_2_step_3_german_attacks_always_use_two_cubes_undoubled() -> None:
    g = action_game("soviet")
    german = put_block(g, "soviet", "4", 5)
    put_block(g, "west", "2", 3)
    with pytest.raises(IllegalOrderError, match="German attack always uses 2 action cubes"):
        g.decide("soviet", Attack("1", "4", 1))
    assert ENGINE.parse("attack 1 from 4", g.state, "soviet") == Attack("1", "4", 2)
    g.decide("soviet", "attack 1 from 4 cubes 2")
    assert g.state["combat"]["doubled_by_cubes"] is False
    assert block(g, german)["cubes"] == 2
    g.decide("west", "no support")
    ctx = g.decide("soviet", "no tokens", rolls=[3, 3, 3, 3])
    assert fight(g)["attack"]["base"] == 5  # the block's value, not doubled
    assert any("logistics block 5" in t for t in ctx.texts)


def test_4_2_1_2_step_3_cubes_come_from_the_pool() -> None:
    g, _, _ = lower_rhine()
    g.state["cubes"]["west"]["pool"] = 1
    with pytest.raises(IllegalOrderError, match="1 action cubes in the pool, 2 needed"):
        g.decide("west", "attack 4 from 1 cubes 2")


def test_4_1_an_exhausted_block_cannot_attack() -> None:
    g, west, _ = lower_rhine(west_value=2)
    g.decide("west", "attack 4 from 1 cubes 2")  # the client adds the exhaustion claim
    assert g.history[-1][2] == "attack 4 from 1 cubes 2 exhausting"
    assert block(g, west)["exhausted"] is True


# --- step 4: support ---------------------------------------------------------------------------


def test_4_2_1_2_step_4_an_active_block_in_the_target_must_defend() -> None:
    g, _, german = lower_rhine()
    g.decide("west", "attack 4 from 1 cubes 1")
    assert g.asked() == "soviet"
    assert ENGINE.choices(g.private("soviet"), "soviet") == [Support("4", True)]
    with pytest.raises(IllegalOrderError, match="step 4"):
        g.decide("soviet", "no support")
    g.decide("soviet", "support in 4")
    b = block(g, german)
    assert b["cubes"] == 1 and b["revealed"] and b["value"] == 3
    assert g.state["cubes"]["soviet"]["pool"] == 19


def test_4_2_1_2_step_4_an_adjacent_block_may_help_an_area_without_one() -> None:
    g = action_game("west")
    put_block(g, "west", "1", 4)
    helper = put_block(g, "soviet", "5", 5)  # 5 borders 4
    choices = ENGINE.choices(g.private("west"), "west")
    assert Attack("4", "1", 1) in choices
    g.decide("west", "attack 4 from 1 cubes 1")
    options = ENGINE.choices(g.private("soviet"), "soviet")
    assert options == [Support(None), Support("5", False)]
    g.decide("soviet", "support from 5")
    assert block(g, helper)["cubes"] == 1
    g.decide("west", "no tokens", rolls=[1, 1, 1, 1])
    assert fight(g)["defence"]["modifiers"][0] == {
        "reason": "defending logistics block 5 from 5",
        "value": 5,
    }


def test_4_2_1_2_step_4_only_one_adjacent_block_and_none_is_fine() -> None:
    g = action_game("west")
    put_block(g, "west", "1", 4)
    put_block(g, "soviet", "5", 5)
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "no support")
    ctx = g.decide("west", "no tokens", rolls=[1, 1, 1, 1])
    assert ctx.said("defending units without a block 1")


def test_4_2_1_2_step_4_an_exhausted_target_block_blocks_adjacent_help() -> None:
    g, _, german = lower_rhine()
    put_block(g, "soviet", "5", 5)
    b = block(g, german)
    b.update(revealed=True, value=3, cubes=3, exhausted=True)
    g.decide("west", "attack 4 from 1 cubes 1")
    assert ENGINE.choices(g.private("soviet"), "soviet") == [Support(None)]
    with pytest.raises(IllegalOrderError, match="step 4"):
        g.decide("soviet", "support from 5")


def test_4_2_1_2_step_4_no_cubes_left_the_target_block_is_removed() -> None:
    g, _, german = lower_rhine()
    g.state["cubes"]["soviet"]["pool"] = 0
    g.decide("west", "attack 4 from 1 cubes 1")
    assert ENGINE.choices(g.private("soviet"), "soviet") == [Support(None)]
    ctx = g.decide("soviet", "no support")
    assert block(g, german)["area"] is None
    assert ctx.said("no action cube left to place")
    ctx = g.decide("west", "no tokens", rolls=[1, 1, 1, 1])
    assert ctx.said("defending units without a block 1")


def test_4_2_1_2_step_4_no_defending_units_no_support_and_no_prompt() -> None:
    g = action_game("west")
    put_block(g, "west", "1", 4)
    put_block(g, "soviet", "5", 5)
    clear_area(g, "4")
    g.decide("west", "attack 4 from 1 cubes 1")
    assert g.state["step"] == "tokens" and g.asked() == "west"
    ctx = g.decide("west", "no tokens", rolls=[1, 1, 1, 1])
    # fortification 2 + terrain 1, no block, no unit
    assert fight(g)["defence"]["base"] == 3
    assert g.asked() == "west"
    g.decide("west", "keep")
    ctx = g.decide("soviet", "keep")  # the empty Western Front area: the Soviet player
    assert ctx.said("attack 4 against defence 3")


# --- step 5: reveal ------------------------------------------------------------------------------


def test_4_2_1_2_step_5_both_blocks_are_revealed_and_stay_revealed() -> None:
    g, west, german = lower_rhine()
    g.decide("west", "attack 4 from 1 cubes 1")
    assert block(g, west)["value"] is None  # still sealed until step 5
    g.decide("soviet", "support in 4")
    g.decide("west", "no tokens", rolls=[1, 1, 6, 6])
    assert block(g, west)["revealed"] and block(g, west)["value"] == 4
    assert block(g, german)["revealed"] and block(g, german)["value"] == 3


def test_4_2_1_2_step_5_a_revealed_block_attacks_only_weaker_revealed_blocks() -> None:
    g = action_game("west")
    put_block(g, "west", "1", 2, revealed=True)
    put_block(g, "soviet", "4", 3, revealed=True)
    put_block(g, "soviet", "5", 5)
    with pytest.raises(IllegalOrderError, match="step 5"):
        g.decide("west", "attack 4 from 1 cubes 1")
    # doubled by 2 cubes it attacks with 4: allowed
    g.decide("west", "attack 4 from 1 cubes 2 exhausting")
    assert g.state["step"] == "support"


def test_4_2_1_2_step_5_a_revealed_block_may_attack_a_concealed_one() -> None:
    g = action_game("west")
    put_block(g, "west", "1", 2, revealed=True)
    put_block(g, "soviet", "4", 5)
    g.decide("west", "attack 4 from 1 cubes 1")
    assert g.state["step"] == "support"


# --- step 6: strengths ---------------------------------------------------------------------------


def test_4_2_1_2_step_6_strengths_fortification_terrain_and_river() -> None:
    g = action_game("west")
    put_block(g, "west", "2", 3)
    put_block(g, "soviet", "5", 4)
    g.decide("west", "attack 5 from 2 cubes 1")
    g.decide("soviet", "support in 5")
    ctx = g.decide("west", "no tokens", rolls=[1, 1, 1, 1])
    combat = fight(g)
    assert combat["attack"]["base"] == 3
    reasons = [m["reason"] for m in combat["defence"]["modifiers"]]
    assert reasons == [
        "defending logistics block 4",
        "fortification +2 (Westwall: Hurtgen and Roer, major)",
        "difficult terrain +2",
        "river +1",
    ]
    assert combat["defence"]["base"] == 9
    for text in ("defence strength: river +1", "defence strength: difficult terrain +2"):
        assert ctx.said(text)


def test_4_2_1_2_step_6_improved_position_adds_one() -> None:
    g = action_game("west")
    set_area(g, "6", "west")
    clear_area(g, "6")
    put_unit(g, "us-7", "6")
    put_block(g, "west", "6", 3)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 8 from 6 cubes 1")  # 8: improved position, no unit, river
    ctx = g.decide("west", "no tokens", rolls=[1, 1, 1, 1])
    assert ctx.said("fortification +1 (Rhine-Main positions, improved)")
    assert fight(g)["defence"]["base"] == 2  # +1 improved, +1 river


# --- step 7-8: dice and the result ---------------------------------------------------------------


def test_4_2_1_2_step_7_positive_difference_of_two_dice_per_side() -> None:
    g, _, _ = lower_rhine(west_value=4, soviet_value=3)
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    ctx = g.decide("west", "no tokens", rolls=[2, 6, 5, 1])
    assert ctx.purposes == [
        "attack 4 from 1: west die 1",
        "attack 4 from 1: west die 2",
        "attack 4 from 1: german die 1",
        "attack 4 from 1: german die 2",
    ]
    assert g.state["combat"]["dice"] == {"attack": [2, 6], "defence": [5, 1]}
    assert ctx.said("west dice 2 and 6: +4 to the attack")


@pytest.mark.parametrize("dice,winner", [([6, 1, 1, 1], "attack"), ([5, 1, 1, 1], "defence")])
def test_4_2_1_2_step_8_the_attacker_wins_only_with_more(dice: list[int], winner: str) -> None:
    # attack 2 against defence 6: +5 (7 > 6) wins, +4 (6 = 6) ties and the defender wins
    g, _, _ = lower_rhine(west_value=2, soviet_value=3)
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    g.decide("west", "no tokens", rolls=dice)
    g.decide("west", "keep")
    g.decide("soviet", "keep")
    combat = g.state["combat"] or fight(g)
    # attack 2 + bonus against defence 3 + 2 (regular) + 1 (terrain) = 6
    assert combat["totals"]["defence"] == 6
    assert combat["winner"] == winner
    if winner == "defence":
        assert combat["totals"]["attack"] == 6  # a tie goes to the defender


# --- special tokens -----------------------------------------------------------------------------


def test_special_tokens_logistics_doubles_and_not_after_two_cubes() -> None:
    g, _, _ = lower_rhine()
    g.decide("west", "attack 4 from 1 cubes 2")
    g.decide("soviet", "support in 4")
    assert Tokens(True, False) not in ENGINE.choices(g.private("west"), "west")
    with pytest.raises(IllegalOrderError, match="already doubled"):
        g.decide("west", "tokens logistics")

    g, _, _ = lower_rhine()
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    ctx = g.decide("west", "tokens logistics", rolls=[1, 1, 1, 1])
    assert ctx.said("attack strength: logistics token doubles")
    assert g.state["combat"]["attack"]["base"] == 8
    used = [t for t in g.state["tokens"]["west"] if t["used"]]
    assert [t["kind"] for t in used] == ["logistics"]


def test_special_tokens_logistics_works_on_a_block_exhausted_by_its_last_cube() -> None:
    g = action_game("west")
    put_block(g, "west", "1", 2, revealed=True, cubes=1)
    put_block(g, "soviet", "4", 3)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 4 from 1 cubes 1 exhausting")
    g.decide("soviet", "support in 4")
    g.decide("west", "tokens logistics", rolls=[1, 1, 1, 1])
    assert g.state["combat"]["attack"]["base"] == 4


@pytest.mark.parametrize("cubes,logistics,bonus", [(1, False, 1), (2, False, 2), (1, True, 2)])
def test_special_tokens_support_plus_one_or_two_for_allies(
    cubes: int, logistics: bool, bonus: int
) -> None:
    g, _, _ = lower_rhine()
    g.decide("west", f"attack 4 from 1 cubes {cubes}")
    g.decide("soviet", "support in 4")
    text = "tokens logistics support" if logistics else "tokens support"
    ctx = g.decide("west", text, rolls=[1, 1, 1, 1])
    assert ctx.said(f"support token +{bonus}")


def test_special_tokens_support_always_plus_one_for_germans() -> None:
    g = action_game("soviet")
    put_block(g, "soviet", "4", 5)
    put_block(g, "west", "2", 3)
    g.decide("soviet", "attack 1 from 4 cubes 2")
    g.decide("west", "no support")
    ctx = (
        g.decide("soviet", "tokens logistics support", rolls=[1, 1, 1, 1])
        if any(
            t["kind"] == "logistics" and t["force"] == "german-west"
            for t in g.state["tokens"]["soviet"]
        )
        else g.decide("soviet", "tokens support", rolls=[1, 1, 1, 1])
    )
    assert ctx.said("support token +1")


def test_special_tokens_a_token_is_used_once_per_turn() -> None:
    g, _, _ = lower_rhine()
    for token in g.state["tokens"]["west"]:
        if token["kind"] == "support":
            token["used"] = True
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    with pytest.raises(IllegalOrderError, match="no Support token left"):
        g.decide("west", "tokens support")


def test_special_tokens_reserves_attacker_first_then_defender() -> None:
    g, _, _ = lower_rhine()
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    g.decide("west", "no tokens", rolls=[1, 1, 6, 1])
    assert g.state["step"] == "reserves" and g.asked() == "west"
    ctx = g.decide("west", "reroll", rolls=[6, 1])
    assert ctx.purposes == [
        "attack 4 from 1: west reserves die 1",
        "attack 4 from 1: west reserves die 2",
    ]
    assert g.state["combat"]["dice"]["attack"] == [6, 1]
    assert g.asked() == "soviet"
    ctx = g.decide("soviet", "reroll", rolls=[3, 3])
    assert ctx.purposes[0] == "attack 4 from 1: german reserves die 1"
    # attack 4 + 5 = 9 against 6 + 0: the attacker wins after both re-rolls
    combat = g.state["combat"]
    assert combat["totals"] == {"attack": 9, "defence": 6}


def test_special_tokens_reserves_is_asked_only_with_a_token_left() -> None:
    g, _, _ = lower_rhine()
    for role in ("west", "soviet"):
        for token in g.state["tokens"][role]:
            if token["kind"] == "reserves":
                token["used"] = True
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    g.decide("west", "no tokens", rolls=[1, 1, 1, 1])
    assert g.state["step"] != "reserves"


# --- the deferral rule (protocol section 4) ------------------------------------------------------


def test_protocol_4_combat_dice_are_requested_only_by_the_tokens_decision() -> None:
    """The declaration and the support complete under a context whose roll raises
    EntropyPending; the tokens decision is the one that pends."""
    g, west, german = lower_rhine()
    attack = ENGINE.parse("attack 4 from 1 cubes 1", g.state, "west")
    ctx = ScriptedContext(pending=True, seq=20)
    g.state = ENGINE.apply(g.state, "west", attack, ctx)
    assert ctx.requests == 0 and g.state["step"] == "support"
    ctx = ScriptedContext(pending=True, seq=21, opened={german: 3})
    g.state = ENGINE.apply(g.state, "soviet", Support("4", True), ctx)
    assert ctx.requests == 0 and g.state["step"] == "tokens"
    ctx = ScriptedContext(pending=True, seq=22, opened={west: 4})
    with pytest.raises(EntropyPending, match="attack 4 from 1: west die 1"):
        ENGINE.apply(g.state, "west", Tokens(), ctx)
    assert ctx.requests == 1
    # an illegal tokens decision is refused before any die is asked for
    ctx = ScriptedContext(pending=True, seq=22, opened={west: 4})
    with pytest.raises(IllegalOrderError):
        ENGINE.apply(g.state, "west", Tokens(logistics=True, support=True), _no_tokens(g, ctx))
    assert ctx.requests == 0


def _no_tokens(g: Table, ctx: ScriptedContext) -> ScriptedContext:
    for token in g.state["tokens"]["west"]:
        token["used"] = True
    return ctx


def test_protocol_4_a_reserves_reroll_asks_for_its_own_dice_after_the_decision() -> None:
    g, _, _ = lower_rhine()
    g.decide("west", "attack 4 from 1 cubes 1")
    g.decide("soviet", "support in 4")
    g.decide("west", "no tokens", rolls=[1, 1, 6, 1])
    keep = ScriptedContext(pending=True, seq=30)
    ENGINE.apply(g.state, "west", ENGINE.parse("keep", g.state, "west"), keep)
    assert keep.requests == 0
    reroll = ScriptedContext(pending=True, seq=30)
    with pytest.raises(EntropyPending):
        ENGINE.apply(g.state, "west", ENGINE.parse("reroll", g.state, "west"), reroll)
