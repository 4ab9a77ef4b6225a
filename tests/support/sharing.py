"""Two copies of a state compared part by part: equal, and sharing the same parts with the
original (the tests of the titles' fast state copies against their reference copies)."""

from __future__ import annotations

from typing import Any


def same_sharing(fast: Any, slow: Any, original: Any, where: str = "state") -> None:
    """`fast` and `slow` equal, in the same key order, and each part shared with
    `original` in both copies or in neither."""
    assert type(fast) is type(slow), where
    assert (fast is original) == (slow is original), f"{where}: shared in one copy only"
    if isinstance(original, dict):
        assert list(fast) == list(slow) == list(original), where
        for key in original:
            same_sharing(fast[key], slow[key], original[key], f"{where}[{key!r}]")
    elif isinstance(original, list):
        assert len(fast) == len(slow) == len(original), where
        for n, item in enumerate(original):
            same_sharing(fast[n], slow[n], item, f"{where}[{n}]")
    else:
        assert fast == slow, where
