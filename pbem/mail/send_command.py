"""`pbem mail send GAME`: mail this store's entries that the opponent has not been sent yet.

Pending entries are those of the game signed by one of this store's roles and not in a
message recorded as sent (the creator's first mail carries the genesis and the joins).
The message is recorded, and the address remembered, only once the SMTP server has
accepted it; any failure leaves the store as it was. With `[imap] sent` configured, the
message is then filed in that folder (pbem.mail.sent); a failure there is said on the
same line and changes nothing else (the message is sent).
"""

from __future__ import annotations

import click

from pbem.completion import complete_game
from pbem.mail.options import config_option


@click.command("send")
@click.argument("game", shell_complete=complete_game)
@click.option(
    "--to",
    "to",
    metavar="ADDRESS",
    help="The opponent's address (remembered for this game; default: the remembered one).",
)
@config_option()
@click.option("--dry-run", is_flag=True, help="Print the message instead of sending it.")
@click.pass_context
def send(
    ctx: click.Context, game: str, to: str | None, config_path: str | None, dry_run: bool
) -> None:
    """Mail GAME's entries of yours that were not mailed yet to the opponent, over SMTP."""
    from pbem.cli.app import _client
    from pbem.mail.outgoing import send_pending

    # (a dry run prints the message on stdout: the line goes to stderr)
    click.echo(send_pending(_client(ctx), game, to, config_path, dry_run), err=dry_run)
