"""Fixtures for the Race to Berlin tests; the position builders live in rtb_support."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.race_to_berlin.rules import ENGINE
from tests.games.race_to_berlin.rtb_support import DATA


@pytest.fixture
def fresh() -> dict[str, Any]:
    """A new game's state, from the shipped data files."""
    return ENGINE.setup(DATA, {})
