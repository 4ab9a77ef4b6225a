"""A save text as a turn page carries it raw (issue 29): its armored entries as bytes.

gzip compresses an armored entry badly: the same JSON in two entries lands at different
offsets within base32's 5-byte groups, so its armor shares little text with the other's.
A page therefore carries its save as this container, in which every armored block that
is exactly what pbem writes (pbem.transport.armor.armor of its own canonical bytes and
signature) is replaced by those raw bytes, and gzip finds the repeats again:

    u32(N) || T0 || P1 || T1 || ... || PN || TN

where each Ti is u32(length) || UTF-8 text between blocks, and each Pi is the armor's own
payload, u32(len C) || C || u32(len S) || S. Rebuilding is concatenating T0,
armor(P1), T1, ...: exactly the save text, byte for byte (`pack` checks it and gives
None otherwise, when the page carries the text itself). A block in any other form
(re-wrapped, lower case, ...) stays in its Ti as text. The page's verifier
(pbem/render/verifier.js, `unpackSave`) reads the same container the same strict way.
"""

from __future__ import annotations

import re
import struct

from pbem.errors import ArmorError, PbemError
from pbem.transport.armor import BEGIN, END, armor, decode_payload

# A block as pbem writes it: both markers alone on their lines, base32 lines between.
_BLOCK = re.compile(rf"{BEGIN}\n([A-Z2-7\n]+?){END}\n")
_U32 = struct.Struct(">I")


class PackError(PbemError):
    """A packed save that is not one whole, well-formed container."""


def pack(text: str) -> bytes | None:
    """The container of `text`, or None when it holds no block in pbem's own armor (or,
    which never should happen, when the container would not rebuild it exactly)."""
    parts: list[bytes] = []
    last = 0
    count = 0
    for found in _BLOCK.finditer(text):
        try:
            canonical, signature = decode_payload(found.group(1).replace("\n", ""))
        except ArmorError:
            continue
        if armor(canonical, signature) != found.group(0):
            continue  # (not pbem's own form: it stays text)
        parts.append(_text(text[last : found.start()]))
        parts.append(_U32.pack(len(canonical)) + canonical + _U32.pack(len(signature)) + signature)
        last = found.end()
        count += 1
    if not count:
        return None
    parts.append(_text(text[last:]))
    packed = _U32.pack(count) + b"".join(parts)
    try:
        if unpack(packed, len(text.encode("utf-8"))) != text:
            return None
    except PackError:
        return None
    return packed


def _text(part: str) -> bytes:
    data = part.encode("utf-8")
    return _U32.pack(len(data)) + data


def unpack(data: bytes, most: int) -> str:
    """The save text a container rebuilds, of at most `most` UTF-8 bytes. Strict: a count,
    a length running past the end, bytes left over, text that is not UTF-8 or a text
    past `most` raise PackError (one line), never a part of the save."""
    reader = _Reader(data)
    count = reader.u32()
    pieces = [reader.text()]
    size = len(pieces[0].encode("utf-8"))
    for _ in range(count):
        start = reader.at
        reader.take(reader.u32())
        reader.take(reader.u32())
        payload = data[start : reader.at]
        canonical = payload[4 : 4 + _U32.unpack_from(payload)[0]]
        signature = payload[8 + len(canonical) :]
        block = armor(canonical, signature)
        pieces.append(block)
        pieces.append(reader.text())
        size += len(block) + len(pieces[-1].encode("utf-8"))
        if size > most:
            raise PackError(f"this turn page's embedded game is over {most} bytes")
    if reader.at != len(data):
        raise PackError(
            f"this turn page's embedded game is damaged: {len(data) - reader.at} bytes"
            " after its last part"
        )
    return "".join(pieces)


class _Reader:
    """Reads a container front to back; any length past its end is damage."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, n: int) -> bytes:
        if n > len(self.data) - self.at:
            raise PackError("this turn page's embedded game is damaged: a part runs past its end")
        part = self.data[self.at : self.at + n]
        self.at += n
        return part

    def u32(self) -> int:
        value: int = _U32.unpack(self.take(4))[0]
        return value

    def text(self) -> str:
        try:
            return self.take(self.u32()).decode("utf-8")
        except UnicodeDecodeError as error:
            raise PackError("this turn page's embedded game is damaged: not UTF-8") from error
