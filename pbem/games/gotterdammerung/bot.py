"""A random Götterdämmerung bot, for tests, demos, benches and conformance runs.

It asks the engine's generic interface which role is asked and takes the step's own sample
(`sample_choice`: choices.py's samplers, which check every move they offer with the rules'
own functions). It decides on the state its player knows and draws only from the seeded
`random.Random` passed in, never the global `random` nor the protocol's generator. The
game has no standing orders: its reactions (losses, retreats, advances) are real choices.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.core.engine import Engine, State


def choose(engine: Engine, state: State, role: str, rng: random.Random) -> Any:
    """A legal decision for `role`; raises ValueError when the role is not asked now."""
    if role not in engine.asked_roles(state):
        raise ValueError(f"{role!r} has no decision to make now")
    return engine.sample_choice(state, role, rng)
