"""A simple Berlin 1945 bot: legal, seeded, a little purposeful.

The Soviet plans up to three orders (advancing toward the Mitte when it can, each order
checked on the planning position as it is added), executes what it can, converts into
Retreats what it cannot, and plays C cards in combat; the German moves a few groups and
ends. Movement decisions are the engine's own samples (`Engine.sample_choice`), found by
trying random orders with the rules' checks instead of listing every legal one. Only the
random.Random passed in is used.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.core.engine import Engine, State
from pbem.games.berlin_1945.choices import combat_choices, order_json, plan_orders
from pbem.games.berlin_1945.decisions import Cards, Plan
from pbem.games.berlin_1945.hands import hand_size
from pbem.games.berlin_1945.plan import Draft, snapshot
from pbem.games.berlin_1945.position import ring


def choose(engine: Engine, state: State, role: str, rng: random.Random) -> Any:
    step = state["step"]
    if step == "plan":
        return soviet_plan(state, rng)
    if step == "combat" and state["combat"]["sub"] == "cards":
        options = combat_choices(state, role)
        played = [o for o in options if isinstance(o, Cards) and o.cards]
        if played and rng.random() < 0.6:
            return rng.choice(played)
        return options[0]
    return engine.sample_choice(state, role, rng)


def soviet_plan(state: State, rng: random.Random) -> Plan:
    orders = plan_orders(state)
    rng.shuffle(orders)
    orders.sort(key=lambda o: -(ring(state, o.dests[0][0]) - ring(state, o.frm)))
    draft = Draft(state, snapshot(state))
    chosen: list[Any] = []
    for order in orders:
        if len(chosen) == 3:
            break
        if rng.random() < 0.3 or not draft.fits(order_json(order)):
            continue
        draft.add(order_json(order))
        chosen.append(order)
    if hand_size(state, "soviet") >= 4 and rng.random() < 0.3:
        for order in orders:
            if draft.fits(order_json(order)):  # the extra order comes after the others
                return Plan(tuple(chosen), extra=order)
    return Plan(tuple(chosen))


# The standing orders a bot player sets (bench/handover_counts.py, bench/handovers.py).
STANDING_ORDERS = {"react": "none", "cards": "none after"}
