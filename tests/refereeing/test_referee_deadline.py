"""Deadlines and forfeits by an unattended referee (issue 17, docs/referee.md,
pbem.core.referee): a silent player gets two reminders (half its time gone; an hour
left), then the referee signs its forfeit and mails it; with --no-forfeit nothing is
signed. The referee's clock is set with the hidden `--now`."""

from __future__ import annotations

import mailbox
from pathlib import Path

import pytest

from pbem.client import Client
from pbem.core.log import Entry
from pbem.core.referee import FORFEIT, REFEREE
from pbem.store import Store
from pbem.verify import verify_text
from tests.mail.mailtls import smtp_server
from tests.refereeing.league import PLAYERS, Post, desks, hand, new_game

T0 = "2026-12-01T10:00:00Z"


def at(hours: float) -> str:
    from datetime import datetime, timedelta

    moment = datetime.strptime(T0, "%Y-%m-%dT%H:%M:%SZ") + timedelta(hours=hours)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_silent_player_is_reminded_twice_then_forfeits(tmp_path: Path) -> None:
    with smtp_server(tmp_path) as server:
        made = desks(tmp_path)
        for desk in made.values():
            desk.configure(server)
        post = Post(server, made)
        referee = made[REFEREE]
        first, second = (made[role] for role in PLAYERS)
        game = new_game(made, hours=72)
        short = game[:12]
        hand(first.client, second.client, game)
        second.client.join(game)
        hand(second.client, referee.client, game)
        for desk in (first, second):
            referee.cli("referee", "player", short, desk.role, desk.address)

        def run(hours: float, *extra: str) -> str:
            return referee.cli("referee", "run", "--once", "--now", at(hours), *extra)

        said = run(0)  # the referee joins: play starts, the clock with it
        assert "signed the referee's join" in said
        waiting = str(referee.client.game(game).next_signer())
        assert waiting in PLAYERS
        late = made[waiting]
        status = referee.cli("referee", "status", short)
        assert f"waits for {waiting}" in status and f"since {T0}" in status
        assert f"deadline {at(72)}" in status and "reminders sent: 0 of 2" in status

        def reminders() -> list[str]:
            return [
                str(m.message["Subject"])
                for m in server.messages
                if "reminder" in str(m.message["Subject"]) and m.rcpt_tos == (late.address,)
            ]

        assert "reminded" not in run(35.9)
        assert "reminded" in run(36) and len(reminders()) == 1
        assert "reminded" not in run(40)  # sent once
        assert "reminders sent: 1 of 2" in referee.cli("referee", "status", short)
        assert "reminder 2" in run(71) and len(reminders()) == 2
        assert all(at(72) in subject for subject in reminders())
        entries = len(referee.client.game(game).entries)

        said = run(73, "--no-forfeit")
        assert "no forfeit signed (--no-forfeit)" in said
        assert len(referee.client.game(game).entries) == entries
        assert len(reminders()) == 2

        said = run(73)
        assert f"signed the forfeit of {waiting}" in said
        final = referee.client.game(game)
        forfeit = final.entries[-1]
        assert (forfeit.kind, forfeit.by) == (FORFEIT, REFEREE)
        assert forfeit.body["since"] == T0 and forfeit.body["seen"] == at(73)
        outcome = final.outcome()
        winner = next(role for role in PLAYERS if role != waiting)
        assert outcome is not None and outcome.winner == winner
        assert f"{winner} wins" in outcome.text
        for role in PLAYERS:  # the forfeit is mailed to both at once
            assert f"mailed entry {forfeit.seq} and its turn page to {role}" in said
        said = run(80)  # a game over: no clock, no reminder, nothing more to mail
        assert "reminded" not in said and "forfeit" not in said and "mailed" not in said
        assert len(referee.client.game(game).entries) == entries + 1
        # mailed to both players, who apply it: one game everywhere, and it verifies
        post.deliver()
        for desk in (first, second):
            assert len(mailbox.Maildir(desk.maildir, create=False)) >= 1
            desk.cli("mail", "fetch")
    saves = {desk.client.export(game) for desk in made.values()}
    assert len(saves) == 1
    report = verify_text(saves.pop())
    assert report.ok, report.failure


def test_a_forfeit_killed_before_it_was_stored_is_recovered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal beside the key holds the forfeit before the store does: a referee
    killed between the two stores that very forfeit on its next run (signing another,
    with a later `seen`, would reuse its reveal: the journal refuses that)."""
    made = desks(tmp_path)
    referee = made[REFEREE]
    first, second = (made[role] for role in PLAYERS)
    game = new_game(made, hours=24)
    hand(first.client, second.client, game)
    second.client.join(game)
    hand(second.client, referee.client, game)
    maildir = ("--maildir", str(referee.maildir))
    referee.cli("referee", "run", "--once", "--now", at(0), *maildir)
    entries = len(referee.client.game(game).entries)

    real = Client._store_entry

    def killed(self: Client, game_id: str, entry: Entry) -> None:
        if entry.kind == FORFEIT:
            raise KeyboardInterrupt  # the process dies after the journal, before the store
        real(self, game_id, entry)

    monkeypatch.setattr(Client, "_store_entry", killed)
    referee.cli("referee", "run", "--once", "--now", at(25), *maildir)
    assert len(Client(Store(referee.home)).game(game).entries) == entries
    monkeypatch.setattr(Client, "_store_entry", real)

    said = referee.cli("referee", "run", "--once", "--now", at(30), *maildir)
    assert f"stored from the referee's journal: seq {entries}" in said
    assert "signed the forfeit" not in said and "error" not in said
    final = Client(Store(referee.home)).game(game)
    assert len(final.entries) == entries + 1
    assert final.entries[-1].kind == FORFEIT and final.entries[-1].body["seen"] == at(25)
    assert final.outcome() is not None
