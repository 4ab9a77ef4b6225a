"""The state of a Berlin 1945 game: its shape, the initial state and the refusals.

Plain JSON; what never changes is one static text, the rest is small so that the copy
`apply` makes on every entry is cheap:

    tables               the static tables (map, counters, cards) as one JSON text (`tables`)
    turn, phase, step    turn 1-12; phase deal/draw/plan/german/soviet/combat/reichstag/
                         reveal/over; step: the kit step that asks now (`steps`)
    todo                 the roles still to act in a step that asks each in turn
    draw_count           cards each side draws in this draw step (5 for the initial hand)
    at, removed          where the units are; control, flags: see `position`
    german_max           the German base number of Movement orders (4, then 3/2/1, 5.4)
    reinforced           the Soviet reinforcements are in (8.1)
    move                 this Movement phase's bookkeeping (moved units, orders, log)
    decks                role -> a private deck of the kit (pile, the keys of its draws)
    hands                role -> {slots: k -> hidden piece, pending: [k], secrets: [label]}
    plan                 the Soviet plan of this turn: a hidden piece (`plan`)
    combat, react        the combat being fought; the reaction window after a Movement phase
    markers, played      markers by zone; cards played by each side
    result               None, or the winner, level and reason once the game is decided
    rules                the version ("1.1", "1.2") from 1.1 on (its rules fixes, `fixed`);
                         absent in 1.0
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import State
from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.position import new_position
from pbem.games.berlin_1945.rulebook import INITIAL_HAND, ROLES
from pbem.kit import decks


def illegal(message: str, rule: str) -> IllegalOrderError:
    return IllegalOrderError(f"illegal: {message} (rulebook {rule})")


def fixed(state: State) -> bool:
    """Whether the game plays the rules fixes of version 1.1 (a 1.0 state has no "rules")."""
    return state.get("rules") is not None


def other(role: str) -> str:
    return "soviet" if role == "german" else "german"


def initial_state(tables_text: str) -> State:
    """Before the deal: both sides draw their initial hands first (rulebook 2.3)."""
    state: State = {"tables": tables_text}
    new_position(state)
    t = tables.of(state)
    state.update(
        turn=1,
        phase="deal",
        step="draw",
        todo=list(ROLES),
        draw_count=INITIAL_HAND,
        german_max=4,
        reinforced=False,
        move=None,
        decks={role: decks.new_deck(t.decks[role]) for role in ROLES},
        hands={role: {"slots": {}, "pending": [], "secrets": []} for role in ROLES},
        plan=None,
        combat=None,
        react=None,
        markers={},
        played={role: [] for role in ROLES},
        result=None,
    )
    return state


def new_move_record() -> dict[str, Any]:
    return {
        "moved": [],
        "orders": 0,
        "withdrawals": 0,
        "extra": None,  # None, "bought" (German extra move bought), "used", "rebuild"
        "double": None,  # card #24: units allowed to move a second time
        "bonus": 0,  # extra orders from cards
        "last": None,  # the units of the last order (card #24 moves them again)
        "double_card": None,  # the card that gave the second move (#24)
        "free_rebuild": 0,  # Rebuild orders given by cards
        "ended": False,  # a German Rebuild order ends the Movement phase (6)
        # orders carried out and cards played this phase, for reaction cards that cancel
        # them: an entry never changes once logged, what was cancelled is listed apart
        "log": [],
        "card_log": [],  # with what a cancelling card undoes
        "undone": [],  # the numbers of the orders cancelled
        "cards_undone": [],  # the cards cancelled
    }
