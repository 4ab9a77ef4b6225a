"""How the game is decided (rulebook 5): the result, automatic victory in B1, and the
permanent loss of action cubes, which loses the game when it cannot be paid.

Recording a result does not end the game by itself: the engine's `after` hook takes the
blocks off the board and starts the last openings (`flow.finish`).
"""

from __future__ import annotations

from pbem.core.engine import Context
from pbem.games.race_to_berlin.data import FORCE_CONTROL
from pbem.games.race_to_berlin.state import NAMES, ROLES, State, other, own_part


def declare_result(state: State, winner: str | None, level: str, reason: str) -> None:
    """Record the result; the first one stands."""
    if state["result"] is None:
        state["result"] = {"winner": winner, "level": level, "reason": reason}


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
        declare_result(
            state, other(role), "cube loss", f"{NAMES[role]} cannot pay {n} action cubes"
        )
        return False
    cubes = own_part(state, "cubes")[role]
    cubes["pool"] -= n
    cubes["lost"] += n
    ctx.event(
        f"{NAMES[role]} permanently loses {n} action cube{'s' if n > 1 else ''} ({why}); "
        f"{cubes['pool']} left in the pool",
        role=role,
        cubes=n,
    )
    return True


def check_b1(state: State, ctx: Context) -> bool:
    """Rulebook 5: a Western or Soviet unit in B1 wins at once."""
    # (asked after every action: one scan of the units for both players, which is
    # `force_units_in(state, "B1", role)` being non-empty for each)
    held: set[str] = set()
    for rec in state["units"].values():
        if rec["area"] == "B1":
            held.add(FORCE_CONTROL[rec["force"]])
    for role in ROLES:
        if role in held:
            ctx.event(f"{NAMES[role]} occupies B1: automatic victory (rulebook 5)", role=role)
            declare_result(state, role, "automatic victory", f"{NAMES[role]} occupies B1")
            return True
    return False
