"""Sealing to an Ed25519 key (pbem.crypto.escrow): the referee's secrets in double-blind games.

The key conversion is checked against published vectors (libsodium's ed25519_convert test,
RFC 8032 test 1 as converted by libsodium-compatible code), the format against a frozen
known answer and a recomputation from the module docstring, and every way a sealed
message can go wrong against the one refusal line.
"""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.crypto.escrow import (
    OVERHEAD,
    EscrowError,
    _seal_with,
    message_key,
    open_sealed,
    open_with_key,
    seal,
    seal_derived,
    x25519_private,
    x25519_public,
)
from pbem.crypto.keys import PrivateKey, PublicKey
from pbem.errors import KeyError_, PbemError

P = 2**255 - 19
NOT_FOR_US = "not sealed for this key, or damaged"
CONTEXT = b"game:0123/plan/turn-3"
TEXT = b"plan/turn-3: attack at dawn"

# libsodium test/default/ed25519_convert.c and .exp
SODIUM_SEED = "421151a459faeade3d247115f94aedae42318124095afabe4d1451a559faedee"
SODIUM_ED_PUBLIC = "b5076a8474a832daee4dd5b4040983b6623b5f344aca57d4d6ee4baf3f259e6e"
SODIUM_X_PUBLIC = "f1814f0e8ff1043d8a44d25babff3cedcae6c22c3edaa48f857ae70de2baae50"
SODIUM_X_SECRET = "8052030376d47112be7f73ed7a019293dd12ad910b654455798b4667d73de166"
# RFC 8032 section 7.1 TEST 1, and its X25519 public key under the same conversion
RFC8032_SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
RFC8032_X_PUBLIC = "d85e07ec22b0ad881537c2f44d662d1a143cf830c57aca4305d85c7a90f6b62e"

# The frozen known answer: SODIUM_SEED's key, ephemeral scalar bytes 64..95, TEXT, CONTEXT.
KAT_EPHEMERAL = bytes(range(64, 96))
KAT_SEALED = (
    "79a631eede1bf9c98f12032cdeadd0e7a079398fc786b88cc846ec89af85a51a"
    "e3ad67cc1c4b4611bfcce3f036b12d04747b3686c828f975652d942658363d5ee979139c0c6254be020cc5"
)


def key_from_seed(seed: bytes) -> PrivateKey:
    return PrivateKey(Ed25519PrivateKey.from_private_bytes(seed))


def raw_public(key: X25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def one_line(exc: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(exc.value)
    assert "\n" not in message and "Traceback" not in message
    return message


@pytest.fixture(scope="module")
def referee() -> PrivateKey:
    return PrivateKey.generate("referee")


# --- the key conversion -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "x_public"),
    [(SODIUM_SEED, SODIUM_X_PUBLIC), (RFC8032_SEED, RFC8032_X_PUBLIC)],
)
def test_conversion_matches_published_vectors(seed: str, x_public: str) -> None:
    key = key_from_seed(bytes.fromhex(seed))
    assert raw_public(x25519_public(key.public.raw)).hex() == x_public
    assert raw_public(x25519_private(key).public_key()).hex() == x_public


def test_private_conversion_is_libsodiums_secret() -> None:
    key = key_from_seed(bytes.fromhex(SODIUM_SEED))
    assert key.public.raw.hex() == SODIUM_ED_PUBLIC
    secret = x25519_private(key).private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    # The unclamped half of SHA-512(seed) (X25519 clamps it); libsodium prints it clamped.
    assert secret == hashlib.sha512(bytes.fromhex(SODIUM_SEED)).digest()[:32]
    clamped = bytearray(secret)
    clamped[0] &= 248
    clamped[31] = (clamped[31] & 127) | 64
    assert clamped.hex() == SODIUM_X_SECRET
    assert raw_public(X25519PrivateKey.from_private_bytes(bytes(clamped)).public_key()) == (
        raw_public(x25519_private(key).public_key())
    )


def test_conversion_accepts_the_projects_key_objects() -> None:
    key = PrivateKey.generate("referee")
    from_line = PublicKey.parse_line(key.public.openssh_line())
    plain = Ed25519PrivateKey.from_private_bytes(key._seed())
    expected = raw_public(x25519_private(key).public_key())
    assert raw_public(x25519_public(from_line)) == expected
    assert raw_public(x25519_public(from_line.raw)) == expected
    assert raw_public(x25519_private(plain).public_key()) == expected


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_converted_private_key_matches_converted_public_key(seed: bytes) -> None:
    key = key_from_seed(seed)
    assert raw_public(x25519_private(key).public_key()) == raw_public(x25519_public(key.public))


# --- invalid public points ----------------------------------------------------------------


def le(n: int) -> bytes:
    return n.to_bytes(32, "little")


SMALL_ORDER_8 = [
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
]


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (le(P), "not reduced mod p"),
        (le(2**255 - 1), "not reduced mod p"),  # top bit cleared: 2^255 - 1 >= p
        (le(1), "neutral point"),  # u would be infinite
        (le(1 | 1 << 255), "neutral point"),  # the sign bit does not change y
        (le(P - 1), "X25519 key is zero"),  # y = -1: order 2, u = 0
        (le(0), "small order"),  # order 4, u = 1
        (bytes.fromhex(SMALL_ORDER_8[0]), "small order"),
        (bytes.fromhex(SMALL_ORDER_8[1]), "small order"),
        (le(2), "not a point of the curve"),  # (y^2 - 1) / (d y^2 + 1) is no square
        (bytes(31), "exactly 32 bytes"),
    ],
)
def test_invalid_public_points_are_refused(raw: bytes, why: str) -> None:
    with pytest.raises(KeyError_) as exc:
        x25519_public(raw)
    assert why in one_line(exc)
    with pytest.raises(PbemError):
        seal(raw, TEXT, CONTEXT)


