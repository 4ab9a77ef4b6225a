"""`pbem mail send` against a real SMTP server on loopback (aiosmtpd, TLS, AUTH)."""

from __future__ import annotations

import email
import email.policy
import re
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.core.log import Entry
from pbem.store import Store
from pbem.transport.movefile import read_entries
from tests.mail.mailtls import MailServer, Received, smtp_server

PLAYER = "german@example.org"
REFEREE = "referee@example.net"


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> str:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result.stdout


def fails(home: Path, *args: str) -> str:
    """Exit 1 with exactly one error line; returns it."""
    result = run(home, *args)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def new_game(tmp_path: Path) -> tuple[Path, Path, str]:
    """A Barbarossa game: the player (german) has made it; the referee has not joined."""
    player, referee = tmp_path / "player", tmp_path / "referee"
    ok(player, "key", "new", "me")
    ok(referee, "key", "new", "ref")
    ok(player, "key", "import", "referee", str(referee / "keys" / "ref.pub"))
    result = run(
        player, "new", "barbarossa", "--key", "german=me", "--key", "referee=referee",
        "--title", "Kiev pocket",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    found = re.search(r"game ([0-9a-f]{64})", result.stderr)
    assert found is not None
    return player, referee, found.group(1)


def stored_entries(home: Path, game: str, seqs: list[int]) -> list[tuple[bytes, bytes]]:
    rows = Store(home).entries(game)
    by_seq = {int(r["seq"]): (bytes(r["canonical"]), bytes(r["signature"])) for r in rows}
    return [by_seq[s] for s in seqs]


def seqs_in(received: Received) -> list[int]:
    return [Entry.from_wire(c, s).seq for c, s in read_entries(received.data)]


def text_of(message: EmailMessage) -> str:
    """The body as text, with the CRLF line ends of the wire made plain."""
    content = message.get_content()
    assert isinstance(content, str)
    return content.replace("\r\n", "\n")


def apply_mail(home: Path, received: Received, path: Path) -> str:
    """The receiver saves the mail and applies it with `pbem apply` (raw RFC 5322)."""
    path.write_bytes(received.data)
    return ok(home, "apply", str(path))


def unchanged_mail_tables(home: Path, game: str) -> tuple[set[int], str | None, int]:
    store = Store(home)
    return store.mailed_seqs(game), store.peer(game), len(store.mail_thread(game))


@pytest.mark.parametrize("mode", ["starttls", "ssl"])
def test_send_delivers_the_pending_entries(tmp_path: Path, mode: str) -> None:
    player, referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, mode) as server:
        server.write_config(player, PLAYER, name="Hans")
        out = ok(player, "mail", "send", game[:10], "--to", REFEREE)
        [received] = server.messages
    assert f"sent entries 0 to 1 of game {game[:12]} to {REFEREE}" in out
    # The envelope, over TLS, after a login.
    assert received.mail_from == PLAYER
    assert received.rcpt_tos == (REFEREE,)
    assert received.tls and received.login == server.user
    # The creator's first mail: the genesis and its join, exactly as stored.
    assert read_entries(received.data) == stored_entries(player, game, [0, 1])
    message = received.message
    assert message["From"] == f"Hans <{PLAYER}>"
    assert message["To"] == REFEREE
    assert message["Subject"] == f"[pbem] Kiev pocket {game[:8]} #1"
    assert message["Date"] is not None
    message_id = str(message["Message-ID"])
    assert re.fullmatch(r"<[^<>@\s]+@example\.org>", message_id)
    assert message["In-Reply-To"] is None
    assert message.get_content_type() == "text/plain"
    assert message.get_content_charset() == "utf-8"
    body = text_of(message)
    assert f"game {game[:8]} seq 0 by german: new game of barbarossa" in body
    assert "pbem mail fetch" in body and "pbem apply FILE" in body
    # Recorded once accepted: the thread, the mailed seqs, the address.
    store = Store(player)
    assert store.mailed_seqs(game) == {0, 1}
    assert store.peer(game) == REFEREE
    assert [(r["message_id"], r["direction"]) for r in store.mail_thread(game)] == [
        (message_id, "out")
    ]
    # The referee's pbem reads the mail as it came.
    applied = apply_mail(referee, received, tmp_path / "first.eml")
    assert "applied: entry 0 by german" in applied and "applied: entry 1 by german" in applied


