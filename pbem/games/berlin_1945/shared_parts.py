"""Berlin 1945: the parts of a state that few entries change (the decks, the cards played,
the markers, the first-entry flags), shared between a state and its copy until the copy
changes one (copy on write, `pbem.kit.owned_parts`): here, how each part is copied.

`rules.clone` shares them; every change of one goes through `own_part`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.kit.owned_parts import PartOwners

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
_OWNERS = PartOwners(_COPY)
shared = _OWNERS.shared  # (`rules.clone`: the copy shares every lazy part)
own_part = _OWNERS.own_part  # (every change of a lazy part goes through it)
forget = _OWNERS.forget
