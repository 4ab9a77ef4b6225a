"""tests/support/signatures_once.py: an acceptance is remembered by its exact bytes, a
refusal never is, and every module's check_signature is put back on leaving."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import pbem.ledger
import pbem.verify
from pbem.crypto import sshsig
from pbem.crypto.keys import generate
from pbem.errors import PbemError
from tests.support.signatures_once import accepted_once


def test_only_the_same_accepted_bytes_are_answered_from_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = generate()
    line = key.public.openssh_line()
    message = b'{"entry":1}'
    signature = sshsig.sign(key, message)
    real = pbem.ledger.check_signature
    calls: list[str] = []
    with accepted_once():
        checked = pbem.ledger.check_signature
        assert checked is not real and pbem.verify.check_signature is checked
        # (each real check asks pbem.ledger for its key's bound check: counted there)
        monkeypatch.setattr(pbem.ledger, "_checker", _counting(pbem.ledger._checker, calls))
        for _ in range(3):
            checked(line, message, signature)
        assert len(calls) == 1  # accepted once, then from memory
        for _ in range(2):  # a refusal is checked every time, and raises every time
            with pytest.raises(PbemError):
                checked(line, message + b" ", signature)
        assert len(calls) == 3
        with pytest.raises(PbemError):  # other bytes than the accepted ones: checked
            checked(line, message, signature[:-1] + bytes([signature[-1] ^ 1]))
        assert len(calls) == 4
    assert pbem.ledger.check_signature is real and pbem.verify.check_signature is real


def _counting(
    checker: Callable[[str], Callable[[bytes, bytes], None]], calls: list[str]
) -> Callable[[str], Callable[[bytes, bytes], None]]:
    def counted(line: str) -> Callable[[bytes, bytes], None]:
        calls.append(line)
        return checker(line)

    return counted
