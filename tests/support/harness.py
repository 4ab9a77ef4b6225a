"""An in-memory table: every role's key and hash chain, signing entries for bots.

It drives a real Adjudicator exactly as clients do (signed entries, reveals,
deferred dice, acks), without a store or files, so that conformance and
self-play tests can play hundreds of games quickly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.bots import choose
from pbem.core import chain
from pbem.core.adjudicator import Adjudicator, data_digest
from pbem.core.canonical import JSON
from pbem.core.engine import Engine
from pbem.core.log import Entry
from pbem.crypto import sshsig
from pbem.crypto.keys import PrivateKey, generate
from pbem.ledger import check_signature, data_source, engine_by_name

CHAIN_LENGTH = chain.MIN_LENGTH


@dataclass
class Table:
    engine: Engine
    roles: tuple[str, ...]
    keys: dict[str, PrivateKey] = field(default_factory=dict)
    chains: dict[str, list[bytes]] = field(default_factory=dict)
    game: Adjudicator | None = None

    @classmethod
    def open(
        cls,
        rules: str,
        roles: tuple[str, ...] | None = None,
        data: Mapping[str, bytes] | None = None,
        seed: int = 0,
    ) -> Table:
        engine = engine_by_name(rules)
        table = cls(engine, roles or engine.roles)
        rng = random.Random(seed)
        for role in table.roles:
            table.keys[role] = generate(role)
            top = rng.randbytes(32)
            values = [top]
            for _ in range(CHAIN_LENGTH):
                values.append(chain.step_down(values[-1]))
            table.chains[role] = list(reversed(values))
        files = dict(engine.default_data())
        files.update(data or {})
        creator = table.roles[0]
        genesis = table.sign(
            {
                "v": 1,
                "kind": "genesis",
                "seq": 0,
                "by": creator,
                "body": {
                    "rules": engine.name,
                    "rules_version": engine.version,
                    "data": {name: data_digest(c) for name, c in files.items()},
                    "options": {},
                    "roles": {r: k.public.openssh_line() for r, k in table.keys.items()},
                    "nonce": f"{seed:032x}",
                },
            }
        )
        extra = {data_digest(c): c for c in files.values()}
        table.game = Adjudicator.start(genesis, engine_by_name, data_source(extra), check_signature)
        for role in table.roles:
            table.submit(
                "join", role, {"anchor": table.chains[role][0].hex(), "length": CHAIN_LENGTH}
            )
        return table

    def sign(self, fields: dict[str, JSON]) -> Entry:
        unsigned = Entry.build(fields)
        return unsigned.with_signature(
            sshsig.sign(self.keys[str(fields["by"])], unsigned.canonical)
        )

    def next_reveal(self, role: str) -> str:
        assert self.game is not None
        return self.chains[role][self.game.next_reveal_index(role)].hex()

    def entry(self, kind: str, role: str, body: dict[str, JSON]) -> Entry:
        game = self.game
        assert game is not None
        fields: dict[str, JSON] = {
            "v": 1,
            "kind": kind,
            "game": game.id,
            "seq": game.head.seq + 1,
            "prev": game.head.id,
            "by": role,
            "body": body,
        }
        if kind != "join":
            fields["reveal"] = self.next_reveal(role)
        return self.sign(fields)

    def submit(self, kind: str, role: str, body: dict[str, JSON]) -> Entry:
        assert self.game is not None
        made = self.entry(kind, role, body)
        self.game.apply(made)
        return made

    def state_for(self, role: str) -> Any:
        """What `role` decides on: waiting dice rolled by its own next reveal first."""
        assert self.game is not None
        if self.game.waiting_for_entropy:
            return self.game.preview(role, self.next_reveal(role))
        return self.game.state

    def step(self, rng: random.Random) -> Entry:
        """One entry by the first role asked: a bot decision, or an ack that rolls dice."""
        game = self.game
        assert game is not None
        prompts = game.prompts()
        if not prompts:
            raise AssertionError("dead end: nobody is asked and there is no outcome")
        role = prompts[0].role
        state = self.state_for(role)
        if any(p.role == role for p in self.engine.prompts(state)):
            decision = choose(self.engine, state, role, rng)
            return self.submit("move", role, {"decision": self.engine.format(decision)})
        return self.submit("ack", role, {})

    def play(self, rng: random.Random, limit: int = 20000) -> None:
        assert self.game is not None
        while self.game.outcome() is None:
            if len(self.game.entries) > limit:
                raise AssertionError(f"no outcome after {limit} entries")
            self.step(rng)

    def unrevealed(self) -> list[str]:
        """Every role's chain values not yet published: secrets no view may contain."""
        assert self.game is not None
        hidden = []
        for role, values in self.chains.items():
            used = self.game.next_reveal_index(role)
            hidden += [v.hex() for v in values[used:]]
        return hidden
