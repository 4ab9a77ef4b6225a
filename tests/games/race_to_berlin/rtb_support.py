"""Test helpers for Race to Berlin: a context with sealed values, and an engine-level driver.

`SealedContext` is the adjudicator's context without the cryptography: it hands out
scripted dice (or dice from a seeded random.Random, never the global one), records
purposes and events, and carries the labels the entry commits and the values it opens.

`Game` plays decisions the way clients and the adjudicator do -- each owner decides on its
`with_secrets` state, `seal` splits the public decision from the values to commit,
`due_openings` says what the entry opens, and the public decision (round-tripped through
`format`/`parse`) is applied to the public state -- but without keys or signatures, so
hundreds of games run in seconds.

Positions are test arrangements on a new game's state (like setting up a rulebook example
on the board): `action_game` starts in the Action Phase with no block on the board;
`put_block` adds a block whose value only its owner's secrets know (the public state keeps
value None, exactly as a placement leaves it); `put_unit` moves a unit; `set_area` changes
control. The shipped map at start: West 1-3, Soviet 28-30, German the rest; area 4 (Lower
Rhine: de-1fj, de-25, a regular fortification, terrain 1) borders 1 without a river; 5
(major fortification, terrain 2) borders 1 and 2 across rivers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.errors import EntropyPending, PbemError
from pbem.games.race_to_berlin.board import refresh_markers
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.games.race_to_berlin.state import clone_state

State = dict[str, Any]


class SealedContext:
    """Scripted or seeded dice, events, and this entry's commitments and openings."""

    def __init__(
        self,
        rolls: Iterable[int] = (),
        *,
        rng: random.Random | None = None,
        seq: int = 1,
        committed: Iterable[str] = (),
        opened: Mapping[str, JSON] | None = None,
        pending: bool = False,
    ) -> None:
        self.values = list(rolls)
        self.rng = rng
        self._seq = seq
        self._committed = list(committed)
        self._opened = dict(opened or {})
        self.pending = pending
        self.rolls: list[tuple[str, int]] = []
        self.requests = 0
        self.events: list[tuple[str, dict[str, Any]]] = []

    @property
    def seq(self) -> int:
        return self._seq

    def roll(self, lo: int, hi: int, purpose: str) -> int:
        self.requests += 1
        if self.pending:
            raise EntropyPending(purpose)
        if self.values:
            value = self.values.pop(0)
        elif self.rng is not None:
            value = self.rng.randint(lo, hi)
        else:
            raise AssertionError(f"unexpected roll for {purpose!r}: no scripted value left")
        assert lo <= value <= hi, f"scripted {value} outside {lo}..{hi} for {purpose!r}"
        self.rolls.append((purpose, value))
        return value

    def event(self, text: str, **data: Any) -> None:
        self.events.append((text, data))

    def committed_now(self) -> list[str]:
        return list(self._committed)

    def opened_now(self) -> dict[str, JSON]:
        return dict(self._opened)

    def is_committed(self, label: str) -> bool:
        return label in self._committed

    def is_opened(self, label: str) -> bool:
        return label in self._opened

    def value(self, label: str) -> JSON:
        if label not in self._opened:
            raise PbemError(f"{label} has not been opened")
        return self._opened[label]

    @property
    def purposes(self) -> list[str]:
        return [p for p, _ in self.rolls]

    @property
    def texts(self) -> list[str]:
        return [t for t, _ in self.events]

    def said(self, fragment: str) -> bool:
        return any(fragment in t for t in self.texts)


