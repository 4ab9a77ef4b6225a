"""The `pbem` command's entry point, kept light so that the commonest commands start fast.

The click application (every command, its options and its help) is `pbem.cli.app` and
the command modules beside it; `main` here is its group, imported on first use (`from
pbem.cli import main`).
This module is what the `pbem` script and `python -m pbem` run. Importing click and the
commands takes about twice an interpreter's own start, so three commands are
answered without them:

* `pbem --help`: the text click rendered, for the same program name, terminal width and
  language, read from the user's cache (pbem.cache) while none of the files it came
  from has changed; the first run renders it with click and caches it;
* `pbem verify FILE`: verified and reported by `verify_file`, the function the click
  command itself uses, with failures turned into the same one-line errors
  (`pbem.reporting`, which the click commands use too), and a turn page's line first
  (`turn_page_note`) as the command says it; `pbem verify --json FILE` (or
  `FILE --json`) likewise, by the functions of pbem.render.jsonout the command uses;
* `pbem show GAME`: the text the click command printed the last time, kept in the
  user's cache (pbem.render.show_memo) while the store's head of that game, its keys and
  the code are unchanged (only for a game whose store holds no sealed secret); else
  shown by `show_memo.shown`, the function the click command uses, its failures the
  same one-line errors.

Anything else, and these three in any other form (another option, a folder, stdin, a
shell-completion request, an output stream click would have to repair), goes to click.
"""

from __future__ import annotations

import codecs
import io
import os
import sys

# Only modules the interpreter has loaded before running any code: even `typing` would be
# a tenth of a fast `pbem --help`. (mypy reads the block below; Python never runs it.)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

    import click


# --- without click ----------------------------------------------------------------------------


def _plain(stream: Any) -> bool:
    """Whether click.echo would write to `stream` as it is: a text stream with an encoding
    and an error handler, the encoding not ASCII (click rewraps such a stream)."""
    if not isinstance(stream, io.TextIOBase):
        return False
    encoding, errors = getattr(stream, "encoding", None), getattr(stream, "errors", None)
    if not encoding or not errors:
        return False
    try:
        return codecs.lookup(encoding).name != "ascii"
    except LookupError:
        return False


def _echo(text: str, err: bool = False) -> None:
    """click.echo(text, err=err) where it is the same as writing the line: on a plain stream
    and with no escape character (which click strips when writing to a file)."""
    stream = sys.stderr if err else sys.stdout
    if "\x1b" in text or not _plain(stream):
        import click

        click.echo(text, err=err)
        return
    stream.write(text + "\n")
    stream.flush()


def _fail(message: str) -> NoReturn:
    _echo(f"error: {message}", err=True)
    sys.exit(1)


def _completing() -> bool:
    # click answers a shell-completion request (_<PROG>_COMPLETE set) instead of running.
    return any(name.endswith("_COMPLETE") for name in os.environ)


def _help_key() -> tuple[Any, ...]:
    """Everything click's rendering of `--help` depends on besides files: the program name
    (from the main module and argv[0]), the terminal width (COLUMNS, LINES, or the
    terminal's size) and the language of the messages."""
    size: tuple[int, int] | None
    try:
        columns, lines = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
        size = (columns, lines)
    except (AttributeError, ValueError, OSError):
        size = None
    main_module = sys.modules.get("__main__")
    environ = os.environ
    return (
        getattr(main_module, "__package__", None),
        sys.argv[0],
        size,
        *(environ.get(name) for name in ("COLUMNS", "LINES", "LANGUAGE", "LC_ALL")),
        *(environ.get(name) for name in ("LC_MESSAGES", "LANG")),
    )


def _program_name() -> str:
    """The program name click's help shows (click.utils._detect_program_name, on POSIX)."""
    main_module = sys.modules.get("__main__")
    package = getattr(main_module, "__package__", None)
    if package in (None, ""):
        return os.path.basename(sys.argv[0])
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    module = str(package) if name == "__main__" else f"{package}.{name}"
    return f"python -m {module.lstrip('.')}"


