"""Rulebook 4.4 (supply) and the cut-off rules of 4.2.1.2 (all Allied blocks exhausted).

Supply sources on the shipped map: the West's edge areas 1, 2, 3 (west) and 3, 9, 12
(south); the Soviets' 28-30 (east); the Germans' eagle areas 7, 8, 12, 13, 19, 21, 24, 25
and B1.
"""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.flow import supply_base_penalty
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.games.race_to_berlin.supply import supplied, unsupplied
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


def west_owns(g: Table, *areas: str) -> None:
    for area in areas:
        set_area(g, area, "west")
        clear_area(g, area)
        g.state["areas"][area]["fortification"] = None


def soviet_owns(g: Table, *areas: str) -> None:
    for area in areas:
        set_area(g, area, "soviet")
        clear_area(g, area)
        g.state["areas"][area]["fortification"] = None


def test_4_4_supply_lines_run_from_the_supply_bases_through_own_areas() -> None:
    g = action_game()
    assert supplied(g.state, "west") == {"1", "2", "3"}
    assert supplied(g.state, "soviet") == {"28", "29", "30"}
    assert unsupplied(g.state, "german") == []
    west_owns(g, "8", "12")
    assert {"8", "12"} <= supplied(g.state, "west")  # 12 is on the southern edge


def cut_off_9(g: Table) -> None:
    """9 (de-19, de-24) keeps its German link only through 6, which is emptied."""
    west_owns(g, "8", "12")
    clear_area(g, "6")


def test_4_4_a_cut_off_area_is_annexed_at_once_by_the_force_that_cut_it_off() -> None:
    g = action_game("west")
    no_reserves(g)
    cut_off_9(g)
    put_block(g, "west", "3", 5)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 6 from 3 cubes 2")
    ctx = g.decide("west", "no tokens", rolls=WIN)
    assert g.state["areas"]["6"]["control"] == "west"
    assert g.state["areas"]["9"]["control"] == "west"
    assert g.state["units"]["de-19"]["status"] == "eliminated"
    assert g.state["units"]["de-24"]["status"] == "eliminated"
    assert g.state["areas"]["9"]["fortification"] is None
    assert ctx.said("area 9 (Baden & Wurttemberg) is now West (cut off from supply")


def test_4_4_an_active_block_delays_the_annexation_until_it_is_gone() -> None:
    g = action_game("west")
    no_reserves(g)
    cut_off_9(g)
    put_block(g, "west", "3", 5)
    held = put_block(g, "soviet", "9", 3)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "attack 6 from 3 cubes 2")
    g.decide("west", "no tokens", rolls=WIN)
    g.decide("west", "no advance")
    assert g.state["areas"]["9"]["control"] == "german"  # delayed by the active block
    assert "9" in unsupplied(g.state, "german")
    ctx = g.decide("soviet", "remove block in 9")
    assert block(g, held)["area"] is None
    assert g.state["areas"]["9"]["control"] == "west"
    assert ctx.said("de-19 (19th Army, strength 4) eliminated in 9")


def test_4_4_cut_off_areas_with_an_active_block_fall_at_the_end_of_the_action_phase() -> None:
    g = action_game("west")
    cut_off_9(g)
    set_area(g, "6", "west")
    held = put_block(g, "soviet", "9", 3)
    put_block(g, "west", "3", 2)
    ctx = g.decide("west", "remove block in 3")  # the West has no block left: phase over
    assert g.state["phase"] == "opening"
    assert g.state["areas"]["9"]["control"] == "west"
    assert block(g, held)["area"] is None
    assert ctx.said("cut off from supply")


def isolated_west_7() -> Table:
    """The West holds 7 (us-9 and a block) without a link to its edges."""
    g = action_game("west")
    set_area(g, "7", "west")
    put_unit(g, "us-9", "7")
    put_block(g, "west", "7", 5)
    put_block(g, "soviet", "29", 2)
    return g


