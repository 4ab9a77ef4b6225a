"""The listed choices and bot samples of the combat steps (firepower, openings, markers,
Events); the actions themselves are in choices.py."""

from __future__ import annotations

import itertools
import random
from typing import Any

from pbem.core.engine import State
from pbem.games.race_to_the_sea import assault, events, firepower, operations
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import (
    Absorb,
    Assault,
    CounterAttack,
    Deploy,
    FallBack,
    FightOn,
    Fire,
    GoBack,
    Keep,
    Match,
    Pick,
    Plan,
    Reply,
    Restack,
    Retreat,
    Show,
    Stand,
    Withdraw,
)
from pbem.games.race_to_the_sea.state import identity, positions, unit

MAX_PICKS = 60  # an Event picks one or two counters: the combinations stay few


def fires(state: State, role: str, label: str) -> list[Fire]:
    """9.2, 11.1: the fires a ready counter may announce (not scouting cavalry, not a
    False Report as its owner knows it)."""
    counter = state["counters"][label]
    if counter["cavalry"] and counter["scouting"]:
        return []
    known = identity(state, label)
    if known is not None and unit(state, known)["kind"] == "false-report":
        return []  # 9.1.C
    g = rm.adjacency(state["board"])  # (`rm.grid`'s answers)
    near = g.neighbours(counter["hex"])
    by_hex: dict[int, list[str]] = {}  # the enemy counters next to it, by hex: one look
    for k, c in state["counters"].items():
        if c["side"] != role and c["hex"] in near:
            by_hex.setdefault(c["hex"], []).append(k)
    out = []
    for hex_ in near:
        enemies = sorted(by_hex.get(hex_, ()))
        if len(enemies) == 1:
            out.append(Fire(label, counter["hex"], hex_))
        else:
            out += [Fire(label, counter["hex"], hex_, k) for k in enemies]
    return out


def cavalry_replies(state: State, role: str) -> list[Any]:
    target = state["combat"]["defender"]
    return [Stand(), *(FallBack(h) for h in firepower.fallbacks(state, target))]


def shows(state: State, role: str) -> list[Any]:
    return [Show()]


def restacks(state: State, role: str) -> list[Any]:
    return [Restack()]


def replies(state: State, role: str) -> list[Any]:
    """Every reply: with or without the MET rating, with a Fallback Move to each legal
    hex when a hit comes (11.2.I-J, 11.3.A); `lost` as the owner's state knows it."""
    target = state["combat"]["defender"]
    out = []
    for met in (False, True):
        count = firepower.net_hits(state, met)
        if met and not firepower.reads_met(state):
            continue
        backs: list[int | None] = [None]
        if count is None or count > 0:
            backs += firepower.fallbacks(state, target)
        for back in backs:
            reply = Reply(met, back)
            out.append(Reply(met, back, firepower.lost_after(state, reply)))
    return out


def sample_reply(state: State, role: str, rng: random.Random) -> Any:
    options = replies(state, role)
    plain = [r for r in options if r.back is None]
    return rng.choice(options) if rng.random() < 0.3 else rng.choice(plain or options)


def picks(state: State, role: str) -> list[Any]:
    event = state["event"]
    allowed = events.candidates(state)
    most = min(event["count"], len(allowed))
    combos = itertools.islice(itertools.combinations(allowed, most), MAX_PICKS)
    return [Pick(tuple(c)) for c in combos]


def absorbs(state: State, role: str) -> list[Any]:
    return [Absorb(events.lost_after(state))]


# --- assault (12) ---------------------------------------------------------------------------------

MAX_MATCHES = 120  # matchup assignments listed (a few units a side: few enough)


def assaults(state: State, role: str, label: str, nml: set[int] | None = None) -> list[Any]:
    """9.3, 12.1: this counter alone into each adjacent enemy hex or empty enemy NML hex
    (12.9), and with one more ready neighbour of that hex when two actions in a row allow
    it (12.1.B). `nml`: `role`'s No Man's Land hexes of this state's positions
    (`mv.nml_hexes`), when the caller has them already (a bot asks for every counter)."""
    counter = state["counters"][label]
    if counter["cavalry"] and counter["scouting"]:
        return []  # 12.1.C
    g = rm.adjacency(state["board"])  # (`rm.grid`'s answers)
    out: list[Any] = []
    extra = assault.actions_in_a_row(state, role) >= 2
    if nml is None:
        nml = mv.nml_hexes(state["board"], positions(state), role)
    for hex_ in g.neighbours(counter["hex"]):
        single = Assault(((label, counter["hex"]),), hex_)
        if assault.check_announcement(state, role, single, nml) is not None:
            continue
        out.append(single)
        if not extra:
            continue
        for other_label, c in sorted(state["counters"].items()):
            if other_label <= label or c["side"] != role:
                continue
            if c["activated"] or not g.adjacent(c["hex"], hex_):
                continue
            pair = Assault(((label, counter["hex"]), (other_label, c["hex"])), hex_)
            if assault.check_announcement(state, role, pair, nml) is None:
                out.append(pair)
    return out


def matches(state: State, role: str) -> list[Any]:
    combat = state["combat"]
    atk, dfn = assault.attackers(state), assault.defenders(state)
    if role == combat["side"]:
        mine, theirs = atk, dfn
    else:
        already = {d for _a, d in combat["matchups"]}
        mine, theirs = [k for k in dfn if k not in already], atk
    out = []
    for combo in itertools.islice(itertools.product(theirs, repeat=len(mine)), 5000):
        pairs = list(zip(mine, combo, strict=True))
        if assault.match_problem(state, role, pairs) is None:
            out.append(Match(tuple(pairs)))
            if len(out) >= MAX_MATCHES:
                break
    return out


def keeps(state: State, role: str) -> list[Any]:
    return [Keep(c) for c in sorted(set(state["combat"]["pushed"]))]


def retreats(state: State, role: str) -> list[Any]:
    loser = state["combat"]["retreating"]
    return [Retreat(loser, h) for h in assault._retreat_hexes(state, loser)]


def withdrawals(state: State, role: str) -> list[Any]:
    return [FightOn(), *(Withdraw(k, h) for k, h in assault.withdraw_options(state, role))]


def sample_withdrawal(state: State, role: str, rng: random.Random) -> Any:
    options = withdrawals(state, role)
    return rng.choice(options) if rng.random() < 0.2 else FightOn()


def go_backs(state: State, role: str) -> list[Any]:
    return [GoBack(k) for k in assault.attackers(state)]


def counters(state: State, role: str) -> list[Any]:
    return [CounterAttack(None), *(CounterAttack(k) for k in state["counter"]["units"])]


# --- Planned Operations (9.4, 7.7.5) -----------------------------------------------------------


def plans(state: State, role: str) -> list[Any]:
    marker = state.get("planned_ops")
    if not marker or marker["holder"] != role or marker["hex"] is None:
        return []
    g = rm.grid(state["board"])
    out = []
    for other_hex in g.neighbours(marker["hex"]):
        plan = Plan(marker["hex"], other_hex)
        if operations.plan_problem(state, role, plan) is None:
            out.append(plan)
    return out


def deploys(state: State, role: str) -> list[Any]:
    return [Deploy(None), *(Deploy(h) for h in operations.deploy_hexes(state, role))]


def sample_deploy(state: State, role: str, rng: random.Random) -> Any:
    hexes = operations.deploy_hexes(state, role)
    mine = {c["hex"] for c in state["counters"].values() if c["side"] == role}
    near = [h for h in hexes if h in mine]
    return Deploy(rng.choice(near)) if near and rng.random() < 0.8 else Deploy(None)
