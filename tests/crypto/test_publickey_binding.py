"""pbem.crypto.publickey checks a signature with the function cryptography's public
Ed25519PublicKey.from_public_bytes calls (its Rust binding), or with the public class
where the binding has none: the same key object, the same answers, the same refusals."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem.crypto import publickey
from pbem.crypto.publickey import PublicKey


def _signed() -> tuple[bytes, bytes, bytes]:
    private = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    raw = private.public_key().public_bytes_raw()
    return raw, b"message", private.sign(b"message")


def test_the_binding_makes_the_public_class_key() -> None:
    raw, _message, _signature = _signed()
    assert publickey._BINDING is not None  # (this cryptography has it)
    ours = publickey._BINDING.from_public_bytes(raw)
    theirs = Ed25519PublicKey.from_public_bytes(raw)
    assert type(ours) is type(theirs) and isinstance(ours, Ed25519PublicKey)
    assert ours == theirs
    for bad in (b"", raw[:31], raw + b"\0"):
        with pytest.raises(ValueError) as ours_error:
            publickey._BINDING.from_public_bytes(bad)
        with pytest.raises(ValueError) as their_error:
            Ed25519PublicKey.from_public_bytes(bad)
        assert str(ours_error.value) == str(their_error.value)


@pytest.mark.parametrize("binding", [True, False])
def test_the_same_answers(binding: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not binding:
        monkeypatch.setattr(publickey, "_BINDING", None)
    raw, message, signature = _signed()
    key = PublicKey(raw)
    assert key.verify_raw(signature, message)
    assert not key.verify_raw(signature, message + b"!")
    assert not key.verify_raw(bytes(64), message)
    assert not key.verify_raw(signature[:-1] + bytes([signature[-1] ^ 1]), message)
    low_order = PublicKey(bytes(32))  # a point of small order: no signature verifies
    assert not low_order.verify_raw(signature, message)
