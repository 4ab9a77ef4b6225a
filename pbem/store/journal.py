"""What a key has signed, kept in the user's state folder: a reveal is never signed twice
(protocol section 8).

The store is not the record of what a role signed: a backup restored over it, or a
second copy of it, forgets entries that already left. Signing again from there would
put a reveal the opponent has seen into a second, different entry; the opponent could
then re-send a different earlier entry and grind the bytes it chooses freely until the
dice or cards it wants come out. So every entry is written to the journal of its key and
synced to disk before it is stored or leaves the program, and a key never signs a
second, different entry for a slot it has used:

    slot "join"        one join per game and role
    slot "reveal <k>"  one entry per chain element s_k of the role in the game

Where: one file per key, named by the key's SHA-256 fingerprint (in hex: the digest
`ssh-keygen -l` prints in base64), in the user's state folder, apart from the store so
that restoring or copying the store folder cannot roll it back:

    $PBEM_STATE/journals/<fingerprint>.pbem-journal       (PBEM_STATE: tests, `pbem demo`)
    else $XDG_STATE_HOME/pbem/journals/..., else ~/.local/state/pbem/journals/...

A journal folder inside the store folder would be restored with it: pbem refuses to sign
with one there. Earlier versions kept the journal beside the private key file
(`<key file>.pbem-journal`): that file is still read, and its records are copied into the
state folder's journal (under its lock) the first time the key signs.

The journal holds the armored entries too, so the entry that a crash or a restore kept
from the store is not lost: `pbem recover GAME` reads one game's entries from it
(`entries`), never any other game's.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

from pbem import digests
from pbem.core.log import Entry
from pbem.errors import PbemError
from pbem.record import NamedTuple
from pbem.transport.armor import armor
from pbem.transport.movefile import read_entries

if TYPE_CHECKING:
    from pbem.crypto.publickey import PublicKey

SUFFIX = ".pbem-journal"
STATE_ENV = "PBEM_STATE"
_MARK = "pbem-journal v1"


class JournalConflict(PbemError):
    """The key already signed a different entry for this slot: signing would reuse a reveal."""


class Record(NamedTuple):
    """One journal record: what was signed for which slot, and the armored entry."""

    game: str
    role: str
    slot: str  # as written: "join" or "reveal-<k>"
    id: str
    text: str  # the record's lines, its mark line first (each ending in a newline)


def default_state() -> Path:
    """The user's state folder for pbem: $PBEM_STATE, else $XDG_STATE_HOME/pbem, else
    ~/.local/state/pbem (the XDG base directory for state that outlives a restart and
    is not worth backing up with one's data)."""
    if os.environ.get(STATE_ENV):
        return Path(os.environ[STATE_ENV]).expanduser()
    xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "pbem"


def journal_name(public: PublicKey) -> str:
    """The journal file's name: the key's fingerprint digest in hex."""
    return digests.sha256(public.blob()).hexdigest() + SUFFIX


def legacy_path(private_key_path: str | Path) -> Path:
    """Where pbem before issue 27 kept a key's journal: beside the private key file."""
    path = Path(private_key_path)
    return path.with_name(path.name + SUFFIX)


def slot_of(entry: Entry, reveal_index: int | None) -> str | None:
    """The slot an entry uses up: its join, or its chain element; None for a genesis."""
    if entry.kind == "join":
        return "join"
    if reveal_index is None:
        return None
    return f"reveal {reveal_index}"


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


class Journal:
    """The journal of one key: `path` (the state folder's file, the only one written) and
    `legacy` (an earlier version's file beside the key, read and merged), for a store at
    `home` (None: no store to keep apart from)."""

    def __init__(self, path: Path, legacy: Path | None = None, home: Path | None = None) -> None:
        self.path = path
        self.legacy = legacy if legacy is not None and legacy != path else None
        self.home = home

    @classmethod
    def of_key(
        cls, state: Path, public: PublicKey, key_file: Path | None, home: Path | None
    ) -> Journal:
        """The journal of the key `public` under the state folder `state` (its earlier
        version's file beside `key_file`, if any)."""
        return cls(
            state / "journals" / journal_name(public),
            legacy_path(key_file) if key_file is not None else None,
            home,
        )

    # --- reading --------------------------------------------------------------------------

    def records(self) -> list[Record]:
        """Every record of this key, the state folder's first, then the earlier file's."""
        found = []
        for path in (self.path, self.legacy):
            if path is not None and path.is_file():
                found += parse(path.read_text("utf-8", errors="replace"))
        return found

    def signed(self, game_id: str, role: str, slot: str) -> str | None:
        """The id of the entry this key signed for the slot, if any."""
        ids = _ids(self.records(), game_id, role, slot)
        return ids[0] if ids else None

    def check(self, entry: Entry, slot: str) -> None:
        """Refuse when the key signed another entry for `slot` of the entry's game."""
        for known in _ids(self.records(), _game_of(entry), entry.by, slot):
            if known != entry.id:
                raise _conflict(entry, slot, known)

    def entries(self, game_id: str) -> list[Entry]:
        """The entries this key signed in the game `game_id` (full id), in seq order: no
        other game's (a recovery file may be mailed to the opponent)."""
        return self.by_game(only=game_id).get(game_id, [])

    def by_game(self, only: str | None = None) -> dict[str, list[Entry]]:
        """Game id -> the entries this key signed in it, in seq order (of the game `only`
        alone, if given): the file is read once."""
        found: dict[str, dict[str, Entry]] = {}
        for record in self.records():
            if only is not None and record.game != only:
                continue
            for canonical, signature in read_entries(record.text):
                entry = Entry.from_wire(canonical, signature)
                if _game_of(entry) == record.game:  # the mark line and the entry agree
                    found.setdefault(record.game, {}).setdefault(entry.id, entry)
        return {
            game: sorted(entries.values(), key=lambda e: e.seq) for game, entries in found.items()
        }

    def games(self) -> list[str]:
        """The game ids this key has records for, in the order first recorded."""
        return list(dict.fromkeys(record.game for record in self.records()))

    # --- writing --------------------------------------------------------------------------

    def record(self, entry: Entry, slot: str | None) -> None:
        """Write the entry down and sync it, unless the slot holds another entry (refused).

        Checked and written under an exclusive lock, so two programs signing with one key
        at the same moment cannot both take a slot."""
        if slot is None:
            return
        game_id = _game_of(entry)
        with self._locked() as stream:
            records = self._merged(stream)
            known = _ids(records, game_id, entry.by, slot)
            if entry.id in known:
                return
            if known:
                raise _conflict(entry, slot, known[0])
            _append(stream, [_record_text(entry, slot)])

    def _locked(self) -> _Locked:
        if self.home is not None and _inside(self.path, self.home):
            raise PbemError(
                f"the signing journal {self.path} would be inside the store folder "
                f"{self.home}, so restoring a backup of the store would roll it back: "
                f"pbem signs nothing there; set {STATE_ENV} or XDG_STATE_HOME to a folder "
                "outside the store"
            )
        return _Locked(self.path)

    def _merged(self, stream: IO[bytes]) -> list[Record]:
        """The state file's records (read under the lock), with the earlier version's
        records that it lacks appended to it first (and synced)."""
        stream.seek(0)
        records = parse(stream.read().decode("utf-8", errors="replace"))
        if self.legacy is None or not self.legacy.is_file():
            return records
        have = {(r.game, r.role, r.slot, r.id) for r in records}
        missing = [
            r
            for r in parse(self.legacy.read_text("utf-8", errors="replace"))
            if (r.game, r.role, r.slot, r.id) not in have
        ]
        if missing:
            _append(stream, [r.text for r in missing])
        return records + missing


class _Locked:
    """The state file opened for appending (made 0600, with its folders 0700, each new one
    synced into its parent), exclusively locked while the `with` block runs."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stream: IO[bytes] | None = None

    def __enter__(self) -> IO[bytes]:
        path = self.path
        try:
            _make_folder(path.parent)
            created = not path.exists()
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        except OSError as exc:
            raise PbemError(
                f"cannot write the signing journal {path}: {exc.strerror or exc}; "
                "pbem signs nothing it cannot record"
            ) from None
        stream = os.fdopen(fd, "r+b")
        fcntl.flock(stream.fileno(), fcntl.LOCK_EX)
        if created:
            _sync_folder(path.parent)
        self._stream = stream
        return stream

    def __exit__(self, *exc: object) -> None:
        assert self._stream is not None
        self._stream.close()  # (closing the file releases the lock)


def _make_folder(folder: Path) -> None:
    """`folder` and its missing parents, mode 0700, each synced into its parent."""
    missing = []
    for place in (folder, *folder.parents):
        if place.exists():
            break
        missing.append(place)
    for place in reversed(missing):
        try:
            place.mkdir(mode=0o700)
        except FileExistsError:
            continue  # made meanwhile by another pbem
        _sync_folder(place.parent)


def _append(stream: IO[bytes], texts: Iterable[str]) -> None:
    stream.write("".join(texts).encode())
    stream.flush()
    os.fsync(stream.fileno())


def _record_text(entry: Entry, slot: str) -> str:
    line = f"{_MARK} {_game_of(entry)} {entry.by} {slot.replace(' ', '-')} {entry.id}\n"
    return line + armor(entry.canonical, entry.signature) + "\n"


def parse(text: str) -> list[Record]:
    """The records of a journal's text (a damaged mark line is skipped, with its lines)."""
    found: list[Record] = []
    for head, lines in _blocks(text):
        fields = head.split()
        if len(fields) != 6:
            continue
        game, role, slot, entry_id = fields[2:]
        found.append(Record(game, role, slot, entry_id, "".join([head + "\n", *lines])))
    return found


def _blocks(text: str) -> Iterator[tuple[str, list[str]]]:
    head: str | None = None
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith(_MARK + " "):
            if head is not None:
                yield head, lines
            head, lines = line, []
        elif head is not None:
            lines.append(line + "\n")
    if head is not None:
        yield head, lines


def _ids(records: Iterable[Record], game_id: str, role: str, slot: str) -> list[str]:
    """The ids recorded for a slot, without repeats, first recorded first."""
    written = slot.replace(" ", "-")
    found = (r.id for r in records if (r.game, r.role, r.slot) == (game_id, role, written))
    return list(dict.fromkeys(found))


def _game_of(entry: Entry) -> str:
    return entry.id if entry.kind == "genesis" else str(entry.game)


def _conflict(entry: Entry, slot: str, known: str) -> JournalConflict:
    what = "a join" if slot == "join" else f"the entry with its reveal {slot.split()[-1]}"
    game = _game_of(entry)[:12]
    return JournalConflict(
        f"refusing to sign seq {entry.seq} of game {game} as {entry.by}: this "
        f"key already signed {what} (entry {known[:12]}), which this store does not have: "
        "the store is behind its signing journal (restored from a backup, or a second copy?). "
        "Signing again would let the opponent choose your dice. Apply the game's later "
        f"entries first: your opponent's latest mail or save, or `pbem recover {game}` "
        "(this game's entries from the journal)"
    )


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
