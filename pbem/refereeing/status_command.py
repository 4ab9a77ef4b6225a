"""`pbem referee status [GAME]`: the refereed games, whom each waits for and its deadline."""

from __future__ import annotations

import click

from pbem.completion import complete_game


@click.command("status")
@click.argument("game", required=False, shell_complete=complete_game)
@click.pass_context
def status(ctx: click.Context, game: str | None) -> None:
    """Per game this store referees (or GAME only): whom it waits for, since when by the
    referee's clock, the deadline, the reminders sent, and each player's mail."""
    from pbem.cli.app import _client
    from pbem.errors import PbemError
    from pbem.refereeing.settle import refereed_games
    from pbem.refereeing.status import status_lines
    from pbem.render.escape import terminal_line

    client = _client(ctx)
    games = refereed_games(client)
    if game is not None:
        wanted = client.store.find_game(game)
        if wanted not in games:
            raise PbemError(f"game {wanted[:12]} is not refereed by a key of this store")
        games = [wanted]
    if not games:
        click.echo("this store referees no game")
    for game_id in games:
        for line in status_lines(client, game_id):
            click.echo(terminal_line(line))
