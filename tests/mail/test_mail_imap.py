"""`pbem mail fetch --imap` against a real IMAP server: dovecot over TLS (imap_server.py).

Messages are delivered with APPEND, as a mail server would file them; the fetching
store is player a's second store, fed only by mail. Without dovecot these tests skip,
unless PBEM_REQUIRE_IMAP=1 (CI), where they fail.
"""

from __future__ import annotations

import imaplib
import re
import ssl
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.client import Client
from pbem.core.log import Entry
from pbem.store import Store
from pbem.transport.savefile import move_file
from tests.mail import imap_server
from tests.mail.imap_server import PASSWORD, USER, Dovecot, require_dovecot
from tests.support.players import Duo


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Dovecot]:
    binary = require_dovecot()
    with Dovecot(tmp_path / "dovecot", binary) as running:
        yield running


@pytest.fixture
def game(tmp_path: Path) -> tuple[Duo, list[Entry]]:
    duo = Duo(tmp_path / "players")
    for _ in range(3):
        duo.step()
    return duo, list(duo.a.game(duo.game_id).entries)


def reader(tmp_path: Path) -> Path:
    home = tmp_path / "laptop"
    Client(Store(home)).import_key("a", tmp_path / "players" / "a" / "keys" / "a")
    return home


def message(number: int, entries: list[Entry], body: str | None = None) -> bytes:
    mail = EmailMessage()
    mail["From"] = "b@example.org"
    mail["To"] = "a@example.org"
    mail["Subject"] = f"move {number}"
    mail["Message-ID"] = f"<imap-{number}@example.org>"
    mail.set_content(body if body is not None else move_file(entries), cte="quoted-printable")
    return bytes(mail).replace(b"\n", b"\r\n")


def connect(server: Dovecot) -> imaplib.IMAP4_SSL:
    context = ssl.create_default_context(cafile=str(server.ca_file))
    conn = imaplib.IMAP4_SSL("127.0.0.1", server.port, ssl_context=context, timeout=30)
    conn.login(USER, PASSWORD)
    return conn


def deliver(server: Dovecot, *messages: bytes, flags: str | None = None) -> None:
    conn = connect(server)
    try:
        for raw in messages:
            status, _ = conn.append("INBOX", flags, None, raw)
            assert status == "OK"
    finally:
        conn.logout()


def mailbox_state(server: Dovecot) -> dict[int, tuple[str, bytes]]:
    """UID -> (flags, whole message) of every message in INBOX, read without changing it."""
    conn = connect(server)
    try:
        conn.select("INBOX", readonly=True)
        status, data = conn.uid("FETCH", "1:*", "(FLAGS BODY.PEEK[])")
        assert status == "OK"
        state: dict[int, tuple[str, bytes]] = {}
        for part in data:
            if isinstance(part, tuple):
                head = part[0].decode()
                uid = re.search(r"UID (\d+)", head)
                flags = re.search(r"FLAGS \(([^)]*)\)", head)
                assert uid is not None and flags is not None
                # \Recent is not a flag of the message but of the session that first
                # sees it (RFC 3501): any read-write SELECT takes it.
                kept = [f for f in flags.group(1).split() if f != "\\Recent"]
                state[int(uid.group(1))] = (" ".join(kept), part[1])
        return state
    finally:
        conn.logout()


def write_config(
    home: Path,
    server: Dovecot,
    *,
    security: str = "ssl",
    ca_file: bool = True,
) -> Path:
    port = server.port if security == "ssl" else server.starttls_port
    lines = [
        "[imap]",
        'host = "127.0.0.1"',
        f"port = {port}",
        f'security = "{security}"',
        f'user = "{USER}"',
    ]
    if ca_file:
        lines.append(f'ca_file = "{server.ca_file}"')
    path = home / "mail.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def fetch(home: Path, *args: str) -> Result:
    return CliRunner().invoke(
        main, ["--home", str(home), "mail", "fetch", *args], catch_exceptions=False
    )


@pytest.fixture(autouse=True)
def _password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)


