"""Within a test module, each signature pbem accepts is checked by Ed25519 once.

The verification tests (the tamper matrix, saves pasted into mail, the verify fuzzer)
verify the same few games over and over, each time with one change or in another
wrapping: hundreds of verifications of logs whose entries, all but one or two, are the
very same bytes each time. Checking those same signatures again was a third of their
time and tells nothing new.

`pbem.ledger.check_signature` is a pure function of its three arguments (an Ed25519
verification of the SSHSIG-wrapped bytes: deterministic, RFC 8032), so here an
*acceptance* is remembered by the exact key line, message and signature: the same three
are accepted again without the arithmetic. Nothing else is remembered: a refusal is
checked for real every time (and raises the real error), and a key line, a message or a
signature that differs in any byte (a tampered entry, another game's entry) is a new key,
checked for real. So verify takes every branch it would take and says every word it would
say; only repeated work on bytes already accepted is saved. check_signature itself is
tested without this (tests/crypto).

Every pbem module holding check_signature (pbem.ledger, and those that imported it by
name: pbem.verify, pbem.noise, pbem.testing, ...) is pointed at the remembering check for
the length of `accepted_once()`, and put back on leaving, including modules imported
meanwhile.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

import pbem.ledger

Check = Callable[[str, bytes, bytes], None]


def _holders(check: Check) -> list[ModuleType]:
    return [
        module
        for name, module in list(sys.modules.items())
        if (name == "pbem" or name.startswith("pbem."))
        and getattr(module, "check_signature", None) is check
    ]


@contextlib.contextmanager
def accepted_once() -> Iterator[None]:
    """Within: a signature check answers an acceptance of the same bytes seen before."""
    real: Check = pbem.ledger.check_signature
    accepted: set[tuple[str, bytes, bytes]] = set()

    def check_signature(public_line: str, message: bytes, signature: bytes) -> None:
        if not (
            isinstance(public_line, str)
            and isinstance(message, bytes)
            and isinstance(signature, bytes)
        ):
            real(public_line, message, signature)  # (anything else: checked, never kept)
            return
        key = (public_line, message, signature)
        if key in accepted:
            return
        real(public_line, message, signature)  # (a refusal raises: never remembered)
        accepted.add(key)

    for module in _holders(real):
        module.check_signature = check_signature
    try:
        yield
    finally:
        for module in _holders(check_signature):
            module.check_signature = real


def per_module() -> Any:
    """A module's autouse fixture: `accepted_once()` for the whole module. For modules that
    verify the same games again and again, all but one or two entries the same bytes each
    time: each accepted signature is checked by Ed25519 once for the module; refusals and
    any other bytes are checked every time. Use: `_signatures_checked_once = per_module()`
    (pytest finds a fixture by the module's name for it)."""

    @pytest.fixture(scope="module", autouse=True)
    def _signatures_checked_once() -> Iterator[None]:
        with accepted_once():
            yield

    return _signatures_checked_once
