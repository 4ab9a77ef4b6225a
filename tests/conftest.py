"""Shared fixtures: isolated stores and the toy engine."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tests.support.bid  # noqa: E402,F401  (registers the toy engines)
import tests.support.peek  # noqa: E402,F401
import tests.support.toy  # noqa: E402,F401


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test ever touches a real user's store."""
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "default-home"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)
