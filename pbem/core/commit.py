"""Hash commitments (protocol section 5): bind a hidden value now, open it later.

c = SHA256("pbem-commit/v1" || game || u32(len(label)) || label || salt || canonical(value))
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from pbem.core.canonical import JSON, canonical_bytes
from pbem.core.hashing import hex_bytes, sha256, u32
from pbem.errors import PbemError

COMMIT_DOMAIN = b"pbem-commit/v1"


def new_salt() -> str:
    return secrets.token_hex(32)


def commitment(game: str, label: str, salt: str, value: JSON) -> str:
    """The hex commitment to `value` under `label` in `game`."""
    label_bytes = label.encode("utf-8")
    return sha256(
        COMMIT_DOMAIN,
        hex_bytes(game, "game id"),
        u32(len(label_bytes)),
        label_bytes,
        hex_bytes(salt, "salt"),
        canonical_bytes(value),
    ).hex()


@dataclass(frozen=True)
class Opening:
    label: str
    salt: str
    value: JSON

    def to_json(self) -> dict[str, JSON]:
        return {"label": self.label, "salt": self.salt, "value": self.value}

    @staticmethod
    def from_json(data: JSON) -> Opening:
        if not isinstance(data, dict) or set(data) != {"label", "salt", "value"}:
            raise PbemError("an opening must be an object with exactly label, salt and value")
        if not isinstance(data["label"], str) or not isinstance(data["salt"], str):
            raise PbemError("an opening's label and salt must be strings")
        return Opening(data["label"], data["salt"], data["value"])


def check_opening(game: str, committed: str, opening: Opening) -> None:
    """Raise unless `opening` opens the commitment `committed`."""
    if commitment(game, opening.label, opening.salt, opening.value) != committed:
        raise PbemError(f"opening of {opening.label!r} does not match its commitment")
