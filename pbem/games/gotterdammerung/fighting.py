"""Götterdämmerung: a combat or an overrun on the engine state, from declaration to advance.

`attack` (6.3) and `moving.start_overrun` (7.1) call `resolve`: Volkssturm units in the
combat are turned over first (8.45), the odds and the die give the result, and the result
is applied in the order 6.5-6.7 give it, each choice in an entry of the player who makes it
(one signer at a time, protocol section 8):

    losses    6.52: the owner names the units that lose the steps (`lose`), unless there is
              nothing to choose; Soviet Support Points pay first (6.59, combat.losses)
    retreat   6.53, 6.57, 6.6: the chooser (the owner; after a German attack the opposing
              player, 6.57, 6.58, 6.61) retreats each surviving unit (`retreat`)
    advance   6.7: the side that won the hex may advance (`advance`, then `done`); never
              after an overrun (6.79, 7.43)

Readings (docs/gotterdammerung.md): 6.62 retreats unit by unit, so the "stack" that cannot
retreat its two hexes is the unit itself, which loses the step (6.53's choice by the
opposing player then has one option); a retreat into the North German Plain Box is not
offered; Delay markers of a "*" result go on every Soviet unit in the target hex, each
drawn unseen (6.82: nothing is drawn until the unit moves, movinging.reveal_delays).
A unit with no two-hex retreat retreats one hex if it can and loses one step for the other
(6.53's "as far as possible"). A hex a unit retreated into may be attacked again (6.65
expects it; that unit's own 6.14 defence does not bar it). A face-down Volkssturm attacker
is declared with its strength unknown; once 8.45 turns it over, a 0 attack drops out (6.15)
and an attack the drawn strengths put below 1:3 is not made (6.48): no die is rolled.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import arrivals, overrun, phases, places, sixth, zoc
from pbem.games.gotterdammerung import combat as cb
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import tables as tb
from pbem.games.gotterdammerung.decisions import Advance, Attack, Done, Lose, Retreat

D6, D10 = 6, 10


def _refuse(message: str, rule: str) -> Any:
    return gs.illegal(message, rule)


def fighting_unit(unit: dict[str, Any], defending: bool) -> dict[str, Any]:
    """The unit as combat.py reads it: 8.18's defence-only supply keeps the defence."""
    if defending and unit.get("defence_only"):
        return {**unit, "out_of_supply": False}
    return unit


# --- declaring an attack (6.1-6.3) ---------------------------------------------------------------


def attack(state: State, role: str, d: Attack, ctx: Context) -> None:
    side = phases.phase_side(state)
    board, data = state["board"], state["counters"]
    target = gs.hex_of(state, d.target)
    sources = [gs.hex_of(state, s, target) for s in d.sources]
    units = declaring_units(state)
    here = [u for u in units if u["hex"] in sources and u["side"] == side]
    if d.units:
        missing = [uid for uid in d.units if uid not in {u["id"] for u in here}]
        if missing:
            raise _refuse(f"{', '.join(missing)} is not in the attacking hexes", "6.3")
        chosen = [u for u in here if u["id"] in d.units]
    else:
        chosen = [u for u in here if not declaration_problems(state, units, [u], target)]
    if not chosen:
        why = [p for u in here for p in declaration_problems(state, units, [u], target)]
        if why:  # the reason of the first unit that may not, not only "none may"
            raise gs.IllegalOrderError(f"illegal: {why[0]}")
        raise _refuse(f"no unit in {', '.join(map(gs.hex_text, sources))} may attack", "6.1")
    problems = declaration_problems(state, units, chosen, target)
    if state["phase"] == "siege-combat" and any(
        md.kind(board, u["hex"]) == md.OPERATIONAL for u in chosen
    ):
        problems.append(
            "units on the Operational Map do not attack in the Siege Combat Phase (3.1)"
        )
    if state["phase"] == "siege-combat" and md.kind(board, target) == md.OPERATIONAL:
        problems.append("a Siege Combat Phase attack is on the Berlin City Map (3.1)")
    nations = {data["units"].get(u["id"], {}).get("nationality") for u in chosen}
    if "american" in nations and nations & {"soviet", "polish"}:
        problems.append(
            "American units may not attack together with Soviet and Polish units (9.72)"
        )
    if d.ubahn and not _ubahn_allowed(state, chosen, target):
        problems.append(
            "the U-Bahn modifier needs rule 12.1, a City Map combat and an underground line "
            "along an attacking hexside, before its demolition (12.12, 12.14)"
        )
    if problems:
        raise gs.IllegalOrderError(f"illegal: {problems[0]}")
    resolve(state, ctx, [u["id"] for u in chosen], target, ubahn=d.ubahn)


