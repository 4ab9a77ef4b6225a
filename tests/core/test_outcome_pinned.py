"""Replay.outcome_pinned: a verification's report asks the engine for the outcome once, and
the answer kept is never given for another state: an entry applied in the block, or a
copy of the game with another state, is asked again."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from pbem.core.adjudicator import Adjudicator
from pbem.ledger import replay
from tests.support.players import Table


def _finished() -> list[Any]:
    table = Table("toy-dice", ("a", "b"), nonce="outcome pinned")
    table.join_all()
    table.play(random.Random(11))
    return list(table.game.entries)


def _counted(game: Adjudicator, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    ask = game.engine.outcome

    def outcome(state: Any) -> Any:
        calls[0] += 1
        return ask(state)

    monkeypatch.setattr(game.engine, "outcome", outcome)
    return calls


def test_the_engine_is_asked_once_in_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    game = replay(_finished())
    expected = game.outcome()
    assert expected is not None
    calls = _counted(game, monkeypatch)
    with game.outcome_pinned() as pinned:
        assert pinned == expected
        for _ in range(5):
            assert game.outcome() == expected
    assert calls[0] == 1
    game.outcome()
    assert calls[0] == 2  # (the block's end drops it)


def test_an_entry_applied_in_the_block_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = _finished()
    game = replay(entries[:-1])
    calls = _counted(game, monkeypatch)
    with game.outcome_pinned() as before:
        game.apply(entries[-1])
        after = game.outcome()
        assert after == game.engine.outcome(game.state)
    assert before is None and after is not None  # (the last entry ends the game)
    assert calls[0] >= 2


def test_a_copy_with_another_state_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = _finished()
    game = replay(entries)
    earlier = replay(entries[:-1])
    with game.outcome_pinned() as pinned:
        shadow = copy.copy(game)
        shadow.state = earlier.state
        assert pinned is not None and shadow.outcome() is None
        twin = game.fork()
        assert twin._outcome_pin is None
        assert twin.outcome() == pinned
