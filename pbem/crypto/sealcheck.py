"""What anyone can check of a sealed message (pbem.crypto.escrow) without a private key:
that some recipient could open it (its ephemeral key), and what a published message key
opens it to.

The verifier's part of the escrow format (pbem.core.blind checks every sealed text of a
double-blind game with it), in a module of its own: sealing and the keys' conversions
(pbem.crypto.escrow) bring `cryptography`'s serialization, HKDF and the private keys,
which a `pbem verify` does not need.
"""

from __future__ import annotations

from functools import cache

from pbem.errors import PbemError
from pbem.hints import TYPE_CHECKING
from pbem.lazy import lazy_module

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

# X25519 and ChaCha20-Poly1305 run only when an escrow is checked or opened (pbem.lazy):
# a verification without one, a genesis's above all, does not pay for loading them.
_x25519 = lazy_module("cryptography.hazmat.primitives.asymmetric.x25519")
_aead = lazy_module("cryptography.hazmat.primitives.ciphers.aead")
_exceptions = lazy_module("cryptography.exceptions")  # (it imports typing)

KEY_BYTES = 32
TAG_BYTES = 16
OVERHEAD = KEY_BYTES + TAG_BYTES  # a sealed message is exactly this much longer than its text
NONCE = bytes(12)
NOT_FOR_US = "not sealed for this key, or damaged"


@cache
def probe() -> X25519PrivateKey:
    """The key that tests a point for small order. Any fixed scalar will do: X25519 clears
    the cofactor, so every scalar sends a point of order 1, 2, 4 or 8 to zero (and
    cryptography refuses). Made on first use: making a key starts cryptography's OpenSSL
    backend, which a `pbem verify` of a game that seals nothing does not need."""
    return _x25519.X25519PrivateKey.from_private_bytes(bytes(range(1, 33)))


class EscrowError(PbemError):
    """A sealed message that cannot be made or opened."""


def check_ephemeral(sealed: bytes) -> None:
    """Refuse (EscrowError, one line) a sealed message whose ephemeral key `E` no recipient
    can ever open: not 32 bytes, or a point of small order (the all-zero key among them),
    with which every shared secret is zero. Anyone can see this from the bytes alone, so
    such a message is refused where it is signed and where it is read, instead of leaving
    its recipient unable to move."""
    if not isinstance(sealed, bytes) or len(sealed) < OVERHEAD:
        raise EscrowError("a sealed message is at least 48 bytes: an ephemeral key and a tag")
    try:
        probe().exchange(_x25519.X25519PublicKey.from_public_bytes(sealed[:KEY_BYTES]))
    except ValueError:
        raise EscrowError(
            "its ephemeral key is a point of small order: no key can ever open it"
        ) from None


def open_with_key(key: bytes, sealed: bytes, context: bytes) -> bytes:
    """The plaintext of `sealed` opened with its message key (`message_key`); EscrowError
    when the key is not this message's (the Poly1305 tag fails)."""
    if len(key) != KEY_BYTES or not isinstance(sealed, bytes) or len(sealed) < OVERHEAD:
        raise EscrowError(NOT_FOR_US)
    try:
        return _aead.ChaCha20Poly1305(key).decrypt(NONCE, sealed[KEY_BYTES:], context)
    except _exceptions.InvalidTag:
        raise EscrowError(NOT_FOR_US) from None
