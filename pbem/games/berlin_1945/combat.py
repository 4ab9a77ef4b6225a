"""Resolving one combat (rulebook 7.4.2-7.4.4): strengths with every modifier and its
reason, the winner, the losses, the winner's d10 casualty checks, and removing units.

The order of combats, the card step and the casualty choices are the game sequence's
(`flow`); this module only computes and applies one combat's results.
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.berlin_1945 import position, tables
from pbem.games.berlin_1945.cards import combat_strength_mods
from pbem.games.berlin_1945.position import strength_of, units_at, update_control
from pbem.games.berlin_1945.rulebook import NAMES, ROLES
from pbem.games.berlin_1945.state import fixed, other

BANDS = {1: "less than double", 2: "double or more", 3: "triple or more"}


def resolve_strengths(state: State, ctx: Context) -> dict[str, Any]:
    """7.4.2-7.4.4: strengths with every modifier and its reason, the winner, the losses."""
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
        ctx.event(f"tie {g} to {s}: both sides remove 1 unit (rulebook 7.4.4)")
        return {"strength": strength, "winner": None, "losses": {"german": 1, "soviet": 1}}
    winner = "german" if g > s else "soviet"
    loser = other(winner)
    w, lo = max(g, s), min(g, s)
    band = 3 if w >= 3 * lo else 2 if w >= 2 * lo else 1
    ctx.event(
        f"{NAMES[winner]} wins {w} to {lo}: {NAMES[loser]} removes {band} unit(s) "
        f"(rulebook 7.4.4: {BANDS[band]})"
    )
    return {"strength": strength, "winner": winner, "losses": {loser: band, winner: 0}}


def roll_winner_losses(state: State, result: dict[str, Any], ctx: Context) -> None:
    """7.4.4: a loser removing 2 units makes the winner roll one d10, 3 units two; each 1-3
    is a loss. The dice follow the units actually removed."""
    winner = result["winner"]
    if winner is None:
        return
    loser = other(winner)
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


def loss_order(result: dict[str, Any]) -> list[list[Any]]:
    """[side, units to remove], the loser first (both on a tie, German first)."""
    winner = result["winner"]
    order = list(ROLES) if winner is None else [other(winner), winner]
    return [[side, result["losses"][side]] for side in order if result["losses"][side] > 0]


def profile(state: State, uid: str) -> tuple[Any, ...]:
    """What a casualty choice can tell apart in a unit (7.4.4): its type; from 1.1 also what
    differs in play between units of one type: the yellow dot (5.5.4), the card that brings
    it in (8.2: Wenck, Volkssturm, Charlemagne, Steiner), and the Reichstag garrison's
    freeze while it holds (5.2)."""
    unit = tables.of(state).units[uid]
    if not fixed(state):
        return (unit.type,)
    return (unit.type, unit.yellow, unit.card or 0, unit.frozen and not state["flags"]["mitte"])


def one_profile(state: State, uids: list[str]) -> bool:
    """Whether every unit of `uids` has one profile: then the choice of casualties is none."""
    return len({profile(state, u) for u in uids}) == 1


def remove_units(state: State, uids: list[str], ctx: Context, why: str) -> None:
    zones = set()
    for u in uids:
        zone = position.remove(state, u)
        if zone is not None:
            zones.add(zone)
    for z in sorted(zones):
        update_control(state, z)
    ctx.event(f"removed: {', '.join(uids)} ({why})", units=list(uids))
