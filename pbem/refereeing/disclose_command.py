"""`pbem referee disclose GAME`: what a double-blind game's referee owes, signed by hand.

The unattended referee (`pbem referee run`) signs these the moment they are owed; a
referee who plays by hand signs them here (pbem.client.Client.blind_duties).
"""

from __future__ import annotations

import click

from pbem.completion import complete_game

ROUNDS = 4  # a void, then nothing; or a disclose; or an answer: one is enough, a few at most


@click.command("disclose")
@click.argument("game", shell_complete=complete_game)
@click.option("-o", "--output", help="Write the move file here instead of stdout.")
@click.pass_context
def disclose(ctx: click.Context, game: str, output: str | None) -> None:
    """Sign what the referee of a double-blind GAME owes now: once the game is over, the
    disclose of every value still sealed, whatever it shows (a claim it shows false ends
    the game against the liar, in the log); before that, a void of a false escrow not
    attested yet; and the answer to a player who says a deal does not open (the deal's
    own key). Writes them as a move file to send to the players."""
    from pbem.cli.app import _client, _write_entries
    from pbem.errors import PbemError
    from pbem.render.escape import terminal_line

    client = _client(ctx)
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
    _write_entries(signed, output)
    outcome = client.game(game).outcome()
    for entry in signed:
        click.echo(terminal_line(f"signed {entry.describe()}"), err=not output)
    if outcome is not None:
        click.echo(terminal_line(f"result: {outcome.text}"), err=not output)