def test_4_4_an_unsupplied_area_attacks_only_toward_the_nearest_supplied_area() -> None:
    g = isolated_west_7()
    for target in ("8", "10", "11"):
        with pytest.raises(IllegalOrderError, match=r"cut off from supply.*\(rulebook 4.4\)"):
            g.decide("west", f"attack {target} from 7 cubes 1")
    g.decide("west", "attack 4 from 7 cubes 1")  # 4 borders the West's area 1
    assert g.state["step"] == "support"


def test_4_4_an_isolated_allied_area_is_annexed_by_the_germans() -> None:
    g = isolated_west_7()
    put_block(g, "west", "1", 2)
    ctx = g.decide("west", "remove block in 7")
    assert g.state["areas"]["7"]["control"] == "german"
    assert g.state["units"]["us-9"]["status"] == "eliminated"
    assert ctx.said("area 7 (Ruhr) is now German (cut off from supply")


def test_4_4_german_units_in_a_supply_base_at_the_end_of_a_turn_cost_5_cubes() -> None:
    g = action_game("west")
    set_area(g, "1", "german")
    clear_area(g, "1")
    put_unit(g, "de-25", "1")
    ctx = ScriptedContext()
    supply_base_penalty(g.state, ctx)
    assert g.state["cubes"]["west"] == {"pool": 15, "lost": 5}
    assert ctx.said("German units occupy its supply base 1")


def test_4_4_the_supply_base_penalty_applies_through_the_end_of_the_turn() -> None:
    g = action_game("west")
    set_area(g, "1", "german")
    clear_area(g, "1")
    put_unit(g, "de-25", "1")
    put_block(g, "west", "2", 2)
    put_block(g, "soviet", "29", 2)
    g.decide("west", "remove block in 2")
    while g.state["step"] == "open":
        g.decide(g.asked(), "open blocks")
    assert g.state["phase"] == "strategic"
    while g.state["phase"] == "strategic":
        role = g.asked()
        if g.state["step"] == "strategic":
            g.decide(role, "end strategic")
        else:  # after turn 1, the 6th SS Panzer Army changes fronts
            g.decide(role, ENGINE.choices(g.state, role)[0])
    assert g.state["turn"] == 2
    assert g.state["cubes"]["west"]["lost"] == 5


def test_4_4_an_eagle_area_taken_by_the_germans_is_not_a_west_supply_base() -> None:
    """Areas on the West's edges count as its supply bases once the West has held them."""
    g = action_game("west")
    assert g.state["bases"]["west"] == ["1", "2", "3"]
    ctx = ScriptedContext()
    supply_base_penalty(g.state, ctx)  # Germans in 9 and 12 (southern edge): no penalty
    assert g.state["cubes"]["west"]["lost"] == 0


# --- all Western and Soviet blocks exhausted (rulebook 4.2.1.2, last paragraphs) -----------


def cut_off_15(first: str) -> Table:
    """15 is cut off, bordered by West (11, 12, 14) and Soviet (27, 32) areas."""
    g = action_game(first)
    west_owns(g, "11", "12", "14")
    soviet_owns(g, "18", "21", "24", "27", "32")
    put_unit(g, "us-9", "12")
    put_unit(g, "pl-1", "27")
    return g


def test_4_2_1_2_cut_off_german_areas_wait_while_only_german_blocks_are_active() -> None:
    g = cut_off_15("soviet")
    spent = put_block(g, "west", "12", 2, revealed=True, cubes=2)
    assert block(g, spent)["exhausted"]
    german = put_block(g, "soviet", "13", 3)
    put_block(g, "soviet", "29", 3, revealed=True, cubes=3)
    put_block(g, "west", "16", 4)  # the West's Eastern Front German block, active
    g.decide("soviet", "move 13 -> 10: de-blumentritt + block")
    assert g.state["areas"]["15"]["control"] == "german"  # German blocks still active
    g.decide("west", "move 16 -> 19: de-4 + block")
    assert g.state["areas"]["15"]["control"] == "german"
    assert block(g, german)["area"] == "10"


