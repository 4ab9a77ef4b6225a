"""What every command module shares: the store's client, one-line failures, printing
escaped for a terminal, writing an -o file atomically, reading an input or a data file.

A command fails with `fail`: `error: <one line>` on stderr and exit 1 (the group,
pbem.cli.app, turns the errors a command lets through into the same line).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from pbem import escape

if TYPE_CHECKING:
    from pbem.client import Client
    from pbem.core.adjudicator import Adjudicator
    from pbem.core.log import Entry


def fail(message: str) -> NoReturn:
    """`error: <message>` on stderr, escaped onto one line, and exit 1."""
    click.echo(f"error: {escape.terminal_line(message)}", err=True)
    sys.exit(1)


def say(text: str, err: bool = False, nl: bool = True) -> None:
    """Print text that may hold text from a game's log or from mail, escaped for a
    terminal (pbem.escape): nothing in it reaches the terminal as a control."""
    click.echo(escape.terminal(text), err=err, nl=nl)


def _passphrase(name: str) -> bytes | None:
    if os.environ.get("PBEM_PASSPHRASE") is not None:
        return os.environ["PBEM_PASSPHRASE"].encode()
    if not sys.stdin.isatty():
        return None
    return click.prompt(f"passphrase for key {name}", hide_input=True, default="").encode()


def client_of(ctx: click.Context) -> Client:
    """The Client of the store `pbem --home` (or PBEM_HOME) names; a key's passphrase
    comes from PBEM_PASSPHRASE, else a prompt at a terminal."""
    from pbem.client import Client
    from pbem.store import Store

    home = ctx.obj.get("home") if ctx.obj else None
    return Client(Store(Path(home) if home else None), _passphrase)


def write_entries(entries: list[Entry], output: str | None) -> None:
    """A move file of `entries`: printed, or written to `output` and said so."""
    from pbem.transport.savefile import move_file

    count = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"
    emit(move_file(entries), output, f"wrote {count} to {output}")


def emit(text: str, output: str | None, note: str | None = None, private: bool = False) -> None:
    """Print `text` (escaped for the terminal), or write it to `output` and say so.

    `private`: the text shows a role's own view (its hand, its sealed values), so the
    file is created owner-only (0600) whatever the umask, and an existing file is made so.
    """
    if output:
        write_file(Path(output), text, private)
        say(note or f"wrote {output}")
    else:
        say(text, nl=False)


def write_file(path: Path, text: str | bytes, private: bool = False) -> None:
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


def read_input(source: str) -> bytes:
    """The bytes of the file `source`, or of stdin for -."""
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except OSError as exc:
        fail(f"cannot read {source}: {exc.strerror}")


def data_spec(spec: str) -> tuple[str, str]:
    """(name, path) of one `--data NAME=FILE` (or `--data FILE`, named as its file)."""
    name, sep, path = spec.partition("=")
    return (name, path) if sep else (Path(spec).name, spec)


def data_files(specs: tuple[str, ...]) -> dict[str, bytes]:
    """The user's own data files (`--data NAME=FILE`), each refused over the size cap
    before it is read (pbem.games.datacheck.read_data_file)."""
    files = {}
    for spec in specs:
        from pbem.games.datacheck import read_data_file  # imported only when a file is given

        name, path = data_spec(spec)
        try:
            files[name] = read_data_file(path)
        except OSError as exc:
            fail(f"cannot read data file {path}: {exc.strerror}")
    return files


def load_any(ctx: click.Context, source: str, data: tuple[str, ...]) -> Adjudicator:
    """The game of a file (or stdin, -), replayed; else the stored game `source` names."""
    from pbem.core.adjudicator import data_digest
    from pbem.ledger import replay as replay_entries
    from pbem.verify import parse_entries

    if source == "-" or Path(source).exists():
        entries = parse_entries(read_input(source))
        extra = {data_digest(c): c for c in data_files(data).values()}
        return replay_entries(entries, extra)
    return client_of(ctx).game(source)
