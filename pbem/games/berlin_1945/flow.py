"""The game sequence (rulebook 7): card draw, Soviet planning, German and Soviet movement,
combat, the Reichstag presence check, reinforcements (8.1) and victory (9)."""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.berlin_1945.hands import over_limit
from pbem.games.berlin_1945.state import (
    INITIAL_HAND,
    NAMES,
    REICHSTAG,
    ROLES,
    TURNS,
    berlin_strength,
    disputed_zones,
    german_base_orders,
    new_move_record,
    strength_of,
    units_at,
    update_control,
)


def asked(state: State) -> list[str]:
    step = state["step"]
    if step == "over":
        return []
    if step in ("draw", "limit", "reveal"):
        return state["todo"][:1]
    if step in ("reinforce", "plan", "open", "soviet", "reichstag"):
        return ["soviet"]
    if step == "german":
        return ["german"]
    if step == "combat":
        return [state["combat"]["asked"]]
    if step == "react":
        return [state["react"]["role"]]
    raise AssertionError(step)


def start_deal(state: State) -> None:
    state["step"] = "draw"
    state["todo"] = list(ROLES)
    state["draw_count"] = INITIAL_HAND


def start_turn(state: State, ctx: Context | None) -> None:
    state["phase"] = "draw"
    state["step"] = "draw"
    state["todo"] = list(ROLES)
    state["draw_count"] = 1
    state["german_max"] = german_base_orders(state)  # 5.4: reductions apply in later turns
    state["move"] = None
    state["plan"] = None
    if ctx is not None:
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
    if state["turn"] == 4 and not state.get("reinforced"):
        state["step"] = "reinforce"  # 8.1: after both players have drawn on turn 4
        return
    start_planning(state, ctx)


def start_planning(state: State, ctx: Context) -> None:
    state["phase"] = "plan"
    state["step"] = "plan"


def start_german_movement(state: State, ctx: Context) -> None:
    state["phase"] = "german"
    state["step"] = "german"
    state["move"] = new_move_record(state)
    ctx.event(f"German movement: up to {state['german_max']} orders (rulebook 5.4)")


def start_soviet_open(state: State, ctx: Context) -> None:
    state["phase"] = "soviet"
    state["step"] = "open"
    state["move"] = new_move_record(state)


def reaction_window(state: State, reactor: str, then: str, ctx: Context) -> None:
    """As a Movement phase ends, the opponent may play reaction cards that cancel one of its
    orders (interpretation of the reaction timing; the order is undone, 6.1)."""
    from pbem.games.berlin_1945.hands import hand_size

    state["react"] = {"role": reactor, "then": then}
    log = state["move"]["log"]
    cards = state["move"].get("card_log", [])
    if hand_size(state, reactor) and any(not e.get("undone") for e in log + cards):
        state["step"] = "react"
        return
    after_reaction(state, ctx)


def after_reaction(state: State, ctx: Context) -> None:
    then = state["react"]["then"]
    state["react"] = None
    if then == "open":
        start_soviet_open(state, ctx)
    else:
        start_combat(state, ctx)


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


def resolve_strengths(state: State, ctx: Context) -> dict[str, Any]:
    """7.4.2-7.4.4: strengths with every modifier and its reason, the winner, the losses."""
    from pbem.games.berlin_1945.cards import combat_strength_mods

    combat = state["combat"]
    zone = combat["zone"]
    strength = {side: strength_of(state, units_at(state, zone, side)) for side in ROLES}
    for side in ROLES:
        ctx.event(f"{NAMES[side]} units in {zone}: strength {strength[side]}", side=side)
    for side, amount, reason in combat_strength_mods(
        state, zone, combat["played"], combat.get("bang")
    ):
        strength[side] += amount
        ctx.event(f"{NAMES[side]} {amount:+d} ({reason})", side=side, amount=amount)
    strength = {s: max(0, v) for s, v in strength.items()}
    g, s = strength["german"], strength["soviet"]
    if g == s:
        losses = {"german": 1, "soviet": 1}
        winner = None
        ctx.event(f"tie {g} to {s}: both sides remove 1 unit (rulebook 7.4.4)")
    else:
        winner = "german" if g > s else "soviet"
        loser = "soviet" if winner == "german" else "german"
        w, lo = max(g, s), min(g, s)
        band = 3 if w >= 3 * lo else 2 if w >= 2 * lo else 1
        losses = {loser: band, winner: 0}
        bands = {1: "less than double", 2: "double or more", 3: "triple or more"}
        ctx.event(
            f"{NAMES[winner]} wins {w} to {lo}: {NAMES[loser]} removes {band} unit(s) "
            f"(rulebook 7.4.4: {bands[band]})"
        )
    return {"strength": strength, "winner": winner, "losses": losses}


