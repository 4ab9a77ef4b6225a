"""Bots that pick legal decisions: a game's own bot if it has one, else uniformly at random.

Bots are players, not rules: they take a seeded random.Random and never touch
the protocol's generator.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from pbem.core.engine import Engine, State
from pbem.errors import PbemError


def choose(engine: Engine, state: State, role: str, rng: random.Random) -> Any:
    """A legal decision for `role`: the game's bot (games/<name>/bot.py) or a random choice."""
    try:
        module = importlib.import_module(f"pbem.games.{engine.name.replace('-', '_')}.bot")
    except ModuleNotFoundError:
        module = None
    if module is not None and hasattr(module, "choose"):
        return module.choose(engine, state, role, rng)
    options = engine.choices(state, role)
    if not options:
        raise PbemError(f"dead end: {role} is asked but has no legal choice")
    return rng.choice(options)