def test_later_sends_thread_and_carry_only_new_entries(tmp_path: Path) -> None:
    player, referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, "starttls") as server:
        server.write_config(player, PLAYER)
        server.write_config(referee, REFEREE)
        ok(player, "mail", "send", game[:10], "--to", REFEREE)
        first = server.messages[0]
        apply_mail(referee, first, tmp_path / "m0.eml")

        # The referee joins and mails back: only its own entry, not the player's two.
        ok(referee, "join", game[:10], "-o", str(tmp_path / "join.txt"))
        ok(referee, "mail", "send", game[:10], "--to", PLAYER)
        join = server.messages[1]
        assert seqs_in(join) == [2]
        assert join.rcpt_tos == (PLAYER,) and join.mail_from == REFEREE
        assert join.message["Subject"] == f"[pbem] Kiev pocket {game[:8]} #2"
        apply_mail(player, join, tmp_path / "m1.eml")

        # The player moves and sends without --to: the remembered address, in the thread.
        ok(player, "move", game[:10], "roll", "event", "-o", str(tmp_path / "move.txt"))
        ok(player, "mail", "send", game[:10])
        second = server.messages[2]
        assert second.rcpt_tos == (REFEREE,)
        assert seqs_in(second) == [3]
        assert read_entries(second.data) == stored_entries(player, game, [3])
        message = second.message
        assert message["Subject"] == f"[pbem] Kiev pocket {game[:8]} #3"
        assert message["In-Reply-To"] == first.message["Message-ID"]
        assert message["References"] == first.message["Message-ID"]
        body = text_of(message)
        assert f"game {game[:8]} seq 3 by german: roll event" in body
        assert "its dice wait for the next entry of another role" in body
        assert "Now: waiting for referee." in body

        # The referee's client acknowledges by itself when it applies the mail (issue 14:
        # an acknowledgement needs no person); its mail shows the roll its reveal made.
        applied = apply_mail(referee, second, tmp_path / "m2.eml")
        assert "signed automatically entry 4 by referee: acknowledged the dice" in applied
        ok(referee, "mail", "send", game[:10])
        ack = server.messages[3]
        assert seqs_in(ack) == [4]
        assert ack.message["In-Reply-To"] == join.message["Message-ID"]
        body = text_of(ack.message)
        assert "rolls the dice of seq 3 by german: roll event" in body
        assert re.search(r"^      rng 3 4 1\.\.6 [1-6] event die$", body, re.M)

    assert Store(player).mailed_seqs(game) == {0, 1, 3}
    assert Store(referee).mailed_seqs(game) == {2, 4}
    thread = Store(player).mail_thread(game)
    assert [r["message_id"] for r in thread] == [
        first.message["Message-ID"],
        second.message["Message-ID"],
    ]
    assert [(r["first_seq"], r["last_seq"]) for r in thread] == [(0, 1), (3, 3)]


def test_a_reply_goes_to_the_last_message_read_or_sent(tmp_path: Path) -> None:
    player, referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, "ssl") as server:
        server.write_config(player, PLAYER)
        server.write_config(referee, REFEREE)
        ok(player, "mail", "send", game[:10], "--to", REFEREE)
        root = str(server.messages[0].message["Message-ID"])
        apply_mail(referee, server.messages[0], tmp_path / "m0.eml")
        ok(referee, "join", game[:10], "-o", str(tmp_path / "join.txt"))
        ok(player, "apply", str(tmp_path / "join.txt"))
        store = Store(player)
        with store.transaction():  # what `pbem mail fetch` records of a message it read
            store.record_mail("<join-mail@example.net>", game, "in", 2, 2)
        ok(player, "move", game[:10], "1", "-o", str(tmp_path / "move.txt"))
        ok(player, "mail", "send", game[:10])
        message = server.messages[1].message
    assert message["In-Reply-To"] == "<join-mail@example.net>"
    assert str(message["References"]).split() == [root, "<join-mail@example.net>"]


def test_nothing_pending_and_no_address_are_errors(tmp_path: Path) -> None:
    player, _referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, "starttls") as server:
        server.write_config(player, PLAYER)
        line = fails(player, "mail", "send", game[:10])
        assert "no address for game" in line and "--to" in line
        assert server.messages == []
        ok(player, "mail", "send", game[:10], "--to", REFEREE)
        line = fails(player, "mail", "send", game[:10])
        assert f"nothing to send in game {game[:12]}" in line
        line = fails(player, "mail", "send", game[:10], "--to", "someone@example.com")
        assert "nothing to send" in line
        assert len(server.messages) == 1
    assert Store(player).peer(game) == REFEREE  # a refused send remembers nothing


def test_a_wrong_password_sends_and_records_nothing(tmp_path: Path) -> None:
    player, _referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, "starttls") as server:
        server.write_config(player, PLAYER, password="not-the-password")
        line = fails(player, "mail", "send", game[:10], "--to", REFEREE)
        assert "refused the login of player" in line and "535" in line
        assert "not-the-password" not in line
        assert server.messages == []
    assert unchanged_mail_tables(player, game) == (set(), None, 0)


def test_the_password_can_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    player, _referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, "ssl") as server:
        server.write_config(player, PLAYER, password_env="PBEM_TEST_SMTP_PASSWORD")
        assert "password =" not in (player / "mail.toml").read_text()
        line = fails(player, "mail", "send", game[:10], "--to", REFEREE)
        assert "PBEM_TEST_SMTP_PASSWORD" in line
        monkeypatch.setenv("PBEM_TEST_SMTP_PASSWORD", server.password)
        ok(player, "mail", "send", game[:10], "--to", REFEREE)
        assert len(server.messages) == 1 and server.messages[0].login == server.user


