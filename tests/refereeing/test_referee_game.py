"""A refereed game by email (issue 17, docs/referee.md): two players who mail their
entries only to the referee, and an unattended referee (`pbem referee run --once`)
between their turns, over the loopback SMTP server. The referee rolls every player's
dice with an acknowledgement of its own at once (protocol section 4: its next entry
rolls them), so the dice resolve in one mail round trip; each player gets from the
referee only its own turn page; at the end the three stores hold one game that verifies."""

from __future__ import annotations

import random
from pathlib import Path

from pbem.core.referee import REFEREE
from pbem.verify import verify_text
from tests.mail.mailtls import smtp_server
from tests.refereeing.league import PLAYERS, Post, desks, new_game, play_turn

MOVES = 14  # player entries before the player asked resigns (the test stays short)


def test_a_refereed_game_by_email(tmp_path: Path) -> None:
    with smtp_server(tmp_path) as server:
        made = desks(tmp_path)
        for desk in made.values():
            desk.configure(server)
        post = Post(server, made)
        referee = made[REFEREE]
        first, second = (made[role] for role in PLAYERS)
        game = new_game(made)
        short = game[:12]

        def run() -> str:
            post.deliver()
            said = referee.cli("referee", "run", "--once", "--accept-invitations")
            post.deliver()
            return said

        # The invitation goes to the referee, who accepts it but cannot join before the
        # second player: it learns where the players get mail, and mails the invitation on.
        assert "sent " in first.cli("mail", "send", short, "--to", referee.address)
        said = run()
        assert "accepted the invitation" in said and f"no address for {second.role}" in said
        for desk in (first, second):
            referee.cli("referee", "player", short, desk.role, desk.address)
        said = run()
        assert f"mailed entries 0 to 1 and its turn page to {second.role}" in said
        assert "invitation" in second.cli("mail", "fetch")
        second.cli("join", short)
        second.cli("mail", "send", short, "--to", referee.address)
        said = run()
        assert "signed the referee's join" in said

        rng = random.Random(11)
        moves = 0
        for _ in range(200):
            head = referee.client.game(game)
            if head.outcome() is not None:
                break
            asked = head.next_signer()
            assert asked in PLAYERS, f"after a referee round the game waits for {asked}"
            desk = made[str(asked)]
            desk.cli("mail", "fetch")
            if moves >= MOVES:
                desk.client.resign(game, desk.role)
            else:
                moves += play_turn(desk, game, rng, MOVES - moves)
            desk.cli("mail", "send", short)
            run()
        else:
            raise AssertionError("the game did not end")
        for desk in (first, second):
            desk.cli("mail", "fetch")

    saves = {desk.client.export(game) for desk in made.values()}
    assert len(saves) == 1, "the three stores hold different games"
    report = verify_text(saves.pop())
    assert report.ok, report.failure
    final = referee.client.game(game)
    outcome = final.outcome()
    assert outcome is not None and outcome.level == "resignation"
    # every acknowledgement is the referee's, and the referee rolled every player's dice
    acks = [e for e in final.entries if e.kind == "ack"]
    assert acks and all(e.by == REFEREE for e in acks)
    rolled = [a for a in final.actions if a.rng and a.resolved_at is not None]
    assert rolled and all(final.entries[a.resolved_at].by == REFEREE for a in rolled)

    # each player's mail from the referee: its own turn page only, and its entries in the
    # text body, never its own entries sent back
    from_referee = [m for m in server.messages if m.mail_from == referee.address]
    assert from_referee
    for received in from_referee:
        (rcpt,) = received.rcpt_tos
        role = rcpt.split("@")[0]
        other = next(r for r in PLAYERS if r != role)
        message = received.message
        pages = [p for p in message.iter_attachments() if p.get_content_type() == "text/html"]
        assert len(pages) == 1
        html = pages[0].get_content()
        assert f"-{role}-" in str(pages[0].get_filename())
        assert f"view of <strong>{role}</strong>" in html
        assert f"view of <strong>{other}</strong>" not in html
        body = message.get_body(("plain",))
        assert body is not None and "BEGIN PBEM ENTRY" in body.get_content()
