"""Issue 14: Barbarossa's canonical decision text was shell-safe already (plain words and
numbers: `attack minsk with 3`, `boost event 2`), so its rules stay 1.1; these tests keep it
so. Typed unquoted after `pbem move GAME`, a decision reaches pbem word for word."""

from __future__ import annotations

import random

import pytest

from pbem.games.barbarossa.bot import choose
from pbem.games.barbarossa.rules import ENGINE, GERMAN
from pbem.testing import Table
from tests.support.shell_words import assert_shell_safe


def test_barbarossa_stays_on_its_rules_version() -> None:
    assert ENGINE.version == "1.1" and ENGINE.earlier_versions == ("1.0",)


@pytest.mark.parametrize("seed", range(10))
def test_bot_games_list_only_shell_safe_choices(seed: int) -> None:
    rng = random.Random(seed)
    table = Table(ENGINE, seed=seed * 7919 + 1, check=False)
    kinds: set[str] = set()
    for _ in range(1000):
        if not ENGINE.prompts(table.state):
            break
        for option in ENGINE.choices(table.state, GERMAN):
            text = ENGINE.format(option)
            assert_shell_safe(text)
            assert ENGINE.parse(text, table.state, GERMAN) == option
            kinds.add(type(option).__name__)
        table.decide(GERMAN, choose(ENGINE, table.state, GERMAN, rng))
    assert ENGINE.outcome(table.state) is not None
    assert {"RollEvent", "Accept", "Attack", "Supply", "End"} <= kinds
