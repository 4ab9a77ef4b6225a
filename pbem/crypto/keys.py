"""Ed25519 identities in OpenSSH formats (protocol section 2): private keys, read from and
written to their files, and the public side (pbem.crypto.publickey) under the same names.

Private keys are read from and written to the OpenSSH private-key format
(pbem.crypto.openssh), so an existing `~/.ssh/id_ed25519` works as is; PKCS#8 PEM files
are read too.

Checking a signature needs only the public key: pbem.crypto.publickey, which a `pbem
verify` imports instead of this module (this one brings `cryptography`'s serialization
and cipher modules, and bcrypt).
"""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.crypto import openssh
from pbem.crypto.openssh import PassphraseNeeded
from pbem.crypto.publickey import KEY_TYPE, NEEDS_FILE, PublicKey, Signer
from pbem.errors import KeyError_
from pbem.files import write_atomically

__all__ = [
    "KEY_TYPE",
    "NEEDS_FILE",
    "PassphraseNeeded",
    "PrivateKey",
    "PublicKey",
    "Signer",
    "generate",
    "load_private_key",
    "write_private_key",
]


class PrivateKey:
    """An Ed25519 private key and its comment. Its repr never shows secret material."""

    def __init__(self, key: Ed25519PrivateKey, comment: str = "") -> None:
        self._key = key
        self.comment = comment
        # The raw forms need no `cryptography` serialization module (a fifth of a `pbem
        # show` that opens a vault, when it was imported for them).
        self.public = PublicKey(key.public_key().public_bytes_raw(), comment)

    @classmethod
    def generate(cls, comment: str = "") -> PrivateKey:
        return cls(Ed25519PrivateKey.generate(), comment)

    def __repr__(self) -> str:
        return f"PrivateKey({self.public.fingerprint()} {self.comment!r})"

    def sign_raw(self, data: bytes) -> bytes:
        """The plain 64-byte Ed25519 signature of `data` (SSHSIG wraps this)."""
        return self._key.sign(data)

    def _seed(self) -> bytes:
        return self._key.private_bytes_raw()

    def to_openssh(self, passphrase: bytes | None = None) -> bytes:
        """The OpenSSH private-key file, comment included; encrypted when a passphrase is given.

        An empty passphrase means no encryption, as with `ssh-keygen -N ""`.
        """
        secret = openssh.Ed25519Secret(self._seed(), self.public.raw, self.comment)
        return openssh.encode(secret, passphrase)


def generate(comment: str = "") -> PrivateKey:
    """A fresh random Ed25519 key."""
    return PrivateKey.generate(comment)


def public_of_key_file(data: bytes) -> PublicKey | None:
    """The public half of an OpenSSH private key file, read without its passphrase (the
    format keeps it outside the encrypted part); None for another format. Not a proof
    that the file holds that key: only loading it (with the passphrase) is."""
    if not openssh.is_openssh(data):
        return None
    return PublicKey(openssh.public_of(data))


def load_private_key(data: bytes, passphrase: bytes | None = None) -> PrivateKey:
    """Read an OpenSSH (or PKCS#8 PEM) Ed25519 private key.

    Raises PassphraseNeeded when the key is encrypted and no passphrase was given,
    and KeyError_ for a wrong passphrase, another key type or a damaged file.
    """
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
    from cryptography.hazmat.primitives import serialization  # (PEM keys only: see PrivateKey)

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
    path = Path(path)
    if path.exists() and not overwrite:
        raise KeyError_(f"{path} already exists; refusing to overwrite a private key")
    write_atomically(path, key.to_openssh(passphrase), 0o600)
    pub = path.with_name(path.name + ".pub")
    write_atomically(pub, (key.public.openssh_line() + "\n").encode(), 0o644)
