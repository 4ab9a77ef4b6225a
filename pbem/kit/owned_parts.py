"""Copy on write of a state's parts: a register of which parts each state owns.

A game's copy of a state may share the parts few entries change with the state it copies,
until one of the two changes one. Every change of such a part goes through `own_part`,
which copies the part by its shape first unless the state made or copied it already. What
tells the two apart is kept here, outside the state (its JSON and its views are
unchanged): for a state, the parts it owns. A state that is copied owns none from then on
(`shared`), and a state with no record (from a snapshot, a test, a plan's draft, a record
dropped when the register was full) copies each part at its first change: never a part
changed that another state holds, at worst one copy more.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

State = dict[str, Any]

KEPT = 64  # (a verifier needs the newest state or two, a bot a few more)


class PartOwners:
    """The parts each state owns, for one game's parts and their copiers (part -> a
    function that copies it by its shape)."""

    __slots__ = ("_copiers", "_owned")

    def __init__(self, copiers: Mapping[str, Callable[[Any], Any]]) -> None:
        self._copiers = dict(copiers)
        # a state's id -> (the state, the parts it owns); the state is held, so its id is
        # not reused while the record is
        self._owned: dict[int, tuple[State, set[str]]] = {}

    def shared(self, source: State, copy: State) -> None:
        """`copy` (a shallow copy of `source`) shares every part with it from now on."""
        owned = self._owned
        owned.pop(id(source), None)
        if len(owned) >= KEPT:
            owned.clear()
        owned[id(copy)] = (copy, set())

    def own_part(self, state: State, key: str) -> Any:
        """`state[key]`, this state's own to change in place: copied first if another
        state may hold it. Read the part from what this returns."""
        owned = self._owned
        record = owned.get(id(state))
        if record is None or record[0] is not state:
            if len(owned) >= KEPT:
                owned.clear()
            record = owned[id(state)] = (state, set())
        elif key in record[1]:
            return state[key]
        part = state[key] = self._copiers[key](state[key])
        record[1].add(key)
        return part

    def forget(self) -> None:
        """Drop every record (tests: a state without one copies each part it first
        changes)."""
        self._owned.clear()
