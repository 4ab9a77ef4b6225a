"""The sequence of play (rulebook 4) and the end of the game (rulebook 3, 5).

Each game turn: Logistics Phase (placing blocks) -> Action Phase (alternate actions until
a player has no block on the board) -> the end-of-turn opening of every block still
sealed (protocol section 5) -> Strategic Movement Phase (turns 1 and 2; tokens turn face
up; the 6th SS Panzer Army changes fronts after turn 1) -> the next turn. After turn 3's
Action Phase (and the openings) the game ends on victory points.

An automatic victory (a Western or Soviet unit in B1) or defeat (a penalty in action cubes
that cannot be paid) ends the game at once: the blocks leave the board, the players open
the blocks still sealed, and the game is over.

Every move from one phase to the next lives here, so the turn's cycle is in one module;
so do the handlers of the decisions whose only follow-up is that sequence (placing a
block, the strategic moves, the end-of-turn openings), while their rules are in
`logistics`, `strategic` and `blocks`. Actions and combats end in `after_action`.
"""

from __future__ import annotations

from pbem.core.engine import Context
from pbem.games.race_to_berlin import logistics, strategic
from pbem.games.race_to_berlin.blocks import open_block, recheck_all, sealed_labels, take_off
from pbem.games.race_to_berlin.board import refresh_markers
from pbem.games.race_to_berlin.decisions import (
    EndStrategic,
    OpenBlocks,
    Place,
    PlaceReserve,
    Strategic,
)
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
    own_part,
)
from pbem.games.race_to_berlin.supply import settle
from pbem.games.race_to_berlin.victory import check_b1, declare_result, lose_cubes

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


def place(state: State, role: str, d: Place, ctx: Context) -> None:
    """Handler: `role` places a block; then the other player places, if it can."""
    logistics.place(state, role, d, ctx)
    next_placer(state, ctx, other(role))


def next_placer(state: State, ctx: Context | None, prefer: str) -> None:
    for role in (prefer, other(prefer)):
        if logistics.can_place(state, role):
            state["active"] = role
            return
    for role in ROLES:
        left = len(state["block_values"][role]) - state["placed"][role]
        own_part(state, "unplaced")[role] = left
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


def open_blocks(state: State, role: str, d: OpenBlocks, ctx: Context) -> None:
    """Handler: `role` opens every block of the turn it still has sealed (the step's table
    made the entry open exactly those), each checked against its claims, placement order."""
    opened = ctx.opened_now()
    for block in sorted(state["blocks"], key=lambda b: b["placed_at"]):
        if block["label"] in opened:
            open_block(state, block, ctx)
    recheck_all(state, role)
    if not any(sealed_labels(state, r) for r in ROLES):
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
    begin_strategic(state, ctx)


# --- Strategic Movement Phase (4.3) -----------------------------------------------------------


def begin_strategic(state: State, ctx: Context) -> None:
    state["phase"] = "strategic"
    state["step"] = "strategic"
    state["strategic"] = {r: {"own": None, "german": None, "done": False} for r in ROLES}
    state["active"] = state["first"]
    ctx.event(
        f"turn {state['turn']}: Strategic Movement Phase, {NAMES[state['first']]} first "
        f"(rulebook {strategic.R_STRATEGIC})"
    )
    next_strategic(state, ctx)


def strategic_move(state: State, role: str, d: Strategic, ctx: Context) -> None:
    """Handler: one strategic move; a unit reaching B1 wins at once."""
    strategic.move(state, role, d, ctx)
    if check_b1(state, ctx):
        return
    next_strategic(state, ctx)


def end_strategic(state: State, role: str, d: EndStrategic, ctx: Context) -> None:
    """Handler: `role` forgoes the strategic moves it has left."""
    own_part(state, "strategic")[role]["done"] = True
    ctx.event(f"{NAMES[role]} ends its strategic movement")
    next_strategic(state, ctx)


def next_strategic(state: State, ctx: Context) -> None:
    """The first player moves first; a player with no move left is done."""
    order = [state["first"], other(state["first"])]
    for role in order:
        record = own_part(state, "strategic")[role]
        if record["done"]:
            continue
        if not strategic.can_move(state, role):
            record["done"] = True
            continue
        state["active"] = role
        return
    end_strategic_phase(state, ctx)


def end_strategic_phase(state: State, ctx: Context) -> None:
    for role in ROLES:  # the token records are replaced (copies of the state share them)
        own_part(state, "tokens")[role] = [{**t, "used": False} for t in state["tokens"][role]]
    ctx.event(f"the special tokens are turned face up (rulebook {strategic.R_STRATEGIC})")
    if state["turn"] == 1 and strategic.transfer(state, ctx):
        return
    end_turn(state, ctx)


def place_reserve(state: State, role: str, d: PlaceReserve, ctx: Context) -> None:
    """Handler: the West places the Eastern Front 6th SS Panzer Army; the turn ends."""
    strategic.place_reserve(state, role, d, ctx)
    end_turn(state, ctx)


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
        declare_result(state, None, "draw", f"victory points tied {vp[WEST]}-{vp[SOVIET]}")
    else:
        winner = WEST if vp[WEST] > vp[SOVIET] else SOVIET
        declare_result(
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
