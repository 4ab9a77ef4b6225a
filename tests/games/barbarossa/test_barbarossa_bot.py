"""Seeded bot games: every game ends, VP stay in 0..20 and the state invariants hold.

Each game is played on a `pbem.testing.Table`, which also checks at every decision that
the text round-trips and that the decision is valid before its first roll; `play_game`
checks that `apply` leaves its input state unchanged (by equality with a copy: the
table's own check, by canonical bytes, would make 200 games four times slower).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes, copy_json
from pbem.games.barbarossa.bot import choose
from pbem.games.barbarossa.data import d3
from pbem.games.barbarossa.rules import ENGINE, GERMAN
from pbem.testing import Table

GAMES = 200


def assert_plain_json(value: Any, where: str = "state") -> None:
    """Only dicts with str keys, lists, ints, strs, bools and None (no tuples, no floats)."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), f"{where}: key {key!r}"
            assert_plain_json(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            assert_plain_json(item, f"{where}[{i}]")
    else:
        assert value is None or isinstance(value, bool | int | str), f"{where}: {value!r}"
        assert not isinstance(value, float)


def check_invariants(state: dict[str, Any]) -> None:
    limits, cubes = state["limits"], state["cubes"]
    assert 0 <= cubes["supply"] <= limits["supply"] == 5
    assert 0 <= cubes["command"] <= limits["command"] == 3
    pool = state["pool"]
    assert sum(d["colour"] == "red" for d in pool) <= limits["red_dice"] == 3
    assert [d["die"] for d in pool] == list(range(1, len(pool) + 1))
    if state["step"] == "allocate":
        for die in pool:
            base = d3(die["roll"]) if die["colour"] == "red" else die["roll"]
            assert die["value"] == base + die["boost"]
            if die["six"] is not None:
                assert die["colour"] == "white" and die["roll"] == 6
    captured_stars = 0
    for path in state["paths"]:
        statuses = [c["status"] for c in path["cities"]]
        n_captured = statuses.count("captured")
        assert statuses[:n_captured] == ["captured"] * n_captured
        rest = statuses[n_captured:]
        if rest:
            assert rest == ["unlocked"] + ["locked"] * (len(rest) - 1)
        for city in path["cities"]:
            marked = [b["marked"] for b in city["boxes"]]
            k = sum(marked)
            assert marked == [True] * k + [False] * (len(marked) - k), city["id"]
            assert (city["status"] == "captured") == all(marked)
            if city["status"] == "locked":
                assert k == 0
            if city["status"] == "captured":
                captured_stars += city["stars"]
    assert state["vp"] == captured_stars and 0 <= state["vp"] <= 20
    marked_turns = sum(b["marked"] for b in state["timeline"])
    expected = state["turn"] - (1 if state["step"] == "roll_event" else 0)
    assert marked_turns == expected
    assert 1 <= state["turn"] <= 12


def play_game(seed: int, check: bool = True) -> tuple[dict[str, Any], int]:
    rng = random.Random(seed)
    table = Table(ENGINE, seed=seed * 7919 + 1, check=False)  # the table's rng rolls the dice
    steps = 0
    while ENGINE.prompts(table.state):
        options = ENGINE.choices(table.state, GERMAN)
        decision = choose(ENGINE, table.state, GERMAN, rng)
        assert decision in options
        state = table.state
        before = copy_json(state) if check else None
        table.decide(GERMAN, decision)
        if check:
            assert state == before, "apply mutated its input"
            check_invariants(table.state)
        steps += 1
        assert steps < 1000, "the bot does not end its turns"
    return table.state, steps


def test_two_hundred_seeded_bot_games_reach_the_outcome() -> None:
    scores = []
    for seed in range(GAMES):
        state, _ = play_game(seed)
        outcome = ENGINE.outcome(state)
        assert outcome is not None and ENGINE.prompts(state) == []
        assert 0 <= outcome.score["german"] == state["vp"] <= 20
        assert all(b["marked"] for b in state["timeline"])
        assert_plain_json(state)
        canonical_bytes(state)
        scores.append(state["vp"])
    # a sensible bot takes a fair share of the map; the map is not a walkover
    assert 8 <= sum(scores) / len(scores) <= 17


def test_bot_games_are_deterministic() -> None:
    assert play_game(11, check=False) == play_game(11, check=False)


def test_bot_never_uses_global_random(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("global random used")

    for name in ("random", "randint", "choice", "shuffle", "randrange", "uniform", "sample"):
        monkeypatch.setattr(random, name, forbidden)
    play_game(3, check=False)


def test_bot_refuses_a_role_with_nothing_to_decide(fresh: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="no decision"):
        choose(ENGINE, fresh, "referee", random.Random(0))
