"""Checking logs: `pbem verify` (one file, many, a folder, a mailbox, evidence files),
`pbem evidence`, `pbem standings` and `pbem replay`.

One file's report is pbem.reporting's, as the light entry point (pbem.cli) gives it; many
files are verified by pbem.verify_many, and this module only prints their lines.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem import escape
from pbem.cli.common import data_files, emit, fail, load_any, read_input, say
from pbem.cli.options import data_option, game_or_file_argument, json_option, output_option
from pbem.reporting import print_report, verify_file

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pbem.core.log import Entry
    from pbem.verify_many import Progress, Task


@click.command()
@click.argument("sources", metavar="SOURCE...", nargs=-1, required=True)
@data_option()
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    help="Verify several files (or every *.pbem of a folder) in N worker processes: "
    "one line per file, in the order given.",
)
@json_option(
    "Print one JSON document (docs/json.md) on stdout: for each file, ok or its "
    "failure, its game, entries, outcome, witnesses and what cannot be checked yet."
)
def verify(
    sources: tuple[str, ...], data: tuple[str, ...], jobs: int | None, as_json: bool
) -> None:
    """Replay and check a whole game from SOURCE; exit 0 only if every check holds.

    Several SOURCEs, a folder (every *.pbem file in it), a mailbox (an mbox file or a
    Maildir folder: every game in it) or --jobs: one result line per file or game, in
    the order given, and exit 1 if any fails.
    """
    from pbem import verify_many as many
    from pbem.evidence import is_evidence_file
    from pbem.verify import verify_text

    files = data_files(data)
    if any(source != "-" and is_evidence_file(source) for source in sources):
        _verify_evidence(sources, files, as_json)  # evidence files (docs/evidence.md)
        return
    if as_json:
        _verify_json(sources, files, jobs)
        return
    tasks: list[Task] | None = None
    if len(sources) == 1 and jobs is None and not Path(sources[0]).is_dir():
        source = sources[0]
        if source == "-":
            print_report(verify_text(read_input(source), files), click.echo, fail)
            return
        tasks = _tasks(sources, files)
        if len(tasks) == 1 and (tasks[0][3] is None or tasks[0][3][2] is not None):
            # One game (an mbox of one game too): its full report, as `pbem.cli` gives it;
            # a turn page's first says what of it is checked (its game, not its text).
            from pbem.transport.movefile import turn_page_note

            note = turn_page_note(source)
            if note is not None:
                click.echo(note)
            verify_file(source, files, click.echo, fail)
            return
    tasks = tasks if tasks is not None else _tasks(sources, files)
    failed = unchecked = 0
    progress = _progress(len(tasks))
    for ok, line in many.verify_many(many.verify_line, tasks, jobs):
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
        fail("; ".join(said))


@click.command()
@click.argument("sources", metavar="SOURCE...", nargs=-1)
@output_option("Write the evidence file to FILE (else stdout).", metavar="FILE")
@click.option(
    "--unpack",
    nargs=2,
    type=click.Path(),
    metavar="FILE DIR",
    help="Write an evidence file's entries for ssh-keygen into DIR: entry-SEQ-N.json, "
    "entry-SEQ-N.sig, allowed_signers and check.sh.",
)
@data_option(None)
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
            fail("--unpack FILE DIR takes no SOURCE and no -o")
        try:
            written = proofs.unpack(read_input(unpack[0]), Path(unpack[1]))
        except proofs.NotProven as exc:
            fail(f"cannot unpack {unpack[0]}: {exc}")
        except OSError as exc:
            fail(f"cannot write into {unpack[1]}: {exc.strerror}")
        say(f"wrote {len(written)} files to {unpack[1]}: run sh {Path(unpack[1]) / 'check.sh'}")
        return
    if not sources:
        fail("give the log to search (SOURCE...), or --unpack FILE DIR")
    entries: list[Entry] = []
    for source in sources:
        try:
            entries += parse_entries(read_input(source))
        except PbemError as exc:
            fail(f"{source}: {str(exc).partition(chr(10))[0]}")
    try:
        proof = proofs.find(entries, data_files(data))
    except proofs.NotProven as exc:
        fail(f"no provable cheat in the log: {exc}")
    emit(proofs.render(proof), output, f"wrote {output}: {proof.line()}")


def _verify_evidence(sources: tuple[str, ...], files: dict[str, bytes], as_json: bool) -> None:
    """`pbem verify` of evidence files: PROVEN or NOT PROVEN for each (exit 1 if any is
    not proven); with --json one document whose records carry `evidence`."""
    import json

    from pbem import evidence as proofs

    records: list[dict[str, Any]] = []
    for source in sources:
        if source == "-" or not proofs.is_evidence_file(source):
            fail(f"{source} is not an evidence file: verify evidence files on their own")
        try:
            proof = proofs.check(read_input(source), files)
        except proofs.NotProven as exc:
            line = f"NOT PROVEN: {exc}"
            document = proofs.not_proven_document(str(exc))
        else:
            line, document = proof.line(), proof.document()
        ok = bool(document["proven"])
        error = None if ok else line
        records.append({"file": source, "ok": ok, "error": error, "evidence": document})
        if not as_json:
            say(escape.terminal_line(line if len(sources) == 1 else f"{source}: {line}"))
    if as_json:
        document = {"schema": 1, "ok": all(r["ok"] for r in records), "files": records}
        click.echo(json.dumps(document, indent=2, ensure_ascii=True))
    failed = sum(not r["ok"] for r in records)
    if failed:
        sys.exit(1)


@click.command()
@click.argument("sources", metavar="SOURCE...", nargs=-1, required=True)
@json_option(
    "Print one JSON document on stdout: the table, the games counted and the files "
    "left out with the reason."
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
        fail(str(exc))
    paths = _paths(sources)
    if "-" in paths:
        fail("standings read files, not stdin")
    found = league.league(league.source_results(paths), players)
    if as_json:
        click.echo(json.dumps(league.document(found), indent=2, sort_keys=True))
        return
    for line in league.lines(found):
        say(line)


def _verify_json(sources: tuple[str, ...], files: dict[str, bytes], jobs: int | None) -> None:
    """`pbem verify --json`: one document for every file or game (pbem.render.jsonout),
    streamed as the records come; then, if any failed, the error line `pbem verify` says
    without --json (exit 1)."""
    from pbem.render.jsonout import stream_verify, verify_one
    from pbem.verify_many import verify_many

    tasks = _tasks(sources, files)
    progress = _progress(len(tasks))

    def documents() -> Iterator[dict[str, Any]]:
        for document in verify_many(verify_one, tasks, jobs):
            progress.step(bool(document["ok"]))
            yield document
        progress.close()

    stream_verify(documents(), lambda text: click.echo(text, nl=False), fail)


def _paths(sources: tuple[str, ...]) -> list[str]:
    """The files SOURCE... stands for (pbem.verify_many.source_paths), or its error line."""
    from pbem.verify_many import SourceError, source_paths

    try:
        return source_paths(sources)
    except SourceError as exc:
        fail(str(exc))


def _tasks(sources: tuple[str, ...], files: dict[str, bytes]) -> list[Task]:
    """What to verify (pbem.verify_many.verify_tasks), or its error line."""
    from pbem.verify_many import SourceError, verify_tasks

    try:
        return verify_tasks(sources, files, sys.stdin.buffer.read)
    except SourceError as exc:
        fail(str(exc))


def _progress(total: int) -> Progress:
    """The progress line of `total` files or games, on stderr (pbem.verify_many.Progress)."""
    from pbem import verify_many as many

    shown = many.progress_shown(total, sys.stderr.isatty)
    return many.Progress(total, shown, say, lambda text: click.echo(text, err=True, nl=False))


@click.command()
@game_or_file_argument("source")
@click.option("--step", is_flag=True, help="Pause after each entry.")
@data_option(None)
@click.pass_context
def replay(ctx: click.Context, source: str, step: bool, data: tuple[str, ...]) -> None:
    """Print a game's history with its RNG log, from a file or a stored GAME id."""
    from pbem.render.show import history_lines

    game = load_any(ctx, source, data)
    for line in history_lines(game):
        say(line)
        if step and line.startswith("seq "):
            click.pause()


COMMANDS = (verify, evidence, standings, replay)
