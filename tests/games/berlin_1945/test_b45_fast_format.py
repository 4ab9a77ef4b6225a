"""`format_decision` by the writer of a decision's exact type (`decisions.WRITERS`), as
the chain of isinstance tests it replaced chose: no decision type derives from another (so
the first test an instance of a type passed was its own), a subclass takes the first
writer of a type it derives from, and the engine's `format` agrees in both spellings."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import InvalidOrderError
from pbem.games.berlin_1945 import decisions as d
from pbem.games.berlin_1945.rules import ENGINE

TEXTS = [
    "draw",
    "open",
    "end movement",
    "discard slot 3",
    "discard slots 3, 4 for move",
    "plan",
    "move 4 to 3 with s1, s2 and to 5 with s3",
    "rebuild s1 in 4",
    "rebuild s1 in 4 discard slots 1, 2",
    "execute 1",
    "execute 2 with s1, s2 / s3 discard slot 4",
    "retreat 1",
    "cancel 1 discard slot 2",
    "play 24",
    "play 24 on card 7",
    "no reaction",
    "fight 4",
    "cards play 7, 8 bang",
    "no cards",
    "casualties s1, s2",
    "remove none",
]


def test_no_decision_type_derives_from_another() -> None:
    kinds = list(d.WRITERS)
    assert set(kinds) == set(d.DECISION_TYPES)
    for kind in kinds:
        assert not any(issubclass(kind, other) for other in kinds if other is not kind)


def _samples() -> list[Any]:
    found = [d.parse_decision(text) for text in TEXTS]
    found += [d.Reinforce("I", "II"), d.RemoveUnit("g1"), d.RetreatOrder(1, (("s1",),))]
    return found


@pytest.mark.parametrize("shell_safe", [True, False])
def test_the_engine_writes_what_the_chain_of_tests_wrote(shell_safe: bool) -> None:
    engine = ENGINE if shell_safe else ENGINE.for_version("1.1")
    samples = _samples()
    assert len({type(s) for s in samples}) >= 15
    for sample in samples:
        expected = next(
            write(sample, shell_safe)
            for kind, write in d.WRITERS.items()
            if isinstance(sample, kind)
        )
        assert engine.format(sample) == d.format_decision(sample, shell_safe) == expected


def test_a_subclass_takes_its_types_writer_and_no_decision_is_refused() -> None:
    class Odd(d.Fight):
        pass

    assert ENGINE.format(Odd("4")) == d.format_decision(Odd("4")) == "fight 4"
    with pytest.raises(InvalidOrderError):
        ENGINE.format("fight 4")
    with pytest.raises(InvalidOrderError):
        d.format_decision(object())
