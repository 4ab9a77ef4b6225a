"""A referee's round leaves unreplayed a game whose head has not changed since a round
found nothing to do in it (pbem.refereeing.quiet), and never trusts that record beyond
that head, the inbox, the store's keys and the game's orders."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.client import Client
from pbem.core.referee import REFEREE
from tests.mail.mailtls import smtp_server
from tests.refereeing.league import PLAYERS, desks, hand, new_game, play_turn
from tests.support.maildesk import Desk

T0 = "2026-12-01T10:00:00Z"


def at(hours: float) -> str:
    from datetime import datetime, timedelta

    moment = datetime.strptime(T0, "%Y-%m-%dT%H:%M:%SZ") + timedelta(hours=hours)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games a client loads (`Client.game`), in order."""
    seen: list[str] = []
    original = Client.game

    def counting(self: Client, prefix: str):  # type: ignore[no-untyped-def]
        seen.append(prefix)
        return original(self, prefix)

    monkeypatch.setattr(Client, "game", counting)
    return seen


@pytest.fixture
def league(tmp_path: Path) -> Iterator[tuple[dict[str, Desk], str]]:
    """A refereed game the referee has joined (its first round run), mail configured."""
    with smtp_server(tmp_path) as server:
        made = desks(tmp_path)
        for desk in made.values():
            desk.configure(server)
        referee = made[REFEREE]
        first, second = (made[role] for role in PLAYERS)
        game = new_game(made, hours=72)
        hand(first.client, second.client, game)
        second.client.join(game)
        hand(second.client, referee.client, game)
        for desk in (first, second):
            referee.cli("referee", "player", game[:12], desk.role, desk.address)
        said = run(referee, 0)
        assert "signed the referee's join" in said
        yield made, game


def run(referee: Desk, hours: float, *extra: str) -> str:
    return referee.cli("referee", "run", "--once", "--now", at(hours), *extra)


def test_a_quiet_game_is_not_replayed_until_its_head_moves(
    league: tuple[dict[str, Desk], str], replays: list[str]
) -> None:
    made, game = league
    referee = made[REFEREE]
    assert referee.client.referee_quiet(game) is not None
    replays.clear()
    again = run(referee, 1)
    assert replays == []  # nothing replayed
    # The same round the whole way (no record) says the same
    with referee.client.store.transaction():
        referee.client.store._write("DELETE FROM referee_quiet")
    assert run(referee, 1) == again
    assert replays != []
    # Half the deadline gone: a reminder is due, so the round goes the whole way
    replays.clear()
    assert "reminded" in run(referee, 36)
    assert replays != []
    replays.clear()
    run(referee, 37)
    assert replays == []
    # A player's entry: the head moved, the record is not used
    waiting = str(referee.client.game(game).next_signer())
    player = made[waiting]
    hand(referee.client, player.client, game)
    assert play_turn(player, game, random.Random(1), 1) == 1
    hand(player.client, referee.client, game)
    replays.clear()
    assert "mailed" in run(referee, 38)
    assert replays != []


def test_the_record_is_forgotten_when_keys_or_orders_change(
    league: tuple[dict[str, Desk], str],
) -> None:
    made, game = league
    referee = made[REFEREE]
    assert referee.client.referee_quiet(game) is not None
    with referee.client.store.transaction():
        referee.client.store.set_order(game, REFEREE, "x", "y")
    assert referee.client.referee_quiet(game) is None
    run(referee, 0)
    assert referee.client.referee_quiet(game) is not None
    referee.client.new_key("another")
    assert referee.client.referee_quiet(game) is None


def test_a_record_that_does_not_read_is_not_used(
    league: tuple[dict[str, Desk], str], replays: list[str]
) -> None:
    made, game = league
    referee = made[REFEREE]
    record = referee.client.referee_quiet(game)
    assert record is not None
    referee.client.set_referee_quiet(game, record[0], record[1], "{not json")
    replays.clear()
    run(referee, 1)
    assert replays != []
