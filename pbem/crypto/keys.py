"""Ed25519 identities in OpenSSH formats (protocol section 2).

A player's public key travels as an OpenSSH public-key line and is named by its
`SHA256:` fingerprint exactly as `ssh-keygen -l` prints it, so players can compare
keys with tools they already trust. Private keys are read from and written to the
OpenSSH private-key format, so an existing `~/.ssh/id_ed25519` works as is.

Equality: two PublicKey values are equal (and hash equal) when their raw keys are
equal; the comment is a label chosen by the owner and is not part of the identity.
"""

from __future__ import annotations

import base64
import hashlib
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from pbem.core.record import Record
from pbem.crypto.keyline import KEY_TYPE, parse_key_line, raw_from_blob
from pbem.crypto.wire import string
from pbem.errors import KeyError_

if TYPE_CHECKING:
    from pathlib import Path

# Checking a signature needs only the Ed25519 public key: `serialization` (and the cipher
# modules it brings), pbem.crypto.openssh, pathlib and pbem.files are imported by the
# functions that read or write private keys, so that a `pbem verify` starts without them.

__all__ = [
    "KEY_TYPE",
    "PassphraseNeeded",
    "PrivateKey",
    "PublicKey",
    "Signer",
    "generate",
    "load_private_key",
    "write_private_key",
]

# What an operation that needs a key's seed says when only ssh-agent holds the key
# (pbem.crypto.agent): an agent signs, but has no operation that decrypts.
NEEDS_FILE = "needs the private key file: ssh-agent signs but cannot decrypt"

# KEY_TYPE, "ssh-ed25519", comes from pbem.crypto.keyline (= pbem.crypto.openssh.KEY_TYPE).


class PassphraseNeeded(KeyError_):
    """The private key is encrypted and no passphrase was given: ask the user for one."""


class PublicKey(Record, fields=("raw", "comment"), uncompared=("comment",)):
    """A raw 32-byte Ed25519 public key with the comment of its OpenSSH line.

    A frozen record (pbem.core.record): equal, and hashed, by the raw key alone."""

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
        digest = hashlib.sha256(self.blob()).digest()
        return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")

    def fingerprint_line(self) -> str:
        """Exactly what `ssh-keygen -l -f key.pub` prints for this key."""
        return f"256 {self.fingerprint()} {self.comment or 'no comment'} (ED25519)"

    @cached_property
    def _verifier(self) -> Ed25519PublicKey:
        # Cached because a log replay verifies thousands of entries by the same few keys.
        return Ed25519PublicKey.from_public_bytes(self.raw)

    def verify_raw(self, signature: bytes, data: bytes) -> bool:
        """Whether `signature` is this key's plain Ed25519 signature of `data`."""
        try:
            self._verifier.verify(signature, data)
        except InvalidSignature:
            return False
        return True

    def same_key(self, other: PublicKey) -> bool:
        """Same raw key, whatever the comments say (the same as ==)."""
        return self.raw == other.raw


class Signer(Protocol):
    """What signs for a key: a PrivateKey read from its file, or pbem.crypto.agent's AgentKey
    (ssh-agent holds the key). Both give the same deterministic Ed25519 signatures; only a
    PrivateKey has the seed that opens what was sealed to the key (pbem.crypto.escrow)."""

    @property
    def public(self) -> PublicKey: ...

    @property
    def comment(self) -> str: ...

    def sign_raw(self, data: bytes) -> bytes: ...


