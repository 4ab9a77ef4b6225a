"""What a replay of a log records beside the engine state: each decision as it happened
(`Action`), the commitments of the log and their openings (`Sealed`), and the private draws
only a secret's owner can compute until it is opened (`PrivateDraw`); and which actions
make up a turn (`turn_actions`).

These are records (pbem.record: what @dataclass gives, without the dataclasses module
a `pbem verify` would otherwise import).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.canonical import JSON
from pbem.core.engine import Event
from pbem.core.rng import RngRecord
from pbem.hints import Any
from pbem.record import Record


class Action(Record, fields=("seq", "by", "text", "events", "rng", "resolved_at", "turn")):
    """One decision as it happened: who, what, the events and the dice it caused."""

    seq: int
    by: str
    text: str
    events: tuple[Event, ...]
    rng: tuple[RngRecord, ...]
    resolved_at: int | None  # the entry whose reveal produced the dice
    turn: JSON

    def __init__(
        self,
        seq: int,
        by: str,
        text: str,
        events: tuple[Event, ...] = (),
        rng: tuple[RngRecord, ...] = (),
        resolved_at: int | None = None,
        turn: JSON = None,
    ) -> None:
        fields = self.__dict__
        fields["seq"] = seq
        fields["by"] = by
        fields["text"] = text
        fields["events"] = events
        fields["rng"] = rng
        fields["resolved_at"] = resolved_at
        fields["turn"] = turn


class PrivateDraw(
    Record,
    fields=(
        "key",
        "secret",
        "requesting_seq",
        "requesting_id",
        "producing_seq",
        "reveal",
        "lo",
        "hi",
        "purpose",
        "log_index",
    ),
):
    """A draw only the owner of a sealed secret x can compute until x is opened."""

    key: str
    secret: str  # label of the committed x
    requesting_seq: int
    requesting_id: str
    producing_seq: int
    reveal: str
    lo: int
    hi: int
    purpose: str
    log_index: int  # its line in the RNG log

    def __init__(
        self,
        key: str,
        secret: str,
        requesting_seq: int,
        requesting_id: str,
        producing_seq: int,
        reveal: str,
        lo: int,
        hi: int,
        purpose: str,
        log_index: int,
    ) -> None:
        fields = self.__dict__
        fields["key"] = key
        fields["secret"] = secret
        fields["requesting_seq"] = requesting_seq
        fields["requesting_id"] = requesting_id
        fields["producing_seq"] = producing_seq
        fields["reveal"] = reveal
        fields["lo"] = lo
        fields["hi"] = hi
        fields["purpose"] = purpose
        fields["log_index"] = log_index


class Sealed(Record, fields=("label", "digest", "role", "seq", "opened", "value", "opened_at")):
    """A commitment in the log: who made it, in which entry, and its opening once made."""

    label: str
    digest: str
    role: str
    seq: int
    opened: bool
    value: JSON
    opened_at: int | None

    def __init__(
        self,
        label: str,
        digest: str,
        role: str,
        seq: int,
        opened: bool = False,
        value: JSON = None,
        opened_at: int | None = None,
    ) -> None:
        fields = self.__dict__
        fields["label"] = label
        fields["digest"] = digest
        fields["role"] = role
        fields["seq"] = seq
        fields["opened"] = opened
        fields["value"] = value
        fields["opened_at"] = opened_at


# --- the turns of a history (what a summary, a page or a map shows of the last turn) ---


def decided_in(actions: list[Action]) -> list[Any]:
    """The turn each action was decided in. An action's `turn` is that of the state it
    left, so the action that ends turn 3 says 4: each action counts in the turn of the
    action before it (the first in its own)."""
    turns, before = [], None
    for action in actions:
        turns.append(action.turn if before is None else before)
        before = action.turn
    return turns


def turn_actions(history: Sequence[Action], turn: Any) -> tuple[Any, list[Action]]:
    """(the turn shown, its actions): those of `history` (a replay's actions) decided in
    `turn`, or, when none is yet (a turn has just begun), those of the last turn that has
    some."""
    actions = [a for a in history if a.turn is not None]
    turns = decided_in(actions)
    shown = turn if turn in turns or not turns else turns[-1]
    return shown, [a for a, t in zip(actions, turns, strict=True) if t == shown]
