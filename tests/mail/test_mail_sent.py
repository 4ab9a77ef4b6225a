"""The user's sent mail relearned (issue 27, item 6; pbem/mail/sent.py), against a real
SMTP server (aiosmtpd) and a real IMAP server (dovecot, tests/mail/imap_server.py).

A whole-machine restore rolls back the store and the state folder (the signing journal)
together: nothing local remembers what was signed since. `pbem mail send` files what it
sends in the IMAP folder `[imap] sent`; `pbem mail fetch` reads that folder before the
inbox, so the restored machine stores its own entries again where they fit, and its
journal learns them where they do not: its client then refuses to sign a second entry
with a reveal it already sent, even on top of a different entry the opponent sends.
"""

from __future__ import annotations

import imaplib
import shutil
import ssl
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.core.log import Entry
from pbem.mail.config import MailConfigError, load_config
from pbem.mail.sent import sent_folder
from pbem.store import Store
from pbem.transport.movefile import read_entries
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries
from tests.mail.imap_server import PASSWORD, USER, Dovecot, require_dovecot
from tests.mail.mailtls import MailServer, smtp_server
from tests.support.machines import Player, start


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[MailServer, Dovecot]]:
    binary = require_dovecot()
    with smtp_server(tmp_path, "ssl") as smtp, Dovecot(tmp_path / "dovecot", binary) as imap:
        yield smtp, imap


def configure(player: Player, smtp: MailServer, imap: Dovecot) -> None:
    """b's mail.toml: sending through smtp, reading the IMAP INBOX, its sent mail in Sent."""
    smtp.write_config(
        player.home,
        "b@example.org",
        extra="\n".join(
            [
                "[imap]",
                'host = "127.0.0.1"',
                f"port = {imap.port}",
                'security = "ssl"',
                f'user = "{USER}"',
                f'password = "{PASSWORD}"',
                f'ca_file = "{imap.ca_file}"',
                'sent = "Sent"',
            ]
        ),
    )


def folder(imap: Dovecot, name: str) -> list[tuple[str, bytes]]:
    """(flags, message) of every message in an IMAP folder, read without changing it."""
    context = ssl.create_default_context(cafile=str(imap.ca_file))
    conn = imaplib.IMAP4_SSL("127.0.0.1", imap.port, ssl_context=context, timeout=30)
    try:
        conn.login(USER, PASSWORD)
        conn.select(f'"{name}"', readonly=True)
        status, data = conn.fetch("1:*", "(FLAGS BODY.PEEK[])")
        assert status == "OK"
        return [(p[0].decode(), p[1]) for p in data if isinstance(p, tuple)]
    finally:
        conn.logout()


def deliver(imap: Dovecot, entries: list[Entry], number: int) -> None:
    """The opponent's mail, filed in b's INBOX as a mail server would."""
    mail = EmailMessage()
    mail["From"], mail["To"] = "a@example.org", "b@example.org"
    mail["Subject"], mail["Message-ID"] = f"move {number}", f"<a-{number}@example.org>"
    mail.set_content(move_file(entries), cte="quoted-printable")
    context = ssl.create_default_context(cafile=str(imap.ca_file))
    conn = imaplib.IMAP4_SSL("127.0.0.1", imap.port, ssl_context=context, timeout=30)
    try:
        conn.login(USER, PASSWORD)
        assert conn.append("INBOX", None, None, bytes(mail))[0] == "OK"
    finally:
        conn.logout()


def test_a_restored_machine_relearns_what_it_sent_before_it_signs_again(
    tmp_path: Path, servers: tuple[MailServer, Dovecot]
) -> None:
    smtp, imap = servers
    a, b, game = start(tmp_path)
    configure(b, smtp, imap)
    assert b.ok("mail", "fetch").stdout.splitlines() == [
        "no IMAP folder 'Sent' (sent mail) yet: nothing to relearn",
        f"no messages in IMAP {USER}@127.0.0.1:{imap.port}/INBOX",
    ]
    a.back_up("before-E")
    b.back_up_machine("before-E")  # store and state folder: the whole machine
    e = a.sign(game, "roll", "E")
    b.ok("apply", str(e))
    b.back_up_machine("before-F")
    b.ok("move", game[:8], "roll")
    said = b.ok("mail", "send", game[:8], "--to", "a@example.org").stdout
    assert "filed in IMAP folder 'Sent'" in said
    [(flags, filed)] = folder(imap, "Sent")
    assert "\\Seen" in flags
    [sent] = smtp.messages
    sent_f = Entry.from_wire(*read_entries(sent.data)[-1])
    assert sent_f.by == "b" and [Entry.from_wire(*p) for p in read_entries(filed)][-1] == sent_f

    # Restored to before F: the store learns F again from the sent mail, and goes on.
    b.restore_machine("before-F")
    fetched = b.ok("mail", "fetch").stdout.splitlines()
    assert fetched[0].startswith("sent <") and fetched[0].endswith(
        f"applied game {game[:12]} seqs 4; already had game {game[:12]} seqs 2; "
        "journal relearned entries 4"
    )  # the message carried b's join too
    assert fetched[1] == "sent mail (Sent): 1 message read, 1 entry your keys signed relearned"
    assert Store(b.home).entries(game)[-1]["id"] == sent_f.id
    assert int(sent_f.seq) in Store(b.home).mailed_seqs(game)  # sent: not mailed again

    # Restored to before E: the opponent sends a different E' on top of which b's client
    # would sign F's reveal again. F is relearned first (held: E is not in the store), and
    # the journal refuses the second entry with its reveal.
    b.restore_machine("before-E")
    a.restore("before-E")
    shutil.rmtree(a.state / "journals")  # a cheats: its own client would refuse E'
    e2 = a.sign(game, "roll twice", "E2")
    deliver(imap, parse_entries(e2.read_text()), 1)
    fetched = b.run("mail", "fetch")
    lines = fetched.stdout.splitlines()
    assert "waiting for entry 3" in lines[0] and lines[0].endswith("journal relearned entries 4")
    assert f"applied game {game[:12]} seqs 3" in lines[2]
    assert f"held entry {sent_f.seq} by b refused" in lines[2]
    assert fetched.exit_code == 1  # the sent F no longer fits: said, not hidden
    refused = b.run("move", game[:8], "roll")
    assert refused.exit_code == 1
    assert f"already signed the entry with its reveal 1 (entry {sent_f.id[:12]})" in (
        refused.stderr
    )
    assert len(Store(b.home).entries(game)) == 4  # up to E', nothing of b's signed on it


def test_the_sent_folder_is_an_imap_setting_apart_from_the_inbox(tmp_path: Path) -> None:
    base = '[imap]\nhost = "imap.example.org"\nuser = "me"\npassword_env = "X"\n'
    path = tmp_path / "mail.toml"
    path.write_text(base + 'sent = "Sent Items"\n')
    config = load_config(tmp_path)
    assert config.imap is not None and config.imap.sent == "Sent Items"
    server = sent_folder(config)
    assert server is not None and server.folder == "Sent Items"
    path.write_text(base)
    assert sent_folder(load_config(tmp_path)) is None  # not configured: nothing read
    path.write_text(base + 'sent = "INBOX"\n')
    with pytest.raises(MailConfigError, match="sent names the folder read for moves"):
        load_config(tmp_path)
    path.write_text('[smtp]\nhost = "smtp.example.org"\nsent = "Sent"\n')
    with pytest.raises(MailConfigError, match="unknown setting 'sent'"):
        load_config(tmp_path)
