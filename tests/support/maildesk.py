"""One person's store for the tests that play by mail: its role, home, address, Maildir
and Client, the CLI run on that home, and its mail configuration for the loopback SMTP
server (tests/mail/mailtls.py); and the mail system that delivers what the server took
into each recipient's Maildir. Used by the games played by email (tests/mail) and the
referee's (tests/refereeing/league.py)."""

from __future__ import annotations

import mailbox
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import main
from pbem.client import Client
from pbem.store import Store
from tests.mail.mailtls import MailServer


class Desk:
    """One store, a player's or a referee's, with a key named after its role."""

    def __init__(self, root: Path, role: str) -> None:
        self.role = role
        self.home = root / role
        self.address = f"{role}@example.org"
        self.maildir = root / f"{role}-maildir"
        mailbox.Maildir(self.maildir, create=True)
        self.client = Client(Store(self.home))
        self.client.new_key(role)

    def cli(self, *args: str, code: int = 0) -> str:
        """`pbem --home HOME ARGS...`: its output, the exit code checked."""
        result = CliRunner().invoke(main, ["--home", str(self.home), *args])
        assert result.exit_code == code, f"pbem {' '.join(args)}: {result.output}"
        return result.output

    def configure(self, server: MailServer) -> None:
        """A mail.toml for the server, reading its own Maildir."""
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
