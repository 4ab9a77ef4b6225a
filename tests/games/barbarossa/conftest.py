"""Test contexts and helpers for the Barbarossa engine, offered as fixtures.

- ScriptedContext hands out queued die values (checking each is in range) and
  records every roll's purpose and every event.
- PendingContext raises EntropyPending on the first roll, like the adjudicator's
  first pass ("legal, waiting for dice"), and counts roll requests.
- RandomContext feeds dice from a seeded random.Random (never the global one).

Helpers live here (not in an importable module) so that no module name can
clash with another game's test helpers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import pytest

from pbem.errors import EntropyPending
from pbem.games.barbarossa.rules import ENGINE


class ScriptedContext:
    """Returns queued die values in order; records purposes and events."""

    def __init__(self, values: Iterable[int] = ()) -> None:
        self.values = list(values)
        self.rolls: list[tuple[str, int, int, int]] = []
        self.events: list[tuple[str, dict[str, Any]]] = []

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        assert self.values, f"unexpected roll for {purpose!r}: no scripted value left"
        value = self.values.pop(0)
        assert lo <= value <= hi, f"scripted {value} outside {lo}..{hi} for {purpose!r}"
        self.rolls.append((purpose, lo, hi, value))
        return value

    def event(self, text: str, **data: Any) -> None:
        self.events.append((text, data))

    @property
    def purposes(self) -> list[str]:
        return [r[0] for r in self.rolls]

    @property
    def texts(self) -> list[str]:
        return [e[0] for e in self.events]

    def said(self, fragment: str) -> bool:
        return any(fragment in text for text in self.texts)


class PendingContext:
    """Raises EntropyPending on roll, as the adjudicator does before entropy arrives."""

    def __init__(self) -> None:
        self.requests = 0
        self.events: list[tuple[str, dict[str, Any]]] = []

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        self.requests += 1
        raise EntropyPending(f"waiting for entropy: {purpose}")

    def event(self, text: str, **data: Any) -> None:
        self.events.append((text, data))


class RandomContext:
    """Dice from a seeded random.Random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.events: list[tuple[str, dict[str, Any]]] = []

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        return self.rng.randint(lo, hi)

    def event(self, text: str, **data: Any) -> None:
        self.events.append((text, data))


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
