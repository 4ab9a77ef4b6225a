"""Save files and move files (protocol section 6): armored entries with human text around.

A save is a short human header, every entry of the game in order (each after a
human line), and the RNG log. Nothing human is trusted: `verify` recomputes the
header's facts and refuses a save whose RNG log differs from the recomputed one.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from functools import cache

from pbem.core.adjudicator import Adjudicator
from pbem.core.log import GENESIS, JOIN, Entry, escape_text
from pbem.errors import PbemError
from pbem.lazy import lazy_module, lazy_pattern
from pbem.record import MutableRecord
from pbem.transport.armor import BEGIN, END, armor, marker_kind
from pbem.transport.blocklines import BlockLines

# (hashlib loads OpenSSL: only once a running digest of RNG records is made)
hashlib = lazy_module("hashlib")

SAVE_MAGIC = "PBEM SAVE v1"
RNG_HEADER = "RNG LOG"


def human_line(entry: Entry) -> str:
    """The untrusted one-line description printed above an entry's armor."""
    game = (entry.game or entry.id)[:8]
    if entry.kind == GENESIS:
        what = f"new game of {entry.body.get('rules')}"
    elif entry.kind == JOIN:
        what = "joins"
    elif "decision" in entry.body:
        what = str(entry.body["decision"])
    elif entry.body.get("resign") is True:  # (pbem.core.meta: a move with no decision)
        what = "resigns"
    elif entry.body.get("draw") in ("offer", "accept"):
        what = f"{entry.body['draw']}s a draw"
    elif entry.body.get("takeback") in ("accept", "decline"):
        what = f"{entry.body['takeback']}s the take-back"
    elif isinstance(entry.body.get("takeback"), int):
        what = f"proposes taking back entries from {entry.body['takeback']}"
    else:
        what = entry.kind
    # (An entry's text holds no line break (Entry refuses it); escaped all the same, as
    # every free text written to a save: no line of a save comes raw from a player.)
    return escape_text(f"game {game} seq {entry.seq} by {entry.by}: {what}")


def move_file(entries: Iterable[Entry]) -> str:
    """Text to paste into a mail or a forum: each entry with its human line."""
    blocks = [f"{human_line(e)}\n{armor(e.canonical, e.signature)}" for e in entries]
    return "\n".join(blocks)


def save_text(game: Adjudicator, title: str, fingerprints: dict[str, str]) -> str:
    """A save of `game`. Its free text (the title, role names, the result) is written with
    `escape_text`, so no value can break its line and forge another header line, an RNG
    record or a marker (protocol section 8)."""
    result = save_result(game)
    witness = "self-witnessed" if game.self_witnessed else "witnessed by another role"
    roles = ", ".join(f"{role} {fp}" for role, fp in fingerprints.items())
    lines = [
        SAVE_MAGIC,
        f"title: {escape_text(title)}",
        f"rules: {game.engine.name} {game.engine.version}",
        f"game: {game.id}",
        f"roles: {escape_text(roles)}",
        f"result: {escape_text(result)}",
        f"entries: {len(game.entries)}",
        f"dice: {witness}",
        "",
        move_file(game.entries),
        RNG_HEADER,
    ]
    lines.extend(record.line() for record in game.rng_log)
    return "\n".join(lines) + "\n"


def save_result(game: Adjudicator) -> str:
    """What a save's `result:` line says of `game` (before escaping): its outcome's text,
    or "unfinished"."""
    outcome = game.outcome()
    return outcome.text if outcome is not None else "unfinished"


class RngLogError(PbemError):
    """A save's printed RNG log differs from the one recomputed from its entries."""


