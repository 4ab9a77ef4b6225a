"""What a game looks like, from a stored game or a save file: `pbem render` (a summary, a
forum post, the map, the turn page) and `pbem cards`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem.cli.common import client_of, emit, fail, load_any, read_input, say, write_file
from pbem.cli.options import game_or_file_argument, output_option, role_option

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator


@click.command()
@game_or_file_argument()
@role_option("Whose view (default: your role; for markdown/bbcode posts: 'public').")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "bbcode", "svg", "html", "png"]),
    default="text",
    help="text: a summary; markdown/bbcode: a forum post with the entries to apply; "
    "svg: the map; html: the one-file turn page; png: the map drawn by a headless Chromium.",
)
@click.option(
    "--layout",
    type=click.Path(dir_okay=False),
    help="A layout file (TOML) to draw the map with, in place of the shipped one.",
)
@click.option(
    "--since",
    type=int,
    metavar="SEQ",
    help="A post carries the entries from SEQ on (default: the last move).",
)
@output_option("Write the summary here instead of stdout.")
@click.pass_context
def render(
    ctx: click.Context,
    game: str,
    role: str | None,
    fmt: str,
    since: int | None,
    layout: str | None,
    output: str | None,
) -> None:
    """Render a turn summary of GAME for one role, a forum post, its map or its turn page,
    from a stored game or a save file."""
    from pbem.render.post import POST_FORMATS, last_move, render_post
    from pbem.render.summary import render_summary

    client = None if Path(game).exists() else client_of(ctx)
    adjudicator = load_any(ctx, game, ())
    if fmt in POST_FORMATS:
        # Everyone reads a forum: the public view unless a role is named, and never the
        # store's sealed values.
        entries = adjudicator.entries[since:] if since is not None else last_move(adjudicator)
        if since is not None and not entries:
            fail(f"the log has no entry {since}")
        viewer = None if role in (None, "public") else role
        emit(render_post(adjudicator, viewer, fmt, entries), output)
        return
    role, known = _own_view(client, adjudicator, role)
    viewer = None if role in (None, "public") else role
    if fmt in ("svg", "html", "png"):
        _render_picture(client, adjudicator, viewer, fmt, known, layout, output)
        return
    if layout is not None:
        fail("--layout is for --format svg, html or png")
    text = render_summary(adjudicator, viewer, fmt, known)
    # A view of one of our own roles may show its hand and sealed values: owner-only.
    emit(text, output, private=known is not None)


def _own_view(
    client: Client | None, game: Adjudicator, role: str | None
) -> tuple[str | None, dict[str, Any] | None]:
    """Whose view to show (`--role`, else this store's first role in a stored game) and,
    for a role of this store, its sealed values (cards too) from its own store; none from
    a file, which holds nobody's secrets."""
    known = None
    if client is not None:
        mine = client.my_roles(game)
        if role is None and mine:
            role = mine[0]
        if role in mine:  # our own sealed values, from our own store
            known = client.known(game.id, str(role))
    return role, known


def _render_picture(
    client: Client | None,
    game: Adjudicator,
    role: str | None,
    fmt: str,
    known: dict[str, Any] | None,
    layout: str | None,
    output: str | None,
) -> None:
    """`render --format svg|html|png`: the map, or the turn page, of `role`'s view."""
    from pbem.render.page import render_page, render_svg

    if fmt == "png" and not output:
        fail("--format png writes a file: give -o FILE")
    shape = read_input(layout) if layout is not None else None
    private = bool(known)  # our own role's view may show its hand: owner-only
    if fmt == "html":
        asked = None
        if client is not None and role is not None:
            from pbem.render.show import asked_of

            asked = asked_of(client, game, role)
        html = render_page(game, role, known=known, asked=asked, layout=shape)
        emit(html, output, private=private)
        return
    svg = render_svg(game, role, known=known, layout=shape)
    if fmt == "svg":
        emit(svg, output, private=private)
        return
    from pbem.render.png import svg_to_png

    write_file(Path(str(output)), svg_to_png(svg), private)
    say(f"wrote {output}")


@click.command()
@game_or_file_argument()
@role_option("Whose view (default: your role; 'public' for nobody's hand).")
@click.pass_context
def cards(ctx: click.Context, game: str, role: str | None) -> None:
    """List the cards of GAME's decks with their texts, from a stored game or a save: the
    ones your role holds (from your own store only) and the ones played are marked."""
    from pbem.render.cards import cards_text

    client = None if Path(game).exists() else client_of(ctx)
    adjudicator = load_any(ctx, game, ())
    role, known = _own_view(client, adjudicator, role)
    say(cards_text(adjudicator, None if role in (None, "public") else role, known), nl=False)


COMMANDS = (render, cards)
