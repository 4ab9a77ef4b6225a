"""Contexts that engines' tests pass to `apply` instead of the adjudicator's.

- ScriptedContext hands out queued die values (checking each is in range) and
  records every roll's purpose and every event.
- PendingContext raises EntropyPending on the first roll, like the adjudicator's
  first pass ("legal, waiting for dice"), and counts roll requests.
- RandomContext feeds dice from a seeded random.Random (never the global one).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from pbem.core.canonical import JSON
from pbem.errors import EntropyPending, PbemError


class _NoSecrets:
    """The hidden-information part of the Context protocol, for games without secrets."""

    seq = 0

    def committed_now(self) -> list[str]:
        return []

    def opened_now(self) -> dict[str, JSON]:
        return {}

    def is_committed(self, label: str) -> bool:
        return False

    def is_opened(self, label: str) -> bool:
        return False

    def value(self, label: str) -> JSON:
        raise PbemError(f"{label} has not been opened")


class ScriptedContext(_NoSecrets):
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


class PendingContext(_NoSecrets):
    """Raises EntropyPending on roll, as the adjudicator does before entropy arrives."""

    def __init__(self) -> None:
        self.requests = 0
        self.events: list[tuple[str, dict[str, Any]]] = []

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        self.requests += 1
        raise EntropyPending(f"waiting for entropy: {purpose}")

    def event(self, text: str, **data: Any) -> None:
        self.events.append((text, data))


class RandomContext(_NoSecrets):
    """Dice from a seeded random.Random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.events: list[tuple[str, dict[str, Any]]] = []

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        return self.rng.randint(lo, hi)

    def event(self, text: str, **data: Any) -> None:
        self.events.append((text, data))
