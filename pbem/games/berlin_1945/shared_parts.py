"""Berlin 1945: the parts of a state that few entries change (the decks, the cards played,
the markers, the first-entry flags), shared between a state and its copy until the copy
changes one (copy on write).

`rules.clone` shares them; every change of one goes through `own_part`, which copies the
part by its shape first unless the state made or copied it already. What tells the two
apart is kept outside the state (its JSON and its views are unchanged): for a state, the
parts it owns. A state that is copied owns none from then on (`shared`), and a state with
no record (a state from a snapshot, a test, a plan's draft, a record dropped when the memo
was full) copies each part at its first change: never a part changed that another state
holds, at worst one copy more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

State = dict[str, Any]

LAZY_PARTS = ("decks", "played", "markers", "flags")


def _decks(decks: dict[str, Any]) -> dict[str, Any]:
    """Each side's deck: its pile never changes in place; its discards and draws grow."""
    copied = {}
    for role, deck in decks.items():
        deck = deck.copy()
        deck["discard"] = deck["discard"].copy()
        deck["private"] = deck["private"].copy()
        copied[role] = deck
    return copied


def _lists(part: dict[str, list[Any]]) -> dict[str, list[Any]]:
    copied = {}
    for key, items in part.items():
        copied[key] = items.copy()
    return copied


_COPY: dict[str, Callable[[Any], Any]] = {
    "decks": _decks,
    "played": _lists,
    "markers": _lists,
    "flags": dict.copy,
}
# a state's id -> (the state, the parts it owns); the state is held, so its id is not reused
_OWNED: dict[int, tuple[State, set[str]]] = {}
_KEPT = 64  # (a verifier needs the newest state or two, a bot a few more)


def shared(source: State, copy: State) -> None:
    """`copy` (a shallow copy of `source`) shares every lazy part with it from now on."""
    _OWNED.pop(id(source), None)
    if len(_OWNED) >= _KEPT:
        _OWNED.clear()
    _OWNED[id(copy)] = (copy, set())


def own_part(state: State, key: str) -> Any:
    """`state[key]` (one of LAZY_PARTS), this state's own to change in place: copied first
    if another state may hold it. Read the part from what this returns."""
    record = _OWNED.get(id(state))
    if record is None or record[0] is not state:
        if len(_OWNED) >= _KEPT:
            _OWNED.clear()
        record = _OWNED[id(state)] = (state, set())
    elif key in record[1]:
        return state[key]
    part = state[key] = _COPY[key](state[key])
    record[1].add(key)
    return part


def forget() -> None:
    """Drop every record (tests: a state without one copies each part it first changes)."""
    _OWNED.clear()
