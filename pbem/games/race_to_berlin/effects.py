"""Combat result and effects, rulebook 4.2.1.2 steps 8-9 and the Counterattack token.

`proceed` walks the combat through its stages after the dice, stopping wherever the rules
ask a player for a decision:

    reserves_attack -> reserves_defence -> result
    attacker won:   counterattack -> defender losses -> effects (major fortification,
                    supply base, Berlin, retreat) -> shift (fortifications, front line,
                    supply) -> advance -> done
    defender won:   attacker losses -> done

Losses are chosen by the losing player; retreat destinations by the defender; the
advance by the attacker (which retreats and advances are legal is `retreats`'). The end
of the attack is the end of an action (`flow.after_action`).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context
from pbem.games.race_to_berlin.blocks import add_cubes, take_off
from pbem.games.race_to_berlin.board import remove_fortification, set_control, short_of_markers
from pbem.games.race_to_berlin.decisions import Advance, Counterattack, Loss, Retreat
from pbem.games.race_to_berlin.flow import after_action
from pbem.games.race_to_berlin.retreats import (
    advance_candidates,
    advance_problem,
    retreat_capacity,
    retreat_problem,
)
from pbem.games.race_to_berlin.state import (
    ALLIED,
    GERMAN,
    NAMES,
    State,
    area_name,
    block_by_label,
    blocks_in,
    controlled_units_in,
    force_units_in,
    illegal,
    is_active,
    own_block_in,
    own_part,
    pool,
    refuse,
    update_area,
    writable_block,
)
from pbem.games.race_to_berlin.supply import settle
from pbem.games.race_to_berlin.tokens import free_token, reserves_force, token_force, use_token
from pbem.games.race_to_berlin.units import eliminate, lose_strength, move_unit, unit_text
from pbem.games.race_to_berlin.victory import lose_cubes

R_EFFECTS = "4.2.1.2 step 9"
R_COUNTER = "4.2.1.2: Special tokens, Counterattack"


def proceed(state: State, ctx: Context) -> None:
    """Advance the combat until a decision is needed or the attack is over."""
    combat = state["combat"]
    for _ in range(40):
        if state["result"] is not None:
            return
        stage = combat["stage"]
        if stage in ("reserves_attack", "reserves_defence"):
            side = "attack" if stage == "reserves_attack" else "defence"
            role, force = reserves_force(state, side)
            if free_token(state, role, "reserves", force) is not None:
                _ask(state, "reserves", role)
                return
            combat["stage"] = "reserves_defence" if side == "attack" else "result"
        elif stage == "result":
            _result(state, ctx)
        elif stage == "counterattack":
            if can_counterattack(state):
                _ask(state, "counterattack", combat["defender"])
                return
            combat["stage"] = "defender_losses"
            combat["losses_left"] = 1 if _german_defence(combat) else 0
        elif stage in ("defender_losses", "attacker_losses"):
            if _losses(state, ctx):
                return
        elif stage == "effects":
            if _effects(state, ctx):
                return
        elif stage == "shift":
            _shift(state, ctx)
        elif stage == "advance":
            if advance_candidates(state):
                _ask(state, "advance", combat["attacker"])
                return
            combat["stage"] = "done"
        elif stage == "done":
            _finish(state, ctx)
            return
        else:  # pragma: no cover - a stage name typo
            raise AssertionError(f"unknown combat stage {stage!r}")
    raise AssertionError(f"the combat does not progress (stage {combat['stage']!r})")


def _ask(state: State, step: str, role: str) -> None:
    state["step"] = step
    state["combat"]["asked"] = role


def _german_defence(combat: dict[str, Any]) -> bool:
    return combat["defence_force"] == GERMAN


# --- step 8 -----------------------------------------------------------------------------------


def _result(state: State, ctx: Context) -> None:
    combat = state["combat"]
    totals = {}
    for side in ("attack", "defence"):
        a, b = combat["dice"][side]
        totals[side] = combat[side]["base"] + abs(a - b)
    combat["totals"] = totals
    won = totals["attack"] > totals["defence"]
    combat["winner"] = "attack" if won else "defence"
    winner = combat["attacker"] if won else combat["defender"]
    ctx.event(
        f"attack {totals['attack']} against defence {totals['defence']}: the "
        f"{'attacker' if won else 'defender'} wins ({NAMES[winner]}; rulebook 4.2.1.2 step 8: "
        "the attacker wins only with more)",
        attack=totals["attack"],
        defence=totals["defence"],
        winner="attack" if won else "defence",
    )
    if won:
        combat["stage"] = "counterattack"
    else:
        combat["stage"] = "attacker_losses"
        combat["losses_left"] = 1 if combat["attack_force"] == GERMAN else 0


# --- Counterattack ----------------------------------------------------------------------------


def _retreat_due(state: State) -> bool:
    """Would the defender have to retreat (no major fortification hold, not Berlin's B1
    defending an outer area)?"""
    combat = state["combat"]
    if combat["defence_area"] != combat["target"]:
        return False
    fort = state["areas"][combat["target"]]["fortification"]
    units = force_units_in(state, combat["target"], combat["defence_force"])
    return not (fort is not None and fort["kind"] == "major" and units)


def can_counterattack(state: State) -> bool:
    combat = state["combat"]
    if combat["winner"] != "attack" or not _german_defence(combat):
        return False
    units = force_units_in(state, combat["defence_area"], GERMAN)
    if sum(state["units"][u]["strength"] or 0 for u in units) < 2:
        return False
    support = combat["support"]
    if not support or "block" not in support:
        return False
    block = block_by_label(state, support["block"])
    if not is_active(block) or pool(state, block["owner"]) < 1:
        return False
    force = token_force(GERMAN, combat["defender"])
    if free_token(state, combat["defender"], "counterattack", force) is None:
        return False
    return _retreat_due(state)


def counterattack(state: State, role: str, d: Counterattack, ctx: Context) -> None:
    combat = state["combat"]
    if d.play and not can_counterattack(state):
        raise illegal(
            "no Counterattack here: it needs defending German units with 2 strength points, "
            "a still active supporting block, an action cube and a token",
            R_COUNTER,
        )
    if d.play:
        block = block_by_label(state, combat["support"]["block"])
        force = token_force(GERMAN, combat["defender"])
        use_token(
            state, role, "counterattack", force, ctx, "the retreat is cancelled, one more loss"
        )
        add_cubes(state, block, 1, ctx, R_COUNTER, role)
        combat["counterattack"] = True
        combat["losses_left"] = 2
    else:
        ctx.event(f"{NAMES[role]} plays no Counterattack")
        combat["losses_left"] = 1
    combat["stage"] = "defender_losses"
    proceed(state, ctx)


# --- losses -----------------------------------------------------------------------------------


def loss_candidates(state: State) -> list[str]:
    combat = state["combat"]
    if combat["stage"] == "attacker_losses":
        if combat["attack_force"] != GERMAN:
            return []
        units = controlled_units_in(state, combat["from"], combat["attacker"])
        return [u for u in units if state["units"][u]["strength"] is not None]
    if not _german_defence(combat):
        return []
    return force_units_in(state, combat["defence_area"], GERMAN)


def loss_role(state: State) -> str:
    combat = state["combat"]
    return str(combat["attacker"] if combat["stage"] == "attacker_losses" else combat["defender"])


def _losses(state: State, ctx: Context) -> bool:
    """Apply automatic losses; True when the loser must choose a unit."""
    combat = state["combat"]
    while combat["losses_left"] > 0:
        candidates = loss_candidates(state)
        if not candidates:
            combat["losses_left"] = 0
            break
        if len(candidates) > 1:
            _ask(state, "loss", loss_role(state))
            return True
        _take_loss(state, candidates[0], ctx)
    if combat["stage"] == "attacker_losses":
        combat["stage"] = "done"
    elif combat["counterattack"]:
        ctx.event("Counterattack: the defender does not retreat (rulebook 4.2.1.2: Special tokens)")
        combat["stage"] = "done"
    else:
        combat["stage"] = "effects"
    return False


def _take_loss(state: State, unit: str, ctx: Context) -> None:
    combat = state["combat"]
    side = "attacking" if combat["stage"] == "attacker_losses" else "defending"
    lose_strength(state, unit, ctx, f"{side} German units lost the combat (rulebook {R_EFFECTS})")
    combat["losses_left"] -= 1


def loss(state: State, role: str, d: Loss, ctx: Context) -> None:
    candidates = loss_candidates(state)
    if d.unit not in candidates:
        raise illegal(
            f"{d.unit} cannot take this loss; choose one of {', '.join(candidates)}",
            f"{R_EFFECTS}: the losing player chooses which German unit loses 1 strength",
        )
    _take_loss(state, d.unit, ctx)
    state["step"] = "combat"
    proceed(state, ctx)


# --- step 9: effects of the attacker's win ----------------------------------------------------


def _effects(state: State, ctx: Context) -> bool:
    """The defender's fate; True when the defender must choose retreat destinations."""
    combat = state["combat"]
    target = combat["target"]
    dforce = combat["defence_force"]
    units = force_units_in(state, target, dforce)
    fort = state["areas"][target]["fortification"]
    if combat["defence_area"] != target:
        ctx.event(
            f"the German units in B1 stay in B1; {target} is lost to the attacker (rulebook 4.5)"
        )
        combat["stage"] = "shift"
        return False
    if fort is not None and fort["kind"] == "major" and units:
        improved = {
            "id": fort["id"],
            "name": fort["name"],
            "value": 1,
            "kind": "improved",
            "defense": 1,
        }
        update_area(state, target, fortification=improved)
        ctx.event(
            f"major fortification {fort['name']} holds: the defenders stay and it becomes an "
            f"improved position (rulebook 4.2.1.2 step 6)",
            area=target,
        )
        combat["stage"] = "done"
        return False
    if combat["attack_force"] == GERMAN and target in state["bases"].get(dforce, []):
        if not lose_cubes(
            state, dforce, 1, ctx, f"German success against the supply base {target}"
        ):
            return False
        if units:
            ctx.event(
                f"supply base {target}: the defending units do not retreat "
                f"(rulebook {R_EFFECTS}, special rule)"
            )
            combat["stage"] = "done"
            return False
    if units:
        if retreat_capacity(state) == 0:
            for unit in units:
                eliminate(state, unit, ctx, f"no retreat possible (rulebook {R_EFFECTS})")
            for block in blocks_in(state, target):
                take_off(state, block, ctx, f"failed retreat (rulebook {R_EFFECTS})")
        else:
            _ask(state, "retreat", combat["defender"])
            return True
    else:
        for block in blocks_in(state, target):
            take_off(state, block, ctx, f"no defending unit left (rulebook {R_EFFECTS})")
    combat["stage"] = "shift"
    return False


