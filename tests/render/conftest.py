"""The browser tests' one Chromium (tests/support/headless.py) is stopped at the end of the
session, so that its CPU time is counted with the tests (a child's time is counted when
it is waited for) and no browser outlives the run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.headless import close_shared


@pytest.fixture(scope="session", autouse=True)
def _one_browser_per_session() -> Iterator[None]:
    yield
    close_shared()
