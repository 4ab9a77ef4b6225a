"""A random Race to the Sea 1914 bot, for tests, demos, benches and conformance runs.

It reads nothing of the game's own modules: it asks the engine's generic interface which
role is asked (`asked_roles`) and takes the step's own sample (`sample_choice`, which
falls back on a uniform pick among `choices`). So every step the rules table has, the
combat steps added later included, is played without a change here. It decides on the
state its player knows (the owner's `with_secrets` state) and draws only from the seeded
`random.Random` passed in, never the global `random` nor the protocol's generator.
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


# The standing orders a bot player sets (pbem.handovers, bench/handovers.py, the demo): the
# combat reactions of standing.py answered in advance. The forced march (7.7.3) and the
# Planned Operations deployment (7.7.5) are left to `choose`, so that bot games still
# play them.
STANDING_ORDERS = {
    "reply": "met",
    "cavalry": "stand",
    "withdraw": "never",
    "keep": "best",
    "retreat": "first",
    "counter": "always",
}
