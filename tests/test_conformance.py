"""Conformance: every registered game must pass these (OpenSpiel's random_sim_test).

Random bots play whole games through the real adjudicator with signed entries:
no crash, no dead end (someone is asked until the outcome, and the asked role
has a legal choice), one role asked at a time, every game replays to the
identical state and RNG log, every commitment is opened by the end, and no
output for one role depends on another role's secrets.

The leak check is differential, so it can fail: every few entries, for each
role that holds secrets, the views and the rendered summaries of every other
role and of the public are computed from a state that holds the owner's
secrets (as a store holding them would), once with the real values and once
with other values (`pbem.testing.other_secrets`), and must be byte-identical; so
must their SVG maps and HTML turn pages (`pbem.testing.page_leaks`, in the games of
PAGE_SEEDS, each map drawn once per distinct input: tests/support/drawn_once.py).
tests/kit/test_kit_leaks.py shows it catching a planted leak, and
tests/render/test_page_leaks.py and tests/test_drawn_once.py one in a map.
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Iterator

import pytest

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import canonical_bytes
from pbem.core.engine import get_engine, registered
from pbem.ledger import replay
from pbem.render.summary import render_summary
from pbem.testing import leaks, other_secrets, page_leaks
from tests.support.drawn_once import drawn_once
from tests.support.players import Table
from tests.support.rendered_once import rendered_once
from tests.support.signatures_once import accepted_once

GAMES = registered()
SEEDS = range(12)
LEAK_EVERY = 5  # entries between two leak checks of the views
# Entries between two leak checks of the rendered summaries (and at the end of the game).
# A summary or page drawn from a secret leaks at every position that holds the secret, so
# whole games sampled every 80 entries find it as every 40 did, at half the cost (the
# renders were most of this file's time); the views themselves are checked every 5.
RENDER_EVERY = 80
# The maps and pages are checked with the summaries, in these seeds' games only: a page
# costs several summaries (its SVG), and four games a title find what twelve would.
PAGE_SEEDS = range(4)


# A long game plays fewer seeds here, to keep the suite within its time: Race to the Sea's
# games are ten turns, some 700 signed entries, and its 60 seeded games with
# invariants (tests/games/race_to_the_sea/test_rts_selfplay.py) and its own leak tests
# cover the breadth (three seeds here, all with pages).
# Götterdämmerung likewise (some 500 entries a game, on two maps; its 30 seeded games are
# tests/games/gotterdammerung/test_gd_selfplay.py).
# Race to Berlin and Berlin 1945 (some 260 and 140 entries) play eight: their 80 and 120
# seeded games in tests/games/*/test_*_bots.py check the invariants, these the replay and
# the leaks, with pages in the first four as for every title.
FEWER_SEEDS = {"race-to-the-sea": 3, "gotterdammerung": 2, "race-to-berlin": 8, "berlin-1945": 8}
RENDER_EVERY_FOR = {"race-to-the-sea": 120, "gotterdammerung": 120}  # long pages, summaries


@pytest.fixture(scope="module", autouse=True)
def _signatures_checked_once() -> Iterator[None]:
    """Each game's entries are checked as they are played, then replayed: the replay's
    check of a signature the table's game accepted is answered from memory; refusals and
    any other bytes are checked every time (tests/support/signatures_once.py)."""
    with accepted_once():
        yield


@pytest.mark.parametrize(
    ("seed", "rules"),
    [(seed, rules) for seed in SEEDS for rules in GAMES if seed < FEWER_SEEDS.get(rules, 99)],
)
def test_random_play_reaches_an_outcome_and_replays_identically(rules: str, seed: int) -> None:
    table = Table(rules, get_engine(rules).roles, nonce=f"{seed}")
    table.join_all()
    game = table.game
    rng = random.Random(seed)
    engine = get_engine(rules)
    last_step = None
    while game.outcome() is None:
        prompts = game.prompts()
        assert len(prompts) == 1, f"one role asked at a time, not {prompts}"
        # No dead end: the asked role has a legal choice. Checked at every new step of the
        # game's table and every few entries (each check lists a hex map's moves: a third
        # of this test's time when made at every entry).
        step = game.state.get("step") if isinstance(game.state, dict) else None
        if not game.waiting_for_entropy and (
            step != last_step or len(game.entries) % LEAK_EVERY == 0
        ):
            last_step = step
            for prompt in prompts:
                assert engine.choices(game.state, prompt.role), f"{prompt.role} has no choice"
        if len(game.entries) % LEAK_EVERY == 0:
            render = len(game.entries) % RENDER_EVERY_FOR.get(rules, RENDER_EVERY) == 0
            _check_leaks(table, render=render, pages=render and seed in PAGE_SEEDS)
        table.step(rng)
        assert len(game.entries) < 20000
    assert game.prompts() == []
    assert game.unopened() == [], "every commitment is opened by the end of the game"
    _check_leaks(table, render=True, pages=seed in PAGE_SEEDS)

    again = replay(game.entries, {})
    assert canonical_bytes(again.state) == canonical_bytes(game.state)
    assert [r.line() for r in again.rng_log] == [r.line() for r in game.rng_log]
    assert again.actions == game.actions
    assert again.outcome() == game.outcome()
    if set(engine.roles) == set(engine.required_roles):  # (the next test's other titles)
        assert game.self_witnessed == (len(engine.required_roles) == 1)


# A title whose roles are all required is played with only its required roles above, and
# self-witnessed is checked there at the end of each of its games: here only the others.
@pytest.mark.parametrize(
    "rules", [r for r in GAMES if set(get_engine(r).required_roles) != set(get_engine(r).roles)]
)
def test_a_game_with_only_the_required_roles_is_self_witnessed(rules: str) -> None:
    engine = get_engine(rules)
    table = Table(rules, engine.required_roles, nonce="99")
    table.join_all()
    table.play(random.Random(99))
    assert table.game.self_witnessed == (len(engine.required_roles) == 1)


def _check_leaks(table: Table, render: bool, pages: bool = False) -> None:
    """No output for another role or the public changes with one role's secrets."""
    game = table.game
    if game.state is None:
        return
    viewers: list[str | None] = [*game.roles, None]
    # One memo of drawn maps for the whole position (tests/support/drawn_once.py), not one
    # per owner: the public's page (and a third role's) is drawn from the same view in
    # every owner's check when nothing leaks, so it is drawn once here; a view that
    # differs is a different key, drawn anew, and the pages compared are the same bytes.
    # Likewise each summary and page template is rendered once per distinct context
    # (tests/support/rendered_once.py): what is rendered is computed anew every time, and
    # a context that differs (a leak) is rendered anew.
    with contextlib.ExitStack() as memos:
        if render:
            memos.enter_context(rendered_once())
        if pages:
            memos.enter_context(drawn_once())
        _check_owners(table, viewers, render, pages)


def _check_owners(table: Table, viewers: list[str | None], render: bool, pages: bool) -> None:
    game = table.game
    assert game.state is not None
    for owner in game.roles:
        known = table.known(owner)
        if not known:
            continue
        found = leaks(game.engine, game.state, owner, known, viewers)
        assert not found, f"entry {game.head.seq}: {found[0]}"
        if not render:
            continue
        for viewer in viewers:
            if viewer == owner:
                continue
            texts = {
                _summary(game, game.engine.with_secrets(game.state, owner, secrets), viewer)
                for secrets in (known, other_secrets(known))
            }
            assert len(texts) == 1, f"the summary for {viewer} shows {owner}'s secrets"
        if pages:
            found = page_leaks(game, owner, known, viewers)
            assert not found, f"entry {game.head.seq}: {found[0]}"


def _summary(game: Adjudicator, state: object, viewer: str | None) -> str:
    """The rendered summary for `viewer` in a store whose state holds someone's secrets
    (what is asked comes from the public state, as in any store)."""
    shadow = copy.copy(game)
    prompts = game.prompts()
    shadow.state = state  # type: ignore[assignment]
    shadow.prompts = lambda: prompts  # type: ignore[method-assign]
    return render_summary(shadow, viewer, "markdown")