# Decoration at either end of a line of a pasted save: quote markers, BBCode tags a forum
# wraps a post in, Markdown fences.
_TAGS = r"\[/?(?:code|quote|pre|tt|spoiler)(?:=[^\]\n]*)?\]"
_DECOR_START = lazy_pattern(rf"^(?:[>\s]|{_TAGS}|`{{3,}})*+", re.IGNORECASE)
_DECOR_END = lazy_pattern(rf"(?:\s|{_TAGS}|`{{3,}})*+$", re.IGNORECASE)
_RECORD = lazy_pattern(r"rng\s+[0-9]", re.IGNORECASE)
_HEADER = lazy_pattern(r"RNG\s+LOG", re.IGNORECASE)

# One printed RNG record: the tokens of each printed line it spans (a mail client that
# re-wraps a long line spreads one record over several lines).
Record = list[list[str]]


def _clean(raw: str) -> str:
    line = raw.strip()
    if line[:1] in (">", "[", "`") or line[-1:] in ("]", "`"):
        line = _DECOR_END.sub("", _DECOR_START.sub("", line))
    return line


def _first_header(text: str) -> int | None:
    """Where `_HEADER.search(text)` would match first, found about five times faster.

    A match starts with "rng" in any case. In an ASCII text, lower-casing keeps every
    position, so trying the regex only where the lower-cased text holds "rng", in order,
    finds the same first match without the regex scanning every character of the entries.
    """
    if not text.isascii():
        found = _HEADER.search(text)
        return None if found is None else found.start()
    lowered = text.lower()
    at = lowered.find("rng")
    while at >= 0:
        if _HEADER.match(text, at):
            return at
        at = lowered.find("rng", at + 1)
    return None


def rng_sections(text: str) -> list[list[Record]]:
    """The records of every RNG LOG section of a text, quoting and re-wrapping undone.

    A record starts at a line `rng <digit>...` (quote markers stripped) and runs on over
    the following lines until the next record, a section header, an armored entry or the
    end of the text; so the last record of a section also holds whatever human text follows
    the log, which `check_rng_log` allows. Armored entries are skipped: their payload is
    never read as a record.
    """
    first = _first_header(text)
    if first is None:
        return []
    sections: list[list[Record]] = []
    current: Record | None = None
    in_armor = False
    for raw in text[text.rfind("\n", 0, first) + 1 :].splitlines():
        line = _clean(raw)
        if not line:
            continue
        if "entry" in line.lower():
            kind = marker_kind(raw)
            if kind is not None:
                in_armor, current = kind == "BEGIN", None
                continue
        if in_armor:
            continue
        if _HEADER.fullmatch(line):
            sections.append([])
            current = None
        elif sections and _RECORD.match(line):
            current = [line.split()]
            sections[-1].append(current)
        elif current is not None:
            current.append(line.split())
    return sections


def _matches(record: Record, expected: list[str], last: bool) -> bool:
    """Whether a printed record holds exactly the expected tokens.

    Only the last record may go on with human text (`last`: the last printed one, or
    the one that should be last, when more follow and are reported as extra lines),
    and only from a line of its own: text glued to its lines is part of the record.
    """
    if not last:
        return [token for line in record for token in line] == expected
    seen: list[str] = []
    for line in record:
        seen += line
        if len(seen) >= len(expected):
            break
    return seen == expected


# Records as save_text prints them: "rng <digit>...", no line break of str.splitlines()
# inside, ending in a character that is neither whitespace nor "]" or "`" (what `_clean`
# would strip), each ended by "\n".
_PLAIN_RECORDS = lazy_pattern(r"(?:rng [0-9][^\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]*[^\s\]`]\n)*")


def _plain_log_matches(text: str, computed: list[str]) -> bool:
    """Whether `text` ends with its one RNG LOG section, printed as save_text prints
    `computed`: its first "RNG LOG" (the regex's first match) is a line of its own, and
    every line after it is one computed line, unchanged and in order.

    Then the general reading below finds exactly that one section, each line a record of
    the tokens of its computed line (no decoration to strip, no marker, no blank line), so
    the check holds; this tells it with one comparison of the whole tail instead of
    reading every line (a third of a save's size). Any other text takes the general path.
    """
    first = _first_header(text)
    if first is None or (first > 0 and text[first - 1] != "\n"):
        return False
    if not text.startswith(RNG_HEADER + "\n", first):
        return False
    tail = text[first + len(RNG_HEADER) + 1 :]
    if tail != "".join(line + "\n" for line in computed):
        return False
    return _PLAIN_RECORDS.fullmatch(tail) is not None


