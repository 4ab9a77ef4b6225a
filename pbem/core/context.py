"""The `ctx` an engine's `apply` gets (`ApplyContext`): draws deferred until another
role's reveal seeds them (protocol section 4), private draws (sections 5 and 7), piles,
the commitments and openings of the entry being applied, and the events it logs.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core.canonical import JSON
from pbem.core.engine import Event
from pbem.core.history import Sealed
from pbem.core.log import escape_text, refused_character
from pbem.core.rng import RngRecord
from pbem.errors import EntropyPending, PbemError
from pbem.hints import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # types only: a Protocol class costs import time (every `pbem verify`)

    class Dice(Protocol):
        """Where a context's draws come from: the protocol's Stream (or a test's script)."""

        def between(self, lo: int, hi: int) -> int: ...


def _check_purpose(purpose: str) -> None:
    """A draw's purpose is printed as the end of its RNG log line: one line of plain text,
    or it could add lines of its own to the printed log (protocol section 8)."""
    if not purpose.strip():  # the RNG log line would end in nothing a reader can parse
        raise PbemError("a draw's purpose must say what the draw is for, but it is empty")
    char = None if purpose.isprintable() else refused_character(purpose)  # (fast path)
    if char is not None:
        raise PbemError(
            f"a draw's purpose must be one line of plain text, but '{escape_text(purpose)}' "
            f"holds the control character U+{ord(char):04X}"
        )


class ApplyContext:
    """The `ctx` passed to Engine.apply: deferred draws, logged with their purpose,
    and the commitments and openings that the entry being applied carries."""

    def __init__(
        self,
        stream: Dice | None,
        requesting: int,
        producing: int | None,
        sealed: Mapping[str, Sealed] | None = None,
        committed_now: tuple[str, ...] = (),
        opened_now: tuple[str, ...] = (),
        private_values: Mapping[str, int] | None = None,
    ) -> None:
        self._stream = stream
        self._requesting = requesting
        self._producing = producing
        self._sealed = sealed or {}
        self._committed_now = committed_now
        self._opened_now = opened_now
        self._private_values = private_values or {}  # read only, never kept past apply
        self.records: list[RngRecord] = []
        self.private_keys: list[str] = []
        self.events: list[Event] = []
        # The secrets (None: public) of records[:_scanned]: each draw checks the kinds of
        # the draws before it, and an entry may draw hundreds (a shuffle), so the records
        # are read once each, not once per draw.
        self._secrets: set[str | None] = set()
        self._scanned = 0
        # `opened_now`'s values, made at its first call: the rules ask it several times
        # per entry (once per piece they open, in some titles), and an entry may open
        # dozens. Nothing changes them while the context lives (`_sealed` and
        # `_opened_now` are never changed in place), so the memo is never stale.
        self._opened_values: dict[str, JSON] | None = None

    def _drawn_secrets(self) -> set[str | None]:
        """The secrets of every record so far (None for a public draw)."""
        records = self.records
        while self._scanned < len(records):
            self._secrets.add(records[self._scanned].secret)
            self._scanned += 1
        return self._secrets

    @property
    def seq(self) -> int:
        """The seq of the entry whose decision is being applied (for claims to cite)."""
        return self._requesting

    # hidden information (protocol section 5)

    def committed_now(self) -> list[str]:
        """Labels this entry commits to."""
        return list(self._committed_now)

    def opened_now(self) -> dict[str, JSON]:
        """Label -> value for every commitment this entry opens (each checked already): a
        new dict at each call, which the caller may change."""
        values = self._opened_values
        if values is None:
            sealed = self._sealed
            values = self._opened_values = {
                label: sealed[label].value for label in self._opened_now
            }
        return dict(values)

    def is_committed(self, label: str) -> bool:
        return label in self._sealed

    def committed_at(self, label: str) -> int | None:
        """The seq of the entry that committed `label` (None: never committed)."""
        found = self._sealed.get(label)
        return None if found is None else found.seq

    def is_opened(self, label: str) -> bool:
        return label in self._sealed and self._sealed[label].opened

    def value(self, label: str) -> JSON:
        """The opened value of `label`; a rules error if it is still sealed."""
        if not self.is_opened(label):
            raise PbemError(f"{label} has not been opened")
        return self._sealed[label].value

    # private draws (protocol sections 5 and 7)

    def private_roll(self, secret: str, lo: int, hi: int, purpose: str) -> str:
        """A draw in [lo, hi] that only the owner of `secret` can compute; returns its key.

        `secret` labels a fresh 32-byte secret x that the entry being applied commits.
        The value is seeded by x and the next other role's reveal; the owner's client
        computes it (it arrives in `known` under the key), everyone else learns it when
        x is opened (`private_value`).
        """
        # Checked before the draw waits for entropy: a failure refuses the requesting entry,
        # whose author made it, not the entry that would have rolled.
        sealed = self._sealed.get(secret)
        if sealed is None or sealed.seq != self._requesting:
            raise PbemError(f"a private draw needs {secret} committed in the requesting entry")
        _check_purpose(purpose)
        if self._stream is None or self._producing is None:
            raise EntropyPending(purpose)
        if any(drawn != secret for drawn in self._drawn_secrets()):
            # One secret per requesting entry and no public draws beside it, so that a
            # reader of the RNG log knows which stream each line comes from.
            raise PbemError("an entry's private draws all come from one secret, alone")
        key = f"draw/{self._requesting}/{len(self.private_keys)}"
        self.private_keys.append(key)
        self.records.append(
            RngRecord(self._requesting, self._producing, lo, hi, None, purpose, secret)
        )
        return key

    def private_value(self, key: str) -> int | None:
        """The value of a private draw once its secret is opened (else None)."""
        return self._private_values.get(key)

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        _check_purpose(purpose)  # (before waiting: see private_roll)
        if self._stream is None or self._producing is None:
            raise EntropyPending(purpose)
        secrets = self._secrets if self._scanned == len(self.records) else self._drawn_secrets()
        if secrets and any(drawn is not None for drawn in secrets):
            raise PbemError("an entry's draws are all public or all private (protocol notes)")
        value = self._stream.between(lo, hi)
        self.records.append(RngRecord(self._requesting, self._producing, lo, hi, value, purpose))
        return value

    # piles (protocol section 7: a draw takes index int(len(pile)); a shuffle is
    # Fisher-Yates from the top index down, j = int(i + 1) for i = n-1 ... 1)

    def draw(self, pile: list[Any], purpose: str) -> Any:
        """Take a random item out of `pile` (in its canonical order) and return it."""
        if not pile:
            raise PbemError(f"nothing left to draw ({purpose})")
        return pile.pop(self.roll(0, len(pile) - 1, purpose))

    def shuffle(self, pile: list[Any], purpose: str) -> None:
        """Shuffle `pile` in place; each swap is one line of the RNG log."""
        for i in range(len(pile) - 1, 0, -1):
            j = self.roll(0, i, f"{purpose}: place {i + 1}")
            pile[i], pile[j] = pile[j], pile[i]

    def event(self, text: str, **data: JSON) -> None:
        self.events.append(Event(text, data))  # (**data is a new dict already)
