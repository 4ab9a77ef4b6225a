"""`pbem cards`: the cards of a game's decks with their texts, as one role knows them.

Each game with cards has a lister (its `card_list` module's `card_lines`) that gets
the role's view -- what the role may know, with its own sealed cards when `known` (its
own store's values) is given, card texts included -- and returns text lines. A game
without cards is refused with a one-line error.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import JSON
from pbem.core.engine import game_part
from pbem.errors import PbemError


def cards_text(game: Adjudicator, role: str | None, known: Mapping[str, JSON] | None = None) -> str:
    """The card list of `game` for `role` (None: the public)."""
    engine = game.engine
    lister = game_part(engine.name, "card_list")
    if lister is None:
        raise PbemError(f"{engine.title} has no cards")
    if role is not None and role not in game.roles:
        raise PbemError(f"this game has no role {role!r}")
    if game.state is None:
        raise PbemError("the game has not started: no card is dealt yet")
    if role is not None and known:
        view = engine.view_known(game.state, role, known)
    else:
        view = engine.view(game.state, role)
    lines = lister.card_lines(view, role)
    head = f"{engine.title} cards -- game {game.id[:12]}, view of {role or 'public'}"
    return "\n".join([head, *lines]) + "\n"
