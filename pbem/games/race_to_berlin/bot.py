"""A somewhat sensible Race to Berlin bot, for tests, demos and conformance runs.

It only ever returns a member of `engine.choices(state, role)`, decided on the state its
player knows (the owner's `with_secrets` state: its own block values, never the other
side's). Its randomness is the seeded `random.Random` passed in, never the global `random`.

Preferences: big blocks on the own front line, smaller ones behind the German front it
plays; attacks with good odds (the two-dice bonus distribution against the defence it can
see), toward eagles and Berlin; German attacks only against the opponent; tokens when
they help; advance with everything; remove exhausted blocks to get the cubes back, and
remove blocks rather than shuffle pieces forever.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pbem.games.race_to_berlin.choices import attacks as legal_attacks
from pbem.games.race_to_berlin.choices import moves as legal_moves
from pbem.games.race_to_berlin.decisions import (
    Attack,
    Counterattack,
    EndStrategic,
    Move,
    OpenBlocks,
    Place,
    PlaceReserve,
    RemoveBlock,
    Reserves,
    Strategic,
    Support,
    Tokens,
)
from pbem.games.race_to_berlin.state import (
    ALLIED,
    GERMAN,
    SOVIET,
    WEST,
    blocks_in,
    force_units_in,
    graph,
    on_board,
    other,
    own_block_in,
)
from pbem.kit.pieces import known_value

# P(|d6 - d6| = k) * 36
BONUS = {0: 6, 1: 10, 2: 8, 3: 6, 4: 4, 5: 2}
PATIENCE = 24  # actions in a phase after which the bot stops moving and removes blocks
EAGLE_OF = {WEST: "blue", SOVIET: "red"}


def choose(engine: Any, state: dict[str, Any], role: str, rng: random.Random) -> Any:
    """A legal decision for `role`; raises ValueError when the role has nothing to decide."""
    if state["step"] == "action" and role in engine.asked_roles(state):
        # The action phase's full list holds every move; the bot looks at moves only when
        # it wants to move (the same generator, so its pick is a member of choices()).
        return _action(state, role, rng)
    options = engine.choices(state, role)
    if not options:
        raise ValueError(f"{role!r} has no decision to make now")
    pick = _STEPS.get(state["step"])
    decision = pick(state, role, options, rng) if pick else None
    if decision is None or decision not in options:
        decision = rng.choice(options)
    return decision


# --- odds -----------------------------------------------------------------------------------------


def win_chance(attack: float, defence: float) -> float:
    """P(attack + bonus > defence + bonus), each bonus the difference of two d6."""
    total = 0
    for x, px in BONUS.items():
        for y, py in BONUS.items():
            if attack + x > defence + y:
                total += px * py
    return total / 1296


def to_berlin(state: dict[str, Any]) -> Mapping[str, int]:
    """Steps from every area to B1 (computed once per map: the graph keeps them)."""
    return graph(state).distances_from("B1")


def _defence_estimate(state: dict[str, Any], frm: str, target: str) -> float:
    areas = state["areas"]
    static = state["map"]["areas"][target]
    control = areas[target]["control"]
    defence = float(static["terrain"])
    if graph(state).is_river(frm, target):
        defence += 1
    fort = areas[target]["fortification"]
    if fort is not None:
        defence += fort["defense"]
    defending_area = target
    if control == GERMAN and target in ("B2", "B3", "B4", "B5"):
        defending_area = "B1"
    units = force_units_in(state, defending_area, control)
    if not units:
        return defence
    blocks = [b for b in blocks_in(state, defending_area) if b["force"] == control]
    if blocks:
        b = blocks[0]
        if b["exhausted"]:
            return defence + 1
        return defence + (b["value"] if b["revealed"] else 3.5)
    helpers = [
        b
        for n in graph(state).neighbours(target)
        for b in blocks_in(state, n)
        if b["force"] == control and not b["exhausted"]
    ]
    if helpers:
        best = max((b["value"] if b["revealed"] else 3.5) for b in helpers)
        return defence + max(1.0, best * 0.8)
    return defence + 1


def _attack_value(state: dict[str, Any], role: str, d: Attack) -> float:
    block = own_block_in(state, d.frm, role)
    if block is None:
        return 0.0
    value = known_value(block) or 3
    if block["force"] in ALLIED and d.cubes == 2:
        return float(value * 2)
    return float(value)


def _attack_score(state: dict[str, Any], role: str, d: Attack) -> float:
    block = own_block_in(state, d.frm, role)
    force = block["force"] if block else GERMAN
    target_control = state["areas"][d.target]["control"]
    if force == GERMAN and target_control == role:
        return -10.0  # never hurt the own side with the Germans one plays
    chance = win_chance(_attack_value(state, role, d), _defence_estimate(state, d.frm, d.target))
    score = chance * 10
    if force in ALLIED:
        dist = to_berlin(state)
        if dist.get(d.target, 99) < dist.get(d.frm, 99):
            score += 1.5
        eagle = state["map"]["areas"][d.target]["eagle"]
        if eagle == EAGLE_OF[role]:
            score += 2.5
        if d.target == "B1":
            score += 6
    else:
        score += 1.0 if target_control == other(role) else 0
    if d.cubes == 2 and force in ALLIED:
        score -= 0.8  # cubes are precious
    return score


# --- the steps ------------------------------------------------------------------------------


def _place(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    areas = state["areas"]

    def score(d: Place) -> float:
        control = areas[d.area]["control"]
        enemies = [
            n
            for n in graph(state).neighbours(d.area)
            if (areas[n]["control"] == GERMAN) != (control == GERMAN)
        ]
        value = d.value or 3
        if control == GERMAN:
            threat = sum(1 for n in enemies if areas[n]["control"] == other(role))
            return value * (0.4 + 0.5 * threat) + rng.random()
        return value * (0.5 + len(enemies)) + rng.random()

    return max(options, key=score)


def _action(state: dict[str, Any], role: str, rng: random.Random) -> Any:
    attacks = legal_attacks(state, role)
    removes = [RemoveBlock(b["area"]) for b in on_board(state, role)]
    if attacks:
        scored = [(_attack_score(state, role, d) + rng.random() * 0.5, d) for d in attacks]
        best_score, best = max(scored, key=lambda t: t[0])
        if best_score >= 5.5:
            return best
    exhausted = [
        d
        for d in removes
        if (b := own_block_in(state, d.area, role)) is not None and b["exhausted"]
    ]
    if exhausted:
        return rng.choice(exhausted)
    if state["actions"] < PATIENCE and rng.random() < 0.35:
        useful = [d for d in legal_moves(state, role) if _move_gain(state, d) > 0]
        if useful:
            return rng.choice(useful)
    if attacks and rng.random() < 0.5:
        scored = [(_attack_score(state, role, d), d) for d in attacks]
        best_score, best = max(scored, key=lambda t: t[0])
        if best_score >= 3.5:
            return best
    if removes:
        return min(
            removes,
            key=lambda d: (
                (known_value(own_block_in(state, d.area, role) or {"value": None}) or 3)
                - (own_block_in(state, d.area, role) or {"cubes": 0})["cubes"]
                + rng.random()
            ),
        )
    raise ValueError(f"{role!r} has no block on the board to act with")


def _move_gain(state: dict[str, Any], d: Move) -> int:
    """Moving toward the enemy: more enemy neighbours at the destination than at the start."""
    areas = state["areas"]
    mine = areas[d.frm]["control"]

    def front(area: str) -> int:
        return sum(1 for n in graph(state).neighbours(area) if areas[n]["control"] != mine)

    return front(d.to) - front(d.frm)


def _support(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    helping = [d for d in options if isinstance(d, Support) and d.area is not None]
    if not helping:
        return options[0]
    combat = state["combat"]
    if combat["attacker"] == role and combat["defence_force"] == GERMAN:
        # the player defends against itself: spend nothing it need not
        return next((d for d in options if d.area is None), helping[0])

    def value(d: Support) -> float:
        for b in blocks_in(state, d.area or ""):
            if b["owner"] == role:
                return float(known_value(b) or 3)
        return 3.0

    return max(helping, key=value)


def _tokens(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    combat = state["combat"]
    if combat["attack_force"] == GERMAN and combat["defence_force"] == role:
        return Tokens()
    return max(options, key=lambda d: (d.logistics, d.support, rng.random()))


def _reserves(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    combat = state["combat"]
    side = "attack" if combat["stage"] == "reserves_attack" else "defence"
    if combat["attacker"] == combat["defender"] or (
        side == "defence" and combat["defence_force"] == role and combat["attacker"] == role
    ):
        return Reserves(False)
    totals = {
        s: combat[s]["base"] + abs(combat["dice"][s][0] - combat["dice"][s][1])
        for s in ("attack", "defence")
    }
    winning = totals["attack"] > totals["defence"]
    mine_winning = winning if side == "attack" else not winning
    bonus = abs(combat["dice"][side][0] - combat["dice"][side][1])
    return Reserves(not mine_winning and bonus <= 2)


def _counterattack(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    combat = state["combat"]
    if combat["attacker"] == role:
        return Counterattack(False)
    return Counterattack(rng.random() < 0.8)


def _loss(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    return max(options, key=lambda d: (state["units"][d.unit]["strength"] or 0, rng.random()))


def _retreat(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    return max(options, key=lambda d: (len(d.units), len(d.blocks), rng.random()))


def _advance(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    return max(options, key=lambda d: (len(d.units), d.block, rng.random()))


def _strategic(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    moves = [d for d in options if isinstance(d, Strategic)]
    if not moves or rng.random() < 0.3:
        return EndStrategic()
    dist = to_berlin(state)
    return min(moves, key=lambda d: (dist.get(d.to, 99) - dist.get(d.frm, 99), rng.random()))


def _place_reserve(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    areas = state["areas"]

    def threat(d: PlaceReserve) -> float:
        return (
            sum(1 for n in graph(state).neighbours(d.area) if areas[n]["control"] == SOVIET)
            + rng.random()
        )

    return max(options, key=threat)


def _open(state: dict[str, Any], role: str, options: list[Any], rng: random.Random) -> Any:
    return OpenBlocks()


_STEPS: dict[str, Any] = {
    "place": _place,
    "support": _support,
    "tokens": _tokens,
    "reserves": _reserves,
    "counterattack": _counterattack,
    "loss": _loss,
    "retreat": _retreat,
    "advance": _advance,
    "strategic": _strategic,
    "place_reserve": _place_reserve,
    "open": _open,
}


# The standing orders a bot player sets (bench/handover_counts.py, bench/handovers.py): the
# combat reactions answered in advance, close to what `choose` decides for them.
STANDING_ORDERS = {
    "place": "front",
    "action": "remove when no attack",
    "support": "best",
    "tokens": "all",
    "reserves": "keep if winning",
    "counterattack": "always",
    "loss": "strongest",
    "retreat": "to friends",
    "advance": "all",
}
