"""Sealing a message to an Ed25519 key (double-blind games: a player's secrets for the referee).

In a double-blind game a player sends hidden choices to the referee, whose only
published key is the Ed25519 OpenSSH key of the genesis's `roles.referee` line. Ed25519
is a signature scheme, so the key is converted to its X25519 twin, exactly as libsodium
(crypto_sign_ed25519_pk_to_curve25519 / _sk_to_curve25519) and age's `ssh-ed25519`
recipients do, and the message is sealed with an ephemeral X25519 key (ECIES):
nothing new to publish, no new dependency (only `cryptography`).

Format (v1). A format promise, like protocol section 7: what is sealed today must open
with any later version, so these bytes never change; a new format gets a new info label.

    sealed     = E || C                           (len(plaintext) + 48 bytes)
    E          = the ephemeral X25519 public key  (32 bytes)
    C          = ChaCha20-Poly1305(key, nonce, plaintext, aad = context)
                 (ciphertext, then the 16-byte Poly1305 tag)
    nonce      = 12 zero bytes (the key is fresh for every message: see below)
    shared     = X25519(e, R), refused when it is 32 zero bytes
    key        = HKDF-SHA256(ikm = shared, length = 32,
                             salt = E || R,
                             info = "pbem-escrow/v1" || context)
    R          = the recipient's X25519 public key, u = (1 + y) / (1 - y) mod 2^255 - 19,
                 y = the recipient's Ed25519 public key (32 bytes little-endian, its top
                 bit, the sign of x, cleared); encoded as 32 bytes little-endian
    recipient  = X25519 scalar: the first 32 bytes of SHA-512(Ed25519 seed), clamped by
                 X25519 itself

`context` is chosen by the caller and binds the message to its place (for example the
game id and the slot label): a sealed message moved to another context does not open.
It is the only variable part of `info`, so no length prefix is needed.

Why a zero nonce is safe: the ephemeral key `e` is new for every message, and the key
is derived from its shared secret and from `E` itself, so no key ever encrypts twice.
"""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.crypto.keys import PrivateKey
from pbem.crypto.publickey import NEEDS_FILE, PublicKey, Signer
from pbem.crypto.sealcheck import (
    KEY_BYTES,
    NONCE,
    NOT_FOR_US,
    OVERHEAD,
    EscrowError,
    check_ephemeral,
    open_with_key,
    probe,
)
from pbem.errors import KeyError_

__all__ = [
    "EscrowError",
    "INFO",
    "OVERHEAD",
    "check_ephemeral",
    "message_key",
    "open_sealed",
    "open_with_key",
    "seal",
    "seal_derived",
    "sender_message_key",
    "x25519_private",
    "x25519_public",
]

INFO = b"pbem-escrow/v1"

_P = 2**255 - 19
_D = (-121665 * pow(121666, -1, _P)) % _P  # the Edwards curve constant of Ed25519
_Y_MASK = (1 << 255) - 1  # clears the top bit, which holds the sign of x


def _seed(key: Signer | Ed25519PrivateKey) -> bytes:
    if isinstance(key, PrivateKey):
        # PrivateKey keeps its Ed25519 object private; its seed never leaves pbem.crypto.
        return key._seed()
    if not isinstance(key, Ed25519PrivateKey):
        # A key that ssh-agent holds (pbem.crypto.agent) signs, but no agent operation
        # gives the seed or decrypts: opening needs the key file.
        raise KeyError_(f"opening what was sealed to {key.public.fingerprint()} {NEEDS_FILE}")
    # (The raw forms need no `cryptography` serialization module, with its bcrypt and
    # dataclasses: a fifth of a cold `pbem show`, which imports this module.)
    return key.private_bytes_raw()


def _raw(key: bytes | PublicKey) -> bytes:
    return key.raw if isinstance(key, PublicKey) else key


