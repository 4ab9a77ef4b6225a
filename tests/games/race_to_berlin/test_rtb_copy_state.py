"""`copy_state` (its copies made in loops, issue 29) against the reference it replaced (one
comprehension per part): the same copy, in the same key order, sharing the same parts with
the state it copies, on every state the demo's verification copies and on a bot game's.
(Since the seventh session the blocks and the small parts are shared until changed, and
`hands`, only ever replaced whole, is shared: the reference says so; test_rtb_shared_blocks
and test_rtb_copy_roles check the copies on write.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.core.canonical import copy_json
from pbem.games.race_to_berlin.bot import choose
from pbem.games.race_to_berlin.rules import ENGINE, RaceToBerlinEngine
from pbem.games.race_to_berlin.state import KNOWN, State, _copy_combat, copy_state
from pbem.verify import verify_path
from tests.games.race_to_berlin.rtb_support import new_game
from tests.support.sharing import same_sharing

ROOT = Path(__file__).resolve().parents[3]


def reference_copy(state: State) -> State:
    """`copy_state` as it was written before issue 29's speed-up."""
    new: State = dict(state)
    new["blocks"] = list(state["blocks"])  # (each block copied on write: test_rtb_shared_blocks)
    if state["combat"] is not None:
        new["combat"] = _copy_combat(state["combat"])
    if not KNOWN.issuperset(state):
        for key in state.keys() - KNOWN:
            new[key] = copy_json(state[key])
    return new


def test_copy_state_is_the_reference_copy_on_every_state_of_the_demo(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[State] = []
    clone = RaceToBerlinEngine.clone

    def kept(self: RaceToBerlinEngine, state: State) -> State:
        seen.append(state)
        return clone(self, state)

    monkeypatch.setattr(RaceToBerlinEngine, "clone", kept)
    verify_path(ROOT / "saves" / "race-to-berlin-demo.pbem")
    monkeypatch.undo()
    assert len(seen) > 300
    assert any(s["strategic"] for s in seen) and any(s["combat"] for s in seen)
    for state in seen:
        same_sharing(copy_state(state), reference_copy(state), state)


def test_copy_state_is_the_reference_copy_in_a_bot_game() -> None:
    game = new_game(seed=5)
    rng = random.Random(5)
    while ENGINE.outcome(game.state) is None:
        same_sharing(copy_state(game.state), reference_copy(game.state), game.state)
        role = game.asked()
        assert role is not None
        game.decide(role, ENGINE.format(choose(ENGINE, game.private(role), role, rng)))
    odd = {**game.state, "extra": {"a": [1]}}  # a part it does not know: copied whole
    same_sharing(copy_state(odd), reference_copy(odd), odd)
