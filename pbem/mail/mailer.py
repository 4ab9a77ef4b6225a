"""The store's mail as `pbem play` and `pbem mail watch` use it (pbem.play.Post): send
what the other side has not got, apply what the mailbox holds."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.client import Client


@dataclass
class Mailer:
    """The store's mail, when its configuration can both send and read (else None)."""

    client: Client
    config_path: str | None = None
    seen_keys: set[str] = field(default_factory=set)

    @staticmethod
    def configured(client: Client, config_path: str | None = None) -> Mailer | None:
        from pbem.mail.config import MailConfigError, load_config

        try:
            config = load_config(client.home, config_path)
        except MailConfigError:
            return None
        readable = config.imap or config.maildir or config.mbox
        if config.smtp is None or config.address is None or not readable:
            return None
        return Mailer(client, config_path)

    def send(self, game_id: str) -> str | None:
        """Mail the game's entries of ours not mailed yet; None when there are none."""
        from pbem.mail.outgoing import send_pending

        game = self.client.game(game_id)
        mine = set(self.client.my_roles(game))
        mailed = self.client.mailed_seqs(game_id)
        if not any(e.by in mine and e.seq not in mailed for e in game.entries):
            return None
        return send_pending(self.client, game_id, config_path=self.config_path)

    def fetch(self) -> list[str]:
        """Apply what the mailbox holds (one line per message not seen before)."""
        from pbem.mail.fetch import Fetcher
        from pbem.mail.mailbox import open_mailbox

        fetcher = Fetcher(self.client)
        with open_mailbox(self.client, self.config_path) as source:
            for key, raw in source.messages():
                fetcher.process(key, raw)
                del raw  # (before the next message is read: one in memory at a time)
        lines = []
        for report in fetcher.reports:
            if report.key not in self.seen_keys:
                self.seen_keys.add(report.key)
                lines.append(report.line())
        return lines
