"""Full verification of a game from any text that holds its entries (save, mail, thread).

Replays every entry from genesis: armor, canonical form, signatures, the hash
chain of entries, each role's reveals, turn order, every rule, every roll. A
save's RNG log must equal the recomputed one. The first failure names the
entry, its signer and the reason; two validly signed entries for one seq are
printed as an equivocation proof.

A save file (or a save pasted into a mail) is read strictly: its own entries exactly
once each, in seq order, and its header's `game:` and `entries:` lines equal to the
recomputed ones. Other texts (move files, mail threads) are read leniently: entries
in any order, identical copies dropped. `verify_path` reads a save file from disk as a
stream, keeping only the entry index, not the entries (see docs/protocol-notes.md).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from pbem import digests, verdicts
from pbem.core.adjudicator import Adjudicator, EntryRefused, Sealed, data_digest
from pbem.core.engine import Engine
from pbem.core.log import GENESIS, Entry, UntrustedTextError
from pbem.core.rng import RngRecord
from pbem.errors import PbemError
from pbem.hints import TYPE_CHECKING
from pbem.ledger import (
    DISK_TABLES,
    check_signature,
    data_source,
    engine_by_name,
    find_equivocation,
    find_fork,
    fingerprint,
    replay,
)
from pbem.noise import set_aside
from pbem.record import MutableRecord
from pbem.transport.armor import BEGIN, END, decode_lines, decode_payload, find_entries
from pbem.transport.blocklines import BlockLines
from pbem.transport.movefile import extract_text, read_entries
from pbem.transport.savefile import (
    SAVE_MAGIC,
    RngDigest,
    RngLogError,
    SaveHeader,
    SaveSection,
    breaks_line,
    check_rng_log,
    holds_record,
    is_rng_header,
    is_save_magic,
    line_marker,
    plain_header_line,
    printed_rng_digest_of,
    save_result,
    save_sections,
)
from pbem.verdicts import Verdict

if TYPE_CHECKING:
    from typing import BinaryIO

    from pbem.core.replay import RngSink


class Report(
    MutableRecord,
    fields=("ok", "lines", "failure", "game", "bad", "cheat", "verdict", "set_aside"),
):
    """What a verification found: every line of the summary, and the failure if any.

    `verdict` is "ok", "failed", or, for a log that holds, pbem.verdicts' "not-checked"
    or "proven" (`ok` only for "ok"; `failure` then holds the verdict's line). `bad` is
    the entry to blame: the first entry refused, or the entry of a proven lie (None: no
    one entry is to blame, or the game verifies); `cheat` the failure's short name
    (pbem.failures.NAMES; None when ok or not checked). `set_aside`: seq -> how many
    damaged copies of that entry were set aside as an outsider's noise (pbem.noise),
    in seq order. A record (pbem.record), as
    @dataclass would make it."""

    ok: bool
    lines: list[str]
    failure: str | None
    game: Adjudicator | None
    bad: Entry | None
    cheat: str | None
    verdict: str
    set_aside: dict[int, int]

    def __init__(
        self,
        ok: bool,
        lines: list[str] | None = None,
        failure: str | None = None,
        game: Adjudicator | None = None,
        bad: Entry | None = None,
        cheat: str | None = None,
        verdict: str | None = None,
        set_aside: dict[int, int] | None = None,
    ) -> None:
        self.ok = ok
        self.lines = [] if lines is None else lines
        self.failure = failure
        self.game = game
        self.bad = bad
        self.cheat = cheat
        self.verdict = verdict or ("ok" if ok else "failed")
        self.set_aside = {} if set_aside is None else set_aside

    def fail(self, failure: str, bad: Entry | None = None, cheat: str | None = None) -> Report:
        """Record the failure, the entry to blame and its name (from the reason when not
        given: pbem.failures); returns the report."""
        from pbem.failures import classify

        self.ok = False
        self.failure = failure
        self.bad = bad
        self.cheat = cheat or classify(failure)
        self.verdict = "failed"
        return self

    def settle(self, verdict: Verdict, bad: Entry | None) -> Report:
        """The verdict on a log that holds (pbem.verdicts): OK, NOT CHECKED or PROVEN (a
        lie the log proves, `bad` the entry of the lie); returns the report."""
        self.verdict = verdict.kind
        self.ok = verdict.kind == verdicts.OK
        self.failure = verdict.text
        self.bad = bad if verdict.kind == verdicts.PROVEN else None
        self.cheat = "false-claim" if verdict.kind == verdicts.PROVEN else None
        return self

    def tail(self) -> str:
        """The verdict line: OK, NOT CHECKED, PROVEN or FAILED, with its reason."""
        if self.ok:
            return "OK: every check holds"
        word = {"not-checked": "NOT CHECKED", "proven": "PROVEN"}.get(self.verdict, "FAILED")
        return f"{word}: {self.failure or 'verification failed'}"

    def text(self) -> str:
        return "\n".join([*self.lines, self.tail()])


def parse_entries(data: bytes | str) -> list[Entry]:
    """Every entry in a text, in order; damage is reported as damage, never as a rules error."""
    return _entries(read_entries(data))


class _Damaged(PbemError):
    """A text whose entries are damaged; `entry` is the one whose signature fails, if found."""

    def __init__(self, message: str, entry: Entry | None = None) -> None:
        super().__init__(message)
        self.entry = entry


def _entries(found: list[tuple[bytes, bytes]]) -> list[Entry]:
    entries = []
    untrusted: tuple[int, UntrustedTextError] | None = None
    for number, (canonical, signature) in enumerate(found, start=1):
        try:
            entries.append(Entry.from_wire(canonical, signature))
        except UntrustedTextError as exc:
            untrusted = untrusted or (number, exc)
            entries.append(exc.entry)  # (only to look for damage below, never replayed)
        except PbemError as exc:
            raise PbemError(
                f"entry block {number} is damaged: its signed bytes are not a valid entry ({exc})"
            ) from None
    if untrusted is not None:
        # Refused whatever else holds; damage first, as everywhere: a changed byte can make
        # the text bad too, and then the reader must learn that the text is damaged.
        number, refused = untrusted
        geneses = [e for e in entries if e.kind == GENESIS]
        damage = _bad_signature_entry(entries, _only(geneses), _numbers(entries))
        if damage is not None:
            raise _Damaged(damage[1], damage[0])
        raise _Damaged(f"{refused} (entry block {number} of the text)")
    return entries


def verify_text(
    data: bytes | str,
    extra_data: Mapping[str, bytes] | None = None,
    engines: Callable[[str], Engine] = engine_by_name,
) -> Report:
    """Verify a whole game from any text holding its entries: a save, a mail, an mbox, a thread.

    `engines` finds a game's engine by name (ledger.cold_engine_by_name: from its cached
    facts when that is all the text needs)."""
    with _collector_paused():
        return _verify_text(data, extra_data, engines)


def verify_entries(
    entries: list[Entry],
    extra_data: Mapping[str, bytes] | None = None,
    engines: Callable[[str], Engine] = engine_by_name,
) -> Report:
    """Verify a whole game from its entries read out of mail (any order, copies dropped),
    as `verify_text` reads a move file; no save rules and no printed RNG log to compare."""
    if not entries:
        return Report(ok=False).fail("no PBEM entries found")
    with _collector_paused():
        return _verify_found(entries, None, extra_data, engines)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while a whole game is verified, then restored.

    A verification keeps every entry, action and RNG record of the game alive and makes no
    reference cycles (the replayed games of every title leave none to collect), so the
    collector's passes over the growing heap find nothing and cost about 4% of verifying
    a 10,000-entry log (bench/verify.py). Memory is still freed as usual, by reference
    counting. Turned on again only if it was on, so nested and concurrent verifications
    leave it as they found it. (The streaming path of a save, verify_path, keeps little
    alive and is left alone.)"""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# Net new containers between two passes of the youngest generation while a file streams
