"""The PBEM ENTRY armor (protocol section 7): entries as base32 text that survives mail and forums.

    -----BEGIN PBEM ENTRY-----
    <base32 of u32(len C) || C || u32(len S) || S, upper case, no padding, 64 per line>
    -----END PBEM ENTRY-----

Reading is lenient about what transport does to text (quote markers, case, CRLF,
whitespace, re-wrapping) and strict about everything else: any other character,
a missing END, wrong lengths or trailing bytes raise ArmorError, because a
silently skipped or half-read entry would hide damage from the verifier.
"""

from __future__ import annotations

import base64
import re
import struct
from collections.abc import Iterator

from pbem.errors import ArmorError
from pbem.lazy import lazy_pattern

BEGIN = "-----BEGIN PBEM ENTRY-----"
END = "-----END PBEM ENTRY-----"
LINE_WIDTH = 64

_H = r"[^\S\n]"  # whitespace other than a newline, so patterns stay within one line
# Decoration a forum or a Markdown paste may put on a marker's own line: [code] / [/code]
# tags and backtick fences (never allowed on payload lines). Possessive `*+` quantifiers
# over disjoint alternatives keep the scan linear on any input.
_TAG = r"\[/?[A-Za-z]+(?:=[^\]\n]*)?\]"
_DASHES = "[-\u2013\u2014]++"  # also typographic "smart dashes" from forum software
# Between a marker's words: spaces, or one line break where a mail client re-wrapped a
# long (deeply quoted) marker line at a space, the rest of it on the next line, with or
# without the quote markers put back.
_GAP = rf"{_H}*+(?:\n(?:{_H}|>)*+)?"
_MARKER = lazy_pattern(
    rf"^(?:{_H}|>|{_TAG}|`)*+{_DASHES}{_GAP}(BEGIN|END){_GAP}PBEM{_GAP}ENTRY{_H}*+{_DASHES}"
    rf"(?:{_H}|{_TAG}|`)*+$",
    re.IGNORECASE | re.MULTILINE,
)
# A marker's first half left on its line by such a re-wrap ("-----BEGIN PBEM"): a reader
# going line by line sees it and gives the text to the whole-text reader.
_MARKER_HALF = lazy_pattern(rf"{_DASHES}{_H}*+(?:BEGIN|END)\b", re.IGNORECASE)
# Leading quote markers of a line, any depth, with spaces; crossing into the next
# lines is fine, since what it crosses there is leading too.
_QUOTE_PREFIX = lazy_pattern(r"\n[\s>]+")
_NOT_BASE32 = lazy_pattern(r"[^A-Za-z2-7]")
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_DIGITS = "0123456789abcdefghijklmnopqrstuv"
# Base32 symbol -> digit of Python's int(..., 32): decoding becomes one C-level int parse,
# about 25 times faster than base64.b32decode (which loops in Python).
_TO_DIGITS = str.maketrans(_B32 + _B32.lower(), _DIGITS + _DIGITS)
# The same on ASCII bytes, where both the check and the translation are one C-level pass:
# deleting every base32 symbol leaves exactly the characters that are damage.
_B32_BYTES = (_B32 + _B32.lower()).encode("ascii")
_TO_DIGIT_BYTES = bytes.maketrans(_B32_BYTES, (_DIGITS + _DIGITS).encode("ascii"))


def encode_payload(canonical: bytes, signature: bytes) -> str:
    """Base32 (upper case, no padding) of u32(len C) || C || u32(len S) || S."""
    packed = (
        struct.pack(">I", len(canonical))
        + canonical
        + struct.pack(">I", len(signature))
        + signature
    )
    return base64.b32encode(packed).decode("ascii").rstrip("=")


def armor(canonical: bytes, signature: bytes) -> str:
    """The armored entry, marker lines included, ending with a newline."""
    payload = encode_payload(canonical, signature)
    lines = [payload[i : i + LINE_WIDTH] for i in range(0, len(payload), LINE_WIDTH)]
    return "\n".join([BEGIN, *lines, END, ""])


