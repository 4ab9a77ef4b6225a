"""`Berlin1945Engine.clone` (the parts copied in line) against `generic_clone` (each part by
`COPY`, any other part copied whole): the same copy, sharing the same parts, on every state
the demo's verification copies and on bot games' states; and any state not of the rules'
shape takes the reference (issue 29: the copy was a tenth of an entry)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.games.berlin_1945.rules import ENGINE, Berlin1945Engine, generic_clone
from pbem.verify import verify_path
from tests.games.berlin_1945.b45_support import table
from tests.support.sharing import same_sharing

ROOT = Path(__file__).resolve().parents[3]


def demo_states(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    clone = Berlin1945Engine.clone

    def kept(self: Berlin1945Engine, state: dict[str, Any]) -> dict[str, Any]:
        seen.append(state)
        return clone(self, state)

    monkeypatch.setattr(Berlin1945Engine, "clone", kept)
    verify_path(ROOT / "saves" / "berlin-1945-demo.pbem")
    monkeypatch.setattr(Berlin1945Engine, "clone", clone)
    return seen


def test_clone_is_the_reference_copy_on_every_state_of_the_demo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    states = demo_states(monkeypatch)
    assert len(states) > 150
    assert any(s["move"] is None for s in states) and any(s["combat"] for s in states)
    for state in states:
        same_sharing(ENGINE.clone(state), generic_clone(state), state)


@pytest.mark.parametrize("seed", [1, 2])
def test_clone_is_the_reference_copy_in_bot_games(seed: int) -> None:
    t = table(seed)
    while not t.over():
        same_sharing(ENGINE.clone(t.state), generic_clone(t.state), t.state)
        t.step()
    same_sharing(ENGINE.clone(t.state), generic_clone(t.state), t.state)


def test_a_state_of_another_shape_takes_the_reference() -> None:
    state = table(0).state
    odd = {**state, "extra": {"a": [1]}}
    copy = ENGINE.clone(odd)
    same_sharing(copy, generic_clone(odd), odd)
    assert copy["extra"] is not odd["extra"] and copy["extra"]["a"] is not odd["extra"]["a"]
    odd = {**state, "todo": None, "move": "later"}  # types the fast copy does not know
    same_sharing(ENGINE.clone(odd), generic_clone(odd), odd)
