"""What interrupts the sequence of play between two actions (9.B): a combat's openings
(`show`), the commitment of freshly drawn markers (`restack`), an Event's picks and hits.

Every handler of those steps returns PENDING (what_next.py): the kit then runs
`continue_play`, which goes to the next pending one, in a fixed order, and names what
follows when none is left: the combat in progress (by its kind), an Event kept for later,
or the sequence of play (`resume`).
"""

from __future__ import annotations

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import hits
from pbem.games.race_to_the_sea.decisions import Deal, Restack, Show
from pbem.games.race_to_the_sea.what_next import LATER_EVENT, NEXT_ACTION, PENDING
from pbem.kit.steps import Next


def continue_play(state: State, ctx: Context) -> Next:
    """The next pending interruption, else the combat in progress, else the Event picks,
    else the sequence of play."""
    if state.get("restack"):
        shared = hits.shared(state) and not state["restack"].get("dealt")
        state["step"] = "deal" if shared else "restack"
    elif hits.owing(state):
        state["step"] = "show"
    elif state.get("absorbing"):
        state["step"] = "absorb"
    elif state["combat"] is not None:
        return str(state["combat"]["kind"])  # FIRE, SKIRMISH or ASSAULT: it moves on
    elif state.get("event"):
        state["step"] = "event_pick"
    elif state.get("counter"):
        state["step"] = "counter"
    elif state.get("later_events"):
        return LATER_EVENT  # 13.0.D: in turn
    else:
        return resume(state, ctx)
    return None


def resume(state: State, ctx: Context) -> Next:
    """Back to the sequence of play: the next action (7.5, 8.5)."""
    what, state["resume"] = state.get("resume"), None
    state["step"] = "place" if what == "place" else "act"  # 7.1.B: a hit while placing
    return NEXT_ACTION if what == "action" else None


def asks_show(state: State) -> str | None:
    return hits.owing(state)


def asks_restack(state: State) -> str | None:
    pending = state.get("restack")
    return None if not pending else str(pending["side"])


def show(state: State, role: str, d: Show, ctx: Context) -> Next:
    """The kit has opened what `role` owed before this handler runs; what that means for
    the combat in progress is the combat's business (`continue_play`)."""
    return PENDING


def asks_deal(state: State) -> str | None:
    """The shared cup (a double-blind game): the referee draws from it (hits.deal)."""
    return "referee" if state.get("restack") else None


def deal(state: State, role: str, d: Deal, ctx: Context) -> Next:
    hits.deal(state, ctx)
    return PENDING


def restack(state: State, role: str, d: Restack, ctx: Context) -> Next:
    hits.restack(state, role, ctx)
    return PENDING
