"""A store's keys and what they unlock (`KeyRing`, the lowest layer of pbem.client.Client):
key pairs made, imported and removed; key files found again after the store folder moved;
ssh-agent signing the keys it holds; the roles of a game this store plays; each role's
vault of a game's secrets (derived from its key, or sealed under it) and the signing
journal of each key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.core.adjudicator import Adjudicator
from pbem.core.log import Entry
from pbem.errors import PbemError, StoreError
from pbem.store import Store
from pbem.store.journal import Journal
from pbem.store.vault import Vault, is_sealed

if TYPE_CHECKING:
    from pbem.crypto.keys import PrivateKey, Signer

Passphrase = Callable[[str], bytes | None]


class KeyRing:
    """The keys of one local Store, read once per process (a passphrase is asked once per
    key and process)."""

    def __init__(self, store: Store, passphrase: Passphrase | None = None) -> None:
        self.store = store
        self._passphrase = passphrase or (lambda _name: None)
        # Keys read in this process (by raw public key, with their file: a key file's, or
        # ssh-agent's) and the vaults derived from them: a passphrase is asked once per key
        # and process. `_seeds`: key files read for their seed when the agent signs.
        self._keys: dict[bytes, tuple[Signer, Path]] = {}
        self._seeds: dict[bytes, PrivateKey] = {}
        self._vaults: dict[tuple[str, str], Vault] = {}

    @contextmanager
    def changing(self) -> Iterator[None]:
        """One store transaction (pbem.signing's also forgets the games it replayed, if
        the transaction does not commit)."""
        with self.store.transaction():
            yield

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

    def my_roles(self, game: Adjudicator) -> list[str]:
        return [role for role, line in game.roles.items() if self.owns_private_key(line)]

    # --- what the keys unlock: vaults and signing journals --------------------------------

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

    def open_vault(self, game_id: str, role: str) -> Vault | None:
        """The role's vault in this game if this client has already opened it, else None
        (never opened here: opening one may ask for a passphrase)."""
        return self._vaults.get((game_id, role))

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


def _write_public_line(private_path: Path, line: str) -> None:
    """(Re)write NAME.pub beside an adopted private key, atomically."""
    from pbem.files import write_atomically

    pub = private_path.with_name(private_path.name + ".pub")
    data = (line + "\n").encode()
    if not pub.exists() or pub.read_bytes() != data:
        write_atomically(pub, data, 0o644)


def no_key_for(roles: Mapping[str, str], keys: list[dict[str, Any]]) -> str:
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
