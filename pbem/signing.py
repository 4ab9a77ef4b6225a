"""The signing core of pbem.client.Client (`SigningCore`): stored games replayed (and kept
between calls, in this process), new games, joins, moves and acknowledgements made,
signed, checked on the game's log, journalled and stored, and the entries that arrive in
move files applied.

Each call that changes the store is one transaction: a refused entry leaves the store
exactly as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from pbem.blind_side import BlindSide
from pbem.core import blind, chain
from pbem.core import referee as league
from pbem.core.adjudicator import Adjudicator, data_digest
from pbem.core.canonical import JSON
from pbem.core.commit import Opening, commitment
from pbem.core.engine import FRESH
from pbem.core.log import ACK, GENESIS, JOIN, MOVE, VERSION, Entry
from pbem.core.meta import check_note
from pbem.errors import EquivocationError, PbemError, StoreError
from pbem.keyring import Passphrase, no_key_for
from pbem.ledger import DISK_TABLES, data_source, engine_by_name, find_equivocation
from pbem.record import Record
from pbem.store import Store
from pbem.store.journal import slot_of
from pbem.store.store import GAME_CHANGED
from pbem.store.vault import is_sealed

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

    def holds(self, game_id: str) -> bool:
        """Whether a replay of `game_id` is kept in this process."""
        return bool(self._games.get(game_id))

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


class Applied(Record, fields=("entry", "status")):
    """What happened to one entry found in a move file."""

    entry: Entry
    status: str  # "applied", "already had", NOISE

    def __init__(self, entry: Entry, status: str) -> None:
        fields = self.__dict__
        fields["entry"] = entry
        fields["status"] = status


class NotStreamed(PbemError):
    """`SigningCore.apply_stream` cannot vouch for its entries as they come (not one game's
    entries in log order, or something refused): it stored nothing, and the caller applies
    them the in-memory way (`apply_entries`), which says exactly what is wrong."""


class MovePlan(Record, fields=("game", "role", "fields", "sealed", "private")):
    """A move made ready to sign (`Client.plan_move`), or checked without signing
    (`Client.dry_run_move`): `game` is the game it applies to (after `dry_run_move`, a
    fork that holds the unsigned entry)."""

    game: Adjudicator
    role: str
    fields: dict[str, JSON]
    sealed: list[tuple[str, str, JSON]]
    private: str | None  # the owner's own decision text when sealing hid part of it

    def __init__(
        self,
        game: Adjudicator,
        role: str,
        fields: dict[str, JSON],
        sealed: list[tuple[str, str, JSON]],
        private: str | None,
    ) -> None:
        values = self.__dict__
        values["game"] = game
        values["role"] = role
        values["fields"] = fields
        values["sealed"] = sealed
        values["private"] = private

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


class SigningCore(BlindSide):
    """A store's games, and the entries its keys sign in them (a layer of
    pbem.client.Client, above its keys and its double-blind side)."""

    def __init__(
        self,
        store: Store,
        passphrase: Passphrase | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        super().__init__(store, passphrase)
        # This user's clock (UTC): the time a genesis says its game was made, and what a
        # referee compares it with before joining (an unattended referee sets its own).
        self.clock: Callable[[], datetime] = clock or _utc_now
        # Replayed games kept between calls of one process; checked against the store's
        # head on every use and dropped whenever a change fails to commit.
        self._cache: dict[str, Adjudicator] = {}

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
        import secrets  # (here: only a new game needs its nonce)

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
            raise PbemError(no_key_for(game.roles, self.store.list_keys()))
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

    # --- entries made and signed ----------------------------------------------------------

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
        stored = self.store.secrets(game_id, role, SEALED)
        if not stored and not self._double_blind(game_id):
            return {}
        game = self._cache.get(game_id) or self._replay(game_id)
        own: dict[str, JSON] = {}
        if stored:
            # The values read above, opened with one vault (a store may hold hundreds); a
            # value kept in plain text by an earlier version is as _open_secret gives it,
            # and sealed by the vault's first use.
            vault = self._vault(game, role)
            for kind, value in stored:
                kept = vault.open(kind, value) if is_sealed(value) else value
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

    def apply_stream(
        self,
        found: Iterable[Entry],
        extra_data: Mapping[str, bytes] | None = None,
        each: Callable[[Applied], None] | None = None,
    ) -> Adjudicator:
        """Apply one game's entries as they come, in one transaction, keeping none of them:
        the streamed twin of `apply_entries` for a long log (a save, a move file).

        Only entries in log order are taken so: one game's, each seq above the one
        before, a genesis only first. A game new to this store is replayed lean
        (pbem.core.replay: its entries are checked and stored, not kept); a stored one
        as `game` replays it. `each` hears what became of every entry, in order, before
        the transaction commits (a caller that reports only what was stored keeps its
        lines until this returns). Returns the game as applied (lean when new).

        Anything else, and any refusal, raises NotStreamed once the transaction has rolled
        back: nothing is stored, and the caller applies the entries with `apply_entries`,
        which gives the same results to entries it takes (sorted by seq, none set aside:
        one entry per seq) and says what is wrong with the rest, in its own words."""
        extra = {data_digest(c): c for c in (extra_data or {}).values()}
        game: Adjudicator | None = None
        last = -1
        try:
            with self.changing():
                for entry in found:
                    game_id = entry.id if entry.kind == GENESIS else str(entry.game)
                    if game is None:
                        if entry.kind == GENESIS and not self.store.has_game(game_id):
                            game = self.start_from(entry, extra, lean=True)
                            status = "applied"
                        elif self.store.has_game(game_id):
                            game = self._replay(game_id)
                            _check_no_gap(game, entry)
                            status = self.apply_one(game, entry)
                        else:
                            raise NotStreamed(f"{entry.describe()}: game not stored")
                    elif game_id != game.id or entry.kind == GENESIS or entry.seq <= last:
                        raise NotStreamed(f"{entry.describe()}: not in log order")
                    else:
                        _check_no_gap(game, entry)
                        status = self.apply_one(game, entry)
                    last = entry.seq
                    if each is not None:
                        each(Applied(entry, status))
                if game is None:
                    raise NotStreamed("no entries")
        except NotStreamed:
            raise
        except PbemError as exc:
            raise NotStreamed(str(exc)) from exc
        return game

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

    def start_from(
        self, genesis: Entry, extra: Mapping[str, bytes], lean: bool = False
    ) -> Adjudicator:
        """Store a game new to this store from its genesis (`extra`: data files by digest).
        Inside the caller's `changing()` transaction. `lean`: the game keeps none of its
        entries (pbem.core.replay), for a caller that applies a long log to it and then
        drops it: `apply_one`, `entry_at` and `unsent` read them from the store."""
        game = Adjudicator.start(
            genesis,
            engine_by_name,
            data_source(extra),
            _signature_check(),
            lean=lean,
            tables=DISK_TABLES,
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
        equivocation (with its proof) or refused. Inside the caller's `changing()`. `game`
        may be lean (`start_from`)."""
        if entry.seq < game.entry_count:
            if game.entry_id(entry.seq) == entry.id:
                return "already had"
            known = self.entry_at(game, entry.seq)
            proof = find_equivocation(game.genesis, [known, entry])
            if proof is not None:
                raise EquivocationError(proof.proof())
        game.apply(entry)  # refused here: a stale head, damage, an illegal move
        self._store_entry(game.id, entry)
        return "applied"

    def entry_at(self, game: Adjudicator, seq: int) -> Entry:
        """The entry `seq` of `game`'s log: its own, or the store's when the game is lean
        (the store holds every entry the game applied, in this transaction too)."""
        if not game.lean:
            return game.entries[seq]
        found = self.store.entry_bytes(game.id, seq)
        if found is None:
            raise StoreError(f"game {game.id[:12]} has no entry {seq} in the store")
        return Entry.from_wire(*found)


def _signature_check():  # type: ignore[no-untyped-def]
    from pbem.ledger import check_signature

    return check_signature


def _check_no_gap(game: Adjudicator, entry: Entry) -> None:
    """Refuse an entry that comes after entries this store has not received, saying
    which ones are missing and how to get them."""
    have = game.entry_count
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
