"""The click application: the `pbem` group, every failure one line, and its commands.

`pbem.cli` is the entry point that runs it (and answers `pbem --help` and `pbem verify
FILE` without importing it). The commands live one module per group beside this one,
each listing its own in COMMANDS; their options come from pbem.cli.options and what they
share from pbem.cli.common. Imports stay lazy so that a command starts fast: no jinja2, no
sqlite-utils, no rules code until a command needs them (tests/cli/test_fast_start.py).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from pbem.cli import games, keys, mail, meta, moves, play, referee, render, verify
from pbem.cli.common import fail
from pbem.reporting import report_error


class PbemGroup(click.Group):
    """Every failure becomes one line on stderr and a non-zero exit.

    PbemError (anything the user's input caused), a store that cannot be read,
    and click's own usage errors all print `error: <one line>`.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as exc:
            report_error(exc, click.echo, fail)  # PbemError, OSError: one line, exit 1
            # Only a command that opened the store can fail in sqlite3: not imported for
            # the others (`pbem verify` starts faster without it).
            sqlite3 = sys.modules.get("sqlite3")
            if sqlite3 is not None and isinstance(exc, sqlite3.DatabaseError):
                fail(f"the local store cannot be used: {exc}")
            raise

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # `pbem key` alone: its help
                click.echo(exc.format_message())
                sys.exit(0)
            fail(f"{exc.format_message()} (see `pbem --help`)")
        except click.Abort:
            fail("aborted")
        sys.exit(result if isinstance(result, int) else 0)


@click.group(cls=PbemGroup)
@click.option("--home", envvar="PBEM_HOME", help="Store folder (default: $PBEM_HOME or XDG).")
@click.version_option(package_name="pbem")
@click.pass_context
def main(ctx: click.Context, home: str | None) -> None:
    """pbem: play board wargames by email, signed, hash-chained and verifiable."""
    ctx.obj = {"home": home}


for _module in (keys, games, moves, meta, render, verify, play, mail, referee):
    for _command in _module.COMMANDS:
        main.add_command(_command)