def check_rng_log(text: str, computed: list[str]) -> int:
    """Raise RngLogError unless every RNG LOG section of `text` equals `computed`.

    Returns how many sections were compared (0: the text prints no RNG log, as a move
    file does). A save quoted twice in a thread has two sections; each must equal the
    recomputed log, so a second one cannot hide a first. The comparison is token by
    token, so re-wrapping and quoting do not matter, while a changed, missing, extra or
    reordered record is a difference.
    """
    if _plain_log_matches(text, computed):
        return 1
    expected = [line.split() for line in computed]
    sections = rng_sections(text)
    for number, printed in enumerate(sections, start=1):
        where = "RNG log" if len(sections) == 1 else f"RNG log (copy {number})"
        for index, (record, tokens) in enumerate(zip(printed, expected, strict=False)):
            last = index == len(printed) - 1 or index == len(expected) - 1
            if not _matches(record, tokens, last):
                shown = " ".join(token for line in record for token in line)
                if len(shown) > 200:
                    shown = shown[:200] + "..."
                raise RngLogError(
                    f"{where} line {index + 1} differs from the recomputed one: "
                    f"{shown!r} != {computed[index]!r}"
                )
        if len(printed) != len(expected):
            raise RngLogError(
                f"{where} has {len(printed)} lines, the recomputed log {len(expected)}"
            )
    return len(sections)


# --- save sections: where a save's own entries are, and what its header says ----------------

# The magic line as pbem writes it, or all in lower or upper case (a forum's doing).
_MAGIC = lazy_pattern(r"PBEM\s+SAVE\s+v1|pbem\s+save\s+v1|PBEM\s+SAVE\s+V1")
_PAYLOAD_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz234567")
HEADER_KEYS = ("title", "rules", "game", "roles", "result", "entries", "dice")
_HEADER_FIELD = lazy_pattern(rf"({'|'.join(HEADER_KEYS)})\s*:(.*)", re.IGNORECASE)
# What a marker line starts with once leading whitespace is stripped (see armor._MARKER).
MARKER_START = tuple(">[`-\u2013\u2014")


def is_save_magic(raw: str) -> bool:
    """Whether a line (quoting and decoration undone) is a save's first line, `PBEM SAVE v1`."""
    return _MAGIC.fullmatch(_clean(raw)) is not None


def is_rng_header(raw: str) -> bool:
    return _HEADER.fullmatch(_clean(raw)) is not None


def line_marker(raw: str) -> str | None:
    """ "BEGIN" or "END" for an armor marker line; a cheap test first, most lines are not."""
    if raw.lstrip()[:1] in MARKER_START:
        return marker_kind(raw)
    return None


