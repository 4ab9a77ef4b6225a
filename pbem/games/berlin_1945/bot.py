"""A simple Berlin 1945 bot: legal, seeded, a little purposeful.

The Soviet plans up to three orders (advancing toward the Mitte when it can), executes
what it can, converts into Retreats what it cannot, and plays C cards in combat; the
German moves a few groups and ends. Every pick comes from `choices` or is checked with
the same legality code, and only the random.Random passed in is used.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.core.engine import Engine, State
from pbem.games.berlin_1945.choices import choices, plan_is_legal, plan_orders
from pbem.games.berlin_1945.decisions import (
    Cancel,
    Cards,
    Discard,
    EndMovement,
    Execute,
    Move,
    Plan,
    Play,
    Rebuild,
    RetreatOrder,
)
from pbem.games.berlin_1945.hands import hand_size
from pbem.games.berlin_1945.state import ring


def choose(engine: Engine, state: State, role: str, rng: random.Random) -> Any:
    options = choices(state, role)
    if not options:
        raise AssertionError(f"{role} has no choice at {state['step']}")
    step = state["step"]
    if step == "plan":
        return soviet_plan(state, rng)
    if step == "german":
        return german_pick(state, options, rng)
    if step == "soviet":
        for kind in (Execute, RetreatOrder, Play, Rebuild, Cancel, EndMovement):
            picks = [o for o in options if isinstance(o, kind)]
            if picks and (kind is not Play or rng.random() < 0.5):
                return rng.choice(picks)
        return options[0]
    if step == "combat" and state["combat"]["sub"] == "cards":
        played = [o for o in options if isinstance(o, Cards) and o.cards]
        if played and rng.random() < 0.6:
            return rng.choice(played)
        return options[0]
    return rng.choice(options)


def soviet_plan(state: State, rng: random.Random) -> Plan:
    orders = plan_orders(state)
    rng.shuffle(orders)
    orders.sort(key=lambda o: -(ring(state, o.dests[0][0]) - ring(state, o.frm)))
    chosen: list[Any] = []
    used: set[str] = set()
    for order in orders:
        if len(chosen) == 3:
            break
        if order.frm in used or rng.random() < 0.3:
            continue
        plan = Plan((*chosen, order))
        if plan_is_legal(state, plan):
            chosen.append(order)
            used.add(order.frm)
    plan = Plan(tuple(chosen))
    if hand_size(state, "soviet") >= 4 and rng.random() < 0.3:
        for order in orders:
            if order.frm in used:
                continue
            bigger = Plan(tuple(chosen), extra=order)
            if plan_is_legal(state, bigger):
                return bigger
    return plan


def german_pick(state: State, options: list[Any], rng: random.Random) -> Any:
    moves = [o for o in options if isinstance(o, Move)]
    plays = [o for o in options if isinstance(o, Play)]
    if plays and rng.random() < 0.3:
        return rng.choice(plays)
    if moves and rng.random() < 0.75:
        return rng.choice(moves)
    extras = [o for o in options if isinstance(o, (Discard, Rebuild))]
    if extras and rng.random() < 0.2:
        return rng.choice(extras)
    return EndMovement()
