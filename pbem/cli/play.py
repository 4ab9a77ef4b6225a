"""Playing whole games: `pbem demo` (bots against each other) and `pbem play` (a person at
the terminal, the other side by mail or by move files)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli.common import client_of, say
from pbem.cli.options import config_option, game_argument, interval_option


@click.command()
@click.argument("rules_name", metavar="RULES")
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False),
    default="pbem-demo",
    help="Where to put the two stores, the move files, the save and the summary.",
)
@click.option("--seed", default=1, show_default=True, help="Seed for the bot's choices.")
@click.option(
    "--referee", is_flag=True, help="Add a referee's store: it rolls every player's dice."
)
@click.option(
    "--double-blind",
    is_flag=True,
    help="A referee holds every sealed value and discloses them all at the end.",
)
def demo(rules_name: str, directory: str, seed: int, referee: bool, double_blind: bool) -> None:
    """Play a whole game of RULES between bots through the real signed pipeline."""
    from pbem.demo import run_demo

    result = run_demo(
        rules_name,
        Path(directory),
        seed,
        echo=click.echo,
        referee=referee,
        double_blind=double_blind,
    )
    click.echo(f"save:    {result.save}")
    click.echo(f"summary: {result.summary}")
    click.echo(f"moves:   {result.moves} ({result.count} move files)")
    click.echo(f"result:  {result.outcome}")


@click.command()
@game_argument()
@config_option()
@interval_option(60, "Seconds between two looks at the mailbox while the other side decides.")
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False),
    default=".",
    show_default=True,
    help="Where move files go when there is no mail configuration.",
)
@click.pass_context
def play(
    ctx: click.Context, game: str, config_path: str | None, interval: float, folder: str
) -> None:
    """Play GAME at the terminal until the game ends or you type q.

    Answers what needs no person (dice acknowledgements, only choices, your standing
    orders), shows the board and what is asked, and takes your decision (its text, or
    the number of a choice). Then it sends what the other side has not got and waits:
    by mail when the store's mail configuration can send and read (it polls the
    mailbox), else it writes a move file to send by hand and asks for theirs."""
    import time

    from pbem.mail.mailer import Mailer
    from pbem.play import Player

    client = client_of(ctx)
    game_id = client.game(game).id
    player = Player(
        client,
        game_id,
        say=lambda line: say(line),
        ask=_ask_line,
        mailer=Mailer.configured(client, config_path),
        sleep=time.sleep,
        interval=interval,
        folder=Path(folder),
    )
    try:
        player.run()
    except KeyboardInterrupt:
        say("\nstopped: `pbem play` again to go on")


def _ask_line(prompt: str) -> str | None:
    """One line from the person, None at the end of input."""
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    return line.rstrip("\n") if line else None


COMMANDS = (demo, play)
