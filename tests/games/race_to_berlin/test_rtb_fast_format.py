"""The engine's `format` (one writer a decision type, `decisions.WRITERS`) against the
reference `format_decision` (its `match`): the same text for every type and each branch,
in both spellings (1.1 shell-safe, 1.0), fields of odd types included; a subclass or no
decision takes the kit's checked way."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import InvalidOrderError
from pbem.games.race_to_berlin import decisions as d
from pbem.games.race_to_berlin.rules import ENGINE

SAMPLES: list[Any] = [
    d.Place("17"),
    d.Place("17", 4),
    d.Place("B1", 0),
    d.Move("11", "12", ("us-1", "us-3"), True),
    d.Move("11", "12", ("us-1",), False),
    d.Move("11", "12", (), True),
    d.Attack("12", "11", 2),
    d.Attack("12", "11", 1, True),
    d.Attack("12", "11", 1, 0),
    d.RemoveBlock("12"),
    d.Support(),
    d.Support("12", True),
    d.Support("13", False),
    d.Tokens(),
    d.Tokens(True, False),
    d.Tokens(False, True),
    d.Tokens(True, True),
    d.Tokens(0, 0),
    d.Tokens(None, False),
    d.Tokens(0, 1),
    d.Reserves(True),
    d.Reserves(False),
    d.Counterattack(True),
    d.Counterattack(False),
    d.Loss("de-4"),
    d.Retreat((("de-4", "14"), ("de-9", "15")), ((None, "14"), ("west", "31"))),
    d.Advance(),
    d.Advance(("us-1", "us-3"), True),
    d.Advance(("us-1",), False),
    d.Advance((), True),
    d.Advance((), 0),
    d.Advance([], False),
    d.Advance(["us-1"], True),
    d.Strategic("us-1", "11", "20"),
    d.EndStrategic(),
    d.PlaceReserve("24"),
    d.OpenBlocks(),
]


def test_every_type_has_a_writer() -> None:
    assert set(d.WRITERS) == set(d.DECISION_TYPES)
    assert {type(s) for s in SAMPLES} == set(d.DECISION_TYPES)


@pytest.mark.parametrize("shell_safe", [True, False])
def test_the_writers_write_what_the_reference_writes(shell_safe: bool) -> None:
    engine = ENGINE if shell_safe else ENGINE.for_version("1.0")
    for sample in SAMPLES:
        assert engine.format(sample) == d.format_decision(sample, shell_safe), sample


def test_a_subclass_or_no_decision_takes_the_checked_way() -> None:
    class Odd(d.Loss):
        pass

    assert ENGINE.format(Odd("de-4")) == "loss de-4"
    with pytest.raises(InvalidOrderError):
        ENGINE.format("loss de-4")
