"""`pbem referee player GAME ROLE ADDRESS`: where a refereed game's player gets its mail."""

from __future__ import annotations

import click

from pbem.completion import complete_game


@click.command("player")
@click.argument("game", shell_complete=complete_game)
@click.argument("role")
@click.argument("address")
@click.pass_context
def player(ctx: click.Context, game: str, role: str, address: str) -> None:
    """Remember that ROLE of GAME (a game this store referees) gets its mail at ADDRESS:
    `pbem referee run` mails it every entry it has not been sent, with its turn page."""
    from pbem.cli.app import _client
    from pbem.core.referee import REFEREE
    from pbem.errors import PbemError
    from pbem.refereeing.settle import genesis_of, refereed_by_us
    from pbem.render.escape import terminal_line

    client = _client(ctx)
    game_id = client.store.find_game(game)
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
    with client.store.transaction():
        client.store.set_player_address(game_id, role, address)
    click.echo(terminal_line(f"game {game_id[:12]}: {role} gets its mail at {address}"))
