"""`verify._plain_human_line`, the streamed reading's test of the line above each entry,
read as text: the same answer as its reading as bytes (the reference below, the one it
replaced) for any line (no newline but its last byte, as BlockLines gives them), every
byte tried in every place that matters."""

from __future__ import annotations

import itertools

from pbem.verify import _plain_human_line

_PRINTABLE_LINE = bytes(range(0x20, 0x7F)) + b"\n"


def _reference(raw: bytes) -> bool:
    if raw[-1:] != b"\n" or raw.translate(None, _PRINTABLE_LINE):
        return False
    if raw.lstrip()[:1] in (b">", b"[", b"`", b"-"):
        return False
    lowered = raw.lower()
    return b"rng" not in lowered and b"log" not in lowered and b"save" not in lowered


def test_the_text_reading_answers_as_the_bytes_one() -> None:
    line = b"game bb107fd5 seq 12 by german: attack kiev with 2\n"
    lines = [line, b"\n", b"", b" \n", b"   \n", b"x"]
    for byte in range(256):
        one = bytes([byte])
        lines += [one, one + b"\n", b"  " + one + b"x\n", line[:5] + one + line[5:]]
        lines += [line[:-1] + one, one + line]
    for word in (b"rng", b"log", b"save"):
        for cased in itertools.product(*((c, c.upper()) for c in word.decode())):
            lines.append(b"seq 3 " + "".join(cased).encode() + b" x\n")
    lines += [b"\xc3\xa9t\xc3\xa9\n", b"caf\xe9\n", b"-----BEGIN\n", b"  > quoted\n"]
    lines = [raw for raw in lines if b"\n" not in raw[:-1]]  # (lines, as read)
    assert sum(_reference(raw) for raw in lines) > 300  # (both answers are well tried)
    for raw in lines:
        assert _plain_human_line(raw) == _reference(raw), raw
