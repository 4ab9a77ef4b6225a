"""Seeded bot games: 200 through the engine directly (commitments and private draws faked
by b45_support.Game), 10 through the real adjudicator (tests.support.players.Table), with
invariants after every decision: stacking, hand limit 6, each card used once, units
conserved, every commitment opened at the end; and parse(format(d)) == d for every choice."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.core.engine import register
from pbem.games.berlin_1945.bot import choose
from pbem.games.berlin_1945.rules import ENGINE
from pbem.games.berlin_1945.state import HAND_LIMIT, ROLES, limit
from tests.games.berlin_1945.b45_support import Game

register("berlin-1945", "pbem.games.berlin_1945.rules:ENGINE")

UNITS = len(ENGINE.setup(None, {})["units"])


def check_invariants(state: dict[str, Any]) -> None:
    assert len(state["units"]) == UNITS  # units are conserved: on, off or removed
    for zone in state["map"]["zones"]:
        for side in ROLES:
            here = [
                u
                for u in state["units"].values()
                if u["zone"] == zone and u["side"] == side and u["status"] == "on"
            ]
            cap = limit(state, zone, side)
            assert cap is None or len(here) <= cap, f"stacking in {zone} ({side})"
            if side == "german":
                assert state["map"]["ring"][zone] != 0 or not here, "Germans in an Area"
    for role in ROLES:
        slots = state["hands"][role]["slots"].values()
        held = [s for s in slots if s["status"] in ("hand", "pending")]
        if state["step"] not in ("draw", "limit"):
            assert len(held) <= HAND_LIMIT
        played = state["played"][role]
        assert len(played) == len(set(played)), "a card used twice"


def check_syntax(decisions: list[Any]) -> None:
    for d in decisions:
        text = ENGINE.format(d)
        assert ENGINE.parse(text, {}, "german") == d
        assert ENGINE.parse(text.upper(), {}, "german") == d


@pytest.mark.parametrize("block", range(10))
def test_200_seeded_bot_games_finish_with_invariants(block: int) -> None:
    for seed in range(block * 20, block * 20 + 20):
        g = Game(seed)
        steps = 0
        while ENGINE.outcome(g.state) is None:
            role = g.asked()
            assert role is not None, "dead end"
            private = g.private(role)
            if steps % 7 == 0:
                options = ENGINE.choices(private, role)
                assert options, f"{role} has no choice"
                assert ENGINE.choices(g.state, role), "the public state offers a choice too"
                check_syntax(options)
            g.decide(role, choose(ENGINE, private, role, g.rng))
            check_invariants(g.state)
            steps += 1
            assert steps < 3000
        assert set(g.sealed) == g.opened, "every commitment is opened by the end"
        for role in ROLES:
            drawn = [s["card"] for s in g.state["hands"][role]["slots"].values()]
            assert len(drawn) == len(set(drawn)), "each card drawn once"
        outcome = ENGINE.outcome(g.state)
        assert outcome is not None and outcome.winner in ROLES


@pytest.mark.parametrize("seed", range(10))
def test_bot_games_through_the_adjudicator(seed: int) -> None:
    from tests.support.players import Table

    table = Table("berlin-1945", ROLES, nonce=f"b45-{seed}", signed=False)
    table.join_all()
    table.play(random.Random(seed))
    game = table.game
    assert game.outcome() is not None
    assert game.unopened() == []
    check_invariants(game.state)
    # each side's view never holds the other's unopened card
    for role in ROLES:
        view = ENGINE.view_known(game.state, role, table.known(role))
        assert view["step"] == "over"


def test_a_german_view_never_holds_the_soviet_plan_or_hand_through_the_adjudicator() -> None:
    from tests.support.players import Table

    table = Table("berlin-1945", ROLES, nonce="hidden", signed=False)
    table.join_all()
    rng = random.Random(3)
    seen_plan = False
    while table.game.outcome() is None and len(table.game.entries) < 400:
        state = table.game.state
        if state is not None and not table.game.waiting_for_entropy:
            german = ENGINE.view_known(state, "german", table.known("german"))
            soviet = ENGINE.view_known(state, "soviet", table.known("soviet"))
            for k, slot in german["hands"]["soviet"]["slots"].items():
                if slot["status"] != "played":
                    assert slot["card"] is None
                    seen = soviet["hands"]["soviet"]["slots"][k]["card"]
                    assert seen is not None or slot["status"] == "pending"
            if state["step"] == "german" and state["plan"] is not None:
                assert "mine" not in german["plan"] and german["plan"]["orders"] is None
                assert "mine" in soviet["plan"]
                seen_plan = True
        table.step(rng)
    assert seen_plan
