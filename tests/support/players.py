"""Shared helpers for protocol tests: hand-signed entries on an Adjudicator, and two Clients.

`Table` plays the part of every role itself: it makes the keys, the genesis, each role's
hash chain, and builds and signs any entry (good or deliberately bad) on the current head,
so that tests can feed the adjudicator exactly what they want.

`Duo` is a whole toy game between two Client stores that exchange move files, as players do.

The module also registers "toy-solo", a one-role engine (`roll` a d6, or `pass` without
dice; the game ends after `rounds` rolls) for self-witnessed dice and long chains.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.bots import choose
from pbem.client import Client
from pbem.core import chain
from pbem.core.adjudicator import Adjudicator, data_digest
from pbem.core.canonical import JSON
from pbem.core.commit import Opening, commitment
from pbem.core.engine import FRESH, Context, Engine, Outcome, Prompt, State, register
from pbem.core.log import ACK, GENESIS, JOIN, MOVE, VERSION, Entry
from pbem.core.rng import Stream, public_seed
from pbem.crypto import sshsig
from pbem.crypto.keys import PrivateKey, load_private_key
from pbem.errors import IllegalOrderError, InvalidOrderError, PbemError
from pbem.ledger import check_signature, data_source, engine_by_name
from pbem.store import Store
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries

# --- a one-role engine ----------------------------------------------------------------------


@dataclass(frozen=True)
class SoloDecision:
    roll: bool


class SoloDice(Engine):
    """Solo dice: one role rolls a d6 (or passes) until it has rolled `rounds` times."""

    name = "toy-solo"
    title = "Solo dice"
    version = "1"
    roles = ("solo",)
    required_roles = ("solo",)
    data_files = ("solo.toml",)

    def default_data(self) -> dict[str, bytes]:
        return {"solo.toml": b"rounds = 2\n"}

    def load_data(self, files: Mapping[str, bytes]) -> Any:
        import tomllib

        return tomllib.loads(files["solo.toml"].decode())

    def setup(self, data: Any, options: Mapping[str, Any]) -> State:
        return {"turn": 1, "left": data["rounds"], "score": 0, "passes": 0}

    def prompts(self, state: State) -> list[Prompt]:
        return [] if state["left"] == 0 else [Prompt("solo", "roll or pass")]

    def choices(self, state: State, role: str) -> list[Any]:
        return [SoloDecision(True), SoloDecision(False)] if state["left"] else []

    def parse(self, text: str, state: State, role: str) -> Any:
        if text.split() == ["roll"]:
            return SoloDecision(True)
        if text.split() == ["pass"]:
            return SoloDecision(False)
        raise InvalidOrderError(f"{text!r}: expected 'roll' or 'pass'")

    def format(self, decision: Any) -> str:
        return "roll" if decision.roll else "pass"

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        if not state["left"]:
            raise IllegalOrderError("the game is over")
        new = copy.deepcopy(state)
        if decision.roll:
            new["score"] += ctx.roll(1, 6, "solo die")
            new["left"] -= 1
            new["turn"] += 1
        else:
            new["passes"] += 1
        return new

    def view(self, state: State, role: str | None) -> State:
        return copy.deepcopy(state)

    def outcome(self, state: State) -> Outcome | None:
        if state["left"]:
            return None
        return Outcome("solo", "done", {"solo": state["score"]}, f"score {state['score']}")


SOLO = SoloDice()
register("toy-solo", "tests.support.players:SOLO")


# --- entries made by hand -------------------------------------------------------------------


def hex_of(*parts: bytes) -> str:
    """A deterministic 32-byte hex string (for made-up reveals, anchors, salts)."""
    return hashlib.sha256(b"".join(parts)).hexdigest()


def dice(game_id: str, requesting_id: str, reveal: str, count: int = 1) -> list[int]:
    """The d6 values of section 7 for draws requested by one entry and produced by a reveal."""
    stream = Stream(public_seed(game_id, requesting_id, reveal))
    return [stream.between(1, 6) for _ in range(count)]


def sign_entry(key: PrivateKey, fields: dict[str, JSON]) -> Entry:
    unsigned = Entry.build(fields)
    return unsigned.with_signature(sshsig.sign(key, unsigned.canonical))


def no_signature_check(public_line: str, message: bytes, signature: bytes) -> None:
    """For tests that need thousands of entries: accept every signature."""


_DROP = object()


class Table:
    """Every role of one game, played by hand on one Adjudicator."""

    def __init__(
        self,
        rules: str = "toy-dice",
        roles: tuple[str, ...] = ("a", "b"),
        *,
        keys: Mapping[str, PrivateKey] | None = None,
        length: int = chain.MIN_LENGTH,
        signed: bool = True,
        options: Mapping[str, JSON] | None = None,
        nonce: str = "",
        data: Mapping[str, bytes] | None = None,
    ) -> None:
        self.engine: Engine = engine_by_name(rules)
        self.roles = roles
        self.keys: dict[str, PrivateKey] = dict(keys) if keys else {}
        for role in roles:
            # Keys derived from the nonce: the same nonce plays the same game every run.
            seed = bytes.fromhex(hex_of(b"key", role.encode(), nonce.encode()))
            self.keys.setdefault(role, PrivateKey(Ed25519PrivateKey.from_private_bytes(seed), role))
        self.signed = signed
        self.length = length
        self.seeds = {role: hex_of(b"seed", role.encode(), nonce.encode()) for role in roles}
        self.secrets: dict[str, tuple[str, JSON]] = {}  # label -> (salt, value)
        self.owners: dict[str, str] = {}  # label -> the role that sealed it
        self._elements: dict[str, list[bytes]] = {}
        files = {**self.engine.default_data(), **(data or {})}
        body: dict[str, JSON] = {
            "rules": self.engine.name,
            "rules_version": self.engine.version,
            "data": {n: data_digest(c) for n, c in files.items()},
            "options": dict(options or {}),
            "roles": {role: self.keys[role].public.openssh_line() for role in roles},
            "nonce": nonce,
        }
        fields: dict[str, JSON] = {
            "v": VERSION,
            "kind": GENESIS,
            "seq": 0,
            "by": roles[0],
            "body": body,
        }
        self.genesis = self.sign(roles[0], fields)
        check = check_signature if signed else no_signature_check
        extra = {data_digest(c): c for c in files.values()}
        self.game = Adjudicator.start(self.genesis, engine_by_name, data_source(extra), check)

    # chains

    def element(self, role: str, index: int) -> bytes:
        """s_index of `role`'s chain (s_0 is the anchor)."""
        if role not in self._elements:
            values = [bytes.fromhex(self.seeds[role])]
            for _ in range(self.length):
                values.append(chain.step_down(values[-1]))
            self._elements[role] = list(reversed(values))
        return self._elements[role][index]

    def next_index(self, role: str) -> int:
        try:
            return self.game.next_reveal_index(role)
        except KeyError:  # not joined yet
            return 1

    def next_reveal(self, role: str) -> str:
        return self.element(role, self.next_index(role)).hex()

    # building

    def sign(self, role: str, fields: dict[str, JSON], key: PrivateKey | None = None) -> Entry:
        if not self.signed:
            return Entry.build(fields)
        return sign_entry(key or self.keys[role], fields)

    def fields(self, role: str, kind: str, body: JSON = None, **overrides: Any) -> dict[str, JSON]:
        head = self.game.head
        fields: dict[str, JSON] = {
            "v": VERSION,
            "kind": kind,
            "game": self.game.id,
            "seq": head.seq + 1,
            "prev": head.id,
            "by": role,
            "body": body if body is not None else {},
        }
        if kind != JOIN and "reveal" not in overrides:
            fields["reveal"] = self.next_reveal(role)
        for name, value in overrides.items():
            if value is _DROP:
                fields.pop(name, None)
            else:
                fields[name] = value
        return fields

    def make(
        self,
        role: str,
        kind: str,
        body: JSON = None,
        *,
        key: PrivateKey | None = None,
        **overrides: Any,
    ) -> Entry:
        return self.sign(role, self.fields(role, kind, body, **overrides), key)

    def join_entry(self, role: str, **overrides: Any) -> Entry:
        body = {"anchor": self.element(role, 0).hex(), "length": self.length}
        return self.make(role, JOIN, body, **overrides)

    def move_entry(self, role: str, text: str, **overrides: Any) -> Entry:
        return self.make(role, MOVE, {"decision": text}, **overrides)

    def ack_entry(self, role: str, **overrides: Any) -> Entry:
        return self.make(role, ACK, {}, **overrides)

    # playing

    def apply(self, entry: Entry) -> Entry:
        self.game.apply(entry)
        return entry

    def join_all(self) -> None:
        for role in self.roles:
            self.apply(self.join_entry(role))

    def move(self, role: str, text: str) -> Entry:
        return self.apply(self.move_entry(role, text))

    def ack(self, role: str) -> Entry:
        return self.apply(self.ack_entry(role))

    # bots

    def state_for(self, role: str) -> Any:
        """What `role` decides on: waiting dice rolled by its own next reveal first."""
        if self.game.waiting_for_entropy:
            return self.game.preview(role, self.next_reveal(role))
        return self.game.state

    def step(self, rng: random.Random) -> Entry:
        """One entry by the first role asked: a bot decision, or an ack that rolls dice."""
        prompts = self.game.prompts()
        if not prompts:
            raise AssertionError("dead end: nobody is asked and there is no outcome")
        role = prompts[0].role
        state = self.state_for(role)
        if any(p.role == role for p in self.engine.prompts(state)):
            private = self.engine.with_secrets(state, role, self.known(role))
            return self.decide(role, choose(self.engine, private, role, rng), private)
        return self.ack(role)

    def decide(self, role: str, decision: Any, state: Any = None) -> Entry:
        """Play a decision as its owner's client does: seal its secrets, open what is due.

        `state` is the owner's private state (`with_secrets`); by default it is made here.
        """
        if state is None:
            state = self.engine.with_secrets(self.state_for(role), role, self.known(role))
        public, values = self.engine.seal(state, role, decision)
        body: dict[str, JSON] = {"decision": self.engine.format(public)}
        if values:
            commits: dict[str, JSON] = {}
            for label, value in values.items():
                if value == FRESH:
                    value = hex_of(b"fresh secret", label.encode(), self.game.id.encode())
                salt = hex_of(b"salt", label.encode(), self.game.id.encode())
                self.secrets[label] = (salt, value)
                self.owners[label] = role
                commits[label] = commitment(self.game.id, label, salt, value)
            body["commit"] = commits
        due = self.engine.due_openings(state, role, public)
        if due:
            body["open"] = [Opening(lb, *self.secrets[lb]).to_json() for lb in due]
        return self.apply(self.make(role, MOVE, body))

    def known(self, role: str) -> dict[str, JSON]:
        """`role`'s own sealed values and private draws, as its client computes them."""
        own = {lb: v for lb, (_salt, v) in self.secrets.items() if self.owners[lb] == role}
        own.update(self.game.private_values_for(own))
        return own

    def play(self, rng: random.Random, limit: int = 20000) -> None:
        while self.game.outcome() is None:
            if len(self.game.entries) > limit:
                raise AssertionError(f"no outcome after {limit} entries")
            self.step(rng)

    def unrevealed(self) -> list[str]:
        """Chain values not yet published and every salt: secrets no view may contain."""
        chains = [
            self.element(role, index).hex()
            for role in self.roles
            for index in range(self.next_index(role), self.length + 1)
        ]
        return chains + [salt for salt, _value in self.secrets.values()]


