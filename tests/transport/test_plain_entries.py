"""movefile.plain_entries: a plain save or move file read one entry at a time gives what
read_entries gives for the whole file, or says NotPlain (the caller then reads it whole)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.transport.armor import armor
from pbem.transport.movefile import NotPlain, plain_entries, read_entries

ROOT = Path(__file__).resolve().parents[2]
C = b'{"body":{"orders":["attack 12"]},"by":"west","kind":"move","seq":17,"v":1}'
S = bytes(range(83))
C2 = b'{"body":{},"by":"soviet","kind":"ack","seq":18,"v":1}'
S2 = bytes(range(100, 183))
PLAIN = "note: two entries\n\n" + armor(C, S) + "\nbetween - with a dash\n" + armor(C2, S2)


def plain(data: bytes) -> list[tuple[bytes, bytes]]:
    return list(plain_entries(io.BytesIO(data)))


@pytest.mark.parametrize("save", sorted((ROOT / "saves").glob("*.pbem"))[:3], ids=lambda p: p.name)
def test_a_shipped_save_reads_as_read_entries_reads_it(save: Path) -> None:
    data = save.read_bytes()
    assert plain(data) == read_entries(data)


@pytest.mark.parametrize(
    "text",
    [
        PLAIN,
        "\ufeff" + PLAIN,
        PLAIN.rstrip("\n"),  # no newline after the last END
        PLAIN.replace("soviet", "Soviet"),
        armor(C, S)
        .lower()
        .replace("pbem entry", "PBEM ENTRY")
        .replace("begin", "BEGIN")
        .replace("end", "END"),
    ],
)
def test_plain_files_read_as_read_entries_reads_them(text: str) -> None:
    data = text.encode("utf-8")
    assert plain(data) == read_entries(data)


@pytest.mark.parametrize(
    "text",
    [
        PLAIN.replace("\n", "\r\n"),  # CRLF markers
        "> " + PLAIN.replace("\n", "\n> "),  # quoted
        PLAIN.replace("-----BEGIN PBEM ENTRY-----", "[code]-----BEGIN PBEM ENTRY-----[/code]", 1),
        PLAIN.replace("-----END PBEM ENTRY-----", "—————END PBEM ENTRY—————", 1),
        "From: a@example.org\nSubject: moves\n\n" + PLAIN,  # a mail
        "From a@example.org Mon Jan  1 00:00:00 2026\n" + PLAIN,  # an mbox
        "<html><body><pre>" + PLAIN + "</pre></body></html>",
        PLAIN[: PLAIN.rindex("-----END")],  # an entry without its END
        # markers a mail client re-wrapped: read_entries reads them, so never read past
        PLAIN.replace("PBEM ENTRY-----", "PBEM\nENTRY-----"),
        PLAIN.replace("BEGIN PBEM", "BEGIN\nPBEM"),
        PLAIN.replace("\n", "\n\n", 25)[: len(PLAIN) // 2] + PLAIN[len(PLAIN) // 2 :],
    ],
)
def test_anything_else_is_not_plain(text: str) -> None:
    with pytest.raises(NotPlain):
        plain(text.encode("utf-8"))


def test_a_damaged_payload_is_refused_never_skipped() -> None:
    lines = PLAIN.split("\n")
    at = lines.index("-----BEGIN PBEM ENTRY-----") + 2
    good = lines[at]
    lines[at] = good[:10] + "1" + good[11:]  # "1" is no base32 symbol
    with pytest.raises(NotPlain):
        plain("\n".join(lines).encode("utf-8"))
    lines[at] = good[:-1]  # a symbol short: the lengths no longer hold
    with pytest.raises(PbemError):
        plain("\n".join(lines).encode("utf-8"))


def test_read_from_where_the_stream_stands() -> None:
    stream = io.BytesIO(b"x" * 10 + PLAIN.encode("utf-8"))
    stream.seek(10)
    assert list(plain_entries(stream)) == [(C, S), (C2, S2)]