def roll_winner_losses(state: State, result: dict[str, Any], ctx: Context) -> None:
    winner = result["winner"]
    if winner is None:
        return
    loser = "soviet" if winner == "german" else "german"
    zone = state["combat"]["zone"]
    removed = min(result["losses"][loser], len(units_at(state, zone, loser)))
    dice = {2: 1, 3: 2}.get(removed, 0)
    hits = 0
    for i in range(dice):
        value = ctx.roll(
            1, 10, f"combat in {zone}: {NAMES[winner]} casualty check {i + 1} of {dice}"
        )
        if value <= 3:
            hits += 1
            ctx.event(f"{NAMES[winner]} rolls {value}: a loss (1-3, rulebook 7.4.4)")
        else:
            ctx.event(f"{NAMES[winner]} rolls {value}: no loss")
    result["losses"][winner] = hits


def queue_casualties(state: State, result: dict[str, Any], ctx: Context) -> None:
    winner = result["winner"]
    order = (
        ["german", "soviet"]
        if winner is None
        else ["soviet" if winner == "german" else "german", winner]
    )
    state["combat"]["queue"] = [
        [side, result["losses"][side]] for side in order if result["losses"][side] > 0
    ]
    next_casualties(state, ctx)


def casualty_profiles(state: State, uids: list[str]) -> set[str]:
    return {state["units"][u]["type"] for u in uids}


def next_casualties(state: State, ctx: Context) -> None:
    combat = state["combat"]
    zone = combat["zone"]
    while combat["queue"]:
        side, n = combat["queue"][0]
        here = units_at(state, zone, side)
        n = min(n, len(here))
        if n == 0:
            combat["queue"].pop(0)
            continue
        if n == len(here) or len(casualty_profiles(state, here)) == 1:
            remove_units(state, here[:n], ctx, "combat casualties (rulebook 7.4.4)")
            combat["queue"].pop(0)
            continue
        combat["queue"][0][1] = n
        combat["sub"] = "casualties"
        combat["asked"] = side
        return
    end_combat(state, ctx)


def remove_units(state: State, uids: list[str], ctx: Context, why: str) -> None:
    zones = set()
    for u in uids:
        zones.add(state["units"][u]["zone"])
        state["units"][u].update(status="removed", zone=None)
    for z in zones:
        update_control(state, z)
    ctx.event(f"removed: {', '.join(uids)} ({why})", units=list(uids))


def end_combat(state: State, ctx: Context) -> None:
    from pbem.games.berlin_1945.cards import after_combat

    combat = state["combat"]
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


def after_combats(state: State, ctx: Context) -> None:
    state["combat"] = None
    if state["turn"] >= TURNS:
        soviet_victory_check(state, ctx)
        return
    state["phase"] = "reichstag"
    s = units_at(state, REICHSTAG, "soviet")
    g = units_at(state, REICHSTAG, "german")
    if s and not g and reichstag_targets(state):
        state["step"] = "reichstag"
        ctx.event("Soviet units alone in the Reichstag: the Soviet may remove a German unit (7.5)")
        return
    end_turn(state, ctx)


def reichstag_targets(state: State) -> list[str]:
    return sorted(
        u
        for u, v in state["units"].items()
        if v["side"] == "german" and v["status"] == "on" and v["type"] != "ss"
    )


def end_turn(state: State, ctx: Context) -> None:
    if german_auto_victory(state, ctx, end_of_turn=True):
        return
    state["turn"] += 1
    start_turn(state, ctx)


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
    state["result"] = {"winner": winner, "level": level, "reason": reason}
    state["phase"] = "reveal"
    state["step"] = "reveal"
    state["todo"] = list(ROLES)
    state["combat"] = None
    ctx.event(f"{NAMES[winner]} victory: {reason}")
