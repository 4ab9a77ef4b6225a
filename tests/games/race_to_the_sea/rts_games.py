"""A Race to the Sea bot game played once per test process and read by several tests:
test_rts_fast_paths.py (positions every tenth decision) and test_rts_entry_index.py (every
placement) each played seed 3's game again.

The game is a `Table` without its input check whose bots choose with their own generator
(`random.Random(seed)`; the table's rolls the dice), as both tests played it. The states
kept are the game's own: apply never changes a state it is given (test_rts_fast_paths.py
checks it at every decision of bot games and of the demo save), so none of them changes
after it is made; a reader gets a `copy_state` of each (a change to a copy's counter
copies that counter first, never the kept state's).
"""

from __future__ import annotations

import functools
import random
from typing import Any

from pbem.games.race_to_the_sea import state as rs
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.testing import Table

DATA = ENGINE.load_data({})
DECISIONS = 5000  # far more than a game takes


@functools.cache
def _played(seed: int) -> tuple[dict[str, Any], ...]:
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=seed, check=False)
    rng = random.Random(seed)
    states = [t.state]
    for _ in range(DECISIONS):
        if t.over():
            break
        t.decide(t.asked(), t.choose(t.asked(), rng))  # type: ignore[arg-type]
        states.append(t.state)
    return tuple(states)


def states(seed: int, every: int = 1, first: int = DECISIONS) -> list[dict[str, Any]]:
    """The game's states (the set-up first) every `every` decisions among the `first`,
    each a copy of its own."""
    return [rs.copy_state(state) for state in _played(seed)[:first:every]]


def placements(seed: int) -> list[dict[str, Any]]:
    """The game's states where a batch of units is being placed, each a copy of its own."""
    return [
        rs.copy_state(state)
        for state in _played(seed)
        if state["step"] == "place" and state["batch"] is not None
    ]


def finished(seed: int) -> bool:
    """Whether the game reached its outcome within DECISIONS."""
    return ENGINE.outcome(_played(seed)[-1]) is not None