def _shift(state: State, ctx: Context) -> None:
    """Fortifications removed, front line shifted (if markers allow), supply checked."""
    combat = state["combat"]
    target = combat["target"]
    remove_fortification(state, target, ctx, target, f"rulebook {R_EFFECTS}")
    new = combat["attack_force"]
    short = short_of_markers(state, {target: new})
    if short:
        names = " and ".join(NAMES[p] for p in short)
        ctx.event(
            f"{names} lack{'s' if len(short) == 1 else ''} front line markers: the front line "
            f"does not shift and {target} stays {NAMES[state['areas'][target]['control']]} "
            f"(rulebook {R_EFFECTS})",
            area=target,
        )
        if new == GERMAN:
            for player in short:
                if not lose_cubes(
                    state, player, 3, ctx, "not enough front line markers after a German success"
                ):
                    return
        combat["stage"] = "done"
        return
    set_control(state, target, new, ctx, f"won by the attack (rulebook {R_EFFECTS})")
    settle(state, ctx, cutter=new if new in ALLIED else None)
    combat["stage"] = "advance"


# --- retreat and advance -----------------------------------------------------------------------


def retreat(state: State, role: str, d: Retreat, ctx: Context) -> None:
    refuse(retreat_problem(state, d), R_EFFECTS)
    combat = state["combat"]
    target, dforce = combat["target"], combat["defence_force"]
    units = force_units_in(state, target, dforce)
    here = blocks_in(state, target)
    moves: list[tuple[dict[str, Any], str]] = []
    for owner, dest in d.blocks:
        block = next(b for b in here if owner is None or b["owner"] == owner)
        moves.append((block, dest))
    for unit, dest in d.units:
        move_unit(state, unit, dest)
        ctx.event(
            f"{unit_text(state, unit)} retreats to {area_name(state, dest)}", unit=unit, area=dest
        )
    for block, dest in moves:
        writable_block(state, block)["area"] = dest
        ctx.event(f"the {NAMES[block['owner']]} block retreats to {dest}", area=dest)
    moved = {u for u, _ in d.units}
    for unit in units:
        if unit not in moved:
            eliminate(state, unit, ctx, f"no room to retreat (rulebook {R_EFFECTS})")
    for block in blocks_in(state, target):
        take_off(state, block, ctx, f"failed retreat (rulebook {R_EFFECTS})")
    combat["stage"] = "shift"
    state["step"] = "combat"
    proceed(state, ctx)


