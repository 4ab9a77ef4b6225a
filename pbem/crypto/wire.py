"""The SSH wire encoding (RFC 4251 section 5) shared by key files, public keys and SSHSIG blobs."""

from __future__ import annotations

import struct


def u32(n: int) -> bytes:
    return struct.pack(">I", n)


def string(data: bytes | str) -> bytes:
    """An SSH `string`: a u32 length followed by the bytes."""
    raw = data.encode() if isinstance(data, str) else data
    return u32(len(raw)) + raw


class WireError(ValueError):
    """Malformed wire data; callers turn it into the PbemError that fits their context."""


class Reader:
    """Reads SSH wire values from a byte string, refusing to read past its end."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def raw(self, n: int, what: str) -> bytes:
        end = self._pos + n
        if end > len(self._data):
            raise WireError(f"truncated at {what}")
        chunk = self._data[self._pos : end]
        self._pos = end
        return chunk

    def u32(self, what: str) -> int:
        value: int = struct.unpack(">I", self.raw(4, what))[0]
        return value

    def string(self, what: str) -> bytes:
        return self.raw(self.u32(what), what)

    def text(self, what: str) -> str:
        try:
            return self.string(what).decode()
        except UnicodeDecodeError:
            raise WireError(f"{what} is not UTF-8") from None

    def rest(self) -> bytes:
        chunk = self._data[self._pos :]
        self._pos = len(self._data)
        return chunk

    @property
    def remaining(self) -> int:
        return len(self._data) - self._pos

    def end(self, what: str) -> None:
        """Insist that everything was read: trailing bytes would be unsigned, unverified data."""
        if self._pos != len(self._data):
            raise WireError(f"{len(self._data) - self._pos} trailing bytes after {what}")
