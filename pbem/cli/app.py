"""The `pbem` command line: thin over pbem.client; every failure is one line and exit 1.

The click application. `pbem.cli` is the entry point that runs it (and answers
`pbem --help` and `pbem verify FILE` without importing it). Imports stay lazy so that a
command starts fast: no jinja2, no sqlite-utils, no rules code until a command needs them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from pbem.completion import complete_game, complete_game_or_file
from pbem.mail.options import config_option
from pbem.render import escape
from pbem.reporting import print_report, report_error, verify_file

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator
    from pbem.core.canonical import JSON
    from pbem.core.log import Entry
    from pbem.verify import MailGame


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {escape.terminal_line(message)}", err=True)
    sys.exit(1)


def _say(text: str, err: bool = False, nl: bool = True) -> None:
    """Print text that may hold text from a game's log or from mail, escaped for a
    terminal (pbem.render.escape): nothing in it reaches the terminal as a control."""
    click.echo(escape.terminal(text), err=err, nl=nl)


def _passphrase(name: str) -> bytes | None:
    if os.environ.get("PBEM_PASSPHRASE") is not None:
        return os.environ["PBEM_PASSPHRASE"].encode()
    if not sys.stdin.isatty():
        return None
    return click.prompt(f"passphrase for key {name}", hide_input=True, default="").encode()


def _client(ctx: click.Context) -> Client:
    from pbem.client import Client
    from pbem.store import Store

    home = ctx.obj.get("home") if ctx.obj else None
    return Client(Store(Path(home) if home else None), _passphrase)


def _write_entries(entries: list[Entry], output: str | None) -> None:
    from pbem.transport.savefile import move_file

    count = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"
    _emit(move_file(entries), output, f"wrote {count} to {output}")


def _emit(text: str, output: str | None, note: str | None = None, private: bool = False) -> None:
    """Print `text` (escaped for the terminal), or write it to `output` and say so.

    `private`: the text shows a role's own view (its hand, its sealed values), so the
    file is created owner-only (0600) whatever the umask, and an existing file is made so.
    """
    if output:
        _write_file(Path(output), text, private)
        _say(note or f"wrote {output}")
    else:
        _say(text, nl=False)


def _write_file(path: Path, text: str | bytes, private: bool = False) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half of it.

    The text goes to a temporary file of its own beside `path` (two runs never share
    one), reaches the disk, and is renamed over `path` in one step. The file gets the
    mode a plain write would give it (the umask's), or keeps the mode it had; a private
    file is 0600 in both cases. A symlink is followed; a device or a pipe
    (`-o /dev/null`) is written into, never replaced.
    """
    import stat

    from pbem.files import write_atomically

    data = text.encode("utf-8") if isinstance(text, str) else text  # bytes: a PNG
    path = Path(os.path.realpath(path))  # through a symlink: write its target, keep the link
    try:
        status = path.stat()
    except FileNotFoundError:
        mask = os.umask(0o077)
        os.umask(mask)
        write_atomically(path, data, 0o600 if private else 0o666 & ~mask)
        return
    if not stat.S_ISREG(status.st_mode):
        # /dev/null, a pipe, a terminal: write into it; renaming over it would replace it
        with path.open("wb") as out:
            out.write(data)
        return
    write_atomically(path, data, 0o600 if private else status.st_mode & 0o7777)


