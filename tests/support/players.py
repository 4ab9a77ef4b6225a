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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.client import Client
from pbem.core.adjudicator import Adjudicator
from pbem.core.engine import Context, Engine, Outcome, Prompt, State, register
from pbem.core.log import JOIN, Entry
from pbem.core.referee import FORFEIT, REFEREE
from pbem.core.rng import Stream, public_seed
from pbem.crypto.keys import PrivateKey, load_private_key
from pbem.errors import IllegalOrderError, InvalidOrderError, PbemError
from pbem.store import Store
from pbem.testing import DROP, hex_of, no_signature_check, sign_entry
from pbem.testing import SignedTable as Table
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries

__all__ = [
    "DROP",
    "Duo",
    "Table",
    "assert_refused",
    "call_refused",
    "dice",
    "entry_count",
    "forfeit_entry",
    "hex_of",
    "no_signature_check",
    "sign_entry",
    "snapshot",
    "store_dump",
]

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


def dice(game_id: str, requesting_id: str, reveal: str, count: int = 1) -> list[int]:
    """The d6 values of section 7 for draws requested by one entry and produced by a reveal."""
    stream = Stream(public_seed(game_id, requesting_id, reveal))
    return [stream.between(1, 6) for _ in range(count)]


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


# A forfeit's times (pbem.core.referee): a 72 h deadline, and a referee who saw it pass.
FORFEIT_SINCE, FORFEIT_DUE = "2026-12-01T10:00:00Z", "2026-12-04T10:00:00Z"
FORFEIT_SEEN = "2026-12-04T10:00:01Z"


def forfeit_entry(table: Table, role: str = "b", by: str = REFEREE, **changes: object) -> Entry:
    """A forfeit of `role` on the table's head, signed by `by`, its body's fields
    replaced by `changes` (a test's forged or early forfeit)."""
    head = table.game.head
    body = {
        "forfeit": role,
        "waited_on": {"seq": head.seq, "id": head.id},
        "since": FORFEIT_SINCE,
        "deadline": FORFEIT_DUE,
        "seen": FORFEIT_SEEN,
        **changes,
    }
    return table.make(by, FORFEIT, body)


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
