"""`pbem referee`: referee games unattended (pbem.refereeing, docs/referee.md).

    run       the unattended referee (pbem.refereeing.rounds), once or in a loop
    status    the refereed games, whom each waits for and its deadline
    player    where a refereed game's player gets its mail
    disclose  what a double-blind game's referee owes, signed by hand

The unattended referee (`run`) signs a double-blind game's disclosures the moment they are
owed; a referee who plays by hand signs them with `disclose`
(pbem.client.Client.blind_duties).

Nothing of the referee's rounds, the mail or the store is imported until a command runs:
`pbem --help` stays quick.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pbem.cli.common import client_of, write_entries
from pbem.cli.options import (
    config_option,
    game_argument,
    interval_option,
    mailbox_options,
    output_option,
)
from pbem.refereeing import DEFAULT_NEW_GAMES

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from pbem.refereeing.settle import Admission


@click.group()
def referee() -> None:
    """Referee games unattended: dice, deadlines, forfeits and each player's mail."""


def _fixed(moment: datetime) -> Callable[[], datetime]:
    def now() -> datetime:
        return moment

    return now


@referee.command("run")
@config_option()
@mailbox_options
@click.option("--once", is_flag=True, help="One round, then stop (for cron).")
@interval_option(300, "Seconds between two rounds.")
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

    from pbem.errors import PbemError
    from pbem.escape import terminal_line
    from pbem.mail.mailbox import open_mailbox
    from pbem.refereeing.clock import parse_now, utc_now
    from pbem.refereeing.postman import Postman
    from pbem.refereeing.rounds import Referee

    admission = _admission(accept_invitations, roster_path, max_new_games)
    client = client_of(ctx)
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
    from pbem.refereeing.settle import Admission
    from pbem.standings import read_roster

    if not accept and (roster_path is not None or limit is not None):
        raise click.UsageError("--players and --max-new-games go with --accept-invitations")
    if roster_path is None:
        return Admission(None, DEFAULT_NEW_GAMES if limit is None else limit)
    return Admission(read_roster(roster_path), limit)  # (a PbemError: one error line)


@referee.command("status")
@game_argument(required=False)
@click.pass_context
def status(ctx: click.Context, game: str | None) -> None:
    """Per game this store referees (or GAME only): whom it waits for, since when by the
    referee's clock, the deadline, the reminders sent, and each player's mail."""
    from pbem.errors import PbemError
    from pbem.escape import terminal_line
    from pbem.refereeing.settle import refereed_games
    from pbem.refereeing.status import status_lines

    client = client_of(ctx)
    games = refereed_games(client)
    if game is not None:
        wanted = client.find_game(game)
        if wanted not in games:
            raise PbemError(f"game {wanted[:12]} is not refereed by a key of this store")
        games = [wanted]
    if not games:
        click.echo("this store referees no game")
    for game_id in games:
        for line in status_lines(client, game_id):
            click.echo(terminal_line(line))


@referee.command("player")
@game_argument()
@click.argument("role")
@click.argument("address")
@click.pass_context
def player(ctx: click.Context, game: str, role: str, address: str) -> None:
    """Remember that ROLE of GAME (a game this store referees) gets its mail at ADDRESS:
    `pbem referee run` mails it every entry it has not been sent, with its turn page."""
    from pbem.core.referee import REFEREE
    from pbem.errors import PbemError
    from pbem.escape import terminal_line
    from pbem.refereeing.settle import genesis_of, refereed_by_us

    client = client_of(ctx)
    game_id = client.find_game(game)
    genesis = genesis_of(client, game_id)
    if not refereed_by_us(client, genesis):
        raise PbemError(f"game {game_id[:12]} is not refereed by a key of this store")
    roles = genesis.body.get("roles")
    players = sorted(r for r in roles if r != REFEREE) if isinstance(roles, dict) else []
    if role not in players:
        raise PbemError(
            f"game {game_id[:12]} has no player {role!r} (its players: {', '.join(players)})"
        )
    address = address.strip()
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain or any(c.isspace() for c in address):
        raise PbemError(f"{address!r} is not an email address")
    client.set_player_address(game_id, role, address)
    click.echo(terminal_line(f"game {game_id[:12]}: {role} gets its mail at {address}"))


ROUNDS = 4  # a void, then nothing; or a disclose; or an answer: one is enough, a few at most


@referee.command("disclose")
@game_argument()
@output_option()
@click.pass_context
def disclose(ctx: click.Context, game: str, output: str | None) -> None:
    """Sign what the referee of a double-blind GAME owes now: once the game is over, the
    disclose of every value still sealed, whatever it shows (a claim it shows false ends
    the game against the liar, in the log); before that, a void of a false escrow not
    attested yet; and the answer to a player who says a deal does not open (the deal's
    own key). Writes them as a move file to send to the players."""
    from pbem.errors import PbemError
    from pbem.escape import terminal_line

    client = client_of(ctx)
    played = client.game(game)
    if not played.double_blind:
        raise PbemError(f"game {played.id[:12]} is not double-blind: nothing to disclose")
    signed = []
    for _ in range(ROUNDS):
        owed = client.blind_duties(game)
        if not owed:
            break
        signed += owed
    if not signed:
        played = client.game(game)
        if played.disclosed_at is not None:
            why = f"the referee disclosed in entry {played.disclosed_at}"
        elif played.outcome() is None:
            why = "the game is not over and no escrow is false"
        else:
            why = "nothing is sealed, or the game ended on its own entries"
        raise PbemError(f"nothing for the referee to sign in game {played.id[:12]}: {why}")
    write_entries(signed, output)
    outcome = client.game(game).outcome()
    for entry in signed:
        click.echo(terminal_line(f"signed {entry.describe()}"), err=not output)
    if outcome is not None:
        click.echo(terminal_line(f"result: {outcome.text}"), err=not output)


COMMANDS = (referee,)