class Game:
    """One game on the engine, played like clients do, with every role's secrets kept."""

    def __init__(
        self,
        state: State | None = None,
        *,
        rng: random.Random | None = None,
        check: bool = True,
    ) -> None:
        self.check = check
        self.state: State = state if state is not None else ENGINE.setup(None, {})
        self.secrets: dict[str, dict[str, JSON]] = {"west": {}, "soviet": {}}
        self.rng = rng
        self.seq = 10
        self.last: SealedContext | None = None
        self.history: list[tuple[int, str, str]] = []

    def private(self, role: str) -> State:
        return ENGINE.with_secrets(self.state, role, self.secrets[role])

    def prepare(self, role: str, decision: Any) -> tuple[Any, dict[str, JSON], dict[str, JSON]]:
        """(public decision, values to commit, openings) as the owner's client makes them."""
        private = self.private(role)
        if isinstance(decision, str):
            decision = ENGINE.parse(decision, private, role)
        public, values = ENGINE.seal(private, role, decision)
        due = ENGINE.due_openings(private, role, public)
        opened = {label: self.secrets[role][label] for label in due}
        return public, values, opened

    def decide(self, role: str, decision: Any, rolls: Iterable[int] = ()) -> SealedContext:
        public, values, opened = self.prepare(role, decision)
        text = ENGINE.format(public)
        assert ENGINE.parse(text, self.state, role) == public, text
        self.seq += 1
        ctx = SealedContext(
            rolls, rng=self.rng, seq=self.seq, committed=list(values), opened=opened
        )
        before = clone_state(self.state) if self.check else None
        new = ENGINE.apply(self.state, role, public, ctx)
        assert before is None or self.state == before, "apply mutated its input"
        assert not ctx.values, f"{text!r} left scripted dice unused: {ctx.values}"
        self.secrets[role].update(values)
        self.state = new
        self.last = ctx
        self.history.append((self.seq, role, text))
        return ctx

    def apply_raw(
        self,
        role: str,
        public: Any,
        *,
        committed: Mapping[str, JSON] | None = None,
        opened: Mapping[str, JSON] | None = None,
        rolls: Iterable[int] = (),
    ) -> SealedContext:
        """Apply a public decision with hand-made commitments/openings (for cheats)."""
        self.seq += 1
        ctx = SealedContext(
            rolls, rng=self.rng, seq=self.seq, committed=list(committed or {}), opened=opened
        )
        self.state = ENGINE.apply(self.state, role, public, ctx)
        self.secrets[role].update(committed or {})
        self.last = ctx
        return ctx

    def asked(self) -> list[str]:
        return [p.role for p in ENGINE.prompts(self.state)]

    def over(self) -> bool:
        return ENGINE.outcome(self.state) is not None


# --- positions (test arrangements on a new game's state) ---------------------------------------

SEQ_PLACED = 5


def action_game(first: str = "west", turn: int = 1) -> Game:
    """A new game moved to the Action Phase of `turn`, `first` to act, no block placed."""
    state = ENGINE.setup(None, {})
    state["turn"] = turn
    state["phase"] = "action"
    state["step"] = "action"
    state["first"] = first
    state["active"] = first
    return Game(state)


def put_block(
    game: Game,
    role: str,
    area: str,
    value: int,
    *,
    revealed: bool = False,
    cubes: int = 0,
) -> str:
    """Put `role`'s `value`-block in `area` (sealed unless `revealed`); returns its label."""
    state = game.state
    n = state["placed"][role] + 1
    label = f"block/{role}/t{state['turn']}/{n}"
    state["placed"][role] = n
    state["blocks"].append(
        {
            "label": label,
            "owner": role,
            "force": state["areas"][area]["control"],
            "area": area,
            "cubes": cubes,
            "value": value if revealed else None,
            "revealed": revealed,
            "exhausted": revealed and cubes >= value,
            "off": None,
            "placed_at": SEQ_PLACED + n,
            "claims": [],
        }
    )
    state["cubes"][role]["pool"] -= cubes
    game.secrets[role][label] = value
    return label


def put_unit(game: Game, unit: str, area: str | None, strength: int | None = None) -> None:
    rec = game.state["units"][unit]
    rec["area"] = area
    rec["status"] = "board" if area else "eliminated"
    if strength is not None:
        rec["strength"] = strength


def set_area(game: Game, area: str, control: str) -> None:
    game.state["areas"][area]["control"] = control
    refresh_markers(game.state)


def clear_area(game: Game, area: str) -> None:
    for unit, rec in game.state["units"].items():
        if rec["area"] == area:
            put_unit(game, unit, None)


def block(game: Game, label: str) -> dict[str, Any]:
    return next(b for b in game.state["blocks"] if b["label"] == label)


def units_at(game: Game, area: str) -> list[str]:
    return [u for u, rec in game.state["units"].items() if rec["area"] == area]
