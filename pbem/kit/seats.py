"""Seats: the roles that sign, and the sides they command, when the two can differ.

The genesis names the roles (seats), and a seat's key signs its entries for the whole
game. In some games the players decide in play which side each commands (Götterdämmerung
12.4: a bid for sides). The state then keeps the side of each seat under `seats`, the
rules speak of sides, and a step asks the seat of a side (`role_of`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.engine import State
from pbem.errors import IllegalOrderError


def seat(state: State, roles: Sequence[str], sides: Mapping[str, str] | None = None) -> None:
    """Seat `roles`; sides already known now (`sides`: role -> side), the rest undecided."""
    state["seats"] = {role: (sides or {}).get(role) for role in roles}


def assign(state: State, role: str, side: str) -> None:
    """Give `role` command of `side` for the rest of the game."""
    seats = state["seats"]
    if role not in seats:
        raise IllegalOrderError(f"illegal: {role} has no seat in this game")
    if seats[role] is not None:
        raise IllegalOrderError(f"illegal: {role} already commands {seats[role]}")
    if side in seats.values():
        raise IllegalOrderError(f"illegal: {side} is already commanded")
    seats[role] = side


def side_of(state: State, role: str) -> str | None:
    return state["seats"].get(role)


def role_of(state: State, side: str) -> str:
    """The seat that commands `side` (a rules error while sides are undecided)."""
    for role, held in state["seats"].items():
        if held == side:
            return str(role)
    raise IllegalOrderError(f"illegal: nobody commands {side} yet")


def decided(state: State) -> bool:
    return all(side is not None for side in state["seats"].values())
