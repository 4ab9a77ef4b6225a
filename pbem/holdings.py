"""What a store holds, as the layers above the client ask it: the CLI, mail, the
unattended referee and the pages. They read and record through these methods of the
Client, never by reaching into its store: the store's tables and transactions stay the
client's business.

A mixin of `pbem.client.Client` (its `store` comes from the key ring, the client's
bottom layer). Methods that write say whether they are one transaction of their own
or go inside the caller's (`Client.changing()`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.core.log import Entry
from pbem.errors import StoreError

if TYPE_CHECKING:
    from pbem.store import Store


class Holdings:
    """The store's contents, by what they mean (see the module's docstring)."""

    store: Store

    # --- games ------------------------------------------------------------------------------

    @property
    def home(self) -> Path:
        """The store's folder (its mail configuration, its pages/)."""
        return self.store.home

    def game_rows(self) -> list[dict[str, Any]]:
        """Every stored game: its id, rules and title, as the store lists them."""
        return self.store.games()

    def has_game(self, game_id: str) -> bool:
        return self.store.has_game(game_id)

    def find_game(self, prefix: str) -> str:
        """The full id of the one stored game whose id starts with `prefix` (StoreError)."""
        return self.store.find_game(prefix)

    def stored_entries(self, game_id: str, from_seq: int = 0) -> list[Entry]:
        """A stored game's entries as the store holds them, from seq `from_seq` (no replay)."""
        return [
            Entry.from_wire(row["canonical"], row["signature"])
            for row in self.store.entries(game_id, from_seq)
        ]

    def genesis_of(self, game_id: str) -> Entry:
        """A stored game's genesis, read without replaying the game."""
        found = self.store.entry_bytes(game_id, 0)
        if found is None:
            raise StoreError(f"game {game_id[:12]} has no entries in the store")
        return Entry.from_wire(*found)

    def head_of(self, game_id: str) -> tuple[int, str] | None:
        """(seq, id) of the game's last stored entry, read without replaying the game."""
        return self.store.head_of(game_id)

    def stored_count(self, game_id: str) -> int:
        """How many entries of the game the store holds."""
        return self.store.entry_count(game_id)

    # --- keys -------------------------------------------------------------------------------

    def key_row(self, name: str) -> dict[str, Any]:
        """The store's record of the key `name` (StoreError when there is none)."""
        return self.store.key(name)

    def key_rows(self) -> list[dict[str, Any]]:
        return self.store.list_keys()

    # --- a game's mail (pbem.mail) ----------------------------------------------------------

    def mailed_seqs(self, game_id: str) -> set[int]:
        """The seqs of this store's entries of the game already mailed."""
        return self.store.mailed_seqs(game_id)

    def mail_message(self, message_id: str) -> dict[str, Any] | None:
        """What the store recorded of a mail by its Message-ID (None: nothing)."""
        return self.store.mail_message(message_id)

    def mail_thread(self, game_id: str) -> list[dict[str, Any]]:
        """The game's messages in the order they were recorded (the first is the root)."""
        return self.store.mail_thread(game_id)

    def peer(self, game_id: str) -> str | None:
        """The address the game's mail goes to, once given."""
        return self.store.peer(game_id)

    def record_mail(
        self, message_id: str, game_id: str, direction: str, first: int, last: int
    ) -> None:
        """Record a mail sent ("out") or read ("in") of the game, its entries first to
        last: inside the caller's transaction (`Client.changing()`)."""
        self.store.record_mail(message_id, game_id, direction, first, last)

    def record_sent(
        self, message_id: str, game_id: str, first: int, last: int, address: str
    ) -> None:
        """Record a mail of the game sent to `address` (remembered as its peer): one
        transaction of its own."""
        with self.store.transaction():
            self.store.record_mail(message_id, game_id, "out", first, last)
            self.store.set_peer(game_id, address)

    # --- a refereed game's bookkeeping (pbem.refereeing) ------------------------------------

    def player_addresses(self, game_id: str) -> dict[str, str]:
        """Role -> where a refereed game's player gets its mail."""
        return self.store.player_addresses(game_id)

    def set_player_address(self, game_id: str, role: str, address: str) -> None:
        """Where the referee mails `role` of the game: one transaction of its own."""
        with self.store.transaction():
            self.store.set_player_address(game_id, role, address)

    def referee_clock(self, game_id: str) -> tuple[int, str, int] | None:
        """(head seq, since, reminders sent) of the head a refereed game waits on, if any."""
        return self.store.referee_clock(game_id)

    def set_referee_clock(self, game_id: str, seq: int, since: str, reminders: int = 0) -> None:
        """Start (or move on) the clock of the head a refereed game waits on: one
        transaction of its own."""
        with self.store.transaction():
            self.store.set_referee_clock(game_id, seq, since, reminders)

    def referee_mailed(self, game_id: str, role: str) -> int:
        """The last seq of a refereed game mailed to `role`'s player (-1: none yet)."""
        return self.store.referee_mailed(game_id, role)

    def set_referee_mailed(self, game_id: str, role: str, seq: int) -> None:
        """What the referee mailed `role`'s player, up to `seq`: one transaction."""
        with self.store.transaction():
            self.store.set_referee_mailed(game_id, role, seq)

    def referee_quiet(self, game_id: str) -> tuple[int, str, str] | None:
        """(head seq, head id, facts as JSON) of a refereed game the referee's last round
        had nothing to do in (pbem.refereeing.quiet), if recorded."""
        return self.store.referee_quiet(game_id)

    def set_referee_quiet(self, game_id: str, seq: int, entry_id: str, facts: str) -> None:
        """Record that facts of a refereed game at its head (seq, id): one transaction."""
        with self.store.transaction():
            self.store.set_referee_quiet(game_id, seq, entry_id, facts)
