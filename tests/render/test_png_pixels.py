"""The PNG reader the browser tests count colours with: every filter type undone exactly."""

from __future__ import annotations

import random
import struct
import zlib

import pytest

from tests.render.png_pixels import read_png


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def _encode(rows: list[bytes], width: int, bpp: int, kinds: list[int]) -> bytes:
    """A PNG of `rows` with row r filtered by kinds[r] (the encoder side of the spec)."""
    raw, prev = bytearray(), bytes(len(rows[0]))
    for row, kind in zip(rows, kinds, strict=True):
        out = bytearray()
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            guess = [0, a, b, (a + b) >> 1, _paeth(a, b, c)][kind]
            out.append((x - guess) & 255)
        raw += bytes([kind]) + out
        prev = row

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    colour = 2 if bpp == 3 else 6
    head = struct.pack(">IIBBBBB", width, len(rows), 8, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(bytes(raw)))
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("bpp", [3, 4])
def test_every_filter_is_undone(bpp: int) -> None:
    rng = random.Random(bpp)
    width, height = 37, 25
    rows = [bytes(rng.randrange(256) for _ in range(width * bpp)) for _ in range(height)]
    kinds = [r % 5 for r in range(height)]
    pixels = read_png(_encode(rows, width, bpp, kinds))
    assert (pixels.width, pixels.height, pixels.bpp) == (width, height, bpp)
    assert pixels.rows == rows
    assert sum(pixels.colours().values()) == width * height


@pytest.mark.parametrize("bpp", [3, 4])
def test_a_png_read_like_another_gives_its_own_rows(bpp: int) -> None:
    """`like` reuses the other PNG's row only below rows that came out the same: with Up
    filters, B's row 6 is filtered to A's bytes though it differs (its row 5 differs by
    the same amount), and must not be taken from A."""
    rng = random.Random(10 + bpp)
    width, height = 23, 12
    a_rows = [bytes(rng.randrange(256) for _ in range(width * bpp)) for _ in range(height)]
    delta = bytes(rng.randrange(1, 256) for _ in range(width * bpp))
    b_rows = list(a_rows)
    for r in (5, 6):
        b_rows[r] = bytes((x + d) & 255 for x, d in zip(a_rows[r], delta, strict=True))
    kinds = [2] * height
    a_png, b_png = _encode(a_rows, width, bpp, kinds), _encode(b_rows, width, bpp, kinds)
    a = read_png(a_png)
    b = read_png(b_png, like=(a_png, a))
    assert b.rows == b_rows and b.rows != a.rows
    assert b.rows[:5] == a.rows[:5] and b.rows[7:] == a.rows[7:]
    mixed = [r % 5 for r in range(height)]
    c_png = _encode(b_rows, width, bpp, mixed)
    assert read_png(c_png, like=(_encode(a_rows, width, bpp, mixed), a)).rows == b_rows
