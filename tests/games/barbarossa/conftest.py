"""Helpers for the Barbarossa engine's tests, offered as fixtures.

`play` puts a decision through `pbem.testing.Table` as a game would meet it: the text
is parsed on the state, formatted and parsed back, applied first without entropy (so
an illegal decision must be refused before its first roll) and then with the scripted
dice, each of which must be used; the input state must come out unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import pytest

from pbem.core.canonical import copy_json
from pbem.games.barbarossa.rules import ENGINE, GERMAN
from pbem.testing import ScriptedContext, Table


def play(
    state: dict[str, Any], text: str, rolls: Iterable[int] = ()
) -> tuple[dict[str, Any], ScriptedContext]:
    """Play `text` on `state` with exactly the scripted dice `rolls`."""
    script = list(rolls)
    table = Table(ENGINE, state)
    ctx = table.decide(GERMAN, text, script)
    # The table would roll on with its own dice once the script runs out: refuse that.
    assert len(ctx.rolls) == len(script), f"{text!r} rolled {ctx.rolls}, scripted {script}"
    return table.state, ctx


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
    state = copy_json(state)
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
def helpers() -> Any:
    """play, city, marks and german_phase as attributes of one object."""
    return SimpleNamespace(play=play, city=city, marks=marks, german_phase=german_phase)
