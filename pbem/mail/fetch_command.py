"""`pbem mail fetch`: apply the entries found in an IMAP folder, a Maildir or an mbox."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command("fetch")
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False),
    help="The mail configuration (default: $PBEM_MAIL_CONFIG, else mail.toml in the store).",
)
@click.option("--imap", "use_imap", is_flag=True, help="Read the IMAP folder of the config.")
@click.option(
    "--maildir", type=click.Path(file_okay=False), help="Read this Maildir (no config needed)."
)
@click.option(
    "--mbox", type=click.Path(dir_okay=False), help="Read this mbox file (no config needed)."
)
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
) -> None:
    """Apply the moves found in your mail; one line per message.

    Messages are read without changing them (IMAP: no flag is set). Entries that
    arrive before an earlier one wait in the store until it comes. A message with
    anything wrong in it is refused as a whole and changes nothing; so is a message
    too big or too complex for a mail of moves. An invitation to a game from someone
    else is listed, not stored, until you accept it (`pbem join GAME` or --accept).
    Exit status 1 when any message was refused.
    """
    from pbem.commands import _client
    from pbem.mail.fetch import Fetcher, accept_invitation, decline_invitation
    from pbem.mail.sources import MailSourceError, open_source
    from pbem.render.escape import terminal, terminal_line

    if sum([use_imap, maildir is not None, mbox is not None]) > 1:
        raise MailSourceError("choose one of --imap, --maildir and --mbox")
    client = _client(ctx)
    if maildir is not None:
        source = open_source(maildir=Path(maildir).expanduser())
    elif mbox is not None:
        source = open_source(mbox=Path(mbox).expanduser())
    else:
        from pbem.mail.config import MailConfigError, load_config

        config = load_config(client.store.home, config_file)
        if use_imap and config.imap is None:
            raise MailConfigError(f"{config.path} has no [imap] server")
        if config.imap is not None:
            source = open_source(imap=config.imap, writable=delete_applied)
        elif config.maildir is not None:
            source = open_source(maildir=config.maildir)
        elif config.mbox is not None:
            source = open_source(mbox=config.mbox)
        else:
            raise MailConfigError(
                f"{config.path} names no mailbox: add [imap], [maildir] or [mbox]"
            )

    fetcher = Fetcher(client)
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
        click.echo(terminal_line(decline_invitation(client, game)))
    for game in accept:
        click.echo(terminal_line(accept_invitation(client, game)))
    for report in fetcher.reports:
        if report.proof:
            click.echo(terminal(f"\n{report.label}:\n{report.proof}"))
    if not fetcher.reports:
        click.echo(f"no messages in {source.name}")
    if fetcher.refused:
        sys.exit(1)
