"""The user's sent mail: where a whole-machine restore learns what it already sent.

The signing journal (pbem.store.journal) is kept apart from the store so that restoring
the store folder cannot roll it back; a restore of the whole machine (store and state
folder) rolls back both, and no local record is left of the entries signed since. The
mail that carried them is still on the server (protocol section 8: "the client relearns
what it sent from its sent mail before signing again"):

- `pbem mail send` files each message it sends in the IMAP folder `[imap] sent` (APPEND,
  marked read), since SMTP keeps no copy (`file_sent`);
- `pbem mail fetch` reads that folder before the inbox (`relearn`): every entry in it that
  one of this store's keys validly signed is written to that key's journal (its slot
  worked out from the role's join), and the messages are applied as the user's own sent
  mail (entries the store lacks are stored, or held until the entries before them come),
  before the inbox is read and before anything is signed.

A journal that already holds a different entry for a relearned entry's slot means the key
signed both: that is said, and nothing is overwritten. A message in the folder that is
not the user's (a draft, anything filed by hand) is checked like any other mail: only
entries whose signature verifies with one of the store's own keys teach the journal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from pbem.core import chain
from pbem.core.log import GENESIS, JOIN, Entry
from pbem.errors import PbemError
from pbem.mail.config import MailConfig, ServerConfig
from pbem.mail.sources import ImapSource

if TYPE_CHECKING:
    from email.message import EmailMessage

    from pbem.client import Client
    from pbem.mail.fetch import MessageReport
    from pbem.store.journal import Journal


def sent_folder(config: MailConfig) -> ServerConfig | None:
    """The IMAP server with its folder set to the user's sent mail, when configured."""
    if config.imap is None or config.imap.sent is None:
        return None
    return replace(config.imap, folder=config.imap.sent)


def file_sent(config: MailConfig, message: EmailMessage) -> str | None:
    """File a message just sent in the configured Sent folder; None when there is none to
    file it in, else one line saying where it went, or why it did not (the message is
    sent either way)."""
    server = sent_folder(config)
    if server is None:
        return None
    try:
        with ImapSource(server, writable=True, select=False) as imap:
            imap.append(server.folder, bytes(message))
    except PbemError as exc:
        return (
            f"not filed in IMAP folder {server.folder!r} ({exc}): `pbem mail fetch` cannot "
            "relearn it from there"
        )
    return f"filed in IMAP folder {server.folder!r}"


def read_sent(client: Client, config: MailConfig, say: Callable[[str], None]) -> bool:
    """`pbem mail fetch`'s first step: relearn from the configured Sent folder (nothing
    without one). Says one line for the folder and one per message that taught anything;
    True when a message or an entry was refused."""
    server = sent_folder(config)
    if server is None:
        return False
    with ImapSource(server, select=False) as probe:
        there = probe.exists(server.folder)
    if not there:
        say(f"no IMAP folder {server.folder!r} (sent mail) yet: nothing to relearn")
        return False
    with ImapSource(server) as source:
        learned = Relearner(client)
        reports = [learned.message(key, raw) for key, raw in source.messages()]
    for report in reports:
        if report.learned or report.outcome.status not in ("already had", "no pbem entries"):
            say(report.line())
    count = sum(len(r.learned) for r in reports)
    entries = f"{count} entr{'y' if count == 1 else 'ies'}"
    say(
        f"sent mail ({server.folder}): {len(reports)} message"
        f"{'' if len(reports) == 1 else 's'} read, {entries} your keys signed relearned"
    )
    return any(r.refused for r in reports)


class SentReport:
    """What one sent message taught: the Fetcher's report, and the entries newly written
    to a journal (and the conflicts found there)."""

    def __init__(self, outcome: MessageReport) -> None:
        self.outcome = outcome
        self.learned: list[Entry] = []
        self.conflicts: list[str] = []

    @property
    def refused(self) -> bool:
        return (
            bool(self.conflicts) or self.outcome.status == "refused" or bool(self.outcome.problems)
        )

    def line(self) -> str:
        from pbem.escape import terminal_line

        parts = [f"sent {self.outcome.line()}"]
        if self.learned:
            seqs = ", ".join(str(e.seq) for e in self.learned)
            parts.append(f"journal relearned entries {seqs}")
        parts += self.conflicts
        return terminal_line("; ".join(parts))


