"""Deadline arithmetic for a refereed game (pure: times in, decisions out).

The clock of a game runs from `since`, when the referee first saw the entry the game
now waits after, for the genesis's `deadline_hours`. Two reminders: once half the
deadline has passed, and once one hour (or a tenth of the deadline, whichever is less)
is left; then, once the deadline has passed, a forfeit (pbem.core.referee). Every time
is the referee's own clock, in whole UTC seconds as a forfeit signs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pbem.core.referee import format_time, parse_time
from pbem.errors import PbemError

REMINDERS = 2  # half way, and near the end


def utc_now() -> datetime:
    """The referee's clock: now, in whole UTC seconds."""
    return datetime.now(UTC).replace(microsecond=0)


def parse_now(text: str) -> datetime:
    """A `--now` time, written YYYY-MM-DDTHH:MM:SSZ; PbemError (one line) otherwise."""
    try:
        return parse_time(text, "time")
    except PbemError:
        raise PbemError(f"--now {text!r}: write the UTC time as YYYY-MM-DDTHH:MM:SSZ") from None


@dataclass(frozen=True)
class Clock:
    """One head's deadline: `since` (when the referee saw it) plus `hours`."""

    since: datetime
    hours: int

    @property
    def deadline(self) -> datetime:
        return self.since + timedelta(hours=self.hours)

    @property
    def last_call(self) -> datetime:
        """When the second reminder is due: an hour, or a tenth of the deadline, before it."""
        return self.deadline - min(timedelta(hours=1), timedelta(hours=self.hours) / 10)

    def reminders_due(self, now: datetime) -> int:
        """How many reminders should have gone by `now` (0, 1 or 2)."""
        if now >= self.last_call:
            return 2
        if now >= self.since + timedelta(hours=self.hours) / 2:
            return 1
        return 0

    def passed(self, now: datetime) -> bool:
        return now >= self.deadline

    def line(self) -> str:
        return f"since {format_time(self.since)}, deadline {format_time(self.deadline)}"


def stamp(moment: datetime) -> str:
    """A time as the store and a forfeit write it."""
    return format_time(moment)


def read_stamp(text: str) -> datetime:
    return parse_time(text, "since")
