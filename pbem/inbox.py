"""The inbox: entries that came before their turn, and invitations, held for later.

Whatever brings entries in (a mail, a forum post, a file, a web page), the inbox takes
them a batch at a time, each batch one store transaction (`batch`): `receive` applies
its entries in seq order (a genesis first), holds in the store's inbox table an entry
that arrives before an earlier one of its game (checked as far as it can be: a role of
the game, its signature) until the gap is filled, and applies the held entries whose
turn has come after every batch. `drain` does the same after this store signed the
entry they waited for (a referee's join or acknowledgement).

An invitation (the genesis of a game this store does not have, signed by someone else
and naming one of this store's keys) is not stored: it is checked, held with the entries
of its game that came with it or after it, and listed until the player accepts it
(`accept`: the game and its held entries stored in one transaction) or declines it
(`decline`). A genesis signed by one of this store's own keys (a game the player made on
another device) is stored at once.

A `Receipt` says what became of one batch's entries; a held entry that a later batch of
the same run lets in is moved in the receipt that held it once that later transaction
commits. Where the entries came from, and what is said about it, is the caller's (the
mail: pbem.mail.fetch).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from pbem.core.adjudicator import Adjudicator, EntryRefused, data_digest
from pbem.core.log import GENESIS, Entry
from pbem.errors import PbemError
from pbem.ledger import find_equivocation, fingerprint, replay

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.transport.message import WireEntry

Seq = tuple[str, int]  # (game id, seq)


def _short(game_id: str) -> str:
    return game_id[:12]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def seq_ranges(seqs: Iterable[int]) -> str:
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


def by_game(seqs: Iterable[Seq]) -> dict[str, list[int]]:
    grouped: dict[str, list[int]] = {}
    for game, seq in seqs:
        grouped.setdefault(game, []).append(seq)
    return grouped


class Seqs:
    """A list of (game id, seq), kept as runs of consecutive seqs of one game: a receipt
    of thousands of entries (a long mail) holds a few runs, not a tuple per entry. It
    behaves as the list of its items, in the order they were added (iteration, `in`,
    `remove` of the first one equal, `+` giving a list, equality with a list)."""

    __slots__ = ("_runs",)

    def __init__(self, items: Iterable[Seq] = ()) -> None:
        self._runs: list[list[Any]] = []  # [game id, first seq, last seq], in order
        for item in items:
            self.append(item)

    def append(self, item: Seq) -> None:
        game_id, seq = item
        if self._runs:
            last = self._runs[-1]
            if last[0] == game_id and last[2] + 1 == seq:
                last[2] = seq
                return
        self._runs.append([game_id, seq, seq])

    def __iter__(self) -> Iterator[Seq]:
        for game_id, first, last in self._runs:
            for seq in range(first, last + 1):
                yield game_id, seq

    def __len__(self) -> int:
        return sum(last - first + 1 for _g, first, last in self._runs)

    def __bool__(self) -> bool:
        return bool(self._runs)

    def __contains__(self, item: object) -> bool:
        return self._find(item) is not None

    def _find(self, item: object) -> int | None:
        if not isinstance(item, tuple) or len(item) != 2:
            return None
        game_id, seq = item
        for number, (run_game, first, last) in enumerate(self._runs):
            if run_game == game_id and first <= seq <= last:
                return number
        return None

    def remove(self, item: Seq) -> None:
        """Remove the first item equal to `item` (ValueError if none is)."""
        number = self._find(item)
        if number is None:
            raise ValueError(f"{item!r} is not in the list")
        game_id, first, last = self._runs[number]
        seq = item[1]
        pieces = [[game_id, a, b] for a, b in ((first, seq - 1), (seq + 1, last)) if a <= b]
        self._runs[number : number + 1] = pieces

    def clear(self) -> None:
        self._runs.clear()

    def __add__(self, other: Iterable[Seq]) -> list[Seq]:
        return [*self, *other]

    def __radd__(self, other: Iterable[Seq]) -> list[Seq]:
        return [*other, *self]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Seqs | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (mutable, as a list)

    def __repr__(self) -> str:
        return repr(list(self))

    def extend(self, items: Iterable[Seq]) -> None:
        """`append` each item (another Seqs: run by run, not item by item)."""
        if isinstance(items, Seqs):
            for game_id, first, last in [tuple(run) for run in items._runs]:
                self.append((game_id, first))
                self._runs[-1][2] = max(self._runs[-1][2], last)
            return
        for item in items:
            self.append(item)

    def games(self) -> list[str]:
        """The game ids of the items, in the order of their first item."""
        return list(dict.fromkeys(game_id for game_id, _first, _last in self._runs))

    def bounds(self, game_id: str) -> tuple[int, int] | None:
        """(lowest, highest) seq of the game's items, or None when it has none."""
        spans = [(first, last) for run_game, first, last in self._runs if run_game == game_id]
        if not spans:
            return None
        return min(first for first, _last in spans), max(last for _first, last in spans)

    def ranges_by_game(self) -> dict[str, str]:
        """Game id -> `seq_ranges` of its seqs here, games in the order of their first
        item (as `by_game` orders them): read from the runs, not item by item."""
        spans: dict[str, list[tuple[int, int]]] = {}
        for game_id, first, last in self._runs:
            spans.setdefault(game_id, []).append((first, last))
        return {game_id: _spans_text(found) for game_id, found in spans.items()}


