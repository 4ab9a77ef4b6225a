"""A fast stand-in for the adjudicator: commitments, openings and private draws without
signatures, so that engine tests and hundreds of bot games run through `apply` directly.

`Game` keeps every sealed value with its owner, seals and opens like a real client
(`with_secrets`, `seal`, `due_openings`), produces private draws at once from a seeded
random.Random (the owner learns them immediately), and rolls public dice from the same
generator or from a script.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import FRESH
from pbem.errors import PbemError
from pbem.games.berlin_1945.rules import ENGINE


class FakeCtx:
    def __init__(self, game: Game, seq: int, committed: list[str], opened: dict[str, JSON]) -> None:
        self.game = game
        self._seq = seq
        self._committed = committed
        self._opened = opened
        self.events: list[str] = []
        self.rolls: list[tuple[str, int]] = []

    @property
    def seq(self) -> int:
        return self._seq

    def committed_now(self) -> list[str]:
        return list(self._committed)

    def opened_now(self) -> dict[str, JSON]:
        return dict(self._opened)

    def is_committed(self, label: str) -> bool:
        return label in self.game.sealed or label in self._committed

    def is_opened(self, label: str) -> bool:
        return label in self.game.opened or label in self._opened

    def value(self, label: str) -> JSON:
        if label in self._opened:
            return self._opened[label]
        if label in self.game.opened:
            return self.game.sealed[label][1]
        raise PbemError(f"{label} has not been opened")

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        script = self.game.script
        value = script.pop(0) if script else self.game.rng.randint(lo, hi)
        assert lo <= value <= hi
        self.rolls.append((purpose, value))
        return value

    def private_roll(self, secret: str, lo: int, hi: int, purpose: str) -> str:
        assert secret in self._committed, f"{secret} not committed now"
        prefix = f"draw/{self._seq}/"
        key = f"{prefix}{len([k for k in self.game.draws if k.startswith(prefix)])}"
        value = self.game.rng.randint(lo, hi)
        self.game.draws[key] = (secret, value)
        return key

    def private_value(self, key: str) -> int | None:
        secret, value = self.game.draws[key]
        if secret in self.game.opened or secret in self._opened:
            return value
        return None

    def event(self, text: str, **data: Any) -> None:
        self.events.append(text)


class Game:
    def __init__(self, seed: int = 0, state: dict[str, Any] | None = None) -> None:
        self.engine = ENGINE
        self.rng = random.Random(seed)
        self.state = state if state is not None else ENGINE.setup(None, {})
        self.sealed: dict[str, tuple[str, JSON, int]] = {}  # label -> (role, value, seq)
        self.opened: set[str] = set()
        self.draws: dict[str, tuple[str, int]] = {}
        self.seq = 0
        self.script: list[int] = []
        self.last: FakeCtx | None = None
        self.texts: list[str] = []
        self.react = False

    def known(self, role: str) -> dict[str, JSON]:
        own: dict[str, JSON] = {lb: v for lb, (r, v, _s) in self.sealed.items() if r == role}
        for key, (secret, value) in self.draws.items():
            if secret in own:
                own[key] = value
        return own

    def private(self, role: str) -> dict[str, Any]:
        return self.engine.with_secrets(self.state, role, self.known(role))

    def decide(self, role: str, decision: Any) -> FakeCtx:
        private = self.private(role)
        public, values = self.engine.seal(private, role, decision)
        due = self.engine.due_openings(private, role, public)
        return self.raw(role, self.engine.format(public), values, due)

    def text(self, role: str, text: str) -> FakeCtx:
        """Play a typed decision; a reaction window it opens is passed ('no reaction')
        unless `self.react` is set (tests of reaction cards)."""
        ctx = self.decide(role, self.engine.parse(text, self.private(role), role))
        if self.state["step"] == "react" and not self.react:
            self.decide(self.state["react"]["role"], self.engine.parse("no reaction", {}, role))
        return ctx

    def raw(self, role: str, text: str, values: dict[str, JSON], due: list[str]) -> FakeCtx:
        """Apply a public text with these commitments and openings (a client could cheat)."""
        self.seq += 1
        decision = self.engine.parse(text, self.state, role)
        assert self.engine.format(decision) == text
        committed = []
        fresh = {}
        for label, value in values.items():
            if value == FRESH:
                value = f"{self.rng.getrandbits(256):064x}"
            fresh[label] = value
            committed.append(label)
        opened = {}
        for label in due:
            owner, value, _s = self.sealed[label]
            assert owner == role and label not in self.opened
            opened[label] = value
        ctx = FakeCtx(self, self.seq, committed, opened)
        before = repr(self.state)
        new = self.engine.apply(self.state, role, decision, ctx)
        assert repr(self.state) == before, "apply mutated its input"
        for label, value in fresh.items():
            self.sealed[label] = (role, value, self.seq)
        self.opened.update(opened)
        self.state = new
        self.last = ctx
        self.texts.append(f"{role}: {text}")
        return ctx

    def asked(self) -> str | None:
        prompts = self.engine.prompts(self.state)
        return prompts[0].role if prompts else None

    def play_bots(self, limit: int = 5000) -> None:
        from pbem.games.berlin_1945.bot import choose

        steps = 0
        while self.engine.outcome(self.state) is None:
            role = self.asked()
            assert role is not None, "dead end"
            decision = choose(self.engine, self.private(role), role, self.rng)
            self.decide(role, decision)
            steps += 1
            assert steps < limit, "no outcome"

    def until(self, step: str, role: str | None = None) -> None:
        """Play bots until the game reaches `step` (and `role` is asked)."""
        from pbem.games.berlin_1945.bot import choose

        for _ in range(2000):
            if self.state["step"] == step and (role is None or self.asked() == role):
                return
            r = self.asked()
            assert r is not None
            self.decide(r, choose(self.engine, self.private(r), r, self.rng))
        raise AssertionError(f"never reached {step}")


# --- positions ------------------------------------------------------------------------------


def clear(state: dict[str, Any]) -> None:
    """Take every unit off the map (status off), keep control as it is."""
    for u in state["units"].values():
        u["status"] = "off"
        u["zone"] = None


def units_of(state: dict[str, Any], side: str, type_: str | None = None) -> list[str]:
    return sorted(
        uid
        for uid, u in state["units"].items()
        if u["side"] == side and (type_ is None or u["type"] == type_) and not u["yellow"]
    )


def put(state: dict[str, Any], zone: str, uids: list[str]) -> list[str]:
    for uid in uids:
        state["units"][uid].update(status="on", zone=zone)
    return uids


class Pool:
    """Hands out unused units of a type for building positions."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.used: set[str] = set()

    def take(self, type_: str, n: int, zone: str) -> list[str]:
        side = "german" if type_ in ("wehrmacht", "ss") else "soviet"
        free = [u for u in units_of(self.state, side, type_) if u not in self.used][:n]
        assert len(free) == n, f"not enough {type_}"
        self.used.update(free)
        return put(self.state, zone, free)


def at(game: Game, step: str, seed: int = 0) -> Game:
    game.until(step)
    return game


def give(game: Game, role: str, card: int) -> None:
    """Put `card` into one of the role's held slots (a rigged hand for a rules test: the
    slot's sealed value changes, so such a game would fail the end-of-game draw check)."""
    slots = game.state["hands"][role]["slots"]
    held = [s["label"] for s in slots.values() if s["status"] == "hand"]
    for label in held:
        if game.sealed[label][1] == card:
            return
    assert held, f"the {role} holds no card"
    owner, _value, seq = game.sealed[held[0]]
    game.sealed[held[0]] = (owner, card, seq)
