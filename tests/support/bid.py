"""A toy game with hidden information, for protocol tests: sealed bids, as a sealed round.

Each of three rounds, both roles bid 1..9 "at the same time" (protocol section 8): `a`
commits its bid (optionally claiming in public that it is odd or even), `b`, already
facing a bound bid, bids in the clear, and `a` opens. The higher bid scores, a tie is
broken with a d6 each. A parity claim is checked when the bid opens: a false one is a
cheat, and the opening entry is refused with a message naming the claim (protocol
section 5, "the verifier ... checks every claim a player made while hidden").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context, Outcome, State, register
from pbem.errors import InvalidOrderError
from pbem.kit.pieces import false_claim
from pbem.kit.sealed import SealedRound
from pbem.kit.steps import Step, StepGame

ROUNDS = 3
BIDS = SealedRound("round", lambda state, role: f"bid/{role}/{state['turn']}", "bids")


@dataclass(frozen=True)
class Bid:
    value: int | None  # None in a sealed bid's public decision
    claim: str | None = None  # "odd" / "even" / None


@dataclass(frozen=True)
class Reveal:
    pass


def label(role: str, round_: int) -> str:
    return f"bid/{role}/{round_}"


def do_bid(state: State, role: str, d: Bid, ctx: Context) -> None:
    claims = {"parity": d.claim} if d.claim else {}
    BIDS.choose(state, role, d.value, ctx, **claims)


def do_reveal(state: State, role: str, d: Reveal, ctx: Context) -> None:
    bids = BIDS.values(state)
    if bids is None:
        return
    BIDS.finish(state)
    a, b = int(bids["a"]), int(bids["b"])
    ctx.event(f"bids: a {a}, b {b}")
    while a == b:
        a, b = ctx.roll(1, 6, "tie-break a"), ctx.roll(1, 6, "tie-break b")
    winner = "a" if a > b else "b"
    state["score"][winner] += 1
    ctx.event(f"round {state['turn']} to {winner}")
    state["turn"] += 1
    if state["turn"] > ROUNDS:
        state["step"] = "over"
    else:
        BIDS.start(state, ("a", "b"))
        state["step"] = "bid"


def bid_choices(state: State, role: str) -> list[Any]:
    honest = [Bid(v, "odd" if v % 2 else "even") for v in range(1, 10)]
    return [Bid(v) for v in range(1, 10)] + ([] if BIDS.is_last(state, role) else honest)


class ToyBid(StepGame):
    """Toy sealed bids: a commits, b bids in the clear, a opens; the higher bid scores."""

    name = "toy-bid"
    title = "Toy sealed bids"
    version = "1"
    roles = ("a", "b")
    required_roles = ("a", "b")
    data_files = ()
    decision_types = (Bid, Reveal)
    steps = {
        "bid": Step(
            asks=BIDS.asks,
            prompt=lambda s, r: "bid 1..9" + ("" if BIDS.is_last(s, r) else " (sealed)"),
            handlers={Bid: do_bid},
            choices=bid_choices,
            commits=BIDS.commits,
        ),
        "reveal": Step(
            asks=BIDS.asks,
            prompt=lambda s, r: "reveal your bid",
            handlers={Reveal: do_reveal},
            choices=lambda s, r: [Reveal()],
        ),
    }

    def default_data(self) -> dict[str, bytes]:
        return {}

    def load_data(self, files: Mapping[str, bytes]) -> Any:
        return None

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        state: State = {"turn": 1, "step": "bid", "score": {"a": 0, "b": 0}, "pieces": {}}
        BIDS.start(state, ("a", "b"))
        return state

    def after(self, state: State, role: str, decision: Any, ctx: Context) -> None:
        if state["step"] == "bid" and not BIDS.choosing(state) and BIDS.active(state):
            state["step"] = "reveal"

    def check_claims(self, piece: dict[str, Any], value: JSON) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 9:
            raise false_claim(
                piece["placed_at"],
                piece["owner"],
                f"{piece['label']} opens as {value!r}, not a bid 1..9",
                "bids",
            )
        for claim in piece["claims"]:
            if claim["parity"] != ("odd" if value % 2 else "even"):
                raise false_claim(
                    claim["seq"],
                    claim["by"],
                    f"{piece['label']} claimed {claim['parity']}, but it opens as {value}",
                    "bids",
                )

    def parse_decision(self, text: str, state: State, role: str) -> Any:
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
            values = BIDS.seal(state, role, decision.value)
            if values:
                return Bid(None, decision.claim), values
        return decision, {}

    def outcome(self, state: State) -> Outcome | None:
        if state["step"] != "over":
            return None
        a, b = state["score"]["a"], state["score"]["b"]
        return Outcome("a" if a > b else "b", "win", dict(state["score"]), f"{a}-{b}")


ENGINE = ToyBid()
register("toy-bid", "tests.support.bid:ENGINE")
