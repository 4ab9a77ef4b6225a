"""What interrupts the sequence of play between two actions (9.B): a combat's openings
(`show`), the commitment of freshly drawn markers (`restack`), an Event's picks and hits.

Every handler of those steps ends in `continue_play`, which goes to the next pending
one, in a fixed order, and back to the sequence of play when none is left (`resume`).
"""

from __future__ import annotations

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import hits
from pbem.games.race_to_the_sea.decisions import Deal, Restack, Show


def continue_play(state: State, ctx: Context) -> None:
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
        _proceed(state, ctx)
    elif state.get("event"):
        state["step"] = "event_pick"
    elif state.get("counter"):
        state["step"] = "counter"
    elif state.get("later_events"):
        from pbem.games.race_to_the_sea import events

        events.after_combat(state, state["later_events"].pop(0), ctx)  # 13.0.D: in turn
        continue_play(state, ctx)
    else:
        resume(state, ctx)


def _proceed(state: State, ctx: Context) -> None:
    if state["combat"]["kind"] == "fire":
        from pbem.games.race_to_the_sea import firepower

        firepower.proceed(state, ctx)
    elif state["combat"]["kind"] == "skirmish":  # 10.5.3
        from pbem.games.race_to_the_sea import skirmish

        skirmish.proceed(state, ctx)
    else:
        from pbem.games.race_to_the_sea import assault

        assault.proceed(state, ctx)


def resume(state: State, ctx: Context) -> None:
    """Back to the sequence of play: the next action (7.5, 8.5)."""
    from pbem.games.race_to_the_sea import flow

    what, state["resume"] = state.get("resume"), None
    state["step"] = "place" if what == "place" else "act"  # 7.1.B: a hit while placing
    if what == "action":
        flow._next_action(state, ctx)


def asks_show(state: State) -> str | None:
    return hits.owing(state)


def asks_restack(state: State) -> str | None:
    pending = state.get("restack")
    return None if not pending else str(pending["side"])


def show(state: State, role: str, d: Show, ctx: Context) -> None:
    """The kit has opened what `role` owed before this handler runs; what that means for
    the combat in progress is the combat's business (`continue_play`)."""
    continue_play(state, ctx)


def asks_deal(state: State) -> str | None:
    """The shared cup (a double-blind game): the referee draws from it (hits.deal)."""
    return "referee" if state.get("restack") else None


def deal(state: State, role: str, d: Deal, ctx: Context) -> None:
    hits.deal(state, ctx)
    continue_play(state, ctx)


def restack(state: State, role: str, d: Restack, ctx: Context) -> None:
    hits.restack(state, role, ctx)
    continue_play(state, ctx)
