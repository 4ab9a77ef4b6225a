"""A random but somewhat sensible Barbarossa bot, for tests, demos and conformance runs.

It only ever returns a member of `engine.choices(state, role)`. Its randomness is
the seeded `random.Random` passed in, never the global `random`. It prefers
attacks that capture or encircle, re-supplies when the tracker runs low, pays
black cubes to reach the Luftwaffe on the event chart or to make an attack
possible, sometimes re-rolls low dice, and ends the phase when nothing useful
is left.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.games.barbarossa.data import d3
from pbem.games.barbarossa.decisions import (
    Accept,
    Attack,
    Boost,
    BoostEvent,
    Claim,
    End,
    Reroll,
    RerollEvent,
    RollEvent,
    Supply,
)


def choose(engine: Any, state: dict[str, Any], role: str, rng: random.Random) -> Any:
    """A legal decision for `role`; raises ValueError when the role has nothing to decide."""
    options = engine.choices(state, role)
    if not options:
        raise ValueError(f"{role!r} has no decision to make now")
    step = state["step"]
    if step == "modify_event":
        return _event_step(state, options, rng)
    if step == "allocate":
        return _german_phase(state, options, rng)
    return next((d for d in options if isinstance(d, RollEvent)), options[0])


def _effect_at(state: dict[str, Any], value: int) -> str:
    for row in state["event_chart"]:
        if row["low"] <= value <= row["high"]:
            return str(state["events"][row["event"]]["effect"])
    return "none"


def _event_step(state: dict[str, Any], options: list[Any], rng: random.Random) -> Any:
    value = state["event_die"]["value"]
    effect = _effect_at(state, value)
    if effect == "add_white":
        return Accept()
    # Cheapest boost that reaches an extra die, if it leaves a cube in reserve.
    for d in options:
        if (
            isinstance(d, BoostEvent)
            and d.cubes <= 2
            and d.cubes < state["cubes"]["supply"]
            and _effect_at(state, value + d.cubes) == "add_white"
        ):
            return d
    if effect == "remove_white" and RerollEvent() in options and rng.random() < 0.6:
        return RerollEvent()
    return Accept()


def _attack_score(state: dict[str, Any], attack: Attack) -> float:
    die = state["pool"][attack.die - 1]
    city = next(c for p in state["paths"] for c in p["cities"] if c["id"] == attack.city)
    boxes = city["boxes"]
    k = next(i for i, b in enumerate(boxes) if not b["marked"])
    value, need = die["value"], boxes[k]["value"]
    marks = 1
    if value >= 2 * need and k + 1 < len(boxes):
        marks = 2
    score = 3.0 * marks + need
    if k + marks >= len(boxes):
        score += 4.0 * city["stars"] + 2.0
    # Do not waste a big die on a small box.
    score -= 0.5 * max(0, value - (2 * need if marks == 2 else need))
    return score


def _german_phase(state: dict[str, Any], options: list[Any], rng: random.Random) -> Any:
    cubes, limits = state["cubes"], state["limits"]
    claims = [d for d in options if isinstance(d, Claim)]
    if claims:
        return claims[0]
    attacks = [d for d in options if isinstance(d, Attack)]
    supplies = [d for d in options if isinstance(d, Supply)]
    free = [d for d in state["pool"] if d["allocated"] is None]

    # Re-supply first when the tracker is nearly empty: attacks on supply boxes need it.
    if cubes["supply"] <= 1 and supplies and rng.random() < 0.8:
        best = max(supplies, key=lambda s: state["pool"][s.die - 1]["value"])
        if d3(state["pool"][best.die - 1]["value"]) >= 2:
            return best

    if attacks:
        scored = [(_attack_score(state, a) + rng.random(), a) for a in attacks]
        return max(scored, key=lambda t: t[0])[1]

    # No attack possible: a cheap boost that makes one possible?
    fronts = [
        next(b["value"] for b in c["boxes"] if not b["marked"])
        for p in state["paths"]
        for c in p["cities"]
        if c["status"] == "unlocked"
    ]
    boosts = [d for d in options if isinstance(d, Boost) and d.cubes < cubes["supply"]]
    for b in sorted(boosts, key=lambda b: b.cubes):
        value = state["pool"][b.die - 1]["value"] + b.cubes
        if b.cubes <= 2 and any(value == need for need in fronts):
            return b

    rerolls = [d for d in options if isinstance(d, Reroll)]
    low = [r for r in rerolls if state["pool"][r.die - 1]["value"] <= 3]
    if low and rng.random() < 0.7:
        return rng.choice(low)

    if supplies and cubes["supply"] < limits["supply"]:
        return max(supplies, key=lambda s: state["pool"][s.die - 1]["value"])
    if free and rerolls and rng.random() < 0.2:
        return rng.choice(rerolls)
    return End()