def _read_input(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except OSError as exc:
        _fail(f"cannot read {source}: {exc.strerror}")


def _data_files(specs: tuple[str, ...]) -> dict[str, bytes]:
    """The user's own data files (`--data NAME=FILE`), each refused over the size cap
    before it is read (pbem.games.datacheck.read_data_file)."""
    files = {}
    for spec in specs:
        from pbem.games.datacheck import read_data_file  # imported only when a file is given

        name, sep, path = spec.partition("=")
        if not sep:
            path, name = spec, Path(spec).name
        try:
            files[name] = read_data_file(path)
        except OSError as exc:
            _fail(f"cannot read data file {path}: {exc.strerror}")
    return files


def _options(specs: tuple[str, ...]) -> dict[str, JSON]:
    """--option NAME=VALUE: true/false as booleans, whole numbers as numbers, else text."""
    found: dict[str, JSON] = {}
    for spec in specs:
        name, sep, text = spec.partition("=")
        if not sep or not name:
            _fail(f"--option {spec!r}: expected NAME=VALUE")
        value: JSON = text
        if text in ("true", "false"):
            value = text == "true"
        elif text.isascii() and text.isdigit() and len(text) < 10:
            value = int(text)
        found[name] = value
    return found


class PbemGroup(click.Group):
    """Every failure becomes one line on stderr and a non-zero exit.

    PbemError (anything the user's input caused), a store that cannot be read,
    and click's own usage errors all print `error: <one line>`.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as exc:
            report_error(exc, click.echo, _fail)  # PbemError, OSError: one line, exit 1
            # Only a command that opened the store can fail in sqlite3: not imported for
            # the others (`pbem verify` starts faster without it).
            sqlite3 = sys.modules.get("sqlite3")
            if sqlite3 is not None and isinstance(exc, sqlite3.DatabaseError):
                _fail(f"the local store cannot be used: {exc}")
            raise

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # `pbem key` alone: its help
                click.echo(exc.format_message())
                sys.exit(0)
            _fail(f"{exc.format_message()} (see `pbem --help`)")
        except click.Abort:
            _fail("aborted")
        sys.exit(result if isinstance(result, int) else 0)


@click.group(cls=PbemGroup)
@click.option("--home", envvar="PBEM_HOME", help="Store folder (default: $PBEM_HOME or XDG).")
@click.version_option(package_name="pbem")
@click.pass_context
def main(ctx: click.Context, home: str | None) -> None:
    """pbem: play board wargames by email, signed, hash-chained and verifiable."""
    ctx.obj = {"home": home}


# --- keys -----------------------------------------------------------------------------------


def _add_mail_group() -> None:
    from pbem.mail.cli import mail
    from pbem.refereeing.cli import referee

    main.add_command(mail)
    main.add_command(referee)


_add_mail_group()


@main.group()
def key() -> None:
    """Make, import, list and remove Ed25519 keys."""


NO_PASSPHRASE_NOTE = (
    "A passphrase encrypts the key file; without one, anyone who copies it (a backup of "
    "the store folder) can sign as you and open your sealed orders. Empty for none."
)


@key.command("new")
@click.argument("name")
@click.option(
    "--passphrase/--no-passphrase",
    "protect",
    default=None,
    help="Protect the key with a passphrase (from a prompt or PBEM_PASSPHRASE), or not. "
    "Default: asked at a terminal, none otherwise.",
)
@click.pass_context
def key_new(ctx: click.Context, name: str, protect: bool | None) -> None:
    """Make an Ed25519 OpenSSH key pair NAME (file mode 0600)."""
    phrase = None
    if protect:
        phrase = (
            os.environ.get("PBEM_PASSPHRASE")
            or click.prompt("passphrase", hide_input=True, confirmation_prompt=True)
        ).encode()
    elif protect is None and _at_a_terminal() and os.environ.get("PBEM_PASSPHRASE") is None:
        # Offered, never forced: an empty answer (twice) keeps today's unencrypted key.
        _say(NO_PASSPHRASE_NOTE, err=True)
        typed = click.prompt(
            f"passphrase for key {name}",
            hide_input=True,
            confirmation_prompt=True,
            default="",
            show_default=False,
        )
        phrase = typed.encode() or None
    client = _client(ctx)
    click.echo(client.new_key(name, phrase))
    # Standard output keeps the fingerprint line alone; what to send goes to stderr.
    row = client.store.key(name)
    _say(f"send your opponent {client.key_file(row)}.pub, this line: {row['public']}", err=True)


def _at_a_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


@key.command("import")
@click.argument("name")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--public",
    "public_only",
    is_flag=True,
    help="From a private key file, import only its public half.",
)
@click.option(
    "--agent",
    is_flag=True,
    help="Your own key, held by ssh-agent (SSH_AUTH_SOCK), which signs: PATH is its key "
    "file (no passphrase asked) or its .pub line (no key file needed).",
)
@click.pass_context
def key_import(ctx: click.Context, name: str, path: str, public_only: bool, agent: bool) -> None:
    """Import an OpenSSH private key (your own, for signing) or an opponent's public-key
    line as NAME."""
    client = _client(ctx)
    _say(client.import_key(name, Path(path), public_only, agent))
    row = client.store.key(name)
    if row["private_path"] and client.key_location(row) == "agent":
        _say(f"imported {name}: your own key, signed by ssh-agent", err=True)
    elif row["private_path"]:
        _say(f"imported {name}: your own key, for signing (the file stays at {path})", err=True)
    else:
        _say(f"imported {name}: an opponent's public key", err=True)


@key.command("rm")
@click.argument("name")
@click.option("--force", is_flag=True, help="Remove it even if a stored game uses it.")
@click.option(
    "--delete-file",
    is_flag=True,
    help="Also delete the key files `pbem key new` made under the store's keys/ folder.",
)
@click.pass_context
def key_rm(ctx: click.Context, name: str, force: bool, delete_file: bool) -> None:
    """Forget the key NAME (the store's row; a key file it did not make is never deleted)."""
    for line in _client(ctx).remove_key(name, force, delete_file):
        _say(line, err=True)


@key.command("list")
@click.pass_context
def key_list(ctx: click.Context) -> None:
    """List keys: name, fingerprint, where the private half is (private: its key file;
    agent: ssh-agent signs; missing: neither; public: an opponent's key), and its file."""
    client = _client(ctx)
    for row in client.store.list_keys():
        private = client.key_file(row)
        where = client.key_location(row)
        if private is not None and where == "agent" and not private.exists():
            private = None  # held by the agent alone: no key file to name
        _say(f"{row['name']}\t{row['fingerprint']}\t{where}" + (f"\t{private}" if private else ""))


# --- games ----------------------------------------------------------------------------------


@main.command()
def rules() -> None:
    """List the games pbem can adjudicate."""
    import pbem.games  # noqa: F401
    from pbem.core.engine import get_engine, registered

    for name in registered():
        engine = get_engine(name)
        click.echo(f"{name}\t{engine.title} (v{engine.version}; roles: {', '.join(engine.roles)})")


@main.command()
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
@click.option(
    "--data",
    "data",
    multiple=True,
    metavar="NAME=FILE",
    help="Use your own data file instead of the shipped one.",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A game option (optional rules: true or false; numbers as numbers), signed "
    "into the genesis: e.g. --option curse=true (docs/<game>.md lists them).",
)
@click.option("-o", "--output", help="Write the move file here (else: to stderr).")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON document (docs/json.md) on stdout: the game, its roles, the "
    "entries signed and the move file.",
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
    client = _client(ctx)
    roles = {}
    for spec in keys:
        role, sep, name = spec.partition("=")
        if not sep:
            _fail(f"--key {spec!r}: expected ROLE=KEYNAME")
        roles[role] = name
    if creator is None:
        owned = [r for r, n in roles.items() if client.store.key(n)["private_path"]]
        if not owned:
            _fail("you hold the private key of none of these roles")
        creator = owned[0]
    game_id, entries = client.new_game(
        rules_name, creator, roles, title, _data_files(data), _options(options)
    )
    if as_json:
        _new_json(game_id, roles, creator, entries, output)
        return
    # Standard output holds the game id alone (`G=$(pbem new ...)`); the rest, the move
    # file too unless -o names a file for it, goes to standard error.
    click.echo(f"game {game_id}", err=True)
    from pbem.transport.savefile import move_file

    if output:
        _write_file(Path(output), move_file(entries))
        count = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"
        _say(f"wrote {count} to {output}", err=True)
    else:
        _say(move_file(entries), err=True, nl=False)
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
        _write_file(Path(output), move_file(entries))
    click.echo(dumps(new_document(game_id, roles, creator, entries, output)))


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.option("-o", "--output", help="Write the move file here instead of stdout.")
@click.pass_context
def join(ctx: click.Context, game: str, output: str | None) -> None:
    """Join GAME with every role whose key you hold (accepting its invitation first, if
    `pbem mail fetch` is holding one)."""
    client = _client(ctx)
    if not any(row["id"].startswith(game.strip().lower()) for row in client.store.games()):
        from pbem.inbox import Inbox

        inbox = Inbox(client)
        if inbox.find_invitation(game) is not None:
            _say(escape.terminal_line(inbox.accept(game)), err=True)
    _write_entries(client.join(game), output)


@main.command()
@click.argument("game", required=False, shell_complete=complete_game)
@click.option("--role", help="Show the game as this role sees it.")
@click.option("--history", is_flag=True, help="Also print everything that happened this turn.")
@click.option(
    "--open",
    "open_page",
    is_flag=True,
    help="Write the role's HTML turn page under the store's home and open it in a browser.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON document (docs/json.md) on stdout: the game as the role sees it, "
    "or (no GAME) every stored game.",
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
    client = _client(ctx)
    if game is None and open_page:
        _fail("--open needs a GAME")
    if as_json and (open_page or history):
        _fail("--json cannot be combined with --open or --history")
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
            _say(line)
        if not listed:
            _say(escape.terminal_line(f"no games in the store at {client.store.home.resolve()}"))
        from pbem.inbox import Inbox

        for line in Inbox(client).invitation_lines():  # held by `pbem mail fetch`
            _say(escape.terminal_line(line))
        return
    from pbem.render.show import show_text

    if open_page:
        _open_page(client, client.game(game), role)
        return
    _say(show_text(client, client.game(game), role, history))


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
    folder = client.store.home / "pages"
    folder.mkdir(mode=0o700, exist_ok=True)
    path = folder / f"{game.id[:12]}-{viewer or 'public'}.html"
    _write_file(path, html, private=True)  # it may show the role's hand: owner-only
    try:
        opened = webbrowser.open(path.resolve().as_uri())
    except webbrowser.Error:
        opened = False
    _say(f"wrote {path}" + ("" if opened else " (no browser found: open it yourself)"))


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.argument("decision", nargs=-1, required=True)
@click.option("--role", help="The role to move as (default: the one asked).")
@click.option(
    "-o",
    "--output",
    help="Write the move file here instead of stdout. It carries every entry of yours the "
    "other side has not answered yet, the automatic ones too. A file holding other entries "
    "the other side may not have yet is not overwritten: pbem refuses, and signs nothing, "
    "unless --force.",
)
@click.option(
    "--force", is_flag=True, help="Overwrite the -o file even if it holds unanswered entries."
)
@click.option(
    "--no-auto",
    is_flag=True,
    help="Sign only this decision: no automatic answers after it (dice acknowledgements, "
    "only choices, standing orders).",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Check the decision exactly as a move would and print what would be signed; "
    "sign, store and write nothing (exit 1 if it is illegal).",
)
@click.option("--note", help="A signed note to your opponent, sent with the move (500 chars).")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON document on stdout (docs/json.md): the entries signed, the "
    "automatic ones with their reason, the move file (its text without -o), what comes next.",
)
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
    client = _client(ctx)
    text = " ".join(decision)
    if dry_run:
        plan = client.dry_run_move(game, text, role)
        _say(escape.terminal_line(f"would sign {plan.line}{_after_move(plan.game, plan.role)}"))
        _say("nothing signed, stored or written (--dry-run)")
        return
    plan = client.plan_move(game, text, role, note=note)
    if output and not force:
        _refuse_overwrite(client, game, Path(output), plan.role)  # before signing
    entry = client.sign_move(plan)
    answered = [] if no_auto else client.answer_automatically(game)
    batch = client.unsent(game, since=entry.seq)
    if as_json:
        _signed_json(client, game, entry, answered, plan.private, batch, output)
        return
    _write_entries(batch, output)
    err = not output  # stdout holds the move file without -o
    after = _after_move(client.game(game), plan.role)
    if not answered:
        _say(escape.terminal_line(f"signed {plan.line}{after}"), err=err)
        return
    _say(escape.terminal_line(f"signed {plan.line}"), err=err)
    _say_answers(answered, err)
    if after:
        _say(escape.terminal_line(f"then{after[1:]}"), err=err)


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
        _write_file(Path(output), move_file(batch))
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


def _say_answers(answered: list[tuple[Entry, str]], err: bool) -> None:
    """One line per entry signed without asking (pbem.answers)."""
    from pbem.play import answered_lines

    for line in answered_lines(answered):
        _say(escape.terminal_line(line), err=err)


def _refuse_overwrite(client: Client, prefix: str, path: Path, signer: str | None = None) -> None:
    """Fail if `path` holds entries of this game that the other side may not have and
    that the new move file will not carry: entries not in this store's log, or in it with
    no later entry of another role (which shows that they were received), counting the
    entry `signer` is about to sign. Unanswered entries of ours are carried again
    (`Client.unsent`); another game's entries are not this game's to keep."""
    from pbem.errors import PbemError
    from pbem.verify import parse_entries

    if not path.is_file():
        return
    try:
        found = parse_entries(path.read_bytes())
    except (OSError, PbemError):
        return
    game = client.game(prefix)
    log = game.entries
    carried = {entry.id for entry in client.unsent(prefix, since=len(log))}
    unseen = []
    for entry in found:
        if (entry.id if entry.seq == 0 else entry.game) != game.id or entry.id in carried:
            continue
        answered = entry.seq < len(log) and log[entry.seq].id == entry.id
        later = [e.by for e in log[entry.seq + 1 :]] + ([signer] if signer else [])
        if not (answered and any(by != entry.by for by in later)):
            unseen.append(entry)
    if unseen:
        what = ", ".join(e.describe() for e in unseen)
        _fail(
            f"{path} holds {what}, which the other side may not have yet: "
            "send it first, or use another -o file (--force overwrites it)"
        )


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.option("--role", help="The role to acknowledge as.")
@click.option(
    "-o",
    "--output",
    help="Write the move file here instead of stdout (every entry of yours not yet "
    "answered; refused over a file holding entries the other side may not have yet).",
)
@click.option("--force", is_flag=True, help="Overwrite the -o file whatever it holds.")
@click.option("--no-auto", is_flag=True, help="No automatic answers after the acknowledgement.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON document on stdout (docs/json.md): the entries signed, the "
    "automatic ones with their reason, the move file (its text without -o), what comes next.",
)
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
    client = _client(ctx)
    if output and not force:
        adjudicator = client.game(game)
        _refuse_overwrite(client, game, Path(output), client.acting_role(adjudicator, role))
    entry = client.ack(game, role)
    answered = [] if no_auto else client.answer_automatically(game)
    batch = client.unsent(game, since=entry.seq)
    if as_json:
        _signed_json(client, game, entry, answered, None, batch, output)
        return
    _write_entries(batch, output)
    _say(escape.terminal_line(f"signed {entry.describe()}"), err=not output)
    _say_answers(answered, not output)


@main.command()
@click.argument("source", default="-")
@click.option(
    "--data",
    "data",
    multiple=True,
    metavar="NAME=FILE",
    help="A data file the game uses that pbem does not ship.",
)
@click.option(
    "-o",
    "--output",
    help="Write the entries to send back here: your automatic answers and every other "
    "entry of yours not yet answered (refused over a file holding entries the other side "
    "may not have yet, unless --force).",
)
@click.option("--force", is_flag=True, help="Overwrite the -o file whatever it holds.")
@click.option(
    "--no-auto",
    is_flag=True,
    help="Only apply: sign no automatic answer (dice acknowledgements, only choices, "
    "standing orders).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON document on stdout (docs/json.md): each entry and what became of "
    "it, and per game the automatic answers, what to send back and what comes next.",
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
    from pbem.verify import parse_entries

    entries = parse_entries(_read_input(source))
    if not entries:
        _fail(f"no PBEM entries found in {source}")
    client = _client(ctx)
    games: list[str] = []
    results = client.apply_entries(entries, _data_files(data))
    for result in results:
        if not as_json:
            _say(f"{result.status}: {escape.terminal_line(result.entry.describe())}")
        entry = result.entry
        game_id = entry.id if entry.seq == 0 else str(entry.game)
        if game_id not in games:
            games.append(game_id)
    done = []
    for game_id in games:
        if output and not force:
            _refuse_overwrite(client, game_id, Path(output))
        since = len(client.game(game_id).entries)
        answered = [] if no_auto else client.answer_automatically(game_id)
        game = client.game(game_id)
        waiting = client.unsent(game_id, since=since) if game.started else []
        done.append((game, answered, waiting))
        if as_json:
            if output and waiting and len(games) == 1:
                from pbem.transport.savefile import move_file

                _write_file(Path(output), move_file(waiting))
            continue
        _say_answers(answered, err=False)
        if output and waiting and len(games) == 1:
            _write_entries(waiting, output)
        elif answered:
            count = f"{len(waiting)} entr{'y' if len(waiting) == 1 else 'ies'}"
            _say(
                f"{count} of yours to send: `pbem outbox {game_id[:12]} -o FILE` "
                f"or `pbem mail send {game_id[:12]}`"
            )
        if answered:
            from pbem.play import whose_turn

            _say(escape.terminal_line(whose_turn(client, game_id)))
    if as_json:
        from pbem.render.jsonout import apply_document, dumps

        applied = [(result.status, result.entry) for result in results]
        click.echo(dumps(apply_document(client, applied, done, output)))


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.option("-o", "--output", help="Write the move file here instead of stdout.")
@click.option("--force", is_flag=True, help="Overwrite the -o file whatever it holds.")
@click.pass_context
def outbox(ctx: click.Context, game: str, output: str | None, force: bool) -> None:
    """Write a move file of every entry of yours in GAME that the other side has not
    answered yet (sending one twice is harmless: `apply` says "already had")."""
    client = _client(ctx)
    waiting = client.unsent(game)
    if not waiting:
        _fail("nothing to send: the other side has answered every entry of yours")
    if output and not force:
        _refuse_overwrite(client, game, Path(output))
    _write_entries(waiting, output)


@main.command()
@click.argument("sources", metavar="SOURCE...", nargs=-1, required=True)
@click.option(
    "--data",
    "data",
    multiple=True,
    metavar="NAME=FILE",
    help="A data file the game uses that pbem does not ship.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Verify several files (or every *.pbem of a folder) in N worker processes: "
    "one line per file, in the order given.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON document (docs/json.md) on stdout: for each file, ok or its "
    "failure, its game, entries, outcome, witnesses and what cannot be checked yet.",
)
def verify(
    sources: tuple[str, ...], data: tuple[str, ...], jobs: int | None, as_json: bool
) -> None:
    """Replay and check a whole game from SOURCE; exit 0 only if every check holds.

    Several SOURCEs, a folder (every *.pbem file in it), a mailbox (an mbox file or a
    Maildir folder: every game in it) or --jobs: one result line per file or game, in
    the order given, and exit 1 if any fails.
    """
    from pbem.evidence import is_evidence_file
    from pbem.verify import verify_text

    files = _data_files(data)
    if any(source != "-" and is_evidence_file(source) for source in sources):
        _verify_evidence(sources, files, as_json)  # evidence files (docs/evidence.md)
        return
    if as_json:
        _verify_json(sources, files, jobs)
        return
    tasks: list[_VerifyTask] | None = None
    if len(sources) == 1 and jobs is None and not Path(sources[0]).is_dir():
        source = sources[0]
        if source == "-":
            print_report(verify_text(_read_input(source), files), click.echo, _fail)
            return
        tasks = _verify_tasks(sources, files)
        if len(tasks) == 1 and (tasks[0][3] is None or tasks[0][3][2] is not None):
            # One game (an mbox of one game too): its full report, as `pbem.cli` gives it;
            # a turn page's first says what of it is checked (its game, not its text).
            from pbem.transport.movefile import turn_page_note

            note = turn_page_note(source)
            if note is not None:
                click.echo(note)
            verify_file(source, files, click.echo, _fail)
            return
    tasks = tasks if tasks is not None else _verify_tasks(sources, files)
    failed = unchecked = 0
    progress = _VerifyProgress(len(tasks), _verify_progress(len(tasks), sys.stderr.isatty))
    for ok, line in _verify_results(_verify_one, tasks, jobs):
        if not ok and ": NOT CHECKED: " in line:
            unchecked += 1  # (the log holds; its result is not checked in full)
        else:
            failed += not ok
        progress.say(line, ok)
    progress.close()
    if failed or unchecked:
        said = [f"{failed} of {len(tasks)} files failed verification"] if failed else []
        if unchecked:
            said.append(f"{unchecked} of {len(tasks)} not checked in full")
        _fail("; ".join(said))


@main.command()
@click.argument("sources", metavar="SOURCE...", nargs=-1)
@click.option(
    "-o", "--output", metavar="FILE", help="Write the evidence file to FILE (else stdout)."
)
@click.option(
    "--unpack",
    nargs=2,
    type=click.Path(),
    metavar="FILE DIR",
    help="Write an evidence file's entries for ssh-keygen into DIR: entry-SEQ-N.json, "
    "entry-SEQ-N.sig, allowed_signers and check.sh.",
)
@click.option("--data", "data", multiple=True, metavar="NAME=FILE")
def evidence(
    sources: tuple[str, ...],
    output: str | None,
    unpack: tuple[str, str] | None,
    data: tuple[str, ...],
) -> None:
    """Write a small file that proves one cheat found in a game's log (SOURCE: saves, move
    files, mail): an equivocation, a false hidden claim, a forfeit the rules refuse.
    Anyone checks it with `pbem verify FILE`, or with ssh-keygen (docs/evidence.md)."""
    from pbem import evidence as proofs
    from pbem.errors import PbemError
    from pbem.verify import parse_entries

    if unpack is not None:
        if sources or output:
            _fail("--unpack FILE DIR takes no SOURCE and no -o")
        try:
            written = proofs.unpack(_read_input(unpack[0]), Path(unpack[1]))
        except proofs.NotProven as exc:
            _fail(f"cannot unpack {unpack[0]}: {exc}")
        except OSError as exc:
            _fail(f"cannot write into {unpack[1]}: {exc.strerror}")
        _say(f"wrote {len(written)} files to {unpack[1]}: run sh {Path(unpack[1]) / 'check.sh'}")
        return
    if not sources:
        _fail("give the log to search (SOURCE...), or --unpack FILE DIR")
    entries: list[Entry] = []
    for source in sources:
        try:
            entries += parse_entries(_read_input(source))
        except PbemError as exc:
            _fail(f"{source}: {str(exc).partition(chr(10))[0]}")
    try:
        proof = proofs.find(entries, _data_files(data))
    except proofs.NotProven as exc:
        _fail(f"no provable cheat in the log: {exc}")
    _emit(proofs.render(proof), output, f"wrote {output}: {proof.line()}")


def _verify_evidence(sources: tuple[str, ...], files: dict[str, bytes], as_json: bool) -> None:
    """`pbem verify` of evidence files: PROVEN or NOT PROVEN for each (exit 1 if any is
    not proven); with --json one document whose records carry `evidence`."""
    import json

    from pbem import evidence as proofs

    records: list[dict[str, Any]] = []
    for source in sources:
        if source == "-" or not proofs.is_evidence_file(source):
            _fail(f"{source} is not an evidence file: verify evidence files on their own")
        try:
            proof = proofs.check(_read_input(source), files)
        except proofs.NotProven as exc:
            line = f"NOT PROVEN: {exc}"
            document = proofs.not_proven_document(str(exc))
        else:
            line, document = proof.line(), proof.document()
        ok = bool(document["proven"])
        error = None if ok else line
        records.append({"file": source, "ok": ok, "error": error, "evidence": document})
        if not as_json:
            _say(escape.terminal_line(line if len(sources) == 1 else f"{source}: {line}"))
    if as_json:
        document = {"schema": 1, "ok": all(r["ok"] for r in records), "files": records}
        click.echo(json.dumps(document, indent=2, ensure_ascii=True))
    failed = sum(not r["ok"] for r in records)
    if failed:
        sys.exit(1)


@main.command()
@click.argument("sources", metavar="SOURCE...", nargs=-1, required=True)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON document on stdout: the table, the games counted and the files "
    "left out with the reason.",
)
@click.option(
    "--players",
    "roster",
    metavar="FILE",
    help="A roster of the league's players: one OpenSSH public-key line or SHA256 "
    "fingerprint a line (# comments). Only games whose every player is on it count.",
)
def standings(sources: tuple[str, ...], as_json: bool, roster: str | None) -> None:
    """League standings over saves (files, or folders of *.pbem) and mailboxes (an mbox
    file, a Maildir folder: every game in it): wins, losses, draws and an Elo rating per
    player key, counting only games that verify and are finished, each game once (by its
    id); the files and games left out are listed with the reason. Games are rated in the
    order given."""
    import json

    from pbem import standings as league
    from pbem.errors import PbemError

    try:
        players = league.read_roster(roster) if roster is not None else None
    except PbemError as exc:
        _fail(str(exc))
    paths = _verify_paths(sources)
    if "-" in paths:
        _fail("standings read files, not stdin")
    found = league.league(league.source_results(paths), players)
    if as_json:
        click.echo(json.dumps(league.document(found), indent=2, sort_keys=True))
        return
    for line in league.lines(found):
        _say(line)


def _verify_json(sources: tuple[str, ...], files: dict[str, bytes], jobs: int | None) -> None:
    """`pbem verify --json`: one document for every file or game (pbem.render.jsonout),
    streamed as the records come; then, if any failed, the error line `pbem verify` says
    without --json (exit 1)."""
    from pbem.render.jsonout import stream_verify, verify_one

    tasks = _verify_tasks(sources, files)
    progress = _VerifyProgress(len(tasks), _verify_progress(len(tasks), sys.stderr.isatty))

    def documents() -> Iterator[dict[str, Any]]:
        for document in _verify_results(verify_one, tasks, jobs):
            progress.step(bool(document["ok"]))
            yield document
        progress.close()

    stream_verify(documents(), lambda text: click.echo(text, nl=False), _fail)


# One file or one game to verify: (the name its result line or record gives, the bytes
# read from stdin or None, the --data files, the game of a mailbox or None).
_VerifyTask = tuple[str, "bytes | None", "dict[str, bytes]", "MailGame | None"]


def _verify_tasks(sources: tuple[str, ...], files: dict[str, bytes]) -> list[_VerifyTask]:
    """What to verify, in the order given: a file; every *.pbem of a folder; every game of
    a mailbox (an mbox file, a Maildir folder), each named `MAILBOX#<game id prefix>`."""
    from pbem.errors import PbemError
    from pbem.verify import mail_game_label, mailbox_games, mailbox_kind

    paths = _verify_paths(sources)
    stdin = sys.stdin.buffer.read() if "-" in paths else None
    tasks: list[_VerifyTask] = []
    for path in paths:
        kind = mailbox_kind(path)
        if kind is None:
            tasks.append((path, stdin if path == "-" else None, files, None))
            continue
        try:
            for game in mailbox_games(path, kind):
                tasks.append((mail_game_label(game), None, files, game))
        except (PbemError, OSError) as exc:
            _fail(f"cannot read {kind} {path}: {exc}")
    return tasks


_Result = TypeVar("_Result")


def _verify_results(
    verify_one: Callable[[_VerifyTask], _Result], tasks: list[_VerifyTask], jobs: int | None
) -> Iterator[_Result]:
    """Each task's result in the order given, as it comes: in this process, or in `jobs`
    worker processes (pool.imap, so only the results not yet printed are held)."""
    workers = min(jobs or 1, len(tasks))
    if workers <= 1:
        yield from map(verify_one, tasks)
        return
    import multiprocessing

    # Imported once here rather than in each worker: forked workers share them.
    import pbem.crypto.sshsig  # noqa: F401
    import pbem.games  # noqa: F401

    # Chunks of a few tasks: fewer round trips for thousands of small saves, and still
    # several chunks per worker so that one long game does not leave the others idle.
    chunksize = max(1, min(16, len(tasks) // (workers * 8)))
    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap(verify_one, tasks, chunksize)


def _verify_progress(count: int, isatty: Callable[[], bool]) -> bool:
    """Whether `pbem verify` draws its progress line: several files or games, and stderr
    (where it goes; never stdout) a terminal, with or without --json."""
    return count > 1 and isatty()


class _VerifyProgress:
    """`verifying 120/2000, 3 failed` on stderr, redrawn in place with \\r (at most ten
    times a second), moved out of the way of each result line, cleared at the end."""

    def __init__(self, total: int, shown: bool) -> None:
        self.total, self.shown = total, shown
        self.done = self.failed = 0
        self.drawn = ""
        self.when = 0.0

    def say(self, line: str, ok: bool) -> None:
        """A result line on stdout, then the progress line again."""
        self._clear()
        _say(line)
        self.step(ok, force=True)

    def step(self, ok: bool, force: bool = False) -> None:
        import time

        self.done += 1
        self.failed += not ok
        if not self.shown:
            return
        now = time.monotonic()
        if force or now - self.when >= 0.1 or self.done == self.total:
            self.when = now
            self._clear()
            self.drawn = f"verifying {self.done}/{self.total}, {self.failed} failed"
            click.echo(self.drawn, err=True, nl=False)

    def close(self) -> None:
        self._clear()

    def _clear(self) -> None:
        if self.drawn:
            click.echo("\r" + " " * len(self.drawn) + "\r", err=True, nl=False)
            self.drawn = ""


def _verify_paths(sources: tuple[str, ...]) -> list[str]:
    """The files to verify, in the order given; a folder stands for its *.pbem files,
    sorted, and a Maildir folder (cur/ and new/ in it) for itself."""
    from pbem.verify import mailbox_kind

    paths: list[str] = []
    for source in sources:
        folder = Path(source)
        if source != "-" and folder.is_dir() and mailbox_kind(source) is None:
            found = sorted(str(p) for p in folder.glob("*.pbem") if not p.is_dir())
            if not found:
                _fail(f"no *.pbem files in folder {source}")
            paths += found
        else:
            paths.append(source)
    if paths.count("-") > 1:
        _fail("stdin (-) can be read only once")
    return paths


def _verify_one(task: _VerifyTask) -> tuple[bool, str]:
    """Verify one file (streamed by `pbem.verify.verify_path` when it is a save on disk)
    or one game of a mailbox: (ok, its one result line). A failure's line ends with the
    failure's name and the entry to blame: `[rules, entry 7 by german]`.

    Module level so that a worker process can run it; it returns only a line, never the
    replayed game, so nothing large crosses back to the parent.
    """
    from pbem.errors import PbemError
    from pbem.verify import verify_mail_game, verify_path, verify_text

    path, given, files, mail = task
    if given is None and mail is None:
        try:
            with open(path, "rb"):
                pass
        except OSError as exc:
            return False, f"{path}: FAILED: cannot read it: {exc.strerror} [unreadable]"
    try:
        if mail is not None:
            report = verify_mail_game(mail, files)
        elif given is not None:
            report = verify_text(given, files)
        else:
            report = verify_path(path, files)
    except PbemError as exc:
        from pbem.failures import classify

        first = str(exc).splitlines()[0] if str(exc) else repr(exc)
        return False, f"{path}: FAILED: {first} [{classify(first)}]"
    if report.verdict == "not-checked":
        return False, f"{path}: {report.tail()}"
    if not report.ok:
        failure = report.tail().partition("\n")[0]
        bad = report.bad
        blame = f", {bad.describe()}" if bad is not None else ""
        return False, f"{path}: {failure} [{report.cheat}{blame}]"
    game = report.game
    if game is None:
        return True, f"{path}: OK: every check holds"
    outcome = game.outcome()
    result = outcome.text if outcome else "unfinished"
    # A lean adjudicator may count its entries without keeping them.
    count = getattr(game, "entry_count", None)
    if not isinstance(count, int):
        count = len(game.entries)
    notes = ""
    if report.set_aside:  # (an outsider's noise, pbem.noise: said, never a failure)
        copies = sum(report.set_aside.values())
        notes += f"; set aside {copies} damaged cop{'y' if copies == 1 else 'ies'} (noise)"
    if any(line.startswith("header says result:") for line in report.lines):
        notes += "; its header's result line differs from the log's (human text)"
    return True, f"{path}: OK: {game.engine.name}, {count} entries, result: {result}{notes}"


@main.command()
@click.argument("source", shell_complete=complete_game_or_file)
@click.option("--step", is_flag=True, help="Pause after each entry.")
@click.option("--data", "data", multiple=True, metavar="NAME=FILE")
@click.pass_context
def replay(ctx: click.Context, source: str, step: bool, data: tuple[str, ...]) -> None:
    """Print a game's history with its RNG log, from a file or a stored GAME id."""
    from pbem.render.show import history_lines

    game = _load_any(ctx, source, data)
    for line in history_lines(game):
        _say(line)
        if step and line.startswith("seq "):
            click.pause()


def _load_any(ctx: click.Context, source: str, data: tuple[str, ...]) -> Adjudicator:
    from pbem.core.adjudicator import data_digest
    from pbem.ledger import replay as replay_entries
    from pbem.verify import parse_entries

    if source == "-" or Path(source).exists():
        entries = parse_entries(_read_input(source))
        extra = {data_digest(c): c for c in _data_files(data).values()}
        return replay_entries(entries, extra)
    return _client(ctx).game(source)


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.option("-o", "--output", help="Write the save file here instead of stdout.")
@click.option(
    "--since",
    type=int,
    metavar="SEQ",
    help="Write a move file of the entries from SEQ on instead (to send them again).",
)
@click.pass_context
def export(ctx: click.Context, game: str, output: str | None, since: int | None) -> None:
    """Write GAME as a save file: header, every entry, the RNG log."""
    client = _client(ctx)
    if since is not None:
        entries = client.game(game).entries[since:]
        if not entries:
            _fail(f"the log has no entry {since}")
        _write_entries(entries, output)
        return
    text = client.export(game)
    _emit(text, output)


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.option(
    "-o",
    "--output",
    help="Write GAME's entries from the journal here (a move file) instead of applying them.",
)
@click.pass_context
def recover(ctx: click.Context, game: str, output: str | None) -> None:
    """Apply to the store GAME's entries that your keys signed, read from their signing
    journals (after a restored backup or a crash lost them), or write them to a file.
    Only GAME's entries: the journal's other games never leave it."""
    client = _client(ctx)
    game_id, entries = client.journal_entries(game)
    if not entries:
        _fail(f"the signing journals of this store's keys hold no entry of game {game_id[:12]}")
    if output:
        _write_entries(entries, output)
        return
    for result in client.apply_entries(entries):
        _say(f"{result.status}: {escape.terminal_line(result.entry.describe())}")


@main.command()
@click.argument("game", shell_complete=complete_game_or_file)
@click.option(
    "--role",
    help="Whose view (default: your role; for markdown/bbcode posts: 'public').",
)
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
@click.option("-o", "--output", help="Write the summary here instead of stdout.")
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

    client = None if Path(game).exists() else _client(ctx)
    adjudicator = _load_any(ctx, game, ())
    if fmt in POST_FORMATS:
        # Everyone reads a forum: the public view unless a role is named, and never the
        # store's sealed values.
        entries = adjudicator.entries[since:] if since is not None else last_move(adjudicator)
        if since is not None and not entries:
            _fail(f"the log has no entry {since}")
        viewer = None if role in (None, "public") else role
        _emit(render_post(adjudicator, viewer, fmt, entries), output)
        return
    known = None
    if client is not None:
        mine = client.my_roles(adjudicator)
        if role is None and mine:
            role = mine[0]
        if role in mine:  # our own sealed values, from our own store
            known = client.known(adjudicator.id, str(role))
    viewer = None if role in (None, "public") else role
    if fmt in ("svg", "html", "png"):
        _render_picture(client, adjudicator, viewer, fmt, known, layout, output)
        return
    if layout is not None:
        _fail("--layout is for --format svg, html or png")
    text = render_summary(adjudicator, viewer, fmt, known)
    # A view of one of our own roles may show its hand and sealed values: owner-only.
    _emit(text, output, private=known is not None)


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
        _fail("--format png writes a file: give -o FILE")
    shape = _read_input(layout) if layout is not None else None
    private = bool(known)  # our own role's view may show its hand: owner-only
    if fmt == "html":
        asked = None
        if client is not None and role is not None:
            from pbem.render.show import asked_of

            asked = asked_of(client, game, role)
        html = render_page(game, role, known=known, asked=asked, layout=shape)
        _emit(html, output, private=private)
        return
    svg = render_svg(game, role, known=known, layout=shape)
    if fmt == "svg":
        _emit(svg, output, private=private)
        return
    from pbem.render.png import svg_to_png

    _write_file(Path(str(output)), svg_to_png(svg), private)
    _say(f"wrote {output}")


@main.command()
@click.argument("game", shell_complete=complete_game_or_file)
@click.option("--role", help="Whose view (default: your role; 'public' for nobody's hand).")
@click.pass_context
def cards(ctx: click.Context, game: str, role: str | None) -> None:
    """List the cards of GAME's decks with their texts, from a stored game or a save: the
    ones your role holds (from your own store only) and the ones played are marked."""
    from pbem.render.cards import cards_text

    client = None if Path(game).exists() else _client(ctx)
    adjudicator = _load_any(ctx, game, ())
    known = None
    if client is not None:
        mine = client.my_roles(adjudicator)
        if role is None and mine:
            role = mine[0]
        if role in mine:  # our own sealed cards, from our own store
            known = client.known(adjudicator.id, str(role))
    _say(cards_text(adjudicator, None if role in (None, "public") else role, known), nl=False)


@main.command()
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


# --- resignations and draws, in every game (pbem.core.meta) ---------------------------------


def _meta_command(
    ctx: click.Context, game: str, role: str | None, note: str | None, output: str | None, do: str
) -> None:
    """Sign a resignation, a draw offer or its acceptance; write the entry like a move."""
    client = _client(ctx)
    entry = getattr(client, do)(game, role, note)
    _write_meta(client, game, entry, output)


def _write_meta(client: Client, game: str, entry: Entry, output: str | None) -> None:
    """Write a meta entry's move file (with every entry of ours not yet answered) and
    say what it did."""
    from pbem.transport.savefile import human_line

    _write_entries(client.unsent(game, since=entry.seq), output)
    played = client.game(game)
    outcome = played.outcome()
    after = f"; {outcome.text}" if outcome is not None else ""
    if played.meta.takeback is None and "takeback" in entry.body and outcome is None:
        after = f"; {played.next_signer()} signs next"
    what = human_line(entry).split(": ", 1)[-1]
    line = f"signed entry {entry.seq} by {entry.by}: {what}{after}"
    _say(escape.terminal_line(line), err=not output)


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.option("--role", help="The side that resigns (default: yours that signs next).")
@click.option("--note", help="A signed note to your opponent (500 characters at most).")
@click.option("-o", "--output", help="Write the move file here instead of stdout.")
@click.pass_context
def resign(
    ctx: click.Context, game: str, role: str | None, note: str | None, output: str | None
) -> None:
    """Resign GAME: the game ends and the other side wins. Only when you sign next."""
    _meta_command(ctx, game, role, note, output, "resign")


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.argument("seq", type=int)
@click.option("--role", help="The side whose message it is (default: the one it concerns).")
@click.option("-o", "--output", help="Write the move file here instead of stdout.")
@click.pass_context
def unseal(ctx: click.Context, game: str, seq: int, role: str | None, output: str | None) -> None:
    """Double-blind games: publish the key of the sealed message in entry SEQ, for anyone
    to open that one message (docs/referee.md). Either the referee's latest deal to you,
    when it does not open with your key or does not match its commitments (while you are
    asked): the log then proves the referee's false deal, or the game stops on your word
    until the referee answers with its own key. Or your own escrow, after the referee
    voided it saying it does not open: your key shows whether it was true."""
    client = _client(ctx)
    entry = client.unseal(game, seq, role)
    _write_meta(client, game, entry, output)


@main.command("offer-draw")
@click.argument("game", shell_complete=complete_game)
@click.option("--role", help="The side that offers (default: yours that signs next).")
@click.option("--note", help="A signed note to your opponent (500 characters at most).")
@click.option("-o", "--output", help="Write the move file here instead of stdout.")
@click.pass_context
def offer_draw(
    ctx: click.Context, game: str, role: str | None, note: str | None, output: str | None
) -> None:
    """Offer a draw in GAME, as an entry of its own when you sign next (then make your
    move as usual). The other side's next entry accepts it (`pbem accept-draw`) or, by
    being anything else, declines it."""
    _meta_command(ctx, game, role, note, output, "offer_draw")


@main.command("accept-draw")
@click.argument("game", shell_complete=complete_game)
@click.option("--role", help="The side that accepts (default: yours that signs next).")
@click.option("--note", help="A signed note to your opponent (500 characters at most).")
@click.option("-o", "--output", help="Write the move file here instead of stdout.")
@click.pass_context
def accept_draw(
    ctx: click.Context, game: str, role: str | None, note: str | None, output: str | None
) -> None:
    """Accept the draw the other side offered in GAME: the game ends drawn."""
    _meta_command(ctx, game, role, note, output, "accept_draw")


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.argument("action", required=False, type=click.Choice(["set", "clear"]))
@click.argument("words", nargs=-1)
@click.option("--role", help="Whose orders (default: your one role in the game).")
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
    client = _client(ctx)
    if action == "set":
        if len(words) < 2:
            _fail("say which order and what it says: `pbem orders GAME set NAME ARGUMENT`")
        normal = client.set_order(game, words[0], " ".join(words[1:]), role)
        _say(f"standing order {words[0]}: {normal}")
        return
    if action == "clear":
        if len(words) > 1:
            _fail("clear takes one order name, or none for all")
        count = client.clear_orders(game, words[0] if words else None, role)
        _say(f"cleared {count} standing order{'s' if count != 1 else ''}")
        return
    if words:
        _fail(f"unexpected {' '.join(words)!r}: use `set NAME ARGUMENT` or `clear [NAME]`")
    adjudicator = client.game(game)
    who, current = client.orders(game, role)
    table = adjudicator.engine.standing_orders()
    if not table:
        _say(f"{adjudicator.engine.title} takes no standing orders")
        return
    _say(f"standing orders of {who} (`pbem orders {adjudicator.id[:12]} set NAME ARGUMENT`):")
    for name, order in sorted(table.items()):
        setting = current.get(name)
        _say(f"{name}: {setting if setting else '(not set: you are asked)'}")
        _say(f"    answers {order.question}")
        for form in order.forms:
            _say(f"    {name} {form.words}: {form.meaning}")


@main.command()
@click.argument("game", shell_complete=complete_game)
@config_option()
@click.option(
    "--interval",
    type=click.FloatRange(min=1),
    default=60,
    show_default=True,
    help="Seconds between two looks at the mailbox while the other side decides.",
)
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

    client = _client(ctx)
    game_id = client.game(game).id
    player = Player(
        client,
        game_id,
        say=lambda line: _say(line),
        ask=_ask_line,
        mailer=Mailer.configured(client, config_path),
        sleep=time.sleep,
        interval=interval,
        folder=Path(folder),
    )
    try:
        player.run()
    except KeyboardInterrupt:
        _say("\nstopped: `pbem play` again to go on")


def _ask_line(prompt: str) -> str | None:
    """One line from the person, None at the end of input."""
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    return line.rstrip("\n") if line else None


@main.command()
@click.argument("game", shell_complete=complete_game)
@click.argument("what", metavar="ENTRY|accept|decline")
@click.option("--role", help="Your side (default: yours that signs next).")
@click.option("--note", help="A signed note to your opponent (500 characters at most).")
@click.option("-o", "--output", help="Write the move file here instead of stdout.")
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
    client = _client(ctx)
    if what in ("accept", "decline"):
        entry = client.answer_takeback(game, what == "accept", role, note)
    elif what.isdigit():
        entry = client.propose_takeback(game, int(what), role, note)
    else:
        _fail(f"{what!r}: give the first entry to take back, or accept, or decline")
    _write_meta(client, game, entry, output)