def _spans_text(spans: list[tuple[int, int]]) -> str:
    """`seq_ranges` of the seqs of some (first, last) spans."""
    merged: list[list[int]] = []
    for first, last in sorted(spans):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in merged)


@dataclass(kw_only=True)
class Receipt:
    """What became of one batch of entries."""

    refusal: str | None = None
    proof: str | None = None  # an equivocation proof, in full
    applied: Seqs = field(default_factory=Seqs)  # its entries applied (now or later)
    had: Seqs = field(default_factory=Seqs)  # its entries the store already had
    held: Seqs = field(default_factory=Seqs)  # its entries waiting in the inbox
    waiting_for: dict[str, int] = field(default_factory=dict)  # game -> the missing seq
    also: Seqs = field(default_factory=Seqs)  # held entries of earlier batches applied now
    problems: list[str] = field(default_factory=list)  # held entries refused when due
    pending: Seqs = field(default_factory=Seqs)  # held for an invitation not accepted
    invitations: dict[str, str] = field(default_factory=dict)  # game -> what it is


class Inbox:
    """The held entries and invitations of one Client's store; the receipts of one run.

    `extra_data`: the player's own data files (`--data NAME=FILE`): a game started with
    them cannot be checked without them. `entered(receipt, game_id)` is called inside the
    transaction when an entry that an earlier receipt of the run held is in the store now
    (the mail threads that receipt's message then)."""

    def __init__(
        self,
        client: Client,
        extra_data: Mapping[str, bytes] | None = None,
        entered: Callable[[Receipt, str], None] | None = None,
    ) -> None:
        self.client = client
        # The inbox's own table of held entries, and the data files kept with an invitation.
        self.store = client.store
        self.extra = _by_digest(extra_data)
        self.receipts: list[Receipt] = []
        self._entered = entered
        # Entries held in this run, by (game, seq, entry id) -> the receipts that hold them.
        self._holders: dict[tuple[str, int, str], list[Receipt]] = {}
        # Changes to other receipts, applied only when the transaction commits.
        self._after_commit: list[Callable[[], None]] = []

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction (the client's) for one batch: what `receive` changes in other
        receipts of this run is done only once it commits."""
        self._after_commit = []
        try:
            with self.client.changing():
                yield
            for change in self._after_commit:
                change()
            self._refresh_waiting()
        finally:
            self._after_commit = []

    def _refresh_waiting(self) -> None:
        """Which entry each still-waiting receipt waits for, as the store stands now (each
        game's count read once, whatever number of entries and receipts wait on it)."""
        counts: dict[str, int] = {}
        for receipt in self.receipts:
            for game_id in dict.fromkeys(game_id for game_id, _seq in receipt.held):
                if game_id not in counts:
                    counts[game_id] = self.client.stored_count(game_id)
                receipt.waiting_for[game_id] = counts[game_id]

    # --- one batch, inside its transaction ------------------------------------------------

    def receive(self, receipt: Receipt, entries: list[Entry]) -> None:
        """Apply, hold or refuse every entry of a batch (inside `batch`); a refusal raises."""
        self._receive(receipt, sorted(entries, key=lambda e: (e.kind != GENESIS, e.seq)))

    def receive_wire(self, receipt: Receipt, found: list[WireEntry]) -> None:
        """`receive` of a batch read as bytes (pbem.transport.message.parse_message_wire,
        every entry checked well formed): each entry is made from its bytes when its turn
        comes, and dropped once applied or held."""
        ordered = sorted(found, key=lambda item: (item[0], item[1]))  # (stable, as receive's)
        self._receive(receipt, (Entry.from_wire(c, s) for _g, _seq, c, s in ordered))

    def receive_ordered(self, receipt: Receipt, ordered: Iterable[Entry]) -> None:
        """`receive` of a batch already in the order it takes one (a genesis first, then
        by seq, as `sorted` leaves it), taken as it comes: entries made one at a time
        (pbem.mail.stream) are applied or held, and dropped, before the next is made."""
        self._receive(receipt, ordered)

    def forget(self, receipt: Receipt) -> None:
        """Drop the receipt of a batch whose transaction rolled back and that is to be
        received again (another way): the run holds nothing for it any more."""
        self.receipts = [kept for kept in self.receipts if kept is not receipt]

    def _receive(self, receipt: Receipt, ordered: Iterable[Entry]) -> None:
        self.receipts.append(receipt)
        games: dict[str, Adjudicator] = {}
        invited: dict[str, Adjudicator | None] = {}  # games of invitations not accepted
        for entry in ordered:
            if entry.kind == GENESIS:
                self._genesis(receipt, entry, games, invited)
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
                    self._hold_for_invitation(receipt, pending, entry)
                    continue
                games[game_id] = self.client.game(game_id)
            game = games[game_id]
            if entry.seq > game.entry_count:
                # Held entries may fill the gap up to this one (never past it: the
                # batch's own entries come first).
                self._drain(receipt, game, below=entry.seq)
            self._one(receipt, game, entry)
        for game in games.values():
            self._drain(receipt, game)
        for game_id, _seq in receipt.held:
            receipt.waiting_for[game_id] = games[game_id].entry_count

    def _genesis(
        self,
        receipt: Receipt,
        entry: Entry,
        games: dict[str, Adjudicator],
        invited: dict[str, Adjudicator | None],
    ) -> None:
        game_id = entry.id
        if self.store.has_game(game_id):
            self._note(receipt.had, receipt, (game_id, 0))
            return
        roles = entry.body.get("roles")
        lines = [str(line) for line in roles.values()] if isinstance(roles, dict) else []
        if not any(self._owned(line) for line in lines):
            raise PbemError(
                f"unknown game {_short(game_id)}: its genesis names none of this store's keys"
            )
        signer = roles.get(entry.by) if isinstance(roles, dict) else None
        if signer is not None and self._owned(str(signer)):
            # Signed by one of this store's own keys: a game the player made elsewhere.
            games[game_id] = self.client.start_from(entry, self.extra)
            receipt.applied.append((game_id, 0))
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
        receipt.pending.append((game_id, 0))
        receipt.invitations[game_id] = self.describe(game)

    def _checked_invitation(self, genesis: Entry) -> Adjudicator:
        return replay([genesis], self.known_data(genesis))

    def _pending_invitation(self, game_id: str) -> Adjudicator | None:
        """The game of an invitation held in the inbox and not accepted yet, if any."""
        for row in self.store.buffered_at(game_id, 0):
            if str(row["id"]) == game_id:
                return self._checked_invitation(Entry.from_wire(row["canonical"], row["signature"]))
        return None

    def _hold_for_invitation(self, receipt: Receipt, game: Adjudicator, entry: Entry) -> None:
        """An entry of an invited game: checked as far as it can be (a role of the game,
        its signature), then held with the invitation."""
        self._check_author(game, entry)
        self.store.buffer_entry(game.id, entry.seq, entry.id, entry.canonical, entry.signature)
        receipt.pending.append((game.id, entry.seq))

    def _owned(self, public_line: str) -> bool:
        """Whether a key line is one whose private half is in this store."""
        try:
            return self.client.owns_private_key(public_line)
        except PbemError:
            return False  # a line that is not a key at all: certainly none of ours

    def _one(self, receipt: Receipt, game: Adjudicator, entry: Entry) -> None:
        here = (game.id, entry.seq)
        if entry.seq <= game.entry_count:
            if self.client.apply_one(game, entry) == "already had":
                self._note(receipt.had, receipt, here)
            else:
                receipt.applied.append(here)
            return
        # Early: check what can be checked now (a role of the game, its signature),
        # then hold it until the entries before it arrive.
        self._check_author(game, entry)
        self.store.buffer_entry(game.id, entry.seq, entry.id, entry.canonical, entry.signature)
        receipt.held.append(here)
        holders = self._holders
        self._after_commit.append(
            lambda: holders.setdefault((game.id, entry.seq, entry.id), []).append(receipt)
        )

    @staticmethod
    def _check_author(game: Adjudicator, entry: Entry) -> None:
        roles = game.roles
        if entry.by not in roles:
            raise EntryRefused(entry, f"{entry.by!r} is not a role of game {_short(game.id)}")
        try:
            game.check_signature(roles[entry.by], entry.canonical, entry.signature)
        except PbemError as exc:
            raise EntryRefused(entry, str(exc)) from None

    @staticmethod
    def _note(where: Seqs, receipt: Receipt, seq: Seq) -> None:
        if seq not in receipt.applied and seq not in where:
            where.append(seq)

    # --- held entries ---------------------------------------------------------------------

    def _drain(self, receipt: Receipt, game: Adjudicator, below: int | None = None) -> None:
        """Apply held entries of `game` whose turn has come (seqs < `below` only, if given).

        Each round reads only the held entries it settles (those the log has passed, and
        those at its next seq), never the whole table: draining n held entries costs n
        look-ups, not n reads of everything held. `game` may be lean (accepting an
        invitation: pbem.core.replay), its entries then read from the store.

        After a round that applied the entry at `due`, nothing is held below due + 1: the
        round dropped what was held at `due` and below it, and applying an entry holds
        nothing. The next round then does not look below (a query less per entry of a
        long drain); any other round does."""
        cleared = -1  # no entry is held below this seq (known from the last round)
        while True:
            due = game.entry_count
            stale = [] if due == cleared else self.store.buffered_below(game.id, due)
            for row in stale:
                self._settle_stale(receipt, game, row)
            if stale:
                self.store.drop_buffered_below(game.id, due)
            if below is not None and due >= below:
                return
            candidates = self.store.buffered_at(game.id, due)
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
                        self._held_refused(receipt, game, entry, _one_line(str(exc)))
                        continue
                    winner = entry
                    self._held_applied(receipt, game, entry)
                else:
                    self._held_conflict(receipt, game, winner, entry)
            if winner is None:
                return
            cleared = due + 1

    def _receipts_holding(self, game: Adjudicator, entry: Entry) -> list[Receipt]:
        return list(self._holders.get((game.id, entry.seq, entry.id), []))

    def _held_applied(self, receipt: Receipt, game: Adjudicator, entry: Entry) -> None:
        here = (game.id, entry.seq)
        if here in receipt.held:  # held by this very batch, its gap filled meanwhile
            _move(receipt.held, receipt.applied, here)
            return
        receipt.also.append(here)
        for holder in self._receipts_holding(game, entry):
            self._enter(holder, game.id)
            self._after_commit.append(partial(_move, holder.held, holder.applied, here))

    def _enter(self, holder: Receipt, game_id: str) -> None:
        if self._entered is not None:
            self._entered(holder, game_id)

    def _held_refused(self, receipt: Receipt, game: Adjudicator, entry: Entry, reason: str) -> None:
        here = (game.id, entry.seq)
        if here in receipt.held:  # cannot happen: held entries of this batch come later
            raise PbemError(reason)
        receipt.problems.append(f"held {reason}")
        for holder in self._receipts_holding(game, entry):
            self._after_commit.append(partial(_refuse_held, holder, here, reason))

    def _held_conflict(
        self, receipt: Receipt, game: Adjudicator, applied: Entry, other: Entry
    ) -> None:
        proof = find_equivocation(game.genesis, [applied, other])
        if proof is None:
            reason = f"{other.describe()} differs from the entry this store has at that seq"
        else:
            reason = proof.proof().splitlines()[0]
            receipt.proof = receipt.proof or proof.proof()
        self._held_refused(receipt, game, other, reason)

    def _settle_stale(self, receipt: Receipt, game: Adjudicator, row: dict[str, Any]) -> None:
        """A held entry whose seq the log already has: the same entry, or a conflict."""
        seq, entry_id = int(row["seq"]), str(row["id"])
        entry = Entry.from_wire(row["canonical"], row["signature"])
        if game.entry_id(seq) == entry_id:
            for holder in self._receipts_holding(game, entry):
                self._enter(holder, game.id)
                self._after_commit.append(partial(_move, holder.held, holder.had, (game.id, seq)))
            return
        self._held_conflict(receipt, game, self.client.entry_at(game, seq), entry)

    def holds(self, game_id: str) -> bool:
        """Whether any entry of the game is held."""
        return self.store.holds_buffered(game_id)

    def drain(self, game_id: str) -> tuple[list[int], list[str]]:
        """Apply the entries of a stored game held in the inbox whose turn has come (after
        this store signed the entry they waited for: a referee's join or acknowledgement),
        in one transaction: (the seqs applied, a line per held entry refused)."""
        receipt = Receipt()
        with self.client.changing():
            self._drain(receipt, self.client.game(game_id))
        return [seq for held, seq in receipt.also if held == game_id], receipt.problems

    # --- invitations ----------------------------------------------------------------------

    def describe(self, game: Adjudicator) -> str:
        """'game <id> of <rules> "<title>" by <role> <fingerprint>, for your role <role>'
        (unescaped: it quotes the genesis's title)."""
        genesis = game.genesis
        title = str(genesis.body.get("title") or game.engine.title)
        creator = f"{genesis.by} {fingerprint(game.roles[genesis.by])}"
        yours = [role for role, line in game.roles.items() if self._owned(line)]
        plural = "s" if len(yours) != 1 else ""
        return (
            f'game {_short(game.id)} of {game.engine.name} "{title}" by {creator}, '
            f"for your role{plural} {', '.join(yours)}"
        )

    def invitations(self) -> list[Entry]:
        """The genesis of every invitation held in the inbox and not accepted, by game id."""
        found = []
        for canonical, signature in self.store.buffered_geneses():
            try:
                genesis = Entry.from_wire(canonical, signature)
            except PbemError:
                continue  # held by an older pbem and no longer readable: never accepted
            if not self.store.has_game(genesis.id):
                found.append(genesis)
        return found

    def invitation_lines(self) -> list[str]:
        """One line per pending invitation, for `pbem show` (unescaped)."""
        lines = []
        for genesis in self.invitations():
            try:
                what = self.describe(self._checked_invitation(genesis))
            except PbemError as exc:
                what = f"game {_short(genesis.id)} (cannot be played here: {_one_line(str(exc))})"
            lines.append(f"invitation to {what}: `pbem join {_short(genesis.id)}` to accept")
        return lines

    def find_invitation(self, prefix: str) -> Entry | None:
        """The one pending invitation whose game id starts with `prefix`, or None."""
        wanted = prefix.strip().lower()
        if not wanted:
            return None
        found = [g for g in self.invitations() if g.id.startswith(wanted)]
        if len(found) > 1:
            raise PbemError(f"game id {prefix!r} is ambiguous: {len(found)} invitations match")
        return found[0] if found else None

    def accept(self, prefix: str) -> str:
        """Store the invited game and the entries held with it (one transaction); a line
        saying what was stored (unescaped). The data files: the inbox's `extra_data`,
        beside those kept with the invitation."""
        genesis = self._invitation(prefix)
        receipt = Receipt()
        with self.client.changing():
            # Lean (pbem.core.replay): the held entries are checked and stored as they come,
            # none kept in memory, however long the game the invitation brought.
            game = self.client.start_from(genesis, self.known_data(genesis), lean=True)
            self._drain(receipt, game)  # the held entries whose turn has come, in order
        what = self.describe(game)
        done = Seqs([(game.id, 0)])
        done.extend(receipt.also)
        stored = done.ranges_by_game()[game.id]
        line = f"accepted the invitation to {what}: stored entries {stored}"
        return "; ".join([line, *receipt.problems])

    def decline(self, prefix: str) -> str:
        """Forget an invitation and the entries held with it; a line saying so (unescaped)."""
        genesis = self._invitation(prefix)
        with self.store.transaction():
            for seq in sorted({int(row["seq"]) for row in self.store.buffered(genesis.id)}):
                self.store.drop_buffered(genesis.id, seq)
        return (
            f"declined the invitation to game {_short(genesis.id)}: forgotten (a mail that "
            "still holds it lists it again)"
        )

    def _invitation(self, prefix: str) -> Entry:
        genesis = self.find_invitation(prefix)
        if genesis is None:
            raise PbemError(
                f"no invitation to a game {prefix!r} is waiting (see `pbem mail fetch`)"
            )
        return genesis

    def known_data(self, genesis: Entry) -> dict[str, bytes]:
        """Data files by digest for a game not stored yet: the inbox's `extra_data` and the
        ones the store kept with its invitation."""
        found = dict(self.extra)
        for digest in _data_names(genesis).values():
            kept = self.store.data_file(digest)
            if kept is not None:
                found.setdefault(digest, kept)
        return found


def _move(source: Seqs, target: Seqs, item: Seq) -> None:
    if item in source:
        source.remove(item)
        if item not in target:
            target.append(item)


def _refuse_held(receipt: Receipt, item: Seq, reason: str) -> None:
    if item in receipt.held:
        receipt.held.remove(item)
    if receipt.refusal is None:
        receipt.refusal = reason


def _by_digest(files: Mapping[str, bytes] | None) -> dict[str, bytes]:
    return {data_digest(content): content for content in (files or {}).values()}


def _data_names(genesis: Entry) -> dict[str, str]:
    """The data files a genesis names: file name -> sha256 digest."""
    named = genesis.body.get("data")
    return {str(k): str(v) for k, v in named.items()} if isinstance(named, dict) else {}
