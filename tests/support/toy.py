"""A tiny two-role dice game for protocol tests: each role in turn rolls a d6 or a 2d6.

The game ends after `rounds` rolls in all; the higher total wins. Its decisions
are `roll` (one d6) and `roll twice` (two d6), so that tests can see draws,
deferral and the RNG log without any real game's rules.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.engine import Context, Engine, Outcome, Prompt, State, register
from pbem.errors import IllegalOrderError, InvalidOrderError


@dataclass(frozen=True)
class Roll:
    dice: int


class ToyDice(Engine):
    """Toy dice: two roles alternate rolling; the higher total wins."""

    name = "toy-dice"
    title = "Toy dice"
    version = "1"
    roles = ("a", "b")
    required_roles = ("a", "b")
    data_files = ("toy.toml",)

    def default_data(self) -> dict[str, bytes]:
        return {"toy.toml": b"rounds = 6\n"}

    def load_data(self, files: Mapping[str, bytes]) -> Any:
        import tomllib

        return tomllib.loads(files["toy.toml"].decode())

    def setup(self, data: Any, options: Mapping[str, Any]) -> State:
        return {"turn": 1, "next": "a", "left": data["rounds"], "score": {"a": 0, "b": 0}}

    def prompts(self, state: State) -> list[Prompt]:
        return [] if state["left"] == 0 else [Prompt(state["next"], "roll")]

    def choices(self, state: State, role: str) -> list[Any]:
        return [Roll(1), Roll(2)] if state["next"] == role and state["left"] else []

    def parse(self, text: str, state: State, role: str) -> Any:
        words = text.split()
        if words == ["roll"]:
            return Roll(1)
        if words == ["roll", "twice"]:
            return Roll(2)
        raise InvalidOrderError(f"{text!r}: expected 'roll' or 'roll twice'")

    def format(self, decision: Any) -> str:
        return "roll" if decision.dice == 1 else "roll twice"

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        if state["next"] != role:
            raise IllegalOrderError(f"it is {state['next']}'s turn")
        new = copy.deepcopy(state)
        total = sum(ctx.roll(1, 6, f"{role} die {i + 1}") for i in range(decision.dice))
        ctx.event(f"{role} rolls {total}")
        new["score"][role] += total
        new["left"] -= 1
        new["next"] = "b" if role == "a" else "a"
        new["turn"] += 1 if role == "b" else 0
        return new

    def view(self, state: State, role: str | None) -> State:
        return copy.deepcopy(state)

    def outcome(self, state: State) -> Outcome | None:
        if state["left"]:
            return None
        a, b = state["score"]["a"], state["score"]["b"]
        winner = "a" if a > b else "b" if b > a else None
        return Outcome(winner, "win" if winner else "draw", dict(state["score"]), f"{a}-{b}")


ENGINE = ToyDice()
register("toy-dice", "tests.support.toy:ENGINE")
