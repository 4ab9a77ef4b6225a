"""Entries of the log (protocol section 3): their fields, their ids, and their shape checks.

An entry is canonical JSON bytes plus an SSHSIG signature over exactly those bytes.
This module checks what can be checked of one entry alone; whether it fits the
log (game, seq, prev, reveal, turn order) is the adjudicator's job.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from pbem.core.canonical import JSON, canonical_bytes, parse_canonical
from pbem.errors import PbemError

VERSION = 1
GENESIS, JOIN, MOVE, ACK = "genesis", "join", "move", "ack"
_FIELDS = {"v", "kind", "game", "seq", "prev", "by", "reveal", "body"}


def entry_id(canonical: bytes) -> str:
    return hashlib.sha256(canonical).hexdigest()


def _is_hex32(value: Any) -> bool:
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )


@dataclass(frozen=True)
class Entry:
    """One signed entry: canonical bytes, signature, and the parsed fields."""

    canonical: bytes
    signature: bytes
    data: dict[str, JSON] = field(compare=False, repr=False)
    id: str = field(compare=False)

    @staticmethod
    def from_wire(canonical: bytes, signature: bytes) -> Entry:
        """Parse and shape-check an entry received from outside."""
        data = parse_canonical(canonical)
        _check_shape(data)
        return Entry(canonical, signature, data, entry_id(canonical))

    @staticmethod
    def build(fields: dict[str, JSON], signature: bytes = b"") -> Entry:
        """An entry from fields we made ourselves (signature added by the signer)."""
        _check_shape(fields)
        canonical = canonical_bytes(fields)
        return Entry(canonical, signature, parse_canonical(canonical), entry_id(canonical))

    def with_signature(self, signature: bytes) -> Entry:
        return Entry(self.canonical, signature, self.data, self.id)

    @property
    def kind(self) -> str:
        return str(self.data["kind"])

    @property
    def seq(self) -> int:
        return int(self.data["seq"])

    @property
    def by(self) -> str:
        return str(self.data["by"])

    @property
    def game(self) -> str | None:
        return self.data.get("game")

    @property
    def prev(self) -> str | None:
        return self.data.get("prev")

    @property
    def reveal(self) -> str | None:
        return self.data.get("reveal")

    @property
    def body(self) -> dict[str, JSON]:
        return self.data["body"]

    def describe(self) -> str:
        """Short reference used in every error: 'entry 7 by german'."""
        return f"entry {self.seq} by {self.by}"


def _check_shape(data: JSON) -> None:
    if not isinstance(data, dict):
        raise PbemError("an entry must be a JSON object")
    unknown = set(data) - _FIELDS
    if unknown:
        names = ", ".join(sorted(unknown))
        if not names.isprintable():  # ASCII keys may still hold a newline or a control byte
            names = ", ".join(repr(name) for name in sorted(unknown))
        raise PbemError(f"unknown entry field(s): {names}")
    if type(data.get("v")) is not int or data.get("v") != VERSION:
        raise PbemError(f"unsupported protocol version {data.get('v')!r} (this is v{VERSION})")
    kind, seq, by, body = data.get("kind"), data.get("seq"), data.get("by"), data.get("body")
    if not isinstance(kind, str) or not kind:
        raise PbemError("entry has no kind")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise PbemError("entry seq must be a non-negative integer")
    if not isinstance(by, str) or not by:
        raise PbemError("entry has no signing role (by)")
    if not isinstance(body, dict):
        raise PbemError("entry body must be an object")
    if kind == GENESIS:
        if seq != 0 or "game" in data or "prev" in data or "reveal" in data:
            raise PbemError("genesis must have seq 0 and no game, prev or reveal")
        return
    if seq == 0:
        raise PbemError("only the genesis entry has seq 0")
    for name in ("game", "prev"):
        if not _is_hex32(data.get(name)):
            raise PbemError(f"entry {seq}: {name} must be 64 lower-case hex digits")
    if kind == JOIN:
        if "reveal" in data:
            raise PbemError(f"entry {seq}: a join carries no reveal")
    elif not _is_hex32(data.get("reveal")):
        raise PbemError(f"entry {seq}: reveal must be 64 lower-case hex digits")
