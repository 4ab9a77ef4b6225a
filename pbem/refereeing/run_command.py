"""`pbem referee run`: the unattended referee (pbem.refereeing.rounds), once or in a loop."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime

import click

from pbem.mail.options import config_option, mailbox_options
from pbem.refereeing.settle import DEFAULT_NEW_GAMES, Admission


def _fixed(moment: datetime) -> Callable[[], datetime]:
    def now() -> datetime:
        return moment

    return now


@click.command("run")
@config_option()
@mailbox_options
@click.option("--once", is_flag=True, help="One round, then stop (for cron).")
@click.option(
    "--interval",
    type=click.FloatRange(min=1),
    default=300,
    show_default=True,
    help="Seconds between two rounds.",
)
@click.option(
    "--no-forfeit",
    is_flag=True,
    help="Remind players of their deadline, but never sign a forfeit.",
)
@click.option(
    "--accept-invitations",
    is_flag=True,
    help="Accept and join the games whose genesis names this store's key as their referee: "
    "only those whose every player is on --players FILE, if given, and at most "
    "--max-new-games a run.",
)
@click.option(
    "--players",
    "roster_path",
    metavar="FILE",
    help="With --accept-invitations: a roster of the league's players (one OpenSSH "
    "public-key line or SHA256 fingerprint a line, # comments); an invitation is accepted "
    "only if every player's key is on it.",
)
@click.option(
    "--max-new-games",
    type=click.IntRange(min=0),
    metavar="N",
    help="With --accept-invitations: accept at most N new games in this run (default: "
    f"{DEFAULT_NEW_GAMES} without --players, no limit with it).",
)
@click.option(
    "--now",
    "now_text",
    hidden=True,
    metavar="YYYY-MM-DDTHH:MM:SSZ",
    help="The referee's clock for this run (tests, or replaying a backlog), not the system's.",
)
@click.pass_context
def run(
    ctx: click.Context,
    config_path: str | None,
    maildir: str | None,
    mbox: str | None,
    use_imap: bool,
    once: bool,
    interval: float,
    no_forfeit: bool,
    accept_invitations: bool,
    roster_path: str | None,
    max_new_games: int | None,
    now_text: str | None,
) -> None:
    """Referee every game whose referee key this store holds, without waiting on anyone:
    apply the mail, sign the joins and acknowledgements the referee owes (the players'
    dice), remind a late player twice, sign its forfeit once its deadline has passed
    (the genesis's deadline_hours), and mail each player the entries it has not been sent
    with its own turn page. Then again every INTERVAL seconds, or stop with --once.

    The times are the referee's clock (UTC); `--now` (hidden) sets it for a run, for
    tests or a referee replaying a backlog. With --once, exit status 1 when a message
    was refused or a game failed. Stop the loop with Ctrl-C: nothing is lost at any
    moment.

    Anyone can mail invitations from keys made for the purpose: --accept-invitations
    takes only games whose players are all on --players FILE, if given, and no more
    than --max-new-games in one run (5 without a roster); the others are said once and
    stay in the inbox (`pbem join GAME` accepts one by hand)."""
    import time

    from pbem.cli.app import _client
    from pbem.errors import PbemError
    from pbem.mail.mailbox import open_mailbox
    from pbem.refereeing.clock import parse_now, utc_now
    from pbem.refereeing.postman import Postman
    from pbem.refereeing.rounds import Referee
    from pbem.render.escape import terminal_line

    admission = _admission(accept_invitations, roster_path, max_new_games)
    client = _client(ctx)
    now = utc_now if now_text is None else _fixed(parse_now(now_text))

    def say(line: str) -> None:
        click.echo(terminal_line(line))

    postman, why = Postman.configured(client, config_path)
    if postman is None:
        say(why)
    referee = Referee(
        client,
        say,
        now,
        postman,
        forfeits=not no_forfeit,
        accept_invitations=accept_invitations,
        admission=admission,
    )
    try:
        while True:
            try:
                with open_mailbox(client, config_path, use_imap, maildir, mbox) as source:
                    referee.round(source.messages())
            except PbemError as exc:
                if once:
                    raise
                # A loop outlives a mail server that is down for a while: next round.
                say(f"this round stopped: {exc}; next round in {interval:g} s")
            if once:
                break
            time.sleep(interval)
    except KeyboardInterrupt:
        say("stopped")
    if once and referee.refused:
        sys.exit(1)


def _admission(accept: bool, roster_path: str | None, limit: int | None) -> Admission:
    """Which invitations this run accepts (pbem.refereeing.settle.Admission); the roster
    is read before anything else, so a bad one stops the run in one line."""
    from pbem.standings import read_roster

    if not accept and (roster_path is not None or limit is not None):
        raise click.UsageError("--players and --max-new-games go with --accept-invitations")
    if roster_path is None:
        return Admission(None, DEFAULT_NEW_GAMES if limit is None else limit)
    return Admission(read_roster(roster_path), limit)  # (a PbemError: one error line)
