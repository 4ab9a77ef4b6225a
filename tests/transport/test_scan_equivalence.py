"""The fast scans of a save (issue 29) answer exactly as the strict ones they stand for.

* `find_foreign_break` (a few `str.find`) for `FOREIGN_BREAK.search` (a regex over the
  whole save);
* `RngDigest.add_line` and the plain-record test of `printed_rng_digest` for the general
  reading (`line.split()`, `_clean`, the marker, header and record regexes);
* the streamed verify's one-comparison tests of marker lines for `line_marker`.

Each is checked against the strict code on random and hostile strings: every line break
a reader may know, decoration, quoting, control characters, surrogates, wide spaces.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import verify
from pbem.transport import savefile
from pbem.transport.armor import BEGIN, END

# Characters that matter to the scans, and a few that do not.
HOSTILE = (
    "\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029\t \u00a0\u1680\u2000\u3000\x00\x7f"
    "\ud800>[]`-rngRNGlogLOG0123456789aZ=/\u00e9\u20ac"
)
hostile_text = st.text(alphabet=st.sampled_from(HOSTILE), max_size=40)
any_text = st.text(max_size=40)


def _strict_break(text: str, start: int) -> tuple[int, str] | None:
    found = savefile.FOREIGN_BREAK.search(text, start)
    return None if found is None else (found.start(), found.group())


@settings(max_examples=600, deadline=None)
@given(st.one_of(hostile_text, any_text), st.integers(min_value=0, max_value=45))
def test_find_foreign_break_is_the_regex(text: str, start: int) -> None:
    assert savefile.find_foreign_break(text, start) == _strict_break(text, start)


def test_find_foreign_break_in_a_long_text() -> None:
    rng = random.Random(29)
    for _ in range(300):
        parts = [rng.choice(["ab\n", "x\r\n", "rng 1 2\n", HOSTILE[rng.randrange(len(HOSTILE))]])]
        text = "".join(parts * rng.randint(1, 50) + [rng.choice(HOSTILE)] + parts)
        for start in (0, len(text) // 3, len(text)):
            assert savefile.find_foreign_break(text, start) == _strict_break(text, start)


def _strict_line_bytes(line: str) -> bytes:
    return savefile._token_bytes(line.split())


@settings(max_examples=600, deadline=None)
@given(st.one_of(hostile_text, any_text))
def test_a_digested_line_is_its_tokens(line: str) -> None:
    assert savefile._line_bytes(line) == _strict_line_bytes(line)


def _strict_printed_digest(lines: Iterator[str]) -> savefile.RngDigest | None:
    """printed_rng_digest as it was before its plain-record fast path."""
    digest = savefile.RngDigest()
    trailing = False
    for raw in lines:
        if savefile.breaks_line(raw):
            return None
        line = savefile._clean(raw)
        if not line:
            continue
        if (
            savefile.line_marker(raw) is not None
            or savefile._HEADER.fullmatch(line)
            or savefile._MAGIC.fullmatch(line)
        ):
            return None
        if savefile._RECORD.match(line):
            if trailing:
                return None
            digest.add_tokens(line.split())
        elif digest.count:
            trailing = True
    return digest


def _outcome(digest: savefile.RngDigest | None) -> tuple[int, bytes] | None:
    return None if digest is None else (digest.count, digest.digest())


record_line = st.one_of(
    st.builds(
        lambda head, digit, rest, end: f"{head}{digit}{rest}{end}",
        st.sampled_from(["rng ", "rng  ", "RNG ", " rng ", "> rng ", "rng\t", "[code]rng "]),
        st.sampled_from(["0", "7", "x", "", "\u0661"]),
        hostile_text,
        st.sampled_from(["\n", "", "\r\n", " \n", "]\n", "`\n", "\u2028\n"]),
    ),
    hostile_text.map(lambda s: s + "\n"),
    st.sampled_from(["RNG LOG\n", "PBEM SAVE v1\n", BEGIN + "\n", END + "\n", "\n", "note\n"]),
)


@settings(max_examples=800, deadline=None)
@given(st.lists(record_line, max_size=8))
def test_printed_digest_reads_as_the_general_reading(lines: list[str]) -> None:
    fast = savefile.printed_rng_digest(iter(lines))
    assert _outcome(fast) == _outcome(_strict_printed_digest(iter(lines)))


def test_printed_digest_of_a_plain_log_takes_the_fast_path() -> None:
    lines = ["rng 0 german 1d6 4 abc\n", "rng 12 soviet 2d6 3,5 def\n"]
    assert all(savefile._plain_record(line) is not None for line in lines)
    digest = savefile.printed_rng_digest(iter(lines))
    assert _outcome(digest) == _outcome(_strict_printed_digest(iter(lines)))


# --- the streamed verify's marker lines -----------------------------------------------------


def test_the_payload_test_knows_a_payload_line() -> None:
    """A payload line is recognised by its first byte (a slice); a frozenset of ints never
    matched, and every payload line went through the marker regex."""
    for line in (b"ABCD\n", b"z7q\n", b"2345\n"):
        assert line[:1] in verify._PAYLOAD_BYTES
    for line in (b"-----END\n", b" ABC\n", b">A\n", b"\n", b""):
        assert line[:1] not in verify._PAYLOAD_BYTES


def test_a_payload_first_byte_never_starts_a_marker() -> None:
    for byte in verify._PAYLOAD_BYTES:
        assert savefile.line_marker(byte.decode() + "----BEGIN PBEM ENTRY-----\n") is None


def test_the_exact_marker_lines_are_what_line_marker_reads() -> None:
    assert savefile.line_marker(verify._BEGIN_LINE.decode()) == "BEGIN"
    assert savefile.line_marker(verify._END_LINE.decode()) == "END"
    assert not savefile.breaks_line(verify._BEGIN_LINE.decode())
    assert not savefile.holds_record(verify._BEGIN_LINE.decode())
    assert not savefile.plain_header_line(verify._BEGIN_LINE.decode())


def test_a_blank_line_is_nothing_to_the_general_reading() -> None:
    blank = "\n"
    assert not savefile.breaks_line(blank)
    assert not savefile.holds_record(blank)
    assert savefile.line_marker(blank) is None
    assert not savefile.is_rng_header(blank)
    assert not savefile.is_save_magic(blank)
