"""The game sequence (rulebook 7): card draw, Soviet planning, German and Soviet movement
with the reaction windows, the combats, the Reichstag presence check, reinforcements (8.1)
and victory (9). Each function moves the state to the next step; the step table
(`steps`) says who is asked there and what."""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.cards import after_card_numbers, after_combat
from pbem.games.berlin_1945.combat import loss_order, one_profile, remove_units
from pbem.games.berlin_1945.hands import hand_size, over_limit
from pbem.games.berlin_1945.position import (
    berlin_strength,
    disputed_zones,
    german_base_orders,
    on_map,
    strength_of,
    units_at,
    update_control,
)
from pbem.games.berlin_1945.rulebook import NAMES, REICHSTAG, ROLES, TURNS
from pbem.games.berlin_1945.state import fixed, new_move_record, other

# --- the card draw (7.1) ---------------------------------------------------------------------


def start_turn(state: State, ctx: Context) -> None:
    state["phase"] = "draw"
    state["step"] = "draw"
    state["todo"] = list(ROLES)
    state["draw_count"] = 1
    state["german_max"] = german_base_orders(state)  # 5.4: reductions apply in later turns
    state["move"] = None
    state["plan"] = None
    ctx.event(f"turn {state['turn']} begins; German base orders {state['german_max']}")


def after_draw(state: State, ctx: Context) -> None:
    state["todo"] = state["todo"][1:]
    if state["todo"]:
        return
    if state["phase"] == "deal":
        state["turn"] = 1
        start_turn(state, ctx)
        return
    check_limit(state, ctx)


def check_limit(state: State, ctx: Context) -> None:
    todo = [r for r in ROLES if over_limit(state, r)]
    if todo:
        state["step"] = "limit"
        state["todo"] = todo
        return
    if state["turn"] == 4 and not state["reinforced"]:
        state["step"] = "reinforce"  # 8.1: after both players have drawn on turn 4
        return
    start_planning(state)


# --- planning and movement (7.2, 7.3) ------------------------------------------------------------


def start_planning(state: State) -> None:
    state["phase"] = "plan"
    state["step"] = "plan"


def start_german_movement(state: State, ctx: Context) -> None:
    state["phase"] = "german"
    state["step"] = "german"
    state["move"] = new_move_record()
    ctx.event(f"German movement: up to {state['german_max']} orders (rulebook 5.4)")


def start_soviet_open(state: State) -> None:
    state["phase"] = "soviet"
    state["step"] = "open"
    state["move"] = new_move_record()


def reaction_window(state: State, reactor: str, then: str, ctx: Context) -> None:
    """As a Movement phase ends, the opponent may play reaction cards that cancel one of its
    orders (interpretation of the reaction timing; the order is undone, 6.1)."""
    state["react"] = {"role": reactor, "then": then}
    move = state["move"]
    standing = len(move["log"]) > len(move["undone"]) or len(move["card_log"]) > len(
        move["cards_undone"]
    )
    if hand_size(state, reactor) and standing:
        state["step"] = "react"
        return
    after_reaction(state, ctx)


def after_reaction(state: State, ctx: Context) -> None:
    then = state["react"]["then"]
    state["react"] = None
    if then == "open":
        start_soviet_open(state)
    else:
        start_combat(state, ctx)


# --- combat (7.4) ------------------------------------------------------------------------------


def start_combat(state: State, ctx: Context) -> None:
    state["phase"] = "combat"
    zones = disputed_zones(state)
    state["combat"] = {"left": zones, "zone": None, "asked": "german", "sub": "pick"}
    if not zones:
        after_combats(state, ctx)
        return
    state["step"] = "combat"
    if len(zones) == 1:
        begin_combat(state, zones[0], ctx)


def begin_combat(state: State, zone: str, ctx: Context) -> None:
    combat = state["combat"]
    combat["left"].remove(zone)
    combat.update(
        zone=zone,
        sub="cards",
        asked="german",
        played={"german": [], "soviet": []},
        bang={"german": [], "soviet": []},
        queue=[],
    )
    ctx.event(f"combat in {zone}")


def queue_casualties(state: State, result: dict[str, Any], ctx: Context) -> None:
    state["combat"]["queue"] = loss_order(result)
    next_casualties(state, ctx)


