"""tests/support/drawn_once.py: the page leak check with each map drawn once per input
compares the same pages as pbem.testing.page_leaks, and still catches a planted leak."""

from __future__ import annotations

import hashlib
import random

import pytest

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import canonical_bytes
from pbem.core.engine import get_engine
from pbem.maps.svg import Highlight
from pbem.render import maps, page
from pbem.testing import SignedTable
from pbem.testing import page_leaks as plain_page_leaks
from tests.support.drawn_once import drawn_once, page_leaks

RULES = "berlin-1945"


def _table_with_secrets() -> tuple[SignedTable, str]:
    table = SignedTable(RULES, get_engine(RULES).roles, nonce="drawn-once", signed=False)
    table.join_all()
    rng = random.Random(5)
    for _ in range(400):
        for owner in table.game.roles:
            if len(table.game.entries) > 12 and table.known(owner):
                return table, owner
        table.step(rng)
    raise AssertionError("no role held a secret")


def test_pages_are_the_same_and_each_map_is_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    table, owner = _table_with_secrets()
    game = table.game
    viewers = [*game.roles, None]
    plain = {role: page.render_page(game, role) for role in viewers}
    drawn: list[object] = []
    board_svg = maps.board_svg

    def counted(*args: object, **kwargs: object) -> str:
        drawn.append(args[1])
        return board_svg(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(maps, "board_svg", counted)
    with drawn_once():
        for _ in range(2):
            assert {role: page.render_page(game, role) for role in viewers} == plain
    assert len(drawn) == len(viewers)  # the second round came from memory
    assert maps.board_svg is counted  # put back
    assert page_leaks(game, owner, table.known(owner), viewers) == []
    assert plain_page_leaks(game, owner, table.known(owner), viewers) == []


def test_a_map_drawn_from_the_stored_state_is_still_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    table, owner = _table_with_secrets()
    game = table.game

    def careless(shown: Adjudicator) -> Highlight:
        digest = hashlib.sha256(canonical_bytes(shown.state)).hexdigest()[:8]
        return Highlight(marks=(("1", digest),))

    monkeypatch.setattr(maps, "highlight_of", careless)
    found = page_leaks(game, owner, table.known(owner), [*game.roles, None])
    other = next(r for r in game.roles if r != owner)
    assert f"the map for {other} shows {owner}'s secrets" in found
    assert f"the map for the public shows {owner}'s secrets" in found
