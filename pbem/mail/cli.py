"""The `pbem mail` command group; each subcommand lives with the code it drives.

Subcommands are imported only when used, so `pbem --help` stays quick and never loads
smtplib, imaplib or the store.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

SUBCOMMANDS = {
    "send": "pbem.mail.send_command:send",
    "fetch": "pbem.mail.fetch_command:fetch",
    "watch": "pbem.mail.watch_command:watch",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> Any:
        target = SUBCOMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup)
def mail() -> None:
    """Send and fetch moves by email."""
