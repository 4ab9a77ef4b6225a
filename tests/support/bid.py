"""A toy game with hidden information, for protocol tests: sealed bids.

Each of three rounds, both roles bid 1..9 at once and in secret (a commitment
each), optionally claiming in public that the bid is odd or even. When both
have bid, both open; the higher bid scores, a tie is broken with a d6 each.
A parity claim is checked when its bid opens: a false one is a cheat, and the
opening entry is refused with a message naming the claim (protocol section 5,
"the verifier ... checks every claim a player made while hidden").
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context, Engine, Outcome, Prompt, State, register
from pbem.errors import IllegalOrderError, InvalidOrderError

ROUNDS = 3


@dataclass(frozen=True)
class Bid:
    value: int | None  # None in the public decision: the value is sealed
    claim: str | None = None  # "odd" / "even" / None


@dataclass(frozen=True)
class Reveal:
    pass


def label(role: str, round_: int) -> str:
    return f"bid/{role}/{round_}"


class ToyBid(Engine):
    """Toy sealed bids: two roles bid in secret, then open; higher bid scores."""

    name = "toy-bid"
    title = "Toy sealed bids"
    version = "1"
    roles = ("a", "b")
    required_roles = ("a", "b")
    data_files = ()

    def default_data(self) -> dict[str, bytes]:
        return {}

    def load_data(self, files: Mapping[str, bytes]) -> Any:
        return None

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        return {"turn": 1, "step": "bid", "bids": {}, "score": {"a": 0, "b": 0}}

    def prompts(self, state: State) -> list[Prompt]:
        if state["turn"] > ROUNDS:
            return []
        if state["step"] == "bid":
            return [Prompt(r, "bid 1..9") for r in self.roles if r not in state["bids"]]
        return [Prompt(r, "reveal") for r in self.roles if state["bids"][r]["value"] is None]

    def choices(self, state: State, role: str) -> list[Any]:
        if not any(p.role == role for p in self.prompts(state)):
            return []
        if state["step"] == "reveal":
            return [Reveal()]
        honest = [Bid(v, "odd" if v % 2 else "even") for v in range(1, 10)]
        return [Bid(v) for v in range(1, 10)] + honest

    def parse(self, text: str, state: State, role: str) -> Any:
        words = text.lower().split()
        if words == ["reveal"]:
            return Reveal()
        if words and words[0] == "bid" and len(words) <= 3:
            rest = words[1:]
            claim = rest.pop() if rest and rest[-1] in ("odd", "even") else None
            if not rest:
                return Bid(None, claim)
            # one ASCII digit: int() refuses '²' and 5000-digit numbers that isdigit accepts
            if len(rest) == 1 and len(rest[0]) == 1 and rest[0] in "123456789":
                return Bid(int(rest[0]), claim)
        raise InvalidOrderError(f"{text!r}: expected 'bid N [odd|even]' (N 1..9) or 'reveal'")

    def format(self, decision: Any) -> str:
        if isinstance(decision, Reveal):
            return "reveal"
        words = ["bid"]
        if decision.value is not None:
            words.append(str(decision.value))
        if decision.claim:
            words.append(decision.claim)
        return " ".join(words)

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        if isinstance(decision, Bid) and decision.value is not None:
            return Bid(None, decision.claim), {label(role, state["turn"]): decision.value}
        return decision, {}

    def due_openings(self, state: State, role: str, decision: Any) -> list[str]:
        return [label(role, state["turn"])] if isinstance(decision, Reveal) else []

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        new = copy.deepcopy(state)
        slot = label(role, state["turn"])
        if isinstance(decision, Bid):
            if state["step"] != "bid" or role in state["bids"]:
                raise IllegalOrderError(f"{role} cannot bid now")
            if decision.value is not None:
                raise IllegalOrderError("a bid's value is sealed, never public")
            if ctx.committed_now() != [slot]:
                raise IllegalOrderError(f"a bid must commit its value as {slot}")
            new["bids"][role] = {
                "label": slot,
                "claim": decision.claim,
                "claimed_in": ctx.seq,
                "value": None,
            }
            if len(new["bids"]) == 2:
                new["step"] = "reveal"
            return new
        if state["step"] != "reveal" or state["bids"][role]["value"] is not None:
            raise IllegalOrderError(f"{role} has nothing to reveal now")
        opened = ctx.opened_now()
        if slot not in opened:
            raise IllegalOrderError(f"reveal must open {slot}")
        value = opened[slot]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 9:
            raise IllegalOrderError(f"false claim: {slot} opens as {value!r}, not a bid 1..9")
        claim, where = state["bids"][role]["claim"], state["bids"][role]["claimed_in"]
        if claim is not None and claim != ("odd" if value % 2 else "even"):
            raise IllegalOrderError(
                f"false claim in entry {where} by {role}: {slot} claimed {claim}, "
                f"but it opens as {value}"
            )
        new["bids"][role]["value"] = value
        ctx.event(f"{role} opens its bid: {value}")
        bids = new["bids"]
        if all(bids[r]["value"] is not None for r in self.roles):
            a, b = bids["a"]["value"], bids["b"]["value"]
            while a == b:
                a, b = ctx.roll(1, 6, "tie-break a"), ctx.roll(1, 6, "tie-break b")
            winner = "a" if a > b else "b"
            new["score"][winner] += 1
            ctx.event(f"round {state['turn']} to {winner}")
            new["turn"] += 1
            new["step"] = "bid"
            new["bids"] = {}
        return new

    def view(self, state: State, role: str | None) -> State:
        return copy.deepcopy(state)

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        mine = state["bids"].get(role)
        if mine is None or mine["value"] is not None or mine["label"] not in known:
            return state
        state = copy.deepcopy(state)
        state["bids"][role]["sealed_value"] = known[mine["label"]]
        return state

    def outcome(self, state: State) -> Outcome | None:
        if state["turn"] <= ROUNDS:
            return None
        a, b = state["score"]["a"], state["score"]["b"]
        return Outcome("a" if a > b else "b", "win", dict(state["score"]), f"{a}-{b}")


ENGINE = ToyBid()
register("toy-bid", "tests.support.bid:ENGINE")
