"""Hash commitments (protocol section 5): bind a hidden value now, open it later.

c = SHA256("pbem-commit/v1" || game || u32(len(label)) || label || salt || canonical(value))
"""

from __future__ import annotations

import os

from pbem.core.canonical import JSON, canonical_bytes
from pbem.core.hashing import hex_bytes, sha256, u32
from pbem.errors import PbemError
from pbem.record import Record

COMMIT_DOMAIN = b"pbem-commit/v1"


def new_salt() -> str:
    # What secrets.token_hex(32) returns (it reads os.urandom too), without importing
    # secrets (hmac, base64, random): a verifier imports this module and never salts.
    return os.urandom(32).hex()


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


class Opening(Record, fields=("label", "salt", "value")):
    """A commitment's opening: its label, salt and value (a Record, not a dataclass: this
    module is on every verification's cold start, pbem.record says why)."""

    label: str
    salt: str
    value: JSON

    def __init__(self, label: str, salt: str, value: JSON) -> None:
        fields = self.__dict__
        fields["label"] = label
        fields["salt"] = salt
        fields["value"] = value

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
