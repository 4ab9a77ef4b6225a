"""A whole game played by email: two players, each with a store of their own, exchange a
demo game through a real SMTP server on loopback (aiosmtpd, STARTTLS and login) and their
own Maildirs, with nothing but `pbem mail send` and `pbem mail fetch`. At the end both
stores hold the identical game, and its save verifies."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.bots import choose
from pbem.ledger import engine_by_name
from pbem.verify import verify_text
from tests.mail.mailtls import smtp_server
from tests.support.maildesk import Desk, Post

# Race to Berlin's long game by mail ends with a resignation by mail after this many
# entries (what its later turns do is the same mail, and self-play covers their rules);
# Berlin 1945 is played to its end by the rules.
RESIGN_AFTER = {"race-to-berlin": 90}


@pytest.mark.parametrize("rules", ["race-to-berlin", "berlin-1945"])
def test_two_players_play_a_whole_game_by_email(tmp_path: Path, rules: str) -> None:
    engine = engine_by_name(rules)
    first, second = engine.roles[0], engine.roles[1]
    with smtp_server(tmp_path, mode="starttls") as server:
        players = {role: Desk(tmp_path, role) for role in (first, second)}
        for p in players.values():
            p.configure(server)
        players[first].client.import_key(second, players[second].home / "keys" / f"{second}.pub")
        game, _made = players[first].client.new_game(
            rules, first, {first: first, second: second}, title="by email"
        )
        short = game[:12]
        post = Post(server, players)

        def hand_over(sender: Desk, receiver: Desk) -> None:
            mailed = sender.client.store.mailed_seqs(game)
            entries = sender.client.game(game).entries
            if all(e.seq in mailed for e in entries if e.by == sender.role):
                return  # nothing of the sender's is new: the receiver has it all
            to = ["--to", receiver.address] if sender.client.store.peer(game) is None else []
            assert "sent " in sender.cli("mail", "send", short, *to)
            post.deliver()
            report = receiver.cli("mail", "fetch")
            assert "refused" not in report and "waiting" not in report

        # the invitation (genesis and the creator's join), then the second player's join:
        # fetch holds an invitation from someone else until the player accepts it, which
        # `pbem join` does
        hand_over(players[first], players[second])
        assert not players[second].client.store.has_game(game)
        players[second].cli("join", short)
        hand_over(players[second], players[first])

        rng = random.Random(7)
        current = players[first]
        for _ in range(5000):
            adjudicator = current.client.game(game)
            if adjudicator.outcome() is not None:
                break
            role = adjudicator.prompts()[0].role
            late = adjudicator.entry_count > RESIGN_AFTER.get(rules, 10**6)
            if late and role == current.role and not adjudicator.waiting_for_entropy:
                current.cli("resign", short, "--role", role)
                continue
            if role != current.role:
                other = players[role]
                hand_over(current, other)
                current = other
                continue
            client = current.client
            state = client.state_for(client.game(game), role)
            state = engine.with_secrets(state, role, client.known(game, role))
            if any(p.role == role for p in engine.prompts(state)):
                client.move(game, engine.format(choose(engine, state, role, rng)), role)
            else:
                client.ack(game, role)
        else:
            pytest.fail("no outcome")
        other = players[second if current.role == first else first]
        hand_over(current, other)

    saves = {p.client.export(game) for p in players.values()}
    assert len(saves) == 1
    (save,) = saves
    report = verify_text(save)
    assert report.ok, report.failure
    # every message of the game went through the server encrypted and logged in
    assert server.messages and all(m.tls and m.login for m in server.messages)
    subjects = {str(m.message["Subject"]) for m in server.messages}
    assert all(s.startswith(f"[pbem] by email {game[:8]} #") for s in subjects)
    # one thread per game: every message after the first answers an earlier one
    ids = [str(m.message["Message-ID"]) for m in server.messages]
    for index, received in enumerate(server.messages[1:], start=1):
        assert str(received.message["In-Reply-To"]) in ids[:index]