def declaring_units(state: State) -> list[dict[str, Any]]:
    """The units as a declaration reads them: 6.65 lets the enemy attack a hex a unit
    retreated into this phase, so that unit's own earlier defence does not bar it (6.14)."""
    return [{**u, "defended": False} if u.get("retreated_into") else u for u in gs.on_map(state)]


def declaration_problems(
    state: State, units: list[dict[str, Any]], attackers: list[dict[str, Any]], target: str
) -> list[str]:
    """combat.attack_problems on the engine state. A face-down Volkssturm unit's attack is
    not known before 8.45 turns it over (`resolve` checks it then); 12.35 lifts 6.18 when
    the 6th SS Panzer Army is in the game."""
    shown = [
        {**u, "attack": 1} if u.get("volkssturm") and "attack" not in u else u for u in attackers
    ]
    problems = cb.attack_problems(
        state["board"], state["counters"], units, shown, target, turn=state["turn"]
    )
    if state["options"]["sixth_ss"]:
        problems = [p for p in problems if not p.endswith("(6.18)")]
    return problems


def _ubahn_allowed(state: State, chosen: list[dict[str, Any]], target: str) -> bool:
    board = state["board"]
    if not state["options"]["underground"] or state["ubahn"] == "demolished":
        return False
    if md.kind(board, target) != md.CITY_HEX:
        return False
    return any("u-bahn" in md.hexside(board, u["hex"], target) for u in chosen)


# --- resolving (6.3, 7.1, 8.45) -------------------------------------------------------------------


def reveal_volkssturm(state: State, unit: dict[str, Any], ctx: Context) -> None:
    """8.45: a face-down Volkssturm unit's strength is drawn, by public dice, from every
    strength not yet revealed (those in the cup and face-down on the map)."""
    mix = state["vs_mix"]
    backs = [key for key in sorted(mix) for _ in range(mix[key])]
    key = backs[ctx.roll(0, len(backs) - 1, f"Volkssturm {unit['id']} turned over (8.45)")]
    mix[key] -= 1
    attack, defence, movement = (int(x) for x in key.split("-"))
    gs.own(state, unit["id"]).update(attack=attack, defence=defence, movement=movement)
    ctx.event(f"{unit['id']} is turned over: {key} (8.45)", unit=unit["id"], strength=key)


