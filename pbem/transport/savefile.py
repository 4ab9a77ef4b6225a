"""Save files and move files (protocol section 6): armored entries with human text around.

A save is a short human header, every entry of the game in order (each after a
human line), and the RNG log. Nothing human is trusted: `verify` recomputes the
header's facts and refuses a save whose RNG log differs from the recomputed one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pbem.core.adjudicator import Adjudicator
from pbem.core.log import GENESIS, JOIN, Entry
from pbem.errors import PbemError
from pbem.transport.armor import armor, marker_kind

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
    else:
        what = entry.kind
    return f"game {game} seq {entry.seq} by {entry.by}: {what}"


def move_file(entries: Iterable[Entry]) -> str:
    """Text to paste into a mail or a forum: each entry with its human line."""
    blocks = [f"{human_line(e)}\n{armor(e.canonical, e.signature)}" for e in entries]
    return "\n".join(blocks)


def save_text(game: Adjudicator, title: str, fingerprints: dict[str, str]) -> str:
    outcome = game.outcome()
    result = outcome.text if outcome is not None else "unfinished"
    witness = "self-witnessed" if game.self_witnessed else "witnessed by another role"
    lines = [
        SAVE_MAGIC,
        f"title: {title}",
        f"rules: {game.engine.name} {game.engine.version}",
        f"game: {game.id}",
        "roles: " + ", ".join(f"{role} {fp}" for role, fp in fingerprints.items()),
        f"result: {result}",
        f"entries: {len(game.entries)}",
        f"dice: {witness}",
        "",
        move_file(game.entries),
        RNG_HEADER,
    ]
    lines.extend(record.line() for record in game.rng_log)
    return "\n".join(lines) + "\n"


class RngLogError(PbemError):
    """A save's printed RNG log differs from the one recomputed from its entries."""


# Decoration at either end of a line of a pasted save: quote markers, BBCode tags a forum
# wraps a post in, Markdown fences.
_TAGS = r"\[/?(?:code|quote|pre|tt|spoiler)(?:=[^\]\n]*)?\]"
_DECOR_START = re.compile(rf"^(?:[>\s]|{_TAGS}|`{{3,}})*+", re.IGNORECASE)
_DECOR_END = re.compile(rf"(?:\s|{_TAGS}|`{{3,}})*+$", re.IGNORECASE)
_RECORD = re.compile(r"rng\s+[0-9]", re.IGNORECASE)
_HEADER = re.compile(r"RNG\s+LOG", re.IGNORECASE)

# One printed RNG record: the tokens of each printed line it spans (a mail client that
# re-wraps a long line spreads one record over several lines).
Record = list[list[str]]


def _clean(raw: str) -> str:
    line = raw.strip()
    if line[:1] in (">", "[", "`") or line[-1:] in ("]", "`"):
        line = _DECOR_END.sub("", _DECOR_START.sub("", line))
    return line


def rng_sections(text: str) -> list[list[Record]]:
    """The records of every RNG LOG section of a text, quoting and re-wrapping undone.

    A record starts at a line `rng <digit>...` (quote markers stripped) and runs on over
    the following lines until the next record, a section header, an armored entry or the
    end of the text; so the last record of a section also holds whatever human text follows
    the log, which `check_rng_log` allows. Armored entries are skipped: their payload is
    never read as a record.
    """
    first = _HEADER.search(text)
    if first is None:
        return []
    sections: list[list[Record]] = []
    current: Record | None = None
    in_armor = False
    for raw in text[text.rfind("\n", 0, first.start()) + 1 :].splitlines():
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


def check_rng_log(text: str, computed: list[str]) -> int:
    """Raise RngLogError unless every RNG LOG section of `text` equals `computed`.

    Returns how many sections were compared (0: the text prints no RNG log, as a move
    file does). A save quoted twice in a thread has two sections; each must equal the
    recomputed log, so a second one cannot hide a first. The comparison is token by
    token, so re-wrapping and quoting do not matter, while a changed, missing, extra or
    reordered record is a difference.
    """
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
