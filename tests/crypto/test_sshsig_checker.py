"""`sshsig.checker`, a key's check made once (what `ledger.check_signature` uses), gives
the same answer as `sshsig.verify` for every kind of blob: accepted, or refused with the
same message."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pbem.crypto import sshsig
from pbem.crypto.keys import PrivateKey, generate
from pbem.crypto.wire import string
from pbem.errors import SignatureError
from pbem.ledger import check_signature

MESSAGE = b'{"by":"west","kind":"move","seq":17,"v":1}'


@pytest.fixture(scope="module")
def keys() -> tuple[PrivateKey, PrivateKey]:
    return generate("alice@example"), generate("bob@example")


def _answer(check: Callable[..., None], *args: object) -> str | None:
    """What `check(*args)` says: None when it accepts, else its refusal."""
    try:
        check(*args)
    except SignatureError as exc:
        return str(exc)
    return None


def test_the_checker_answers_as_verify(keys: tuple[PrivateKey, PrivateKey]) -> None:
    alice, bob = keys
    good = sshsig.sign(alice, MESSAGE)
    flipped = bytearray(good)
    flipped[-1] ^= 1
    reserved = good.replace(string(b"") + string(sshsig.HASH_ALG), b"", 1)
    blobs = [
        good,
        bytes(flipped),  # the Ed25519 signature altered: the fast path refuses it
        sshsig.sign(bob, MESSAGE),  # another key's blob: the layout differs
        sshsig.sign(alice, MESSAGE, namespace="git"),
        good + b"\x00",  # longer than the layout
        good[:-1],
        reserved,  # (a malformed blob: the parse says what is wrong)
        b"",
    ]
    check = sshsig.checker(alice.public)
    for message in (MESSAGE, MESSAGE + b" "):
        for blob in blobs:
            expected = _answer(sshsig.verify, alice.public, message, blob)
            assert _answer(check, message, blob) == expected
            line = alice.public.openssh_line()
            assert _answer(check_signature, line, message, blob) == expected
    assert _answer(check, MESSAGE, good) is None
    assert "data or signature altered" in str(_answer(check, MESSAGE, bytes(flipped)))