def _base32_decode(payload: str | bytes) -> bytes:
    """Base32 symbols (both cases, already checked) to bytes, padding bits checked."""
    _check_length(len(payload))
    if isinstance(payload, bytes):
        value = int(payload.translate(_TO_DIGIT_BYTES), 32)
    else:
        value = int(payload.translate(_TO_DIGITS), 32)
    return _value_bytes(value, len(payload))


def _check_length(n: int) -> None:
    if n == 0 or (5 * n) % 8 >= 5:
        raise ArmorError(f"payload of {n} characters is not a whole number of bytes")


def _value_bytes(value: int, n: int) -> bytes:
    """The bytes that `n` base32 symbols of value `value` stand for, padding bits checked."""
    _check_length(n)
    spare_bits = (5 * n) % 8
    # The encoder pads with zero bits; anything else means a changed final character.
    if value & ((1 << spare_bits) - 1):
        raise ArmorError("payload's last character is damaged")
    return (value >> spare_bits).to_bytes(5 * n // 8, "big")


# Every byte to a digit of int(..., 32): a base32 symbol to its own, any other byte to "!",
# which int() refuses wherever it stands (it takes no "_", space or sign from here).
def _digit_or_refused() -> bytes:
    table = bytearray(b"!" * 256)
    digits = _DIGITS.encode("ascii")
    table[ord("A") : ord("Z") + 1] = table[ord("a") : ord("z") + 1] = digits[:26]
    table[ord("2") : ord("7") + 1] = digits[26:]
    return bytes(table)


_TO_DIGIT_OR_REFUSED = _digit_or_refused()


def decode_lines(lines: bytes) -> tuple[bytes, bytes] | None:
    """`decode_payload` of the symbols of `lines` (ASCII lines, each ended by "\\n"),
    when they hold base32 symbols and newlines only; None when they hold any other byte.

    One pass drops the newlines, checks every other byte and turns it into a digit of
    int(..., 32) (`_TO_DIGIT_OR_REFUSED`): exactly what joining the lines and
    `decode_payload` do when every byte is a symbol, and they raise the same errors for
    the lengths."""
    digits = lines.translate(_TO_DIGIT_OR_REFUSED, b"\n")
    try:
        value = int(digits, 32)
    except ValueError:  # (a byte that is not a symbol; or no symbol at all)
        return None
    # `_value_bytes` and `_unpack` in line for a payload they accept (a whole number of
    # bytes, zero padding bits, both lengths within the data and nothing after): the same
    # bytes, without four calls on every entry. Anything else goes through them, which
    # raise what is wrong.
    n = len(digits)
    spare_bits = (5 * n) % 8
    if spare_bits < 5 and not value & ((1 << spare_bits) - 1):
        data = (value >> spare_bits).to_bytes(5 * n // 8, "big")
        size = len(data)
        if size >= 8:
            s_at = 4 + _U32(data, 0)[0]
            if s_at + 4 <= size and s_at + 4 + _U32(data, s_at)[0] == size:
                return data[4:s_at], data[s_at + 4 :]
    return _unpack(_value_bytes(value, n))


def decode_payload(payload: str) -> tuple[bytes, bytes]:
    """(canonical bytes, signature blob) from a whitespace-free base32 payload (either case)."""
    symbols = payload.encode("ascii") if payload.isascii() else None
    if symbols is None or symbols.translate(None, _B32_BYTES):
        bad = _NOT_BASE32.search(payload)
        assert bad is not None  # a character that is not ASCII, or not a base32 symbol
        raise ArmorError(f"character {bad.group()!r} is not base32")
    return _unpack(_base32_decode(symbols))


# struct.unpack_from of one big-endian u32, bound once.
_U32 = struct.Struct(">I").unpack_from


def _unpack(data: bytes) -> tuple[bytes, bytes]:
    """(canonical bytes, signature blob) from u32(len C) || C || u32(len S) || S."""
    if len(data) < 4:
        raise ArmorError("payload too short for the entry length")
    (c_len,) = struct.unpack_from(">I", data, 0)
    s_at = 4 + c_len
    if s_at + 4 > len(data):
        raise ArmorError(f"entry length {c_len} runs past the end of the payload")
    (s_len,) = struct.unpack_from(">I", data, s_at)
    end = s_at + 4 + s_len
    if end > len(data):
        raise ArmorError(f"signature length {s_len} runs past the end of the payload")
    if end != len(data):
        raise ArmorError(f"{len(data) - end} trailing bytes after the signature")
    return data[4:s_at], data[s_at + 4 : end]


def marker_kind(line: str) -> str | None:
    """ "BEGIN" or "END" when `line` (one line, any quoting or decoration) is a marker line."""
    found = _MARKER.match(line)
    return found.group(1).upper() if found else None


def may_start_marker(line: str) -> bool:
    """Whether `line` could be the first line of a marker re-wrapped over two lines."""
    return _MARKER_HALF.search(line) is not None


def has_marker(text: str) -> bool:
    """Whether `text` holds at least one BEGIN or END marker line."""
    return _MARKER.search(text) is not None


def _clean(region: str) -> str:
    """The payload characters in `region`, which starts with the newline ending a marker line.

    Quote markers are stripped only when there are some: the common unquoted case is
    then a single C-level split.
    """
    payload = "".join(region.split())
    if ">" in payload:
        payload = "".join(_QUOTE_PREFIX.sub("\n", region).split())
    return payload


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _locate_damage(text: str, start: int, stop: int) -> tuple[int, str]:
    """Line number and character of the first damage between two markers (the slow path)."""
    pos = start
    for line in text[start:stop].split("\n"):
        bad = _NOT_BASE32.search(_clean("\n" + line))
        if bad:
            return _line_of(text, pos), bad.group()
        pos += len(line) + 1
    raise AssertionError("no damage found")  # only called after damage was seen


def _markers(text: str) -> Iterator[re.Match[str]]:
    """The marker lines of `text`, in order: the same matches as `_MARKER.finditer(text)`.

    A marker line holds at least one dash. Without typographic dashes in the text, only
    the lines holding an ASCII dash are tried, each from its start, instead of letting the
    regex try every position of every payload line (three times faster on a save). A match
    starts at a line's start and holds its first dash (a re-wrapped marker goes on to the
    next line), so matching from each line holding a dash finds the same ones.
    """
    if "\u2013" in text or "\u2014" in text:  # (instant for an ASCII text)
        yield from _MARKER.finditer(text)
        return
    find, match = text.find, _MARKER.match
    pos = 0
    while True:
        dash = find("-", pos)
        if dash < 0:
            return
        found = match(text, text.rfind("\n", 0, dash) + 1)
        if found is not None:
            yield found
        end = find("\n", dash)
        if end < 0:
            return
        pos = end + 1


def find_entries(text: str) -> list[tuple[bytes, bytes]]:
    """Every armored entry in `text`, in order, as (canonical bytes, signature blob)."""
    entries: list[tuple[bytes, bytes]] = []
    begin: re.Match[str] | None = None
    for marker in _markers(text):
        is_begin = marker.group(1).upper() == "BEGIN"
        number = len(entries) + 1
        if begin is None and not is_begin:
            raise ArmorError(
                f"armored entry {number}: END marker at line {_line_of(text, marker.start())} "
                "without a BEGIN"
            )
        if begin is not None and is_begin:
            raise ArmorError(
                f"armored entry {number} (line {_line_of(text, begin.start())}): missing END "
                f"before the next BEGIN at line {_line_of(text, marker.start())}"
            )
        if is_begin:
            begin = marker
            continue
        assert begin is not None
        payload = _clean(text[begin.end() : marker.start()])
        try:
            entries.append(decode_payload(payload))
        except ArmorError as exc:
            if _NOT_BASE32.search(payload):
                line, char = _locate_damage(text, begin.end(), marker.start())
                raise ArmorError(
                    f"armored entry {number}, line {line}: character {char!r} is damage"
                ) from None
            raise ArmorError(
                f"armored entry {number} (line {_line_of(text, begin.start())}): {exc}"
            ) from None
        begin = None
    if begin is not None:
        raise ArmorError(
            f"armored entry {len(entries) + 1} (line {_line_of(text, begin.start())}): "
            "missing END marker"
        )
    return entries