def next_casualties(state: State, ctx: Context) -> None:
    """Remove the losses in order; a side with a choice to make (7.4.4) is asked."""
    combat = state["combat"]
    zone = combat["zone"]
    while combat["queue"]:
        side, n = combat["queue"][0]
        here = units_at(state, zone, side)
        n = min(n, len(here))
        if n == 0:
            combat["queue"].pop(0)
            continue
        if n == len(here) or one_profile(state, here):
            remove_units(state, here[:n], ctx, "combat casualties (rulebook 7.4.4)")
            combat["queue"].pop(0)
            continue
        combat["queue"][0][1] = n
        combat["sub"] = "casualties"
        combat["asked"] = side
        return
    end_combat(state, ctx)


def after_cards_asked(state: State, side: str) -> bool:
    """7.4.1 (1.1): whether `side` is asked for its after-combat ! cards: the combat is
    over, it holds cards, its deck has one not yet played, and the zone holds enemy units
    (public facts only: the question tells the opponent nothing of the hand)."""
    zone = state["combat"]["zone"]
    if not hand_size(state, side) or not units_at(state, zone, other(side)):
        return False
    played = state["played"][side]
    return any(n not in played for n in after_card_numbers(state, side))


def end_combat(state: State, ctx: Context) -> None:
    combat = state["combat"]
    if fixed(state) and not combat.get("after_asked"):
        # 7.4.1: a ! card acting "once the combat is over" is declared with the outcome
        # known, the German first, then the Soviet; then they act together
        combat["after_asked"] = True
        combat["after_left"] = [r for r in ROLES if after_cards_asked(state, r)]
        if combat["after_left"]:
            combat["sub"] = "after"
            combat["asked"] = combat["after_left"][0]
            return
    after_combat(state, ctx)
    update_control(state, combat["zone"])
    if german_auto_victory(state, ctx):
        return
    left = [z for z in combat["left"] if z in disputed_zones(state)]
    combat["left"] = left
    combat.update(zone=None, sub="pick", asked="german")
    if not left:
        after_combats(state, ctx)
    elif len(left) == 1:
        begin_combat(state, left[0], ctx)


def after_combats(state: State, ctx: Context) -> None:
    state["combat"] = None
    if state["turn"] >= TURNS:
        soviet_victory_check(state, ctx)
        return
    state["phase"] = "reichstag"
    soviets = REICHSTAG in state["at"]["soviet"]
    germans = REICHSTAG in state["at"]["german"]
    if soviets and not germans and reichstag_targets(state):
        state["step"] = "reichstag"
        ctx.event("Soviet units alone in the Reichstag: the Soviet may remove a German unit (7.5)")
        return
    end_turn(state, ctx)


# --- the end of a turn (7.5) and of the game (9) -----------------------------------------------


def reichstag_targets(state: State) -> list[str]:
    """7.5: German units on the map other than SS units."""
    units = tables.of(state).units
    return sorted(u for u in on_map(state, "german") if units[u].type != "ss")


def end_turn(state: State, ctx: Context) -> None:
    if german_auto_victory(state, ctx, end_of_turn=True):
        return
    state["turn"] += 1
    start_turn(state, ctx)


def german_auto_victory(state: State, ctx: Context, end_of_turn: bool = False) -> bool:
    """9.2: from the end of turn 4, German strength in Berlin above the Soviet wins at once."""
    turn = state["turn"]
    if turn < 4 or (turn == 4 and not end_of_turn):
        return False
    g, s = berlin_strength(state, "german"), berlin_strength(state, "soviet")
    if g > s:
        finish(
            state,
            "german",
            "automatic",
            f"German strength {g} exceeds Soviet {s} (rulebook 9.2)",
            ctx,
        )
        return True
    return False


def soviet_victory_check(state: State, ctx: Context) -> None:
    """9.1: at the end of turn 12 the Soviet wins with at least twice the German strength in V."""
    s = strength_of(state, units_at(state, REICHSTAG, "soviet"))
    g = strength_of(state, units_at(state, REICHSTAG, "german"))
    if s > 0 and s >= 2 * g:
        finish(
            state,
            "soviet",
            "victory",
            f"Soviet strength {s} in the Reichstag is at least twice German {g} (rulebook 9.1)",
            ctx,
        )
    else:
        finish(
            state,
            "german",
            "standard",
            f"Soviet strength {s} in the Reichstag is less than twice German {g} (rulebook 9.2)",
            ctx,
        )


def finish(state: State, winner: str, level: str, reason: str, ctx: Context) -> None:
    """The game is decided; both sides then open every secret (the reveal step)."""
    state["result"] = {"winner": winner, "level": level, "reason": reason}
    state["phase"] = "reveal"
    state["step"] = "reveal"
    state["todo"] = list(ROLES)
    state["combat"] = None
    ctx.event(f"{NAMES[winner]} victory: {reason}")