def test_fetch_over_imap_applies_in_seq_order_and_marks_nothing_read(
    server: Dovecot, game: tuple[Duo, list[Entry]], tmp_path: Path
) -> None:
    duo, e = game
    home = reader(tmp_path)
    write_config(home, server)
    deliver(server, message(1, e[0:3]), message(2, e[4:6]), message(3, e[3:4]))
    deliver(server, message(4, [], body="Lunch on Friday?\n"))
    before = mailbox_state(server)
    assert all("\\Seen" not in flags for flags, _ in before.values())

    result = fetch(home, "--imap")

    assert result.exit_code == 0, result.output
    short = duo.game_id[:12]
    assert result.stdout.splitlines() == [
        f'<imap-1@example.org> "move 1": applied game {short} seqs 0-2',
        f'<imap-2@example.org> "move 2": applied game {short} seqs 4-5',
        f'<imap-3@example.org> "move 3": applied game {short} seqs 3; and held entries 4-5 '
        f"of game {short} from earlier mail",
        '<imap-4@example.org> "move 4": no pbem entries',
    ]
    store = Store(home)
    assert [r["seq"] for r in store.entries(duo.game_id)] == list(range(6))
    assert store.buffered(duo.game_id) == []
    # Same messages, same UIDs, same bytes, and still unread.
    assert mailbox_state(server) == before


def test_fetch_over_starttls_and_the_config_default_source(
    server: Dovecot, game: tuple[Duo, list[Entry]], tmp_path: Path
) -> None:
    duo, e = game
    home = reader(tmp_path)
    write_config(home, server, security="starttls")
    deliver(server, message(1, e[0:4]))

    result = fetch(home)  # no --imap: the config's [imap] is the default source

    assert result.exit_code == 0, result.output
    assert result.stdout.strip().endswith(f"applied game {duo.game_id[:12]} seqs 0-3")


def test_delete_applied_expunges_only_fully_used_messages(
    server: Dovecot, game: tuple[Duo, list[Entry]], tmp_path: Path
) -> None:
    duo, e = game
    home = reader(tmp_path)
    write_config(home, server)
    deliver(server, message(1, e[0:3]), message(2, e[5:6]), message(3, e[3:4]))
    # The player had flagged a message for deletion themselves: it must survive ours.
    deliver(server, message(4, [], body="old news\n"), flags="(\\Deleted)")
    deliver(server, message(5, e[2:4]))  # already had
    before = mailbox_state(server)
    uids = sorted(before)

    result = fetch(home, "--imap", "--delete-applied")

    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    assert out[1].endswith(f"waiting for entry 4 of game {duo.game_id[:12]} (holding 5)")
    assert out[-1] == "deleted 3 messages"
    # Message 2 still waits for entry 4; message 4 is not ours to expunge.
    assert mailbox_state(server) == {uids[1]: before[uids[1]], uids[3]: before[uids[3]]}
    assert "\\Deleted" in before[uids[3]][0]


def test_a_wrong_password_is_one_line(
    server: Dovecot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    write_config(home, server)
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "not-the-password")

    result = fetch(home, "--imap")

    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"error: IMAP login as {USER} at 127.0.0.1:{server.port} failed: "
        "[AUTHENTICATIONFAILED] Authentication failed.\n"
    )


@pytest.mark.parametrize("security", ["ssl", "starttls"])
def test_an_untrusted_certificate_is_a_clear_error(
    server: Dovecot, tmp_path: Path, security: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    write_config(home, server, security=security, ca_file=False)
    deliver(server, message(1, [], body="hello\n"))
    before = mailbox_state(server)

    result = fetch(home, "--imap")

    assert result.exit_code == 1
    assert len(result.stderr.splitlines()) == 1
    assert "has a certificate this machine does not trust" in result.stderr
    assert "self-signed certificate" in result.stderr
    assert "set ca_file in [imap]" in result.stderr
    assert mailbox_state(server) == before


def test_without_dovecot_the_imap_tests_skip_unless_ci_requires_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(imap_server, "dovecot_binary", lambda: None)
    monkeypatch.setenv("PBEM_REQUIRE_IMAP", "1")
    with pytest.raises(pytest.fail.Exception, match="PBEM_REQUIRE_IMAP=1"):
        require_dovecot()
    monkeypatch.delenv("PBEM_REQUIRE_IMAP")
    with pytest.raises(pytest.skip.Exception, match="dovecot is not installed"):
        require_dovecot()


def test_no_server_listening_is_a_one_line_error(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    port = imap_server.free_port()  # nothing listens there
    (home / "mail.toml").write_text(f'[imap]\nhost = "127.0.0.1"\nport = {port}\nuser = "{USER}"\n')

    result = fetch(home)

    assert result.exit_code == 1
    assert result.stderr == (
        f"error: cannot connect to the IMAP server 127.0.0.1:{port}: Connection refused\n"
    )