DROP = _DROP


def snapshot(game: Adjudicator) -> dict[str, Any]:
    """Everything observable about an adjudicator, deep-copied for before/after checks."""
    return {
        "state": copy.deepcopy(game.state),
        "entries": [(e.id, e.canonical, e.signature) for e in game.entries],
        "rng_log": list(game.rng_log),
        "actions": list(game.actions),
        "waiting": game.waiting_for_entropy,
        "prompts": game.prompts(),
        "outcome": game.outcome(),
        "reveals": {
            role: (game.next_reveal_index(role), game.chain_length(role))
            for role in game.roles
            if role in {e.by for e in game.entries if e.kind == JOIN}
        },
    }


def assert_refused(game: Adjudicator, entry: Entry, *fragments: str) -> str:
    """`entry` is refused with a message holding every fragment, and `game` is unchanged."""
    before = snapshot(game)
    with pytest.raises(PbemError) as caught:
        game.apply(entry)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert snapshot(game) == before
    return message


# --- two Client stores ----------------------------------------------------------------------


def store_dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, for 'the store is unchanged' checks."""
    dump: dict[str, list[tuple[Any, ...]]] = {}
    for table in store.db.table_names():
        rows = store.db.execute(f"SELECT * FROM [{table}]").fetchall()
        dump[table] = sorted(rows, key=repr)
    return dump


def entry_count(store: Store, game_id: str) -> int:
    row = store.db.execute("SELECT count(*) FROM entries WHERE game = ?", [game_id]).fetchone()
    return int(row[0])


class Duo:
    """A toy-dice game between Client A (role a) and Client B (role b), by move files."""

    def __init__(self, home: Path, rules: str = "toy-dice") -> None:
        self.home = home
        self.a = Client(Store(home / "a"))
        self.b = Client(Store(home / "b"))
        self.a.new_key("a")
        self.b.new_key("b")
        self.a.import_key("b", home / "b" / "keys" / "b.pub")
        self.game_id, made = self.a.new_game(rules, "a", {"a": "a", "b": "b"})
        self.send(made, self.b)
        self.send(self.b.join(self.game_id), self.a)

    def client(self, role: str) -> Client:
        return {"a": self.a, "b": self.b}[role]

    def other(self, role: str) -> Client:
        return {"a": self.b, "b": self.a}[role]

    def key(self, role: str) -> PrivateKey:
        store = self.client(role).store
        return load_private_key((store.keys_dir / role).read_bytes())

    @staticmethod
    def send(entries: list[Entry], to: Client) -> None:
        to.apply_entries(parse_entries(move_file(entries)))

    def step(self) -> Entry:
        """The asked role plays: `roll` when the game asks it for a decision, else an ack."""
        game = self.a.game(self.game_id)
        role = game.prompts()[0].role
        me = self.client(role)
        mine = me.game(self.game_id)
        state = me.state_for(mine, role)
        if any(p.role == role for p in mine.engine.prompts(state)):
            entry = me.move(self.game_id, "roll", role)
        else:
            entry = me.ack(self.game_id, role)
        self.send([entry], self.other(role))
        return entry

    def finish(self) -> list[Entry]:
        made = []
        while self.a.game(self.game_id).outcome() is None:
            made.append(self.step())
        return made

    def save(self) -> str:
        return self.a.export(self.game_id)


def call_refused(store: Store, call: Callable[[], object], *fragments: str) -> PbemError:
    """`call` raises a PbemError naming every fragment, and the store is unchanged."""
    before = store_dump(store)
    with pytest.raises(PbemError) as caught:
        call()
    for fragment in fragments:
        assert fragment in str(caught.value), f"{fragment!r} not in {caught.value}"
    assert store_dump(store) == before
    return caught.value