# --- sealing and opening ------------------------------------------------------------------


def test_round_trip(referee: PrivateKey) -> None:
    sealed = seal(referee.public.raw, TEXT, CONTEXT)
    assert len(sealed) == len(TEXT) + OVERHEAD
    assert TEXT not in sealed
    assert open_sealed(referee, sealed, CONTEXT) == TEXT


def test_round_trip_through_an_openssh_line_and_key_file(referee: PrivateKey) -> None:
    from pbem.crypto.keys import load_private_key

    public = PublicKey.parse_line(referee.public.openssh_line())
    sealed = seal(public, b"", b"")
    assert open_sealed(load_private_key(referee.to_openssh(b"pass"), b"pass"), sealed, b"") == b""


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=64))
def test_round_trip_any_text_and_context(text: bytes, context: bytes) -> None:
    key = key_from_seed(bytes.fromhex(SODIUM_SEED))
    assert open_sealed(key, seal(key.public, text, context), context) == text


def test_two_seals_of_one_text_differ(referee: PrivateKey) -> None:
    first, second = (seal(referee.public.raw, TEXT, CONTEXT) for _ in range(2))
    assert first != second
    assert first[:32] != second[:32]
    assert first[32:] != second[32:]


def test_another_key_cannot_open(referee: PrivateKey) -> None:
    sealed = seal(referee.public.raw, TEXT, CONTEXT)
    with pytest.raises(EscrowError) as exc:
        open_sealed(PrivateKey.generate("player"), sealed, CONTEXT)
    assert one_line(exc) == NOT_FOR_US


def test_another_context_cannot_open(referee: PrivateKey) -> None:
    sealed = seal(referee.public.raw, TEXT, CONTEXT)
    for context in (b"", CONTEXT + b"x", CONTEXT[:-1], b"game:0123/plan/turn-4"):
        with pytest.raises(EscrowError) as exc:
            open_sealed(referee, sealed, context)
        assert one_line(exc) == NOT_FOR_US


def test_a_changed_byte_anywhere_is_refused(referee: PrivateKey) -> None:
    sealed = seal(referee.public.raw, TEXT, CONTEXT)
    for i in range(len(sealed)):
        # bit 7 of byte 31 is ignored by X25519 itself: E in the salt still catches it.
        for bit in (0, 7):
            changed = bytearray(sealed)
            changed[i] ^= 1 << bit
            with pytest.raises(EscrowError) as exc:
                open_sealed(referee, bytes(changed), CONTEXT)
            assert one_line(exc) == NOT_FOR_US


