"""The arguments and options that several commands share: one spelling each, and one help
text where the commands say the same thing (as sqlite-utils bundles its options).

A bundle is a decorator that adds its options in the order listed, so a command's `--help`
lists them where the bundle stands among its other options. Where commands explain an
option each in its own words (`--role`, `--json`, `-o` of a save or of a summary), the
bundle takes that help text; the texts they share are the constants here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from pbem.completion import complete_game, complete_game_or_file

F = TypeVar("F", bound=Callable[..., Any])

CONFIG_HELP = "The mail configuration (default: $PBEM_MAIL_CONFIG, else mail.toml in the store)."
DATA_HELP = "A data file the game uses that pbem does not ship."
MOVE_FILE_HELP = "Write the move file here instead of stdout."
FORCE_HELP = "Overwrite the -o file whatever it holds."
NOTE_HELP = "A signed note to your opponent (500 characters at most)."
APPLY_ONLY_HELP = (
    "Only apply: sign no automatic answer (dice acknowledgements, only choices, standing orders)."
)


def _stack(*decorators: Callable[[Any], Any]) -> Callable[[F], F]:
    """One decorator applying `decorators` so that they read, and list, top to bottom."""

    def apply(function: F) -> F:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


# --- arguments -----------------------------------------------------------------------------


def game_argument(required: bool = True) -> Callable[[F], F]:
    """GAME: a stored game's id or a prefix of it (completed from the store)."""
    return click.argument("game", required=required, shell_complete=complete_game)


def game_or_file_argument(name: str = "game") -> Callable[[F], F]:
    """A stored game or a file holding one (completed as either)."""
    return click.argument(name, shell_complete=complete_game_or_file)


# --- options of the commands that sign or write entries ---------------------------------------


def output_option(text: str = MOVE_FILE_HELP, **extra: Any) -> Callable[[F], F]:
    """`-o/--output FILE`, passed as `output`."""
    return click.option("-o", "--output", help=text, **extra)


def force_option(text: str = FORCE_HELP) -> Callable[[F], F]:
    """`--force`: overwrite the -o file that holds entries the other side may not have."""
    return click.option("--force", is_flag=True, help=text)


def output_options(output_help: str, force_help: str = FORCE_HELP) -> Callable[[F], F]:
    """`-o/--output` then `--force`, as the commands that refuse to overwrite a move file
    holding unanswered entries take them (pbem.client.Client.unreceived)."""
    return _stack(output_option(output_help), force_option(force_help))


def role_option(text: str) -> Callable[[F], F]:
    """`--role ROLE`, passed as `role`."""
    return click.option("--role", help=text)


def note_option(text: str = NOTE_HELP) -> Callable[[F], F]:
    """`--note TEXT`: a signed note to the other side, sent with the entry."""
    return click.option("--note", help=text)


def meta_options(role_help: str) -> Callable[[F], F]:
    """`--role`, `--note` and `-o`: a resignation, a draw offer or its answer, a takeback
    (pbem.core.meta)."""
    return _stack(role_option(role_help), note_option(), output_option())


def no_auto_option(text: str) -> Callable[[F], F]:
    """`--no-auto`: sign no automatic answer (pbem.answers) after the command's own."""
    return click.option("--no-auto", is_flag=True, help=text)


def json_option(text: str) -> Callable[[F], F]:
    """`--json`: print one JSON document on stdout (docs/json.md), passed as `as_json`."""
    return click.option("--json", "as_json", is_flag=True, help=text)


def data_option(text: str | None = DATA_HELP) -> Callable[[F], F]:
    """`--data NAME=FILE`, repeatable: a data file the game uses, passed as `data`."""
    return click.option("--data", "data", multiple=True, metavar="NAME=FILE", help=text)


# --- mail ------------------------------------------------------------------------------------


def interval_option(default: int, text: str) -> Callable[[F], F]:
    """`--interval SECONDS` (at least 1) between two looks at the mailbox."""
    return click.option(
        "--interval",
        type=click.FloatRange(min=1),
        default=default,
        show_default=True,
        help=text,
    )


def config_option(dest: str = "config_path") -> Callable[[F], F]:
    """`--config FILE`, the mail configuration, passed as `dest`."""
    return click.option("--config", dest, type=click.Path(dir_okay=False), help=CONFIG_HELP)


def mailbox_options(function: F) -> F:
    """`--imap`, `--maildir DIR` and `--mbox FILE`: where to read mail (passed as
    `use_imap`, `maildir`, `mbox`)."""
    return _stack(
        click.option(
            "--imap", "use_imap", is_flag=True, help="Read the IMAP folder of the config."
        ),
        click.option(
            "--maildir",
            type=click.Path(file_okay=False),
            help="Read this Maildir (no config needed).",
        ),
        click.option(
            "--mbox",
            type=click.Path(dir_okay=False),
            help="Read this mbox file (no config needed).",
        ),
    )(function)