class PrivateKey:
    """An Ed25519 private key and its comment. Its repr never shows secret material."""

    def __init__(self, key: Ed25519PrivateKey, comment: str = "") -> None:
        from cryptography.hazmat.primitives import serialization

        self._key = key
        self.comment = comment
        raw = key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.public = PublicKey(raw, comment)

    @classmethod
    def generate(cls, comment: str = "") -> PrivateKey:
        return cls(Ed25519PrivateKey.generate(), comment)

    def __repr__(self) -> str:
        return f"PrivateKey({self.public.fingerprint()} {self.comment!r})"

    def sign_raw(self, data: bytes) -> bytes:
        """The plain 64-byte Ed25519 signature of `data` (SSHSIG wraps this)."""
        return self._key.sign(data)

    def _seed(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._key.private_bytes(
            serialization.Encoding.Raw,
            serialization.PrivateFormat.Raw,
            serialization.NoEncryption(),
        )

    def to_openssh(self, passphrase: bytes | None = None) -> bytes:
        """The OpenSSH private-key file, comment included; encrypted when a passphrase is given.

        An empty passphrase means no encryption, as with `ssh-keygen -N ""`.
        """
        from pbem.crypto import openssh

        secret = openssh.Ed25519Secret(self._seed(), self.public.raw, self.comment)
        return openssh.encode(secret, passphrase)


def generate(comment: str = "") -> PrivateKey:
    """A fresh random Ed25519 key."""
    return PrivateKey.generate(comment)


def public_of_key_file(data: bytes) -> PublicKey | None:
    """The public half of an OpenSSH private key file, read without its passphrase (the
    format keeps it outside the encrypted part); None for another format. Not a proof
    that the file holds that key: only loading it (with the passphrase) is."""
    from pbem.crypto import openssh

    if not openssh.is_openssh(data):
        return None
    return PublicKey(openssh.public_of(data))


def load_private_key(data: bytes, passphrase: bytes | None = None) -> PrivateKey:
    """Read an OpenSSH (or PKCS#8 PEM) Ed25519 private key.

    Raises PassphraseNeeded when the key is encrypted and no passphrase was given,
    and KeyError_ for a wrong passphrase, another key type or a damaged file.
    """
    from pbem.crypto import openssh

    if openssh.is_openssh(data):
        secret = openssh.decode(data, passphrase)
        key = Ed25519PrivateKey.from_private_bytes(secret.seed)
        loaded = PrivateKey(key, secret.comment)
        if loaded.public.raw != secret.public:
            raise KeyError_("private key is damaged: its public half does not match")
        return loaded
    return _load_pem(data, passphrase)


def _load_pem(data: bytes, passphrase: bytes | None) -> PrivateKey:
    # PKCS#8 files carry no comment; cryptography reads them (and tells the key type).
    from cryptography.hazmat.primitives import serialization

    encrypted = b"ENCRYPTED" in data
    if encrypted and not passphrase:
        raise PassphraseNeeded("private key is encrypted: a passphrase is needed")
    try:
        # A passphrase given for an unencrypted key is ignored, as for OpenSSH files.
        key = serialization.load_pem_private_key(data, passphrase if encrypted else None)
    except ValueError:
        if encrypted:
            raise KeyError_("wrong passphrase for private key") from None
        raise KeyError_("not a private key file pbem can read (OpenSSH or PEM)") from None
    except Exception:  # TypeError, UnsupportedAlgorithm: cryptography's own ways of saying no
        raise KeyError_("not a private key file pbem can read (OpenSSH or PEM)") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyError_(f"{type(key).__name__} is not supported: pbem needs an Ed25519 key")
    return PrivateKey(key)


def write_private_key(
    path: Path | str,
    key: PrivateKey,
    passphrase: bytes | None = None,
    *,
    overwrite: bool = False,
) -> None:
    """Write `path` (mode 0600) and `path.pub` (the public-key line), each atomically.

    Refuses to replace an existing private key unless `overwrite` is set: losing a
    key means losing one's identity in every running game.
    """
    from pathlib import Path

    from pbem.files import write_atomically

    path = Path(path)
    if path.exists() and not overwrite:
        raise KeyError_(f"{path} already exists; refusing to overwrite a private key")
    write_atomically(path, key.to_openssh(passphrase), 0o600)
    pub = path.with_name(path.name + ".pub")
    write_atomically(pub, (key.public.openssh_line() + "\n").encode(), 0o644)
