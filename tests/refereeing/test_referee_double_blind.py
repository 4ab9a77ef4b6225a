"""The unattended referee of a double-blind game (issue 17; pbem.core.blind): its store
opens each escrow with its key and attests it, voids a false one with the proof, and
discloses every value still sealed once the game is over, so that a resignation leaves
nothing unchecked (Berlin 1945: the secret Soviet plans, the hidden hands)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pbem.client import Client
from pbem.core.blind import DISCLOSE, ESCROW, HELD, VOID
from pbem.core.referee import DOUBLE_BLIND, REFEREE
from pbem.refereeing.settle import settle
from pbem.transport.savefile import move_file
from pbem.verify import verify_text
from tests.refereeing.league import PLAYERS, RULES, Desk, desks, hand, play_turn


def _blind_game(root: Path) -> tuple[dict[str, Desk], str]:
    made = desks(root)
    keys = {role: role for role in made}
    first = made[PLAYERS[0]]
    game, _entries = first.client.new_game(
        RULES, PLAYERS[0], keys, title="double-blind", options={DOUBLE_BLIND: True}
    )
    hand(first.client, made[PLAYERS[1]].client, game)
    made[PLAYERS[1]].client.join(game)
    hand(made[PLAYERS[1]].client, made[REFEREE].client, game)
    settle(made[REFEREE].client, game)  # the referee joins: play starts
    return made, game


def _round(made: dict[str, Desk], game: str, rng: random.Random) -> list[str]:
    """Each player's turn in order, every store brought up to date, the referee settling."""
    said: list[str] = []
    referee = made[REFEREE].client
    for role in PLAYERS:
        desk = made[role]
        hand(referee, desk.client, game)
        if play_turn(desk, game, rng, 6):
            hand(desk.client, referee, game)
            said += settle(referee, game)
    return said


def test_the_referee_attests_escrows_and_discloses_them_after_a_resignation(
    tmp_path: Path,
) -> None:
    made, game = _blind_game(tmp_path)
    rng = random.Random(3)
    referee = made[REFEREE].client
    for _ in range(40):
        log = referee.game(game)
        if any(ESCROW in e.body for e in log.entries) and log.unopened():
            held = [e for e in log.entries if e.by == REFEREE and HELD in e.body]
            if held and log.next_signer() in PLAYERS:
                break
        _round(made, game, rng)
    log = referee.game(game)
    assert log.unopened() and log.outcome() is None
    quitter = made[str(log.next_signer())]
    hand(referee, quitter.client, game)
    quitter.client.resign(game, quitter.role)
    hand(quitter.client, referee, game)
    said = settle(referee, game)
    assert any("disclosure of every value still sealed" in line for line in said), said
    final = referee.game(game)
    assert final.head.kind == DISCLOSE and final.unopened() == [] and final.unchecked() == []
    # Every player's store takes it, and the whole log verifies with nothing left unchecked.
    for role in PLAYERS:
        hand(referee, made[role].client, game)
        assert made[role].client.game(game).head.id == final.head.id
    report = verify_text(move_file(final.entries))
    assert report.ok, report.failure
    assert settle(referee, game) == []  # nothing more to sign


def test_a_false_escrow_is_voided_by_the_referee_and_its_author_loses(
    tmp_path: Path, monkeypatch: Any
) -> None:
    made, game = _blind_game(tmp_path)
    rng = random.Random(5)
    referee = made[REFEREE].client
    real = Client._escrow

    def lying(self: Client, log: Any, role: str, seq: int, sealed: list[Any]) -> str:
        wrong = [(label, "44" * 32, value) for label, _salt, value in sealed]
        return real(self, log, role, seq, wrong)

    monkeypatch.setattr(Client, "_escrow", lying)
    for _ in range(20):
        _round(made, game, rng)
        if referee.game(game).outcome() is not None:
            break
    final = referee.game(game)
    assert final.head.kind == VOID and final.head.by == REFEREE
    outcome = final.outcome()
    assert outcome is not None and outcome.level == "false-escrow"
    cheat = final.entries[int(str(final.head.body["escrow_of"]))].by
    assert outcome.winner in PLAYERS and outcome.winner != cheat
    # The proof stands on its own: anyone holding the log finds the cheat, and blames its
    # escrow's entry.
    report = verify_text(move_file(final.entries))
    assert report.verdict == "proven" and not report.ok, report.text()
    assert report.bad is not None and (report.bad.seq, report.bad.by) == (
        final.head.body["escrow_of"],
        cheat,
    )
    assert report.tail().startswith(f"PROVEN: false escrow in entry {report.bad.seq} by {cheat}")
