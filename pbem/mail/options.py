"""The click options that the commands reading or sending mail share (`pbem mail fetch`,
`send`, `watch`, `pbem play`, `pbem referee run`): one spelling and one help text each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

CONFIG_HELP = "The mail configuration (default: $PBEM_MAIL_CONFIG, else mail.toml in the store)."


def config_option(dest: str = "config_path") -> Callable[[F], F]:
    """`--config FILE`, passed as `dest`."""
    return click.option("--config", dest, type=click.Path(dir_okay=False), help=CONFIG_HELP)


def mailbox_options(function: F) -> F:
    """`--imap`, `--maildir DIR` and `--mbox FILE`: where to read mail (passed as
    `use_imap`, `maildir`, `mbox`)."""
    function = click.option(
        "--mbox", type=click.Path(dir_okay=False), help="Read this mbox file (no config needed)."
    )(function)
    function = click.option(
        "--maildir", type=click.Path(file_okay=False), help="Read this Maildir (no config needed)."
    )(function)
    return click.option(
        "--imap", "use_imap", is_flag=True, help="Read the IMAP folder of the config."
    )(function)
