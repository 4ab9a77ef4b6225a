"""`pbem cards`: the cards of a game's decks with their texts, as one role knows them.

Each game with cards has a lister (`LISTERS`: engine name -> "module:function") that gets
the role's view -- what the role may know, with its own sealed cards when `known` (its
own store's values) is given, card texts included -- and returns text lines. A game
without cards is refused with a one-line error.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import JSON
from pbem.errors import PbemError

LISTERS = {"berlin-1945": "pbem.games.berlin_1945.card_list:card_lines"}


def cards_text(game: Adjudicator, role: str | None, known: Mapping[str, JSON] | None = None) -> str:
    """The card list of `game` for `role` (None: the public)."""
    engine = game.engine
    target = LISTERS.get(engine.name)
    if target is None:
        raise PbemError(f"{engine.title} has no cards")
    if role is not None and role not in game.roles:
        raise PbemError(f"this game has no role {role!r}")
    if game.state is None:
        raise PbemError("the game has not started: no card is dealt yet")
    if role is not None and known:
        view = engine.view_known(game.state, role, known)
    else:
        view = engine.view(game.state, role)
    module, _, function = target.partition(":")
    lines = getattr(import_module(module), function)(view, role)
    head = f"{engine.title} cards -- game {game.id[:12]}, view of {role or 'public'}"
    return "\n".join([head, *lines]) + "\n"