class SaveHeader:
    """The header of a save, read line by line: `key: value` lines up to the first blank one.

    A line starting with a known key opens that field; any other line continues the field
    before it (a mail client re-wrapped it). Values are kept with whitespace removed, so a
    hex game id cut in two by a re-wrap reads whole. `game` and `entries` are checked
    against the entries; `result` is human text, but a header holds at most one (a
    reader could see either of two), and one that differs from the recomputed result is
    reported (`result_disagrees`); the rest is human text.
    """

    def __init__(self) -> None:
        self.fields: dict[str, list[str]] = {}
        self._current: str | None = None
        self.done = False

    def feed(self, raw: str) -> None:
        """Read one more line of the header (the magic line excluded)."""
        line = _clean(raw)
        if not line:
            self.done = True
            return
        found = _HEADER_FIELD.match(line)
        if found:
            self._current = found.group(1).lower()
            self.fields.setdefault(self._current, []).append(found.group(2))
        elif self._current is not None:
            self.fields[self._current][-1] += line

    def value(self, key: str) -> str | None:
        """The field's value with whitespace removed; None when absent."""
        values = self.fields.get(key)
        if not values:
            return None
        return "".join(values[0].split())

    def problem(self, game_id: str | None, where: str) -> str | None:
        """Why the header's game or entries line disagrees with the entries, or None."""
        for key in ("game", "entries"):
            if len(self.fields.get(key, [])) > 1:
                return f"{where}'s header has {len(self.fields[key])} '{key}:' lines"
            if self.value(key) is None:
                return f"{where}'s header has no '{key}:' line"
        results = self.fields.get("result", [])
        if len(results) > 1:
            # No pbem writes two; a second line is one a forger added for a reader (or a
            # script) that reads the other one. (Reported as such when they agree too.)
            return f"{where}'s header has {len(results)} 'result:' lines"
        game, entries = self.value("game"), self.value("entries")
        if game_id is not None and game != game_id:
            return (
                f"{where}'s header names game {str(game)[:16]}, but its genesis entry is "
                f"game {game_id[:16]}"
            )
        if entries is not None and not entries.isdigit():
            return f"{where}'s header line 'entries: {entries}' is not a number"
        return None

    def result_disagrees(self, computed: str) -> str | None:
        """The verdict's line when the header's one `result:` line says other than
        `computed` (what `save_text` would write for the game the log gives), or None.

        Compared with whitespace removed, as a mail client may re-wrap the line. Never a
        failure: the header is human text, and a later pbem may word an outcome otherwise
        than the pbem that wrote the save (docs/protocol-notes.md).
        """
        values = self.fields.get("result")
        if not values or "".join(values[0].split()) == "".join(escape_text(computed).split()):
            return None
        said = " ".join(values[0].split())
        if len(said) > 200:
            said = said[:200] + "..."
        return (
            f"header says result: {said}; the log gives: {computed} "
            "(the header is human text, never trusted)"
        )


class SaveSection(
    MutableRecord,
    fields=("line", "header", "first", "count", "has_log", "stray_record", "foreign_break"),
):
    """One save in a text: from its `PBEM SAVE v1` line to its `RNG LOG` line.

    `first` is the index, among every armored entry of the text in text order, of the
    section's first entry, `count` how many armored entries the section holds,
    `stray_record` the line number of the first line before its `RNG LOG` line that reads
    as an RNG record, `foreign_break` the line number and character of the first line
    break other than a newline from its first line to the next save or the end of the
    text, its RNG log included (None: there is none). A record (pbem.record), as
    @dataclass would make it.
    """

    line: int
    header: SaveHeader
    first: int
    count: int
    has_log: bool
    stray_record: int | None
    foreign_break: tuple[int, str] | None

    def __init__(
        self,
        line: int,
        header: SaveHeader | None = None,
        first: int = 0,
        count: int = 0,
        has_log: bool = False,
        stray_record: int | None = None,
        foreign_break: tuple[int, str] | None = None,
    ) -> None:
        self.line = line
        self.header = SaveHeader() if header is None else header
        self.first = first
        self.count = count
        self.has_log = has_log
        self.stray_record = stray_record
        self.foreign_break = foreign_break


# "rng <digit>" anywhere in a line: the cheap test before `holds_record`.
_RECORD_ANYWHERE = lazy_pattern(r"rng\s+[0-9]", re.IGNORECASE)


def holds_record(raw: str) -> bool:
    """Whether a line reads as an RNG record, decoration undone."""
    return _RECORD_ANYWHERE.search(raw) is not None and _RECORD.match(_clean(raw)) is not None


