"""The leak check of the maps and turn pages (`pbem.testing.page_leaks`, run by
tests/test_conformance.py) passes on the shipped games and catches a planted leak.

A map that draws anything from the stored state rather than from the role's view (here:
a "what changed" mark that hashes the state, as a careless `highlight_of` reading
`game.state` would) shows the owner's secrets to the other side; the check must say so.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import canonical_bytes
from pbem.core.engine import get_engine
from pbem.maps.svg import Highlight
from pbem.render import maps
from pbem.testing import SignedTable, page_leaks


def _table_with_secrets(rules: str) -> tuple[SignedTable, str]:
    """A game played until a role holds sealed values the other may not know."""
    table = SignedTable(rules, get_engine(rules).roles, nonce="page-leaks")
    table.join_all()
    rng = random.Random(5)
    for _ in range(400):
        for owner in table.game.roles:
            if len(table.game.entries) > 12 and table.known(owner):
                return table, owner
        table.step(rng)
    raise AssertionError(f"no role of {rules} held a secret")


@pytest.mark.parametrize("rules", ["race-to-berlin", "berlin-1945", "race-to-the-sea"])
def test_pages_of_the_other_side_do_not_change_with_the_owners_secrets(rules: str) -> None:
    table, owner = _table_with_secrets(rules)
    game = table.game
    assert page_leaks(game, owner, table.known(owner), [*game.roles, None]) == []


# A place each map marks: an area or zone "1", a hex of the hex map (others are left out).
PLACE = {"race-to-the-sea": "0906"}


@pytest.mark.parametrize("rules", ["race-to-berlin", "berlin-1945", "race-to-the-sea"])
def test_a_map_drawn_from_the_stored_state_is_caught(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, owner = _table_with_secrets(rules)
    game = table.game
    place = PLACE.get(rules, "1")

    def careless(shown: Adjudicator) -> Highlight:
        digest = hashlib.sha256(canonical_bytes(shown.state)).hexdigest()[:8]
        return Highlight(marks=((place, digest),))

    monkeypatch.setattr(maps, "highlight_of", careless)
    found = page_leaks(game, owner, table.known(owner), [*game.roles, None])
    other = next(r for r in game.roles if r != owner)
    assert f"the map for {other} shows {owner}'s secrets" in found
    assert f"the map for the public shows {owner}'s secrets" in found
