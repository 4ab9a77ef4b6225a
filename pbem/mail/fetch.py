"""Applying the entries found in mail: pure over a Client and a list of (key, raw message).

Each message is one store transaction: its entries go to the client's inbox
(pbem.inbox: applied in seq order, held until the gap before them is filled, or held
as an invitation), and the message is recorded for threading. A message that breaks
anything (damaged or tampered entry, bad signature, unknown game or key, illegal move,
equivocation) is refused as a whole: the transaction rolls back and nothing of it
stays, while every other message is processed as usual.

A message bigger than MAX_MESSAGE_BYTES, with more MIME parts or header fields than
pbem.transport.mime allows, or with more than MAX_ENTRIES entries
(pbem.transport.message) is refused with one line, before its entries are checked, and
the fetch goes on with the next message.

An invitation is listed on every fetch until the player accepts it (`pbem join GAME`,
or `pbem mail fetch --accept GAME`) or declines it (`--decline GAME`).

Only the mailbox readers (pbem.mail.sources) and the command (pbem.cli.mail) touch
mail; everything here can be tested with bytes in memory.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem import escape
from pbem.core.log import Entry
from pbem.errors import EquivocationError, PbemError
from pbem.inbox import Inbox, Receipt, Seqs
from pbem.mail import MAX_MESSAGE_BYTES, stream
from pbem.transport.message import message_header_fields, one_line, parse_message_wire

if TYPE_CHECKING:
    from pbem.client import Client

APPLIED = "applied"
HAD = "already had"
WAITING = "waiting"
INVITED = "invitation"
REFUSED = "refused"
NO_ENTRIES = "no pbem entries"


def _short(game_id: str) -> str:
    return game_id[:12]


@dataclass
class MessageReport(Receipt):
    """What happened to one message."""

    key: str
    message_id: str | None
    subject: str
    sender: str = ""  # the From header, on one line (shown with an invitation)
    found: int = 0  # entries in the message
    # What became of its entries (pbem.inbox.Receipt): refusal, proof, applied, had, held,
    # waiting_for, also (held entries of earlier mail), problems, pending, invitations.

    @property
    def label(self) -> str:
        return self.message_id or f"message {self.key}"

    @property
    def status(self) -> str:
        if self.refusal is not None:
            return REFUSED
        if not self.found:
            return NO_ENTRIES
        if self.applied or self.also:
            return APPLIED
        if self.held:
            return WAITING
        if self.pending:
            return INVITED
        return HAD

    @property
    def fully_used(self) -> bool:
        """Every entry of the message is in the store (applied now or had already)."""
        return self.status in (APPLIED, HAD) and not self.held and not self.pending

    def line(self) -> str:
        """The report line, escaped for a terminal: the Message-ID, the Subject and the
        reasons quote the sender's text."""
        subject = f' "{self.subject}"' if self.subject else ""
        return escape.terminal_line(f"{self.label}{subject}: {self.outcome()}")

    def outcome(self) -> str:
        status = self.status
        if status == REFUSED:
            return f"refused: {self.refusal}"
        if status == NO_ENTRIES:
            return NO_ENTRIES
        parts: list[str] = []
        if self.applied:
            parts += [
                f"applied game {_short(g)} seqs {r}"
                for g, r in self.applied.ranges_by_game().items()
            ]
        if self.also:
            parts += [
                f"{'applied' if not self.applied else 'and'} held entries {r} "
                f"of game {_short(g)} from earlier mail"
                for g, r in self.also.ranges_by_game().items()
            ]
        if self.had:
            joined = "; ".join(
                f"game {_short(g)} seqs {r}" for g, r in self.had.ranges_by_game().items()
            )
            parts.append(f"already had {joined}" if parts else f"already had ({joined})")
        if self.held:
            for game, ranges in self.held.ranges_by_game().items():
                missing = self.waiting_for.get(game)
                parts.append(
                    f"waiting for entry {missing} of game {_short(game)} (holding {ranges})"
                )
        for game, what in self.invitations.items():
            sender = f" (mail from {self.sender})" if self.sender else ""
            parts.append(
                f"invitation to {what}{sender}, not stored: accept it with "
                f"`pbem join {_short(game)}`, or `pbem mail fetch --decline {_short(game)}`"
            )
        for game, ranges in self.pending.ranges_by_game().items():
            if game not in self.invitations:
                parts.append(
                    f"holding {ranges} of game {_short(game)} until its invitation is accepted"
                )
        parts += self.problems
        return "; ".join(parts)