@pytest.mark.parametrize("mode", ["starttls", "ssl"])
def test_an_untrusted_server_certificate_is_refused(tmp_path: Path, mode: str) -> None:
    player, _referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, mode) as server:
        server.write_config(player, PLAYER, ca_file=False)  # only the system's CAs
        line = fails(player, "mail", "send", game[:10], "--to", REFEREE)
        assert "certificate that is not trusted" in line and "ca_file" in line
        # Trusting another CA is no better.
        other = smtp_server(tmp_path / "other", mode)
        with other as stranger:
            server.write_config(player, PLAYER, ca_file=stranger.ca_file)
            line = fails(player, "mail", "send", game[:10], "--to", REFEREE)
            assert "not trusted" in line
        assert server.messages == []
    assert unchanged_mail_tables(player, game) == (set(), None, 0)


def test_a_refused_recipient_records_nothing(tmp_path: Path) -> None:
    player, _referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, "starttls", refuse=["nobody@example.org"]) as server:
        server.write_config(player, PLAYER)
        line = fails(player, "mail", "send", game[:10], "--to", "nobody@example.org")
        assert "refused the recipient nobody@example.org" in line and "550" in line
        assert server.messages == []
    assert unchanged_mail_tables(player, game) == (set(), None, 0)


def test_no_login_configured_is_refused_by_the_server(tmp_path: Path) -> None:
    player, _referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, "ssl") as server:
        server.write_config(player, PLAYER)
        text = (player / "mail.toml").read_text()
        text = re.sub(r"(?m)^(user|password) = .*\n", "", text)
        (player / "mail.toml").write_text(text)
        line = fails(player, "mail", "send", game[:10], "--to", REFEREE)
        assert "refused the sender" in line and "530" in line
        assert server.messages == []
    assert unchanged_mail_tables(player, game) == (set(), None, 0)


def test_no_server_listening_is_a_clear_error(tmp_path: Path) -> None:
    player, _referee, game = new_game(tmp_path)
    with smtp_server(tmp_path, "starttls") as server:
        server.write_config(player, PLAYER)
    # The server has stopped: nothing listens on its port any more.
    line = fails(player, "mail", "send", game[:10], "--to", REFEREE)
    assert f"cannot connect to the SMTP server 127.0.0.1:{server.port}" in line
    assert unchanged_mail_tables(player, game) == (set(), None, 0)


def test_dry_run_prints_the_message_and_records_nothing(tmp_path: Path) -> None:
    player, referee, game = new_game(tmp_path)
    server: MailServer
    with smtp_server(tmp_path, "starttls") as server:
        server.write_config(player, PLAYER)
        result = run(player, "mail", "send", game[:10], "--to", REFEREE, "--dry-run")
        assert result.exit_code == 0, result.output
        assert server.messages == []
    assert "nothing recorded" in result.stderr
    message = email.message_from_string(result.stdout, policy=email.policy.default)
    assert message["To"] == REFEREE
    assert message["Subject"] == f"[pbem] Kiev pocket {game[:8]} #1"
    assert read_entries(result.stdout) == stored_entries(player, game, [0, 1])
    assert unchanged_mail_tables(player, game) == (set(), None, 0)
    # The printed message is a mail the referee's pbem can apply.
    (tmp_path / "dry.eml").write_text(result.stdout)
    assert "applied: entry 1 by german" in ok(referee, "apply", str(tmp_path / "dry.eml"))


def test_configuration_errors_are_one_line(tmp_path: Path) -> None:
    player, _referee, game = new_game(tmp_path)
    line = fails(player, "mail", "send", game[:10], "--to", REFEREE)
    assert "no mail configuration at" in line
    config = tmp_path / "elsewhere.toml"
    config.write_text('address = "german@example.org"\n')
    line = fails(player, "mail", "send", game[:10], "--to", REFEREE, "--config", str(config))
    assert "no [smtp] section" in line
    bad = ("--to", "not an address", "--config", str(config), "--dry-run")
    line = fails(player, "mail", "send", game[:10], *bad)
    assert "is not an email address" in line
    assert unchanged_mail_tables(player, game) == (set(), None, 0)


def test_the_help_loads_no_mail_code() -> None:
    heavy = ("smtplib", "ssl", "pbem.mail.smtp", "pbem.mail.compose", "sqlite_utils")
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from pbem.cli import main\n"
        "for args in (['--help'], ['mail', '--help'], ['mail', 'send', '--help']):\n"
        "    assert CliRunner().invoke(main, args).exit_code == 0\n"
        f"print([m for m in {heavy!r} if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
