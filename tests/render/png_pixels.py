"""Read a PNG's pixels with zlib and struct alone (no imaging library in the project).

Enough of PNG for browser screenshots: 8-bit RGB or RGBA, not interlaced. The filters
that need no left neighbour's result (None, Up) and Sub are undone on whole rows at once
(bytewise addition on Python integers); Average and Paeth byte by byte.
"""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Pixels:
    width: int
    height: int
    bpp: int  # bytes per pixel: 3 (RGB) or 4 (RGBA)
    rows: list[bytes]

    def colours(self, every: int = 1) -> Counter[bytes]:
        """How many pixels of each RGB colour (on every `every`-th row)."""
        counts: Counter[bytes] = Counter()
        for row in self.rows[::every]:
            if self.bpp == 3:
                counts.update(row[i : i + 3] for i in range(0, len(row), 3))
            else:
                counts.update(row[i : i + 3] for i in range(0, len(row), 4))
        return counts


def read_png(data: bytes, like: tuple[bytes, Pixels] | None = None) -> Pixels:
    """The pixels of a PNG. `like`: another PNG of the same size and its pixels (two
    screenshots of nearly the same drawing): a row whose filtered bytes are that PNG's,
    below rows that came out the same, is that PNG's row, so only rows from a difference
    down to where they agree again are unfiltered (the same rows: test_png_pixels.py)."""
    head, raw = _decompressed(data)
    width, height, depth, colour, _compression, _filter, interlace = head
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG {head}"
    bpp = 3 if colour == 2 else 4
    reference = None
    if like is not None:
        other_head, other_raw = _decompressed(like[0])
        if other_head == head and like[1].rows:
            reference = (other_raw, like[1].rows)
    return Pixels(width, height, bpp, _unfilter(raw, width * bpp, height, bpp, reference))


def _decompressed(data: bytes) -> tuple[tuple[int, ...], bytes]:
    """(IHDR fields, the inflated IDAT stream)."""
    assert data[:8] == SIGNATURE, "not a PNG"
    pos, idat, head = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    assert head is not None, "PNG without IHDR"
    return head, zlib.decompress(b"".join(idat))


def _unfilter(
    raw: bytes,
    size: int,
    height: int,
    bpp: int,
    reference: tuple[bytes, list[bytes]] | None = None,
) -> list[bytes]:
    high = int.from_bytes(b"\x80" * size, "big")
    low = high ^ int.from_bytes(b"\xff" * size, "big")

    def add(a: int, b: int) -> int:  # every byte (a + b) mod 256, no carry between bytes
        return ((a & low) + (b & low)) ^ ((a ^ b) & high)

    prev, rows = bytes(size), []
    same_above = reference is not None  # every row so far equals the reference's
    for r in range(height):
        start = r * (size + 1)
        if same_above:
            assert reference is not None
            other_raw, other_rows = reference
            if raw[start : start + 1 + size] == other_raw[start : start + 1 + size]:
                cur = other_rows[r]  # same filter, same bytes, same row above: same row
                rows.append(cur)
                prev = cur
                continue
        kind, line = raw[start], raw[start + 1 : start + 1 + size]
        if kind == 0:
            cur = line
        elif kind == 2:  # Up
            up = add(int.from_bytes(line, "big"), int.from_bytes(prev, "big"))
            cur = up.to_bytes(size, "big")
        elif kind == 1:  # Sub: a prefix sum per channel, in doubling steps
            x, k = int.from_bytes(line, "big"), bpp
            while k < size:
                x = add(x, x >> (8 * k))
                k *= 2
            cur = x.to_bytes(size, "big")
        else:
            cur = _slow(kind, bytearray(line), prev, bpp)
        rows.append(cur)
        prev = cur
        if reference is not None:
            same_above = cur == reference[1][r]
    return rows


def _slow(kind: int, out: bytearray, prev: bytes, bpp: int) -> bytes:
    """Average (3) or Paeth (4), byte by byte: each byte needs its left neighbour's result.
    (Paeth's distances from p = a + b - c, written without p: |b - c|, |a - c| and
    |a + b - 2c|; the first pixel's a and c are 0.)"""
    for i in range(bpp):  # a = c = 0: Average adds b // 2, Paeth b
        out[i] = (out[i] + (prev[i] >> 1 if kind == 3 else prev[i])) & 255
    if kind == 3:
        for i in range(bpp, len(out)):
            out[i] = (out[i] + ((out[i - bpp] + prev[i]) >> 1)) & 255
        return bytes(out)
    for i in range(bpp, len(out)):
        a = out[i - bpp]
        b = prev[i]
        c = prev[i - bpp]
        pa = b - c
        pb = a - c
        pc = pa + pb
        if pa < 0:
            pa = -pa
        if pb < 0:
            pb = -pb
        if pc < 0:
            pc = -pc
        out[i] = (out[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return bytes(out)
