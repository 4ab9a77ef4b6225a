"""Rulebook 4.2 (the Action Phase), 4.2.1.1 (moves) and 4.2.1.3 (removing a block)."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.decisions import Move, RemoveBlock
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.testing import Table
from tests.games.race_to_berlin.rtb_support import (
    action_game,
    block,
    new_game,
    put_block,
    put_unit,
    units_at,
)


def two_blocks() -> tuple[Table, str, str]:
    g = action_game("west")
    west = put_block(g, "west", "1", 4)
    soviet = put_block(g, "soviet", "29", 3)
    put_block(g, "soviet", "28", 2)
    return g, west, soviet


# --- 4.2 ----------------------------------------------------------------------------------------


def test_4_2_players_alternate_actions() -> None:
    g, _, _ = two_blocks()
    assert g.asked() == "west"
    g.decide("west", "move 1 -> 2: us-9")
    assert g.asked() == "soviet"
    g.decide("soviet", "move 28 -> 29: su-3bf")
    assert g.asked() == "west"


def test_4_2_the_action_phase_ends_when_a_player_has_no_block_on_the_board() -> None:
    g, _, _ = two_blocks()
    g.decide("west", "move 1 -> 2: us-9")
    g.decide("soviet", "remove block in 29")
    assert g.state["phase"] == "action"
    ctx = g.decide("west", "remove block in 1")
    assert ctx.said("the Action Phase ends: West has no logistics block on the board")
    assert g.state["phase"] == "opening" and g.state["step"] == "open"
    assert all(b["area"] is None for b in g.state["blocks"])  # blocks leave the board
    assert g.asked() == "west"  # they open their sealed blocks in turn, West first (8)


def test_4_2_the_action_phase_is_over_at_once_when_a_player_placed_nothing() -> None:
    g = new_game()
    for unit, rec in g.state["units"].items():
        if rec["force"] in ("west", "german-east"):
            put_unit(g, unit, None)
    g.state["units"]["us-1"].update(area="2", status="board")
    g.decide("soviet", "place 5 in 28")
    g.decide("west", "place 5 in 2")
    while g.state["phase"] == "logistics":
        role = g.asked()
        g.decide(role, ENGINE.choices(g.private(role), role)[0])
    # the West placed one block: the action phase runs until someone has none left
    assert g.state["phase"] == "action"
    g.decide("soviet", "remove block in 28")
    g.decide("west", "remove block in 2")
    assert g.state["phase"] == "opening"


# --- 4.2.1.1 moves -----------------------------------------------------------------------------


def test_4_2_1_1_move_units_with_or_without_the_block() -> None:
    g, west, _ = two_blocks()
    ctx = g.decide("west", "move 1 -> 2: us-9 + block")
    assert units_at(g, "2") == ["us-9", "us-1", "us-3"]
    assert block(g, west)["area"] == "2"
    assert ctx.said("West moves us-9 and the block from 1 to 2")


def test_4_2_1_1_move_only_the_block_to_a_friendly_unit() -> None:
    g, west, _ = two_blocks()
    g.decide("west", "move 1 -> 2: block")
    assert block(g, west)["area"] == "2"


def test_4_2_1_1_at_most_three_units_per_area() -> None:
    g, _, _ = two_blocks()
    with pytest.raises(IllegalOrderError) as info:
        g.decide("west", "move 2 -> 3: us-1")
    assert str(info.value) == (
        "illegal: area 3 already holds 3 units (rulebook 4.2.1.1: at most 3 units per area)"
    )
    with pytest.raises(IllegalOrderError, match="already holds 2 units; 2 more would make 4"):
        g.decide("west", "move 1 -> 2: br-2, ca-1")


def test_4_2_1_1_a_block_is_always_with_a_friendly_unit() -> None:
    g, _, _ = two_blocks()
    put_unit(g, "br-2", None)
    put_unit(g, "ca-1", None)
    with pytest.raises(IllegalOrderError, match="left without a friendly unit"):
        g.decide("west", "move 1 -> 2: all")
    g.decide("west", "move 1 -> 2: us-9 + block")
    g.decide("soviet", "move 28 -> 29: su-3bf")
    with pytest.raises(IllegalOrderError, match="has none of West's"):
        g.decide("west", Move("2", "1", (), True))


def test_4_2_1_1_one_block_per_area() -> None:
    g, _, _ = two_blocks()
    put_block(g, "west", "2", 3)
    with pytest.raises(IllegalOrderError, match="already holds a logistics block"):
        g.decide("west", "move 1 -> 2: block")


def test_4_2_1_1_units_move_only_into_friendly_areas() -> None:
    g, _, _ = two_blocks()
    with pytest.raises(IllegalOrderError, match="not friendly"):
        g.decide("west", "move 1 -> 4: us-9")
    with pytest.raises(IllegalOrderError, match="not adjacent"):
        g.decide("west", "move 1 -> 3: us-9")


def test_4_2_1_1_western_and_eastern_german_units_are_friendly_to_each_other() -> None:
    g, _, _ = two_blocks()
    put_block(g, "west", "25", 3)
    g.decide("west", "move 25 -> 13: de-steiner + block")  # 13 holds de-blumentritt
    assert units_at(g, "13") == ["de-blumentritt", "de-steiner"]


def test_4_2_1_1_a_player_moves_only_its_own_pieces() -> None:
    g, _, _ = two_blocks()
    with pytest.raises(IllegalOrderError, match="not a unit of West's"):
        g.decide("west", "move 13 -> 10: de-blumentritt")


def test_4_1_exhausted_blocks_cannot_be_used_for_actions() -> None:
    g, west, _ = two_blocks()
    block(g, west).update(revealed=True, value=4, cubes=4, exhausted=True)
    with pytest.raises(IllegalOrderError, match="exhausted"):
        g.decide("west", "move 1 -> 2: us-9 + block")
    g.decide("west", "move 1 -> 2: us-9")  # its units still move


def test_4_2_1_1_move_syntax_variants() -> None:
    g, _, _ = two_blocks()
    state = g.state
    want = Move("1", "2", ("br-2", "ca-1"), True)
    for text in (
        "move 1 -> 2: ca-1, br-2 + block",
        "MOVE 1->2 : br-2 ca-1 +block",
        "move br-2, ca-1 + block 1 -> 2",
        "move 2 units + block 1 -> 2",
        "move 1 → 2: br-2 and ca-1 + block",
    ):
        assert ENGINE.parse(text, state, "west") == want, text
    assert ENGINE.parse("move all 1 -> 2", state, "west") == Move(
        "1", "2", ("br-2", "ca-1", "us-9"), False
    )
    assert ENGINE.parse("move block 1 -> 2", state, "west") == Move("1", "2", (), True)
    assert ENGINE.format(want) == "move 1 to 2 with br-2, ca-1 + block"
    # rules 1.0 games keep the text they signed (issue 14: 1.1 writes it shell-safe)
    assert ENGINE.for_version("1.0").format(want) == "move 1 -> 2: br-2, ca-1 + block"


# --- 4.2.1.3 remove ----------------------------------------------------------------------------


def test_4_2_1_3_removing_a_block_returns_its_cubes() -> None:
    g = action_game("west")
    west = put_block(g, "west", "1", 4, revealed=True, cubes=3)
    put_block(g, "west", "2", 3)
    put_block(g, "soviet", "29", 3)
    assert g.state["cubes"]["west"]["pool"] == 17
    ctx = g.decide("west", "remove block in 1")
    assert g.state["cubes"]["west"]["pool"] == 20
    assert block(g, west)["area"] is None
    assert ctx.said("3 cubes back to the West pool")
    with pytest.raises(IllegalOrderError, match="no logistics block in 1"):
        g.decide("soviet", RemoveBlock("1"))


def test_4_2_1_3_only_the_own_block() -> None:
    g, _, _ = two_blocks()
    with pytest.raises(IllegalOrderError, match="West has no logistics block in 29"):
        g.decide("west", "remove block in 29")