# (Python's default is 700).
_STREAM_YOUNG = 50_000


@contextmanager
def _collector_eased() -> Iterator[None]:
    """Python's cycle collector eased while a file streams through verify_path, then
    restored: left on, as a bound on memory should anything made on the way hold a cycle.

    Each of its passes would walk the objects the process already holds (modules, a game's
    prebuilt tables) though the verification makes none of them, and would come every 700
    net new containers though an entry's applied state replaces the last one's: about 2%
    of verifying Götterdämmerung's or Race to the Sea's demo save (bench/verify_instructions.py).
    So the objects already held are frozen (gc.freeze: out of every pass, until unfrozen
    here) and the youngest generation is collected every _STREAM_YOUNG containers. Done
    only when nothing is frozen and the threshold is not already raised, so a nested or
    concurrent verification, or a program that freezes objects itself, finds its own
    settings untouched."""
    threshold = gc.get_threshold()
    if gc.get_freeze_count() or threshold[0] >= _STREAM_YOUNG:
        yield
        return
    gc.freeze()
    gc.set_threshold(_STREAM_YOUNG, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _verify_text(
    data: bytes | str, extra_data: Mapping[str, bytes] | None, engines: Callable[[str], Engine]
) -> Report:
    text = extract_text(data)
    try:
        found = _entries(find_entries(text))
    except _Damaged as exc:
        return Report(ok=False).fail(str(exc), exc.entry)
    except PbemError as exc:
        return Report(ok=False).fail(str(exc))
    if not found:
        return Report(ok=False).fail("no PBEM entries found")
    return _verify_found(found, text, extra_data, engines)


def _verify_found(
    found: list[Entry],
    text: str | None,
    extra_data: Mapping[str, bytes] | None,
    engines: Callable[[str], Engine],
) -> Report:
    """Verify the entries `found` in a text (`text`: its saves are read strictly and their
    RNG logs compared; None: entries from mail, read leniently only)."""
    report = Report(ok=False)
    entries, noise = set_aside(_unique(found))
    geneses = [e for e in entries if e.kind == GENESIS]
    if len(geneses) == 1:
        proof = find_equivocation(geneses[0], entries)
        if proof is not None:
            return report.fail(proof.proof(), proof.second, "equivocation")
        # Two branches and no equivocation where they part (it is not in this text): the
        # log is not one game, and no one entry is to blame (issue 27, item 6).
        fork = find_fork(geneses[0], entries)
        if fork is not None:
            return report.fail(fork.text(), None, "chain")
    saves = save_sections(text) if text is not None else []
    strict = _check_saves(saves, found, geneses[0] if len(geneses) == 1 else None)
    if strict is not None:
        # Damage first, as below: a changed seq or author reads as a misplaced entry.
        damaged = _damage(report, found, _only(geneses), found)
        return damaged or report.fail(*strict)
    _say_set_aside(report, noise)
    if len(geneses) != 1:
        damaged = _damage(report, entries, None, found)
        return damaged or report.fail(f"expected one genesis entry, found {len(geneses)}")
    genesis = geneses[0]
    ordered = _in_order(genesis, entries)
    extra = {data_digest(c): c for c in (extra_data or {}).values()}
    game: Adjudicator | None = None
    try:
        game = replay(ordered, extra, engines)
    except (EntryRefused, PbemError) as exc:
        failure = str(exc)
        # Damage first: a damaged entry can make a later, intact one look out of place
        # (a changed seq or author), and the reader must learn that the text is damaged.
        if "signature" not in failure:
            damaged = _damage(report, ordered, genesis, found, _accepted(ordered, exc))
            if damaged is not None:
                return damaged
        bad = _refused_entry(exc)
        return report.fail(failure, bad, _name(exc, bad))
    report.game = game
    with game.outcome_pinned():  # (asked by each part of the report below)
        return _report_replayed(report, game, ordered, text, saves)


def _report_replayed(
    report: Report,
    game: Adjudicator,
    ordered: list[Entry],
    text: str | None,
    saves: list[SaveSection],
) -> Report:
    """`_verify_found`'s report of a log that replays: its summary, and its verdict once
    the commitments, the RNG log and the save headers are checked."""
    report.lines += _summary(game)
    first = _unopened_at_end(game)
    if first is not None:
        return report.fail(
            f"entry {first.seq} by {first.role}: commitment {first.label} was never opened, "
            "but every commitment must be opened by the end of the game",
            next((e for e in ordered if e.seq == first.seq), None),
            "unopened",
        )
    verdict = verdicts.of(game)
    lied = next((e for e in ordered if e.seq == verdict.seq), None)
    if text is None:
        return report.settle(verdict, lied)
    computed = [r.line() for r in game.rng_log]
    try:
        sections = check_rng_log(text, computed)
    except RngLogError as exc:
        return report.fail(str(exc), None, "rng-log")
    if sections:
        copies = "" if sections == 1 else f" (in each of its {sections} copies)"
        report.lines.append(f"RNG log: {len(computed)} lines match the recomputed dice{copies}")
    report.lines += _header_results([save.header for save in saves], game)
    return report.settle(verdict, lied)


def _unopened_at_end(game: Adjudicator) -> Sealed | None:
    """The first commitment still sealed in a game its rules ended, without a referee who
    holds them (a double-blind game's referee discloses them: pbem.verdicts); None when
    there is none. (A resignation, a draw or a forfeit may leave values sealed, listed as
    unchecked; a double-blind game's own end makes the rest moot.)"""
    if game.double_blind or verdicts.basis(game) != "rules":
        return None
    sealed = game.unopened()
    return min(sealed, key=lambda s: s.seq) if sealed else None


def _header_results(headers: list[SaveHeader], game: Adjudicator) -> list[str]:
    """A line for each different `result:` a save header gives that the log does not
    (issue 27, item 12): reported, never a failure (SaveHeader.result_disagrees)."""
    computed = save_result(game)
    said = (header.result_disagrees(computed) for header in headers)
    return list(dict.fromkeys(line for line in said if line is not None))


def _refused_entry(exc: PbemError) -> Entry | None:
    """The entry an EntryRefused names (None for any other failure)."""
    return exc.entry if isinstance(exc, EntryRefused) else None


def _name(exc: PbemError, bad: Entry | None) -> str:
    from pbem.failures import classify

    if isinstance(exc, EntryRefused):
        return classify(exc.reason, bad.kind if bad is not None else "")
    return classify(str(exc))


# --- mailboxes of many games ----------------------------------------------------------------

# A game found in a mailbox, to verify in a worker: (mailbox path, "mbox" or "Maildir",
# the game's id, the keys of the messages holding its entries). Game None: the message
# keys[0] is damaged (or, no keys at all, the mailbox holds no entries). Only keys travel,
# never the messages, so an archive of thousands of games is read one game at a time.
MailGame = tuple[str, str, str | None, tuple[str, ...]]


def mailbox_kind(path: str) -> str | None:
    """ "Maildir" for a folder with cur/ and new/, "mbox" for a file (not a *.pbem save)
    whose first line starts with "From ", else None (a save, a move file, a mail)."""
    if os.path.isdir(path):
        both = os.path.isdir(os.path.join(path, "cur")) and os.path.isdir(os.path.join(path, "new"))
        return "Maildir" if both else None
    if path == "-" or path.endswith(".pbem"):
        return None
    try:
        with open(path, "rb") as stream:
            return "mbox" if stream.read(5) == b"From " else None
    except OSError:
        return None  # (said when the file itself is verified)


def mailbox_games(path: str, kind: str) -> Iterator[MailGame]:
    """The games of a mailbox, in the order their first entry appears: each with the keys
    of the messages that hold its entries. A damaged message is one item of its own.

    Every message is parsed here and its entries dropped at once (only game ids and keys
    are kept); the worker that verifies a game parses its messages again."""
    from pathlib import Path

    from pbem.transport.mailboxes import MaildirSource, MboxSource
    from pbem.transport.message import parse_message

    games: dict[str, list[str]] = {}
    damaged: list[str] = []
    opened = MaildirSource(Path(path)) if kind == "Maildir" else MboxSource(Path(path))
    with opened as source:
        for key, raw in source.messages():
            try:
                entries = parse_message(raw)
            except PbemError:
                damaged.append(key)
                continue
            for game in dict.fromkeys(_game_of(entry) for entry in entries):
                games.setdefault(game, []).append(key)
    for game, keys in games.items():
        yield path, kind, game, tuple(keys)
    for key in damaged:
        yield path, kind, None, (key,)
    if not games and not damaged:
        yield path, kind, None, ()


def mail_game_label(game: MailGame) -> str:
    """The name of a game's record: `<mailbox>#<game id, first 12 hex>`."""
    path, _, game_id, keys = game
    if game_id is not None:
        return f"{path}#{game_id[:12]}"
    return f"{path}#message-{keys[0]}" if keys else path


def verify_mail_game(
    game: MailGame,
    extra_data: Mapping[str, bytes] | None = None,
    engines: Callable[[str], Engine] = engine_by_name,
) -> Report:
    """Verify one game of a mailbox (`mailbox_games`) from the messages that hold it, read
    leniently as a move file is: any order, identical copies (quoted replies) once."""
    from pbem.transport.message import parse_message

    path, kind, game_id, keys = game
    box = _open_box(path, kind)
    if game_id is None:
        if not keys:
            return Report(ok=False).fail(f"no PBEM entries found in {kind} {path}")
        try:
            parse_message(_message(box, keys[0]))
        except PbemError as exc:
            return Report(ok=False).fail(f"message {keys[0]}: {exc}")
        return Report(ok=False).fail(
            f"message {keys[0]} changed while it was read", None, "unreadable"
        )
    entries = []
    for key in keys:
        try:
            entries += [e for e in parse_message(_message(box, key)) if _game_of(e) == game_id]
        except (PbemError, KeyError) as exc:
            return Report(ok=False).fail(f"message {key}: {exc}", None, "unreadable")
    if not any(entry.kind == GENESIS for entry in entries):
        first = min(entries, key=lambda e: e.seq, default=None)
        return Report(ok=False).fail(f"no genesis for game {game_id[:12]}", first, "chain")
    return verify_entries(entries, extra_data, engines)


def _game_of(entry: Entry) -> str:
    return entry.id if entry.kind == GENESIS else str(entry.game)


# The mailbox a worker last opened: its table of contents is built once, not per game.
# Keyed by this process too: an mbox keeps its file open, and a worker forked from a
# process that had opened it would share that file's read offset with its siblings. And
# by the file's size and time, so that a mailbox written again is read again.
_BOX: dict[tuple[str, int, int, int], object] = {}


def _open_box(path: str, kind: str) -> object:
    import mailbox

    stat = os.stat(path)
    key = (path, os.getpid(), stat.st_mtime_ns, stat.st_size)
    box = _BOX.get(key)
    if box is None:
        _BOX.clear()
        if kind == "Maildir":
            box = mailbox.Maildir(path, factory=None, create=False)
        else:
            box = mailbox.mbox(path, factory=None, create=False)
        _BOX[key] = box
    return box


def _message(box: object, key: str) -> bytes:
    import mailbox

    if isinstance(box, mailbox.mbox):
        # MboxSource names an mbox's messages by their number (typeshed says str keys)
        return box.get_bytes(int(key))  # type: ignore[arg-type]
    assert isinstance(box, mailbox.Maildir)
    return box.get_bytes(key)


# --- streaming a save file --------------------------------------------------------------------


def verify_path(
    path: str | os.PathLike[str],
    extra_data: Mapping[str, bytes] | None = None,
    engines: Callable[[str], Engine] = engine_by_name,
) -> Report:
    """Verify a file. A save file or a move file streams: memory does not grow with the log
    beyond its index.

    The file is read in blocks (pbem.transport.blocklines); each armored entry is decoded
    as it completes and applied to a lean Adjudicator, and a save's printed RNG log is
    compared through a digest of its tokens. Only a save in the plain layout pbem writes,
    or a plain move file of one game's entries in log order (`_verify_moves_stream`),
    that verifies, is read that way; anything else (a mail, a move file in another order
    or with copies, a quoted save, and every failure) is verified by `verify_text` on the
    whole file, which reports exactly what is wrong.
    """
    try:
        with open(path, "rb") as stream, _collector_eased():
            report = _verify_stream(BlockLines(stream), extra_data, engines)
            if report is None:
                stream.seek(0)
                report = _verify_moves_stream(stream, extra_data, engines)
            if report is not None:
                return report
            stream.seek(0)
            data = stream.read()
    except OSError as exc:
        raise PbemError(f"cannot read {os.fspath(path)}: {exc.strerror or exc}") from None
    return verify_text(data, extra_data, engines)


class _Bail(Exception):
    """The streaming path cannot vouch for the save: verify it the in-memory way."""


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


# The first byte of a payload line: a base32 character (the reader accepts either case).
# (Slices of one byte, as `raw[:1]` gives: a frozenset of the bytes themselves would hold
# ints, which no slice equals, and send every payload line through the marker test.)
_PAYLOAD_BYTES = frozenset(
    bytes([b]) for b in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz234567"
)


# The marker lines as pbem writes them, each with its newline.
_BEGIN_LINE = (BEGIN + "\n").encode("ascii")
_END_LINE = (END + "\n").encode("ascii")


def _verify_stream(
    it: BlockLines, extra: Mapping[str, bytes] | None, engines: Callable[[str], Engine]
) -> Report | None:
    """A successful Report for a save in plain layout that verifies; None for anything else.

    `it` gives the file's lines as bytes, each ending with its newline (a binary file).
    """
    first = _text(next(it, b"")).lstrip("\ufeff")
    if first.strip() != SAVE_MAGIC or breaks_line(first):
        return None
    header = SaveHeader()
    digest = RngDigest()
    digests.use_openssl()  # (the RNG digest has loaded OpenSSL: every entry's hashes use it)
    try:
        game = _stream_entries(it, header, digest, extra, engines)
        printed = printed_rng_digest_of(it)
    except (_Bail, PbemError, UnicodeDecodeError):
        return None
    # The records the lean game still holds (from the first private draw whose secret is
    # not opened on) were never handed to the sink: they are lines of the log all the same.
    for record in game.rng_log:
        digest.add_line(record.line())
    if printed is None or printed.count != digest.count or printed.digest() != digest.digest():
        return None
    if header.problem(game.id, "the save") is not None:
        return None
    if header.value("entries") != str(game.entry_count):
        return None
    with game.outcome_pinned():  # (asked by each part of the report below)
        report = _streamed_report(game)
        if report is not None:
            report.lines.append(f"RNG log: {digest.count} lines match the recomputed dice")
            report.lines += _header_results([header], game)
    return report


def _streamed_report(game: Adjudicator) -> Report | None:
    """The report of a streamed log that verifies (its summary), or None when the verdict
    is anything but OK: the in-memory path then says what and names the entry."""
    if _unopened_at_end(game) is not None or verdicts.of(game).kind != verdicts.OK:
        return None
    report = Report(ok=True, game=game)
    report.lines += _summary(game)
    return report


# How many recomputed RNG lines `_stream_entries` holds before it adds them to its digest.
_RNG_BATCH = 256
# What a marker line starts with once its leading spaces go (`line_marker`).
_MARKER_STARTS = (">", "[", "`", "-")


def _plain_human_line(raw: bytes) -> bool:
    """Whether the general reading of `_stream_entries` finds nothing in a line after the
    header (the human line above each entry), told in a few C-level tests.

    Such a line is printable ASCII ended by its newline (so no line break of another
    kind: `breaks_line`), does not start with what a marker line starts with once its
    leading spaces go (`line_marker` is None), and holds none of "rng", "log" or "save"
    in any case (an RNG record or header, the RNG LOG line, a save's magic line), which
    are the only lines that reading acts on. (Read as text once it is known to be ASCII:
    str's tests take no arguments to parse, and a bytes `in` first tries its operand as
    an int, raising and clearing a TypeError each time.)"""
    if raw[-1:] != b"\n" or not raw.isascii():
        return False
    text = raw[:-1].decode("ascii")
    if not text.isprintable():  # (of ASCII, exactly the characters from space to "~")
        return False
    if text.lstrip()[:1] in _MARKER_STARTS:
        return False
    lowered = text.lower()
    return "rng" not in lowered and "log" not in lowered and "save" not in lowered


def _stream_entries(
    it: BlockLines,
    header: SaveHeader,
    digest: RngDigest,
    extra: Mapping[str, bytes] | None,
    engines: Callable[[str], Engine],
) -> Adjudicator:
    """Read a save's header and entries up to its RNG LOG line, applying each entry.

    Raises _Bail at anything the plain layout does not have, and lets any PbemError
    (a damaged or refused entry) through: both mean "use the in-memory path".
    """

    # The recomputed lines, added to the digest a batch at a time (RngDigest.add_lines).
    batch: list[str] = []

    def sink(record: RngRecord) -> None:
        batch.append(record.line())
        if len(batch) >= _RNG_BATCH:
            digest.add_lines(batch)
            batch.clear()

    game: Adjudicator | None = None
    # The entry read last, applied once the next one is read (or the RNG LOG line): as
    # `ledger.replay` does, it is applied with the entry that follows (`Adjudicator.apply`'s
    # `then`, which rolls a decision's dice with the next reveal in one pass instead of
    # applying the decision twice). One entry more in memory, whatever the log's length.
    pending: Entry | None = None
    payload: list[bytes] | None = None
    files = {data_digest(c): c for c in (extra or {}).values()}
    for raw in it:
        decoded: tuple[bytes, bytes] | None = None
        if payload is None and raw == _BEGIN_LINE and header.done:
            # A marker as pbem writes it is read as the general reading below reads it, and
            # its payload up to an END line as pbem writes it in one step: when those lines
            # are base32 symbols only (blank ones aside), they are the lines the loop below
            # would gather and whose symbols it would decode (armor.decode_lines).
            lines = it.take_payload()
            if lines is None:
                payload = []
                continue
            decoded = decode_lines(lines)
            if decoded is None:
                raise _Bail  # (read no more: those lines are verify_text's to judge)
        elif payload is not None:
            if raw[:1] in _PAYLOAD_BYTES:  # (a marker line starts with a dash)
                payload.append(raw)
                continue
            kind = "END" if raw == _END_LINE else line_marker(_text(raw))
            if kind is None:
                payload.append(raw)
                continue
            if kind != "END":
                raise _Bail
            # Whitespace goes, as the armor reader drops it; anything else is checked.
            raw_payload = b"".join(payload)
            if b"\x0b" in raw_payload or b"\x0c" in raw_payload:
                raise _Bail  # a line break other than a newline: refused in memory
            if raw_payload.count(b"\r") != raw_payload.count(b"\r\n"):
                raise _Bail
            decoded = decode_payload(b"".join(raw_payload.split()).decode("ascii"))
            payload = None
        if decoded is not None:
            entry = Entry.from_wire(*decoded)
            if game is None:
                if entry.seq != 0:
                    raise _Bail
                game = _lean_game(entry, engines, files, sink)
                continue
            # (`_applied_behind` in line: a call saved on every entry)
            if pending is not None:
                game.apply(pending, entry)
            if entry.seq != game.head.seq + 1:
                raise _Bail
            pending = entry
            continue
        if header.done and (raw == b"\n" or _plain_human_line(raw)):
            continue  # (what the general reading below finds of it: nothing)
        line = _text(raw)
        if breaks_line(line):
            raise _Bail  # one line here, several for the in-memory readers
        if not header.done:
            if not plain_header_line(line):
                raise _Bail  # a re-wrapped, decorated or foreign line: not pbem's layout
            header.feed(line)
            continue  # (a field, or the blank line that ends the header)
        if holds_record(line):
            raise _Bail  # an RNG record before the RNG LOG line: refused in memory
        kind = line_marker(line)
        if kind == "BEGIN":
            payload = []
        elif kind is not None:
            raise _Bail
        elif "log" in line.lower() and is_rng_header(line):
            if game is None:
                raise _Bail
            if pending is not None:
                game.apply(pending)
            digest.add_lines(batch)
            return game
        elif ("SAVE" in line or "save" in line) and is_save_magic(line):
            raise _Bail
    raise _Bail


def _verify_moves_stream(
    stream: BinaryIO, extra: Mapping[str, bytes] | None, engines: Callable[[str], Engine]
) -> Report | None:
    """A successful Report for a plain move file of one game that verifies, read one entry
    at a time; None for anything else (`verify_text` then reads the whole file).

    The entries are `movefile.plain_entries`' (the ones `verify_text` finds, in the same
    order), and are taken only as a genesis, then each seq the one after the last: then
    `verify_text`'s lenient reading finds no copy to drop, no noise to set aside, no
    equivocation and no fork, and replays them in this very order. Its save rules and RNG
    log find nothing to read when no line outside the entries holds "save" or "rng" in
    any case (a save's magic line, an RNG LOG line, a record), which is asked of every
    such line. Then its report is this one: the game's summary, and the verdict OK,
    which is the only one given here (anything else is said by `verify_text`).
    """
    from pbem.transport.movefile import plain_entries

    def outside(raw: bytes) -> None:
        lowered = raw.lower()
        if lowered.find(b"save") >= 0 or lowered.find(b"rng") >= 0:  # (`_plain_human_line`)
            raise _Bail  # (a save or an RNG log in the text: verify_text reads them)

    files = {data_digest(c): c for c in (extra or {}).values()}
    game: Adjudicator | None = None
    pending: Entry | None = None  # applied with the next entry, as in _stream_entries
    try:
        for canonical, signature in plain_entries(stream, outside):
            entry = Entry.from_wire(canonical, signature)
            if game is None:
                if entry.kind != GENESIS:
                    return None
                game = _lean_game(entry, engines, files)
                continue
            pending = _applied_behind(game, pending, entry)
        if game is None:
            return None
        if pending is not None:
            game.apply(pending)
    except (_Bail, PbemError, UnicodeDecodeError):
        return None
    with game.outcome_pinned():
        return _streamed_report(game)


def _lean_game(
    genesis: Entry,
    engines: Callable[[str], Engine],
    files: Mapping[str, bytes],
    sink: RngSink | None = None,
) -> Adjudicator:
    """The lean game a streamed path replays a file's entries into, from its genesis."""
    return Adjudicator.start(
        genesis,
        engines,
        data_source(files),
        check_signature,
        lean=True,
        rng_sink=sink,
        tables=DISK_TABLES,
    )


def _applied_behind(game: Adjudicator, pending: Entry | None, entry: Entry) -> Entry:
    """`entry` read: the one before it applied with it (as `ledger.replay` does: a
    decision's dice roll with the next reveal in one pass), and `entry` pending in its
    turn. _Bail when `entry` is not the next seq: the whole reading then judges the file."""
    if pending is not None:
        game.apply(pending, entry)
    if entry.seq != game.head.seq + 1:
        raise _Bail
    return entry


def _only(geneses: list[Entry]) -> Entry | None:
    return geneses[0] if len(geneses) == 1 else None


_ORDER = "a save holds every entry of its game once, in seq order"


def _check_saves(
    sections: list[SaveSection], found: list[Entry], genesis: Entry | None
) -> tuple[str, Entry | None] | None:
    """Why a save in the text breaks the save rules, and the entry to blame (None: the
    save as a whole), or None (see the module doc)."""
    for number, section in enumerate(sections, start=1):
        where = "the save" if len(sections) == 1 else f"save {number} (line {section.line})"
        if not section.has_log:
            return f"{where} has no RNG LOG line after its entries", None
        if section.foreign_break is not None:
            line, char = section.foreign_break
            return (
                f"{where}'s line {line} holds a line break that is not a newline "
                f"(U+{ord(char):04X}); a save's lines end at newlines only, and a reader that "
                "splits lines there too would read another save"
            ), None
        if section.stray_record is not None:
            return (
                f"{where}'s line {section.stray_record} reads as an RNG log record but comes "
                "before its RNG LOG line; only the RNG log holds records (a forged record?)"
            ), None
        problem = section.header.problem(genesis.id if genesis else None, where)
        if problem is not None:
            if genesis is not None and "names game" in problem:
                return f"{genesis.describe()}: {problem}", genesis
            return problem, None
        own = found[section.first : section.first + section.count]
        misplaced = _order_problem(own, section.first, where)
        if misplaced is not None:
            return misplaced
        declared = int(str(section.header.value("entries")))
        if declared > len(own):
            last = f"entry {len(own) - 1}" if own else "its header"
            return (
                f"entry {len(own)} is missing: {where} ends after {last}, "
                f"but its header says entries: {declared}"
            ), None
        if declared < len(own):
            extra = own[declared]
            return (
                f"{extra.describe()} refused: {where}'s header says entries: {declared}, "
                f"so it holds no entry {extra.seq} (entry block {section.first + declared + 1})"
            ), extra
    return None


def _order_problem(own: list[Entry], first: int, where: str) -> tuple[str, Entry] | None:
    """The first entry of a save's own entries that is not where it belongs (why, and
    the entry), or None."""
    seen: dict[int, int] = {}  # seq -> entry block number
    present = {entry.seq for entry in own}
    for offset, entry in enumerate(own):
        block = first + offset + 1
        expected = offset  # every entry before this one had seq == its place
        if entry.seq == expected:
            seen[entry.seq] = block
            continue
        if entry.seq in seen:
            again = "a copy of it" if own[entry.seq].id == entry.id else "another entry"
            return (
                f"{entry.describe()} refused: {where} holds {again} at entry block "
                f"{seen[entry.seq]}, and this one at entry block {block}; {_ORDER}"
            ), entry
        if expected in present:
            return (
                f"{entry.describe()} refused: out of order: {where} has it (entry block "
                f"{block}) before entry {expected}; {_ORDER}"
            ), entry
        missing = "genesis entry (entry 0)" if expected == 0 else f"entry {expected}"
        return (
            f"{entry.describe()} refused: does not follow the head: {where} has no "
            f"{missing} before it (entry block {block}); {_ORDER}"
        ), entry
    return None


def _unique(entries: list[Entry]) -> list[Entry]:
    """The entries with copies (a quoted mail, a thread) dropped, in text order.

    An entry is its canonical bytes (protocol section 8): a copy with the same bytes is
    dropped when its signature is identical, or when both its signature and the kept
    copy's verify with the author's key (a signer may sign the same bytes twice, with
    another nonce). A copy whose signature does not verify stays, and fails its own
    check as damage.
    """
    seen: set[tuple[str, bytes]] = set()
    first: dict[str, Entry] = {}  # id -> the first copy kept
    unique = []
    for entry in entries:
        key = (entry.id, entry.signature)
        if key in seen:
            continue
        seen.add(key)
        kept = first.setdefault(entry.id, entry)
        if kept is not entry and _same_entry(kept, entry, entries):
            continue
        unique.append(entry)
    return unique


def _say_set_aside(report: Report, noise: Mapping[int, int]) -> None:
    """The report's lines for the copies `set_aside` set aside, one per seq."""
    report.set_aside = dict(noise)
    for seq, count in noise.items():
        copies = "1 damaged copy" if count == 1 else f"{count} damaged copies"
        report.lines.append(
            f"set aside: {copies} of entry {seq} (an outsider's noise; it proves nothing "
            "against anyone)"
        )


def _same_entry(kept: Entry, copy: Entry, entries: list[Entry]) -> bool:
    """Whether two copies of one entry's bytes both carry a valid signature by its author
    (the key its genesis names: the entry's own roles for a genesis, else those of the
    genesis in `entries` whose id is the entry's game). Only run for such copies."""
    if copy.kind == GENESIS:
        roles = _roles(copy)
    else:
        genesis = next((e for e in entries if e.kind == GENESIS and e.id == copy.game), None)
        roles = _roles(genesis)
    line = roles.get(copy.by)
    if line is None:
        return False
    try:
        check_signature(line, kept.canonical, kept.signature)
        check_signature(line, copy.canonical, copy.signature)
    except PbemError:
        return False
    return True


def _in_order(genesis: Entry, entries: list[Entry]) -> list[Entry]:
    """Genesis first, then the rest by seq (sort is stable: text order within a seq)."""
    rest = [e for e in entries if e is not genesis and e.kind != GENESIS]
    rest.sort(key=lambda e: e.seq)
    return [genesis, *rest]


def _roles(entry: Entry | None) -> dict[str, str]:
    roles = entry.body.get("roles") if entry is not None else None
    if not isinstance(roles, dict):
        return {}
    return {str(k): v for k, v in roles.items() if isinstance(v, str)}


def _canonical_keys(roles: Mapping[str, str]) -> bool:
    """Whether every key line is a canonical Ed25519 public-key line."""
    from pbem.crypto.keyline import key_bytes

    try:
        for line in roles.values():
            key_bytes(line)
    except PbemError:
        return False
    return True


def _numbers(found: list[Entry]) -> dict[tuple[str, bytes], int]:
    """Entry blocks numbered by their place in the text, copies included (the first
    copy's number): only a failure names them, so they are counted only then."""
    numbers: dict[tuple[str, bytes], int] = {}
    for number, entry in enumerate(found, start=1):
        numbers.setdefault((entry.id, entry.signature), number)
    return numbers


def _damage(
    report: Report,
    entries: list[Entry],
    genesis: Entry | None,
    found: list[Entry],
    accepted: int = 0,
) -> Report | None:
    """The report failed on the first damaged entry of `entries` (`_bad_signature_entry`,
    numbered by their places in `found`), or None when no signature is damaged."""
    damage = _bad_signature_entry(entries, genesis, _numbers(found), accepted)
    if damage is None:
        return None
    return report.fail(damage[1], damage[0], "signature")


def _accepted(ordered: list[Entry], exc: PbemError) -> int:
    """How many entries of `ordered`, from the first, the replay of them that raised `exc`
    accepted: those before the entry it refused. ledger.replay checks the entries in
    order, each one's signature first (under its author's key in `ordered[0]`, the
    genesis, as `_bad_signature_entry` does), and raises on the first bad one; an entry it
    refuses while applying the one before (the next entry, which rolls its dice) comes
    after that one's signature was checked. 0 when `exc` names no entry of `ordered`."""
    refused = _refused_entry(exc)
    return next((number for number, entry in enumerate(ordered) if entry is refused), 0)


def _bad_signature_entry(
    entries: list[Entry],
    genesis: Entry | None,
    numbers: Mapping[tuple[str, bytes], int],
    accepted: int = 0,
) -> tuple[Entry, str] | None:
    """The first entry whose signature verifies with no key it could be signed with, and
    the failure that names it.

    A genesis is checked against the roles it names, every other entry against the
    game's roles (its author's key, or any role's when its author is not a role, as a
    damaged `by` is not). Run only after a failure, so intact games pay nothing for it.
    `accepted`: how many of `entries`, from the first, a replay with `genesis` accepted
    before it refused one (`_accepted`): their signatures verified under these same keys,
    so they are not checked again (the answer is the same; an entry damaged after the
    refused one, which can be what made it look out of place, is still found).
    """
    game_roles = _roles(genesis)
    # A key line not in canonical form, in a genesis whose own signature holds, is the
    # genesis's fault (protocol section 8), not damage to the entries signed by that role:
    # they are not judged by it, and the replay names the genesis.
    judged = _canonical_keys(game_roles)
    for entry in entries[accepted:]:
        if entry.kind != GENESIS and not judged:
            continue
        roles = _roles(entry) if entry.kind == GENESIS else game_roles
        keys = [roles[entry.by]] if entry.by in roles else list(roles.values())
        if not keys and entry.kind == GENESIS:
            keys = [""]  # no readable roles: no key can verify it, so it reads as damaged
        if not keys:
            continue
        reason = ""
        for key in keys:
            try:
                check_signature(key, entry.canonical, entry.signature)
                break
            except PbemError as exc:
                reason = reason or str(exc)
        else:
            number = numbers.get((entry.id, entry.signature))
            block = f" (entry block {number} of the text)" if number else ""
            return entry, (
                f"{entry.describe()}{block} refused: its signature does not verify, the "
                f"entry was damaged or altered: {reason}"
            )
    return None


def _summary(game: Adjudicator) -> list[str]:
    outcome = game.outcome()
    lines = [
        f"game {game.id}",
        f"rules: {game.engine.name} {game.engine.version} ({game.engine.title})",
    ]
    for role, line in game.roles.items():
        lines.append(f"role {role}: {fingerprint(line)}")
    lines.append(f"entries: {game.entry_count}, all signatures and the hash chain verify")
    if game.self_witnessed:
        lines.append(
            "dice: SELF-WITNESSED: some role's dice are seeded by reveals of its own key (one "
            "role, or one key for two roles); no second party vouches for them"
        )
    else:
        lines.append("dice: witnessed: every draw seeded by the next reveal of another role")
    # Which key vouched for the dice, so a league can pin its referees' keys.
    for role, witness in game.witnesses():
        lines.append(f"dice of {role} rolled by {witness}: {fingerprint(game.roles[witness])}")
    lines.append(f"draws: {game.rng_count}")
    if game.double_blind:
        if game.disclosed_at is not None:
            held = f", which disclosed them in entry {game.disclosed_at}"
        elif verdicts.undisclosed(game):
            held = ", which has not disclosed them yet: it owes a disclose entry"
        else:
            held = ""
        lines.append("double-blind: every sealed value was also sealed to the referee" + held)
    if game.sealed:
        still = len(game.unopened())
        lines.append(f"commitments: {len(game.sealed)} made, {len(game.sealed) - still} opened")
    lines.append(f"result: {outcome.text if outcome else 'unfinished'}")
    lines += verdicts.ending_lines(game)
    why = verdicts.unchecked_why(game)
    if why is not None:
        # What a player may never show (a hand, a roll it went silent on) is said, so a
        # referee knows what this verdict does not cover (protocol section 8).
        unchecked = game.unchecked()
        if unchecked:
            lines.append(f"cannot be checked yet ({len(unchecked)}): {why}")
            lines += [f"  {line}" for line in unchecked]
        else:
            lines.append("cannot be checked yet: nothing, every claim so far is checked")
    return lines
