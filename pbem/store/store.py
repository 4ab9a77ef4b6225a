"""A player's local store: keys, games, entries, data files and own secrets.

Layout under the home folder (PBEM_HOME, else $XDG_DATA_HOME/pbem, else
~/.local/share/pbem):

    store.db        SQLite: keys, games, entries, data files, secrets (mode 0600)
    keys/NAME       private keys made by `pbem key new` (mode 0600), NAME.pub beside

A private key file inside the home folder is recorded relative to it (`keys/NAME`), so
the folder can be moved whole (PBEM_HOME=/elsewhere); one outside it (an imported
~/.ssh/id_ed25519) is recorded by its absolute path.

Own secrets live only here, and only sealed under the role's private key
(pbem/store/vault.py): a copy of store.db alone opens nothing. What a key signed is
recorded in the user's state folder (`state`), never here, so that restoring this
folder cannot roll it back (pbem/store/journal.py).
Every command that changes the store does it inside one transaction.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import StoreError
from pbem.store.home import home_folder
from pbem.store.journal import default_state

if TYPE_CHECKING:
    import sqlite_utils

# What the loser of two pbem commands racing on one store says (never a raw SQLite error).
GAME_CHANGED = (
    "the game changed while this command ran (another pbem command stored its entry "
    "first): nothing was stored; try again"
)
STORE_BUSY = "the store is busy (another pbem command is writing to it): try again"


# The store's tables: name -> (columns, primary key), created in this order when missing.
TABLES: dict[str, tuple[dict[str, type], str | tuple[str, ...]]] = {
    "keys": ({"name": str, "public": str, "fingerprint": str, "private_path": str}, "name"),
    "games": ({"id": str, "rules": str, "title": str}, "id"),
    "entries": (
        {"game": str, "seq": int, "id": str, "canonical": bytes, "signature": bytes},
        ("game", "seq"),
    ),
    "data_files": ({"sha256": str, "name": str, "content": bytes}, "sha256"),
    "secrets": ({"game": str, "role": str, "kind": str, "value": str}, ("game", "role", "kind")),
    # Mail (pbem mail): messages sent and read per game, for threading and for knowing
    # which of our entries were mailed; the opponent's address per game; entries that
    # arrived before an earlier one, waiting for the gap to fill.
    "mail": (
        {
            "message_id": str,
            "game": str,
            "direction": str,  # "out" or "in"
            "first_seq": int,
            "last_seq": int,
        },
        "message_id",
    ),
    "mail_peers": ({"game": str, "address": str}, "game"),
    "inbox": (
        {"game": str, "seq": int, "id": str, "canonical": bytes, "signature": bytes},
        ("game", "seq", "id"),
    ),
    # Standing orders (pbem orders): a player's answers to recurring questions, per game
    # and role; never in the log until an entry they answer is signed.
    "standing_orders": (
        {"game": str, "role": str, "name": str, "argument": str},
        ("game", "role", "name"),
    ),
    # A referee (pbem referee): where each player of a refereed game gets mail; per game,
    # the head it waits on, when it first saw it (UTC, the referee's clock) and the
    # reminders mailed for it; per game and role, the last seq mailed to that player
    # (recorded once the SMTP server took the message).
    "referee_players": ({"game": str, "role": str, "address": str}, ("game", "role")),
    "referee_clock": ({"game": str, "seq": int, "since": str, "reminders": int}, "game"),
    "referee_mailed": ({"game": str, "role": str, "seq": int}, ("game", "role")),
    # What a referee's round found in a game it had nothing to do in (pbem.refereeing.quiet):
    # the head (seq, id) it was at, and what the next round needs of the game while that
    # head stays, as JSON. Derived, never trusted beyond that head: forgotten whenever the
    # store's keys, the game's secrets or its standing orders change.
    "referee_quiet": ({"game": str, "seq": int, "id": str, "facts": str}, "game"),
}


def _busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def default_home() -> Path:
    """PBEM_HOME, else $XDG_DATA_HOME/pbem, else ~/.local/share/pbem."""
    return Path(home_folder())


class Store:
    def __init__(self, home: Path | None = None, state: Path | None = None) -> None:
        self.home = Path(home) if home is not None else default_home()
        # Where the signing journals of this store's keys live (pbem.store.journal): the
        # user's state folder unless given (`pbem demo` keeps its own).
        self.state = Path(state) if state is not None else default_state()
        self.home.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.home / "store.db"
        if not path.exists():
            # Created 0600 before SQLite opens it: it holds the player's games and mail.
            fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        # Plain sqlite3 for what the store reads and writes itself; sqlite-utils (a fifth of
        # a cold start) is loaded when `db` is first asked for: to create a table a store
        # lacks, and for the callers that use its tables.
        self.conn = sqlite3.connect(str(path))
        self._db: sqlite_utils.Database | None = None
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self._create_tables()

    @property
    def db(self) -> sqlite_utils.Database:
        """The store's connection as sqlite-utils' Database (no plugins: nothing installed
        beside pbem runs inside its store, and looking for them reads every installed
        package's metadata)."""
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn, execute_plugins=False)
        return self._db

    def _rows(self, sql: str, *params: object) -> list[dict[str, Any]]:
        """The rows `sql` selects, each as a dict by column name (as sqlite-utils gives)."""
        cursor = self.conn.execute(sql, params)
        columns = [column[0] for column in cursor.description]
        return [dict(zip(columns, row, strict=True)) for row in cursor]

    @property
    def keys_dir(self) -> Path:
        path = self.home / "keys"
        path.mkdir(exist_ok=True, mode=0o700)
        return path

    def _create_tables(self) -> None:
        found = self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if {name for (name,) in found}.issuperset(TABLES):
            return  # (every table there: nothing for sqlite-utils to do)
        db = self.db
        with db.conn:
            for name, (columns, pk) in TABLES.items():
                db.table(name).create(columns, pk=pk, if_not_exists=True)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic change: everything inside commits together or not at all.

        Writes go through `_write` (plain SQL on the connection) because sqlite-utils'
        own insert/upsert commit by themselves, which would split a transaction.
        Another pbem command on the same store is one line: the store was busy, or it
        stored the same row first (GAME_CHANGED); either way nothing changed.
        """
        conn = self.conn
        if conn.in_transaction:
            raise StoreError("nested store transaction")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if _busy(exc):
                raise StoreError(STORE_BUSY) from exc
            raise
        try:
            yield
        except sqlite3.IntegrityError as exc:
            conn.rollback()
            raise StoreError(GAME_CHANGED) from exc
        except sqlite3.OperationalError as exc:
            conn.rollback()
            if _busy(exc):
                raise StoreError(STORE_BUSY) from exc
            raise
        except BaseException:
            conn.rollback()
            raise
        try:
            conn.commit()
        except sqlite3.OperationalError as exc:
            if conn.in_transaction:
                conn.rollback()
            if _busy(exc):
                raise StoreError(STORE_BUSY) from exc
            raise

    def _write(self, sql: str, *params: object) -> None:
        if not self.conn.in_transaction:
            raise StoreError("store writes happen inside a transaction")
        self.conn.execute(sql, params)

    def _insert(self, table: str, *row: object, conflict: str = "") -> None:
        """Write one whole row of `table`, its values in the order TABLES gives its columns
        (`conflict`: "OR REPLACE" or "OR IGNORE" when the key may be taken already)."""
        columns = TABLES[table][0]
        assert len(row) == len(columns), table
        verb = f"INSERT {conflict} INTO" if conflict else "INSERT INTO"
        marks = ", ".join("?" * len(row))
        self._write(f"{verb} {table} ({', '.join(columns)}) VALUES ({marks})", *row)

    # --- keys -----------------------------------------------------------------------------

    def add_key(self, name: str, public: str, fingerprint: str, private_path: str | None) -> None:
        if self._rows("SELECT name FROM keys WHERE name = ?", name):
            raise StoreError(f"a key named {name!r} already exists")
        self._insert("keys", name, public, fingerprint, private_path or "")
        self._write("DELETE FROM referee_quiet")

    def set_key_path(self, name: str, private_path: str) -> None:
        self.key(name)
        self._write("UPDATE keys SET private_path = ? WHERE name = ?", private_path, name)
        self._write("DELETE FROM referee_quiet")

    def recorded_key_path(self, path: Path) -> str:
        """How the keys table records a private key file: relative to the home folder
        when inside it (it moves with the folder), else absolute."""
        full = path.resolve()
        try:
            return full.relative_to(self.home.resolve()).as_posix()
        except ValueError:
            return str(full)

    def key_path(self, private_path: str) -> Path | None:
        """The file a recorded `private_path` names (None: a public key only)."""
        if not private_path:
            return None
        path = Path(private_path)
        return path if path.is_absolute() else self.home / path

    def key(self, name: str) -> dict[str, Any]:
        rows = self._rows("SELECT * FROM keys WHERE name = ?", name)
        if not rows:
            raise StoreError(f"no key named {name!r} (see `pbem key list`)")
        return rows[0]

    def remove_key(self, name: str) -> None:
        """Forget the key `name`: its row only, never a file."""
        self.key(name)
        self._write("DELETE FROM keys WHERE name = ?", name)
        self._write("DELETE FROM referee_quiet")

    def list_keys(self) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM keys ORDER BY name")

    # --- games and entries ----------------------------------------------------------------

    def add_game(self, game_id: str, rules: str, title: str) -> None:
        self._insert("games", game_id, rules, title)

    def games(self) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM games ORDER BY rowid")

    def find_game(self, prefix: str) -> str:
        """The full id of the one game whose id starts with `prefix`."""
        prefix = prefix.strip().lower()
        if not prefix:
            raise StoreError("no game id given")
        if any(c not in "0123456789abcdef" for c in prefix):
            raise StoreError(f"{prefix!r} is not a game id (hex digits)")
        ids = [g["id"] for g in self._rows("SELECT id FROM games WHERE id LIKE ?", prefix + "%")]
        if not ids:
            where = self.home.resolve()
            raise StoreError(f"no game {prefix!r} in the store at {where} (see `pbem show`)")
        if len(ids) > 1:
            raise StoreError(f"game id {prefix!r} is ambiguous: {len(ids)} games match")
        return str(ids[0])

    def has_game(self, game_id: str) -> bool:
        return bool(self._rows("SELECT id FROM games WHERE id = ?", game_id))

    def add_entry(
        self, game_id: str, seq: int, entry_id: str, canonical: bytes, sig: bytes
    ) -> None:
        self._insert("entries", game_id, seq, entry_id, canonical, sig)

    def has_entry(self, game_id: str, seq: int) -> bool:
        return bool(self._rows("SELECT seq FROM entries WHERE game = ? AND seq = ?", game_id, seq))

    def entry_bytes(self, game_id: str, seq: int) -> tuple[bytes, bytes] | None:
        """(canonical, signature) of the game's entry `seq`, or None (one row read)."""
        row = self.conn.execute(
            "SELECT canonical, signature FROM entries WHERE game = ? AND seq = ?", [game_id, seq]
        ).fetchone()
        return None if row is None else (bytes(row[0]), bytes(row[1]))

    def head_of(self, game_id: str) -> tuple[int, str] | None:
        """(seq, id) of the game's last stored entry, or None (one row read)."""
        row = self.conn.execute(
            "SELECT seq, id FROM entries WHERE game = ? ORDER BY seq DESC LIMIT 1", [game_id]
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def entry_count(self, game_id: str) -> int:
        row = self.conn.execute("SELECT count(*) FROM entries WHERE game = ?", [game_id]).fetchone()
        return int(row[0])

    def entries_backwards(self, game_id: str) -> Iterator[tuple[bytes, bytes]]:
        """(canonical, signature) of the game's entries from the head back, read as the
        caller goes (one who stops after a few reads a few)."""
        cursor = self.conn.execute(
            "SELECT canonical, signature FROM entries WHERE game = ? ORDER BY seq DESC", [game_id]
        )
        for canonical, signature in cursor:
            yield bytes(canonical), bytes(signature)

    def entries(self, game_id: str, from_seq: int = 0) -> list[dict[str, Any]]:
        sql = "SELECT * FROM entries WHERE game = ? AND seq >= ? ORDER BY seq"
        return self._rows(sql, game_id, from_seq)

    # --- data files and secrets -----------------------------------------------------------

    def add_data_file(self, digest: str, name: str, content: bytes) -> None:
        self._insert("data_files", digest, name, content, conflict="OR REPLACE")

    def data_file(self, digest: str) -> bytes | None:
        rows = self._rows("SELECT content FROM data_files WHERE sha256 = ?", digest)
        return rows[0]["content"] if rows else None

    def put_secret(self, game_id: str, role: str, kind: str, value: str) -> None:
        self._insert("secrets", game_id, role, kind, value, conflict="OR REPLACE")
        self._write("DELETE FROM referee_quiet WHERE game = ?", game_id)

    def secret(self, game_id: str, role: str, kind: str) -> str | None:
        sql = "SELECT value FROM secrets WHERE game = ? AND role = ? AND kind = ?"
        rows = self._rows(sql, game_id, role, kind)
        return rows[0]["value"] if rows else None

    def secrets(self, game_id: str, role: str, prefix: str) -> list[tuple[str, str]]:
        """(kind, value) of `role`'s secrets in a game whose kind starts with `prefix`."""
        rows = self.conn.execute(
            "SELECT kind, value FROM secrets WHERE game = ? AND role = ? AND substr(kind, 1, ?) = ?"
            " ORDER BY kind",
            [game_id, role, len(prefix), prefix],
        ).fetchall()
        return [(str(kind), str(value)) for kind, value in rows]

    # --- standing orders ------------------------------------------------------------------

    def set_order(self, game_id: str, role: str, name: str, argument: str) -> None:
        self._insert("standing_orders", game_id, role, name, argument, conflict="OR REPLACE")
        self._write("DELETE FROM referee_quiet WHERE game = ?", game_id)

    def clear_order(self, game_id: str, role: str, name: str | None = None) -> int:
        """Forget one standing order of `role` (or all, when `name` is None); how many."""
        where, params = "game = ? AND role = ?", [game_id, role]
        if name is not None:
            where, params = where + " AND name = ?", params + [name]
        count = self.db.table("standing_orders").count_where(where, params)
        self._write(f"DELETE FROM standing_orders WHERE {where}", *params)
        self._write("DELETE FROM referee_quiet WHERE game = ?", game_id)
        return count

    def orders(self, game_id: str, role: str) -> dict[str, str]:
        """`role`'s standing orders in a game: name -> argument."""
        rows = self.conn.execute(
            "SELECT name, argument FROM standing_orders WHERE game = ? AND role = ? ORDER BY name",
            [game_id, role],
        ).fetchall()
        return {str(name): str(argument) for name, argument in rows}

    # --- mail -----------------------------------------------------------------------------

    def record_mail(
        self, message_id: str, game_id: str, direction: str, first_seq: int, last_seq: int
    ) -> None:
        """Remember a message of a game's thread (sent: "out", read: "in")."""
        if direction not in ("out", "in"):
            raise StoreError(f"mail direction {direction!r} is neither 'out' nor 'in'")
        self._insert(
            "mail", message_id, game_id, direction, first_seq, last_seq, conflict="OR IGNORE"
        )

    def mail_thread(self, game_id: str) -> list[dict[str, Any]]:
        """The game's messages in the order they were recorded (the first is the root)."""
        return list(self.db.table("mail").rows_where("game = ?", [game_id], order_by="rowid"))

    def mail_message(self, message_id: str) -> dict[str, Any] | None:
        """The recorded message with this Message-ID, sent or read, if any."""
        rows = list(self.db.table("mail").rows_where("message_id = ?", [message_id]))
        return rows[0] if rows else None

    def mailed_seqs(self, game_id: str) -> set[int]:
        """Seqs of the game's entries already sent by mail."""
        seqs: set[int] = set()
        for row in self.db.table("mail").rows_where("game = ? AND direction = 'out'", [game_id]):
            seqs.update(range(int(row["first_seq"]), int(row["last_seq"]) + 1))
        return seqs

    def set_peer(self, game_id: str, address: str) -> None:
        self._insert("mail_peers", game_id, address, conflict="OR REPLACE")

    def peer(self, game_id: str) -> str | None:
        rows = list(self.db.table("mail_peers").rows_where("game = ?", [game_id]))
        return str(rows[0]["address"]) if rows else None

    def buffer_entry(
        self, game_id: str, seq: int, entry_id: str, canonical: bytes, sig: bytes
    ) -> None:
        """Keep an entry that arrived before an earlier one of its game."""
        self._insert("inbox", game_id, seq, entry_id, canonical, sig, conflict="OR IGNORE")

    def buffered(self, game_id: str) -> list[dict[str, Any]]:
        return list(self.db.table("inbox").rows_where("game = ?", [game_id], order_by="seq, id"))

    def buffered_at(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """The entries of `game_id` held at `seq` (several when copies differ), by id: a
        look-up in the table's key, whatever else is held (pbem.inbox drains one seq at a
        time, so reading every held entry each time would make a drain quadratic)."""
        where = "game = ? AND seq = ?"
        return list(self.db.table("inbox").rows_where(where, [game_id, seq], order_by="seq, id"))

    def buffered_below(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """The entries of `game_id` held at a seq below `seq`, by seq and id."""
        where = "game = ? AND seq < ?"
        return list(self.db.table("inbox").rows_where(where, [game_id, seq], order_by="seq, id"))

    def holds_buffered(self, game_id: str) -> bool:
        """Whether any entry of `game_id` is held (one row read at most)."""
        row = self.conn.execute("SELECT 1 FROM inbox WHERE game = ? LIMIT 1", [game_id]).fetchone()
        return row is not None

    def buffered_geneses(self) -> list[tuple[bytes, bytes]]:
        """(canonical, signature) of every genesis held in the inbox (invitations), by game."""
        rows = self.conn.execute(
            "SELECT canonical, signature FROM inbox WHERE seq = 0 AND id = game ORDER BY game"
        ).fetchall()
        return [(bytes(canonical), bytes(signature)) for canonical, signature in rows]

    def drop_buffered(self, game_id: str, seq: int) -> None:
        """Forget every buffered entry of `game_id` at `seq` (applied, or superseded)."""
        self._write("DELETE FROM inbox WHERE game = ? AND seq = ?", game_id, seq)

    def drop_buffered_below(self, game_id: str, seq: int) -> None:
        """Forget every buffered entry of `game_id` at a seq below `seq`."""
        self._write("DELETE FROM inbox WHERE game = ? AND seq < ?", game_id, seq)

    # --- refereeing (pbem referee) --------------------------------------------------------

    def set_player_address(self, game_id: str, role: str, address: str) -> None:
        self._insert("referee_players", game_id, role, address, conflict="OR REPLACE")

    def player_addresses(self, game_id: str) -> dict[str, str]:
        """Role -> the address a refereed game's player gets its mail at."""
        rows = self.conn.execute(
            "SELECT role, address FROM referee_players WHERE game = ? ORDER BY role", [game_id]
        ).fetchall()
        return {str(role): str(address) for role, address in rows}

    def referee_clock(self, game_id: str) -> tuple[int, str, int] | None:
        """(head seq, since, reminders sent) of the head a refereed game waits on, if any."""
        row = self.conn.execute(
            "SELECT seq, since, reminders FROM referee_clock WHERE game = ?", [game_id]
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), int(row[2]))

    def set_referee_clock(self, game_id: str, seq: int, since: str, reminders: int = 0) -> None:
        self._insert("referee_clock", game_id, seq, since, reminders, conflict="OR REPLACE")

    def referee_mailed(self, game_id: str, role: str) -> int:
        """The last seq of a refereed game mailed to `role`'s player (-1: none yet)."""
        row = self.conn.execute(
            "SELECT seq FROM referee_mailed WHERE game = ? AND role = ?", [game_id, role]
        ).fetchone()
        return -1 if row is None else int(row[0])

    def set_referee_mailed(self, game_id: str, role: str, seq: int) -> None:
        self._insert("referee_mailed", game_id, role, seq, conflict="OR REPLACE")

    def referee_quiet(self, game_id: str) -> tuple[int, str, str] | None:
        """(head seq, head id, facts as JSON) a referee's round recorded of a game it had
        nothing to do in, if any (pbem.refereeing.quiet)."""
        row = self.conn.execute(
            "SELECT seq, id, facts FROM referee_quiet WHERE game = ?", [game_id]
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), str(row[2]))

    def set_referee_quiet(self, game_id: str, seq: int, entry_id: str, facts: str) -> None:
        self._insert("referee_quiet", game_id, seq, entry_id, facts, conflict="OR REPLACE")