def x25519_private(ed25519_private: Signer | Ed25519PrivateKey) -> X25519PrivateKey:
    """The X25519 key of an Ed25519 private key: SHA-512(seed)[:32].

    The same as libsodium's crypto_sign_ed25519_sk_to_curve25519 and age's ssh-ed25519
    identities, so the referee's ordinary OpenSSH key opens what was sealed to it. These
    bytes are the Ed25519 secret scalar before clamping; X25519 clamps them itself."""
    return X25519PrivateKey.from_private_bytes(hashlib.sha512(_seed(ed25519_private)).digest()[:32])


def x25519_public(ed25519_public_raw: bytes | PublicKey) -> X25519PublicKey:
    """The X25519 public key of an Ed25519 public key (birational map u = (1 + y) / (1 - y)).

    Refuses (KeyError_, one line) what cannot be a player's key: not 32 bytes, a y that is
    not reduced mod p, a y of no point of the curve, and points of small order (the
    identity, u infinite; u = 0; and the others, with which every shared secret would be
    zero), as libsodium's crypto_sign_ed25519_pk_to_curve25519 does. A sender learns this
    before sealing anything rather than sealing to a key nobody can open."""
    raw = _raw(ed25519_public_raw)
    if not isinstance(raw, bytes) or len(raw) != KEY_BYTES:
        raise KeyError_("an Ed25519 public key must be exactly 32 bytes")
    y = int.from_bytes(raw, "little") & _Y_MASK
    if y >= _P:
        raise KeyError_("not an Ed25519 public key: its y coordinate is not reduced mod p")
    if y == 1:
        raise KeyError_("not a usable Ed25519 public key: it is the neutral point")
    y2 = y * y % _P
    x2 = (y2 - 1) * pow(_D * y2 + 1, -1, _P) % _P  # d*y^2 + 1 is never 0: -1/d is no square
    if x2 != 0 and pow(x2, (_P - 1) // 2, _P) != 1:
        raise KeyError_("not an Ed25519 public key: it is not a point of the curve")
    u = (1 + y) * pow(1 - y, -1, _P) % _P
    if u == 0:
        raise KeyError_("not a usable Ed25519 public key: its X25519 key is zero")
    public = X25519PublicKey.from_public_bytes(u.to_bytes(KEY_BYTES, "little"))
    try:
        probe().exchange(public)
    except ValueError:
        raise KeyError_("not a usable Ed25519 public key: it is a point of small order") from None
    return public


def _public_bytes(key: X25519PublicKey) -> bytes:
    return key.public_bytes_raw()


def _key(shared: bytes, ephemeral: bytes, recipient: bytes, context: bytes) -> bytes:
    if shared == bytes(KEY_BYTES):
        raise EscrowError("cannot seal to this key: the shared secret is zero")
    hkdf = HKDF(
        algorithm=hashes.SHA256(),
        length=KEY_BYTES,
        salt=ephemeral + recipient,
        info=INFO + context,
    )
    return hkdf.derive(shared)


def _exchange(private: X25519PrivateKey, public: X25519PublicKey) -> bytes:
    # cryptography refuses an all-zero result itself (ValueError); _key checks it again,
    # since an all-zero secret would make the key public.
    try:
        return private.exchange(public)
    except ValueError:
        return bytes(KEY_BYTES)


def seal(
    recipient_ed25519_public_raw: bytes | PublicKey, plaintext: bytes, context: bytes
) -> bytes:
    """`plaintext` sealed to the holder of an Ed25519 key: only its private key opens it.

    A fresh ephemeral key every call, so two seals of one text differ and reveal nothing
    about each other. The sender cannot open what it sealed: a player keeps its own copy
    (protocol section 8: encrypted under its own key) if it needs one."""
    return _seal_with(X25519PrivateKey.generate(), recipient_ed25519_public_raw, plaintext, context)


def _seal_with(
    ephemeral: X25519PrivateKey,
    recipient_ed25519_public_raw: bytes | PublicKey,
    plaintext: bytes,
    context: bytes,
) -> bytes:
    """seal with a given ephemeral key: for the known-answer test only (never reuse one)."""
    recipient = x25519_public(recipient_ed25519_public_raw)
    e = _public_bytes(ephemeral.public_key())
    key = _key(_exchange(ephemeral, recipient), e, _public_bytes(recipient), context)
    return e + ChaCha20Poly1305(key).encrypt(NONCE, plaintext, context)


def seal_derived(
    secret: bytes,
    recipient_ed25519_public_raw: bytes | PublicKey,
    plaintext: bytes,
    context: bytes,
) -> bytes:
    """seal with an ephemeral key derived from the sender's own 32-byte `secret`, the
    context and the text: the same entry sealed again is the same bytes.

    Why: a client signs an entry again after a crash, and protocol section 8 lets it sign
    only the same bytes for the same reveal; a fresh random key would make a second
    entry. The ephemeral key is still new for every (context, text), and only the holder
    of `secret` (derived from the sender's private key) can know it."""
    ephemeral = _derived_ephemeral(secret, plaintext, context)
    return _seal_with(ephemeral, recipient_ed25519_public_raw, plaintext, context)


def _derived_ephemeral(secret: bytes, plaintext: bytes, context: bytes) -> X25519PrivateKey:
    """The ephemeral key `seal_derived` uses for (secret, text, context)."""
    if len(secret) != KEY_BYTES:
        raise EscrowError("an escrow secret is 32 bytes")
    scalar = hashlib.sha256(
        INFO + b" ephemeral\0" + secret + hashlib.sha256(context).digest() + plaintext
    ).digest()
    return X25519PrivateKey.from_private_bytes(scalar)


def sender_message_key(
    secret: bytes,
    recipient_ed25519_public_raw: bytes | PublicKey,
    plaintext: bytes,
    context: bytes,
) -> tuple[bytes, bytes]:
    """(sealed, its message key) of what `seal_derived` seals for these arguments, as its
    sender derives them: the key the recipient's `message_key` gives, computed from the
    sender's side of the exchange.

    What a sender publishes to show that a message it sealed opens, and to what (a
    player answering a void on the referee's word; a referee answering a player who says
    its deal does not open). It opens that one message only."""
    ephemeral = _derived_ephemeral(secret, plaintext, context)
    recipient = x25519_public(recipient_ed25519_public_raw)
    e = _public_bytes(ephemeral.public_key())
    key = _key(_exchange(ephemeral, recipient), e, _public_bytes(recipient), context)
    return e + ChaCha20Poly1305(key).encrypt(NONCE, plaintext, context), key


def message_key(
    recipient_private: Signer | Ed25519PrivateKey, sealed: bytes, context: bytes
) -> bytes:
    """The ChaCha20-Poly1305 key of one sealed message, as its recipient derives it.

    What a referee publishes to prove a player's escrow false: with it anyone opens that
    one message (`open_with_key`), and learns nothing about the recipient's key or any
    other message (each key is HKDF of a fresh shared secret). EscrowError when the
    message is too short or its ephemeral key is unusable."""
    if not isinstance(sealed, bytes) or len(sealed) < OVERHEAD:
        raise EscrowError(NOT_FOR_US)
    private = x25519_private(recipient_private)
    recipient = _public_bytes(private.public_key())
    e = sealed[:KEY_BYTES]
    try:
        shared = _exchange(private, X25519PublicKey.from_public_bytes(e))
        return _key(shared, e, recipient, context)
    except (EscrowError, ValueError):
        raise EscrowError(NOT_FOR_US) from None


def open_sealed(
    recipient_private: Signer | Ed25519PrivateKey, sealed: bytes, context: bytes
) -> bytes:
    """The plaintext of `sealed`, opened with the recipient's Ed25519 private key.

    Every failure (too short, another key, a changed byte, another context) is the one
    line EscrowError("not sealed for this key, or damaged"): the AEAD cannot tell them
    apart, and a refusal that said more would help nobody but a forger."""
    return open_with_key(message_key(recipient_private, sealed, context), sealed, context)
