"""Byte encodings shared by every hash in the protocol (section 7)."""

from __future__ import annotations

import struct

from pbem import digests
from pbem.errors import PbemError


def is_lower_hex(value: str) -> bool:
    """Whether `value` is lower-case hex digits only, in pairs (the form of every hex field).

    bytes.fromhex reads upper case and skips spaces too, so the round trip back to the one
    form .hex() writes is what checks: about twice as fast as any per-character test.
    """
    try:
        return bytes.fromhex(value).hex() == value
    except ValueError:
        return False


def u32(n: int) -> bytes:
    return struct.pack(">I", n)


def u64(n: int) -> bytes:
    return struct.pack(">Q", n)


def sha256(*parts: bytes) -> bytes:
    return digests.sha256(b"".join(parts)).digest()  # one C call: parts are short


def hex_bytes(value: str, what: str, length: int = 32) -> bytes:
    """Decode a lower-case hex field of `length` bytes; hex fields are hashed as raw bytes."""
    # The usual case in one step; anything else goes through the checks below, which say
    # what is wrong.
    if isinstance(value, str) and len(value) == 2 * length:
        try:
            raw = bytes.fromhex(value)
        except ValueError:
            pass
        else:
            if raw.hex() == value:
                return raw
    if not isinstance(value, str) or len(value) != 2 * length:
        raise PbemError(f"{what} must be {2 * length} hex digits")
    if value != value.lower():
        raise PbemError(f"{what} must be lower-case hex")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise PbemError(f"{what} is not hex") from None
