"""What every game allows besides its moves (pbem.core.meta): `pbem resign`,
`offer-draw`, `accept-draw`, `takeback` and `unseal`, each signed as an entry of its own
and written like a move."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem import escape
from pbem.cli.common import client_of, fail, say, write_entries
from pbem.cli.options import game_argument, meta_options, output_option, role_option

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.core.log import Entry


def _meta_command(
    ctx: click.Context, game: str, role: str | None, note: str | None, output: str | None, do: str
) -> None:
    """Sign a resignation, a draw offer or its acceptance; write the entry like a move."""
    client = client_of(ctx)
    entry = getattr(client, do)(game, role, note)
    _write_meta(client, game, entry, output)


def _write_meta(client: Client, game: str, entry: Entry, output: str | None) -> None:
    """Write a meta entry's move file (with every entry of ours not yet answered) and
    say what it did."""
    from pbem.transport.savefile import human_line

    write_entries(client.unsent(game, since=entry.seq), output)
    played = client.game(game)
    outcome = played.outcome()
    after = f"; {outcome.text}" if outcome is not None else ""
    if played.meta.takeback is None and "takeback" in entry.body and outcome is None:
        after = f"; {played.next_signer()} signs next"
    what = human_line(entry).split(": ", 1)[-1]
    line = f"signed entry {entry.seq} by {entry.by}: {what}{after}"
    say(escape.terminal_line(line), err=not output)


@click.command()
@game_argument()
@meta_options("The side that resigns (default: yours that signs next).")
@click.pass_context
def resign(
    ctx: click.Context, game: str, role: str | None, note: str | None, output: str | None
) -> None:
    """Resign GAME: the game ends and the other side wins. Only when you sign next."""
    _meta_command(ctx, game, role, note, output, "resign")


@click.command()
@game_argument()
@click.argument("seq", type=int)
@role_option("The side whose message it is (default: the one it concerns).")
@output_option()
@click.pass_context
def unseal(ctx: click.Context, game: str, seq: int, role: str | None, output: str | None) -> None:
    """Double-blind games: publish the key of the sealed message in entry SEQ, for anyone
    to open that one message (docs/referee.md). Either the referee's latest deal to you,
    when it does not open with your key or does not match its commitments (while you are
    asked): the log then proves the referee's false deal, or the game stops on your word
    until the referee answers with its own key. Or your own escrow, after the referee
    voided it saying it does not open: your key shows whether it was true."""
    client = client_of(ctx)
    entry = client.unseal(game, seq, role)
    _write_meta(client, game, entry, output)


@click.command("offer-draw")
@game_argument()
@meta_options("The side that offers (default: yours that signs next).")
@click.pass_context
def offer_draw(
    ctx: click.Context, game: str, role: str | None, note: str | None, output: str | None
) -> None:
    """Offer a draw in GAME, as an entry of its own when you sign next (then make your
    move as usual). The other side's next entry accepts it (`pbem accept-draw`) or, by
    being anything else, declines it."""
    _meta_command(ctx, game, role, note, output, "offer_draw")


@click.command("accept-draw")
@game_argument()
@meta_options("The side that accepts (default: yours that signs next).")
@click.pass_context
def accept_draw(
    ctx: click.Context, game: str, role: str | None, note: str | None, output: str | None
) -> None:
    """Accept the draw the other side offered in GAME: the game ends drawn."""
    _meta_command(ctx, game, role, note, output, "accept_draw")


@click.command()
@game_argument()
@click.argument("what", metavar="ENTRY|accept|decline")
@meta_options("Your side (default: yours that signs next).")
@click.pass_context
def takeback(
    ctx: click.Context,
    game: str,
    what: str,
    role: str | None,
    note: str | None,
    output: str | None,
) -> None:
    """Take back entries by agreement, as a signed pair.

    \b
    pbem takeback GAME 41        propose taking back entries 41 on
    pbem takeback GAME accept    (the other side) agree: the game returns to before 41
    pbem takeback GAME decline   (the other side) keep them

    Only when you sign next, and only the latest entries (yours and the other side's)
    that rolled no dice and sealed, opened or drew nothing: what is undone then changes
    nothing but the board. Every entry stays in the log."""
    client = client_of(ctx)
    if what in ("accept", "decline"):
        entry = client.answer_takeback(game, what == "accept", role, note)
    elif what.isdigit():
        entry = client.propose_takeback(game, int(what), role, note)
    else:
        fail(f"{what!r}: give the first entry to take back, or accept, or decline")
    _write_meta(client, game, entry, output)


COMMANDS = (resign, offer_draw, accept_draw, takeback, unseal)
