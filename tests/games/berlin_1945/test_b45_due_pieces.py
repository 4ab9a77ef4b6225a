"""`Berlin1945Engine.due_pieces` (its shortcut when no hand slot and no plan is due, issue
29) gives the kit's answer (`pieces.due` of every piece) on every state the demo's
verification applies to and on bot games' states, and finds a slot or a plan that is due."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.core.canonical import copy_json
from pbem.games.berlin_1945.rules import ENGINE, Berlin1945Engine
from pbem.kit import pieces
from pbem.kit.steps import StepGame
from pbem.verify import verify_path
from tests.games.berlin_1945.b45_support import table

ROOT = Path(__file__).resolve().parents[3]
ROLES = ("german", "soviet")


def check(state: dict[str, Any]) -> None:
    for role in ROLES:
        assert ENGINE.due_pieces(state, role) == StepGame.due_pieces(ENGINE, state, role)


def test_the_kits_answer_on_every_state_of_the_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    apply = Berlin1945Engine.apply

    def kept(self: Berlin1945Engine, state: dict[str, Any], *args: Any) -> Any:
        seen.append(state)
        return apply(self, state, *args)

    monkeypatch.setattr(Berlin1945Engine, "apply", kept)
    verify_path(ROOT / "saves" / "berlin-1945-demo.pbem")
    monkeypatch.undo()
    assert len(seen) > 150
    for state in seen:
        check(state)


def test_the_kits_answer_in_a_bot_game() -> None:
    t = table(4)
    while not t.over():
        check(t.state)
        t.step()
    check(t.state)


def test_a_due_slot_or_plan_is_found() -> None:
    t = table(1)
    t.until("plan")
    state = copy_json(t.state)
    check(state)
    assert ENGINE.due_pieces(state, "german") == []
    slot = next(p for p in state["hands"]["german"]["slots"].values() if not p["revealed"])
    pieces.oblige(slot, "played")
    check(state)
    assert ENGINE.due_pieces(state, "german") == [slot]
    assert ENGINE.due_pieces(state, "soviet") == []
    slot["due"] = None
    plan = {
        "label": "plan/turn-1",
        "owner": "soviet",
        "value": None,
        "revealed": False,
        "placed_at": 9,
        "claims": [],
        "due": "opened now",
    }
    state["plan"] = plan
    check(state)
    assert ENGINE.due_pieces(state, "soviet") == [plan]
    assert ENGINE.due_pieces(state, "german") == []
