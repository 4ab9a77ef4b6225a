"""Sending a referee's mail: a message is recorded as sent only once the SMTP server has
accepted it, in a transaction of its own. A referee killed between the two sends it
again on its next round: harmless, since applying an entry twice says "already had"."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import TYPE_CHECKING

from pbem.errors import PbemError

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.mail.compose import Envelope
    from pbem.mail.config import MailConfig


@dataclass
class Postman:
    """The referee's From address and SMTP server (pbem.mail.config)."""

    address: str
    name: str | None
    config: MailConfig

    @staticmethod
    def configured(client: Client, config_path: str | None) -> tuple[Postman | None, str]:
        """The postman, or None and the one line that says why nothing will be mailed."""
        from pbem.mail.config import load_config

        try:
            config = load_config(client.home, config_path)
        except PbemError as exc:
            return None, f"nothing is mailed: {exc}"
        if config.address is None:
            return None, f"nothing is mailed: {config.path} sets no address (the From address)"
        if config.smtp is None:
            return None, f"nothing is mailed: {config.path} has no [smtp] server"
        return Postman(config.address, config.name, config), ""

    def envelope(self, to: str) -> Envelope:
        """The sender, recipient and sender's name of a letter to `to` (pbem.refereeing.letters)."""
        return {"sender": self.address, "to": to, "sender_name": self.name}

    def send(self, message: EmailMessage, to: str, record: Callable[[], None]) -> None:
        """Hand `message` to the server, then `record` it (one transaction, the caller's)."""
        from pbem.mail.smtp import send

        assert self.config.smtp is not None
        send(self.config.smtp, message, self.address, [to])
        record()
