"""`pbem mail fetch`: apply the entries found in an IMAP folder, a Maildir or an mbox."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pbem.mail.options import config_option, mailbox_options

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.mail.fetch import MessageReport


@click.command("fetch")
@config_option("config_file")
@mailbox_options
@click.option(
    "--delete-applied",
    is_flag=True,
    help="Delete the messages all of whose entries are now in the store.",
)
@click.option(
    "--accept",
    "accept",
    multiple=True,
    metavar="GAME",
    help="Then accept the invitation to GAME (store it and the entries held with it).",
)
@click.option(
    "--decline",
    "decline",
    multiple=True,
    metavar="GAME",
    help="Then forget the invitation to GAME and the entries held with it.",
)
@click.option(
    "--data",
    "data",
    multiple=True,
    metavar="NAME=FILE",
    help="A data file a game uses that pbem does not ship (as for `pbem apply --data`).",
)
@click.option(
    "--no-auto",
    is_flag=True,
    help="Only apply: sign no automatic answer (dice acknowledgements, only choices, "
    "standing orders).",
)
@click.pass_context
def fetch(
    ctx: click.Context,
    config_file: str | None,
    use_imap: bool,
    maildir: str | None,
    mbox: str | None,
    delete_applied: bool,
    accept: tuple[str, ...],
    decline: tuple[str, ...],
    data: tuple[str, ...],
    no_auto: bool,
) -> None:
    """Apply the moves found in your mail; one line per message.

    Messages are read without changing them (IMAP: no flag is set). Entries that
    arrive before an earlier one wait in the store until it comes. A message with
    anything wrong in it is refused as a whole and changes nothing; so is a message
    too big or too complex for a mail of moves. An invitation to a game from someone
    else is listed, not stored, until you accept it (`pbem join GAME` or --accept).
    With `[imap] sent` in the configuration, your sent mail is read first: what your
    keys signed and sent is relearned (after a restored backup) before anything else.
    Exit status 1 when any message was refused.
    """
    from pbem.cli.app import _client, _data_files
    from pbem.inbox import Inbox
    from pbem.mail.fetch import Fetcher
    from pbem.render.escape import terminal, terminal_line

    client = _client(ctx)
    from pbem.mail.mailbox import open_mailbox

    # First the user's own sent mail, when the configuration names its folder: what the
    # keys signed and sent is relearned before anything is read or signed (pbem.mail.sent).
    sent_refused = False
    if maildir is None and mbox is None:
        from pbem.mail.config import load_config
        from pbem.mail.sent import read_sent

        sent_refused = read_sent(client, load_config(client.store.home, config_file), click.echo)
    source = open_mailbox(client, config_file, use_imap, maildir, mbox, delete_applied)
    extra = _data_files(data)
    fetcher = Fetcher(client, extra)
    with source:
        try:
            for key, raw in source.messages():
                fetcher.process(key, raw)
        finally:
            for report in fetcher.reports:
                click.echo(report.line())
        used = [r.key for r in fetcher.reports if r.fully_used]
        if delete_applied and used:
            source.delete(used)
            click.echo(f"deleted {len(used)} message{'' if len(used) == 1 else 's'}")
    # After the mail: an invitation that came in this fetch can be accepted at once, with
    # the entries of its game that came with it or after it.
    for game in decline:
        click.echo(terminal_line(Inbox(client).decline(game)))
    for game in accept:
        click.echo(terminal_line(Inbox(client, extra).accept(game)))
    if not no_auto:
        _answer_automatically(client, fetcher.reports)
    for report in fetcher.reports:
        if report.proof:
            click.echo(terminal(f"\n{report.label}:\n{report.proof}"))
    if not fetcher.reports:
        click.echo(f"no messages in {source.name}")
    if fetcher.refused or sent_refused:
        sys.exit(1)


def _answer_automatically(client: Client, reports: list[MessageReport]) -> None:
    """After the mail: answer for this store's roles what needs no person, in every game
    that received entries, and say what is now to send (`pbem mail send`)."""
    from pbem.play import answered_lines, whose_turn
    from pbem.render.escape import terminal_line

    games: list[str] = []
    for report in reports:
        for game_id, _seq in [*report.applied, *report.also]:
            if game_id not in games and client.store.has_game(game_id):
                games.append(game_id)
    for game_id in games:
        if not client.game(game_id).started:
            continue
        answered = client.answer_automatically(game_id)
        for line in answered_lines(answered):
            click.echo(terminal_line(line))
        if answered:
            click.echo(f"to send them: pbem mail send {game_id[:12]}")
            click.echo(terminal_line(whose_turn(client, game_id)))
