"""What a player does with pbem, as library calls: the CLI and the demo are thin over this.

A Client owns one local Store. It makes and signs entries for the roles whose
private keys it holds, checks every entry (its own too) by replaying it on the
game's log before storing it, and applies entries that arrive in move files.
Each call that changes the store is one transaction: a refused entry leaves
the store exactly as it was.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.core import blind, chain
from pbem.core import referee as league
from pbem.core.adjudicator import Adjudicator, EntryRefused, data_digest
from pbem.core.canonical import JSON
from pbem.core.commit import Opening, commitment
from pbem.core.engine import FRESH
from pbem.core.log import ACK, GENESIS, JOIN, MOVE, VERSION, Entry
from pbem.core.meta import check_note
from pbem.errors import (
    EquivocationError,
    IllegalOrderError,
    InvalidOrderError,
    PbemError,
    StoreError,
)
from pbem.ledger import DISK_TABLES, data_source, engine_by_name, find_equivocation
from pbem.store import Store
from pbem.store.journal import Journal, slot_of
from pbem.store.store import GAME_CHANGED
from pbem.store.vault import Vault, is_sealed

if TYPE_CHECKING:
    from pbem.answers import Answer
    from pbem.crypto.keys import PrivateKey, Signer

Passphrase = Callable[[str], bytes | None]
SEALED = "sealed:"  # store secrets of this kind: a commitment's salt and value, by label
CLOCK_SKEW = timedelta(hours=1)
# how far ahead of a referee's clock a game may say it began
NOISE = "set aside (a damaged copy beside one that verifies: an outsider's noise)"
CHAIN = "chain"  # the store secret of a hash-chain seed made by an earlier version (random)


def _utc_now() -> datetime:
    """Now, in whole UTC seconds (the times an entry signs)."""
    from datetime import UTC

    return datetime.now(UTC).replace(microsecond=0)


class _Replays:
    """Games replayed in this process, shared by every Client (each command of a test, a
    demo, a server: one Client per call), so that loading a game again applies only the
    entries that are new since, instead of checking every signature and rule again.

    A replay is a pure function of the entries' bytes (the same canonical bytes and
    signatures give the same checks, the same state, the same refusals), so a kept replay
    is used only for a store whose first entries are byte for byte the replay's entries,
    and only through a fork (`Adjudicator.fork`): nothing done to a store's game can change
    what is kept. A few replays per game, a few games, the most recent kept.
    """

    _PER_GAME = 4
    _GAMES = 8

    def __init__(self) -> None:
        self._games: dict[str, list[Adjudicator]] = {}

    def longest_prefix(self, game_id: str, rows: list[dict[str, Any]]) -> Adjudicator | None:
        """A fork of the longest kept replay of `game_id` whose entries begin `rows`."""
        best = None
        for kept in self._games.get(game_id, ()):
            count = len(kept.entries)
            if count > len(rows) or (best is not None and count <= len(best.entries)):
                continue
            if all(
                row["canonical"] == entry.canonical and row["signature"] == entry.signature
                for row, entry in zip(rows, kept.entries, strict=False)
            ):
                best = kept
        return None if best is None else best.fork()

    def remember(self, game_id: str, game: Adjudicator) -> None:
        kept = self._games.pop(game_id, [])
        kept = [g for g in kept if len(g.entries) != len(game.entries)]
        kept.insert(0, game.fork())
        self._games[game_id] = kept[: self._PER_GAME]
        while len(self._games) > self._GAMES:
            self._games.pop(next(iter(self._games)))


_REPLAYS = _Replays()


@lru_cache(maxsize=8)
def _chain_elements(seed_hex: str, length: int) -> tuple[bytes, ...]:
    """All chain elements s_0..s_N of one seed (computed once per process)."""
    values = [bytes.fromhex(seed_hex)]
    for _ in range(length):
        values.append(chain.step_down(values[-1]))
    return tuple(reversed(values))


@dataclass(frozen=True)
class Applied:
    """What happened to one entry found in a move file."""

    entry: Entry
    status: str  # "applied", "already had", NOISE


@dataclass(frozen=True)
class MovePlan:
    """A move made ready to sign (`Client.plan_move`), or checked without signing
    (`Client.dry_run_move`): `game` is the game it applies to (after `dry_run_move`, a
    fork that holds the unsigned entry)."""

    game: Adjudicator
    role: str
    fields: dict[str, JSON]
    sealed: list[tuple[str, str, JSON]]
    private: str | None  # the owner's own decision text when sealing hid part of it

    @property
    def line(self) -> str:
        """The human line of the entry: seq, role, decision, and what only its owner sees."""
        body = self.fields["body"]
        assert isinstance(body, dict)
        text = f"entry {self.fields['seq']} by {self.role}: {body['decision']}"
        if self.private is not None:
            text += f" (sealed: only you see {self.private!r})"
        elif self.sealed:
            count = len(self.sealed)
            text += f" (sealed: {count} value{'s' if count != 1 else ''} only you know)"
        return text


class Client:
    def __init__(
        self,
        store: Store,
        passphrase: Passphrase | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.store = store
        self._passphrase = passphrase or (lambda _name: None)
        # This user's clock (UTC): the time a genesis says its game was made, and what a
        # referee compares it with before joining (an unattended referee sets its own).
        self.clock: Callable[[], datetime] = clock or _utc_now
        # Replayed games kept between calls of one process; checked against the store's
        # head on every use and dropped whenever a change fails to commit.
        self._cache: dict[str, Adjudicator] = {}
        # Keys read in this process (by raw public key, with their file: a key file's, or
        # ssh-agent's) and the vaults derived from them: a passphrase is asked once per key
        # and process. `_seeds`: key files read for their seed when the agent signs.
        self._keys: dict[bytes, tuple[Signer, Path]] = {}
        self._seeds: dict[bytes, PrivateKey] = {}
        self._vaults: dict[tuple[str, str], Vault] = {}
        # A double-blind game's referee: what it knows, by game, at the head it was read.
        self._referee_known: dict[str, tuple[str, dict[str, JSON]]] = {}

    # --- keys -----------------------------------------------------------------------------

    def new_key(self, name: str, passphrase: bytes | None = None) -> str:
        """Make an Ed25519 OpenSSH key pair under the store's keys/ folder (0600), recorded
        as `keys/NAME`, relative to the store: the folder can be moved whole.

        The key file is written inside the store transaction, before it commits: a crash
        in between leaves a key file that the store does not know. Running the command
        again adopts that file (same name, same protection) instead of refusing forever
        or overwriting a private key.
        """
        from pbem.crypto.keys import generate, write_private_key

        _check_key_name(name)
        if self.store.db.table("keys").count_where("name = ?", [name]):
            raise StoreError(f"a key named {name!r} already exists")
        path = self.store.keys_dir / name
        key = self._orphan_key(name, path, passphrase) if path.exists() else None
        with self.changing():
            made = key or generate(comment=name)
            self.store.add_key(
                name, made.public.openssh_line(), made.public.fingerprint(), f"keys/{name}"
            )
            if key is None:
                write_private_key(path, made, passphrase)
            else:
                _write_public_line(path, made.public.openssh_line())
        return str(made.public.fingerprint_line())

    def _orphan_key(self, name: str, path: Path, passphrase: bytes | None) -> PrivateKey:
        """The key left at `path` by an interrupted `new_key`, or a refusal to touch it."""
        from pbem.crypto.keys import PassphraseNeeded, load_private_key

        refused = StoreError(f"{path} already exists; refusing to overwrite a private key")
        if any(self.key_file(row) == path for row in self.store.list_keys()):
            raise refused
        data = path.read_bytes()
        try:
            key = load_private_key(data, None)
            encrypted = False
        except PassphraseNeeded:
            encrypted = True
        except PbemError:
            raise refused from None
        if encrypted != bool(passphrase):
            raise refused
        if encrypted:
            try:
                key = load_private_key(data, passphrase)
            except PbemError:
                raise refused from None
        if key.comment != name:
            raise refused
        return key

    def import_key(
        self, name: str, path: Path, public_only: bool = False, agent: bool = False
    ) -> str:
        """Import an OpenSSH private key (kept where it is) or a public-key line; with
        `public_only`, only the public half of a private key file.

        With `agent`, the key is the player's own and ssh-agent holds it (refused when
        SSH_AUTH_SOCK's agent does not): `path` is its private key file, whose passphrase
        is then never asked, or its public-key line, recorded as `keys/NAME` where no file
        is (pbem.crypto.agent). A passphrase-protected key file that the agent holds is
        imported that way without `agent` too.

        Returns the fingerprint line under `name`; `store.key(name)["private_path"]` tells
        which kind was imported (absolute, unless the file is inside the store's folder).
        A private key file whose public half the store already holds under another name is
        refused: it is most likely the player's own key given where an opponent's public
        key was meant."""
        from pbem.crypto.agent import find
        from pbem.crypto.keys import (
            PassphraseNeeded,
            PublicKey,
            load_private_key,
            public_of_key_file,
        )

        _check_key_name(name)
        if agent and public_only:
            raise PbemError("--agent imports your own key for signing, --public an opponent's")
        data = path.read_bytes()
        if b"PRIVATE KEY" in data:
            try:
                public = load_private_key(data, None).public
            except PassphraseNeeded:
                outer = public_of_key_file(data)
                if public_only and outer is not None:
                    public = outer  # the public half only: no passphrase needed for it
                elif outer is not None and (agent or find(outer) is not None):
                    public = outer  # ssh-agent signs (checked below): no passphrase asked
                else:
                    public = load_private_key(data, self._passphrase(name)).public
            private_path = "" if public_only else self.store.recorded_key_path(path)
        elif agent:
            public = PublicKey.parse_line(data.decode("utf-8", errors="replace"))
            nominal = self.store.keys_dir / name
            if nominal.exists():
                raise StoreError(f"{nominal} already exists; refusing to shadow a key file")
            private_path = self.store.recorded_key_path(nominal)
        else:
            public = PublicKey.parse_line(data.decode("utf-8", errors="replace"))
            private_path = ""
        if agent and find(public) is None:
            raise StoreError(
                f"ssh-agent does not hold {public.fingerprint()}: add it with `ssh-add` first "
                "(SSH_AUTH_SOCK names the agent)"
            )
        if private_path:
            for row in self.store.list_keys():
                if row["name"] != name and PublicKey.parse_line(row["public"]).raw == public.raw:
                    raise StoreError(
                        f"{path} is a private key whose public half is already in this store "
                        f"as {row['name']!r} ({public.fingerprint()}); to add an opponent, "
                        "import their public-key line (their .pub file)"
                    )
        with self.changing():
            self.store.add_key(name, public.openssh_line(), public.fingerprint(), private_path)
        return str(PublicKey(public.raw, name).fingerprint_line())

    def games_using_key(self, name: str) -> list[tuple[str, str]]:
        """(game id, role) for every stored game whose genesis gives a role the key `name`."""
        from pbem.crypto.keys import PublicKey

        wanted = PublicKey.parse_line(self.store.key(name)["public"]).raw
        found = []
        for game in self.store.games():
            rows = self.store.entries(game["id"])
            if not rows:
                continue
            genesis = Entry.from_wire(rows[0]["canonical"], rows[0]["signature"])
            for role, line in dict(genesis.body.get("roles", {})).items():
                if PublicKey.parse_line(str(line)).raw == wanted:
                    found.append((str(game["id"]), str(role)))
        return found

    def remove_key(self, name: str, force: bool = False, delete_file: bool = False) -> list[str]:
        """Forget the key `name` (the store's row); with `delete_file`, also delete its files
        when `pbem key new` made them under the store's keys/ folder, and never otherwise.

        Refused while a stored game gives one of its roles this key, unless `force`.
        Returns what was done, one line each."""
        row = self.store.key(name)
        used = self.games_using_key(name)
        if used and not force:
            games = ", ".join(f"{role} in game {gid[:12]}" for gid, role in used)
            raise PbemError(
                f"key {name!r} plays {games}; without it you cannot sign there "
                "(--force removes it anyway)"
            )
        private = self.key_file(row)
        made_here = private is not None and private == self.store.keys_dir / name
        if delete_file and private is None:
            raise PbemError(f"key {name!r} has no private key file: drop --delete-file")
        if delete_file and not made_here:
            raise PbemError(
                f"{private} was not made by `pbem key new`: pbem never deletes it "
                "(drop --delete-file to forget only the store's row)"
            )
        with self.changing():
            self.store.remove_key(name)
        done = [f"removed key {name!r} from this store"]
        if private is not None and delete_file:
            for path in (private.with_name(private.name + ".pub"), private):
                path.unlink(missing_ok=True)
            done.append(f"deleted {private} and {private.name}.pub")
        elif private is not None and not private.exists():
            done.append(f"it had no key file at {private} (ssh-agent keeps its own copy)")
        elif private is not None:
            done.append(f"kept the private key file {private}")
            if made_here:
                done[-1] += " (--delete-file removes it)"
        return done

    def key_file(self, row: Mapping[str, Any]) -> Path | None:
        """Where the private key of a keys row is now (None: a public key only).

        A row written before keys were recorded relative to the store holds an absolute
        path. When that file is gone but the store's keys/ folder holds one of the same
        name and public key, the store folder was moved: that one is the key."""
        recorded = str(row["private_path"] or "")
        path = self.store.key_path(recorded)
        if path is None or not Path(recorded).is_absolute() or path.exists():
            return path
        moved = self.store.home / "keys" / path.name
        if moved != path and _holds_key(moved, str(row["public"])):
            return moved
        return path

    def _private_key_for(self, public_line: str) -> Signer:
        return self._key_and_path(public_line)[0]

    def _key_and_path(self, public_line: str) -> tuple[Signer, Path]:
        """The key of `public_line` held by this store, and its file (where it is recorded).

        The key file's key, unless the file is gone or passphrase-protected and ssh-agent
        (SSH_AUTH_SOCK) holds the key: then the agent signs, and no passphrase is asked
        (pbem.crypto.agent; the signatures are the same bytes)."""
        from pbem.crypto.agent import find
        from pbem.crypto.keys import PassphraseNeeded, PublicKey, load_private_key

        wanted = PublicKey.parse_line(public_line)
        if wanted.raw in self._keys:
            return self._keys[wanted.raw]
        for row in self.store.list_keys():
            if not row["private_path"]:
                continue
            if PublicKey.parse_line(row["public"]).raw != wanted.raw:
                continue
            path = self.key_file(row)
            assert path is not None  # rows without a private key were skipped above
            try:
                data = path.read_bytes()
            except OSError as exc:
                held = find(wanted) if isinstance(exc, FileNotFoundError) else None
                if held is not None:
                    self._keys[wanted.raw] = (held, path)
                    return held, path
                raise StoreError(
                    f"cannot read the private key {path}: {exc.strerror or exc}{_agent_note()}"
                ) from None
            try:
                key = load_private_key(data, None)
            except PassphraseNeeded:
                held = find(wanted)
                if held is not None:
                    self._keys[wanted.raw] = (held, path)
                    return held, path
                key = load_private_key(data, self._passphrase(row["name"]))
            if key.public.raw != wanted.raw:
                raise StoreError(f"the key file {path} no longer holds {wanted.fingerprint()}")
            if path != self.store.key_path(str(row["private_path"])):
                self._record_moved_key(str(row["name"]), path)
            self._keys[wanted.raw] = (key, path)
            return key, path
        raise StoreError(f"no private key in this store for {wanted.fingerprint()}")

    def _seed_key_for(self, public_line: str, what: str) -> PrivateKey:
        """The key file's key of `public_line`, for `what` needs its seed: opening what was
        sealed to the key (pbem.crypto.escrow), which no ssh-agent can do. When the agent
        signs for a passphrase-protected file, the file is read (its passphrase asked);
        when there is no file, one error line says what is needed."""
        from pbem.crypto.keys import (
            NEEDS_FILE,
            PassphraseNeeded,
            PrivateKey,
            PublicKey,
            load_private_key,
        )

        signer, path = self._key_and_path(public_line)
        if isinstance(signer, PrivateKey):
            return signer
        raw = signer.public.raw
        if raw not in self._seeds:
            try:
                data = path.read_bytes()
            except OSError:
                raise PbemError(
                    f"{what} {NEEDS_FILE}; import the key file of {signer.public.fingerprint()} "
                    f"(put it at {path})"
                ) from None
            try:
                key = load_private_key(data, None)
            except PassphraseNeeded:
                names = [
                    row["name"]
                    for row in self.store.list_keys()
                    if PublicKey.parse_line(row["public"]).raw == raw
                ]
                key = load_private_key(data, self._passphrase(str(names[0]) if names else ""))
            if key.public.raw != raw:
                held = signer.public.fingerprint()
                raise StoreError(f"the key file {path} no longer holds {held}")
            self._seeds[raw] = key
        return self._seeds[raw]

    def key_location(self, row: Mapping[str, Any]) -> str:
        """Where the private half of a keys row is: "private" (its key file signs), "agent"
        (ssh-agent signs: its file is gone or passphrase-protected), "missing" (neither
        a file nor the agent) or "public" (an opponent's key)."""
        from pbem.crypto.agent import find
        from pbem.crypto.keys import PassphraseNeeded, PublicKey, load_private_key

        path = self.key_file(row)
        if path is None:
            return "public"
        try:
            load_private_key(path.read_bytes(), None)
            return "private"
        except PassphraseNeeded:
            protected = True
        except (OSError, PbemError):
            protected = False
        if find(PublicKey.parse_line(str(row["public"]))) is not None:
            return "agent"
        return "private" if protected else "missing"

    def _record_moved_key(self, name: str, path: Path) -> None:
        """Record a key found after the store folder moved relative to the store, so that
        its row names the file again (inside the transaction already open, if any)."""
        recorded = self.store.recorded_key_path(path)
        if self.store.db.conn.in_transaction:
            self.store.set_key_path(name, recorded)
            return
        with self.changing():
            self.store.set_key_path(name, recorded)

    def _journal(self, game: Adjudicator, role: str) -> Journal:
        """The signing journal of the role's key: in the user's state folder, apart from
        the store (an earlier version's file beside the key is read too)."""
        key, path = self._key_and_path(game.roles[role])
        return Journal.of_key(self.store.state, key.public, path, self.store.home)

    def own_journals(self) -> dict[bytes, Journal]:
        """The signing journal of each private key this store holds, by its raw public key
        (read without the key itself: no passphrase is asked)."""
        from pbem.crypto.keys import PublicKey

        journals = {}
        for row in self.store.list_keys():
            path = self.key_file(row) if row["private_path"] else None
            if path is not None:
                public = PublicKey.parse_line(str(row["public"]))
                journal = Journal.of_key(self.store.state, public, path, self.store.home)
                journals[public.raw] = journal
        return journals

    def journal_entries(self, prefix: str) -> tuple[str, list[Entry]]:
        """(game id, the entries this store's keys signed in that one game, by their
        signing journals, in seq order): `pbem recover`. Never another game's entries (a
        recovery file may go to the opponent). The game is found in the store, else among
        the journals' games."""
        journals = list(self.own_journals().values())
        try:
            game_id = self.store.find_game(prefix)
        except StoreError:
            wanted = prefix.strip().lower()
            found = {g for j in journals for g in j.games() if wanted and g.startswith(wanted)}
            if len(found) != 1:
                raise
            game_id = found.pop()
        entries: dict[str, Entry] = {}
        for journal in journals:
            for entry in journal.entries(game_id):
                entries.setdefault(entry.id, entry)
        return game_id, sorted(entries.values(), key=lambda e: e.seq)

    def _vault(self, game: Adjudicator, role: str) -> Vault:
        """The role's secrets in this game: derived from its private key, or sealed under it.

        A store made by an earlier version kept them in plain text: they are sealed the
        first time the key is at hand."""
        found = self._vaults.get((game.id, role))
        if found is None:
            found = Vault(self._private_key_for(game.roles[role]), game.id, role)
            self._vaults[(game.id, role)] = found
            self._seal_plain_secrets(game.id, role, found)
        return found

    def _seal_plain_secrets(self, game_id: str, role: str, vault: Vault) -> None:
        plain = [
            (kind, value)
            for kind, value in self.store.secrets(game_id, role, "")
            if not is_sealed(value)
        ]
        if not plain:
            return
        if self.store.db.conn.in_transaction:
            for kind, value in plain:
                self.store.put_secret(game_id, role, kind, vault.seal(kind, value))
            return
        with self.changing():
            for kind, value in plain:
                self.store.put_secret(game_id, role, kind, vault.seal(kind, value))

    def _open_secret(self, game: Adjudicator, role: str, kind: str) -> str | None:
        stored = self.store.secret(game.id, role, kind)
        if stored is None:
            return None
        vault = self._vault(game, role)
        if not is_sealed(stored):  # kept by an earlier version: sealed now
            self._seal_plain_secrets(game.id, role, vault)
            return stored
        return vault.open(kind, stored)

    def _public_line(self, key_name: str) -> str:
        return str(self.store.key(key_name)["public"])

    def owns_private_key(self, public_line: str) -> bool:
        """Whether this store holds the private key of `public_line` (not only its public line)."""
        from pbem.crypto.keys import PublicKey

        wanted = PublicKey.parse_line(public_line).raw
        return any(
            row["private_path"] and PublicKey.parse_line(row["public"]).raw == wanted
            for row in self.store.list_keys()
        )

    # --- games ----------------------------------------------------------------------------

    def game(self, prefix: str) -> Adjudicator:
        """Replay a stored game from its entries (every signature and rule re-checked)."""
        game_id = self.store.find_game(prefix)
        return self._replay(game_id)

    def _replay(self, game_id: str) -> Adjudicator:
        cached = self._cache.pop(game_id, None)
        start = 0
        if cached is not None:
            head = self.store.entries(game_id, from_seq=cached.head.seq)
            if head and head[0]["id"] == cached.head.id:
                start = cached.head.seq + 1
            else:
                cached = None
        rows = self.store.entries(game_id, from_seq=start)
        if cached is None:
            cached = _REPLAYS.longest_prefix(game_id, rows)
            if cached is not None:
                rows = rows[len(cached.entries) :]
        entries = [Entry.from_wire(r["canonical"], r["signature"]) for r in rows]
        if cached is None:
            genesis = entries.pop(0)
            extra = self._stored_data(genesis)
            cached = Adjudicator.start(
                genesis, engine_by_name, data_source(extra), _signature_check(), tables=DISK_TABLES
            )
        for entry in entries:
            cached.apply(entry)
        if entries:
            _REPLAYS.remember(game_id, cached)
        self._cache[game_id] = cached
        return cached

    @contextmanager
    def changing(self) -> Iterator[None]:
        """One store transaction; replayed games are forgotten if it does not commit."""
        try:
            with self.store.transaction():
                yield
        except BaseException:
            self._cache.clear()
            raise

    def _stored_data(self, genesis: Entry) -> dict[str, bytes]:
        extra: dict[str, bytes] = {}
        for digest in dict(genesis.body.get("data", {})).values():
            content = self.store.data_file(str(digest))
            if content is not None:
                extra[str(digest)] = content
        return extra

    def my_roles(self, game: Adjudicator) -> list[str]:
        return [role for role, line in game.roles.items() if self.owns_private_key(line)]

    def new_game(
        self,
        rules: str,
        creator_role: str,
        keys: Mapping[str, str],
        title: str = "",
        data_files: Mapping[str, bytes] | None = None,
        options: Mapping[str, JSON] | None = None,
        created: datetime | None = None,
    ) -> tuple[str, list[Entry]]:
        """Sign a genesis (roles -> key names in this store) and join every role we own.
        `created`: when the game is made (default: this client's clock), the time before
        which no referee's clock may start (pbem.core.referee)."""
        engine = engine_by_name(rules)
        if creator_role not in keys:
            raise PbemError(f"the creating role {creator_role!r} needs a key")
        files = dict(engine.default_data())
        for name, content in (data_files or {}).items():
            if name not in engine.data_files:
                raise PbemError(f"{rules} has no data file {name!r}")
            engine.load_data({**files, name: content})  # validate before signing anything
            files[name] = content
        if options:  # refused options, like refused data, before anything is signed
            league.deadline_hours(options, keys)
            league.check_engine_options(
                league.engine_options(options),
                engine.double_blind_options,
                league.double_blind(options, keys),
            )
            engine.setup(engine.load_data(files), league.engine_options(options))
        for role in keys:
            if role not in engine.roles and role != league.REFEREE:
                raise PbemError(f"{engine.name} has no role {role!r}")
        body: dict[str, JSON] = {
            "rules": engine.name,
            "rules_version": engine.version,
            "data": {name: data_digest(content) for name, content in files.items()},
            "options": dict(options or {}),
            "roles": {role: self._public_line(name) for role, name in keys.items()},
            "title": title or engine.title,
            "nonce": secrets.token_hex(16),
            league.CREATED: league.format_time(created or self.clock()),
        }
        fields: dict[str, JSON] = {
            "v": VERSION,
            "kind": GENESIS,
            "seq": 0,
            "by": creator_role,
            "body": body,
        }
        genesis = self._sign(fields, self._public_line(keys[creator_role]))
        game = Adjudicator.start(
            genesis,
            engine_by_name,
            data_source(_by_digest(files)),
            _signature_check(),
            tables=DISK_TABLES,
        )
        made = [genesis]
        with self.changing():
            self.store.add_game(genesis.id, engine.name, str(body["title"]))
            self.store.add_entry(genesis.id, 0, genesis.id, genesis.canonical, genesis.signature)
            for name, content in files.items():
                self.store.add_data_file(data_digest(content), name, content)
            made += self._join_all(game)
        return genesis.id, made

    def join(self, prefix: str) -> list[Entry]:
        """Sign a join for every role of ours that has not joined yet."""
        game = self.game(prefix)
        with self.changing():
            made = self._join_all(game)
        if not made and not self.my_roles(game):
            raise PbemError(_no_key_for(game.roles, self.store.list_keys()))
        if not made:
            raise PbemError("nothing to join: none of your roles is waiting to join")
        return made

    def _join_all(self, game: Adjudicator) -> list[Entry]:
        """Join while the next role to join (they join one at a time, in order) is ours."""
        made = []
        mine = set(self.my_roles(game))
        while not game.started:
            role = game.next_signer()
            if role not in mine or any(e.kind == JOIN and e.by == role for e in game.entries):
                break
            if role == league.REFEREE:
                self._check_created(game)
            seed = self._vault(game, role).chain_seed()
            length = chain.MIN_LENGTH
            fields = self._next_fields(game, JOIN, role)
            anchor = _chain_elements(seed.hex(), length)[0]
            fields["body"] = {"anchor": anchor.hex(), "length": length}
            entry = self._sign(fields, game.roles[role])
            game.apply(entry)
            self._journal(game, role).record(entry, slot_of(entry, None))
            self._store_entry(game.id, entry)
            made.append(entry)
        return made

    def _check_created(self, game: Adjudicator) -> None:
        """A referee joins no game made in the future of its clock: a forfeit's `since`
        may not come before the game was made, so a creator who wrote a time to come
        could escape its deadline until then (pbem.core.referee)."""
        made = league.created_time(game.genesis.body)
        now = self.clock()
        if made is not None and made > now + CLOCK_SKEW:
            raise PbemError(
                f"refusing to referee game {game.id[:12]}: its genesis says it was made at "
                f"{league.format_time(made)}, later than this referee's clock "
                f"({league.format_time(now)}); no forfeit could be signed before then"
            )

    def _next_fields(self, game: Adjudicator, kind: str, role: str) -> dict[str, JSON]:
        fields: dict[str, JSON] = {
            "v": VERSION,
            "kind": kind,
            "game": game.id,
            "seq": game.head.seq + 1,
            "prev": game.head.id,
            "by": role,
            "body": {},
        }
        if kind != JOIN:
            fields["reveal"] = self._reveal(game, role).hex()
        return fields

    def _reveal(self, game: Adjudicator, role: str) -> bytes:
        """The role's next chain element."""
        seed, length = self._chain(game, role)
        index = game.next_reveal_index(role)
        if index > length:
            raise PbemError(f"{role}'s hash chain is used up")
        return _chain_elements(seed.hex(), length)[index]

    def chain_seed(self, prefix: str, role: str) -> bytes:
        """The top s_N of `role`'s hash chain in a game (needs the role's private key)."""
        return self._chain(self.game(prefix), role)[0]

    def _chain(self, game: Adjudicator, role: str) -> tuple[bytes, int]:
        """The seed and length of the role's chain: the seed its key derives, or (a game
        joined by an earlier version) the random seed kept sealed in the store."""
        join = next((e for e in game.entries if e.kind == JOIN and e.by == role), None)
        if join is None:
            raise PbemError(f"{role} has not joined this game")
        anchor, length = str(join.body.get("anchor")), int(str(join.body.get("length", 0)))
        seed = self._vault(game, role).chain_seed()
        if _chain_elements(seed.hex(), length)[0].hex() == anchor:
            return seed, length
        kept = self._open_secret(game, role, CHAIN)
        if kept is None:
            raise StoreError(
                f"{role}'s hash chain in this game is neither derived from its key nor "
                "kept in this store"
            )
        return bytes.fromhex(json.loads(kept)["seed"]), length

    def _sign(self, fields: dict[str, JSON], public_line: str) -> Entry:
        from pbem.crypto import sshsig

        unsigned = Entry.build(fields)
        key = self._private_key_for(public_line)
        return unsigned.with_signature(sshsig.sign(key, unsigned.canonical))

    def _store_entry(self, game_id: str, entry: Entry) -> None:
        self.store.add_entry(game_id, entry.seq, entry.id, entry.canonical, entry.signature)

    def acting_role(self, game: Adjudicator, role: str | None = None) -> str:
        """The role of ours that the game asks now (or the one named)."""
        mine = self.my_roles(game)
        if role is not None:
            if role not in mine:
                raise PbemError(f"you hold no key for role {role!r} in this game")
            return role
        asked = [r for r in mine if game.asked(r)]
        if not asked:
            waiting = ", ".join(sorted({p.role for p in game.prompts()})) or "nobody"
            raise PbemError(f"not your turn: the game waits for {waiting}")
        return asked[0]

    def state_for(self, game: Adjudicator, role: str):  # type: ignore[no-untyped-def]
        """The state `role` decides on, with waiting dice rolled by its own next reveal."""
        if game.waiting_for_entropy:
            return game.preview(role, self._reveal(game, role).hex())
        return game.state

    def move(self, prefix: str, text: str, role: str | None = None) -> Entry:
        """Sign a decision (game syntax, or the number of a listed choice)."""
        return self.sign_move(self.plan_move(prefix, text, role))

    def sign_move(self, plan: MovePlan) -> Entry:
        """Sign, check, journal and store the entry `plan_move` prepared."""
        return self._append(plan.game, plan.fields, plan.role, plan.sealed)

    def dry_run_move(self, prefix: str, text: str, role: str | None = None) -> MovePlan:
        """Check a decision exactly as `move` would, signing, storing and writing nothing.

        The unsigned entry is applied to a fork of the game whose signature check is
        off: every other check (position, reveal, turn, rules, commitments) is the one a
        signed entry meets. Refused: EntryRefused, as `move` would be."""
        plan = self.plan_move(prefix, text, role)
        trial = plan.game.fork()
        trial.check_signature = lambda *_args: None
        trial.apply(Entry.build(plan.fields))
        return MovePlan(trial, plan.role, plan.fields, plan.sealed, plan.private)

    def plan_move(
        self, prefix: str, text: str, role: str | None = None, note: str | None = None
    ) -> MovePlan:
        """Everything `move` does before signing: parse, seal, the entry's fields."""
        game = self.game(prefix)
        role = self.acting_role(game, role)
        proposed = game.meta.takeback
        if proposed is not None:
            raise PbemError(
                f"{proposed[0]} proposed in entry {proposed[2]} to take back the entries "
                f"from {proposed[1]} on: answer it first (`pbem takeback {game.id[:12]} "
                "accept` or `decline`)"
            )
        state = self.state_for(game, role)
        if state is None:
            raise PbemError("play has not started: every role must join first")
        engine = game.engine
        # Decide on the state as this role knows it: its own sealed values filled in.
        state = engine.with_secrets(state, role, self.known(game.id, role))
        stripped = text.strip()
        if stripped.isdigit():
            choices = engine.choices(state, role)
            number = int(stripped)
            if not 1 <= number <= len(choices):
                raise PbemError(f"no choice {number}: there are {len(choices)}")
            decision = choices[number - 1]
        else:
            decision = engine.parse(stripped, state, role)
        public, values = engine.seal(state, role, decision)
        body: dict[str, JSON] = {"decision": engine.format(public)}
        if note is not None:  # a line to the opponent (pbem.core.meta), checked before signing
            body["note"] = check_note(note)
        sealed: list[tuple[str, str, JSON]] = []
        if values:
            vault = self._vault(game, role)
            commits: dict[str, JSON] = {}
            for label, value in values.items():
                if value == FRESH:  # the x of a private draw: only this key can know it
                    value = vault.fresh(label)
                salt = vault.salt(label)
                commits[label] = commitment(game.id, label, salt, value)
                sealed.append((label, salt, value))
            body["commit"] = commits
        due = engine.due_openings(state, role, public)
        if due:
            body["open"] = [self._opening(game, role, label) for label in due]
        fields = self._next_fields(game, MOVE, role)
        if sealed and game.double_blind and role == league.REFEREE:
            body[blind.DEAL] = self._deal(game, int(str(fields["seq"])), sealed)
        elif sealed and game.double_blind:
            body[blind.ESCROW] = self._escrow(game, role, int(str(fields["seq"])), sealed)
        fields["body"] = body
        own = engine.format(decision) if values else None
        return MovePlan(game, role, fields, sealed, own if own != body["decision"] else None)

    def _escrow(
        self, game: Adjudicator, role: str, seq: int, sealed: list[tuple[str, str, JSON]]
    ) -> str:
        """A double-blind move's openings sealed to the referee (pbem.core.blind): the same
        bytes every time this entry is signed (its ephemeral key derives from our key)."""
        from pbem.crypto.escrow import seal_derived
        from pbem.crypto.keyline import key_bytes

        text = blind.plaintext([Opening(*item).to_json() for item in sealed])
        secret = self._vault(game, role).escrow_secret()
        referee = key_bytes(game.roles[league.REFEREE])
        return seal_derived(secret, referee, text, blind.context(game.id, seq, role)).hex()

    def _deal(
        self, game: Adjudicator, seq: int, sealed: list[tuple[str, str, JSON]]
    ) -> dict[str, JSON]:
        """The referee's commitments for each side (`for/SIDE/...`), sealed to that side."""
        from pbem.crypto.escrow import seal_derived
        from pbem.crypto.keyline import key_bytes

        by_role: dict[str, list[JSON]] = {}
        for label, salt, value in sealed:
            role = blind.dealt_to(label)
            if role is None:
                raise PbemError(f"the referee commits values for a side only, not {label}")
            by_role.setdefault(role, []).append(Opening(label, salt, value).to_json())
        secret = self._vault(game, league.REFEREE).escrow_secret()
        return {
            role: seal_derived(
                secret,
                key_bytes(game.roles[role]),
                blind.plaintext(openings),
                blind.deal_context(game.id, seq, role),
            ).hex()
            for role, openings in sorted(by_role.items())
        }

    def _dealt(self, game: Adjudicator, role: str) -> dict[str, JSON]:
        """Label -> value of every value the referee of a double-blind game dealt `role`
        (its `deal` entries, opened with `role`'s key; each checked against the referee's
        commitment, and one that does not match is left out)."""
        from pbem.core.canonical import parse_canonical
        from pbem.core.commit import check_opening
        from pbem.crypto.escrow import open_sealed

        found: dict[str, JSON] = {}
        key = None
        for entry in game.entries:
            deal = entry.body.get(blind.DEAL) if entry.by == league.REFEREE else None
            sealed = deal.get(role) if isinstance(deal, dict) else None
            commits = entry.body.get("commit")
            if not isinstance(sealed, str) or not isinstance(commits, dict):
                continue
            key = key or self._seed_key_for(
                game.roles[role], f"opening the referee's deals to {role}"
            )
            try:
                text = open_sealed(
                    key, bytes.fromhex(sealed), blind.deal_context(game.id, entry.seq, role)
                )
                raw = parse_canonical(text)
            except PbemError:
                continue
            if not isinstance(raw, dict) or not isinstance(raw.get("open"), list):
                continue
            for item in raw["open"]:
                try:
                    opening = Opening.from_json(item)
                    check_opening(game.id, str(commits.get(opening.label, "")), opening)
                except PbemError:
                    continue
                found[opening.label] = opening.value
        return found

    def _double_blind(self, game_id: str) -> bool:
        """Whether a stored game is double-blind, from its genesis alone (no replay)."""
        rows = self.store.entries(game_id)
        if not rows:
            return False
        options = Entry.from_wire(rows[0]["canonical"], rows[0]["signature"]).body.get("options")
        return isinstance(options, dict) and options.get(league.DOUBLE_BLIND) is True

    def _referee_knows(self, game: Adjudicator) -> dict[str, JSON]:
        """Everything the referee of a double-blind game knows: every opening the players
        escrowed (opened with its key) and the values of every private draw. Kept for the
        head it was computed at (the referee asks at every step of its own)."""
        kept = self._referee_known.get(game.id)
        if kept is not None and kept[0] == game.head.id:
            return dict(kept[1])
        items = []
        for entry in game.entries:
            commits = entry.body.get("commit")
            if blind.ESCROW in entry.body and isinstance(commits, dict):
                pairs = tuple(sorted((str(k), str(v)) for k, v in commits.items()))
                items.append(blind.Escrowed(entry.seq, entry.by, str(entry.body["escrow"]), pairs))
        known: dict[str, JSON] = {}
        for _item, opened, _key, problem in self._opened_escrows(game, tuple(items)):
            if problem is None:
                known.update({one.label: one.value for one in opened})
        known.update(game.private_values_for(known))
        self._referee_known[game.id] = (game.head.id, dict(known))
        return known

    def _opening(self, game: Adjudicator, role: str, label: str) -> JSON:
        raw = self._open_secret(game, role, SEALED + label)
        if raw is None:
            raise StoreError(f"this store does not hold the value sealed as {label}")
        kept = json.loads(raw)
        return Opening(label, kept["salt"], kept["value"]).to_json()

    def sealed_opening(self, prefix: str, role: str, label: str) -> Opening:
        """The opening of a commitment `role` made from this store (needs the role's key:
        the store keeps it sealed)."""
        game = self.game(prefix)
        return Opening.from_json(self._opening(game, role, label))

    def known(self, game_id: str, role: str) -> dict[str, JSON]:
        """What `role` knows that others may not: label -> value of every commitment it made
        from this store, and key -> value of every private draw seeded by one of them."""
        kinds = [kind for kind, _value in self.store.secrets(game_id, role, SEALED)]
        if not kinds and not self._double_blind(game_id):
            return {}
        game = self._cache.get(game_id) or self._replay(game_id)
        own: dict[str, JSON] = {}
        for kind in kinds:
            kept = self._open_secret(game, role, kind)
            if kept is not None:
                own[kind[len(SEALED) :]] = json.loads(kept)["value"]
        own.update(game.private_values_for(own))
        if game.double_blind and role == league.REFEREE:
            own.update(self._referee_knows(game))
        elif game.double_blind:
            own.update(self._dealt(game, role))
        return own

    def ack(self, prefix: str, role: str | None = None) -> Entry:
        """Sign an empty acknowledgement that rolls the dice waiting for our reveal."""
        game = self.game(prefix)
        role = self.acting_role(game, role)
        fields = self._next_fields(game, ACK, role)
        if game.double_blind and role == league.REFEREE and game.escrows:
            for item, _opened, _key, problem in self._opened_escrows(game, game.escrows):
                if problem is not None:
                    raise PbemError(
                        f"entry {item.seq}'s escrow by {item.by} is false ({problem}): the "
                        "referee voids it instead of attesting it"
                    )
            fields["body"] = {blind.HELD: [item.seq for item in game.escrows]}
        return self._append(game, fields, role)

    # --- double-blind games: the referee's side (pbem.core.blind) ---------------------------

    def _opened_escrows(
        self, game: Adjudicator, items: tuple[blind.Escrowed, ...]
    ) -> list[tuple[blind.Escrowed, list[Opening], str, str | None]]:
        """Each escrow opened with the referee's key: (it, its openings, its message key in
        hex, what is false in it or None). Nothing is stored: the key and the log are
        enough to open them again (protocol section 8: no secret in the store alone)."""
        from pbem.core.canonical import parse_canonical
        from pbem.crypto.escrow import EscrowError, message_key, open_with_key

        key = None
        found: list[tuple[blind.Escrowed, list[Opening], str, str | None]] = []
        for item in items:
            key = key or self._seed_key_for(
                game.roles[league.REFEREE], "opening the escrows sealed to the referee"
            )
            sealed = bytes.fromhex(item.escrow)
            where = blind.context(game.id, item.seq, item.by)
            try:
                secret = message_key(key, sealed, where)
            except EscrowError:  # too short, or an unusable ephemeral key
                found.append((item, [], bytes(32).hex(), "it does not open"))
                continue
            try:
                text = open_with_key(secret, sealed, where)
            except EscrowError:
                found.append((item, [], secret.hex(), "it does not open"))
                continue
            problem = blind.false_in(game.id, text, item.commits)
            openings = []
            if problem is None:
                raw = parse_canonical(text)
                assert isinstance(raw, dict) and isinstance(raw["open"], list)
                openings = [Opening.from_json(one) for one in raw["open"]]
            found.append((item, openings, secret.hex(), problem))
        return found

    def blind_duties(self, prefix: str) -> list[Entry]:
        """What the referee of a double-blind game owes now besides acknowledgements,
        signed at once: a `void` for a false escrow not attested yet (in play, or in the
        last moves of a game now over); once the game is over, the `disclose` of every
        value still sealed, whatever it shows (a claim it shows false is the proof the log
        keeps: pbem.core.blind); and the answer to a player's dispute of one of its deals
        (its own key for the deal, which opens it). Nothing else: []."""
        game = self.game(prefix)
        if not game.double_blind or league.REFEREE not in self.my_roles(game):
            return []
        if not game.started or game.disclosed_at is not None:
            return []
        settled = game.blind_end
        if settled is not None:
            if settled.level == blind.DISPUTED and settled.item is not None:
                try:
                    return [self._answer_dispute(game, settled.item)]
                except PbemError:
                    return []  # not a deal this store sealed as the log holds it: no answer
            return []
        for item, _openings, key, problem in self._opened_escrows(game, game.escrows):
            if problem is not None:
                body: dict[str, JSON] = {"escrow_of": item.seq, "key": key}
                return [self._referee_entry(game, blind.VOID, body)]
        if game.outcome() is None or not game.unopened():
            return []
        return [self._referee_entry(game, blind.DISCLOSE, {"open": self._disclosed(game)})]

    def _answer_dispute(self, game: Adjudicator, item: blind.Escrowed) -> Entry:
        """The referee's answer to a player who says its deal does not open: the deal's
        message key, derived on the sender's side (pbem.crypto.escrow.sender_message_key)."""
        openings = [self._opening(game, league.REFEREE, label) for label, _digest in item.commits]
        key = self._sender_key(
            game,
            league.REFEREE,
            item.by,
            blind.plaintext(openings),
            blind.deal_context(game.id, item.seq, item.by),
            item.escrow,
        )
        body: dict[str, JSON] = {"deal_of": item.seq, "to": item.by, "key": key}
        return self._referee_entry(game, blind.UNSEAL, body)

    def _sender_key(
        self,
        game: Adjudicator,
        sender: str,
        recipient: str,
        plaintext: bytes,
        where: bytes,
        sealed_hex: str,
    ) -> str:
        """The message key (hex) of a message `sender` sealed from this store, checked to
        be the very message in the log."""
        from pbem.crypto.escrow import sender_message_key
        from pbem.crypto.keyline import key_bytes

        secret = self._vault(game, sender).escrow_secret()
        sealed, key = sender_message_key(secret, key_bytes(game.roles[recipient]), plaintext, where)
        if sealed.hex() != sealed_hex:
            raise PbemError(
                "this store did not seal that message as the log holds it: it cannot show its key"
            )
        return key.hex()

    def unseal(self, prefix: str, seq: int, role: str | None = None) -> Entry:
        """Publish the message key of one sealed message of a double-blind game, for
        anyone to open it (pbem.core.blind.check_unseal): the referee's latest deal to
        `role` that does not open or does not match (a dispute, while `role` is asked), or
        `role`'s own escrow of entry `seq` after the referee voided it on its word."""
        from pbem.crypto.escrow import EscrowError, message_key

        game = self.game(prefix)
        if not game.double_blind:
            raise PbemError("unseal belongs to double-blind games only")
        settled = game.blind_end
        voided = settled.item if settled is not None and settled.level == blind.VOID else None
        mine = self.my_roles(game)
        if role is None:
            # After a void the game is over and asks nobody: the voided escrow's author.
            mine_voided = voided is not None and voided.by in mine and voided.seq == seq
            role = voided.by if voided is not None and mine_voided else self.acting_role(game)
        if role not in mine:
            raise PbemError(f"you hold no key for role {role!r} in this game")
        if voided is not None and voided.seq == seq and voided.by == role:
            openings = [self._opening(game, role, label) for label, _digest in voided.commits]
            key = self._sender_key(
                game,
                role,
                league.REFEREE,
                blind.plaintext(openings),
                blind.context(game.id, seq, role),
                voided.escrow,
            )
            body: dict[str, JSON] = {"escrow_of": seq, "key": key}
        else:
            deal = next((item for item in game.deals if item.by == role), None)
            if deal is None or deal.seq != seq:
                raise PbemError(
                    f"entry {seq} holds neither the referee's latest deal to {role} nor an "
                    f"escrow of {role}'s that the referee voided on its word"
                )
            try:
                key = message_key(
                    self._seed_key_for(game.roles[role], "opening the referee's deal"),
                    bytes.fromhex(deal.escrow),
                    blind.deal_context(game.id, seq, role),
                ).hex()
            except EscrowError as exc:
                raise PbemError(f"the deal in entry {seq} cannot be opened at all: {exc}") from None
            body = {"deal_of": seq, "to": role, "key": key}
        fields = self._next_fields(game, blind.UNSEAL, role)
        fields["body"] = body
        return self._append(game, fields, role)

    def deal_problem(self, game: Adjudicator, role: str) -> tuple[int, str] | None:
        """(seq, what is wrong) when the referee's latest deal to `role` does not open with
        `role`'s key or does not match the referee's commitments: the player cannot act on
        it, and answers it by publishing its key (`unseal`); else None."""
        from pbem.crypto.escrow import EscrowError, open_sealed

        deal = next((item for item in game.deals if item.by == role), None)
        if deal is None or not game.double_blind or role not in self.my_roles(game):
            return None
        where = blind.deal_context(game.id, deal.seq, role)
        try:
            text = open_sealed(
                self._seed_key_for(game.roles[role], "opening the referee's deal"),
                bytes.fromhex(deal.escrow),
                where,
            )
        except EscrowError:
            return deal.seq, f"the referee's deal in entry {deal.seq} does not open with your key"
        problem = blind.false_in(game.id, text, deal.commits)
        if problem is None:
            return None
        return deal.seq, f"the referee's deal in entry {deal.seq} does not match: {problem}"

    def _disclosed(self, game: Adjudicator) -> list[JSON]:
        """The openings of every value still sealed, from the escrows in the log."""
        still = {sealed.label for sealed in game.unopened()}
        items = []
        for entry in game.entries:
            commits = entry.body.get("commit")
            if blind.ESCROW in entry.body and isinstance(commits, dict) and still & set(commits):
                pairs = tuple(sorted((str(k), str(v)) for k, v in commits.items()))
                items.append(blind.Escrowed(entry.seq, entry.by, str(entry.body["escrow"]), pairs))
        openings: list[JSON] = [
            self._opening(game, league.REFEREE, sealed.label)
            for sealed in game.unopened()
            if sealed.role == league.REFEREE
        ]
        for item, opened, _key, problem in self._opened_escrows(game, tuple(items)):
            if problem is not None:
                raise PbemError(f"entry {item.seq}'s escrow by {item.by} is false: {problem}")
            openings += [one.to_json() for one in opened if one.label in still]
        return sorted(openings, key=lambda one: str(one["label"]))

    def _referee_entry(self, game: Adjudicator, kind: str, body: dict[str, JSON]) -> Entry:
        fields = self._next_fields(game, kind, league.REFEREE)
        fields["body"] = body
        return self._append(game, fields, league.REFEREE)

    # --- resignations and draws (pbem.core.meta: handled by the adjudicator, every game) ---

    def resign(self, prefix: str, role: str | None = None, note: str | None = None) -> Entry:
        """Sign a resignation: the game ends, the other side wins."""
        return self._meta_entry(prefix, role, {"resign": True}, "resign", note)

    def offer_draw(self, prefix: str, role: str | None = None, note: str | None = None) -> Entry:
        """Sign a draw offer of its own (it is still your turn after it); the other side's
        next entry accepts it (`accept_draw`) or, whatever else it is, declines it."""
        return self._meta_entry(prefix, role, {"draw": "offer"}, "offer a draw", note)

    def accept_draw(self, prefix: str, role: str | None = None, note: str | None = None) -> Entry:
        """Sign the acceptance of the other side's open draw offer: the game ends drawn."""
        return self._meta_entry(prefix, role, {"draw": "accept"}, "accept a draw", note)

    def propose_takeback(
        self, prefix: str, to: int, role: str | None = None, note: str | None = None
    ) -> Entry:
        """Propose taking back the latest entries from `to` on (only those with no dice,
        sealed value, opening or draw: yours and the other side's); the answer is the
        other side's (`answer_takeback`), and nothing else can be signed before it."""
        return self._meta_entry(prefix, role, {"takeback": to}, "propose a take-back", note)

    def answer_takeback(
        self, prefix: str, accept: bool, role: str | None = None, note: str | None = None
    ) -> Entry:
        """Accept (the game returns to the state before the entries taken back) or decline
        the take-back the other side proposed."""
        value = "accept" if accept else "decline"
        return self._meta_entry(prefix, role, {"takeback": value}, f"{value} a take-back", note)

    def forfeit(
        self, prefix: str, since: datetime, seen: datetime, note: str | None = None
    ) -> Entry:
        """As the game's referee, sign the forfeit of the player the game waits for: its
        deadline ran from `since` (when the referee saw the head entry) and has passed by
        `seen`, both by the referee's clock (pbem.core.referee)."""
        game = self.game(prefix)
        if league.REFEREE not in self.my_roles(game):
            raise PbemError("only the game's referee signs a forfeit, and you hold no referee key")
        if game.deadline is None:
            raise PbemError(f"game {game.id[:12]} sets no deadline: nobody can forfeit it")
        deadline = since + timedelta(hours=game.deadline)
        body: dict[str, JSON] = {
            "forfeit": str(game.next_signer()),
            "waited_on": {"seq": game.head.seq, "id": game.head.id},
            "since": league.format_time(since),
            "deadline": league.format_time(deadline),
            "seen": league.format_time(seen),
        }
        if note is not None:
            body["note"] = check_note(note)
        fields = self._next_fields(game, league.FORFEIT, league.REFEREE)
        fields["body"] = body
        return self._append(game, fields, league.REFEREE)

    def _meta_entry(
        self, prefix: str, role: str | None, body: dict[str, JSON], what: str, note: str | None
    ) -> Entry:
        """A move with no decision, signed only by the role that signs next (protocol
        section 8: one signer at a time); refused with one line saying when it can."""
        game = self.game(prefix)
        mine = [r for r in self.my_roles(game) if r in game.sides]
        if role is not None and role not in mine:
            raise PbemError(f"you hold no key for a side {role!r} of this game")
        if not mine:
            raise PbemError(f"you hold no side of this game, so you cannot {what}")
        outcome = game.outcome()
        if outcome is not None:
            raise PbemError(f"the game is over ({outcome.text}): nothing to {what}")
        nxt = game.next_signer()
        if not game.started or nxt not in (mine if role is None else [role]):
            doing = "; ".join(f"{p.role}: {p.text}" for p in game.prompts()) or "nobody"
            raise PbemError(
                f"you can {what} only when you sign the next entry, and {nxt} signs it now "
                f"({doing}); {what} once their entry reaches you"
            )
        if body.get("draw") == "accept" and (game.meta.offer_by in (None, nxt)):
            raise PbemError("there is no draw offer of the other side to accept")
        if note is not None:
            body["note"] = check_note(note)
        fields = self._next_fields(game, MOVE, str(nxt))
        fields["body"] = body
        return self._append(game, fields, str(nxt))

    def _append(
        self,
        game: Adjudicator,
        fields: dict[str, JSON],
        role: str,
        sealed: list[tuple[str, str, JSON]] | None = None,
    ) -> Entry:
        vault = self._vault(game, role)
        index = game.next_reveal_index(role)
        entry = self._sign(fields, game.roles[role])
        with self.changing():
            # Another pbem command on this store may have stored this seq since the replay:
            # refuse before the journal records an entry that will never be stored.
            if self.store.has_entry(game.id, entry.seq):
                raise StoreError(GAME_CHANGED)
            game.apply(entry)  # our own entry passes the same checks as anyone's
            # On disk in the key's journal before the store keeps it or anyone sees it.
            self._journal(game, role).record(entry, slot_of(entry, index))
            for label, salt, value in sealed or []:
                kept = json.dumps({"salt": salt, "value": value}, sort_keys=True)
                self.store.put_secret(
                    game.id, role, SEALED + label, vault.seal(SEALED + label, kept)
                )
            self._store_entry(game.id, entry)
        return entry

    # --- receiving ------------------------------------------------------------------------

    def apply_entries(
        self, found: list[Entry], extra_data: Mapping[str, bytes] | None = None
    ) -> list[Applied]:
        """Apply entries from a move file, in seq order per game, as one transaction.

        A copy whose signature fails beside a copy of the same entry that verifies is an
        outsider's noise (pbem.noise): set aside, never applied, never the file's failure
        (status "set aside")."""
        from pbem.noise import set_aside

        extra = {data_digest(c): c for c in (extra_data or {}).values()}
        results: list[Applied] = []
        games: dict[str, Adjudicator] = {}
        kept, _counts = set_aside(found, self._stored_geneses(found))
        kept_ids = {id(entry) for entry in kept}
        results += [Applied(e, NOISE) for e in found if id(e) not in kept_ids]
        ordered = sorted(kept, key=lambda e: (e.kind != GENESIS, e.seq))
        with self.changing():
            for entry in ordered:
                game_id = entry.id if entry.kind == GENESIS else str(entry.game)
                if entry.kind == GENESIS and not self.store.has_game(game_id):
                    games[game_id] = self.start_from(entry, extra)
                    results.append(Applied(entry, "applied"))
                    continue
                if not self.store.has_game(game_id):
                    raise PbemError(
                        f"{entry.describe()} belongs to game {game_id[:12]}, unknown here "
                        "(apply its genesis first)"
                    )
                if game_id not in games:
                    games[game_id] = self._replay(game_id)
                _check_no_gap(games[game_id], entry)
                results.append(Applied(entry, self.apply_one(games[game_id], entry)))
        return results

    def _stored_geneses(self, found: list[Entry]) -> dict[str, Entry]:
        """The stored geneses of the games `found` names more than once at one seq (only
        those: a file without copies reads none)."""
        seen: set[tuple[str, int]] = set()
        twice: set[str] = set()
        for entry in found:
            if entry.kind == GENESIS:
                continue
            key = (str(entry.game), entry.seq)
            if key in seen:
                twice.add(key[0])
            seen.add(key)
        known = {}
        for game_id in twice:
            if self.store.has_game(game_id):
                row = self.store.entries(game_id)[0]
                known[game_id] = Entry.from_wire(row["canonical"], row["signature"])
        return known

    def start_from(self, genesis: Entry, extra: Mapping[str, bytes]) -> Adjudicator:
        """Store a game new to this store from its genesis (`extra`: data files by digest).
        Inside the caller's `changing()` transaction."""
        game = Adjudicator.start(
            genesis, engine_by_name, data_source(extra), _signature_check(), tables=DISK_TABLES
        )
        self.store.add_game(game.id, game.engine.name, str(genesis.body.get("title")))
        self._store_entry(game.id, genesis)
        for name, digest in dict(genesis.body["data"]).items():
            if str(digest) in extra:
                self.store.add_data_file(str(digest), name, extra[str(digest)])
        return game

    def apply_one(self, game: Adjudicator, entry: Entry) -> str:
        """Apply and store one entry at or before the head of `game`: "applied", or
        "already had" for a copy of a stored entry. A different entry at a stored seq is an
        equivocation (with its proof) or refused. Inside the caller's `changing()`."""
        if entry.seq < len(game.entries):
            known = game.entries[entry.seq]
            if known.id == entry.id:
                return "already had"
            proof = find_equivocation(game.genesis, [known, entry])
            if proof is not None:
                raise EquivocationError(proof.proof())
        game.apply(entry)  # refused here: a stale head, damage, an illegal move
        self._store_entry(game.id, entry)
        return "applied"

    # --- automatic answers and standing orders ----------------------------------------------

    def _order_role(self, game: Adjudicator, role: str | None) -> str:
        mine = self.my_roles(game)
        if role is not None:
            if role not in mine:
                raise PbemError(f"you hold no key for role {role!r} in this game")
            return role
        if len(mine) != 1:
            held = ", ".join(mine) or "none"
            raise PbemError(f"say which role's orders with --role (yours here: {held})")
        return mine[0]

    def orders(self, prefix: str, role: str | None = None) -> tuple[str, dict[str, str]]:
        """(role, its standing orders in the game: name -> argument)."""
        game = self.game(prefix)
        role = self._order_role(game, role)
        return role, self.store.orders(game.id, role)

    def set_order(self, prefix: str, name: str, argument: str, role: str | None = None) -> str:
        """Set one of `role`'s standing orders; returns the argument in normal form."""
        game = self.game(prefix)
        role = self._order_role(game, role)
        table = game.engine.standing_orders()
        if name not in table:
            known = ", ".join(sorted(table)) or "none"
            raise PbemError(f"{game.engine.title} has no standing order {name!r} (it has: {known})")
        normal = str(table[name].read(argument))
        with self.changing():
            self.store.set_order(game.id, role, name, normal)
        return normal

    def clear_orders(self, prefix: str, name: str | None = None, role: str | None = None) -> int:
        """Forget one standing order of `role`, or all of them; how many were set."""
        game = self.game(prefix)
        role = self._order_role(game, role)
        with self.changing():
            return self.store.clear_order(game.id, role, name)

    def automatic_answer(
        self, game: Adjudicator, role: str, use_orders: bool = True
    ) -> Answer | None:
        """What `role`'s client would sign now without asking (pbem.answers), or None."""
        from pbem.answers import automatic

        if not game.started or game.outcome() is not None or not game.asked(role):
            return None
        if game.meta.offer_by not in (None, role) or game.meta.takeback is not None:
            return None  # a draw offer or a take-back to answer: the person's choice
        if role == league.REFEREE and game.waiting_for_entropy:
            # The referee rolls first and decides after: a decision of its own (a double-blind
            # game's deal) reads the private draws this very entry would produce.
            from pbem.answers import ACKNOWLEDGE, Answer

            return Answer(None, ACKNOWLEDGE)
        state = self.state_for(game, role)
        state = game.engine.with_secrets(state, role, self.known(game.id, role))
        orders = self.store.orders(game.id, role) if use_orders else {}
        return automatic(game.engine, state, role, orders, dice_waiting=game.waiting_for_entropy)

    def answer_automatically(
        self, prefix: str, use_orders: bool = True, limit: int = 1000
    ) -> list[tuple[Entry, str]]:
        """Sign every answer this store's roles give without a person (dice
        acknowledgements, only choices, standing orders), until a person must decide or
        the other side must sign. Each is one `move`/`ack`: checked, journalled and
        stored like a typed one. An answer the rules refuse (it should not happen) is
        left to the person. Returns (entry, why it needed no person)."""
        made: list[tuple[Entry, str]] = []
        for _ in range(limit):
            game = self.game(prefix)
            role = game.next_signer() if game.started else None
            if role is None or role not in self.my_roles(game):
                break
            answer = self.automatic_answer(game, role, use_orders)
            if answer is None:
                break
            if answer.is_ack:
                entry = self.ack(prefix, role)
            else:
                try:
                    plan = self.plan_move(prefix, game.engine.format(answer.decision), role)
                    entry = self.sign_move(plan)
                except (EntryRefused, InvalidOrderError, IllegalOrderError):
                    break
            made.append((entry, answer.reason))
        return made

    def unsent(self, prefix: str, since: int | None = None) -> list[Entry]:
        """This store's entries the other side has not answered: every entry of our roles
        after the last entry of another role (one mail or move file carries them all;
        sending one twice is harmless, `apply` says "already had").

        A store that holds every role (a hot seat) has no other side: then only the
        entries from seq `since` on (those the command just signed), or none."""
        game = self.game(prefix)
        mine = set(self.my_roles(game))
        if mine >= set(game.roles):
            return [] if since is None else list(game.entries[since:])
        found: list[Entry] = []
        for entry in reversed(game.entries):
            if entry.by not in mine:
                break
            found.append(entry)
        return found[::-1]

    def export(self, prefix: str) -> str:
        from pbem.ledger import fingerprint
        from pbem.transport.savefile import save_text

        game = self.game(prefix)
        title = str(game.genesis.body.get("title") or game.engine.title)
        prints = {role: fingerprint(line) for role, line in game.roles.items()}
        return save_text(game, title, prints)

    def unreceived(self, prefix: str, found: list[Entry], signer: str | None = None) -> list[Entry]:
        """Of `found` (a file's entries, the file about to be overwritten with a move file
        of this game), those the other side may not have and that the new move file will
        not carry: entries not in this store's log, or in it with no later entry of another
        role (which shows that they were received), counting the entry `signer` is about to
        sign. Unanswered entries of ours are carried again (`unsent`); another game's
        entries are not this game's to keep."""
        game = self.game(prefix)
        log = game.entries
        carried = {entry.id for entry in self.unsent(prefix, since=len(log))}
        unseen = []
        for entry in found:
            if (entry.id if entry.seq == 0 else entry.game) != game.id or entry.id in carried:
                continue
            answered = entry.seq < len(log) and log[entry.seq].id == entry.id
            later = [e.by for e in log[entry.seq + 1 :]] + ([signer] if signer else [])
            if not (answered and any(by != entry.by for by in later)):
                unseen.append(entry)
        return unseen


def _signature_check():  # type: ignore[no-untyped-def]
    from pbem.ledger import check_signature

    return check_signature


def _check_no_gap(game: Adjudicator, entry: Entry) -> None:
    """Refuse an entry that comes after entries this store has not received, saying
    which ones are missing and how to get them."""
    have = len(game.entries)
    if entry.seq <= have:
        return
    missing = f"entry {have}" if entry.seq == have + 1 else f"entries {have} to {entry.seq - 1}"
    raise PbemError(
        f"{entry.describe()} does not follow the head: this store's log of game "
        f"{game.id[:12]} ends at entry {have - 1}, so {missing} "
        f"{'is' if entry.seq == have + 1 else 'are'} missing; apply the move files sent "
        f"before this one, or ask the other side for `pbem export {game.id[:12]} --since "
        f"{have}`"
    )


def _by_digest(files: Mapping[str, bytes]) -> dict[str, bytes]:
    return {data_digest(content): content for content in files.values()}


def _write_public_line(private_path: Path, line: str) -> None:
    """(Re)write NAME.pub beside an adopted private key, atomically."""
    from pbem.files import write_atomically

    pub = private_path.with_name(private_path.name + ".pub")
    data = (line + "\n").encode()
    if not pub.exists() or pub.read_bytes() != data:
        write_atomically(pub, data, 0o644)


def _no_key_for(roles: Mapping[str, str], keys: list[dict[str, Any]]) -> str:
    """Why a join found no role of ours: the keys the game expects and the ones we hold."""
    from pbem.crypto.keys import PublicKey

    expected = ", ".join(
        f"{role} {PublicKey.parse_line(line).fingerprint()}" for role, line in roles.items()
    )
    held = [f"{k['name']} {k['fingerprint']}" for k in keys if k["private_path"]]
    return (
        f"this store holds the private key of no role in this game: it expects {expected}; "
        f"your private keys: {', '.join(held) if held else 'none'} (see `pbem key list`)"
    )


def _holds_key(path: Path, public_line: str) -> bool:
    """Whether the key file `path` is the private half of `public_line`: told by the .pub
    line beside it, else by reading the file when it needs no passphrase. (Signing checks
    the key it loads again.)"""
    from pbem.crypto.keys import PublicKey, load_private_key

    wanted = PublicKey.parse_line(public_line).raw
    try:
        pub = path.with_name(path.name + ".pub").read_text("utf-8", errors="replace")
        if PublicKey.parse_line(pub.strip()).raw == wanted:
            return True
    except (OSError, PbemError):
        pass
    try:
        return load_private_key(path.read_bytes(), None).public.raw == wanted
    except (OSError, PbemError):  # missing, unreadable, or protected by a passphrase
        return False


def _agent_note() -> str:
    """What a missing key file's error adds about ssh-agent, which could have signed."""
    from pbem.crypto.agent import socket_path

    if socket_path() is None:
        return " (and no ssh-agent: SSH_AUTH_SOCK is not set)"
    return " (and ssh-agent does not hold the key)"


def _check_key_name(name: str) -> None:
    if not name or not all(c.isalnum() or c in "-_." for c in name) or name.startswith("."):
        raise PbemError(f"key name {name!r}: use letters, digits, '-', '_' and '.'")
