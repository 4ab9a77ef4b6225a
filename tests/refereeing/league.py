"""A refereed game's three stores for the referee tests: two players and a referee, each
with a key, a Maildir and a mail configuration for the loopback SMTP server
(tests/support/maildesk.py: `Desk`, and `Post`, the mail system that delivers what the
server took)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

from pbem.bots import choose
from pbem.client import Client
from pbem.core.referee import DEADLINE, REFEREE
from tests.support.maildesk import Desk, Post

__all__ = ["CREATED", "PLAYERS", "RULES", "Desk", "Post", "desks", "hand", "new_game", "play_turn"]

RULES = "berlin-1945"
PLAYERS = ("german", "soviet")


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