# A line break of str.splitlines() (and of many a reader) that is not a newline, nor the
# CR of a CRLF: read at newlines, a line holding one is one line; read otherwise, several.
FOREIGN_BREAK = lazy_pattern("[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]|\r(?!\n)")


def breaks_line(raw: str) -> bool:
    """Whether a line (its own "\\n" or "\\r\\n" ending aside) holds a FOREIGN_BREAK."""
    return FOREIGN_BREAK.search(raw) is not None


# The characters FOREIGN_BREAK matches alone, ASCII first (a lone "\r" is looked for apart).
_ASCII_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e")
_WIDE_BREAKS = ("\x85", "\u2028", "\u2029")


def find_foreign_break(text: str, start: int = 0) -> tuple[int, str] | None:
    """Where `FOREIGN_BREAK.search(text, start)` matches first and what it matches, found with
    a few `str.find` (C-level searches for one character) instead of the regex stepping
    through every character of a save, about a hundred times faster.

    The answer is the regex's: the first of the single characters it matches, and a "\\r"
    only when no "\\n" follows it. When "\\r" are not all in "\\r\\n" pairs (counted:
    then a lone one is somewhere) the regex itself finds it, as it always did.
    """
    size = len(text)
    if text.count("\r", start) != text.count("\r\n", start):
        found = FOREIGN_BREAK.search(text, start)
        return None if found is None else (found.start(), found.group())
    first, char = size, ""
    # (A pure-ASCII str says so in O(1): then none of the wide breaks can be in it.)
    for candidate in _ASCII_BREAKS if text.isascii() else _ASCII_BREAKS + _WIDE_BREAKS:
        at = text.find(candidate, start, first)
        if at >= 0:
            first, char = at, candidate
    return None if first == size else (first, char)


def plain_header_line(raw: str) -> bool:
    """Whether a header line is as `save_text` writes it: a `key: value` line with no line
    break inside and no decoration, or the blank line that ends the header."""
    line = raw.rstrip("\r\n")
    if not line:
        return True
    return _HEADER_FIELD.match(line) is not None and not breaks_line(line)


def save_sections(text: str) -> list[SaveSection]:
    """Every save in a text (a save file, or saves pasted and quoted in a mail or thread).

    Reads the text line by line outside armor; an armored entry is skipped in one step
    when its END line is found by a substring search with no other marker between (a
    payload has no dash), else line by line.
    """
    if "SAVE" not in text and "save" not in text:
        return []
    sections: list[SaveSection] = []
    starts: list[int] = []  # where each section's first line starts
    current: SaveSection | None = None
    blocks = 0
    in_armor = False
    pos, size = 0, len(text)
    while pos <= size:
        end = text.find("\n", pos)
        if end < 0:
            end = size
        raw = text[pos:end]
        start, pos = pos, end + 1
        if in_armor:
            # Payload lines (the most lines by far) start with a base32 character.
            if raw[:1] not in _PAYLOAD_START and line_marker(raw) == "END":
                in_armor = False
            continue
        kind = "BEGIN" if raw == BEGIN else line_marker(raw)
        if kind is not None:
            if kind == "BEGIN":
                blocks += 1
                in_armor = True
                skip = _armor_end(text, end)
                if skip is not None:
                    in_armor, pos = False, skip
            if current is not None:
                current.header.done = True
            continue
        if current is not None and current.stray_record is None and holds_record(raw):
            current.stray_record = text.count("\n", 0, start) + 1
        if current is not None and not current.header.done:
            current.header.feed(raw)
            continue
        if ("SAVE" in raw or "save" in raw) and is_save_magic(raw):
            if current is not None:
                current.count = blocks - current.first
            current = SaveSection(text.count("\n", 0, start) + 1, first=blocks)
            sections.append(current)
            starts.append(start)
        elif current is not None and "log" in raw.lower() and is_rng_header(raw):
            current.count = blocks - current.first
            current.has_log = True
            current = None
            if text.find("SAVE", pos) < 0 and text.find("save", pos) < 0:
                break  # no other save follows: the rest (its RNG log) need not be read
    if current is not None:
        current.count = blocks - current.first
    if starts:
        found = find_foreign_break(text, starts[0])
        if found is not None:
            at, char = found
            section = sections[bisect_right(starts, at) - 1]
            section.foreign_break = (text.count("\n", 0, at) + 1, char)
    return sections


