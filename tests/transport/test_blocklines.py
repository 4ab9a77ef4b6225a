"""BlockLines: a file's lines read in blocks are the file's own lines; a payload read in one
step is what a line-by-line reader gathers, and anything else is left to it. The block
fast paths of the RNG log digest give what the per-line reading gives."""

from __future__ import annotations

import io
import random

import pytest

from pbem.errors import ArmorError
from pbem.transport.armor import BEGIN, END, armor, decode_lines, decode_payload
from pbem.transport.blocklines import BlockLines
from pbem.transport.savefile import RngDigest, printed_rng_digest, printed_rng_digest_of

C = b'{"body":{"orders":["attack 12"]},"by":"west","kind":"move","seq":17,"v":1}'
S = bytes(range(83))


def _random_text(rng: random.Random) -> bytes:
    pieces = [b"\n", b"\r\n", b"abc", b"", b"x" * 70, b"\xe2\x80\x94", b"-----", b"  "]
    return b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 60)))


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64, 1 << 16])
def test_the_lines_are_the_files_own(block: int) -> None:
    rng = random.Random(block)
    for _ in range(200):
        data = _random_text(rng)
        assert list(BlockLines(io.BytesIO(data), block)) == list(io.BytesIO(data))


_BASE32 = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz234567")


def _payload_lines(data: bytes) -> list[bytes] | None:
    """The lines after the BEGIN line up to the END line as pbem writes it, as a
    line-by-line reader reads them; None when there is no such END line."""
    lines = list(io.BytesIO(data))[1:]
    end = (END + "\n").encode()
    return lines[: lines.index(end)] if end in lines else None


def _decoded(lines: list[bytes]) -> object:
    """What decoding the symbols of those lines gives (the pair, or the error's text),
    when each is base32 symbols only (blank lines too); None otherwise."""
    if any(not set(line[:-1]) <= _BASE32 for line in lines):
        return None
    try:
        return decode_payload(b"".join(line[:-1] for line in lines).decode("ascii"))
    except ArmorError as exc:
        return str(exc)


PAYLOAD = armor(C, S).split("\n")[1:-2]


@pytest.mark.parametrize(
    "body",
    [
        "\n".join(PAYLOAD) + "\n" + END + "\n",
        "\n".join(PAYLOAD).lower() + "\n" + END + "\nafter\n",
        "\n".join(PAYLOAD) + "\n\n" + END + "\n",  # a blank line inside
        "\n" + "\n".join(PAYLOAD) + "\n" + END + "\n",  # a blank first line
        "\n".join(PAYLOAD) + "\n" + END,  # no newline after END
        "\n".join(PAYLOAD) + "\n" + END + "\r\n",
        "\n".join(PAYLOAD) + "\r\n" + END + "\n",
        "\n".join(PAYLOAD) + "\n> " + END + "\n",
        "\n".join(PAYLOAD) + "\n" + BEGIN + "\n" + "\n".join(PAYLOAD) + "\n" + END + "\n",
        "\n".join(PAYLOAD[:2]) + " \n" + "\n".join(PAYLOAD[2:]) + "\n" + END + "\n",
        "\n".join(PAYLOAD[:2]) + "1\n" + "\n".join(PAYLOAD[2:]) + "\n" + END + "\n",
        "\n".join(PAYLOAD[:2]) + "_\n" + "\n".join(PAYLOAD[2:]) + "\n" + END + "\n",
        "\n".join(PAYLOAD[:2]) + "A\n" + "\n".join(PAYLOAD[2:]) + "\n" + END + "\n",
        "\n".join(PAYLOAD)[:-1] + "\n" + END + "\n",  # a symbol short
        "\n".join(PAYLOAD) + "\n" + "\xe9\n" + END + "\n",
        END + "\n",  # an empty payload
        "\n".join(PAYLOAD),  # no END at all
        "\n".join(PAYLOAD) + "x" + END + "\n",  # END not at a line's start
    ],
)
@pytest.mark.parametrize("block", [3, 64, 1 << 16])
def test_a_payload_in_one_step_is_what_the_lines_give(body: str, block: int) -> None:
    data = (BEGIN + "\n" + body).encode("utf-8")
    lines = BlockLines(io.BytesIO(data), block)
    assert next(lines) == (BEGIN + "\n").encode()
    taken = lines.take_payload()
    rest = list(lines)
    expected = _payload_lines(data)
    if taken is None:  # nothing read: the line readers go on from the same line
        assert expected is None or body.startswith(END)
        assert rest == list(io.BytesIO(data))[1:]
        return
    assert expected is not None and not body.startswith(END)
    assert taken == b"".join(expected)
    assert b"".join(rest) == data[data.index(END.encode()) + len(END) + 1 :]
    try:
        got: object = decode_lines(taken)
    except ArmorError as exc:
        got = str(exc)
    assert got == _decoded(expected)


RECORDS = [
    "rng 3 4 1..6 5 a die",
    "rng 5 6 private secret",
    "rng 7 8 1..52 12 a card]",
    "rng 7 8 1..52 12 a card`",
    "rng 9 10 1..6 6  two spaces",
    "rng 9 10 1..6 6 trailing ",
    "rng 1 2 1..6 1 caf\u00e9",
    "rng x 2",
    "RNG 1 2 1..6 1 upper",
    "  rng 1 2 1..6 1 indented",
    "> rng 1 2 1..6 1 quoted",
    "",
    "some human text",
    "RNG LOG",
    "rng 1 2 1..6 1 tab\there",
    "rng 1 2 1..6 1 bell\x0bhere",
]


@pytest.mark.parametrize("block", [5, 64, 1 << 16])
def test_the_rng_digest_of_blocks_is_the_per_line_one(block: int) -> None:
    rng = random.Random(block)
    for _ in range(300):
        lines = [rng.choice(RECORDS[:3] * 4 + RECORDS) for _ in range(rng.randrange(0, 30))]
        text = "\n".join(lines) + rng.choice(["", "\n"])
        data = text.encode("utf-8")
        per_line = printed_rng_digest(
            raw.decode("utf-8", errors="replace") for raw in io.BytesIO(data)
        )
        blocks = printed_rng_digest_of(BlockLines(io.BytesIO(data), block))
        if per_line is None:
            assert blocks is None
        else:
            assert blocks is not None
            assert (blocks.count, blocks.digest()) == (per_line.count, per_line.digest())


def test_lines_added_at_once_are_added_one_by_one() -> None:
    rng = random.Random(7)
    for _ in range(300):
        lines = [rng.choice(RECORDS) for _ in range(rng.randrange(0, 12))]
        batch, single = RngDigest(), RngDigest()
        batch.add_lines(lines)
        for line in lines:
            single.add_line(line)
        assert (batch.count, batch.digest()) == (single.count, single.digest())
