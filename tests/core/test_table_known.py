"""pbem.testing.SignedTable.known: its index of who knows which secret (`_known_labels`)
gives the same answer, in the same order, as the scan of every secret it replaced."""

from __future__ import annotations

import random

import pytest

from pbem.core import blind
from pbem.core.canonical import JSON
from pbem.core.engine import get_engine
from pbem.core.referee import DOUBLE_BLIND, REFEREE
from pbem.testing import SignedTable


def known_by_scan(table: SignedTable, role: str) -> dict[str, JSON]:
    """known() as it was: every secret of the game looked at, at every call."""
    everything = role == REFEREE and table.game.double_blind
    own = {
        lb: v
        for lb, (_salt, v) in table.secrets.items()
        if table.owners[lb] == role or everything or blind.dealt_to(lb) == role
    }
    counts: dict[str, int] = {}
    for draw in table.game.private.values():
        counts[draw.secret] = counts.get(draw.secret, 0) + 1
    for label in counts:
        if label in own:
            own.update(table.game.private_values_for({label: own[label]}))
    return own


def assert_same(table: SignedTable) -> None:
    for role in table.roles:
        assert list(table.known(role).items()) == list(known_by_scan(table, role).items())


@pytest.mark.parametrize(
    ("title", "double_blind"), [("race-to-the-sea", True), ("race-to-berlin", False)]
)
def test_known_is_the_scan_of_every_secret_at_every_step(title: str, double_blind: bool) -> None:
    roles = get_engine(title).roles + ((REFEREE,) if double_blind else ())
    options = {DOUBLE_BLIND: True} if double_blind else None
    table = SignedTable(title, roles, options=options, nonce="known")
    table.join_all()
    rng = random.Random(5)
    for _ in range(3000):  # (a whole game)
        if table.game.outcome() is not None:
            break
        table.step(rng)
        assert_same(table)
    assert table.secrets
    assert table.game.double_blind == double_blind  # (the referee knows every secret)


def test_a_dealt_label_and_one_sealed_again_by_another_role_are_indexed() -> None:
    table = SignedTable("race-to-berlin", get_engine("race-to-berlin").roles, nonce="known")
    first, second = table.roles[:2]
    table._keep_secret("x/1", "00", 1, first)
    table._keep_secret("for/" + second + "/y", "00", 2, first)
    table._keep_secret("z/1", "00", 3, second)
    assert_same(table)
    table._keep_secret("x/1", "00", 4, second)  # (a stale index would still give it `first`)
    assert_same(table)
    assert list(table.known(second)) == ["x/1", "for/" + second + "/y", "z/1"]
    assert list(table.known(first)) == ["for/" + second + "/y"]
