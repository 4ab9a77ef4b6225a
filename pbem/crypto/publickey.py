"""Ed25519 public keys, and what signs for one (protocol section 2): all that checking a
signature needs.

A player's public key travels as an OpenSSH public-key line and is named by its
`SHA256:` fingerprint exactly as `ssh-keygen -l` prints it, so players can compare
keys with tools they already trust.

Equality: two PublicKey values are equal (and hash equal) when their raw keys are
equal; the comment is a label chosen by the owner and is not part of the identity.

A module of its own so that a `pbem verify` (pbem.crypto.sshsig, pbem.ledger) imports
only the Ed25519 public key: private keys and their files (pbem.crypto.keys) bring
`cryptography`'s serialization and cipher modules and bcrypt.
"""

from __future__ import annotations

import base64
from functools import cached_property

from cryptography.hazmat.bindings._rust import openssl as _rust_openssl

from pbem import digests
from pbem.crypto.keyline import KEY_TYPE, parse_key_line, raw_from_blob
from pbem.crypto.wire import string
from pbem.errors import KeyError_
from pbem.hints import TYPE_CHECKING, Protocol, cast
from pbem.lazy import lazy_module
from pbem.record import Record

if TYPE_CHECKING:
    from collections.abc import Callable

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

__all__ = ["KEY_TYPE", "NEEDS_FILE", "PublicKey", "Signer"]

# What an operation that needs a key's seed says when only ssh-agent holds the key
# (pbem.crypto.agent): an agent signs, but has no operation that decrypts.
NEEDS_FILE = "needs the private key file: ssh-agent signs but cannot decrypt"

# KEY_TYPE, "ssh-ed25519", comes from pbem.crypto.keyline.

# cryptography's Ed25519PublicKey.from_public_bytes returns what this function of its Rust
# binding returns (the same object: tests/crypto/test_publickey_binding.py); called
# directly, it spares importing the public module and what it imports (cryptography.utils,
# the serialization enums), about a twentieth of a genesis's `pbem verify`. A binding with
# none (another backend or version): the public class, which says why it cannot.
_BINDING = getattr(_rust_openssl, "ed25519", None)
_ed25519 = lazy_module("cryptography.hazmat.primitives.asymmetric.ed25519")
# (cryptography.exceptions imports typing: read only when a signature does not verify)
_exceptions = lazy_module("cryptography.exceptions")


class PublicKey(Record, fields=("raw", "comment"), uncompared=("comment",)):
    """A raw 32-byte Ed25519 public key with the comment of its OpenSSH line.

    A frozen record (pbem.record): equal, and hashed, by the raw key alone."""

    raw: bytes
    comment: str

    def __init__(self, raw: bytes, comment: str = "") -> None:
        fields = self.__dict__
        fields["raw"] = raw
        fields["comment"] = comment
        if not isinstance(self.raw, bytes) or len(self.raw) != 32:
            raise KeyError_("an Ed25519 public key must be exactly 32 bytes")
        if "\n" in self.comment or "\r" in self.comment:
            raise KeyError_("a key comment must fit on one line")

    @classmethod
    def from_blob(cls, blob: bytes, comment: str = "") -> PublicKey:
        """The key in an SSH wire-encoded public-key blob (string type, string key)."""
        return cls(raw_from_blob(blob), comment)

    @classmethod
    def parse_line(cls, line: str) -> PublicKey:
        """Parse 'ssh-ed25519 BASE64 [comment]', as in a .pub file or an allowed_signers entry.

        Only the canonical line of a key is accepted (pbem.crypto.keyline): its base64
        must re-encode to exactly the same text."""
        raw, comment = parse_key_line(line)
        return cls(raw, comment)

    def blob(self) -> bytes:
        """The SSH wire encoding: string("ssh-ed25519") + string(raw key)."""
        return string(KEY_TYPE) + string(self.raw)  # = openssh.public_blob(self.raw)

    def openssh_line(self) -> str:
        b64 = base64.b64encode(self.blob()).decode("ascii")
        return f"{KEY_TYPE} {b64} {self.comment}" if self.comment else f"{KEY_TYPE} {b64}"

    def fingerprint(self) -> str:
        digest = digests.sha256(self.blob()).digest()
        return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")

    def fingerprint_line(self) -> str:
        """Exactly what `ssh-keygen -l -f key.pub` prints for this key."""
        return f"256 {self.fingerprint()} {self.comment or 'no comment'} (ED25519)"

    @cached_property
    def _verifier(self) -> Ed25519PublicKey:
        # Cached because a log replay verifies thousands of entries by the same few keys.
        if _BINDING is not None:
            return cast("Ed25519PublicKey", _BINDING.from_public_bytes(self.raw))
        return _ed25519.Ed25519PublicKey.from_public_bytes(self.raw)

    def verify_raw(self, signature: bytes, data: bytes) -> bool:
        """Whether `signature` is this key's plain Ed25519 signature of `data`."""
        try:
            self._verifier.verify(signature, data)
        except _exceptions.InvalidSignature:
            return False
        return True

    def ed25519_verify(self) -> Callable[[bytes, bytes], None]:
        """This key's plain Ed25519 check, `verify_raw` without its answer: called with a
        signature and data, it returns when the signature is this key's signature of the
        data, and raises `invalid_signature()` when it is not (what `verify_raw` catches).
        For a caller that checks many signatures by the key (pbem.crypto.sshsig.checker)."""
        return self._verifier.verify

    def same_key(self, other: PublicKey) -> bool:
        """Same raw key, whatever the comments say (the same as ==)."""
        return self.raw == other.raw


def invalid_signature() -> type[Exception]:
    """The exception `PublicKey.ed25519_verify`'s check raises on a bad signature
    (cryptography's InvalidSignature: its module loaded only when one is asked about)."""
    found: type[Exception] = _exceptions.InvalidSignature
    return found


class Signer(Protocol):
    """What signs for a key: a PrivateKey read from its file, or pbem.crypto.agent's AgentKey
    (ssh-agent holds the key). Both give the same deterministic Ed25519 signatures; only a
    PrivateKey has the seed that opens what was sealed to the key (pbem.crypto.escrow)."""

    @property
    def public(self) -> PublicKey: ...

    @property
    def comment(self) -> str: ...

    def sign_raw(self, data: bytes) -> bytes: ...
