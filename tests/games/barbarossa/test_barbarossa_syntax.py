"""Barbarossa decision syntax and the deferral rule, checked over many random states."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from pbem.errors import EntropyPending, IllegalOrderError, InvalidOrderError
from pbem.games.barbarossa.bot import choose
from pbem.games.barbarossa.decisions import (
    Accept,
    Attack,
    Boost,
    BoostEvent,
    Claim,
    End,
    Reroll,
    RerollEvent,
    RollEvent,
    Supply,
)
from pbem.games.barbarossa.rules import ENGINE, GERMAN
from pbem.testing import ScriptedContext, Table


def sample_states(games: int, every: int, seed: int = 0) -> list[dict[str, Any]]:
    """States met along seeded games, half by the bot and half by uniform random choices."""
    out = []
    for g in range(games):
        rng = random.Random(seed + g)
        table = Table(ENGINE, seed=10_000 + seed + g)  # the table's rng rolls the dice
        step = 0
        while ENGINE.prompts(table.state):
            if step % every == 0:
                out.append(table.state)
            if g % 2:
                decision = rng.choice(ENGINE.choices(table.state, GERMAN))
            else:
                decision = choose(ENGINE, table.state, GERMAN, rng)
            table.decide(GERMAN, decision)
            step += 1
        out.append(table.state)
    return out


# Played when a test first asks, not at import: every xdist worker imports every test
# module while collecting, and only the worker that runs these tests needs the games.
@cache
def states() -> list[dict[str, Any]]:
    return sample_states(games=16, every=1)


def sparse() -> list[dict[str, Any]]:
    return states()[::9]


def test_parse_format_round_trip_over_choices_of_many_states() -> None:
    seen = set()
    for state in states():
        for decision in ENGINE.choices(state, "german"):
            text = ENGINE.format(decision)
            assert ENGINE.parse(text, state, "german") == decision, text
            messy = "  " + "   ".join(text.upper().split()) + " "
            assert ENGINE.parse(messy, state, "german") == decision, messy
            seen.add(type(decision))
    assert seen == {
        RollEvent,
        BoostEvent,
        RerollEvent,
        Accept,
        Reroll,
        Boost,
        Claim,
        Supply,
        Attack,
        End,
    }


@pytest.mark.parametrize(
    "text,decision",
    [
        ("roll event", RollEvent()),
        ("Roll", RollEvent()),
        ("boost event 1", BoostEvent(1)),
        ("boost event +2", BoostEvent(2)),
        ("re-roll event", RerollEvent()),
        ("ACCEPT", Accept()),
        ("reroll 3", Reroll(3)),
        ("re-roll die 3", Reroll(3)),
        ("boost 2 1", Boost(2, 1)),
        ("boost 2 +2", Boost(2, 2)),
        ("boost die 2", Boost(2, 1)),
        ("claim 1", Claim(1)),
        ("supply 4", Supply(4)),
        ("resupply 4", Supply(4)),
        ("attack minsk with 3", Attack("minsk", 3)),
        ("Attack  MINSK   with die 3", Attack("minsk", 3)),
        ("attack mi 3", Attack("minsk", 3)),
        ("attack bia with 1", Attack("bialystok", 1)),
        ("attack Rostov 2", Attack("rostov", 2)),
        ("end", End()),
        ("End phase", End()),
        ("done", End()),
    ],
)
def test_parse_accepts_the_syntax_and_its_variants(text: str, decision: Any) -> None:
    state = ENGINE.setup(ENGINE.load_data({}), {})
    assert ENGINE.parse(text, state, "german") == decision


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty decision"),
        ("   ", "empty decision"),
        ("fly to moscow", "unknown command 'fly'"),
        ("attack berlin with 3", "no city called 'berlin'"),
        ("attack m with 3", "'m' could be minsk, moscow"),
        ("attack minsk", "expected 'attack <city> with <die>'"),
        ("attack minsk with x", "the die must be a number"),
        ("reroll", "expected 'reroll event' or 'reroll <die>'"),
        ("reroll 0", "the die must be 1 or more"),
        ("boost 2 0", "the number of cubes must be 1 or more"),
        ("boost two", "the die must be a number"),
        ("boost 1 2 3", "expected 'boost event <cubes>' or 'boost <die> <cubes>'"),
        ("claim", "expected 'claim <die>'"),
        ("supply 1 2", "expected 'supply <die>'"),
        ("accept now", "expected 'accept' alone"),
        ("roll dice", "expected 'roll event'"),
        ("end game now", "expected 'end'"),
    ],
)
def test_parse_errors_quote_the_text_and_say_what_was_expected(text: str, fragment: str) -> None:
    state = ENGINE.setup(ENGINE.load_data({}), {})
    with pytest.raises(InvalidOrderError) as info:
        ENGINE.parse(text, state, "german")
    assert repr(text) in str(info.value)
    assert fragment in str(info.value)


def test_format_refuses_foreign_objects() -> None:
    with pytest.raises(InvalidOrderError):
        ENGINE.format("attack")


def candidates(state: dict[str, Any]) -> list[Any]:
    """Well-formed decisions, legal or not, around the current state."""
    cities = [c["id"] for p in state["paths"] for c in p["cities"]] + ["berlin"]
    dice = range(0, len(state["pool"]) + 2)
    out: list[Any] = [RollEvent(), Accept(), RerollEvent(), End()]
    out += [BoostEvent(n) for n in range(0, 14)]
    for n in dice:
        out += [Reroll(n), Claim(n), Supply(n)]
        out += [Boost(n, k) for k in range(0, 8)]
        out += [Attack(c, n) for c in cities]
    return out


def test_choices_are_exactly_the_legal_decisions_and_validation_precedes_rolls() -> None:
    """The deferral rule: under a context that raises EntropyPending, a decision in
    choices() never raises IllegalOrderError, and every other decision raises it before
    asking for any die."""
    for state in sparse():
        before = json.dumps(state, sort_keys=True)
        legal = ENGINE.choices(state, "german")
        for decision in candidates(state):
            ctx = ScriptedContext(pending=True)
            try:
                ENGINE.apply(state, "german", decision, ctx)
            except IllegalOrderError as exc:
                assert decision not in legal, (decision, str(exc))
                assert ctx.requests == 0, decision
                assert str(exc).startswith("illegal: ")
                assert "(rulebook: " in str(exc)
            except EntropyPending:
                assert decision in legal, decision
                assert ctx.requests == 1
            else:
                assert decision in legal, decision
                assert ctx.requests == 0
        assert json.dumps(state, sort_keys=True) == before


def test_apply_refuses_foreign_objects() -> None:
    state = ENGINE.setup(ENGINE.load_data({}), {})
    with pytest.raises(
        IllegalOrderError, match="'roll event' is not a Operation Barbarossa decision"
    ):
        ENGINE.apply(state, "german", "roll event", ScriptedContext(pending=True))


def test_prompts_only_ever_ask_the_german_player() -> None:
    for state in sparse():
        prompts = ENGINE.prompts(state)
        if state["phase"] == "over":
            assert prompts == []
        else:
            assert [p.role for p in prompts] == ["german"]
            assert ENGINE.choices(state, "referee") == []
