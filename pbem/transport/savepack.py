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
from pbem.transport.armor import BEGIN, END, LINE_WIDTH, decode_payload

# A block as pbem writes it: both markers alone on their lines, base32 lines between.
_BLOCK = re.compile(rf"{BEGIN}\n([A-Z2-7\n]+?){END}\n")
_U32 = struct.Struct(">I")


class PackError(PbemError):
    """A packed save that is not one whole, well-formed container."""


def pack(text: str) -> bytes | None:
    """The container of `text`, or None when it holds no block in pbem's own armor (or,
    which never should happen, when the container would not rebuild it exactly)."""
    found: list[tuple[re.Match[str], bytes]] = []
    for block in _BLOCK.finditer(text):
        try:
            canonical, signature = decode_payload(block.group(1).replace("\n", ""))
        except ArmorError:
            continue
        found.append(
            (block, _U32.pack(len(canonical)) + canonical + _U32.pack(len(signature)) + signature)
        )
    parts: list[bytes] = []
    last = 0
    count = 0
    for (block, payload), armored in zip(found, armors([p for _, p in found]), strict=True):
        if armored != block.group(0):
            continue  # (not pbem's own form: it stays text)
        parts.append(_text(text[last : block.start()]))
        parts.append(payload)
        last = block.end()
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
    texts = [reader.text()]
    payloads: list[bytes] = []
    size = len(texts[0].encode("utf-8"))
    for _ in range(count):
        start = reader.at
        reader.take(reader.u32())
        reader.take(reader.u32())
        payloads.append(data[start : reader.at])
        texts.append(reader.text())
        size += _armor_size(len(payloads[-1])) + len(texts[-1].encode("utf-8"))
        if size > most:
            raise PackError(f"this turn page's embedded game is over {most} bytes")
    if reader.at != len(data):
        raise PackError(
            f"this turn page's embedded game is damaged: {len(data) - reader.at} bytes"
            " after its last part"
        )
    pieces = [texts[0]]
    for armored, after in zip(armors(payloads), texts[1:], strict=True):
        pieces += (armored, after)
    return "".join(pieces)


def _armor_size(payload: int) -> int:
    """The characters of the armor of a payload of this many bytes (`armors`)."""
    symbols = -(-8 * payload // 5)
    return len(BEGIN) + 1 + symbols + -(-symbols // LINE_WIDTH) + len(END) + 1


def armors(payloads: list[bytes]) -> list[str]:
    """pbem.transport.armor.armor of each entry whose payload (u32(len C) || C ||
    u32(len S) || S) is given: the same texts (tests/transport/test_savepack.py compares
    them), made many times faster, since a page's verify and its render armor every entry
    of its game, and base64.b32encode loops in Python over each 5 bytes. All at once: each
    payload padded with zero bytes to whole 5-byte groups (so that its symbols do not
    depend on its neighbours'), one base32 of them all, each one's symbols cut out."""
    padded = [payload + bytes(-len(payload) % 5) for payload in payloads]
    text = _base32(b"".join(padded))
    out: list[str] = []
    at = 0
    for payload, block in zip(payloads, padded, strict=True):
        symbols = text[at : at + -(-8 * len(payload) // 5)]
        at += 8 * len(block) // 5
        lines = [symbols[i : i + LINE_WIDTH] for i in range(0, len(symbols), LINE_WIDTH)]
        out.append("\n".join([BEGIN, *lines, END, ""]))
    return out


_SYMBOLS = bytes.maketrans(bytes(range(32)), b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


def _base32(data: bytes) -> str:
    """Base32 of `data`, upper case, no padding, in C-level steps: each 5 bytes (40 bits)
    put in a 64-bit lane of one big int by strided copies, each lane's bits spread by
    three mask-and-shift steps (40 -> 2 x 20 -> 4 x 10 -> 8 x 5 bits, one group a byte),
    and the bytes, now 0-31 each, translated to their symbols."""
    groups = -(-len(data) // 5)
    padded = data + bytes(5 * groups - len(data))
    lanes = bytearray(8 * groups)
    for k in range(5):
        lanes[3 + k :: 8] = padded[k::5]
    x = int.from_bytes(lanes, "big")
    low20 = int.from_bytes(b"\0\0\0\0\0\x0f\xff\xff" * groups, "big")
    x = (((x >> 20) & low20) << 32) | (x & low20)
    low10 = int.from_bytes(b"\0\0\x03\xff" * (2 * groups), "big")
    x = (((x >> 10) & low10) << 16) | (x & low10)
    low5 = int.from_bytes(b"\0\x1f" * (4 * groups), "big")
    x = (((x >> 5) & low5) << 8) | (x & low5)
    symbols = -(-8 * len(data) // 5)
    return x.to_bytes(8 * groups, "big").translate(_SYMBOLS)[:symbols].decode("ascii")


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
