"""Signing and sending a game's entries: `pbem move`, `ack`, `apply`, `outbox`, `orders`.

A command that writes a move file with -o refuses, before it signs anything, to overwrite
a file holding entries the other side may not have yet (`refuse_overwrite`, by
pbem.client.Client.unreceived), unless --force.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, cast

import click

from pbem import escape
from pbem.cli.common import (
    client_of,
    data_files,
    data_spec,
    fail,
    read_input,
    say,
    write_entries,
    write_file,
)
from pbem.cli.options import (
    APPLY_ONLY_HELP,
    MOVE_FILE_HELP,
    data_option,
    game_argument,
    json_option,
    no_auto_option,
    note_option,
    output_options,
    role_option,
)

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator
    from pbem.core.log import Entry
    from pbem.signing import Applied

SIGNED_JSON_HELP = (
    "Print one JSON document on stdout (docs/json.md): the entries signed, the "
    "automatic ones with their reason, the move file (its text without -o), what comes next."
)


@click.command()
@game_argument()
@click.argument("decision", nargs=-1, required=True)
@role_option("The role to move as (default: the one asked).")
@output_options(
    "Write the move file here instead of stdout. It carries every entry of yours the "
    "other side has not answered yet, the automatic ones too. A file holding other entries "
    "the other side may not have yet is not overwritten: pbem refuses, and signs nothing, "
    "unless --force.",
    "Overwrite the -o file even if it holds unanswered entries.",
)
@no_auto_option(
    "Sign only this decision: no automatic answers after it (dice acknowledgements, "
    "only choices, standing orders)."
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Check the decision exactly as a move would and print what would be signed; "
    "sign, store and write nothing (exit 1 if it is illegal).",
)
@note_option("A signed note to your opponent, sent with the move (500 chars).")
@json_option(SIGNED_JSON_HELP)
@click.pass_context
def move(
    ctx: click.Context,
    game: str,
    decision: tuple[str, ...],
    role: str | None,
    output: str | None,
    force: bool,
    no_auto: bool,
    dry_run: bool,
    note: str | None = None,
    as_json: bool = False,
) -> None:
    """Make a decision in GAME: its text syntax, or the number of a listed choice.

    Type the decision as plain words, unquoted: `pbem move GAME move 28 to 29 with
    su-3bf`. Quote a decision that holds characters your shell treats specially (`->`,
    `;`, `#`, `!`, `*`, `(`...), as games begun under earlier rules versions still list
    them: `pbem move GAME 'move 28 -> 29: su-3bf'`.

    Says what was signed (with your own sealed values, which only you see) and whether
    it is still your turn."""
    client = client_of(ctx)
    text = " ".join(decision)
    if dry_run:
        plan = client.dry_run_move(game, text, role)
        say(escape.terminal_line(f"would sign {plan.line}{_after_move(plan.game, plan.role)}"))
        say("nothing signed, stored or written (--dry-run)")
        return
    plan = client.plan_move(game, text, role, note=note)
    if output and not force:
        refuse_overwrite(client, game, Path(output), plan.role)  # before signing
    entry = client.sign_move(plan)
    answered = [] if no_auto else client.answer_automatically(game)
    batch = client.unsent(game, since=entry.seq)
    if as_json:
        _signed_json(client, game, entry, answered, plan.private, batch, output)
        return
    write_entries(batch, output)
    err = not output  # stdout holds the move file without -o
    after = _after_move(client.game(game), plan.role)
    if not answered:
        say(escape.terminal_line(f"signed {plan.line}{after}"), err=err)
        return
    say(escape.terminal_line(f"signed {plan.line}"), err=err)
    say_answers(answered, err)
    if after:
        say(escape.terminal_line(f"then{after[1:]}"), err=err)


def _signed_json(
    client: Client,
    game: str,
    entry: Entry,
    answered: list[tuple[Entry, str]],
    private: str | None,
    batch: list[Entry],
    output: str | None,
) -> None:
    """`move --json`, `ack --json`: the move file (if -o), then the document on stdout."""
    from pbem.render.jsonout import dumps, move_document
    from pbem.transport.savefile import move_file

    if output and batch:
        write_file(Path(output), move_file(batch))
    signed: list[tuple[Entry, str | None]] = [(entry, None), *answered]
    document = move_document(client, client.game(game), signed, private, batch, output)
    click.echo(dumps(document))


def _after_move(game: Adjudicator, role: str) -> str:
    """What the game asks after a move of `role` (`game` holds the move)."""
    if game.outcome() is not None:
        return "; the game is over"
    if game.waiting_for_entropy and game.head.by == role:
        return "; it waits for dice, rolled by the next entry of another role"
    if game.asked(role):
        return "; still your turn"
    return ""


def say_answers(answered: list[tuple[Entry, str]], err: bool) -> None:
    """One line per entry signed without asking (pbem.answers)."""
    from pbem.play import answered_lines

    for line in answered_lines(answered):
        say(escape.terminal_line(line), err=err)


def refuse_overwrite(client: Client, prefix: str, path: Path, signer: str | None = None) -> None:
    """Fail if the -o file `path` holds entries of this game that the other side may not
    have and that the new move file will not carry (pbem.client.Client.unreceived),
    counting the entry `signer` is about to sign. A file that is not one, or holds no
    entries, may be overwritten."""
    from pbem.errors import PbemError
    from pbem.verify import parse_entries

    if not path.is_file():
        return
    try:
        found = parse_entries(path.read_bytes())
    except (OSError, PbemError):
        return
    unseen = client.unreceived(prefix, found, signer)
    if unseen:
        what = ", ".join(e.describe() for e in unseen)
        fail(
            f"{path} holds {what}, which the other side may not have yet: "
            "send it first, or use another -o file (--force overwrites it)"
        )


@click.command()
@game_argument()
@role_option("The role to acknowledge as.")
@output_options(
    "Write the move file here instead of stdout (every entry of yours not yet "
    "answered; refused over a file holding entries the other side may not have yet)."
)
@no_auto_option("No automatic answers after the acknowledgement.")
@json_option(SIGNED_JSON_HELP)
@click.pass_context
def ack(
    ctx: click.Context,
    game: str,
    role: str | None,
    output: str | None,
    force: bool,
    no_auto: bool,
    as_json: bool,
) -> None:
    """Acknowledge: an empty entry whose reveal rolls the dice that wait for you."""
    client = client_of(ctx)
    if output and not force:
        adjudicator = client.game(game)
        refuse_overwrite(client, game, Path(output), client.acting_role(adjudicator, role))
    entry = client.ack(game, role)
    answered = [] if no_auto else client.answer_automatically(game)
    batch = client.unsent(game, since=entry.seq)
    if as_json:
        _signed_json(client, game, entry, answered, None, batch, output)
        return
    write_entries(batch, output)
    say(escape.terminal_line(f"signed {entry.describe()}"), err=not output)
    say_answers(answered, not output)


@click.command()
@click.argument("source", default="-")
@data_option()
@output_options(
    "Write the entries to send back here: your automatic answers and every other "
    "entry of yours not yet answered (refused over a file holding entries the other side "
    "may not have yet, unless --force)."
)
@no_auto_option(APPLY_ONLY_HELP)
@json_option(
    "Print one JSON document on stdout (docs/json.md): each entry and what became of "
    "it, and per game the automatic answers, what to send back and what comes next."
)
@click.pass_context
def apply(
    ctx: click.Context,
    source: str,
    data: tuple[str, ...],
    output: str | None,
    force: bool,
    no_auto: bool,
    as_json: bool,
) -> None:
    """Apply the entries in SOURCE (a move file, a raw email, a save, or - for stdin),
    then answer for your roles whatever needs no person (unless --no-auto)."""
    streamed = None if as_json else _apply_streamed(ctx, source, data, output, force, no_auto)
    if streamed is True:
        return
    from pbem.verify import parse_entries

    entries = parse_entries(streamed if isinstance(streamed, bytes) else read_input(source))
    if not entries:
        fail(f"no PBEM entries found in {source}")
    client = client_of(ctx)
    games: list[str] = []
    results = client.apply_entries(entries, data_files(data))
    for result in results:
        if not as_json:
            say(f"{result.status}: {escape.terminal_line(result.entry.describe())}")
        entry = result.entry
        game_id = entry.id if entry.seq == 0 else str(entry.game)
        if game_id not in games:
            games.append(game_id)
    done = []
    for game_id in games:
        if output and not force:
            refuse_overwrite(client, game_id, Path(output))
        since = len(client.game(game_id).entries)
        answered = [] if no_auto else client.answer_automatically(game_id)
        game = client.game(game_id)
        waiting = client.unsent(game_id, since=since) if game.started else []
        done.append((game, answered, waiting))
        if as_json:
            if output and waiting and len(games) == 1:
                from pbem.transport.savefile import move_file

                write_file(Path(output), move_file(waiting))
            continue
        _after_apply(client, game_id, answered, waiting, output if len(games) == 1 else None)
    if as_json:
        from pbem.render.jsonout import apply_document, dumps

        applied = [(result.status, result.entry) for result in results]
        click.echo(dumps(apply_document(client, applied, done, output)))


def _after_apply(
    client: Client,
    game_id: str,
    answered: list[tuple[Entry, str]],
    waiting: list[Entry],
    output: str | None,
) -> None:
    """What `apply` says of one game once its entries are in: the automatic answers, and
    where they go (`output`: the -o file, when the source held one game)."""
    say_answers(answered, err=False)
    if output and waiting:
        write_entries(waiting, output)
    elif answered:
        count = f"{len(waiting)} entr{'y' if len(waiting) == 1 else 'ies'}"
        say(
            f"{count} of yours to send: `pbem outbox {game_id[:12]} -o FILE` "
            f"or `pbem mail send {game_id[:12]}`"
        )
    if answered:
        from pbem.play import whose_turn

        say(escape.terminal_line(whose_turn(client, game_id)))


def _apply_streamed(
    ctx: click.Context,
    source: str,
    data: tuple[str, ...],
    output: str | None,
    force: bool,
    no_auto: bool,
) -> bool | bytes | None:
    """`apply` of a file in the plain layout pbem writes (a save, a move file) holding one
    game's entries in log order, read and applied one entry at a time
    (pbem.transport.movefile.plain_entries, Client.apply_stream): memory does not grow
    with the log. Says what `apply` says and returns True. For any other file and for
    every refusal it says and stores nothing, and returns what stdin held (read once) or
    None: then `apply` reads the whole file and says what is wrong with it, in its own
    words."""
    import tempfile

    from pbem.core.log import Entry
    from pbem.signing import NotStreamed
    from pbem.transport.movefile import plain_entries

    extra = _quiet_data_files(data)
    if extra is None or source == "":
        return None  # (the in-memory path says why, after what it says of the file first)
    try:
        stream = _open_source(source)
    except OSError:
        return None
    # The status lines wait on disk until the transaction commits: a refusal says nothing
    # of entries that were never stored, and a long log's lines are not kept in memory.
    with stream, tempfile.SpooledTemporaryFile(1 << 20, "w+", encoding="utf-8") as lines:

        def told(result: Applied) -> None:
            lines.write(f"{result.status}: {escape.terminal_line(result.entry.describe())}\n")

        entries = (Entry.from_wire(canonical, sig) for canonical, sig in plain_entries(stream))
        client = client_of(ctx)
        try:
            game = client.apply_stream(entries, extra, told)
        except NotStreamed:
            stream.seek(0)  # (stdin is read once: the in-memory path reads its copy)
            return stream.read() if source == "-" else None
        lines.seek(0)
        for line in lines:
            say(line[:-1])
    game_id = game.id
    if output and not force:
        refuse_overwrite(client, game_id, Path(output))
    since = game.entry_count
    answered = [] if no_auto else client.answer_automatically(game_id)
    # (a game that answers was started: only the applied game is asked otherwise)
    started = bool(answered) or game.started
    waiting = client.unsent(game_id, since=since) if started else []
    _after_apply(client, game_id, answered, waiting, output)
    return True


def _open_source(source: str) -> BinaryIO:
    """SOURCE opened for reading as bytes; stdin (-) copied to a file first, so that the
    in-memory path can read it again."""
    if source != "-":
        return open(source, "rb")  # (the caller closes it)
    import shutil
    import tempfile

    copy = tempfile.SpooledTemporaryFile(1 << 20)  # noqa: SIM115 (the caller closes it)
    shutil.copyfileobj(sys.stdin.buffer, copy)
    copy.seek(0)
    return cast(BinaryIO, copy)


def _quiet_data_files(specs: tuple[str, ...]) -> dict[str, bytes] | None:
    """`--data` files as `data_files` reads them; None where it would fail (saying so)."""
    from pbem.errors import PbemError

    if not specs:
        return {}
    from pbem.games.datacheck import read_data_file

    files = {}
    for spec in specs:
        name, path = data_spec(spec)
        try:
            files[name] = read_data_file(path)
        except (OSError, PbemError):
            return None
    return files


@click.command()
@game_argument()
@output_options(MOVE_FILE_HELP)
@click.pass_context
def outbox(ctx: click.Context, game: str, output: str | None, force: bool) -> None:
    """Write a move file of every entry of yours in GAME that the other side has not
    answered yet (sending one twice is harmless: `apply` says "already had")."""
    client = client_of(ctx)
    waiting = client.unsent(game)
    if not waiting:
        fail("nothing to send: the other side has answered every entry of yours")
    if output and not force:
        refuse_overwrite(client, game, Path(output))
    write_entries(waiting, output)


@click.command()
@game_argument()
@click.argument("action", required=False, type=click.Choice(["set", "clear"]))
@click.argument("words", nargs=-1)
@role_option("Whose orders (default: your one role in the game).")
@click.pass_context
def orders(
    ctx: click.Context, game: str, action: str | None, words: tuple[str, ...], role: str | None
) -> None:
    """List, set or clear your standing orders in GAME.

    \b
    pbem orders GAME                      what the game accepts, and yours
    pbem orders GAME set NAME ARGUMENT    e.g. `pbem orders G set support best min 2`
    pbem orders GAME clear [NAME]         forget one order, or all of yours

    Your client then answers those questions for you, signed like a typed move, when an
    order fits; when none does, you are asked. Orders stay in your store: the other side
    sees only the entries they make."""
    client = client_of(ctx)
    if action == "set":
        if len(words) < 2:
            fail("say which order and what it says: `pbem orders GAME set NAME ARGUMENT`")
        normal = client.set_order(game, words[0], " ".join(words[1:]), role)
        say(f"standing order {words[0]}: {normal}")
        return
    if action == "clear":
        if len(words) > 1:
            fail("clear takes one order name, or none for all")
        count = client.clear_orders(game, words[0] if words else None, role)
        say(f"cleared {count} standing order{'s' if count != 1 else ''}")
        return
    if words:
        fail(f"unexpected {' '.join(words)!r}: use `set NAME ARGUMENT` or `clear [NAME]`")
    adjudicator = client.game(game)
    who, current = client.orders(game, role)
    table = adjudicator.engine.standing_orders()
    if not table:
        say(f"{adjudicator.engine.title} takes no standing orders")
        return
    say(f"standing orders of {who} (`pbem orders {adjudicator.id[:12]} set NAME ARGUMENT`):")
    for name, order in sorted(table.items()):
        setting = current.get(name)
        say(f"{name}: {setting if setting else '(not set: you are asked)'}")
        say(f"    answers {order.question}")
        for form in order.forms:
            say(f"    {name} {form.words}: {form.meaning}")


COMMANDS = (move, ack, apply, outbox, orders)