def test_a_truncated_or_extended_message_is_refused(referee: PrivateKey) -> None:
    sealed = seal(referee.public.raw, TEXT, CONTEXT)
    for cut in [0, 1, 31, 32, 47, OVERHEAD, len(sealed) - 1]:
        with pytest.raises(EscrowError) as exc:
            open_sealed(referee, sealed[:cut], CONTEXT)
        assert one_line(exc) == NOT_FOR_US
    with pytest.raises(EscrowError):
        open_sealed(referee, sealed + b"\0", CONTEXT)


def test_a_small_order_ephemeral_is_refused(referee: PrivateKey) -> None:
    # An all-zero shared secret would make the key public: never accepted as a message.
    for u in (0, 1):
        with pytest.raises(EscrowError) as exc:
            open_sealed(referee, le(u) + bytes(40), CONTEXT)
        assert one_line(exc) == NOT_FOR_US


# --- the format promise -------------------------------------------------------------------


def test_known_answer() -> None:
    recipient = key_from_seed(bytes.fromhex(SODIUM_SEED))
    ephemeral = X25519PrivateKey.from_private_bytes(KAT_EPHEMERAL)
    sealed = _seal_with(ephemeral, recipient.public.raw, TEXT, CONTEXT)
    assert sealed.hex() == KAT_SEALED
    assert open_sealed(recipient, bytes.fromhex(KAT_SEALED), CONTEXT) == TEXT


def test_known_answer_follows_the_module_docstring() -> None:
    # Recomputed step by step from the layout written in pbem/crypto/escrow.py.
    ephemeral = X25519PrivateKey.from_private_bytes(KAT_EPHEMERAL)
    e = raw_public(ephemeral.public_key())
    r = bytes.fromhex(SODIUM_X_PUBLIC)
    shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(r))
    key = HKDF(
        algorithm=hashes.SHA256(), length=32, salt=e + r, info=b"pbem-escrow/v1" + CONTEXT
    ).derive(shared)
    expected = e + ChaCha20Poly1305(key).encrypt(bytes(12), TEXT, CONTEXT)
    assert expected.hex() == KAT_SEALED


# --- what double-blind games add (pbem.core.blind) ------------------------------------------


def test_a_derived_seal_is_the_same_bytes_for_the_same_entry_and_opens(referee: PrivateKey) -> None:
    """A client that signs an entry again after a crash must sign the same bytes (protocol
    section 8): the ephemeral key derives from its secret, the context and the text."""
    secret = bytes(range(32))
    first = seal_derived(secret, referee.public, TEXT, CONTEXT)
    assert seal_derived(secret, referee.public, TEXT, CONTEXT) == first
    assert open_sealed(referee, first, CONTEXT) == TEXT
    others = {
        seal_derived(bytes(32), referee.public, TEXT, CONTEXT),
        seal_derived(secret, referee.public, TEXT + b"!", CONTEXT),
        seal_derived(secret, referee.public, TEXT, CONTEXT + b"!"),
    }
    assert len(others) == 3 and first not in others
    # ... and a new ephemeral key each time: no two share their first 32 bytes.
    assert len({sealed[:32] for sealed in (*others, first)}) == 4
    with pytest.raises(EscrowError):
        seal_derived(b"short", referee.public, TEXT, CONTEXT)


def test_a_message_key_opens_its_message_and_no_other(referee: PrivateKey) -> None:
    """What a referee publishes to prove an escrow false opens that message alone."""
    sealed = seal(referee.public, TEXT, CONTEXT)
    key = message_key(referee, sealed, CONTEXT)
    assert open_with_key(key, sealed, CONTEXT) == TEXT
    other = seal(referee.public, TEXT, CONTEXT)
    with pytest.raises(EscrowError, match=NOT_FOR_US):
        open_with_key(key, other, CONTEXT)
    with pytest.raises(EscrowError, match=NOT_FOR_US):
        open_with_key(key, sealed, CONTEXT + b"!")
    with pytest.raises(EscrowError, match=NOT_FOR_US):
        open_with_key(bytes(32), sealed, CONTEXT)
    # The key is the one the module docstring derives: HKDF of the X25519 shared secret.
    stranger = key_from_seed(bytes([9]) * 32)
    assert message_key(stranger, sealed, CONTEXT) != key
