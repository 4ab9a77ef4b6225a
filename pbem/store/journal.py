"""What a key has signed, kept beside the key: a reveal is never signed twice (protocol 8).

The store is not the record of what a role signed: a backup restored over it, or a
second copy of it, forgets entries that already left. Signing again from there would
put a reveal the opponent has seen into a second, different entry; the opponent could
then re-send a different earlier entry and grind the bytes it chooses freely until the
dice or cards it wants come out. So every entry is written to the journal of its key
(`<private key file>.pbem-journal`, mode 0600) and synced to disk before it is stored
or leaves the program, and a key never signs a second, different entry for a slot it
has used:

    slot "join"        one join per game and role
    slot "reveal <k>"  one entry per chain element s_k of the role in the game

The journal holds the armored entries too, so the entry that a crash kept from the
store is not lost: `pbem apply` reads the journal as it reads a move file.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.core.log import Entry

SUFFIX = ".pbem-journal"
_MARK = "pbem-journal v1"


class JournalConflict(PbemError):
    """The key already signed a different entry for this slot: signing would reuse a reveal."""


def journal_path(private_key_path: str | Path) -> Path:
    path = Path(private_key_path)
    return path.with_name(path.name + SUFFIX)


def slot_of(entry: Entry, reveal_index: int | None) -> str | None:
    """The slot an entry uses up: its join, or its chain element; None for a genesis."""
    if entry.kind == "join":
        return "join"
    if reveal_index is None:
        return None
    return f"reveal {reveal_index}"


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path

    def signed(self, game_id: str, role: str, slot: str) -> str | None:
        """The id of the entry this key signed for the slot, if any."""
        if not self.path.exists():
            return None
        return _find(self.path.read_text("utf-8", errors="replace"), game_id, role, slot)

    def check(self, entry: Entry, slot: str) -> None:
        """Refuse when the key signed another entry for `slot` of the entry's game."""
        known = self.signed(_game_of(entry), entry.by, slot)
        if known is not None and known != entry.id:
            raise _conflict(self.path, entry, slot, known)

    def record(self, entry: Entry, slot: str | None) -> None:
        """Write the entry down and sync it, unless the slot holds another entry (refused).

        Checked and written under an exclusive lock, so two programs signing with one key
        at the same moment cannot both take a slot."""
        from pbem.transport.armor import armor

        if slot is None:
            return
        game_id = _game_of(entry)
        created = not self.path.exists()
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        except OSError as exc:
            raise PbemError(
                f"cannot write the signing journal {self.path}: {exc.strerror or exc}; "
                "pbem signs nothing it cannot record beside the key"
            ) from None
        with os.fdopen(fd, "r+b") as stream:
            fcntl.flock(stream.fileno(), fcntl.LOCK_EX)
            stream.seek(0)
            known = _find(stream.read().decode("utf-8", errors="replace"), game_id, entry.by, slot)
            if known == entry.id:
                return
            if known is not None:
                raise _conflict(self.path, entry, slot, known)
            line = f"{_MARK} {game_id} {entry.by} {slot.replace(' ', '-')} {entry.id}\n"
            stream.write((line + armor(entry.canonical, entry.signature) + "\n").encode())
            stream.flush()
            os.fsync(stream.fileno())
        if created:
            _sync_folder(self.path.parent)


def _game_of(entry: Entry) -> str:
    return entry.id if entry.kind == "genesis" else str(entry.game)


def _find(text: str, game_id: str, role: str, slot: str) -> str | None:
    wanted = f"{_MARK} {game_id} {role} {slot.replace(' ', '-')} "
    for line in text.splitlines():
        if line.startswith(wanted):
            return line[len(wanted) :].strip()
    return None


def _conflict(path: Path, entry: Entry, slot: str, known: str) -> JournalConflict:
    what = "a join" if slot == "join" else f"the entry with its reveal {slot.split()[-1]}"
    return JournalConflict(
        f"refusing to sign seq {entry.seq} of game {_game_of(entry)[:12]} as {entry.by}: this "
        f"key already signed {what} (entry {known[:12]}), which this store does not have: "
        "the store is behind its signing journal (restored from a backup, or a second copy?). "
        "Signing again would let the opponent choose your dice. Apply the game's later "
        f"entries first (your opponent's latest mail or save, or the journal {path})"
    )


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
