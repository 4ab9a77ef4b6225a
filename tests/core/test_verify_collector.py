"""The cycle collector while a file streams through verify_path (pbem.verify._collector_eased):
eased, still on, and left as it was found."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from pbem import verify

SAVES = Path(__file__).resolve().parents[2] / "saves"


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: reference counting alone never frees it


def test_streaming_eases_the_collector_and_restores_it() -> None:
    before = (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled())
    with verify._collector_eased():
        assert gc.get_threshold()[0] == verify._STREAM_YOUNG
        assert gc.get_threshold()[1:] == before[0][1:]
        assert gc.get_freeze_count() > 0
        assert gc.isenabled() == before[2]
    assert (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()) == before


def test_a_verification_leaves_the_collector_as_it_found_it() -> None:
    before = (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled())
    report = verify.verify_path(SAVES / "barbarossa-demo.pbem")
    assert report.ok
    assert (gc.get_threshold(), gc.get_freeze_count(), gc.isenabled()) == before


def test_cycles_made_while_streaming_are_still_collected() -> None:
    """Left on, the collector bounds memory: cycles made inside are freed without an
    explicit gc.collect() once enough containers pile up."""
    if not gc.isenabled():
        gc.enable()
    with verify._collector_eased():
        first = _Node()
        gone = weakref.ref(first)
        del first
        for _ in range(3 * verify._STREAM_YOUNG):
            _Node()
        assert gone() is None


def test_nested_and_frozen_settings_are_left_alone() -> None:
    with verify._collector_eased():
        eased = (gc.get_threshold(), gc.get_freeze_count())
        with verify._collector_eased():
            assert (gc.get_threshold(), gc.get_freeze_count()) == eased
        assert (gc.get_threshold(), gc.get_freeze_count()) == eased
    gc.freeze()  # a program that freezes its own objects
    try:
        frozen = (gc.get_threshold(), gc.get_freeze_count())
        with verify._collector_eased():
            assert (gc.get_threshold(), gc.get_freeze_count()) == frozen
        assert (gc.get_threshold(), gc.get_freeze_count()) == frozen
    finally:
        gc.unfreeze()
