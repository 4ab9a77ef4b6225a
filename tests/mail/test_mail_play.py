"""`pbem play` and `pbem mail watch` (issue 14): a game by email that waits for a person
only for real choices, against a real SMTP server on loopback and real Maildirs. The
referee's machine runs `mail watch` (it only ever acknowledges dice); the player's runs
`play`, which sends its move, polls its mailbox and shows the next decision."""

from __future__ import annotations

import mailbox
from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.client import Client
from pbem.mail.mailer import Mailer
from pbem.play import Player
from pbem.store import Store
from tests.mail.mailtls import MailServer, smtp_server

PLAYER = "german@example.org"
REFEREE = "referee@example.net"


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> str:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result.stdout


def started(tmp_path: Path, server: MailServer) -> tuple[Path, Path, str]:
    """A Barbarossa game by mail, joined by both; each store reads its own Maildir."""
    player, referee = tmp_path / "player", tmp_path / "referee"
    for home, address in ((player, PLAYER), (referee, REFEREE)):
        folder = tmp_path / f"{home.name}-Maildir"
        mailbox.Maildir(folder, create=True)
        server.write_config(home, address, extra=f'[maildir]\npath = "{folder}"')
    ok(player, "key", "new", "me")
    ok(referee, "key", "new", "ref")
    ok(player, "key", "import", "referee", str(referee / "keys" / "ref.pub"))
    made = run(player, "new", "barbarossa", "--key", "german=me", "--key", "referee=referee",
               "-o", str(tmp_path / "start.txt"))  # fmt: skip
    game = made.stdout.strip()
    ok(referee, "apply", str(tmp_path / "start.txt"))
    ok(referee, "join", game[:12], "-o", str(tmp_path / "join.txt"))
    ok(player, "apply", str(tmp_path / "join.txt"))
    # both sides have everything: nothing of the start is mailed again
    for home in (player, referee):
        store = Store(home)
        with store.transaction():
            store.record_mail(f"<start-{home.name}@example>", game, "out", 0, 2)
    return player, referee, game


def deliver(server: MailServer, start: int, folder: Path) -> int:
    """Put the messages the server received from `start` on into a Maildir."""
    box = mailbox.Maildir(folder, create=False)
    for received in server.messages[start:]:
        box.add(received.data)
    return len(server.messages)


def test_watch_acknowledges_by_mail_and_play_goes_on_to_the_next_decision(
    tmp_path: Path,
) -> None:
    with smtp_server(tmp_path, "starttls") as server:
        player, referee, game = started(tmp_path, server)
        for home, peer in ((player, REFEREE), (referee, PLAYER)):
            store = Store(home)
            with store.transaction():
                store.set_peer(game, peer)
        said: list[str] = []
        decisions = iter(["roll event", "q"])
        delivered = 0

        def referees_machine(_seconds: float) -> None:
            """While the player's `play` waits: the mail reaches the referee, whose
            `mail watch --once` acknowledges and mails back, and that reaches the player."""
            nonlocal delivered
            delivered = deliver(server, delivered, tmp_path / "referee-Maildir")
            watched = ok(referee, "mail", "watch", "--once")
            assert "signed automatically entry 4 by referee: acknowledged the dice" in watched
            assert "sent entry 4 of game" in watched
            delivered = deliver(server, delivered, tmp_path / "player-Maildir")

        client = Client(Store(player))
        mailer = Mailer.configured(client)
        assert mailer is not None
        Player(
            client, game, said.append, lambda _prompt: next(decisions), mailer,
            sleep=referees_machine, interval=5, folder=tmp_path, polls=3,
        ).run()  # fmt: skip
        text = "\n".join(said)
        assert "signed entry 3 by german: roll event" in text
        assert "sent entry 3 of game" in text and "polling the mailbox every 5 s" in text
        assert "applied game" in text  # the referee's acknowledgement, fetched
        assert "stopped: `pbem play` again to go on" in text
        # both stores hold the same log, and the referee signed only its acknowledgement
        mine = Client(Store(player)).game(game)
        theirs = Client(Store(referee)).game(game)
        assert mine.head.id == theirs.head.id and len(mine.entries) == 5
        assert [e.kind for e in theirs.entries if e.by == "referee"] == ["join", "ack"]


def test_watch_without_a_mail_configuration_is_one_line(tmp_path: Path) -> None:
    result = run(tmp_path / "home", "mail", "watch", "--once")
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "needs a mail configuration that can send" in result.stderr