def _armor_end(text: str, begin_end: int) -> int | None:
    """Where the line after an armored entry's END line starts, found in one step.

    `begin_end` is the end of its BEGIN line. None when the END line is not written as
    pbem writes it, or anything marker-like (a dash) comes before it.
    """
    at = text.find(END, begin_end)
    if at < 0:
        return None
    start = text.rfind("\n", 0, at) + 1
    if text.find("-", begin_end, start) >= 0:
        return None
    stop = text.find("\n", at)
    stop = len(text) if stop < 0 else stop
    if stop - start != len(END) and line_marker(text[start:stop]) != "END":
        return None
    return stop + 1


# --- comparing a printed RNG log while reading it: a digest of its tokens -------------------


def _token_bytes(tokens: list[str]) -> bytes:
    # Separators that str.split() treats as whitespace, so no token holds them.
    return ("\x1f".join(tokens) + "\x1e").encode("utf-8", "surrogatepass")


def _plain_tokens(line: str) -> bool:
    """Whether `line.split()` is `line.split(" ")`: single spaces between tokens, none at
    either end, and no other whitespace. A printable str holds no whitespace but " "
    (every other whitespace character is a control or a separator, which `isprintable`
    refuses); then `_token_bytes(line.split())` is `line` with "\\x1f" for each space."""
    return line.isprintable() and "  " not in line and line[:1] != " " and line[-1:] != " "


def _line_bytes(line: str) -> bytes:
    """`_token_bytes(line.split())`, without building the list of tokens for a plain line."""
    if _plain_tokens(line):
        return (line.replace(" ", "\x1f") + "\x1e").encode("utf-8", "surrogatepass")
    return _token_bytes(line.split())


