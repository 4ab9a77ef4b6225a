"""Applying the entries found in mail: pure over a Client and a list of (key, raw message).

Each message is one store transaction: its entries are applied in seq order (a genesis
first), entries that arrive before an earlier one of their game are held in the
store's inbox until the gap is filled, held entries whose turn has come are applied
after every message, and the message is recorded for threading. A message that breaks
anything (damaged or tampered entry, bad signature, unknown game or key, illegal move,
equivocation) is refused as a whole: the transaction rolls back and nothing of it
stays, while every other message is processed as usual.

Only the mailbox readers (pbem.mail.sources) and the command (fetch_command) touch
mail; everything here can be tested with bytes in memory.
"""

from __future__ import annotations

import email.policy
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from email.parser import BytesHeaderParser
from functools import partial
from typing import TYPE_CHECKING, Any

from pbem.core.log import GENESIS, Entry
from pbem.errors import EquivocationError, PbemError
from pbem.ledger import find_equivocation
from pbem.transport.movefile import read_entries

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator

APPLIED = "applied"
HAD = "already had"
WAITING = "waiting"
REFUSED = "refused"
NO_ENTRIES = "no pbem entries"

Seq = tuple[str, int]  # (game id, seq)


def _short(game_id: str) -> str:
    return game_id[:12]


def _ranges(seqs: Iterable[int]) -> str:
    """3, 4, 5, 8 -> '3-5, 8'."""
    parts: list[str] = []
    ordered = sorted(set(seqs))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ", ".join(parts)


def _by_game(seqs: Iterable[Seq]) -> dict[str, list[int]]:
    grouped: dict[str, list[int]] = {}
    for game, seq in seqs:
        grouped.setdefault(game, []).append(seq)
    return grouped


def _one_line(text: str) -> str:
    return " ".join(text.split())


@dataclass
class MessageReport:
    """What happened to one message."""

    key: str
    message_id: str | None
    subject: str
    refusal: str | None = None
    proof: str | None = None  # an equivocation proof, in full
    found: int = 0  # entries in the message
    applied: list[Seq] = field(default_factory=list)  # its entries applied (now or later)
    had: list[Seq] = field(default_factory=list)  # its entries the store already had
    held: list[Seq] = field(default_factory=list)  # its entries waiting in the inbox
    waiting_for: dict[str, int] = field(default_factory=dict)  # game -> the missing seq
    also: list[Seq] = field(default_factory=list)  # held entries of earlier mail applied now
    problems: list[str] = field(default_factory=list)  # held entries refused when due

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
        return HAD

    @property
    def fully_used(self) -> bool:
        """Every entry of the message is in the store (applied now or had already)."""
        return self.status in (APPLIED, HAD) and not self.held

    def line(self) -> str:
        subject = f' "{self.subject}"' if self.subject else ""
        return f"{self.label}{subject}: {self.outcome()}"

    def outcome(self) -> str:
        status = self.status
        if status == REFUSED:
            return f"refused: {self.refusal}"
        if status == NO_ENTRIES:
            return NO_ENTRIES
        parts: list[str] = []
        if self.applied:
            parts += [
                f"applied game {_short(g)} seqs {_ranges(s)}"
                for g, s in _by_game(self.applied).items()
            ]
        if self.also:
            parts += [
                f"{'applied' if not self.applied else 'and'} held entries {_ranges(s)} "
                f"of game {_short(g)} from earlier mail"
                for g, s in _by_game(self.also).items()
            ]
        if self.had:
            joined = "; ".join(
                f"game {_short(g)} seqs {_ranges(s)}" for g, s in _by_game(self.had).items()
            )
            parts.append(f"already had {joined}" if parts else f"already had ({joined})")
        if self.held:
            for game, seqs in _by_game(self.held).items():
                missing = self.waiting_for.get(game)
                parts.append(
                    f"waiting for entry {missing} of game {_short(game)} (holding {_ranges(seqs)})"
                )
        parts += self.problems
        return "; ".join(parts)


