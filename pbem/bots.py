"""Bots that pick legal decisions: a game's own bot if it has one, else one at random
(`Engine.sample_choice`: a uniform pick among the listed choices, or the game's own
sampler where listing every choice would blow up, as on a hex map).

Bots are players, not rules: they take a seeded random.Random and never touch
the protocol's generator.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.core.engine import Engine, State, game_part


def bot_orders(rules: str) -> dict[str, str]:
    """The standing orders a game's bot sets (`STANDING_ORDERS` in games/<game>/bot.py):
    what the demo's and the handover bench's players answer in advance."""
    module = game_part(rules, "bot")
    return dict(getattr(module, "STANDING_ORDERS", {})) if module is not None else {}


def choose(engine: Engine, state: State, role: str, rng: random.Random) -> Any:
    """A legal decision for `role`: the game's bot (games/<name>/bot.py) or a random choice."""
    module = game_part(engine.name, "bot")
    if module is not None and hasattr(module, "choose"):
        return module.choose(engine, state, role, rng)
    return engine.sample_choice(state, role, rng)