class RngDigest:
    """A running digest of RNG records as tokens: the recomputed log's, or a printed one's."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()
        self.count = 0

    def add_tokens(self, tokens: list[str]) -> None:
        self._hash.update(_token_bytes(tokens))
        self.count += 1

    def add_line(self, line: str) -> None:
        """The record of one line (its tokens: `add_tokens(line.split())`)."""
        self._hash.update(_line_bytes(line))
        self.count += 1

    def add_lines(self, lines: list[str]) -> None:
        """`add_line` of each of `lines`, in order: in one step when every line is plain
        (printable ASCII tokens with single spaces, no other whitespace: `_plain_tokens`
        holds, and `_line_bytes` is the line with "\\x1f" for each space), else one by one."""
        text = "\n".join(lines) + "\n"
        if _plain_lines().fullmatch(text) is None:
            for line in lines:
                self.add_line(line)
            return
        self._hash.update(text.replace(" ", "\x1f").replace("\n", "\x1e").encode("ascii"))
        self.count += len(lines)

    def add_plain_run(self, run: bytes) -> None:
        """The records of a run of plain ASCII lines, each ended by "\\n", that
        `_plain_record` takes whole: `add_line` of each, in one step."""
        self._hash.update(run.replace(b" ", b"\x1f").replace(b"\n", b"\x1e"))
        self.count += run.count(b"\n")

    def digest(self) -> bytes:
        return self._hash.digest()


def _plain_record(raw: str) -> str | None:
    """The record a printed line holds when it is written as save_text writes one, else None.

    Such a line (its "\\n" aside) is "rng <digit>..." in lower case, printable, with single
    spaces, ending in a character that `_clean` would not strip. Then `printed_rng_digest`'s
    general reading of it finds no line break, nothing to clean, no marker, header or magic
    line, and a record whose tokens `_line_bytes` gives: the fast path reads the same.
    """
    line = raw[:-1] if raw[-1:] == "\n" else raw
    if (
        line[:4] == "rng "
        and line[4:5] in _DIGITS
        and line[-1:] not in _CLEANED_END
        and _plain_tokens(line)
    ):
        return line
    return None


_DIGITS = frozenset("0123456789")
# What `_clean` strips at the end of a line (a closing tag or fence); whitespace aside.
_CLEANED_END = frozenset("]`")


def printed_rng_digest(lines: Iterator[str]) -> RngDigest | None:
    """The digest of the RNG LOG section that `lines` holds (read after its header line).

    Only the plain layout a save is written in is read this way: each record on one line,
    human text only after the last record. Anything else (a re-wrapped record, a second
    section, an armored entry, a second save) returns None, so that the caller falls back
    to `check_rng_log` on the whole text, which reads every layout and names a differing
    line.
    """
    digest = RngDigest()
    trailing = False
    for raw in lines:
        step = _read_printed_line(digest, raw, trailing)
        if step is None:
            return None
        trailing = step
    return digest


def printed_rng_digest_of(lines: BlockLines) -> RngDigest | None:
    """`printed_rng_digest` of the rest of a binary file's lines (`lines`; each decoded as
    UTF-8, a damaged byte replaced), with a run of plain records read in one step.

    A run of whole lines that `_plain_run` matches is a run of ASCII lines that
    `_plain_record` each takes for a record, so the per-line reading would add to the
    digest exactly the run with "\x1f" for each space and "\x1e" for each newline
    (`_line_bytes`), one record per line: that is what is added. Any other line is read
    by the per-line reading, in order."""
    digest = RngDigest()
    trailing = False
    plain = _plain_run()
    while True:
        run = lines.take_matching(plain)
        if run:
            if trailing:
                return None
            digest.add_plain_run(run)
            continue
        raw = next(lines, None)
        if raw is None:
            return digest
        step = _read_printed_line(digest, raw.decode("utf-8", errors="replace"), trailing)
        if step is None:
            return None
        trailing = step


@cache
def _plain_lines() -> re.Pattern[str]:
    """Lines of printable ASCII tokens with single spaces, each ended by "\\n", nothing else
    (compiled at its first use; possessive, as `_plain_run`)."""
    return re.compile(r"(?:[!-~]++(?: [!-~]++)*+\n)*+")


@cache
def _plain_run() -> re.Pattern[bytes]:
    """One or more lines that `_plain_record` takes for a record, ASCII only: "rng ", a
    digit, then printable ASCII with single spaces, not ending with a space, "]" or "`",
    each ended by "\\n". (Compiled at its first use: only a streamed save needs it.)
    Possessive throughout, so that the regex engine keeps no state to go back to for each
    line or token it has read (a run of a thousand lines took megabytes otherwise): a line
    that fails ends the run at the line before it all the same."""
    return re.compile(rb"(?:rng [0-9][!-~]*+(?: [!-~]++)*+(?<![\]`])\n)++")


def _read_printed_line(digest: RngDigest, raw: str, trailing: bool) -> bool | None:
    """One line of `printed_rng_digest`'s reading, added to `digest`: whether human text
    has started after the records (`trailing`) once it is read; None when the section is
    not in the plain layout."""
    plain = _plain_record(raw)
    if plain is not None:
        if trailing:
            return None
        digest.add_line(plain)
        return trailing
    if breaks_line(raw):
        return None  # (the general reading splits it where this one would not)
    line = _clean(raw)
    if not line:
        return trailing
    if line_marker(raw) is not None or _HEADER.fullmatch(line) or _MAGIC.fullmatch(line):
        return None
    if _RECORD.match(line):
        if trailing:
            return None
        digest.add_tokens(line.split())
        return trailing
    # (text between the header and the first record is not read, as rng_sections)
    return trailing or bool(digest.count)
