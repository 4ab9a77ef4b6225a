"""Fuzzing verify_text on damaged saves: bytes flipped, lines removed or duplicated.

verify.py belongs to another piece of work; here it is only held to the common
property: nothing but a PbemError, or a report (a failed one with a reason).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.fuzzing import (
    fuzz_settings,
    mutated,
    outcome,
    save_bytes,
    save_names,
    target_verify,
)
from tests.support.signatures_once import per_module

_signatures_checked_once = per_module()  # (tests/support/signatures_once.py)


def head_of(save: bytes, entries: int) -> bytes:
    """The save cut after its `entries`-th armored entry (a game still being played)."""
    end = b"-----END PBEM ENTRY-----\n"
    at = 0
    for _ in range(entries):
        found = save.find(end, at)
        if found < 0:
            return save
        at = found + len(end)
    return save[:at]


@fuzz_settings(80)
@given(st.data())
def test_damaged_saves(data: st.DataObject) -> None:
    save = save_bytes(data.draw(st.sampled_from(save_names())))
    if data.draw(st.booleans()):
        save = head_of(save, data.draw(st.integers(1, 40)))
    outcome(target_verify, data.draw(mutated(save)), keep_as="verify")


def test_intact_saves_verify() -> None:
    for name in save_names():
        assert target_verify(save_bytes(name)).ok, name