def advance(state: State, role: str, d: Advance, ctx: Context) -> None:
    refuse(advance_problem(state, d), f"{R_EFFECTS}: Advance")
    combat = state["combat"]
    frm, target = combat["from"], combat["target"]
    for unit in d.units:
        move_unit(state, unit, target)
    if d.block:
        block = own_block_in(state, frm, role)
        assert block is not None
        writable_block(state, block)["area"] = target
    if d.units:
        ctx.event(
            f"{NAMES[role]} advances {', '.join(d.units)}{' and the block' if d.block else ''} "
            f"into {area_name(state, target)}",
            units=list(d.units),
            area=target,
        )
        gain_eagle(state, role, combat["attack_force"], target, ctx)
    else:
        ctx.event(f"{NAMES[role]} does not advance")
    combat["stage"] = "done"
    state["step"] = "combat"
    proceed(state, ctx)


def gain_eagle(state: State, role: str, force: str, area: str, ctx: Context) -> None:
    """Rulebook 5: a victory token for advancing into an area with an own-colour eagle."""
    if force not in ALLIED or area not in state["eagles"]:
        return
    colour = state["map"]["areas"][area]["eagle"]
    own = {"blue": "west", "red": "soviet"}.get(colour)
    if own != role:
        ctx.event(
            f"{area_name(state, area)} is the {NAMES[own or role]} goal: nobody gains its point "
            "(rulebook 5)"
        )
        return
    if state["eagles"][area] == role:
        return
    own_part(state, "eagles")[area] = role
    own_part(state, "vp")[role] += 1
    ctx.event(
        f"{NAMES[role]} takes the victory token of {area_name(state, area)}: "
        f"{state['vp'][role]} VP (rulebook 5)",
        area=area,
        role=role,
        vp=state["vp"][role],
    )


# --- the end of the attack ----------------------------------------------------------------------


def _finish(state: State, ctx: Context) -> None:
    combat = state["combat"]
    state["last_combat"] = {
        k: combat[k]
        for k in (
            "attacker",
            "defender",
            "from",
            "target",
            "attack_force",
            "defence_force",
            "cubes",
            "tokens",
            "attack",
            "defence",
            "dice",
            "rerolled",
            "totals",
            "winner",
            "counterattack",
        )
    }
    state["combat"] = None
    after_action(state, ctx, combat["attacker"])
