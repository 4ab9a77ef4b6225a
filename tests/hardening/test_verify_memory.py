"""Streaming verification of a save keeps memory flat: only the entry index grows.

`verify_path` on a save file must not keep the entries, the actions or the RNG log:
its peak traced memory may grow by the 32-byte entry index per entry, not by the
entries. The same measurement on the in-memory path (which keeps them all) shows
what a failure would look like. Signature checks are switched off here (the entries
are unsigned, to keep the test cheap): they allocate nothing that stays.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

import pbem.ledger
import pbem.verify
from pbem.core import chain
from pbem.transport.savefile import save_text
from pbem.verify import Report, verify_path, verify_text
from tests.support.players import Table

SMALL, LARGE = 1_000, 4_000
PER_ENTRY_LIMIT = 200  # bytes of peak memory per extra entry (the index takes 32)


def data(count: int) -> dict[str, bytes]:
    return {"toy.toml": f"rounds = {count}\n".encode()}


@cache
def save(count: int) -> str:
    """A toy-dice save of `count` unsigned entries, the game still running at the end."""
    table = Table(
        "toy-dice", ("a", "b"), length=max(count, chain.MIN_LENGTH), signed=False, data=data(count)
    )
    table.join_all()
    while len(table.game.entries) < count:
        table.move(table.game.prompts()[0].role, "roll")
    return save_text(table.game, "memory", {"a": "SHA256:a", "b": "SHA256:b"})


def no_check(public_line: str, message: bytes, signature: bytes) -> None:
    """Accept every signature: the entries of this test are unsigned."""


def peak(verify: Callable[[], Report]) -> tuple[int, Report]:
    gc.collect()
    tracemalloc.start()
    try:
        report = verify()
        return tracemalloc.get_traced_memory()[1], report
    finally:
        tracemalloc.stop()


def growth(tmp_path: Path, how: str) -> float:
    """Extra peak bytes per extra entry from SMALL to LARGE entries."""
    peaks = []
    for count in (SMALL, LARGE):
        path = tmp_path / f"toy-{count}.pbem"
        path.write_text(save(count), encoding="utf-8")
        if how == "stream":
            used, report = peak(lambda p=path, n=count: verify_path(p, data(n)))
        else:
            text = path.read_bytes()
            used, report = peak(lambda t=text, n=count: verify_text(t, data(n)))
            del text
        assert report.ok, report.failure
        assert report.game is not None and report.game.entry_count == count
        assert report.game.lean == (how == "stream")
        del report
        peaks.append(used)
    return (peaks[1] - peaks[0]) / (LARGE - SMALL)


@pytest.fixture(autouse=True)
def _unsigned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pbem.verify, "check_signature", no_check)
    monkeypatch.setattr(pbem.ledger, "check_signature", no_check)


def test_streaming_verify_grows_by_the_index_only(tmp_path: Path) -> None:
    warm = tmp_path / "warm.pbem"
    warm.write_text(save(SMALL), encoding="utf-8")
    assert verify_path(warm, data(SMALL)).ok  # engines, caches and imports loaded first
    per_entry = growth(tmp_path, "stream")
    assert per_entry < PER_ENTRY_LIMIT, f"{per_entry:.0f} bytes of peak memory per entry"


def test_the_measurement_sees_kept_entries(tmp_path: Path) -> None:
    """The in-memory path keeps every entry: the same measurement must see it."""
    per_entry = growth(tmp_path, "memory")
    assert per_entry > 5 * PER_ENTRY_LIMIT, f"only {per_entry:.0f} bytes per entry"