def resolve(
    state: State,
    ctx: Context,
    attacker_ids: list[str],
    target: str,
    *,
    overrun: bool = False,
    ubahn: bool = False,
) -> None:
    board, tables, data = state["board"], state["tables"], state["counters"]
    # (the units this changes, as this state's own dicts: read below after the changes)
    attackers = [gs.own(state, uid) for uid in attacker_ids]
    side = attackers[0]["side"]
    enemy = gs.other(side)
    defenders = [
        gs.own(state, u["id"])
        for u in gs.on_map(state)
        if u["hex"] == target and u["side"] == enemy
    ]
    revealed = False
    for unit in [*attackers, *defenders]:
        if unit.get("volkssturm") and "attack" not in unit:
            reveal_volkssturm(state, unit, ctx)
            revealed = True
    if revealed:  # 8.45: known only now; a 0 attack may not attack (6.15)
        attackers = [u for u in attackers if not (u.get("volkssturm") and int(u["attack"]) < 1)]
        attacker_ids = [u["id"] for u in attackers]
        if not attackers:
            ctx.event(f"the attack on {gs.hex_text(target)} is not made: no attack strength (6.15)")
            return
    # the units the odds read: combat_odds (and overrun_odds through it) reads `units` only
    # for the defenders of `target` (cb.defenders), so those of the target hex, in order
    units = [fighting_unit(u, u["side"] == enemy) for u in gs.on_map(state) if u["hex"] == target]
    fighters = [fighting_unit(u, False) for u in attackers]
    if state["options"]["sixth_ss"]:  # 12.34: half strength cut off from the HQ
        units, fighters = _sixth_halved(state, units, fighters, side)
    found: cb.Combat
    if overrun:
        found = overrun_mod.overrun_odds(
            board,
            tables,
            data,
            units,
            fighters[0],
            target,
            turn=state["turn"],
            launch_hex=attackers[0]["hex"],
        )
        crt, die = tb.SOVIET, D10
    else:
        crt = tb.SOVIET if side == "soviet" else arrivals.crt_for_attack(data, attackers)
        try:
            found = cb.combat_odds(
                board,
                tables,
                data,
                units,
                fighters,
                target,
                turn=state["turn"],
                crt=crt,
                u_bahn=ubahn,
            )
        except IllegalOrderError as error:
            if not revealed:
                raise  # refused before any die (the second 6.48)
            # the strengths 8.45 drew put a German attack below 1:3: it is not made
            ctx.event(f"the attack on {gs.hex_text(target)} is not made: {error}")
            return
        die = D6
    roll = ctx.roll(1, die, f"{'overrun' if overrun else 'combat'} on {gs.hex_text(target)}")
    result = tb.crt_result(tables, crt, found.odds.index, roll, found.terrain, die=die)
    ctx.event(
        f"{'overrun' if overrun else 'attack'} on {gs.hex_text(target)}: {found.attack} against "
        f"{found.defence}, {found.odds.ratio}"
        + (f" shifted to {found.odds.column}" if found.odds.column != found.odds.ratio else "")
        + f", {'d10' if die == D10 else 'die'} {roll}: {result.code}",
        target=target,
        roll=roll,
        result=result.code,
        column=found.odds.column,
        attack_hexes=sorted({u["hex"] for u in attackers}),
    )
    for unit in attackers:
        gs.own(state, unit["id"])["attacked"] = True
    for unit in defenders:
        gs.own(state, unit["id"])["defended"] = True
    if ubahn:
        demolition = ctx.roll(1, 6, "U-Bahn demolition (12.14)")
        if demolition <= 4:
            state["ubahn"] = "demolished"
            ctx.event(f"U-Bahn demolition die {demolition}: the tunnels are flooded (12.14)")
    state["combat"] = {
        "attacker": side,
        "defender": enemy,
        "attackers": list(attacker_ids),
        "defenders": [u["id"] for u in defenders],
        "target": target,
        "launch": attackers[0]["hex"] if overrun else None,
        "attack_hexes": sorted({u["hex"] for u in attackers}),
        "overrun": overrun,
        "crt": crt,
        "result": result.as_json(),
        "stage": "start",
        "owed": {side: 0, enemy: 0},
        "applied": {side: 0, enemy: 0},
        "retreat": None,
        "retreat_paths": [],
        "advance": None,
        "phase_step": state["step"],
    }
    proceed(state, ctx)


