"""What a command reports: a verification's lines and verdict, and an error as one line.

Shared by the light entry point (`pbem.cli`, which answers `pbem verify FILE` without
click) and the click commands (`pbem.cli.verify`), so that both say exactly the same.
Imports stay inside the functions: the fast path imports nothing it does not use.
"""

from __future__ import annotations

# (mypy reads the block below; Python never runs it: see pbem.cli)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn, TypeAlias

    from pbem.verify import Report

    Echo: TypeAlias = Callable[[str], None]
    Fail: TypeAlias = Callable[[str], NoReturn]


def verify_file(source: str, files: dict[str, bytes], echo: Echo, fail: Fail) -> None:
    """`pbem verify SOURCE` for one file: the report's lines, then OK or the failure."""
    from pbem.ledger import cold_engine_by_name
    from pbem.verify import verify_path

    # A save is streamed (memory stays flat however long the game); a genesis-only file
    # needs no more of its game than the facts the cache keeps (cold_engine_by_name).
    print_report(verify_path(source, files, cold_engine_by_name), echo, fail)


def print_report(report: Report, echo: Echo, fail: Fail) -> None:
    """A verification's lines, then OK; or NOT CHECKED or PROVEN with its reason (on
    stdout, exit 1: pbem.verdicts); or the failure (exit 1); escaped for a terminal,
    since they quote the file's own text (titles, roles, decisions)."""
    import sys

    from pbem.escape import terminal, terminal_line

    echo(terminal("\n".join(report.lines)))
    if report.verdict in ("not-checked", "proven"):
        echo(terminal_line(report.tail()))
        sys.exit(1)
    if not report.ok:
        failure = report.failure or "verification failed"
        first, _, rest = failure.partition("\n")
        if rest:
            echo(terminal(failure))  # an equivocation proof goes to stdout in full
        fail(terminal_line(first))
    echo("OK: every check holds")


def report_error(exc: BaseException, echo: Echo, fail: Fail) -> None:
    """Turn an error a command let through into its one-line message and exit 1; return
    (for the caller to raise it again) when it is not one pbem reports."""
    from pbem.errors import EquivocationError, PbemError
    from pbem.escape import terminal, terminal_line

    # An error may quote an entry's or a mail's text: escaped for the terminal.
    if isinstance(exc, EquivocationError):
        echo(terminal(exc.proof))  # the proof in full, for the referee
        fail(terminal(str(exc)))
    if isinstance(exc, PbemError):
        fail(terminal_line(str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
    if isinstance(exc, OSError):
        fail(terminal_line(f"{exc.filename or 'file'}: {exc.strerror or exc}"))
