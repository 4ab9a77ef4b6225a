"""The Barbarossa demo save (saves/barbarossa-demo.pbem), replayed entry by entry, for the
tests of what players read and look at: the summaries and the gamesheet picture."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from pbem.core.adjudicator import Adjudicator
from pbem.core.log import Entry
from pbem.ledger import replay
from pbem.verify import verify_text

SAVE = Path(__file__).resolve().parents[3] / "saves" / "barbarossa-demo.pbem"


@cache
def entries() -> tuple[Entry, ...]:
    report = verify_text(SAVE.read_text(encoding="utf-8"))
    assert report.ok and report.game is not None, report.failure
    return tuple(report.game.entries)


def positions() -> Iterator[tuple[int, Adjudicator]]:
    """(seq of the last entry applied, the game) after each entry, from the genesis on.
    One game, advanced between yields: use it before asking for the next position."""
    game = replay(entries()[:1])
    yield 0, game
    for entry in entries()[1:]:
        game.apply(entry)
        yield entry.seq, game


def game_at(seq: int) -> Adjudicator:
    """The game just after entry `seq` was applied."""
    game = replay(entries()[: seq + 1])
    assert game.entries[-1].seq == seq
    return game


@cache
def first_seq(test: Callable[[dict[str, Any]], bool]) -> int:
    """The first position whose state passes `test` (a module-level function)."""
    for seq, game in positions():
        if isinstance(game.state, dict) and test(game.state):
            return seq
    raise AssertionError(f"no position of the demo save passes {test.__name__}")


def last_seq() -> int:
    return entries()[-1].seq