def _sixth_halved(
    state: State, units: list[dict[str, Any]], fighters: list[dict[str, Any]], side: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """12.34: a 6th SS unit cut off from its HQ attacks at half strength (cut off at the
    start of the German Combat Phase) and defends at half strength (cut off at the moment
    of the Soviet attack); halved as out of supply (6.17, 8.16)."""
    if side == "german":
        cut = set(state["phase_data"].get("sixth_cut", ()))
        fighters = [{**u, "out_of_supply": True} if u["id"] in cut else u for u in fighters]
    else:
        cut = sixth.cut_off(state["board"], state["counters"], gs.on_map(state))
        units = [{**u, "out_of_supply": True} if u["id"] in cut else u for u in units]
    return units, fighters


overrun_mod = overrun  # (the module; `resolve` has a parameter of that name)


def _result(combat: dict[str, Any]) -> tb.Result:
    return tb.parse_result(combat["result"]["code"], combat["crt"])


def _alive(state: State, ids: list[str]) -> list[dict[str, Any]]:
    return [state["units"][uid] for uid in ids if uid in state["units"]]


def destroy(state: State, uid: str, ctx: Context, why: str) -> None:
    state["units"].pop(uid)
    state["destroyed"].append(uid)  # (8.45: a Volkssturm unit too; 8.32 never picks it)
    if state["moving"] is not None and state["moving"]["unit"] == uid:
        state["moving"] = None
    ctx.event(f"{uid} is destroyed ({why})", unit=uid)
    if state["options"]["sixth_ss"]:
        _sixth_hq_check(state, ctx)


def _sixth_hq_check(state: State, ctx: Context) -> None:
    """12.38: the 6th SS HQ leaves once every other unit of its army is gone."""
    data = state["counters"]
    army = [
        uid for uid, c in data["units"].items() if (c.get("place") or {}).get("pool") == "6th-ss"
    ]
    hq = [uid for uid in army if data["units"][uid]["branch"] == "hq"]
    others = [uid for uid in army if uid not in hq and uid in state["units"]]
    for uid in hq:
        if uid in state["units"] and not others:
            del state["units"][uid]
            state["gone"].append(uid)
            ctx.event(f"{uid} leaves the map: its army is destroyed (12.38)")


def lose_steps(state: State, uid: str, count: int, ctx: Context, why: str) -> int:
    """Take `count` steps from one unit (6.52); the steps actually lost."""
    if uid not in state["units"] or count <= 0:
        return 0
    unit = gs.own(state, uid)
    taken = min(count, unit["steps"])
    unit["steps"] -= taken
    if unit["steps"] <= 0:
        destroy(state, uid, ctx, why)
    else:
        ctx.event(f"{uid} loses {taken} step(s) ({why})", unit=uid)
    return taken


def proceed(state: State, ctx: Context) -> None:
    """Apply the result as far as it goes without a player's choice; then ask for the next
    choice, or end the combat."""
    combat = state["combat"]
    result = _result(combat)
    while True:
        stage = combat["stage"]
        if stage == "start":
            _start(state, combat, result, ctx)
            combat["stage"] = "losses"
        elif stage == "losses":
            if _losses_pending(state, combat, ctx):
                state["step"] = "loss"
                return
            combat["stage"] = "retreat"
            _setup_retreat(state, combat, result)
        elif stage == "retreat":
            if _retreat_pending(state, combat, ctx):
                state["step"] = "retreat"
                return
            combat["stage"] = "advance"
            _setup_advance(state, combat, result)
        elif stage == "advance":
            if combat["advance"] and combat["advance"]["units"]:
                state["step"] = "advance"
                return
            _finish(state, combat, ctx)
            return


def _start(state: State, combat: dict[str, Any], result: tb.Result, ctx: Context) -> None:
    """6.65, 6.59, 6.54, 6.55, 6.58: what happens before anybody chooses."""
    side, enemy = combat["attacker"], combat["defender"]
    hits_defender = (
        result.defender_steps or result.defender_retreat or result.exchange or result.destroyed
    ) or result.delay
    if hits_defender:
        for unit in _alive(state, combat["defenders"]):
            if unit.get("retreated_into"):
                destroy(state, unit["id"], ctx, "it had retreated into the attacked hex, 6.65")
    attackers = _alive(state, combat["attackers"])
    defenders = _alive(state, combat["defenders"])
    losses = cb.losses(result, side, attackers, state["support_points"], defenders)
    if losses.support_spent:
        state["support_points"] -= losses.support_spent
        ctx.event(
            f"the Soviet player spends {losses.support_spent} Support Point(s) "
            f"({state['support_points']} left, 6.59)"
        )
    if result.exchange:
        if losses.attacker_each:
            for unit in attackers:
                lose_steps(state, unit["id"], 1, ctx, "E X, 6.54")
        if losses.defender_each:
            for unit in defenders:
                lose_steps(state, unit["id"], 1, ctx, "E X, 6.54")
    if result.destroyed:
        for unit in defenders:
            destroy(state, unit["id"], ctx, "D E, 6.55")
    combat["owed"] = {side: losses.attacker_steps, enemy: losses.defender_steps}
    combat["paid"] = losses.support_spent
    if result.delay:
        for unit in _alive(state, combat["defenders"]):
            gs.own(state, unit["id"])["delays"] = unit.get("delays", 0) + result.delay
        ctx.event(
            f"{result.delay} Delay marker(s) placed unseen on each unit in "
            f"{gs.hex_text(combat['target'])} (6.58, 6.82)"
        )


def losing_side(combat: dict[str, Any]) -> str | None:
    for side in (combat["defender"], combat["attacker"]):
        if combat["owed"][side] > 0:
            return side
    return None


def _losses_pending(state: State, combat: dict[str, Any], ctx: Context) -> bool:
    """6.52: steps owed are taken at once when there is nothing to choose."""
    while True:
        side = losing_side(combat)
        if side is None:
            return False
        ids = combat["attackers"] if side == combat["attacker"] else combat["defenders"]
        alive = _alive(state, ids)
        owed = combat["owed"][side]
        total = sum(u["steps"] for u in alive)
        if not alive:
            combat["owed"][side] = 0  # 6.52: the rest are ignored
            continue
        if total <= owed or len(alive) == 1:
            for unit in alive:
                taken = lose_steps(state, unit["id"], owed, ctx, f"{owed} step(s), 6.52")
                combat["applied"][side] += taken
                owed -= taken
            combat["owed"][side] = 0
            continue
        combat["losing"] = side
        return True


def lose(state: State, role: str, d: Lose, ctx: Context) -> None:
    combat = state["combat"]
    side = combat["losing"]
    owed = combat["owed"][side]
    ids = combat["attackers"] if side == combat["attacker"] else combat["defenders"]
    alive = _alive(state, ids)
    if len(d.units) != owed:
        raise _refuse(f"name {owed} unit(s), one per step lost", "6.52")
    try:
        applied = cb.take_steps(state["counters"], alive, [u["id"] for u in alive], d.units, owed)
    except ValueError as error:
        raise _refuse(str(error), "6.52") from None
    for unit in applied.units:
        gs.own(state, unit["id"])["steps"] = unit["steps"]
    for uid in d.units:
        if uid in state["units"] and uid not in applied.destroyed:
            ctx.event(f"{uid} loses a step (6.52)", unit=uid)
    for uid in applied.destroyed:
        destroy(state, uid, ctx, "step losses, 6.52")
    combat["applied"][side] += applied.applied
    combat["owed"][side] = 0
    proceed(state, ctx)


# --- retreats (6.53, 6.57, 6.6, 7.4) -------------------------------------------------------------


def _setup_retreat(state: State, combat: dict[str, Any], result: tb.Result) -> None:
    if result.exchange:
        return  # 6.54
    side = None
    if result.defender_retreat:
        side = combat["defender"]
    elif result.attacker_retreat:
        side = combat["attacker"]
    if side is None:
        return
    ids = combat["defenders"] if side == combat["defender"] else combat["attackers"]
    left = [
        u["id"] for u in _alive(state, ids) if gs.face(state, u)["movement"] > 0
    ]  # 6.69: a unit with no movement allowance ignores an R
    combat["retreat"] = {
        "side": side,
        "chooser": cb.retreat_chooser(combat["attacker"], side),
        "left": left,
        "attacking": side == combat["attacker"],
    }


class _Position:
    """What every retreat path asked of one position reads: the units on the maps, the sides
    and the units in each hex, the retreating unit as combat.py reads it. Built once per
    `retreat_options` call, which only reads the state (nothing moves while its paths are
    tried), so it cannot go stale there."""

    def __init__(self, state: State, unit: dict[str, Any]) -> None:
        self.units = gs.on_map(state)
        self.sides_at = cb.sides_by_hex(self.units)
        self.at = zoc.by_hex(self.units)
        self.zone = zoc._zone(state["board"], state["counters"], self.units, unit["side"])
        self.mover = gs.mover(state, unit) | {"hex": unit["hex"]}

    def first_step_fails(self, board: Any, unit: dict[str, Any], n1: str) -> bool:
        """Has every retreat of `unit` through the first hex `n1` a problem, whatever
        follows? (combat.retreat_problems words the problems of each step, and those of
        the first step are those of every path through it.)"""
        start = unit["hex"]
        if not md.adjacent(board, start, n1):
            return True
        here = self.sides_at.get(n1, ())
        start_kind = md.kind(board, start)
        disrupted = bool(unit.get("disrupted"))
        return bool(
            cb.step_problems(
                board, unit["id"], unit["side"], start_kind, disrupted, start, n1, here, self.zone
            )
        )


def retreat_options(state: State, unit: dict[str, Any], combat: dict[str, Any]) -> list[list[str]]:
    """Every legal retreat path of `unit` (two hexes, or one into a Transition Hex, 6.68)."""
    return list(_retreats(state, unit, combat))


def _retreats(state: State, unit: dict[str, Any], combat: dict[str, Any]) -> Iterator[list[str]]:
    """retreat_options' paths one by one (a caller asking whether there is one stops at the
    first). A first hex whose step alone has a problem is passed over with every path
    through it: they would all have it (`_Position.first_step_fails`)."""
    board = state["board"]
    start = unit["hex"]
    position = _Position(state, unit)
    open_first = []
    found = False
    for n1 in md.neighbours(board, start):
        if md.kind(board, n1) == md.UNUSED:
            continue
        if position.first_step_fails(board, unit, n1):
            continue
        open_first.append(n1)
        if not retreat_problems(state, unit, combat, [n1], quiet=True, position=position):
            found = True
            yield [n1]
        for n2 in md.neighbours(board, n1):
            if n2 == start or md.kind(board, n2) == md.UNUSED:
                continue
            if not retreat_problems(state, unit, combat, [n1, n2], quiet=True, position=position):
                found = True
                yield [n1, n2]
    if not found:  # 6.53: "as far as possible": one hex, the other paid with a step
        short = f"{unit['id']} must retreat {cb.RETREAT_HEXES} hexes (6.61, 6.62)"
        for n1 in open_first:
            beside = combat["retreat"]["attacking"] and md.adjacent(board, n1, combat["target"])
            if not beside and retreat_problems(
                state, unit, combat, [n1], quiet=True, position=position
            ) == [short]:
                yield [n1]


def retreat_options_strict(
    state: State, unit: dict[str, Any], combat: dict[str, Any]
) -> list[list[str]]:
    """`retreat_options` asking retreat_problems of every path (the equivalence tests'
    reference)."""
    board = state["board"]
    found: list[list[str]] = []
    start = unit["hex"]
    for n1 in md.neighbours(board, start):
        if md.kind(board, n1) == md.UNUSED:
            continue
        if not retreat_problems(state, unit, combat, [n1], quiet=True):
            found.append([n1])
        for n2 in md.neighbours(board, n1):
            if n2 == start or md.kind(board, n2) == md.UNUSED:
                continue
            if not retreat_problems(state, unit, combat, [n1, n2], quiet=True):
                found.append([n1, n2])
    if not found:
        short = f"{unit['id']} must retreat {cb.RETREAT_HEXES} hexes (6.61, 6.62)"
        for n1 in md.neighbours(board, start):
            if md.kind(board, n1) == md.UNUSED:
                continue
            beside = combat["retreat"]["attacking"] and md.adjacent(board, n1, combat["target"])
            if not beside and retreat_problems(state, unit, combat, [n1], quiet=True) == [short]:
                found.append([n1])
    return found


def retreat_problems(
    state: State,
    unit: dict[str, Any],
    combat: dict[str, Any],
    path: list[str],
    quiet: bool = False,
    position: _Position | None = None,
) -> list[str]:
    """Why `unit` may not retreat along `path`; `position` is the state's units already
    indexed (retreat_options asks for every path of one position)."""
    board, data = state["board"], state["counters"]
    units = gs.on_map(state) if position is None else position.units
    retreat = combat["retreat"]
    mover = gs.mover(state, unit) | {"hex": unit["hex"]} if position is None else position.mover
    problems = cb.retreat_problems(
        board,
        data,
        units,
        mover,
        path,
        enemy_hex=combat["target"],
        attacking=retreat["attacking"],
        sides_at=None if position is None else position.sides_at,
        zone=None if position is None else position.zone,
    )
    if problems:
        return problems
    side = unit["side"]
    for a, b in zip([unit["hex"], *path], path, strict=False):
        found = places.barred(state, unit, a, b)  # 9.36, 9.72, 12.34, 12.37, 5.71
        if found is not None:
            return [f"{found[0]} ({found[1]})"]
    if combat["overrun"]:
        check = (
            overrun.mover_retreat_problems
            if retreat["attacking"]
            else overrun.defender_retreat_problems
        )
        problems = check(
            board,
            data,
            units,
            mover,
            path,
            mover_hex=combat["launch"],
            target=combat["target"],
        )
        if problems:
            return problems
    end = path[-1]
    there = [u for u in units if u["hex"] == end] if position is None else position.at.get(end, [])
    stack = [u for u in there if u["id"] != unit["id"]]
    if any(u["side"] != side for u in stack):
        return [f"{unit['id']} may not end in an enemy hex"]
    if zoc.stack_problems(board, data, [*stack, {**unit, "hex": end}]):
        return [
            f"{unit['id']} may not end its retreat over the stacking limit in "
            f"{gs.hex_text(end)} (6.63)"
        ]
    return []


def _retreat_pending(state: State, combat: dict[str, Any], ctx: Context) -> bool:
    retreat = combat["retreat"]
    if retreat is None:
        return False
    while retreat["left"]:
        uid = retreat["left"][0]
        unit = state["units"].get(uid)
        if unit is None:
            retreat["left"].pop(0)
            continue
        if next(_retreats(state, unit, combat), None) is not None:
            return True
        retreat["left"].pop(0)  # nowhere to go: it stays and loses the two hexes' steps
        lose_steps(state, uid, cb.RETREAT_HEXES, ctx, "no retreat possible, 6.53")
    return False


def _free_path(state: State, unit: dict[str, Any], combat: dict[str, Any], path: list[str]) -> bool:
    """Is `path` one retreat_options' first search lists, a path of its shape with no
    problem? (Then it is among the options, and they need not all be found; a short
    retreat is listed only when no path is free: ask retreat_options for it.)"""
    if not 1 <= len(path) <= cb.RETREAT_HEXES:
        return False
    board, start, n1 = state["board"], unit["hex"], path[0]
    if n1 not in md.neighbours(board, start) or md.kind(board, n1) == md.UNUSED:
        return False
    if len(path) == 2:
        n2 = path[1]
        if n2 == start or n2 not in md.neighbours(board, n1) or md.kind(board, n2) == md.UNUSED:
            return False
    return not retreat_problems(state, unit, combat, path, quiet=True)


def retreat(state: State, role: str, d: Retreat, ctx: Context) -> None:
    combat = state["combat"]
    info = combat["retreat"]
    if d.unit not in info["left"]:
        raise _refuse(
            f"{d.unit} is not retreating now (still to retreat: {', '.join(info['left'])})", "6.62"
        )
    unit = gs.own(state, d.unit)
    path = gs.resolve_path(state, unit["hex"], d.path)
    options = (
        None if _free_path(state, unit, combat, path) else retreat_options(state, unit, combat)
    )
    if options is not None and path not in options:
        problems = retreat_problems(state, unit, combat, path) if path else []
        reason = problems[0] if problems else "not one of its legal retreats"
        listed = "; ".join(" ".join(map(gs.hex_text, p)) for p in options[:6])
        raise _refuse(f"{d.unit} may not retreat so: {reason} (legal: {listed})", "6.6")
    board, data = state["board"], state["counters"]
    zoc_steps = cb.retreat_zoc_steps(board, data, gs.on_map(state), unit["side"], path)
    stopped = (
        md.kind(board, path[-1]) == md.TRANSITION and md.kind(board, unit["hex"]) == md.OPERATIONAL
    )
    short = cb.short_retreat_steps(len(path), stopped)
    friendly = any(u["hex"] == path[-1] and u["side"] == unit["side"] for u in gs.on_map(state))
    start = unit["hex"]
    places.enter_hexes(state, unit, path, ctx)
    unit["disrupted"] = True  # 6.62, 6.66
    if friendly:
        unit["retreated_into"] = True  # 6.65
    info["left"].remove(d.unit)
    combat["retreat_paths"].extend(path)
    ctx.event(
        f"{d.unit} retreats to {gs.hex_text(path[-1])} and is disrupted (6.62)",
        unit=d.unit,
        path=[start, *path],
    )
    lose_steps(state, d.unit, zoc_steps, ctx, "retreat through enemy ZOC, 6.63")
    lose_steps(state, d.unit, short, ctx, "a retreat one hex short, 6.53")
    proceed(state, ctx)


# --- advance after combat (6.7) -------------------------------------------------------------------


def _setup_advance(state: State, combat: dict[str, Any], result: tb.Result) -> None:
    """6.71: the side whose enemy left its hex (retreated or destroyed) may advance into it:
    the attackers into the target hex, or the defenders into a hex the attackers left
    (6.74: one hex)."""
    if combat["overrun"] or result.exchange:
        return  # 6.79, 7.43; 6.54
    target = combat["target"]
    defenders_left = [u for u in _alive(state, combat["defenders"]) if u["hex"] == target]
    if combat["defenders"] and not defenders_left:
        winner, ids, vacated, attacking = combat["attacker"], combat["attackers"], [target], True
    elif result.attacker_retreat:
        attacker = combat["attacker"]
        occupied_by_attackers = {u["hex"] for u in gs.on_map(state) if u["side"] == attacker}
        vacated = sorted(h for h in combat["attack_hexes"] if h not in occupied_by_attackers)
        winner, ids, attacking = combat["defender"], combat["defenders"], False
        if not vacated:
            return
    else:
        return
    by_steps = bool(result.defender_steps) and not result.defender_retreat and attacking
    limits = {}
    for unit in _alive(state, ids):
        if not attacking and unit["hex"] != target:
            continue
        limit = cb.advance_limit(
            state["counters"],
            gs.mover(state, unit),
            result,
            attacking=attacking,
            steps_applied=combat["applied"][combat["defender"]],
            by_steps=by_steps,
        )
        if limit > 0:
            limits[unit["id"]] = limit
    combat["advance"] = {
        "side": winner,
        "units": sorted(limits),
        "limits": limits,
        "vacated": vacated,
        "attacking": attacking,
    }


def advance_problems(
    state: State, unit: dict[str, Any], path: list[str], retreat_path: Sequence[str] | None
) -> list[str]:
    """Why `unit` may not advance along `path` into the hex its combat vacated, path[0]
    (combat.advance_problems on the state; empty: it may)."""
    return cb.advance_problems(
        state["board"],
        state["counters"],
        gs.on_map(state),
        gs.mover(state, unit) | {"hex": unit["hex"]},
        path,
        vacated=path[0],
        limit=state["combat"]["advance"]["limits"][unit["id"]],
        retreat_path=retreat_path,
        siege=state["phase"] == "siege-combat",
    )


def advance(state: State, role: str, d: Advance, ctx: Context) -> None:
    combat = state["combat"]
    info = combat["advance"]
    if d.unit not in info["units"]:
        raise _refuse(f"{d.unit} may not advance now (may: {', '.join(info['units'])})", "6.71")
    unit = gs.own(state, d.unit)
    path = gs.resolve_path(state, unit["hex"], d.path)
    if not path or path[0] not in info["vacated"]:
        where = " or ".join(map(gs.hex_text, info["vacated"]))
        raise _refuse(f"the first hex of an advance is the vacated hex {where}", "6.74")
    result = _result(combat)
    retreat_path = combat["retreat_paths"] if result.defender_retreat else None
    problems = advance_problems(state, unit, path, retreat_path)
    for a, b in zip([unit["hex"], *path], path, strict=False):
        found = places.barred(state, unit, a, b)  # 9.36, 9.72, 12.34, 12.37, 5.71
        if found is not None and not problems:
            problems.append(f"{found[0]} ({found[1]})")
    if not problems:
        for h in path:
            if not zoc.may_enter(state["board"], state["counters"], gs.on_map(state), unit, h):
                problems.append(
                    f"{d.unit} may not exceed the stacking limit in {gs.hex_text(h)} (4.16)"
                )
                break
    if problems:
        raise _refuse(problems[0], "6.7")
    start = unit["hex"]
    places.enter_hexes(state, unit, path, ctx)
    unit["advanced"] = True  # 6.73
    info["units"].remove(d.unit)
    ctx.event(
        f"{d.unit} advances to {gs.hex_text(path[-1])} (6.7)", unit=d.unit, path=[start, *path]
    )
    proceed(state, ctx)


def end_advance(state: State, role: str, d: Done, ctx: Context) -> None:
    state["combat"]["advance"]["units"] = []
    proceed(state, ctx)


def _finish(state: State, combat: dict[str, Any], ctx: Context) -> None:
    state["combat"] = None
    state["last_combat"] = {k: combat[k] for k in ("target", "result", "attackers", "defenders")}
    if combat["overrun"]:
        state["step"] = "move"
        after_overrun(state, combat, ctx)
    else:
        state["step"] = combat["phase_step"]


def loss_chooser(state: State) -> str | None:
    combat = state.get("combat")
    return None if combat is None else combat.get("losing")


def retreat_chooser(state: State) -> str | None:
    combat = state.get("combat")
    return None if combat is None or combat["retreat"] is None else combat["retreat"]["chooser"]


def advance_chooser(state: State) -> str | None:
    combat = state.get("combat")
    return None if combat is None or combat["advance"] is None else combat["advance"]["side"]


def after_overrun(state: State, combat: dict[str, Any], ctx: Context) -> None:
    """7.25-7.27: the overrunning unit enters the emptied hex (no points, ZOC ignored) and
    goes on only if the attacker took no result; otherwise its move ends."""
    uid = combat["attackers"][0]
    unit = gs.own(state, uid) if uid in state["units"] else None
    moving = state["moving"]
    target = combat["target"]
    emptied = not any(u["hex"] == target for u in gs.on_map(state) if u["side"] == "german")
    retreated = bool(unit is not None and unit["hex"] != combat["launch"])
    if unit is None or retreated:
        state["moving"] = None  # 7.25
        return
    if emptied:
        places.enter_hexes(state, unit, [target], ctx)  # 7.27
        ctx.event(f"{uid} enters {gs.hex_text(target)} (7.26-7.27)")
        result = combat["result"]
        # 7.26: a result against the attacker other than "-" (a step, a retreat, or the
        # exchange of "E X") ends its move; after "-" it goes on with the points left
        if result["attacker_steps"] or result["attacker_retreat"] or result["exchange"]:
            if moving is not None:
                moving["points"] = 0
            state["moving"] = None
    else:
        state["moving"] = None  # 7.25: it stays and its move is over
