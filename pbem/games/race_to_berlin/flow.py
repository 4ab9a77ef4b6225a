"""The sequence of play (rulebook 4) and the end of the game (rulebook 3, 5).

Each game turn: Logistics Phase (placing blocks) -> Action Phase (alternate actions until
a player has no block on the board) -> the end-of-turn opening of every block still
sealed (protocol section 5) -> Strategic Movement Phase (turns 1 and 2; tokens turn face
up; the 6th SS Panzer Army changes fronts after turn 1) -> the next turn. After turn 3's
Action Phase (and the openings) the game ends on victory points.

An automatic victory (a Western or Soviet unit in B1) or defeat (a penalty in action cubes
that cannot be paid) ends the game at once: the blocks leave the board, the players open
the blocks still sealed, and the game is over.
"""

from __future__ import annotations

from pbem.core.engine import Context
from pbem.games.race_to_berlin.blocks import recheck_all, sealed_labels, take_off
from pbem.games.race_to_berlin.board import refresh_markers
from pbem.games.race_to_berlin.state import (
    GERMAN,
    NAMES,
    ROLES,
    SOVIET,
    WEST,
    State,
    force_units_in,
    on_board,
    other,
)
from pbem.games.race_to_berlin.supply import settle


def lose_cubes(state: State, role: str, n: int, ctx: Context, why: str) -> bool:
    """A permanent loss of `n` cubes from the pool; False (and the game lost) when unpaid."""
    cubes = state["cubes"][role]
    if cubes["pool"] < n:
        ctx.event(
            f"{NAMES[role]} must lose {n} action cubes ({why}) but has {cubes['pool']} in the "
            "pool: the game is lost (rulebook 5)",
            role=role,
            cubes=n,
        )
        declare(state, other(role), "cube loss", f"{NAMES[role]} cannot pay {n} action cubes")
        return False
    cubes["pool"] -= n
    cubes["lost"] += n
    ctx.event(
        f"{NAMES[role]} permanently loses {n} action cube{'s' if n > 1 else ''} ({why}); "
        f"{cubes['pool']} left in the pool",
        role=role,
        cubes=n,
    )
    return True


def declare(state: State, winner: str | None, level: str, reason: str) -> None:
    if state["result"] is None:
        state["result"] = {"winner": winner, "level": level, "reason": reason}


def check_b1(state: State, ctx: Context) -> bool:
    """Rulebook 5: a Western or Soviet unit in B1 wins at once."""
    for role in ROLES:
        if force_units_in(state, "B1", role):
            ctx.event(f"{NAMES[role]} occupies B1: automatic victory (rulebook 5)", role=role)
            declare(state, role, "automatic victory", f"{NAMES[role]} occupies B1")
            return True
    return False


# --- Logistics Phase (4.1, 4.1.1) -------------------------------------------------------------


def start_turn(state: State, ctx: Context | None) -> None:
    """A new game turn: blocks back in hand, the first player, the first placement."""
    turn = state["turn"]
    state["phase"] = "logistics"
    state["step"] = "place"
    state["blocks"] = []
    state["placed"] = {p: 0 for p in ROLES}
    state["unplaced"] = {p: 0 for p in ROLES}
    state["hands"] = {p: None for p in ROLES}
    state["actions"] = 0
    state["strategic"] = None
    state["combat"] = None
    if turn == 1:
        first = SOVIET
    elif turn == 2:
        first = WEST
    else:
        vp = state["vp"]
        if vp[WEST] != vp[SOVIET]:
            first = WEST if vp[WEST] > vp[SOVIET] else SOVIET
        else:
            assert ctx is not None
            die = ctx.roll(1, 2, f"turn {turn}: first player")
            first = WEST if die == 1 else SOVIET
            ctx.event(
                f"victory points tied {vp[WEST]}-{vp[SOVIET]}: die {die}, {NAMES[first]} "
                "places first (rulebook 4.1.1; 1 West, 2 Soviet)",
                die=die,
            )
    state["first"] = first
    state["active"] = first
    if ctx is not None:
        ctx.event(
            f"turn {turn}: Logistics Phase, {NAMES[first]} places first (rulebook 4.1.1)",
            turn=turn,
            first=first,
        )
    next_placer(state, ctx, first)


def next_placer(state: State, ctx: Context | None, prefer: str) -> None:
    from pbem.games.race_to_berlin.logistics import can_place

    for role in (prefer, other(prefer)):
        if can_place(state, role):
            state["active"] = role
            return
    for role in ROLES:
        left = len(state["block_values"][role]) - state["placed"][role]
        state["unplaced"][role] = left
        if left and ctx is not None:
            ctx.event(
                f"{NAMES[role]} has no eligible area for its {left} remaining block(s): "
                "unused this turn (rulebook 4.1.1)",
                role=role,
                unused=left,
            )
    begin_action_phase(state, ctx)


