"""Berlin 1945's standing orders (pbem.kit.orders): the card reactions a player may answer
in advance, so that the opponent's moves and combats need this player's person only for
real choices. Each decides among the step's own listed choices on the player's own
state; where it does not fit it gives None and the player is asked.
"""

from __future__ import annotations

from typing import Any

from pbem.games.berlin_1945 import choices
from pbem.games.berlin_1945.decisions import Cards, NoReaction
from pbem.kit.orders import Form, StandingOrder, by_name

State = dict[str, Any]


def _react(state: State, role: str, argument: str) -> Any | None:
    return NoReaction()


def _cards(state: State, role: str, argument: str) -> Any | None:
    """'none': no card in a combat's card steps; 'none after': only once it is over."""
    sub = state["combat"]["sub"]
    wanted = ("after",) if argument == "none after" else ("cards", "answer", "after")
    if sub not in wanted:
        return None
    return Cards() if Cards() in choices.combat_choices(state, role) else None


ORDERS = by_name(
    StandingOrder(
        "react",
        ("react",),
        "cancelling one of the opponent's orders with a card (rulebook 5.2-5.4)",
        (Form("none", "never react: keep your cards"),),
        _react,
    ),
    StandingOrder(
        "cards",
        ("combat",),
        "playing cards in a combat (rulebook 7.4.1)",
        (
            Form("none", "play no card before, in answer to or after a combat"),
            Form("none after", "play no card once a combat is over"),
        ),
        _cards,
    ),
)
