"""A click group whose subcommands are imported only when used (`pbem mail`, `pbem
referee`), so `pbem --help` stays quick and never loads smtplib, imaplib or the store."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import click


class LazyGroup(click.Group):
    """`subcommands` maps each subcommand's name to "module:attribute"."""

    def __init__(self, *args: Any, subcommands: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.subcommands = dict(subcommands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.subcommands)

    def get_command(self, ctx: click.Context, name: str) -> Any:
        target = self.subcommands.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)
