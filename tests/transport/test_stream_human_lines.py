"""The streamed save reader skips a plain human line in one test (`_plain_human_line`): only
a line its general reading finds nothing in (no foreign line break, no RNG record, no
marker, no RNG LOG or save magic line)."""

from __future__ import annotations

import random

from pbem.transport.savefile import (
    breaks_line,
    holds_record,
    is_rng_header,
    is_save_magic,
    line_marker,
)
from pbem.verify import _plain_human_line

PIECES = [
    "game 1a2b3c4d seq 17 by a: roll",
    " ",
    "rng",
    "RnG",
    " 3 4",
    "log",
    "LOG",
    "save",
    "SAVE",
    "PBEM",
    " v1",
    "-",
    "----- BEGIN PBEM ENTRY -----",
    ">",
    "[code]",
    "`",
    "\t",
    "\r",
    "\x0b",
    "\x1c",
    "\x85",
    "\u2013",
    "\u2028",
    "caf\u00e9",
    "\x7f",
]


def _general_finds_nothing(line: str) -> bool:
    return not (
        breaks_line(line)
        or holds_record(line)
        or line_marker(line) is not None
        or is_rng_header(line)
        or is_save_magic(line)
    )


def test_a_skipped_line_is_one_the_general_reading_finds_nothing_in() -> None:
    rng = random.Random(29)
    skipped = 0
    for _ in range(20_000):
        line = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 5))) + "\n"
        if _plain_human_line(line.encode("utf-8")):
            skipped += 1
            assert _general_finds_nothing(line), repr(line)
    assert skipped > 1000  # (the test does try the skip)


def test_the_lines_pbem_writes_above_entries_are_skipped() -> None:
    assert _plain_human_line(b"game 1a2b3c4d seq 17 by a: roll\n")
    assert _plain_human_line(b"game 1a2b3c4d seq 0 by a: new game of toy-dice\n")
    assert not _plain_human_line(b"game 1a2b3c4d seq 17 by a: roll")  # (no newline)
    assert not _plain_human_line(b"RNG LOG\n")
    assert not _plain_human_line(b"PBEM SAVE v1\n")
