"""Götterdämmerung: which unit dicts each units mapping alone holds, for state.py's
copy-on-write units (`own`, `put`, `copy_state`) and for zoc_index, which holds a unit dict
itself only while no state may change it (`frozen_test`).

Remembered by the mapping's identity (the entry holds the mapping, so its id is not reused
while it is here), outside the state: the state's JSON is unchanged. Forgetting a mapping
makes its next `own` copy once more: `copy_state` forgets its source (which shares every
unit from then on), and the oldest entries go beyond KEPT. A dict `own` returned stays the
state's while one entry is applied (the state being changed is the newest entry here; it
would take KEPT other states changed meanwhile to forget it), so a handler may keep and
change it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_OWNED: dict[int, tuple[dict[str, Any], set[str]]] = {}
KEPT = 64


def owned(units: dict[str, Any]) -> set[str]:
    """The ids of the units whose dicts `units` alone holds (registered on first use)."""
    entry = _OWNED.get(id(units))
    if entry is None or entry[0] is not units:
        while len(_OWNED) >= KEPT:
            try:
                _OWNED.pop(next(iter(_OWNED)), None)
            except (RuntimeError, StopIteration):  # (changed meanwhile: forget no more)
                break
        entry = (units, set())
        _OWNED[id(units)] = entry
    return entry[1]


def forget(units: dict[str, Any]) -> None:
    """`units` owns no unit dict from now on (its dicts are shared with a copy)."""
    _OWNED.pop(id(units), None)


def frozen_test() -> Callable[[Any], bool]:
    """A test "is this unit dict one that is never changed again": held by one of the two
    newest units mappings registered here, and not owned by it (the rules change a unit
    only through `own`, which copies a dict its mapping does not own)."""
    newest: list[tuple[dict[str, Any], set[str]]] = []
    try:
        for entry in reversed(_OWNED.values()):
            newest.append(entry)
            if len(newest) == 2:
                break
    except RuntimeError:  # (changed meanwhile: nothing is known frozen)
        newest = []

    def frozen(unit: Any) -> bool:
        if type(unit) is not dict:
            return False
        uid: Any = unit.get("id")
        for units, owned in newest:
            if units.get(uid) is unit:
                return uid not in owned
        return False

    return frozen
