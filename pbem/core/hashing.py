"""Byte encodings shared by every hash in the protocol (section 7)."""

from __future__ import annotations

import hashlib
import struct

from pbem.errors import PbemError


def u32(n: int) -> bytes:
    return struct.pack(">I", n)


def u64(n: int) -> bytes:
    return struct.pack(">Q", n)


def sha256(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for part in parts:
        h.update(part)
    return h.digest()


def hex_bytes(value: str, what: str, length: int = 32) -> bytes:
    """Decode a lower-case hex field of `length` bytes; hex fields are hashed as raw bytes."""
    if not isinstance(value, str) or len(value) != 2 * length:
        raise PbemError(f"{what} must be {2 * length} hex digits")
    if value != value.lower():
        raise PbemError(f"{what} must be lower-case hex")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise PbemError(f"{what} is not hex") from None
