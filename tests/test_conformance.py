"""Conformance: every registered game must pass these (OpenSpiel's random_sim_test).

Random bots play whole games through the real adjudicator with signed entries:
no crash, no dead end (someone is asked until the outcome, and the asked role
has a legal choice), every game replays to the identical state and RNG log,
and no role's view or event ever contains another role's unopened secret.

Why the secret check can be generic: sealed values live only in their owner's
store (here, the Table's); engines see a value only once its commitment is
opened in the log, so a view can only leak what `view_known` is given. The
test gives each role its own secrets and checks that no view, public or
private, shows an unrevealed chain value or any salt, and that every
commitment is opened by the end of the game. Each game's own tests check its
views for the other side's sealed values.
"""

from __future__ import annotations

import random
import re

import pytest

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem.core.canonical import canonical_bytes
from pbem.core.engine import get_engine, registered
from pbem.ledger import replay
from tests.support.players import Table

GAMES = registered()
HEX_32 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
SEEDS = range(12)


@pytest.mark.parametrize("rules", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_reaches_an_outcome_and_replays_identically(rules: str, seed: int) -> None:
    table = Table(rules, get_engine(rules).roles, nonce=f"{seed}")
    table.join_all()
    game = table.game
    rng = random.Random(seed)
    engine = get_engine(rules)
    while game.outcome() is None:
        prompts = game.prompts()
        assert prompts, "dead end: nobody is asked for anything"
        if not game.waiting_for_entropy:
            for prompt in prompts:
                assert engine.choices(game.state, prompt.role), f"{prompt.role} has no choice"
        _check_views(table)
        table.step(rng)
        assert len(game.entries) < 20000
    assert game.prompts() == []
    assert game.unopened() == [], "every commitment is opened by the end of the game"
    _check_views(table)

    again = replay(game.entries, {})
    assert canonical_bytes(again.state) == canonical_bytes(game.state)
    assert [r.line() for r in again.rng_log] == [r.line() for r in game.rng_log]
    assert again.actions == game.actions
    assert again.outcome() == game.outcome()


@pytest.mark.parametrize("rules", GAMES)
def test_a_game_with_only_the_required_roles_is_self_witnessed(rules: str) -> None:
    engine = get_engine(rules)
    table = Table(rules, engine.required_roles, nonce="99")
    table.join_all()
    table.play(random.Random(99))
    assert table.game.self_witnessed == (len(engine.required_roles) == 1)


def _check_views(table: Table) -> None:
    game = table.game
    if game.state is None:
        return
    hidden = set(table.unrevealed())
    texts = [canonical_bytes(game.engine.view(game.state, role)).decode() for role in game.roles]
    texts += [
        canonical_bytes(game.engine.view_known(game.state, role, table.known(role))).decode()
        for role in game.roles
    ]
    texts.append(canonical_bytes(game.engine.view(game.state, None)).decode())
    texts += [event.text for action in game.actions[-5:] for event in action.events]
    for text in texts:
        leaked = hidden.intersection(HEX_32.findall(text.lower()))
        assert not leaked, f"a view or event shows a secret: {sorted(leaked)[0][:16]}..."
