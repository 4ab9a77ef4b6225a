"""A game made under earlier rules keeps them (saves are promises; docs/protocol-notes.md).

An engine that fixes a rule bumps its version and lists the old one in
`earlier_versions`; a genesis naming the old version is played by `for_version(old)`,
which keeps the old behaviour, and a version it never had is refused.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.core.engine import Context, Engine, State, register
from pbem.errors import PbemError
from pbem.testing import SignedTable
from tests.support.toy import ToyDice


class FixedDice(ToyDice):
    """Toy dice whose version 2 fixed a "rule": a roll scores its dice plus one."""

    name = "toy-fixed"
    version = "2"
    earlier_versions = ("1",)
    bonus = 1

    def for_version(self, version: str) -> Engine:
        if version == "1":
            old = copy.copy(self)
            old.version = "1"
            old.bonus = 0
            return old
        return super().for_version(version)

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        new = super().apply(state, role, decision, ctx)
        new["score"][role] += self.bonus
        return new


ENGINE = FixedDice()
register("toy-fixed", "tests.core.test_rules_versions:ENGINE")


def play(version: str) -> SignedTable:
    table = SignedTable("toy-fixed", version=version)
    table.join_all()
    table.move("a", "roll")
    table.ack("b")
    return table


def test_a_game_of_the_earlier_version_keeps_its_rules() -> None:
    new, old = play("2"), play("1")
    assert new.game.engine.version == "2" and old.game.engine.version == "1"
    rolled_new = new.game.rng_log[0].value
    rolled_old = old.game.rng_log[0].value
    assert new.game.state["score"]["a"] == rolled_new + 1
    assert old.game.state["score"]["a"] == rolled_old


def test_a_version_never_played_is_refused() -> None:
    with pytest.raises(PbemError, match="version 7 is not supported"):
        SignedTable("toy-fixed", version="7")
