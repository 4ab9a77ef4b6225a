"""Every title with a referee (issue 17; pbem.core.referee): bots play whole games in
which the referee's store rolls every die, the referee sees no more than the public, and
the log verifies like any other."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem.core.engine import get_engine
from pbem.core.log import ACK
from pbem.core.referee import REFEREE
from pbem.demo import run_demo
from pbem.testing import SignedTable
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_path, verify_text
from tests.support.drawn_once import page_leaks

TITLES = ["race-to-berlin", "berlin-1945", "gotterdammerung", "barbarossa", "race-to-the-sea"]


def test_a_refereed_demo_game_verifies_and_every_die_is_the_referees(tmp_path: Path) -> None:
    """Three stores (two players and the referee) through the signed pipeline."""
    result = run_demo("race-to-berlin", tmp_path / "demo", seed=3, referee=True)
    report = verify_path(str(result.save))
    assert report.ok, report.failure
    game = report.game
    assert game is not None and game.outcome() is not None
    assert REFEREE in game.roles and REFEREE not in game.sides
    assert {witness for _role, witness in game.witnesses() if _role != REFEREE} == {REFEREE}
    assert not game.self_witnessed
    acks = [e.by for e in parse_entries(result.save.read_bytes()) if e.kind == ACK]
    assert acks and set(acks) == {REFEREE}


@pytest.mark.parametrize("rules", TITLES)
def test_any_title_takes_a_referee_who_rolls_every_die(rules: str) -> None:
    engine = get_engine(rules)
    roles = tuple(dict.fromkeys((*engine.roles, REFEREE)))
    table = SignedTable(rules, roles, nonce="any-title")
    table.join_all()
    rng = random.Random(2)
    for _ in range(60):
        if table.game.outcome() is not None:
            break
        table.step(rng)
    acks = [e.by for e in table.game.entries if e.kind == ACK]
    assert acks and set(acks) == {REFEREE}
    report = verify_text(move_file(table.game.entries))
    assert report.ok, report.failure


@pytest.mark.parametrize("rules", ["race-to-berlin", "berlin-1945"])
def test_the_referee_sees_nothing_a_player_hides(rules: str) -> None:
    """Peer play with a referee: the referee holds no player's secret, and its view and
    page are byte-identical whatever the players' hidden values are."""
    table = SignedTable(rules, (*get_engine(rules).roles, REFEREE), nonce="referee-view")
    table.join_all()
    rng = random.Random(11)
    checked = 0
    for _ in range(200):
        if table.game.outcome() is not None:
            break
        signer = table.game.next_signer()
        table.step(rng)
        if signer == REFEREE:
            assert table.game.entries[-1].kind == ACK  # the referee only rolls dice
        for owner in table.game.sides:
            known = table.known(owner)
            if known and len(table.game.entries) % 13 == 0:
                assert page_leaks(table.game, owner, known, [REFEREE]) == []
                checked += 1
    assert checked >= 3