# --- Action Phase (4.2) -----------------------------------------------------------------------


def begin_action_phase(state: State, ctx: Context | None) -> None:
    state["phase"] = "action"
    state["step"] = "action"
    state["active"] = state["first"]
    state["actions"] = 0
    if ctx is not None:
        ctx.event(
            f"turn {state['turn']}: Action Phase, {NAMES[state['first']]} acts first (rulebook 4.2)"
        )
    if any(not on_board(state, role) for role in ROLES):
        assert ctx is not None
        end_action_phase(state, ctx)


def after_action(state: State, ctx: Context, actor: str) -> None:
    """After a move, an attack or a removal: victory, supply, the end of the phase."""
    state["actions"] += 1
    state["combat"] = None
    if check_b1(state, ctx):
        return
    settle(state, ctx)
    if state["result"] is not None:
        return
    if any(not on_board(state, role) for role in ROLES):
        end_action_phase(state, ctx)
        return
    state["step"] = "action"
    state["active"] = other(actor)


def end_action_phase(state: State, ctx: Context) -> None:
    empty = [NAMES[r] for r in ROLES if not on_board(state, r)]
    ctx.event(
        f"the Action Phase ends: {' and '.join(empty)} "
        f"{'has' if len(empty) == 1 else 'have'} no logistics block on the board (rulebook 4.2)"
    )
    settle(state, ctx, final=True)
    if state["result"] is not None:
        return
    clear_board(state, ctx, "the end of the Action Phase")
    if state["turn"] >= state["turns"]:
        supply_base_penalty(state, ctx)
        if state["result"] is not None:
            return
    begin_opening(state, ctx)


def clear_board(state: State, ctx: Context, why: str) -> None:
    for block in on_board(state):
        take_off(state, block, ctx, why)


# --- the end-of-turn openings (protocol section 5) ---------------------------------------------


def begin_opening(state: State, ctx: Context) -> None:
    state["phase"] = "opening"
    state["step"] = "open"
    state["combat"] = None
    if not any(sealed_labels(state, role) for role in ROLES):
        after_opening(state, ctx)


def after_opening(state: State, ctx: Context) -> None:
    for role in ROLES:
        recheck_all(state, role)
    if state["result"] is not None:
        over(state, ctx)
        return
    if state["turn"] >= state["turns"]:
        final_score(state, ctx)
        return
    from pbem.games.race_to_berlin.strategic import begin_strategic

    begin_strategic(state, ctx)


def finish(state: State, ctx: Context) -> None:
    """The game is decided: blocks off the board, then the last openings."""
    state["combat"] = None
    clear_board(state, ctx, "the game is over")
    begin_opening(state, ctx)


def over(state: State, ctx: Context) -> None:
    state["phase"] = "over"
    state["step"] = "over"
    state["active"] = None
    result = state["result"]
    ctx.event(f"game over: {result['reason']}", **{k: v for k, v in result.items()})


def final_score(state: State, ctx: Context) -> None:
    """Rulebook 5: after turn 3's Action Phase the most victory points win; ties possible."""
    vp = state["vp"]
    if vp[WEST] == vp[SOVIET]:
        declare(state, None, "draw", f"victory points tied {vp[WEST]}-{vp[SOVIET]}")
    else:
        winner = WEST if vp[WEST] > vp[SOVIET] else SOVIET
        declare(
            state,
            winner,
            "points",
            f"{NAMES[winner]} wins on victory points {vp[WEST]}-{vp[SOVIET]} (West-Soviet)",
        )
    over(state, ctx)


# --- the end of a game turn ---------------------------------------------------------------------


def supply_base_penalty(state: State, ctx: Context) -> None:
    """Rulebook 4.4: German units in a Western or Soviet supply base at the end of a game
    turn cost the base's owner 5 action cubes (per base)."""
    for role in ROLES:
        for area in state["bases"][role]:
            occupied = state["areas"][area]["control"] == GERMAN and force_units_in(
                state, area, GERMAN
            )
            why = f"German units occupy its supply base {area}"
            if occupied and not lose_cubes(state, role, 5, ctx, why):
                return


def end_turn(state: State, ctx: Context) -> None:
    supply_base_penalty(state, ctx)
    if state["result"] is not None:
        return
    state["turn"] += 1
    refresh_markers(state)
    start_turn(state, ctx)