def message_headers(raw: bytes) -> tuple[str | None, str]:
    """(Message-ID, Subject) of a raw message, leniently: (None, "") when absent."""
    # Every fetch reads every message of the mailbox again (nothing is marked read), and
    # the email package's header parsing is most of what a message already applied costs:
    # the result is kept per message, by the SHA-256 of its bytes, for the process.
    key = hashlib.sha256(raw).digest()
    found = _HEADERS.get(key)
    if found is None:
        found = _parse_headers(raw)
        if len(_HEADERS) >= 4096:
            _HEADERS.pop(next(iter(_HEADERS)))
        _HEADERS[key] = found
    return found


_HEADERS: dict[bytes, tuple[str | None, str]] = {}


def _parse_headers(raw: bytes) -> tuple[str | None, str]:
    try:
        headers = BytesHeaderParser(policy=email.policy.default).parsebytes(raw)
        message_id = headers.get("Message-ID")
        subject = headers.get("Subject")
        mid = _one_line(str(message_id)) if message_id else None
        return (mid or None), _one_line(str(subject or ""))[:120]
    except (LookupError, ValueError, TypeError, IndexError):
        return None, ""


def parse_message(raw: bytes) -> list[Entry]:
    """Every entry of a message; damage raises a PbemError naming the entry block."""
    entries = []
    for number, (canonical, signature) in enumerate(read_entries(raw), start=1):
        try:
            entries.append(Entry.from_wire(canonical, signature))
        except PbemError as exc:
            raise PbemError(f"entry block {number} is damaged: {exc}") from None
    return entries


