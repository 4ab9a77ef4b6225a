"""Verifying many files or games at once: `pbem verify` of several SOURCEs, a folder, a
mailbox, or with --jobs (pbem.cli.verify prints what this finds).

What to verify is listed first, in the order given (`verify_tasks`: a file; every *.pbem
of a folder; every game of a mailbox); `verify_many` then verifies the tasks in this
process or in worker processes and yields each result in that order, as it comes.
`verify_line` is one task's result as its line of the report, and `Progress` the
`verifying 120/2000, 3 failed` line drawn on a terminal meanwhile.

Imports stay inside the functions: a worker imports what its task needs, and the command
line loads this module only when it verifies more than one file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from pbem.errors import PbemError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from pbem.verify import MailGame

# One file or one game to verify: (the name its result line or record gives, the bytes
# read from stdin or None, the --data files, the game of a mailbox or None).
Task = tuple[str, "bytes | None", "dict[str, bytes]", "MailGame | None"]

_Result = TypeVar("_Result")


class SourceError(PbemError):
    """A SOURCE that gives nothing to verify (an empty folder, stdin twice, a mailbox that
    cannot be read): the command's one error line, said before any result."""


def source_paths(sources: Sequence[str]) -> list[str]:
    """The files to verify, in the order given; a folder stands for its *.pbem files,
    sorted, and a Maildir folder (cur/ and new/ in it) for itself."""
    from pathlib import Path

    from pbem.verify import mailbox_kind

    paths: list[str] = []
    for source in sources:
        folder = Path(source)
        if source != "-" and folder.is_dir() and mailbox_kind(source) is None:
            found = sorted(str(p) for p in folder.glob("*.pbem") if not p.is_dir())
            if not found:
                raise SourceError(f"no *.pbem files in folder {source}")
            paths += found
        else:
            paths.append(source)
    if paths.count("-") > 1:
        raise SourceError("stdin (-) can be read only once")
    return paths


def verify_tasks(
    sources: Sequence[str], files: dict[str, bytes], read_stdin: Callable[[], bytes]
) -> list[Task]:
    """What to verify, in the order given: a file; every *.pbem of a folder; every game of
    a mailbox (an mbox file, a Maildir folder), each named `MAILBOX#<game id prefix>`;
    stdin (-), read once with `read_stdin`."""
    from pbem.verify import mail_game_label, mailbox_games, mailbox_kind

    paths = source_paths(sources)
    stdin = read_stdin() if "-" in paths else None
    tasks: list[Task] = []
    for path in paths:
        kind = mailbox_kind(path)
        if kind is None:
            tasks.append((path, stdin if path == "-" else None, files, None))
            continue
        try:
            for game in mailbox_games(path, kind):
                tasks.append((mail_game_label(game), None, files, game))
        except (PbemError, OSError) as exc:
            raise SourceError(f"cannot read {kind} {path}: {exc}") from exc
    return tasks


def verify_many(
    verify_one: Callable[[Task], _Result], tasks: list[Task], jobs: int | None
) -> Iterator[_Result]:
    """Each task's result in the order given, as it comes: in this process, or in `jobs`
    worker processes (pool.imap, so only the results not yet printed are held).
    `verify_one` is module level, for a worker process to run it: `verify_line`, or
    pbem.render.jsonout.verify_one for a JSON record."""
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


def verify_line(task: Task) -> tuple[bool, str]:
    """Verify one file (streamed by `pbem.verify.verify_path` when it is a save on disk)
    or one game of a mailbox: (ok, its one result line). A failure's line ends with the
    failure's name and the entry to blame: `[rules, entry 7 by german]`.

    Module level so that a worker process can run it; it returns only a line, never the
    replayed game, so nothing large crosses back to the parent.
    """
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


def progress_shown(count: int, isatty: Callable[[], bool]) -> bool:
    """Whether `pbem verify` draws its progress line: several files or games, and stderr
    (where it goes; never stdout) a terminal, with or without --json."""
    return count > 1 and isatty()


class Progress:
    """`verifying 120/2000, 3 failed`, redrawn in place with \\r (at most ten times a
    second), moved out of the way of each result line, cleared at the end.

    `echo` prints a result line (stdout); `draw` writes the progress line's text as it is,
    with no newline (stderr).
    """

    def __init__(
        self,
        total: int,
        shown: bool,
        echo: Callable[[str], None],
        draw: Callable[[str], None],
    ) -> None:
        self.total, self.shown = total, shown
        self.echo, self.draw = echo, draw
        self.done = self.failed = 0
        self.drawn = ""
        self.when = 0.0

    def say(self, line: str, ok: bool) -> None:
        """A result line on stdout, then the progress line again."""
        self._clear()
        self.echo(line)
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
            self.draw(self.drawn)

    def close(self) -> None:
        self._clear()

    def _clear(self) -> None:
        if self.drawn:
            self.draw("\r" + " " * len(self.drawn) + "\r")
            self.drawn = ""
