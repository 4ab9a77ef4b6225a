"""The `pbem mail` command group; each subcommand lives with the code it drives.

Subcommands are imported only when used, so `pbem --help` stays quick and never loads
smtplib, imaplib or the store.
"""

from __future__ import annotations

import click

from pbem.lazy_group import LazyGroup

SUBCOMMANDS = {
    "send": "pbem.mail.send_command:send",
    "fetch": "pbem.mail.fetch_command:fetch",
    "watch": "pbem.mail.watch_command:watch",
}


@click.group(cls=LazyGroup, subcommands=SUBCOMMANDS)
def mail() -> None:
    """Send and fetch moves by email."""
