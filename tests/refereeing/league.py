"""A refereed game's three stores for the referee tests: two players and a referee, each
with a key, a Maildir and a mail configuration for the loopback SMTP server
(tests/mail/mailtls.py), and the mail system that delivers what the server took."""

from __future__ import annotations

import mailbox
import random
from datetime import UTC, datetime
from pathlib import Path

from click.testing import CliRunner

from pbem.bots import choose
from pbem.cli import main
from pbem.client import Client
from pbem.core.referee import DEADLINE, REFEREE
from pbem.store import Store
from tests.mail.mailtls import MailServer

RULES = "berlin-1945"
PLAYERS = ("german", "soviet")


class Desk:
    """One store: a player's or the referee's."""

    def __init__(self, root: Path, role: str) -> None:
        self.role = role
        self.home = root / role
        self.address = f"{role}@example.org"
        self.maildir = root / f"{role}-maildir"
        mailbox.Maildir(self.maildir, create=True)
        self.client = Client(Store(self.home))
        self.client.new_key(role)

    def cli(self, *args: str, code: int = 0) -> str:
        result = CliRunner().invoke(main, ["--home", str(self.home), *args])
        assert result.exit_code == code, f"pbem {' '.join(args)}: {result.output}"
        return result.output

    def configure(self, server: MailServer) -> None:
        server.write_config(self.home, self.address, extra=f'[maildir]\npath = "{self.maildir}"')


class Post:
    """The mail system: each message the server took, into its recipients' Maildirs."""

    def __init__(self, server: MailServer, desks: dict[str, Desk]) -> None:
        self.server = server
        self.desks = desks
        self.done = 0

    def deliver(self) -> None:
        by_address = {d.address: d for d in self.desks.values()}
        for received in self.server.messages[self.done :]:
            for rcpt in received.rcpt_tos:
                mailbox.Maildir(by_address[rcpt].maildir, create=False).add(received.data)
        self.done = len(self.server.messages)


def desks(root: Path) -> dict[str, Desk]:
    made = {role: Desk(root, role) for role in (*PLAYERS, REFEREE)}
    creator = made[PLAYERS[0]]
    for role in (PLAYERS[1], REFEREE):
        creator.client.import_key(role, made[role].home / "keys" / f"{role}.pub")
    return made


# When the tests' games are made: before the referee's clock starts (its `--now`, from
# 2026-12-01T10:00:00Z on), since no forfeit's clock may start before its game was made.
CREATED = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def new_game(made: dict[str, Desk], hours: int = 72) -> str:
    """The first player's genesis naming the three keys, with a deadline."""
    keys = {role: role for role in made}
    game, _entries = made[PLAYERS[0]].client.new_game(
        RULES, PLAYERS[0], keys, title="refereed", options={DEADLINE: hours}, created=CREATED
    )
    return game


def hand(source: Client, target: Client, game: str) -> None:
    """Every entry of `source`'s copy of the game into `target`'s (no mail)."""
    target.apply_entries(list(source.game(game).entries))


def play_turn(desk: Desk, game: str, rng: random.Random, budget: int) -> int:
    """The bot's decisions while `desk`'s role is asked (at most `budget`); how many."""
    client = desk.client
    made = 0
    while made < budget:
        adjudicator = client.game(game)
        if adjudicator.outcome() is not None or adjudicator.next_signer() != desk.role:
            break
        engine = adjudicator.engine
        state = client.state_for(adjudicator, desk.role)
        state = engine.with_secrets(state, desk.role, client.known(game, desk.role))
        if any(p.role == desk.role for p in engine.prompts(state)):
            client.move(game, engine.format(choose(engine, state, desk.role, rng)), desk.role)
        else:
            client.ack(game, desk.role)
        made += 1
    return made