class Relearner:
    """Reads the user's sent messages into the store (as sent mail) and the journals."""

    def __init__(self, client: Client) -> None:
        from pbem.mail.fetch import Fetcher

        self.client = client
        self.fetcher = Fetcher(client, direction="out")
        self.journals: dict[bytes, Journal] = client.own_journals()
        # (game, role) -> the role's join, and its chain elements by value -> index.
        self._joins: dict[tuple[str, str], Entry] = {}
        self._chains: dict[tuple[str, str], dict[bytes, int]] = {}
        self._geneses: dict[str, Entry] = {}
        # Per journal, (game, role, slot, id) of its records: read once, kept up to date.
        self._recorded: dict[bytes, set[tuple[str, str, str, str]]] = {}

    def message(self, key: str, raw: bytes) -> SentReport:
        from pbem.transport.message import message_header_fields, parse_message

        message_id, _subject, _sender = message_header_fields(raw)
        known = self.client.mail_message(message_id) if message_id else None
        entries: list[Entry] = []
        if known is None or not self.client.has_game(str(known["game"])):
            try:
                entries = parse_message(raw)
            except PbemError:
                entries = []  # the Fetcher refuses it below, and says why
        # The journal first: what the key signed is true whatever the store makes of it.
        learned, conflicts = self._journal(entries)
        report = SentReport(self.fetcher.process(key, raw))
        report.learned, report.conflicts = learned, conflicts
        return report

    # --- the journal ----------------------------------------------------------------------

    def _journal(self, entries: Iterable[Entry]) -> tuple[list[Entry], list[str]]:
        from pbem.ledger import check_signature

        ordered = sorted(entries, key=lambda e: (e.kind != GENESIS, e.seq))
        for entry in ordered:
            if entry.kind == GENESIS:
                self._geneses.setdefault(entry.id, entry)
        learned, conflicts = [], []
        for entry in ordered:
            if entry.kind == GENESIS:
                continue
            line = self._key_line(entry)
            owner = self._owner(line)
            if line is None or owner is None:
                continue
            journal = self.journals[owner]
            try:
                check_signature(line, entry.canonical, entry.signature)
            except PbemError:
                continue  # not signed by the key: it teaches nothing
            if entry.kind == JOIN:
                self._joins.setdefault((str(entry.game), entry.by), entry)
            slot = self._slot(entry)
            if slot is None:
                continue
            recorded = self._records(owner)
            written = (str(entry.game), entry.by, slot.replace(" ", "-"), entry.id)
            if written in recorded:
                continue
            try:
                journal.record(entry, slot)
            except PbemError as exc:
                first = str(exc).splitlines()[0]
                conflicts.append(f"{entry.describe()} not relearned: {first}")
                continue
            recorded.add(written)
            learned.append(entry)
        return learned, conflicts

    def _genesis(self, game_id: str) -> Entry | None:
        found = self._geneses.get(game_id)
        if found is None and self.client.has_game(game_id):
            found = self._geneses[game_id] = self.client.genesis_of(game_id)
        return found

    def _key_line(self, entry: Entry) -> str | None:
        genesis = self._genesis(str(entry.game))
        roles = genesis.body.get("roles") if genesis is not None else None
        line = roles.get(entry.by) if isinstance(roles, dict) else None
        return line if isinstance(line, str) else None

    def _owner(self, line: str | None) -> bytes | None:
        """The raw key of `line` when this store holds its private key (it has a journal)."""
        from pbem.crypto.keys import PublicKey

        if line is None:
            return None
        try:
            raw = PublicKey.parse_line(line).raw
        except PbemError:
            return None
        return raw if raw in self.journals else None

    def _records(self, owner: bytes) -> set[tuple[str, str, str, str]]:
        found = self._recorded.get(owner)
        if found is None:
            records = self.journals[owner].records()
            found = self._recorded[owner] = {(r.game, r.role, r.slot, r.id) for r in records}
        return found

    def _slot(self, entry: Entry) -> str | None:
        """The journal slot of an entry: its join, or the index of its chain element
        (hashed down to the anchor of the role's join: no key needed)."""
        from pbem.store.journal import slot_of

        if entry.kind == JOIN:
            return slot_of(entry, None)
        if entry.reveal is None:
            return None
        index = self._reveal_index(str(entry.game), entry.by, entry.reveal)
        return slot_of(entry, index) if index is not None else None

    def _join(self, game_id: str, role: str) -> Entry | None:
        found = self._joins.get((game_id, role))
        if found is None and self.client.has_game(game_id):
            for entry in self.client.stored_entries(game_id):
                if entry.kind == JOIN and entry.by == role:
                    found = self._joins[(game_id, role)] = entry
                    break
        return found

    def _reveal_index(self, game_id: str, role: str, reveal: str) -> int | None:
        join = self._join(game_id, role)
        if join is None:
            return None
        length = join.body.get("length")
        try:
            anchor = bytes.fromhex(str(join.body.get("anchor")))
            value = bytes.fromhex(reveal)
        except ValueError:
            return None
        if not isinstance(length, int):
            return None
        known = self._chains.setdefault((game_id, role), {anchor: 0})
        walked: list[bytes] = []
        while value not in known:
            if len(walked) >= length:
                return None  # not an element of this chain
            walked.append(value)
            value = chain.step_down(value)
        base = known[value]
        for steps, element in enumerate(reversed(walked), start=1):
            known[element] = base + steps
        return known[bytes.fromhex(reveal)]
