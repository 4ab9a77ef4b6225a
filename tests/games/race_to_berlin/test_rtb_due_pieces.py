"""`RaceToBerlinEngine.due_pieces` (its shortcut when no block is due, issue 29) gives the
kit's answer (`pieces.due` of every block) on every state the demo's verification applies
to and on a bot game's, and finds a block that is due."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pbem.games.race_to_berlin.bot import choose
from pbem.games.race_to_berlin.rules import ENGINE, RaceToBerlinEngine
from pbem.games.race_to_berlin.state import ROLES, State, copy_state
from pbem.kit import pieces
from pbem.kit.steps import StepGame
from pbem.verify import verify_path
from tests.games.race_to_berlin.rtb_support import new_game

ROOT = Path(__file__).resolve().parents[3]


def check(state: State) -> None:
    for role in ROLES:
        assert ENGINE.due_pieces(state, role) == StepGame.due_pieces(ENGINE, state, role)


def test_the_kits_answer_on_every_state_of_the_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[State] = []
    apply = RaceToBerlinEngine.apply

    def kept(self: RaceToBerlinEngine, state: State, *args: Any) -> State:
        seen.append(state)
        return apply(self, state, *args)

    monkeypatch.setattr(RaceToBerlinEngine, "apply", kept)
    verify_path(ROOT / "saves" / "race-to-berlin-demo.pbem")
    monkeypatch.undo()
    assert len(seen) > 300
    for state in seen:
        check(state)


def test_the_kits_answer_in_a_bot_game() -> None:
    game = new_game(seed=3)
    rng = random.Random(3)
    while ENGINE.outcome(game.state) is None:
        check(game.state)
        role = game.asked()
        assert role is not None
        game.decide(role, ENGINE.format(choose(ENGINE, game.private(role), role, rng)))
    check(game.state)


def test_a_due_block_is_found() -> None:
    state = copy_state(new_game().state)
    assert ENGINE.due_pieces(state, "west") == []
    for role, area in (("west", "1"), ("soviet", "28")):
        state["blocks"].append(
            {
                "label": f"block/{role}/t1/1",
                "owner": role,
                "value": None,
                "revealed": False,
                "placed_at": 5,
                "claims": [],
                "due": None,
                "force": role,
                "area": area,
                "cubes": 0,
                "exhausted": False,
                "off": None,
            }
        )
    check(state)
    pieces.oblige(state["blocks"][1], "attacked")
    check(state)
    assert [p["label"] for p in ENGINE.due_pieces(state, "soviet")] == ["block/soviet/t1/1"]
    assert ENGINE.due_pieces(state, "west") == []
