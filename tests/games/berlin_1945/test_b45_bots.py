"""Seeded bot games: 120 on `pbem.testing.Table` (every client and the adjudicator's checks in
memory: sealed plans and hands, private draws, `apply` validated before its dice and never
changing its input), 10 through the real adjudicator with signed entries, with invariants
after every decision: stacking, no German in an Area, hand limit 6, each card used once,
every unit in exactly one place, every commitment opened at the end; and
parse(format(d)) == d for every listed choice. (120, not 200: some 25,000 decisions, each
checked; 200 took two thirds more time for the same checks.)"""

from __future__ import annotations

import marshal
import random
from typing import Any

import pytest

import pbem.games  # noqa: F401  (registers berlin-1945)
from pbem.core.canonical import canonical_bytes
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.hands import in_hand
from pbem.games.berlin_1945.position import limit
from pbem.games.berlin_1945.rulebook import HAND_LIMIT, ROLES
from pbem.games.berlin_1945.rules import ENGINE
from pbem.testing import SignedTable
from tests.games.berlin_1945.b45_support import table


def check_invariants(state: dict[str, Any]) -> None:
    t = tables.of(state)
    seen: list[str] = list(state["removed"])
    for side in ROLES:
        for zone, uids in state["at"][side].items():
            assert uids and uids == sorted(uids), f"{side} units in {zone}: {uids}"
            assert all(t.units[u].side == side for u in uids)
            seen += uids
            cap = limit(state, zone, side)
            assert cap is None or len(uids) <= cap, f"stacking in {zone} ({side})"
            if side == "german":
                assert t.ring[zone] != 0, "Germans in an Area"
    assert len(seen) == len(set(seen)), "a unit in two places"  # units are conserved
    assert set(seen) <= set(t.units)
    for role in ROLES:
        if state["step"] not in ("draw", "limit"):
            assert len(in_hand(state, role)) <= HAND_LIMIT
        played = state["played"][role]
        assert len(played) == len(set(played)), "a card used twice"


def unchanged(state: dict[str, Any]) -> bytes:
    """What `apply` must leave as it was: the state but its tables (a str, immutable), as
    marshal's version 0 bytes. They tell apart all that JSON with sorted keys did (True, 1
    and 1.0; -0.0 and 0.0; every str and int) and more (a tuple from a list, a key 1 from
    "1", the order of a dict's keys), with no reference between equal parts (version 0
    has none), and cost a third of `json.dumps(sort_keys=True)`, this check's time before.
    The table's own check (canonical bytes of the whole state) costs more still; it is
    made on the final state of each game instead."""
    return marshal.dumps({k: v for k, v in state.items() if k != "tables"}, 0)


def check_syntax(decisions: list[Any]) -> None:
    for d in decisions:
        text = ENGINE.format(d)
        assert ENGINE.parse(text, {}, "german") == d
        assert ENGINE.parse(text.upper(), {}, "german") == d


GAMES_PER_BLOCK = 12  # 10 blocks, so that test workers share them


@pytest.mark.parametrize("block", range(10))
def test_seeded_bot_games_finish_with_invariants(block: int) -> None:
    for seed in range(block * GAMES_PER_BLOCK, (block + 1) * GAMES_PER_BLOCK):
        t = table(seed)
        t.check = False  # the same checks, cheaper: below
        steps = 0
        while not t.over():
            role = t.asked()
            assert role is not None, "dead end"
            if steps % 7 == 0:
                options = ENGINE.choices(t.private(role), role)
                assert options, f"{role} has no choice"
                assert ENGINE.choices(t.state, role), "the public state offers a choice too"
                check_syntax(options)
            before, was = t.state, unchanged(t.state)
            t.step()
            assert unchanged(before) == was, "apply changed its input state"
            assert len(ENGINE.asked_roles(t.state)) <= 1, "two roles asked at once"
            check_invariants(t.state)
            steps += 1
            assert steps < 3000
        canonical_bytes(t.state)  # json.dumps lets tuples and floats through; this does not
        assert all(t.opened(label) for label in t.sealed), "every commitment opened by the end"
        for role in ROLES:
            drawn = [p["value"] for p in t.state["hands"][role]["slots"].values()]
            assert len(drawn) == len(set(drawn)), "each card drawn once"
        outcome = ENGINE.outcome(t.state)
        assert outcome is not None and outcome.winner in ROLES


@pytest.mark.parametrize("seed", range(10))
def test_bot_games_through_the_adjudicator(seed: int) -> None:
    signed = SignedTable("berlin-1945", ROLES, nonce=f"b45-{seed}", signed=False)
    signed.join_all()
    signed.play(random.Random(seed))
    game = signed.game
    assert game.outcome() is not None
    assert game.unopened() == []
    check_invariants(game.state)
    for role in ROLES:
        view = ENGINE.view_known(game.state, role, signed.known(role))
        assert view["step"] == "over"


def test_a_german_view_never_holds_the_soviet_plan_or_hand_through_the_adjudicator() -> None:
    signed = SignedTable("berlin-1945", ROLES, nonce="hidden", signed=False)
    signed.join_all()
    rng = random.Random(3)
    seen_plan = False
    while signed.game.outcome() is None and len(signed.game.entries) < 400:
        state = signed.game.state
        if state is not None and not signed.game.waiting_for_entropy:
            german = ENGINE.view_known(state, "german", signed.known("german"))
            soviet = ENGINE.view_known(state, "soviet", signed.known("soviet"))
            for k, slot in german["hands"]["soviet"]["slots"].items():
                if slot["status"] != "played":
                    assert slot["card"] is None
                    assert soviet["hands"]["soviet"]["slots"][k]["card"] is not None
            if state["step"] == "german" and state["plan"] is not None:
                assert "mine" not in german["plan"] and german["plan"]["orders"] is None
                assert "mine" in soviet["plan"]
                seen_plan = True
        signed.step(rng)
    assert seen_plan
