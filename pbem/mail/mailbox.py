"""The mailbox a store reads: named on the command line, or by its mail configuration."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.mail.sources import Source as MailSource


def open_mailbox(
    client: Client,
    config_file: str | None = None,
    use_imap: bool = False,
    maildir: str | None = None,
    mbox: str | None = None,
    writable: bool = False,
) -> MailSource:
    """The mailbox to read: a Maildir or mbox named on the command line, else the one the
    mail configuration names (IMAP first)."""
    from pbem.mail.sources import MailSourceError, open_source

    if sum([use_imap, maildir is not None, mbox is not None]) > 1:
        raise MailSourceError("choose one of --imap, --maildir and --mbox")
    if maildir is not None:
        return open_source(maildir=Path(maildir).expanduser())
    if mbox is not None:
        return open_source(mbox=Path(mbox).expanduser())
    from pbem.mail.config import MailConfigError, load_config

    config = load_config(client.home, config_file)
    if use_imap and config.imap is None:
        raise MailConfigError(f"{config.path} has no [imap] server")
    if config.imap is not None:
        return open_source(imap=config.imap, writable=writable)
    if config.maildir is not None:
        return open_source(maildir=config.maildir)
    if config.mbox is not None:
        return open_source(mbox=config.mbox)
    raise MailConfigError(f"{config.path} names no mailbox: add [imap], [maildir] or [mbox]")
