"""The card list of `pbem cards` for Berlin 1945: both decks with each card's symbols, timing
and text, and where the viewer knows a card to be.

What is marked comes from the role's view only (`view.view`): a card in the viewer's hand
(its own hand, known from its own store; a just-drawn card too), a card the view shows in
the other hand or discarded (opened at the end of the game), and every card played (public,
rulebook 2.3). The texts and stand-in marks are the view's (`view.cards`, from the shipped
data through `labels`); a game on its own data files has its texts in those files only,
and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.berlin_1945.rulebook import ROLES, SIDE_NAMES

STAND_IN_NOTE = (
    "† stand-in card: the rulebook reproduces only a few cards (2.3, 5.4, 7.4.2, 8.2), so "
    "the number, name or text of a card marked † was chosen for pbem, not taken from the "
    "published game"
)


def _places(view: Mapping[str, Any], role: str | None) -> dict[str, list[str]]:
    """card key -> where the viewer knows it to be."""
    where: dict[str, list[str]] = {}
    for side in ROLES:
        for slot in view["hands"][side]["slots"].values():
            if slot["card"] is None:
                continue
            key = f"{side}-{slot['card']}"
            if slot["status"] in ("hand", "pending"):
                mine = side == role
                text = "in your hand" if mine else f"in the {SIDE_NAMES[side]} hand"
                if slot["status"] == "pending":
                    text += " (just drawn)"
                where.setdefault(key, []).append(text)
            elif slot["status"] == "discarded":
                where.setdefault(key, []).append("discarded")
        for number in view["played"][side]:
            where.setdefault(f"{side}-{number}", []).append("played")
    return where


def card_lines(view: Mapping[str, Any], role: str | None) -> list[str]:
    """Both decks, card by card, as text lines."""
    where = _places(view, role)
    lines = [STAND_IN_NOTE]
    for side in ROLES:
        deck = [c for c in view["cards"].values() if c["deck"] == side]
        left = view["hands"][side]["deck"]
        lines += ["", f"{SIDE_NAMES[side]} deck: {len(deck)} cards, {left} left to draw"]
        for card in sorted(deck, key=lambda c: int(c["number"])):
            key = card["key"]
            mark = " †" if card["stand_in"] else ""
            known = f" -- {', '.join(where[key])}" if key in where else ""
            symbols = " ".join(card["symbols"])
            lines.append(f"  #{card['number']:<3} {card['name']} [{symbols}]{mark}{known}")
            if card["text"] is None:
                lines.append("       (its text is in this game's own data files)")
            else:
                lines += [f"       {card['timing']}", f"       {card['text']}"]
    return lines