def _columns() -> int:
    """The terminal width click's help is wrapped to (shutil.get_terminal_size's columns)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
        columns = columns or 80
    return columns


def _untranslated() -> bool:
    """Whether click's messages ("Usage:", "Options:") are its own English: gettext finds a
    translation only as a messages.mo in the interpreter's locale folder (click binds no
    folder of its own), so with none there, for any language, there is none."""
    folder = os.path.join(sys.base_prefix, "share", "locale")
    try:
        languages = os.listdir(folder)
    except OSError:
        return True
    return not any(
        os.path.exists(os.path.join(folder, language, "LC_MESSAGES", "messages.mo"))
        for language in languages
    )


def _shipped_help() -> str | None:
    """The help text shipped with pbem (pbem.prebuilt), when click would render that text
    here: for its program name, on a terminal of 80 columns or more, untranslated; and
    only while every file it was rendered from is unchanged (pbem.cache.prebuilt)."""
    program = _program_name()
    if program not in ("pbem", "python -m pbem") or _columns() < 80 or not _untranslated():
        return None
    from pbem import cache

    text = cache.prebuilt("help", program.replace(" ", "_"), (program, 78), _help_key())
    return text if isinstance(text, str) else None


def _fast() -> None:
    """Answer `pbem --help` or `pbem verify FILE` without click, exiting; else return."""
    args = sys.argv[1:]
    if os.name != "posix" or _completing() or not _plain(sys.stdout):
        return
    if args == ["--help"]:
        from pbem import cache

        text = cache.get("help", _help_key())
        if not isinstance(text, str):
            text = _shipped_help()
        if isinstance(text, str):
            _echo(text)
            sys.exit(0)
        return
    if len(args) == 2 and args[0] == "show" and not args[1].startswith("-"):
        _show(args[1])
        return
    as_json = len(args) == 3 and "--json" in args[1:]
    if as_json:
        args = [arg for arg in args if arg != "--json"]
    if len(args) != 2 or args[0] != "verify" or args[1].startswith("-"):
        return
    if os.path.isdir(args[1]) or not _plain(sys.stderr):
        return
    from pbem.verify import mailbox_kind

    if mailbox_kind(args[1]) is not None:
        return  # an mbox: one line per game (pbem.cli.verify)
    from pbem.evidence import is_evidence_file

    if is_evidence_file(args[1]):
        return  # an evidence file (pbem.evidence): pbem.cli.verify checks it
    from pbem.reporting import report_error, verify_file

    try:
        if as_json:
            from pbem.render.jsonout import print_verify, verify_one

            print_verify([verify_one((args[1], None, {}))], _echo, _fail)
        else:
            from pbem.transport.movefile import turn_page_note

            note = turn_page_note(args[1])
            if note is not None:
                _echo(note)  # (as pbem.cli.verify says it)
            verify_file(args[1], {}, _echo, _fail)
    except (EOFError, KeyboardInterrupt):
        _echo("", err=True)  # as click does before it aborts
        _fail("aborted")
    except Exception as exc:
        report_error(exc, _echo, _fail)
        raise
    sys.exit(0)


def _show(prefix: str) -> None:
    """`pbem show GAME`, exiting: the text kept the last time while nothing it depends on
    has changed (pbem.render.show_memo: the store's head and keys, the code), else shown
    as the click command shows it (`shown`), its failures the same one-line errors."""
    from pbem import escape
    from pbem.render.show_memo import kept
    from pbem.store.home import home_folder

    text = kept(home_folder(), prefix)
    if text is None:
        if not _plain(sys.stderr):
            return
        from pbem.reporting import report_error

        try:
            from pbem.client import Client
            from pbem.render.show_memo import shown
            from pbem.store import Store

            text = shown(Client(Store(None), _passphrase), prefix)
        except (EOFError, KeyboardInterrupt):
            _echo("", err=True)  # as click does before it aborts
            _fail("aborted")
        except Exception as exc:
            report_error(exc, _echo, _fail)
            sqlite3 = sys.modules.get("sqlite3")  # (as pbem.cli.app.PbemGroup says it)
            if sqlite3 is not None and isinstance(exc, sqlite3.DatabaseError):
                _fail(escape.terminal_line(f"the local store cannot be used: {exc}"))
            raise
    _echo(escape.terminal(text))  # as `say` prints it (pbem.cli.common)
    sys.exit(0)


def _passphrase(name: str) -> bytes | None:
    """A key's passphrase as the click commands ask it (click loaded only to prompt)."""
    from pbem.cli.common import _passphrase as ask

    return ask(name)


def _cache_help(group: click.Group) -> None:
    """Render `pbem --help` as click prints it, and cache it for the next start."""
    from pbem import cache

    if cache.folder() is None:
        return  # caching is off: nothing to render twice for
    import click
    from click.utils import _detect_program_name

    text = group.get_help(click.Context(group, info_name=_detect_program_name()))
    deps = cache.deps_of([*cache.module_files("pbem"), *cache.module_files("click")])
    cache.put("help", _help_key(), deps, text)


def _group() -> click.Group:
    from pbem.cli.app import main as group

    return group


class _Main:
    """`pbem.cli.main`: the click group of pbem.cli.app, imported on first use; called
    with no arguments (as the `pbem` script calls it), it first tries the fast paths."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs:
            _fast()
            group = _group()
            if sys.argv[1:] == ["--help"] and os.name == "posix" and not _completing():
                _cache_help(group)
            return group(*args, **kwargs)
        return _group()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(_group(), name)


if TYPE_CHECKING:
    main: click.Group
else:
    main = _Main()
