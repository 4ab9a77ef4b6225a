"""Readings of the rulebook that decide open questions (docs/race-to-berlin.md,
"Readings decided from the rulebook's text"): each test pins the engine to the reading
and cites its section.

Dice: `WIN` gives the attacker +5 and the defender +0.
"""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.board import markers_used
from pbem.games.race_to_berlin.flow import supply_base_penalty
from pbem.testing import ScriptedContext, Table
from tests.games.race_to_berlin.rtb_support import (
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

# --- cube penalties come from the pool only (4.2.1.2 step 9, 4.4, 5) --------------------------


def german_attack_on_base_1(pool: int) -> tuple[Table, str]:
    """The Soviets' Germans in 4 take the West supply base 1; the West has 2 cubes on its
    3-block in 2 and `pool` cubes in its pool."""
    g = action_game("soviet")
    no_reserves(g)
    put_block(g, "soviet", "4", 5)
    west = put_block(g, "west", "2", 3, revealed=True, cubes=2)
    g.state["cubes"]["west"]["pool"] = pool
    g.decide("soviet", "attack 1 from 4 cubes 2")
    g.decide("west", "no support")
    g.decide("soviet", "no tokens", rolls=WIN)
    return g, west


def test_4_2_1_2_step_9_the_supply_base_cube_comes_from_the_pool() -> None:
    g, west = german_attack_on_base_1(pool=1)
    assert g.state["cubes"]["west"] == {"pool": 0, "lost": 1}
    assert block(g, west)["cubes"] == 2  # the cubes on the block are not touched


def test_5_an_empty_pool_cannot_pay_the_supply_base_cube_even_with_cubes_on_blocks() -> None:
    """Rulebook 5: a player without the action cubes to pay a penalty loses at once. The
    cubes next to a block are not taken: only the pool pays (the 3- and 5-cube rules say
    "from their pool"; the 1-cube rule is read the same way)."""
    g, west = german_attack_on_base_1(pool=0)
    assert g.state["result"] == {
        "winner": "soviet",
        "level": "cube loss",
        "reason": "West cannot pay 1 action cubes",
    }
    assert g.state["cubes"]["west"]["lost"] == 0  # nothing taken from the block in 2
    assert block(g, west)["off"] is not None  # the game is over: blocks leave the board


def test_4_2_1_2_step_9_the_3_cube_penalty_ignores_cubes_on_blocks() -> None:
    """The West has 2 cubes on its block in 1 and 2 in the pool: it cannot pay 3."""
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
    put_block(g, "west", "1", 4, revealed=True, cubes=2)
    g.state["markers"]["west"]["total"] = g.state["markers"]["west"]["used"]
    g.state["cubes"]["west"]["pool"] = 2
    g.decide("soviet", "attack 5 from 8 cubes 2")
    g.decide("west", "no support")
    g.decide("soviet", "no tokens", rolls=WIN)
    g.decide("west", "retreat us-1 -> 1")
    assert g.state["result"] is not None
    assert g.state["result"]["reason"] == "West cannot pay 3 action cubes"


# --- victory points come only from a post-combat advance (5) ------------------------------------


def test_5_moving_into_an_eagle_area_taken_without_advancing_scores_nothing() -> None:
    """Rulebook 5: "The West receives a victory point for advancing into an area with a
    blue eagle"; advancing is the step-9 Advance after a won attack."""
    g = action_game("west")
    no_reserves(g)
    set_area(g, "4", "west")
    clear_area(g, "4")
    put_unit(g, "us-9", "4")
    put_unit(g, "br-2", "4")
    put_block(g, "west", "4", 4)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 7 from 4 cubes 2")  # 7 (Ruhr, blue eagle) is empty
    g.decide("west", "no tokens", rolls=WIN)
    g.decide("west", "no advance")
    assert g.state["areas"]["7"]["control"] == "west"
    assert g.state["vp"]["west"] == 0
    g.decide("soviet", "move 30 -> 29: su-1uf")
    g.decide("west", "move 4 -> 7: us-9")
    assert units_at(g, "7") == ["us-9"]
    assert g.state["eagles"]["7"] is None and g.state["vp"]["west"] == 0


# --- front line markers when an Allied area falls by isolation (4.4) -----------------------------


def test_4_4_an_isolated_area_falls_even_if_the_front_needs_more_markers_than_there_are() -> None:
    """A West pocket 10, 11, 13, 14 is cut off; 11, 13 and 14 keep active blocks, 10 has
    none and falls at once. Its borders with 11, 13, 14 now need West markers (3), its
    border with 7 none: 2 more than the West has. The annexation is immediate (4.4: "Adjust
    front line markers accordingly"; no shortage rule there), costs no cube (the 3-cube rule
    of step 9 is for a German attack's target), and the count runs over until the pocket
    falls."""
    g = action_game("west")
    for area, unit in (("10", "us-3"), ("11", "us-15"), ("13", "fr-1"), ("14", "br-2")):
        set_area(g, area, "west")
        clear_area(g, area)
        g.state["areas"][area]["fortification"] = None
        put_unit(g, unit, area)
    for area in ("11", "13", "14"):
        put_block(g, "west", area, 5)
    put_block(g, "west", "1", 2)
    put_block(g, "soviet", "29", 2)
    markers = g.state["markers"]["west"]
    markers["total"] = markers["used"]
    markers["left"] = 0
    g.decide("west", "move 3 -> 2: us-7")
    assert g.state["areas"]["10"]["control"] == "german"
    assert g.state["units"]["us-3"]["status"] == "eliminated"
    assert g.state["cubes"]["west"]["lost"] == 0
    markers = g.state["markers"]["west"]
    assert markers["used"] == markers_used(g.state)["west"] == markers["total"] + 2
    assert markers["left"] == -2


# --- supply bases (4.4) -----------------------------------------------------------------------


def test_4_4_a_supply_base_is_an_edge_area_held_and_stays_one_when_lost() -> None:
    """9 (southern edge) is German at start: not a West base, no penalty. Once the West
    has held it, it is a base; the Germans retaking it cost 5 cubes at the end of the turn."""
    g = action_game("west")
    ctx = ScriptedContext()
    supply_base_penalty(g.state, ctx)
    assert "9" not in g.state["bases"]["west"] and g.state["cubes"]["west"]["lost"] == 0
    no_reserves(g)
    clear_area(g, "9")
    set_area(g, "6", "west")
    clear_area(g, "6")
    g.state["areas"]["6"]["fortification"] = None
    put_unit(g, "us-1", "6")
    put_unit(g, "us-3", "6")
    put_block(g, "west", "6", 4)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 9 from 6 cubes 2")
    g.decide("west", "no tokens", rolls=WIN)
    g.decide("west", "advance us-1")
    assert "9" in g.state["bases"]["west"]
    # the Germans take 9 back (arranged: a lost base stays a base)
    set_area(g, "9", "german")
    put_unit(g, "us-1", "6")
    put_unit(g, "de-19", "9")
    assert "9" in g.state["bases"]["west"]
    supply_base_penalty(g.state, ctx)
    assert g.state["cubes"]["west"]["lost"] == 5


# --- step 5: a face-down block sets no limit ------------------------------------------------


def test_4_2_1_2_step_5_an_exhausted_face_down_block_does_not_limit_a_revealed_attacker() -> None:
    """4.1: a block is turned face down when its cubes reach its value; its number no
    longer shows, and it adds nothing to the defence (step 4: only an active block adds its
    value). The revealed 2-block attacks the exhausted 3-block with 1 cube."""
    g = action_game("west")
    put_block(g, "west", "1", 2, revealed=True)
    put_block(g, "soviet", "4", 3, revealed=True, cubes=3)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 4 from 1 cubes 1")
    assert g.state["step"] == "support"  # declared: the attack goes on


def test_4_2_1_2_step_5_an_active_revealed_block_still_limits() -> None:
    g = action_game("west")
    put_block(g, "west", "1", 2, revealed=True)
    put_block(g, "soviet", "4", 3, revealed=True, cubes=2)
    put_block(g, "soviet", "29", 2)
    with pytest.raises(IllegalOrderError, match="step 5"):
        g.decide("west", "attack 4 from 1 cubes 1")


# --- a major fortification that holds (4.2.1.2 step 6, rulebook 1) -------------------------------


def test_4_2_1_2_step_6_a_holding_major_fortification_becomes_improved_as_the_same_token() -> None:
    """All 4 improved positions of the stand-in mix are on the map; the holding major
    fortification becomes an improved position anyway, as the same token (its id): the 16
    fortification tokens of rulebook 1 are never exceeded."""
    g = action_game("west")
    no_reserves(g)
    improved = [
        a
        for a, r in g.state["areas"].items()
        if (r["fortification"] or {}).get("kind") == "improved"
    ]
    assert len(improved) == 4
    major = g.state["areas"]["5"]["fortification"]
    put_block(g, "west", "2", 5)
    put_block(g, "soviet", "5", 2)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 5 from 2 cubes 2")
    g.decide("soviet", "support in 5")
    g.decide("west", "no tokens", rolls=WIN)
    g.decide("soviet", "loss de-15")
    fort = g.state["areas"]["5"]["fortification"]
    assert fort["kind"] == "improved" and fort["id"] == major["id"]
    forts = [r["fortification"] for r in g.state["areas"].values() if r["fortification"]]
    assert len(forts) <= 16 and len({f["id"] for f in forts}) == len(forts)
