"""`pbem mail`: send and fetch moves by email (pbem.mail), and watch the mailbox.

    send    mail this store's entries that the opponent has not been sent yet
    fetch   apply the entries found in an IMAP folder, a Maildir or an mbox
    watch   answer by mail, unattended, what needs no person (pbem.play.watch)

`pbem mail send GAME`: pending entries are those of the game signed by one of this store's
roles and not in a message recorded as sent (the creator's first mail carries the genesis
and the joins). The message is recorded, and the address remembered, only once the SMTP
server has accepted it; any failure leaves the store as it was. With `[imap] sent`
configured, the message is then filed in that folder (pbem.mail.sent); a failure there is
said on the same line and changes nothing else (the message is sent).

Nothing of smtplib, imaplib or the store is imported until a command runs: `pbem --help`
stays quick.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pbem.cli.common import client_of, data_files
from pbem.cli.options import (
    APPLY_ONLY_HELP,
    config_option,
    data_option,
    game_argument,
    interval_option,
    mailbox_options,
    no_auto_option,
)

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.mail.fetch import MessageReport


@click.group()
def mail() -> None:
    """Send and fetch moves by email."""


@mail.command("send")
@game_argument()
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
    from pbem.mail.outgoing import send_pending

    # (a dry run prints the message on stdout: the line goes to stderr)
    click.echo(send_pending(client_of(ctx), game, to, config_path, dry_run), err=dry_run)


@mail.command("fetch")
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
@data_option("A data file a game uses that pbem does not ship (as for `pbem apply --data`).")
@no_auto_option(APPLY_ONLY_HELP)
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
    from pbem.escape import terminal, terminal_line
    from pbem.inbox import Inbox
    from pbem.mail.fetch import Fetcher

    client = client_of(ctx)
    from pbem.mail.mailbox import open_mailbox

    # First the user's own sent mail, when the configuration names its folder: what the
    # keys signed and sent is relearned before anything is read or signed (pbem.mail.sent).
    sent_refused = False
    if maildir is None and mbox is None:
        from pbem.mail.config import load_config
        from pbem.mail.sent import read_sent

        sent_refused = read_sent(client, load_config(client.home, config_file), click.echo)
    source = open_mailbox(client, config_file, use_imap, maildir, mbox, delete_applied)
    extra = data_files(data)
    fetcher = Fetcher(client, extra)
    with source:
        try:
            for key, raw in source.messages():
                fetcher.process(key, raw)
                del raw  # (before the next message is read: one in memory at a time)
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
    from pbem.escape import terminal_line
    from pbem.play import answered_lines, whose_turn

    games: list[str] = []
    for report in reports:
        for game_id, _seq in [*report.applied, *report.also]:
            if game_id not in games and client.has_game(game_id):
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


@mail.command("watch")
@click.argument("games", metavar="[GAME]...", nargs=-1)
@config_option()
@interval_option(300, "Seconds between two looks at the mailbox.")
@click.option("--once", is_flag=True, help="Look once, answer, send, and stop (for cron).")
@click.pass_context
def watch(
    ctx: click.Context,
    games: tuple[str, ...],
    config_path: str | None,
    interval: float,
    once: bool,
) -> None:
    """Fetch your mail, sign the answers that need no person (dice acknowledgements, only
    choices, your standing orders: `pbem orders`) and mail them, again every INTERVAL
    seconds, for every GAME (default: every game in the store). It never makes a real
    decision: those wait for `pbem play` or `pbem move`. Stop it with Ctrl-C."""
    import time

    from pbem.errors import PbemError
    from pbem.escape import terminal_line
    from pbem.mail.mailer import Mailer
    from pbem.play import watch as watch_loop

    client = client_of(ctx)
    mailer = Mailer.configured(client, config_path)
    if mailer is None:
        raise PbemError(
            "mail watch needs a mail configuration that can send ([smtp], address) and "
            "read ([imap], [maildir] or [mbox]); see the README"
        )
    ids = [client.find_game(g) for g in games] or [str(row["id"]) for row in client.game_rows()]

    def say(line: str) -> None:
        click.echo(terminal_line(line))

    try:
        watch_loop(client, ids, mailer, say, time.sleep, interval, 1 if once else None)
    except KeyboardInterrupt:
        say("stopped")


COMMANDS = (mail,)
