"""Applying the entries found in mail: pure over a Client and a list of (key, raw message).

Each message is one store transaction: its entries are applied in seq order (a genesis
first), entries that arrive before an earlier one of their game are held in the
store's inbox until the gap is filled, held entries whose turn has come are applied
after every message, and the message is recorded for threading. A message that breaks
anything (damaged or tampered entry, bad signature, unknown game or key, illegal move,
equivocation) is refused as a whole: the transaction rolls back and nothing of it
stays, while every other message is processed as usual.

A message bigger than MAX_MESSAGE_BYTES, with more MIME parts or header fields than
pbem.transport.mime allows, or with more than MAX_ENTRIES entries is refused with one
line, before its entries are checked, and the fetch goes on with the next message.

An invitation (the genesis of a game this store does not have, signed by someone else
and naming one of this store's keys) is not stored: it is checked, kept in the inbox
with the entries of its game that came with it or after it, and listed on every fetch
until the player accepts it (`pbem join GAME`, or `pbem mail fetch --accept GAME`) or
declines it (`--decline GAME`). A genesis signed by one of this store's own keys (a game
the player made on another device) is stored at once, as before.

Only the mailbox readers (pbem.mail.sources) and the command (fetch_command) touch
mail; everything here can be tested with bytes in memory.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from pbem.core.log import GENESIS, Entry
from pbem.errors import EquivocationError, PbemError
from pbem.ledger import find_equivocation
from pbem.mail import MAX_MESSAGE_BYTES
from pbem.render import escape
from pbem.transport.message import message_header_fields, one_line, parse_message

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator

APPLIED = "applied"
HAD = "already had"
WAITING = "waiting"
INVITED = "invitation"
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


@dataclass
class MessageReport:
    """What happened to one message."""

    key: str
    message_id: str | None
    subject: str
    sender: str = ""  # the From header, on one line (shown with an invitation)
    refusal: str | None = None
    proof: str | None = None  # an equivocation proof, in full
    found: int = 0  # entries in the message
    applied: list[Seq] = field(default_factory=list)  # its entries applied (now or later)
    had: list[Seq] = field(default_factory=list)  # its entries the store already had
    held: list[Seq] = field(default_factory=list)  # its entries waiting in the inbox
    waiting_for: dict[str, int] = field(default_factory=dict)  # game -> the missing seq
    also: list[Seq] = field(default_factory=list)  # held entries of earlier mail applied now
    problems: list[str] = field(default_factory=list)  # held entries refused when due
    pending: list[Seq] = field(default_factory=list)  # held for an invitation not accepted
    invitations: dict[str, str] = field(default_factory=dict)  # game -> what it is

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
        for game, what in self.invitations.items():
            sender = f" (mail from {self.sender})" if self.sender else ""
            parts.append(
                f"invitation to {what}{sender}, not stored: accept it with "
                f"`pbem join {_short(game)}`, or `pbem mail fetch --decline {_short(game)}`"
            )
        for game, seqs in _by_game(self.pending).items():
            if game not in self.invitations:
                parts.append(
                    f"holding {_ranges(seqs)} of game {_short(game)} until its invitation "
                    "is accepted"
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
        self.store = client.store
        # How its messages are recorded in the store's thread: "in" (read), or "out" (the
        # user's own sent mail, read again to relearn it: pbem.mail.sent).
        self.direction = direction
        # The player's own data files (`--data NAME=FILE`), by digest: a game started with
        # them cannot be checked without them, as with `pbem apply --data`.
        self.extra = _by_digest(extra_data)
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
        known = self.store.mail_message(message_id) if message_id else None
        if known is not None and self.store.has_game(str(known["game"])):
            # Read (or sent) before and recorded: its entries are in the store, and any it
            # held wait in the inbox, so it is not parsed and checked again on every fetch.
            # (A message with an invitation not accepted yet is read again, and listed.)
            game_id = str(known["game"])
            report.found = 1
            report.had = [(game_id, s) for s in range(known["first_seq"], known["last_seq"] + 1)]
            return report
        try:
            entries = parse_message(raw)
        except PbemError as exc:
            report.refusal = one_line(str(exc))
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
        report.pending.clear()
        report.invitations.clear()
        report.waiting_for.clear()
        report.refusal = one_line(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)

    # --- one message, inside its transaction ----------------------------------------------

    def _apply_message(self, report: MessageReport, entries: list[Entry]) -> None:
        games: dict[str, Adjudicator] = {}
        invited: dict[str, Adjudicator | None] = {}  # games of invitations not accepted
        for entry in sorted(entries, key=lambda e: (e.kind != GENESIS, e.seq)):
            if entry.kind == GENESIS:
                self._genesis(report, entry, games, invited)
                continue
            game_id = str(entry.game)
            if game_id not in games:
                if not self.store.has_game(game_id):
                    if game_id not in invited:
                        invited[game_id] = self._pending_invitation(game_id)
                    pending = invited[game_id]
                    if pending is None:
                        raise PbemError(
                            f"{entry.describe()} belongs to game {_short(game_id)}, unknown here"
                        )
                    self._hold_for_invitation(report, pending, entry)
                    continue
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

    def _genesis(
        self,
        report: MessageReport,
        entry: Entry,
        games: dict[str, Adjudicator],
        invited: dict[str, Adjudicator | None],
    ) -> None:
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
        signer = roles.get(entry.by) if isinstance(roles, dict) else None
        if signer is not None and self._invited(str(signer)):
            # Signed by one of this store's own keys: a game the player made elsewhere.
            games[game_id] = self.client.start_from(entry, self.extra)
            report.applied.append((game_id, 0))
            return
        # Somebody else's invitation: checked as a stored game would be (signature,
        # rules, data), then held until the player accepts it.
        game = self._checked_invitation(entry)
        self.store.buffer_entry(game_id, 0, entry.id, entry.canonical, entry.signature)
        # Kept with the invitation, so that accepting it later needs no --data again.
        for name, digest in _data_names(entry).items():
            if digest in self.extra:
                self.store.add_data_file(digest, name, self.extra[digest])
        invited[game_id] = game
        report.pending.append((game_id, 0))
        report.invitations[game_id] = describe_invitation(self.client, game)

    def _checked_invitation(self, genesis: Entry) -> Adjudicator:
        from pbem.ledger import replay

        return replay([genesis], known_data(self.client, genesis, self.extra))

    def _pending_invitation(self, game_id: str) -> Adjudicator | None:
        """The game of an invitation held in the inbox and not accepted yet, if any."""
        for row in self.store.buffered(game_id):
            if int(row["seq"]) == 0 and str(row["id"]) == game_id:
                return self._checked_invitation(Entry.from_wire(row["canonical"], row["signature"]))
        return None

    def _hold_for_invitation(self, report: MessageReport, game: Adjudicator, entry: Entry) -> None:
        """An entry of an invited game: checked as far as it can be (a role of the game,
        its signature), then held with the invitation."""
        self._check_author(game, entry)
        self.store.buffer_entry(game.id, entry.seq, entry.id, entry.canonical, entry.signature)
        report.pending.append((game.id, entry.seq))

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
                        self._held_refused(report, game, entry, one_line(str(exc)))
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
            self.store.record_mail(holder.message_id, game_id, self.direction, min(seqs), max(seqs))

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
            # A message holding an invitation is recorded with its genesis only: the
            # root of the game's thread once it is accepted. Until then it is read again
            # (see process), and so is any message with other held entries of the game,
            # until they are in the store.
            mine = [seq for seq in report.pending if seq[1] == 0]
        if not mine:
            return
        game_id = mine[0][0]
        seqs = [seq for game, seq in mine if game == game_id]
        self.store.record_mail(report.message_id, game_id, self.direction, min(seqs), max(seqs))


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


# --- invitations ------------------------------------------------------------------------------


def describe_invitation(client: Client, game: Adjudicator) -> str:
    """'game <id> of <rules> "<title>" by <role> <fingerprint>, for your role <role>'
    (unescaped: it quotes the genesis's title)."""
    from pbem.ledger import fingerprint

    genesis = game.genesis
    title = str(genesis.body.get("title") or game.engine.title)
    creator = f"{genesis.by} {fingerprint(game.roles[genesis.by])}"
    yours = [role for role, line in game.roles.items() if _owned(client, line)]
    plural = "s" if len(yours) != 1 else ""
    return (
        f'game {_short(game.id)} of {game.engine.name} "{title}" by {creator}, '
        f"for your role{plural} {', '.join(yours)}"
    )


def _owned(client: Client, public_line: str) -> bool:
    try:
        return client.owns_private_key(public_line)
    except PbemError:
        return False


def pending_invitations(client: Client) -> list[Entry]:
    """The genesis of every invitation held in the inbox and not accepted, by game id."""
    store = client.store
    found = []
    for canonical, signature in store.buffered_geneses():
        try:
            genesis = Entry.from_wire(canonical, signature)
        except PbemError:
            continue  # held by an older pbem and no longer readable: never accepted
        if not store.has_game(genesis.id):
            found.append(genesis)
    return found


def invitation_lines(client: Client) -> list[str]:
    """One line per pending invitation, for `pbem show` (unescaped)."""
    from pbem.ledger import replay

    lines = []
    for genesis in pending_invitations(client):
        try:
            what = describe_invitation(client, replay([genesis], known_data(client, genesis, {})))
        except PbemError as exc:
            what = f"game {_short(genesis.id)} (cannot be played here: {one_line(str(exc))})"
        lines.append(f"invitation to {what}: `pbem join {_short(genesis.id)}` to accept")
    return lines


def find_invitation(client: Client, prefix: str) -> Entry | None:
    """The one pending invitation whose game id starts with `prefix`, or None."""
    wanted = prefix.strip().lower()
    if not wanted:
        return None
    found = [g for g in pending_invitations(client) if g.id.startswith(wanted)]
    if len(found) > 1:
        raise PbemError(f"game id {prefix!r} is ambiguous: {len(found)} invitations match")
    return found[0] if found else None


def accept_invitation(
    client: Client, prefix: str, extra_data: Mapping[str, bytes] | None = None
) -> str:
    """Store the invited game and the entries held with it (one transaction); a line
    saying what was stored (unescaped). `extra_data`: the player's own data files, by
    name, beside those kept with the invitation."""
    genesis = find_invitation(client, prefix)
    if genesis is None:
        raise PbemError(f"no invitation to a game {prefix!r} is waiting (see `pbem mail fetch`)")
    fetcher = Fetcher(client, extra_data)
    report = MessageReport("accept", None, "")
    with client.changing():
        game = client.start_from(genesis, known_data(client, genesis, fetcher.extra))
        fetcher._drain(report, game)  # the held entries whose turn has come, in order
    what = describe_invitation(client, game)
    stored = [0, *(seq for game_id, seq in report.also if game_id == game.id)]
    line = f"accepted the invitation to {what}: stored entries {_ranges(stored)}"
    return "; ".join([line, *report.problems])


def drain_held(client: Client, game_id: str) -> tuple[list[int], list[str]]:
    """Apply the entries of a stored game held in the inbox whose turn has come (after
    this store signed the entry they waited for: a referee's join or acknowledgement), in
    one transaction: (the seqs applied, a line per held entry refused)."""
    fetcher = Fetcher(client)
    report = MessageReport("held", None, "")
    with client.changing():
        fetcher._drain(report, client.game(game_id))
    return [seq for held, seq in report.also if held == game_id], report.problems


def decline_invitation(client: Client, prefix: str) -> str:
    """Forget an invitation and the entries held with it; a line saying so (unescaped)."""
    genesis = find_invitation(client, prefix)
    if genesis is None:
        raise PbemError(f"no invitation to a game {prefix!r} is waiting (see `pbem mail fetch`)")
    store = client.store
    with store.transaction():
        for seq in sorted({int(row["seq"]) for row in store.buffered(genesis.id)}):
            store.drop_buffered(genesis.id, seq)
    return (
        f"declined the invitation to game {_short(genesis.id)}: forgotten (a mail that "
        "still holds it lists it again)"
    )


def _by_digest(files: Mapping[str, bytes] | None) -> dict[str, bytes]:
    from pbem.core.adjudicator import data_digest

    return {data_digest(content): content for content in (files or {}).values()}


def _data_names(genesis: Entry) -> dict[str, str]:
    """The data files a genesis names: file name -> sha256 digest."""
    named = genesis.body.get("data")
    return {str(k): str(v) for k, v in named.items()} if isinstance(named, dict) else {}


def known_data(client: Client, genesis: Entry, extra: Mapping[str, bytes]) -> dict[str, bytes]:
    """Data files by digest for a game not stored yet: `extra` (given with --data) and the
    ones the store kept with its invitation."""
    found = dict(extra)
    for digest in _data_names(genesis).values():
        kept = client.store.data_file(digest)
        if kept is not None:
            found.setdefault(digest, kept)
    return found


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
