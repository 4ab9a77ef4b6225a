"""High Card: the new-game skeleton of docs/architecture-notes.md, played by tests/kit.

Two seats, north and south, play four rounds. Each round they stake 1-3 in a sealed
round (north commits, south answers in the clear, north opens); the higher stake (north
on a tie) draws a card from a public deck of 1-3 and scores it, the other scores its
stake. Used cards are discarded; the deck takes them back when it runs out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context, Outcome, State, register
from pbem.errors import InvalidOrderError
from pbem.kit import decks
from pbem.kit.sealed import SealedRound
from pbem.kit.steps import Step, StepGame

ROUNDS = 4
STAKES = SealedRound("stakes", lambda state, role: f"stake/{role}/{state['round']}", "2")


@dataclass(frozen=True)
class Stake:
    value: int | None  # None in a sealed stake's public decision


@dataclass(frozen=True)
class Open:
    pass


# --- 2. Stakes: a sealed round ----------------------------------------------------------------


def stake(state: State, role: str, d: Stake, ctx: Context) -> None:
    STAKES.choose(state, role, d.value, ctx)
    if not STAKES.choosing(state):
        state["step"] = "open"


def open_stake(state: State, role: str, d: Open, ctx: Context) -> None:
    stakes = STAKES.finish(state)  # the kit opened north's stake before this handler
    north, south = int(stakes["north"]), int(stakes["south"])
    winner, loser = ("north", "south") if north >= south else ("south", "north")
    card = decks.draw(state["deck"], ctx, f"round {state['round']}: {winner} draws")
    decks.discard(state["deck"], card)
    state["score"][winner] += card
    state["score"][loser] += stakes[loser]
    ctx.event(f"stakes {north}-{south}: {winner} draws {card}, {loser} keeps {stakes[loser]}")
    state["round"] += 1
    if state["round"] > ROUNDS:
        state["step"] = "over"
        return
    STAKES.start(state, ("north", "south"))
    state["step"] = "stake"


def stake_choices(state: State, role: str) -> list[Any]:
    return [Stake(v) for v in (1, 2, 3)]


# --- the game ---------------------------------------------------------------------------------


class HighCard(StepGame):
    """High Card: stake in a sealed round, the higher stake draws from the deck."""

    name = "toy-high-card"
    title = "High Card"
    version = "1"
    roles = ("north", "south")
    required_roles = roles
    data_files = ()
    decision_types = (Stake, Open)
    turn_rule = "1"
    steps = {
        "stake": Step(
            asks=STAKES.asks,
            prompt=lambda s, r: "stake 1-3 ('stake N')",
            handlers={Stake: stake},
            choices=stake_choices,
            commits=STAKES.commits,
        ),
        "open": Step(
            asks=STAKES.asks,
            prompt=lambda s, r: "open your stake ('open')",
            handlers={Open: open_stake},
            choices=lambda s, r: [Open()],
        ),
    }

    def default_data(self) -> dict[str, bytes]:
        return {}

    def load_data(self, files: Mapping[str, bytes]) -> Any:
        return None

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        state: State = {"round": 1, "step": "stake", "score": {"north": 0, "south": 0}}
        state["deck"] = decks.new_deck([1, 2, 3])
        STAKES.start(state, ("north", "south"))
        return state

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        if isinstance(decision, Stake) and decision.value is not None:
            values = STAKES.seal(state, role, decision.value)
            if values:
                return Stake(None), values
        return decision, {}

    def parse_decision(self, text: str, state: State, role: str) -> Any:
        words = text.split()
        if words == ["open"]:
            return Open()
        if words == ["stake"]:
            return Stake(None)
        if len(words) == 2 and words[0] == "stake" and words[1] in ("1", "2", "3"):
            return Stake(int(words[1]))
        raise InvalidOrderError(f"{text!r}: expected 'stake 1-3' or 'open'")

    def format(self, decision: Any) -> str:
        if isinstance(decision, Open):
            return "open"
        return "stake" if decision.value is None else f"stake {decision.value}"

    def outcome(self, state: State) -> Outcome | None:
        if state["step"] != "over":
            return None
        north, south = state["score"]["north"], state["score"]["south"]
        winner = "north" if north > south else "south" if south > north else None
        return Outcome(winner, "points", dict(state["score"]), f"{north}-{south}")


ENGINE = HighCard()
register("toy-high-card", "tests.support.skeleton:ENGINE")
