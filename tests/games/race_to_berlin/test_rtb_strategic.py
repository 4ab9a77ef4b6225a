"""Rulebook 4.3: the Strategic Movement Phase, tokens turning face up, the 6th SS transfer."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.decisions import EndStrategic, PlaceReserve, Strategic
from pbem.games.race_to_berlin.flow import begin_strategic
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.games.race_to_berlin.strategic import destinations
from pbem.testing import ScriptedContext, Table
from tests.games.race_to_berlin.rtb_support import (
    action_game,
    put_block,
    put_unit,
    set_area,
)


def strategic_game(first: str = "west", turn: int = 1) -> Table:
    g = action_game(first, turn)
    begin_strategic(g.state, ScriptedContext())
    return g


def test_4_3_the_phase_follows_the_action_phase_and_the_openings() -> None:
    g = action_game("west")
    put_block(g, "west", "1", 3)
    put_block(g, "soviet", "29", 3)
    g.decide("west", "remove block in 1")
    g.decide("west", "open blocks")
    g.decide("soviet", "open blocks")
    assert g.state["phase"] == "strategic" and g.asked() == "west"


def test_4_3_one_own_unit_and_one_german_unit_per_player_first_player_first() -> None:
    g = strategic_game("soviet")
    assert g.asked() == "soviet"
    with pytest.raises(IllegalOrderError, match="cannot reach"):
        g.decide("soviet", "strategic pl-1 29 -> 28")  # 28 already holds 3 units
    g.decide("soviet", "strategic su-3bf 28 -> 29")
    with pytest.raises(IllegalOrderError, match="already moved a unit of its own side"):
        g.decide("soviet", "strategic su-2bf 28 -> 30")
    g.decide("soviet", "strategic de-12 15 -> 11")
    # both moves made: the West's turn
    assert g.asked() == "west"
    g.decide("west", "end strategic")
    assert g.state["turn"] == 1 and g.state["step"] == "place_reserve"


def test_4_3_through_any_number_of_friendly_areas() -> None:
    g = strategic_game("west")
    for area in ("4", "7", "10"):
        set_area(g, area, "west")
        for unit, rec in g.state["units"].items():
            if rec["area"] == area:
                put_unit(g, unit, None)
    assert "10" in destinations(g.state, "us-9")  # 1 -> 4 -> 7 -> 10
    assert "5" not in destinations(g.state, "us-9")  # German
    g.decide("west", "strategic us-9 1 -> 10")
    assert g.state["units"]["us-9"]["area"] == "10"


def test_4_3_only_into_an_area_linked_to_the_supply_source() -> None:
    g = strategic_game("west")
    set_area(g, "7", "west")  # a West area without a West link to the edges
    assert "7" not in destinations(g.state, "us-9")
    with pytest.raises(IllegalOrderError, match="linked to its supply source"):
        g.decide("west", "strategic us-9 1 -> 7")


def test_4_3_german_fronts_are_separate_forces() -> None:
    g = strategic_game("west")
    # de-steiner (Eastern Front) in 25 may not pass 13, which holds a Western Front unit
    assert "10" not in destinations(g.state, "de-steiner")
    assert "13" not in destinations(g.state, "de-steiner")
    put_unit(g, "de-blumentritt", "10")
    assert "13" in destinations(g.state, "de-steiner")


def test_4_3_special_tokens_turn_face_up_and_the_6th_ss_changes_fronts() -> None:
    g = strategic_game("west")
    for token in g.state["tokens"]["west"]:
        token["used"] = True
    g.state["units"]["de-6sspz-west"]["strength"] = 2
    g.decide("west", "end strategic")
    ctx = g.decide("soviet", "end strategic")
    assert not any(t["used"] for t in g.state["tokens"]["west"])
    assert ctx.said("special tokens are turned face up")
    assert g.state["units"]["de-6sspz-west"]["area"] is None
    assert g.state["units"]["de-6sspz-west"]["status"] == "transferred"
    assert g.state["step"] == "place_reserve" and g.asked() == "west"
    options = ENGINE.choices(g.state, "west")
    # German areas next to the Eastern Front line (Soviet 28-30) with room
    assert {d.area for d in options} == {"17", "18"}  # 16 (next to 28) holds 3 units
    with pytest.raises(IllegalOrderError, match="next to the Eastern Front line"):
        g.decide("west", PlaceReserve("20"))
    g.decide("west", "place 6ss in 17")
    rec = g.state["units"]["de-6sspz-east"]
    assert rec["area"] == "17" and rec["strength"] == 2 and rec["status"] == "board"
    assert g.state["turn"] == 2 and g.state["phase"] == "logistics"


def test_4_3_a_destroyed_6th_ss_is_not_transferred() -> None:
    g = strategic_game("west")
    put_unit(g, "de-6sspz-west", None)
    g.decide("west", "end strategic")
    ctx = g.decide("soviet", "end strategic")
    assert ctx.said("was destroyed: no transfer")
    assert g.state["units"]["de-6sspz-east"]["area"] is None
    assert g.state["turn"] == 2


def test_4_3_no_transfer_after_turn_2() -> None:
    g = strategic_game("west", turn=2)
    g.decide("west", "end strategic")
    g.decide("soviet", "end strategic", rolls=[1])  # turn 3: a VP tie, a die for the first
    assert g.state["turn"] == 3
    assert g.state["units"]["de-6sspz-west"]["area"] == "5"


def test_4_3_no_strategic_movement_after_turn_3() -> None:
    g = action_game("west", turn=3)
    put_block(g, "west", "1", 3)
    put_block(g, "soviet", "29", 3)
    g.decide("west", "remove block in 1")
    g.decide("west", "open blocks")
    g.decide("soviet", "open blocks")
    assert g.state["phase"] == "over"
    outcome = ENGINE.outcome(g.state)
    assert outcome is not None and outcome.level == "draw" and outcome.winner is None


def test_4_3_choices_and_syntax() -> None:
    g = strategic_game("west")
    options = ENGINE.choices(g.state, "west")
    assert options[-1] == EndStrategic()
    assert Strategic("us-9", "1", "2") in options  # 2 holds 2 units: room for one
    assert Strategic("us-1", "2", "1") not in options  # 1 holds 3
    assert ENGINE.parse("strategic us-1 -> 3", g.state, "west") == Strategic("us-1", "2", "3")
    assert ENGINE.format(Strategic("us-1", "2", "3")) == "strategic us-1 from 2 to 3"
    assert ENGINE.for_version("1.0").format(Strategic("us-1", "2", "3")) == "strategic us-1 2 -> 3"
