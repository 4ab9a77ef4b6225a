"""Special tokens (rulebook 4.2.1.2, Special tokens): which token a player uses for a side
of a combat, finding a free one, and playing it (face down until the end of the turn).

A token's record is replaced when it is played, never changed in place: copies of the
state share the records (`state.copy_state`)."""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context
from pbem.games.race_to_berlin.state import GERMAN, GERMAN_FORCE, NAMES, State, own_part


def token_force(attack_or_defence_force: str, role: str) -> str:
    """The token force a player uses for a side: its own force, or its German front."""
    return GERMAN_FORCE[role] if attack_or_defence_force == GERMAN else attack_or_defence_force


def free_token(state: State, role: str, kind: str, force: str) -> dict[str, Any] | None:
    for token in state["tokens"][role]:
        if token["kind"] == kind and token["force"] == force and not token["used"]:
            return token
    return None


def use_token(state: State, role: str, kind: str, force: str, ctx: Context, why: str) -> None:
    token = free_token(state, role, kind, force)
    assert token is not None
    tokens = own_part(state, "tokens")[role]
    tokens[tokens.index(token)] = {**token, "used": True}
    ctx.event(
        f"{NAMES[role]} plays a {kind.capitalize()} token ({force}): {why}",
        role=role,
        token=token["id"],
    )


def reserves_force(state: State, side: str) -> tuple[str, str]:
    """(role, token force) deciding about a Reserves re-roll for `side` of the combat."""
    combat = state["combat"]
    if side == "attack":
        role = combat["attacker"]
        return role, token_force(combat["attack_force"], role)
    role = combat["defender"]
    return role, token_force(combat["defence_force"], role)