def test_4_2_1_2_then_the_surrounding_force_takes_them_the_first_player_if_both() -> None:
    for first in ("soviet", "west"):
        g = cut_off_15(first)
        put_block(g, "west", "12", 2, revealed=True, cubes=2)
        put_block(g, "soviet", "29", 3, revealed=True, cubes=3)
        put_block(g, "soviet", "13", 3)
        put_block(g, "west", "16", 4)
        mover = first
        put_unit(g, "de-12", "15")
        # both German blocks go: then the cut-off German area is taken
        g.state["active"] = "soviet"
        g.decide("soviet", "remove block in 13")
        assert g.state["areas"]["15"]["control"] == "german"
        g.decide("west", "remove block in 16")
        assert g.state["areas"]["15"]["control"] == first, mover
        assert g.state["units"]["de-12"]["status"] == "eliminated"


def test_4_2_1_2_without_markers_the_other_player_annexes_and_both_may_pay() -> None:
    g = cut_off_15("soviet")
    put_block(g, "west", "12", 2, revealed=True, cubes=2)
    put_block(g, "soviet", "29", 3, revealed=True, cubes=3)
    put_block(g, "soviet", "13", 3)
    put_block(g, "west", "16", 4)
    g.state["markers"]["soviet"]["total"] = g.state["markers"]["soviet"]["used"]
    g.state["active"] = "soviet"
    g.decide("soviet", "remove block in 13")
    ctx = g.decide("west", "remove block in 16")
    assert g.state["cubes"]["soviet"]["lost"] == 3
    assert g.state["areas"]["15"]["control"] == "west"
    assert ctx.said("Soviet lacks the front line markers to annex")


def test_4_2_1_2_if_neither_player_can_annex_the_areas_stay_german_but_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cut-off group borders only West and Soviet areas, so annexing it always shortens
    one of the two fronts: with this map both players cannot lack markers at once. The
    rule's last fallback is exercised by making the marker check say both lack them."""
    import pbem.games.race_to_berlin.supply as supply

    monkeypatch.setattr(supply, "short_of_markers", lambda state, changes: ["west", "soviet"])
    g = cut_off_15("soviet")
    put_unit(g, "de-12", "15")
    put_block(g, "west", "12", 2, revealed=True, cubes=2)
    put_block(g, "soviet", "29", 3, revealed=True, cubes=3)
    put_block(g, "soviet", "13", 3)
    put_block(g, "west", "16", 4)
    g.decide("soviet", "remove block in 13")
    ctx = g.decide("west", "remove block in 16")
    assert g.state["cubes"]["soviet"]["lost"] == 3 and g.state["cubes"]["west"]["lost"] == 3
    assert g.state["areas"]["15"]["control"] == "german"  # nobody annexes ...
    assert units_at(g, "15") == []  # ... but the German pieces are removed
    assert g.state["units"]["de-12"]["status"] == "eliminated"
    assert "15" in g.state["stranded"]
    assert ctx.said("stay German, emptied of German pieces")


def test_4_4_the_attacker_that_cuts_an_area_off_annexes_it_even_if_both_surround_it() -> None:
    g = cut_off_15("soviet")
    no_reserves(g)
    west_owns(g, "11")
    set_area(g, "14", "german")
    put_unit(g, "us-1", "11")
    put_block(g, "west", "11", 5)
    put_block(g, "soviet", "29", 2)
    g.state["active"] = "west"
    g.decide("west", "attack 14 from 11 cubes 2")
    g.decide("west", "no tokens", rolls=WIN)
    assert g.state["areas"]["14"]["control"] == "west"
    assert g.state["areas"]["15"]["control"] == "west"  # the West cut it off
