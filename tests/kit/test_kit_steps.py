"""The kit's step table and shared `apply` (pbem/kit/steps.py, pieces.py): the checks every
game gets in the same words, reveal obligations, and views that strip others' secrets."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from pbem.core.canonical import JSON
from pbem.core.engine import Context, Outcome, State
from pbem.errors import IllegalOrderError, InvalidOrderError
from pbem.kit import pieces
from pbem.kit.steps import Openings, Step, StepGame, asks, asks_key
from pbem.testing import ScriptedContext, Table


@dataclass(frozen=True)
class Hide:
    value: int | None


@dataclass(frozen=True)
class Poke:
    pass


@dataclass(frozen=True)
class Show:
    pass


def hide(state: State, role: str, d: Hide, ctx: Context) -> None:
    piece = pieces.place(ctx, f"coin/{role}", role, "3", side="up")
    pieces.claim(piece, ctx, role, small=True)
    state["pieces"][piece["label"]] = piece
    state["turn"] = "b"
    state["step"] = "poke"


def poke(state: State, role: str, d: Poke, ctx: Context) -> None:
    pieces.oblige(state["pieces"]["coin/a"], "b poked it")
    state["turn"] = "a"
    state["step"] = "show"


def show(state: State, role: str, d: Show, ctx: Context) -> None:
    ctx.event(f"a shows {state['pieces']['coin/a']['value']}")
    state["step"] = "over"


class Coin(StepGame):
    """A hides a coin value (claiming it is small); b pokes; a must show it."""

    name = "toy-coin"
    title = "Coin"
    version = "1"
    roles = ("a", "b")
    required_roles = roles
    data_files = ()
    decision_types = (Hide, Poke, Show)
    turn_rule = "1"
    over_rule = "9"
    static_keys = ("board",)
    steps = {
        "hide": Step(
            asks=asks("a"),
            prompt=lambda s, r: "hide a coin",
            handlers={Hide: hide},
            choices=lambda s, r: [Hide(v) for v in (1, 2, 10)],
            sample=lambda s, r, rng: Hide(rng.choice((1, 2))),
            commits=lambda s, r, d: ["coin/a"],
        ),
        "poke": Step(
            asks=asks_key("turn"),
            prompt=lambda s, r: "poke",
            handlers={Poke: poke},
            choices=lambda s, r: [Poke()],
        ),
        "show": Step(
            asks=asks_key("turn"),
            prompt=lambda s, r: "show",
            handlers={Show: show},
            choices=lambda s, r: [Show()],
            opens=lambda s, r, d: Openings(optional=frozenset({"coin/b"})),
        ),
    }

    def default_data(self) -> dict[str, bytes]:
        return {}

    def load_data(self, files: Mapping[str, bytes]) -> Any:
        return None

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        return {"step": "hide", "turn": "a", "pieces": {}, "board": {"size": [3, 3]}}

    def check_claims(self, piece: dict[str, Any], value: JSON) -> None:
        for claim in piece["claims"]:
            if claim["small"] and not (isinstance(value, int) and value < 5):
                raise pieces.false_claim(
                    claim["seq"], claim["by"], f"the coin is {value}, not small", "3"
                )

    def parse_decision(self, text: str, state: State, role: str) -> Any:
        words = text.split()
        if words == ["hide"]:
            return Hide(None)
        if len(words) == 2 and words[0] == "hide" and words[1].isdigit():
            return Hide(int(words[1]))
        if words in (["poke"], ["show"]):
            return Poke() if words == ["poke"] else Show()
        raise InvalidOrderError(f"{text!r}?")

    def format(self, decision: Any) -> str:
        if isinstance(decision, Hide):
            return "hide" if decision.value is None else f"hide {decision.value}"
        return "poke" if isinstance(decision, Poke) else "show"

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        if isinstance(decision, Hide) and decision.value is not None:
            return Hide(None), {"coin/a": decision.value}
        return decision, {}

    def outcome(self, state: State) -> Outcome | None:
        return Outcome(None, "done", {}, "done") if state["step"] == "over" else None


COIN = Coin()


def refused(state: State, role: str, decision: Any, **ctx: Any) -> str:
    with pytest.raises(IllegalOrderError) as caught:
        COIN.apply(state, role, decision, ScriptedContext(**ctx))
    return str(caught.value)


def test_the_shared_checks_speak_the_same_words_for_every_game() -> None:
    state = COIN.setup(None, {})
    assert refused(state, "b", Hide(None)) == (
        "illegal: 'b' is not asked now; the game waits for a (rulebook 1)"
    )
    assert refused(state, "a", Poke()) == (
        "illegal: 'poke' is not possible now (hide a coin) (rulebook 1)"
    )
    assert "coin/b may not be committed" in refused(state, "a", Hide(None), committed=["coin/b"])
    assert "coin/x may not be opened" in refused(state, "a", Hide(None), opened={"coin/x": 1})
    assert refused(dict(state, step="over"), "a", Hide(None)) == (
        "illegal: the game is over (rulebook 9)"
    )
    assert "not a Coin decision" in refused(state, "a", "hide")


def test_a_reveal_obligation_binds_the_owners_next_entry_and_checks_its_claims() -> None:
    table = Table(COIN)
    table.decide("a", "hide 2")
    table.decide("b", "poke")
    assert COIN.due_openings(table.private("a"), "a", Show()) == ["coin/a"]
    message = refused(table.state, "a", Show())
    assert message == "illegal: this entry must open coin/a (b poked it) (rulebook 1)"
    ctx = table.decide("a", "show")
    assert ctx.texts == ["a shows 2"]
    assert table.state["pieces"]["coin/a"]["revealed"]


def test_a_false_claim_is_named_when_the_piece_opens() -> None:
    table = Table(COIN)
    table.decide("a", "hide 10")  # claims "small"
    table.decide("b", "poke")
    with pytest.raises(IllegalOrderError, match=r"false claim in entry 11 by a: the coin is 10"):
        table.decide("a", "show")


def test_views_fill_the_owners_value_and_strip_it_for_everyone_else() -> None:
    table = Table(COIN)
    table.decide("a", "hide 2")
    own = table.private("a")
    assert own["pieces"]["coin/a"]["value"] == 2
    assert table.state["pieces"]["coin/a"]["value"] is None  # the public state never has it
    for role in ("b", None):
        assert COIN.view(own, role) == COIN.view(table.state, role)
    assert COIN.view(own, "a")["pieces"]["coin/a"]["value"] == 2


def test_static_parts_are_shared_between_copies_and_the_rest_is_copied() -> None:
    state = COIN.setup(None, {})
    copy = COIN.clone(state)
    assert copy["board"] is state["board"]
    assert copy["pieces"] is not state["pieces"] and copy == state


def test_a_step_may_sample_a_choice_instead_of_listing_them() -> None:
    state = COIN.setup(None, {})
    picks = {COIN.sample_choice(state, "a", random.Random(seed)) for seed in range(20)}
    assert picks == {Hide(1), Hide(2)}
    assert COIN.choices(state, "b") == [] and COIN.asked_roles(state) == ["a"]


def _poked(state: State, ctx: Context) -> str | None:
    ctx.event("poked")
    return "to a" if state["turn"] == "b" else None


def _to_a(state: State, ctx: Context) -> str | None:
    state["turn"], state["step"] = "a", "show"
    return None


class Relayed(Coin):
    """Coin whose poke only changes the state and says what happened: the kit's table of
    continuations decides what comes next."""

    continuations = {"poked": _poked, "to a": _to_a}
    steps = {
        **Coin.steps,
        "poke": Step(
            asks=asks_key("turn"),
            prompt=lambda s, r: "poke",
            handlers={Poke: lambda s, r, d, c: "poked"},
            choices=lambda s, r: [Poke()],
        ),
    }


def test_a_handler_names_what_comes_next_and_the_kit_runs_it() -> None:
    game = Relayed()
    table = Table(game)
    table.decide("a", "hide 2")
    poked = table.state
    ctx = table.decide("b", "poke")
    assert ctx.texts == ["poked"]  # one continuation named the next, which set the step
    assert table.state["step"] == "show" and table.asked() == "a"
    lost = Relayed()
    lost.continuations = {"poked": lambda s, c: "nowhere"}
    with pytest.raises(KeyError, match="toy-coin has no continuation 'nowhere'"):
        lost.apply(poked, "b", Poke(), ScriptedContext())
