"""Standing orders (pbem.kit.orders) and automatic answers (pbem.answers), without stores:
what an order accepts, which answer comes first, and that in whole bot games every
automatic answer is one the rules accept and the step's own choices offer (issue 14)."""

from __future__ import annotations

import random

import pytest

from pbem.answers import ACKNOWLEDGE, ONLY_CHOICE, automatic
from pbem.bots import bot_orders, choose
from pbem.errors import InvalidOrderError
from pbem.games.berlin_1945.standing import ORDERS as B45_ORDERS
from pbem.games.race_to_berlin.standing import ORDERS as RTB_ORDERS
from pbem.kit import orders as kit_orders
from pbem.testing import SignedTable


def test_an_order_argument_is_read_in_normal_form() -> None:
    reserves = RTB_ORDERS["reserves"]
    assert reserves.read("  Keep   AT 7 ") == "keep at 7"
    assert reserves.read("keep if winning") == "keep if winning"
    assert RTB_ORDERS["support"].read("best min 2") == "best min 2"


@pytest.mark.parametrize(
    "argument",
    ["keep at x", "keep at", "keep at 1234", "keep; rm -rf", "reroll", "", "keep at -1"],
)
def test_an_order_refuses_what_it_does_not_say(argument: str) -> None:
    with pytest.raises(InvalidOrderError) as refused:
        RTB_ORDERS["reserves"].read(argument)
    message = str(refused.value)
    assert "\n" not in message and "'keep at N'" in message and "'keep if winning'" in message


def test_only_orders_for_the_current_step_answer_and_a_stale_one_is_skipped() -> None:
    table = {"react": B45_ORDERS["react"]}
    # an order for another step, an unknown name and an argument no longer valid: none
    assert kit_orders.answer(table, "combat", {}, "german", {"react": "none"}) is None
    assert kit_orders.answer(table, "react", {}, "german", {"nonsense": "none"}) is None
    assert kit_orders.answer(table, "react", {}, "german", {"react": "always"}) is None
    found = kit_orders.answer(table, "react", {}, "german", {"react": "none"})
    assert found is not None and found[1] == "react: none"


def _bot_game(rules: str, seed: int) -> list[tuple[str, str, str]]:
    """A whole bot game with every role's bot orders on; checks every automatic answer
    against the step's choices and returns (role, step, reason) for each of them."""
    table = SignedTable(rules, tuple(_roles(rules)), signed=False, nonce=f"orders-{seed}")
    table.join_all()
    engine, game = table.engine, table.game
    orders = bot_orders(rules)
    rng = random.Random(seed)
    answers = []
    while game.outcome() is None:
        assert len(game.entries) < 5000
        role = game.next_signer()
        assert role is not None
        private = engine.with_secrets(table.state_for(role), role, table.known(role))
        asked = any(p.role == role for p in engine.prompts(private))
        answer = automatic(engine, private, role, orders, dice_waiting=game.waiting_for_entropy)
        if answer is None:
            if asked:
                table.decide(role, choose(engine, private, role, rng), private)
            else:
                table.ack(role)
            continue
        step = str(private.get("step")) if isinstance(private, dict) else ""
        if answer.is_ack:
            assert not asked and answer.reason == ACKNOWLEDGE
            table.ack(role)
        else:
            listed = engine.choices(private, role)
            assert answer.decision in listed, (step, answer)
            if answer.reason == ONLY_CHOICE:
                assert listed == [answer.decision]
            table.decide(role, answer.decision, private)  # the adjudicator checks it
        answers.append((role, step, answer.reason))
    return answers


def _roles(rules: str) -> list[str]:
    from pbem.ledger import engine_by_name

    return list(engine_by_name(rules).roles)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_race_to_berlin_bots_with_orders_answer_only_what_the_rules_offer(seed: int) -> None:
    answers = _bot_game("race-to-berlin", seed)
    reasons = {reason for _role, _step, reason in answers}
    assert ACKNOWLEDGE in reasons and any(r.startswith("standing order") for r in reasons)
    # combat reactions by both players are answered (rulebook 4.2.1.2 steps 4-9)
    steps = {step for _role, step, _reason in answers}
    assert {"support", "tokens"} <= steps


@pytest.mark.parametrize("seed", [1, 2])
def test_berlin_1945_bots_with_orders_answer_only_what_the_rules_offer(seed: int) -> None:
    answers = _bot_game("berlin-1945", seed)
    reasons = {reason for _role, _step, reason in answers}
    assert ONLY_CHOICE in reasons  # the draws and openings (rulebook 2.3, 7.3)
    assert "standing order react: none" in reasons


def test_barbarossa_witness_acknowledges_by_itself() -> None:
    answers = _bot_game("barbarossa", 1)
    assert answers and all(role == "referee" for role, _s, _r in answers)
    assert {reason for _role, _step, reason in answers} == {ACKNOWLEDGE}


def test_race_to_the_sea_clients_answer_the_forced_steps_by_themselves() -> None:
    answers = _bot_game("race-to-the-sea", 1)
    steps = {step for _role, step, reason in answers if reason == ONLY_CHOICE}
    # 7.2.A the unseen discard, 7.4 opening a sealed bid, 7.7.6.C the final openings
    assert {"discard", "open_bid", "final"} <= steps