class Fetcher:
    """Applies message after message to one Client's store and keeps a report of each."""

    def __init__(
        self,
        client: Client,
        extra_data: Mapping[str, bytes] | None = None,
        direction: str = "in",
    ) -> None:
        self.client = client
        # How its messages are recorded in the store's thread: "in" (read), or "out" (the
        # user's own sent mail, read again to relearn it: pbem.mail.sent).
        self.direction = direction
        # Where the entries go, with the player's own data files (`--data NAME=FILE`, as
        # with `pbem apply --data`); it tells when an earlier message's held entry is in.
        self.inbox = Inbox(client, extra_data, self._record_holder)
        self.reports: list[MessageReport] = []

    @property
    def refused(self) -> bool:
        """Whether anything was refused: a message, or a held entry once its turn came."""
        return any(r.status == REFUSED or r.problems for r in self.reports)

    def process(self, key: str, raw: bytes) -> MessageReport:
        """Read one message, apply what it carries (one transaction) and report it."""
        message_id, subject, sender = message_header_fields(raw)
        report = MessageReport(key, message_id, subject, sender)
        self.reports.append(report)
        if len(raw) > MAX_MESSAGE_BYTES:
            report.refusal = (
                f"the message is over {MAX_MESSAGE_BYTES // (1024 * 1024)} MiB, more than a "
                "mail of moves may have (save it and use `pbem apply FILE`)"
            )
            report.found = 1
            return report
        known = self.client.mail_message(message_id) if message_id else None
        if known is not None and self.client.has_game(str(known["game"])):
            # Read (or sent) before and recorded: its entries are in the store, and any it
            # held wait in the inbox, so it is not parsed and checked again on every fetch.
            # (A message with an invitation not accepted yet is read again, and listed.)
            game_id = str(known["game"])
            report.found = 1
            seqs = range(known["first_seq"], known["last_seq"] + 1)
            report.had = Seqs((game_id, seq) for seq in seqs)
            return report
        if self._streamed(report, raw):
            return report
        try:
            # (kept as bytes: a message of thousands of entries holds no parsed ones)
            entries = parse_message_wire(raw)
        except PbemError as exc:
            report.refusal = one_line(str(exc))
            report.found = 1
            return report
        report.found = len(entries)
        if not entries:
            return report
        try:
            # One transaction for the whole message; on a rollback the client forgets
            # the games it replayed, so none is ahead of the store.
            with self.inbox.batch():
                self.inbox.receive_wire(report, entries)
                self._record(report)
        except EquivocationError as exc:
            self._refuse(report, exc)
            report.proof = exc.proof
        except PbemError as exc:
            self._refuse(report, exc)
        return report

    def _streamed(self, report: MessageReport, raw: bytes) -> bool:
        """Apply a plain mail of moves as its entries come (pbem.mail.stream), in one
        transaction: none of them is kept, nor the mail's text. False when the mail is not
        one the stream reads, or anything in it fails: the transaction rolled back, the
        report is as it was, and `process` reads the mail whole, which gives the same
        results and says what is wrong in its own words."""
        found = stream.entries(raw)
        try:
            first = next(found, None)
        except PbemError:
            return False  # (nothing done yet)
        if first is None:
            return True  # a plain mail without entries (report.found stays 0)
        counted = _Counted(itertools.chain([first], found))
        try:
            with self.inbox.batch():
                self.inbox.receive_ordered(report, counted)
                self._record(report)
        except PbemError:
            self.inbox.forget(report)
            self._clear(report)
            report.proof = None
            return False
        report.found = counted.count
        return True

    def _refuse(self, report: MessageReport, exc: PbemError) -> None:
        """The transaction rolled back: forget what the report said was done."""
        self._clear(report)
        report.refusal = one_line(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)

    @staticmethod
    def _clear(report: MessageReport) -> None:
        for done in (report.applied, report.had, report.held, report.also, report.problems):
            done.clear()
        report.pending.clear()
        report.invitations.clear()
        report.waiting_for.clear()

    # --- threading ------------------------------------------------------------------------

    def _record_holder(self, holder: Receipt, game_id: str) -> None:
        """Thread an earlier message of this run once one of its held entries is in (the
        inbox's receipts are this Fetcher's reports)."""
        message_id = holder.message_id if isinstance(holder, MessageReport) else None
        spans = [seqs.bounds(game_id) for seqs in (holder.held, holder.applied, holder.had)]
        found = [span for span in spans if span is not None]
        if message_id and found:
            first, last = min(a for a, _b in found), max(b for _a, b in found)
            self.client.record_mail(message_id, game_id, self.direction, first, last)

    def _record(self, report: MessageReport) -> None:
        if not report.message_id:
            return
        mine = Seqs()
        mine.extend(report.applied)
        mine.extend(report.had)
        if not mine:
            # A message holding an invitation is recorded with its genesis only: the
            # root of the game's thread once it is accepted. Until then it is read again
            # (see process), and so is any message with other held entries of the game,
            # until they are in the store.
            mine = Seqs(seq for seq in report.pending if seq[1] == 0)
        if not mine:
            return
        game_id = mine.games()[0]
        bounds = mine.bounds(game_id)
        assert bounds is not None
        self.client.record_mail(report.message_id, game_id, self.direction, *bounds)


class _Counted(Iterator[Entry]):
    """The entries of an iterator, counted as they are taken."""

    def __init__(self, entries: Iterator[Entry]) -> None:
        self._entries = entries
        self.count = 0

    def __next__(self) -> Entry:
        entry = next(self._entries)
        self.count += 1
        return entry


def fetch_messages(
    client: Client,
    messages: Iterable[tuple[str, bytes]],
    extra_data: Mapping[str, bytes] | None = None,
) -> list[MessageReport]:
    """Process every (key, raw message) in order; one report per message."""
    fetcher = Fetcher(client, extra_data)
    for key, raw in messages:
        fetcher.process(key, raw)
    return fetcher.reports