class Fetcher:
    """Applies message after message to one Client's store and keeps a report of each."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.store = client.store
        self.reports: list[MessageReport] = []
        # Entries held in this run, by (game, seq, entry id) -> the messages that carried them.
        self._holders: dict[tuple[str, int, str], list[MessageReport]] = {}
        # Changes to other messages' reports, applied only when the transaction commits.
        self._after_commit: list[Callable[[], None]] = []

    @property
    def refused(self) -> bool:
        """Whether anything was refused: a message, or a held entry once its turn came."""
        return any(r.status == REFUSED or r.problems for r in self.reports)

    def process(self, key: str, raw: bytes) -> MessageReport:
        message_id, subject = message_headers(raw)
        report = MessageReport(key, message_id, subject)
        self.reports.append(report)
        known = self.store.mail_message(message_id) if message_id else None
        if known is not None:
            # Read (or sent) before and recorded: its entries are in the store, and any it
            # held wait in the inbox, so it is not parsed and checked again on every fetch.
            game_id = str(known["game"])
            report.found = 1
            report.had = [(game_id, s) for s in range(known["first_seq"], known["last_seq"] + 1)]
            return report
        try:
            entries = parse_message(raw)
        except PbemError as exc:
            report.refusal = _one_line(str(exc))
            report.found = 1
            return report
        report.found = len(entries)
        if not entries:
            return report
        self._after_commit = []
        try:
            # One transaction for the whole message; on a rollback the client forgets
            # the games it replayed, so none is ahead of the store.
            with self.client.changing():
                self._apply_message(report, entries)
        except EquivocationError as exc:
            self._refuse(report, exc)
            report.proof = exc.proof
        except PbemError as exc:
            self._refuse(report, exc)
        else:
            for change in self._after_commit:
                change()
            self._refresh_waiting()
        self._after_commit = []
        return report

    def _refresh_waiting(self) -> None:
        """Which entry each still-waiting message waits for, as the store stands now."""
        for report in self.reports:
            for game_id, _seq in report.held:
                report.waiting_for[game_id] = len(self.client.game(game_id).entries)

    def _refuse(self, report: MessageReport, exc: PbemError) -> None:
        """The transaction rolled back: forget what the report said was done."""
        for done in (report.applied, report.had, report.held, report.also, report.problems):
            done.clear()
        report.waiting_for.clear()
        report.refusal = _one_line(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)

    # --- one message, inside its transaction ----------------------------------------------

    def _apply_message(self, report: MessageReport, entries: list[Entry]) -> None:
        games: dict[str, Adjudicator] = {}
        for entry in sorted(entries, key=lambda e: (e.kind != GENESIS, e.seq)):
            if entry.kind == GENESIS:
                self._genesis(report, entry, games)
                continue
            game_id = str(entry.game)
            if game_id not in games:
                if not self.store.has_game(game_id):
                    raise PbemError(
                        f"{entry.describe()} belongs to game {_short(game_id)}, unknown here"
                    )
                games[game_id] = self.client.game(game_id)
            game = games[game_id]
            if entry.seq > len(game.entries):
                # Held entries may fill the gap up to this one (never past it: the
                # message's own entries come first).
                self._drain(report, game, below=entry.seq)
            self._one(report, game, entry)
        for game in games.values():
            self._drain(report, game)
        for game_id, _seq in report.held:
            report.waiting_for[game_id] = len(games[game_id].entries)
        self._record(report)

    def _genesis(self, report: MessageReport, entry: Entry, games: dict[str, Adjudicator]) -> None:
        game_id = entry.id
        if self.store.has_game(game_id):
            self._note(report.had, report, (game_id, 0))
            return
        roles = entry.body.get("roles")
        lines = [str(line) for line in roles.values()] if isinstance(roles, dict) else []
        if not any(self._invited(line) for line in lines):
            raise PbemError(
                f"unknown game {_short(game_id)}: its genesis names none of this store's keys"
            )
        games[game_id] = self.client.start_from(entry, {})
        report.applied.append((game_id, 0))

    def _invited(self, public_line: str) -> bool:
        """An invitation names a key whose private half is in this store."""
        try:
            return self.client.owns_private_key(public_line)
        except PbemError:
            return False  # a line that is not a key at all: certainly none of ours

    def _one(self, report: MessageReport, game: Adjudicator, entry: Entry) -> None:
        here = (game.id, entry.seq)
        if entry.seq <= len(game.entries):
            if self.client.apply_one(game, entry) == "already had":
                self._note(report.had, report, here)
            else:
                report.applied.append(here)
            return
        # Early: check what can be checked now (a role of the game, its signature),
        # then hold it until the entries before it arrive.
        self._check_author(game, entry)
        self.store.buffer_entry(game.id, entry.seq, entry.id, entry.canonical, entry.signature)
        report.held.append(here)
        holders = self._holders
        self._after_commit.append(
            lambda: holders.setdefault((game.id, entry.seq, entry.id), []).append(report)
        )

    @staticmethod
    def _check_author(game: Adjudicator, entry: Entry) -> None:
        from pbem.core.adjudicator import EntryRefused

        roles = game.roles
        if entry.by not in roles:
            raise EntryRefused(entry, f"{entry.by!r} is not a role of game {_short(game.id)}")
        try:
            game.check_signature(roles[entry.by], entry.canonical, entry.signature)
        except PbemError as exc:
            raise EntryRefused(entry, str(exc)) from None

    @staticmethod
    def _note(where: list[Seq], report: MessageReport, seq: Seq) -> None:
        if seq not in report.applied and seq not in where:
            where.append(seq)

    # --- held entries ---------------------------------------------------------------------

    def _drain(self, report: MessageReport, game: Adjudicator, below: int | None = None) -> None:
        """Apply held entries of `game` whose turn has come (seqs < `below` only, if given)."""
        while True:
            due = len(game.entries)
            rows = self.store.buffered(game.id)
            for row in rows:
                if int(row["seq"]) < due:
                    self._settle_stale(report, game, row)
            for seq in sorted({int(r["seq"]) for r in rows if int(r["seq"]) < due}):
                self.store.drop_buffered(game.id, seq)
            if below is not None and due >= below:
                return
            candidates = [r for r in rows if int(r["seq"]) == due]
            if not candidates:
                return
            self.store.drop_buffered(game.id, due)
            winner = None
            for row in candidates:
                entry = Entry.from_wire(row["canonical"], row["signature"])
                if winner is None:
                    try:
                        self.client.apply_one(game, entry)
                    except PbemError as exc:
                        self._held_refused(report, game, entry, _one_line(str(exc)))
                        continue
                    winner = entry
                    self._held_applied(report, game, entry)
                else:
                    self._held_conflict(report, game, winner, entry)
            if winner is None:
                return

    def _reports_holding(self, game: Adjudicator, entry: Entry) -> list[MessageReport]:
        return list(self._holders.get((game.id, entry.seq, entry.id), []))

    def _held_applied(self, report: MessageReport, game: Adjudicator, entry: Entry) -> None:
        here = (game.id, entry.seq)
        if here in report.held:  # held by this very message, its gap filled meanwhile
            _move(report.held, report.applied, here)
            return
        report.also.append(here)
        for holder in self._reports_holding(game, entry):
            self._record_holder(holder, game.id)
            self._after_commit.append(partial(_move, holder.held, holder.applied, here))

    def _record_holder(self, holder: MessageReport, game_id: str) -> None:
        """Thread an earlier message of this run once one of its held entries is in."""
        seqs = [s for g, s in holder.held + holder.applied + holder.had if g == game_id]
        if holder.message_id and seqs:
            self.store.record_mail(holder.message_id, game_id, "in", min(seqs), max(seqs))

    def _held_refused(
        self, report: MessageReport, game: Adjudicator, entry: Entry, reason: str
    ) -> None:
        here = (game.id, entry.seq)
        if here in report.held:  # cannot happen: held entries of this message come later
            raise PbemError(reason)
        report.problems.append(f"held {reason}")
        for holder in self._reports_holding(game, entry):
            self._after_commit.append(partial(_refuse_held, holder, here, reason))

    def _held_conflict(
        self, report: MessageReport, game: Adjudicator, applied: Entry, other: Entry
    ) -> None:
        proof = find_equivocation(game.genesis, [applied, other])
        if proof is None:
            reason = f"{other.describe()} differs from the entry this store has at that seq"
        else:
            reason = proof.proof().splitlines()[0]
            report.proof = report.proof or proof.proof()
        self._held_refused(report, game, other, reason)

    def _settle_stale(self, report: MessageReport, game: Adjudicator, row: dict[str, Any]) -> None:
        """A held entry whose seq the log already has: the same entry, or a conflict."""
        seq, entry_id = int(row["seq"]), str(row["id"])
        known = game.entries[seq]
        entry = Entry.from_wire(row["canonical"], row["signature"])
        if known.id == entry_id:
            for holder in self._reports_holding(game, entry):
                self._record_holder(holder, game.id)
                self._after_commit.append(partial(_move, holder.held, holder.had, (game.id, seq)))
            return
        self._held_conflict(report, game, known, entry)

    # --- threading ------------------------------------------------------------------------

    def _record(self, report: MessageReport) -> None:
        if not report.message_id:
            return
        mine = report.applied + report.had
        if not mine:
            return
        game_id = mine[0][0]
        seqs = [seq for game, seq in mine if game == game_id]
        self.store.record_mail(report.message_id, game_id, "in", min(seqs), max(seqs))


def _move(source: list[Seq], target: list[Seq], item: Seq) -> None:
    if item in source:
        source.remove(item)
        if item not in target:
            target.append(item)


def _refuse_held(report: MessageReport, item: Seq, reason: str) -> None:
    if item in report.held:
        report.held.remove(item)
    if report.refusal is None:
        report.refusal = reason


def fetch_messages(client: Client, messages: Iterable[tuple[str, bytes]]) -> list[MessageReport]:
    """Process every (key, raw message) in order; one report per message."""
    fetcher = Fetcher(client)
    for key, raw in messages:
        fetcher.process(key, raw)
    return fetcher.reports
