"""Decks and cups, drawn with the protocol's generator (section 7).

A deck is plain state data: `{"pile": [...], "discard": [...], "private": [...]}`, its pile
in canonical order (sorted: card numbers, counter ids). A public draw takes index
int(len(pile)) of the pile (`ctx.draw`); when the pile is empty the discard pile is
shuffled back into it first (for draws by index, putting the cards back in canonical
order is the shuffle). A cup is a deck without discards (Götterdämmerung's random cups).

A private deck is drawn only by its owner (a hidden hand, protocol section 5): each draw
is a private roll, an index into the cards still in the pile in canonical order, that
only the owner of the committed secret can compute. The pile itself never changes: the
cards drawn are `private_cards` of the draws' values, which the owner knows at once and
everyone else once the secret is opened. A deck is either public or private, never both,
and a private deck is not reshuffled (its discards may be unseen).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context
from pbem.errors import IllegalOrderError

Deck = dict[str, Any]


def new_deck(cards: Iterable[JSON]) -> Deck:
    """A deck holding `cards` (numbers or names, one kind), in canonical order."""
    return {"pile": sorted(cards), "discard": [], "private": []}


def left(deck: Deck) -> int:
    """Cards still in the pile (for a private deck: not yet drawn by its owner)."""
    return len(deck["pile"]) - len(deck["private"])


def draw(deck: Deck, ctx: Context, purpose: str) -> JSON:
    """A public draw; an empty pile takes back the discards first."""
    if deck["private"]:
        raise IllegalOrderError("illegal: a private deck is drawn only by its owner")
    if not deck["pile"]:
        if not deck["discard"]:
            raise IllegalOrderError(f"illegal: the deck and its discard pile are empty ({purpose})")
        deck["pile"] = sorted(deck["discard"])
        deck["discard"] = []
        ctx.event(f"the discard pile is shuffled back into the deck ({purpose})")
    return ctx.draw(deck["pile"], purpose)


def discard(deck: Deck, card: JSON) -> None:
    deck["discard"].append(card)


def draw_private(
    deck: Deck, ctx: Context, secret: str, count: int, purpose: Callable[[int, int], str]
) -> list[str]:
    """`count` private draws for the owner of `secret` (committed by this entry); returns
    their keys. `purpose(i, count)` names draw i (1-based) in the RNG log."""
    count = min(count, left(deck))
    remaining = left(deck)
    keys = []
    for i in range(count):
        key = ctx.private_roll(secret, 0, remaining - 1 - i, purpose(i + 1, count))
        deck["private"].append(key)
        keys.append(key)
    return keys


def private_cards(deck: Deck, values: Mapping[str, JSON]) -> list[JSON]:
    """The cards the private draws gave, in order, as far as `values` (draw key -> index:
    the owner's own, or the opened ones) knows them."""
    pile = list(deck["pile"])
    cards = []
    for key in deck["private"]:
        index = values.get(key)
        if not isinstance(index, int) or not 0 <= index < len(pile):
            break
        cards.append(pile.pop(index))
    return cards
