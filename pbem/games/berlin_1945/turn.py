"""The decisions around the turn (rulebook 2.3, 7.1, 7.5, 8.1, 9): drawing cards, the hand
limit, the Soviet reinforcements, the Reichstag presence check, and the end of the game,
where both sides open every secret."""

from __future__ import annotations

from pbem.core.engine import Context, State
from pbem.games.berlin_1945 import flow, position, tables
from pbem.games.berlin_1945.combat import remove_units
from pbem.games.berlin_1945.decisions import Discard, Draw, Open, Reinforce, RemoveUnit
from pbem.games.berlin_1945.hands import discard, draw, hand_size, verify_all
from pbem.games.berlin_1945.rulebook import HAND_LIMIT
from pbem.games.berlin_1945.soviet import open_at_the_end
from pbem.games.berlin_1945.state import illegal


def do_draw(state: State, role: str, d: Draw, ctx: Context) -> None:
    why = "initial hand" if state["phase"] == "deal" else f"turn {state['turn']} card draw"
    draw(state, role, state["draw_count"], ctx, why)
    flow.after_draw(state, ctx)


def do_discard(state: State, role: str, d: Discard, ctx: Context) -> None:
    """7.1: a hand over 6 cards after the draw is discarded down to 6, unseen."""
    if d.purpose != "limit":
        raise illegal("discard down to 6 cards first", "7.1")
    if hand_size(state, role) - len(d.slots) != HAND_LIMIT:
        raise illegal(f"discard down to exactly {HAND_LIMIT} cards", "7.1")
    discard(state, role, d.slots, "hand limit 6, rulebook 7.1", ctx)
    state["todo"] = state["todo"][1:]
    if not state["todo"]:
        flow.check_limit(state, ctx)


def do_reinforce(state: State, role: str, d: Reinforce, ctx: Context) -> None:
    """8.1: two groups of 3 regulars and 1 Guards, one in A-C, the other in D-F."""
    zones = tables.of(state).reinforcement_zones
    if d.first not in zones["1"] or d.second not in zones["2"]:
        raise illegal(
            f"one group in {'/'.join(zones['1'])} and the other in {'/'.join(zones['2'])}", "8.1"
        )
    units = tables.of(state).units
    for group, zone in (("1", d.first), ("2", d.second)):
        for uid in sorted(units):
            if str(units[uid].group) == group and position.status_of(state, uid) == "off":
                position.put(state, uid, zone)
        ctx.event(f"Soviet reinforcement group {group} enters Area {zone} (rulebook 8.1)")
    state["reinforced"] = True
    flow.start_planning(state)


def do_remove(state: State, role: str, d: RemoveUnit, ctx: Context) -> None:
    """7.5: Soviet units alone in the Reichstag remove a German unit (not SS) anywhere."""
    if d.unit is not None:
        if d.unit not in flow.reichstag_targets(state):
            raise illegal(f"{d.unit} is not a German unit on the map other than an SS unit", "7.5")
        remove_units(state, [d.unit], ctx, "Soviet presence in the Reichstag, rulebook 7.5")
    else:
        ctx.event("the Soviet removes no German unit (7.5)")
    flow.end_turn(state, ctx)


def do_reveal(state: State, role: str, d: Open, ctx: Context) -> None:
    """The end: every hand slot and draw secret opens (the step's required openings), every
    draw is recomputed and checked; a plan still sealed opens too."""
    verify_all(state, role, ctx)
    plan = state["plan"]
    if role == "soviet" and plan is not None and not plan["revealed"]:
        open_at_the_end(state, ctx)
    state["todo"] = state["todo"][1:]
    if not state["todo"]:
        state["step"] = "over"
        state["phase"] = "over"
