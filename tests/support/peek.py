"""A toy game with private draws, for protocol tests: peek at a die only you can see.

Each round `a` peeks: its entry commits a fresh secret x, and the die is a
private draw seeded by x and b's next reveal, so only `a` can compute it. Then
`a` calls the number it saw, opening x: everyone recomputes the die and a
false call is refused (protocol sections 5 and 7, private draws).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import FRESH, Context, Engine, Outcome, Prompt, State, register
from pbem.errors import IllegalOrderError, InvalidOrderError

ROUNDS = 2


@dataclass(frozen=True)
class Peek:
    pass


@dataclass(frozen=True)
class Call:
    number: int


class ToyPeek(Engine):
    """Toy peek: a sees a private die, then calls it; the call is checked when x opens."""

    name = "toy-peek"
    title = "Toy peek"
    version = "1"
    roles = ("a", "b")
    required_roles = ("a", "b")
    data_files = ()

    def default_data(self) -> dict[str, bytes]:
        return {}

    def load_data(self, files: Mapping[str, bytes]) -> Any:
        return None

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        return {"turn": 1, "draw": None, "calls": []}

    def prompts(self, state: State) -> list[Prompt]:
        if state["turn"] > ROUNDS:
            return []
        return [Prompt("a", "peek" if state["draw"] is None else "call the die")]

    def choices(self, state: State, role: str) -> list[Any]:
        if role != "a" or state["turn"] > ROUNDS:
            return []
        if state["draw"] is None:
            return [Peek()]
        seen = state["draw"].get("seen")
        return [Call(seen)] if seen is not None else [Call(n) for n in range(1, 7)]

    def parse(self, text: str, state: State, role: str) -> Any:
        words = text.split()
        if words == ["peek"]:
            return Peek()
        if len(words) == 2 and words[0] == "call" and words[1] in "123456":
            return Call(int(words[1]))
        raise InvalidOrderError(f"{text!r}: expected 'peek' or 'call N'")

    def format(self, decision: Any) -> str:
        return "peek" if isinstance(decision, Peek) else f"call {decision.number}"

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        if isinstance(decision, Peek):
            return decision, {f"x/a/{state['turn']}": FRESH}
        return decision, {}

    def due_openings(self, state: State, role: str, decision: Any) -> list[str]:
        return [state["draw"]["secret"]] if isinstance(decision, Call) else []

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        draw = state["draw"]
        if role != "a" or draw is None or draw["key"] not in known:
            return state
        state = copy.deepcopy(state)
        state["draw"]["seen"] = known[draw["key"]]
        return state

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        if role != "a" or state["turn"] > ROUNDS:
            raise IllegalOrderError("only a plays, and only while the game lasts")
        new = copy.deepcopy(state)
        if isinstance(decision, Peek):
            if state["draw"] is not None:
                raise IllegalOrderError("call the die you saw first")
            secret = f"x/a/{state['turn']}"
            if ctx.committed_now() != [secret]:
                raise IllegalOrderError(f"a peek commits a fresh secret as {secret}")
            key = ctx.private_roll(secret, 1, 6, f"round {state['turn']}: a peeks")
            new["draw"] = {"secret": secret, "key": key, "called_in": ctx.seq}
            return new
        draw = state["draw"]
        if draw is None:
            raise IllegalOrderError("peek first")
        value = ctx.private_value(draw["key"])
        if value is None:
            raise IllegalOrderError(f"a call must open {draw['secret']}")
        if value != decision.number:
            raise IllegalOrderError(
                f"false claim in entry {ctx.seq} by a: called {decision.number}, "
                f"but the private die was {value}"
            )
        ctx.event(f"a saw {value}")
        new["calls"].append(value)
        new["draw"] = None
        new["turn"] += 1
        return new

    def view(self, state: State, role: str | None) -> State:
        view = copy.deepcopy(state)
        if role != "a" and view["draw"] is not None:
            view["draw"].pop("seen", None)  # the private die is a's alone until called
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state["turn"] <= ROUNDS:
            return None
        return Outcome("a", "done", {"a": sum(state["calls"])}, f"{state['calls']}")


ENGINE = ToyPeek()
register("toy-peek", "tests.support.peek:ENGINE")


def opened_and_sealed(nonce: str) -> Any:
    """An unfinished toy-peek game on a SignedTable (`nonce`: its keys and game id): a
    private draw whose secret is opened, then one still sealed."""
    import random

    from pbem.testing import SignedTable

    table = SignedTable("toy-peek", ("a", "b"), nonce=nonce)
    table.join_all()
    rng = random.Random(4)
    for _ in range(3):  # peek, ack (rolls it), call (opens x)
        table.step(rng)
    table.decide("a", Peek())  # peek again: a private draw, still sealed
    table.ack("b")
    return table
