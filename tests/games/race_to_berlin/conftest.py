"""Fixtures for the Race to Berlin tests; the position builders live in rtb_support."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.race_to_berlin.rules import ENGINE


@pytest.fixture
def engine() -> Any:
    return ENGINE


@pytest.fixture
def fresh() -> dict[str, Any]:
    return ENGINE.setup(None, {})
