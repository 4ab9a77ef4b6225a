"""A game's life outside its moves: `pbem rules`, `new`, `join`, `show`, `export`, `recover`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from pbem import escape
from pbem.cli.common import client_of, data_files, emit, fail, say, write_entries, write_file
from pbem.cli.options import (
    data_option,
    game_argument,
    json_option,
    output_option,
    role_option,
)

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator
    from pbem.core.canonical import JSON
    from pbem.core.log import Entry


@click.command()
def rules() -> None:
    """List the games pbem can adjudicate."""
    import pbem.games  # noqa: F401
    from pbem.core.engine import get_engine, registered

    for name in registered():
        engine = get_engine(name)
        click.echo(f"{name}\t{engine.title} (v{engine.version}; roles: {', '.join(engine.roles)})")


@click.command()
@click.argument("rules_name", metavar="RULES")
@click.option(
    "--key",
    "keys",
    multiple=True,
    required=True,
    metavar="ROLE=KEYNAME",
    help="Which key plays which role (repeat for each role).",
)
@click.option("--as", "creator", help="The role you play (default: the first you hold).")
@click.option("--title", default="", help="A title for the game.")
@data_option("Use your own data file instead of the shipped one.")
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A game option (optional rules: true or false; numbers as numbers), signed "
    "into the genesis: e.g. --option curse=true (docs/<game>.md lists them).",
)
@output_option("Write the move file here (else: to stderr).")
@json_option(
    "Print one JSON document (docs/json.md) on stdout: the game, its roles, the "
    "entries signed and the move file."
)
@click.pass_context
def new(
    ctx: click.Context,
    rules_name: str,
    keys: tuple[str, ...],
    creator: str | None,
    title: str,
    data: tuple[str, ...],
    options: tuple[str, ...],
    output: str | None,
    as_json: bool,
) -> None:
    """Start a game of RULES: sign its genesis and join your roles. Prints the game id
    alone on stdout (`G=$(pbem new ...)`); everything else goes to stderr."""
    client = client_of(ctx)
    roles = {}
    for spec in keys:
        role, sep, name = spec.partition("=")
        if not sep:
            fail(f"--key {spec!r}: expected ROLE=KEYNAME")
        roles[role] = name
    if creator is None:
        owned = [r for r, n in roles.items() if client.key_row(n)["private_path"]]
        if not owned:
            fail("you hold the private key of none of these roles")
        creator = owned[0]
    game_id, entries = client.new_game(
        rules_name, creator, roles, title, data_files(data), _options(options)
    )
    if as_json:
        _new_json(game_id, roles, creator, entries, output)
        return
    # Standard output holds the game id alone (`G=$(pbem new ...)`); the rest, the move
    # file too unless -o names a file for it, goes to standard error.
    click.echo(f"game {game_id}", err=True)
    from pbem.transport.savefile import move_file

    if output:
        write_file(Path(output), move_file(entries))
        count = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"
        say(f"wrote {count} to {output}", err=True)
    else:
        say(move_file(entries), err=True, nl=False)
    click.echo(game_id)


def _new_json(
    game_id: str,
    roles: dict[str, str],
    creator: str,
    entries: list[Entry],
    output: str | None,
) -> None:
    """`pbem new --json`: the document alone on stdout; the move file goes to -o, else
    into the document (its `move_text`)."""
    from pbem.render.jsonout import dumps, new_document
    from pbem.transport.savefile import move_file

    if output:
        write_file(Path(output), move_file(entries))
    click.echo(dumps(new_document(game_id, roles, creator, entries, output)))


def _options(specs: tuple[str, ...]) -> dict[str, JSON]:
    """--option NAME=VALUE: true/false as booleans, whole numbers as numbers, else text."""
    found: dict[str, JSON] = {}
    for spec in specs:
        name, sep, text = spec.partition("=")
        if not sep or not name:
            fail(f"--option {spec!r}: expected NAME=VALUE")
        value: JSON = text
        if text in ("true", "false"):
            value = text == "true"
        elif text.isascii() and text.isdigit() and len(text) < 10:
            value = int(text)
        found[name] = value
    return found


@click.command()
@game_argument()
@output_option()
@click.pass_context
def join(ctx: click.Context, game: str, output: str | None) -> None:
    """Join GAME with every role whose key you hold (accepting its invitation first, if
    `pbem mail fetch` is holding one)."""
    client = client_of(ctx)
    if not any(row["id"].startswith(game.strip().lower()) for row in client.game_rows()):
        from pbem.inbox import Inbox

        inbox = Inbox(client)
        if inbox.find_invitation(game) is not None:
            say(escape.terminal_line(inbox.accept(game)), err=True)
    write_entries(client.join(game), output)


@click.command()
@game_argument(required=False)
@role_option("Show the game as this role sees it.")
@click.option("--history", is_flag=True, help="Also print everything that happened this turn.")
@click.option(
    "--open",
    "open_page",
    is_flag=True,
    help="Write the role's HTML turn page under the store's home and open it in a browser.",
)
@json_option(
    "Print one JSON document (docs/json.md) on stdout: the game as the role sees it, "
    "or (no GAME) every stored game."
)
@click.pass_context
def show(
    ctx: click.Context,
    game: str | None,
    role: str | None,
    history: bool,
    open_page: bool,
    as_json: bool,
) -> None:
    """Show a game: the board, whose turn, what is asked with the choices, the last
    result (no GAME: list the games)."""
    client = client_of(ctx)
    if game is None and open_page:
        fail("--open needs a GAME")
    if as_json and (open_page or history):
        fail("--json cannot be combined with --open or --history")
    if as_json:
        from pbem.render.jsonout import dumps, games_document, show_document

        if game is None:
            click.echo(dumps(games_document(client)))
        else:
            click.echo(dumps(show_document(client, client.game(game), role)))
        return
    if game is None:
        from pbem.render.show import game_list_lines

        listed = game_list_lines(client)
        for line in listed:
            say(line)
        if not listed:
            say(escape.terminal_line(f"no games in the store at {client.home.resolve()}"))
        from pbem.inbox import Inbox

        for line in Inbox(client).invitation_lines():  # held by `pbem mail fetch`
            say(escape.terminal_line(line))
        return
    if open_page:
        _open_page(client, client.game(game), role)
        return
    from pbem.render.show_memo import shown

    say(shown(client, game, role, history))  # (kept for pbem.cli's fast path)


def _open_page(client: Client, game: Adjudicator, role: str | None) -> None:
    """The role's turn page in a private file under the store's home, opened in the
    system browser; without a browser, the path to open (never a failure)."""
    import webbrowser

    from pbem.render.page import render_page
    from pbem.render.show import asked_of

    mine = client.my_roles(game)
    viewer = role or (mine[0] if mine else None)
    known = client.known(game.id, viewer) if viewer in mine else None
    html = render_page(game, viewer, known=known, asked=asked_of(client, game, viewer))
    folder = client.home / "pages"
    folder.mkdir(mode=0o700, exist_ok=True)
    path = folder / f"{game.id[:12]}-{viewer or 'public'}.html"
    write_file(path, html, private=True)  # it may show the role's hand: owner-only
    try:
        opened = webbrowser.open(path.resolve().as_uri())
    except webbrowser.Error:
        opened = False
    say(f"wrote {path}" + ("" if opened else " (no browser found: open it yourself)"))


@click.command()
@game_argument()
@output_option("Write the save file here instead of stdout.")
@click.option(
    "--since",
    type=int,
    metavar="SEQ",
    help="Write a move file of the entries from SEQ on instead (to send them again).",
)
@click.pass_context
def export(ctx: click.Context, game: str, output: str | None, since: int | None) -> None:
    """Write GAME as a save file: header, every entry, the RNG log."""
    client = client_of(ctx)
    if since is not None:
        entries = client.game(game).entries[since:]
        if not entries:
            fail(f"the log has no entry {since}")
        write_entries(entries, output)
        return
    text = client.export(game)
    emit(text, output)


@click.command()
@game_argument()
@output_option("Write GAME's entries from the journal here (a move file) instead of applying them.")
@click.pass_context
def recover(ctx: click.Context, game: str, output: str | None) -> None:
    """Apply to the store GAME's entries that your keys signed, read from their signing
    journals (after a restored backup or a crash lost them), or write them to a file.
    Only GAME's entries: the journal's other games never leave it."""
    client = client_of(ctx)
    game_id, entries = client.journal_entries(game)
    if not entries:
        fail(f"the signing journals of this store's keys hold no entry of game {game_id[:12]}")
    if output:
        write_entries(entries, output)
        return
    for result in client.apply_entries(entries):
        say(f"{result.status}: {escape.terminal_line(result.entry.describe())}")


COMMANDS = (rules, new, join, show, export, recover)
