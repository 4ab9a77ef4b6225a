"""Götterdämmerung bot games played once per test process and read by several tests
(test_gd_fast_paths.py and test_gd_speed.py each played seeds 3 and 4 again).

`positions(seed)` is every state of the game, the set-up first, then the state after each
decision, played on a `CheckedTable` (apply's input unchanged, checked at every decision).
What is kept of each state is bytes (marshal, of all but the static parts), so nothing a
test does can change what another reads: each call of `position` makes a fresh copy. The
static parts (the map, the counters' data, the tables) are the engine's, shared by every
state and never changed (gs.STATIC_KEYS).
"""

from __future__ import annotations

import functools
import marshal
from typing import Any

from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung.rules import ENGINE
from tests.support.checked_table import CheckedTable

DECISIONS = 5000  # far more than a game takes


@functools.cache
def _played(seed: int) -> tuple[dict[str, Any], tuple[bytes, ...]]:
    t = CheckedTable(ENGINE, seed=seed)
    static = {k: t.state[k] for k in gs.STATIC_KEYS if k in t.state}

    def kept() -> bytes:
        return marshal.dumps({k: v for k, v in t.state.items() if k not in gs.STATIC_KEYS})

    states = [kept()]
    for _ in range(DECISIONS):
        if t.over():
            break
        t.step()
        states.append(kept())
    assert t.over(), f"seed {seed}: no outcome after {DECISIONS} decisions"
    return static, tuple(states)


def length(seed: int) -> int:
    """How many states the game has (the set-up and one after each decision)."""
    return len(_played(seed)[1])


def position(seed: int, n: int) -> dict[str, Any]:
    """A fresh copy of the game's state after its `n`-th decision (0: the set-up)."""
    static, states = _played(seed)
    state: dict[str, Any] = marshal.loads(states[n])
    state.update(static)
    return state
