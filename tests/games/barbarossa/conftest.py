"""Helpers for the Barbarossa engine's tests, offered as fixtures.

The test contexts (scripted, pending, random dice) are shared by every game's
tests and live in tests/support/contexts.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import pytest

from pbem.games.barbarossa.rules import ENGINE
from tests.support.contexts import PendingContext, RandomContext, ScriptedContext


def play(
    state: dict[str, Any], text: str, rolls: Iterable[int] = ()
) -> tuple[dict[str, Any], ScriptedContext]:
    """Parse `text` and apply it with scripted dice; every scripted die must be used."""
    ctx = ScriptedContext(rolls)
    decision = ENGINE.parse(text, state, "german")
    new = ENGINE.apply(state, "german", decision, ctx)
    assert not ctx.values, f"{text!r} left scripted dice unused: {ctx.values}"
    return new, ctx


def city(state: dict[str, Any], city_id: str) -> dict[str, Any]:
    return next(c for p in state["paths"] for c in p["cities"] if c["id"] == city_id)


def marks(state: dict[str, Any], city_id: str) -> list[bool]:
    return [b["marked"] for b in city(state, city_id)["boxes"]]


def german_phase(
    event_die: int,
    pool: list[int],
    *,
    supply: int | None = None,
    command: int | None = None,
    state: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play `roll event` (event die) and `accept` (pool dice) from `state` or a new game.

    Cubes are set (as a test arrangement) before the event roll, so boosts are free
    to test; the pool follows from the timeline box and the event.
    """
    if state is None:
        state = ENGINE.setup(ENGINE.load_data({}), {})
    state = ENGINE.view(state, None)
    if supply is not None:
        state["cubes"]["supply"] = supply
    if command is not None:
        state["cubes"]["command"] = command
    state, _ = play(state, "roll event", [event_die])
    state, _ = play(state, "accept", pool)
    return state


@pytest.fixture
def engine() -> Any:
    return ENGINE


@pytest.fixture
def fresh() -> dict[str, Any]:
    return ENGINE.setup(ENGINE.load_data({}), {})


@pytest.fixture
def scripted() -> type[ScriptedContext]:
    return ScriptedContext


@pytest.fixture
def pending() -> type[PendingContext]:
    return PendingContext


@pytest.fixture
def random_context() -> type[RandomContext]:
    return RandomContext


@pytest.fixture
def helpers() -> Any:
    """play, city, marks and german_phase as attributes of one object."""
    return SimpleNamespace(play=play, city=city, marks=marks, german_phase=german_phase)
