"""Movement orders (rulebook 5): adjacency, rings, Advance / Flank / Retreat / Withdraw,
stacking, once per turn per unit, and carrying an order out."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.engine import State
from pbem.games.berlin_1945.state import (
    COVER,
    NAMES,
    adjacent,
    illegal,
    is_area,
    limit,
    note_soviet_entry,
    other,
    ring,
    units_at,
    update_control,
)

Groups = Sequence[tuple[str, Sequence[str]]]


def kind_of(state: State, side: str, frm: str, to: str, enemy_in_start: bool) -> str:
    """5.5: the type of a movement from `frm` to `to` for `side`."""
    forward = ring(state, to) - ring(state, frm)
    if side == "german":
        forward = -forward
    if enemy_in_start:
        return "retreat" if forward <= 0 else "advance-from-disputed"
    return "advance" if forward > 0 else "flank" if forward == 0 else "withdraw"


def check_order(state: State, side: str, frm: str, groups: Groups) -> list[str]:
    """Validate one Movement order; return the type of each destination's movement."""
    zones = state["map"]["ring"]
    if frm not in zones:
        raise illegal(f"there is no zone {frm}", "2.1")
    if not 1 <= len(groups) <= 2:
        raise illegal("an order moves one or two groups", "5")
    if len({to for to, _u in groups}) != len(groups):
        raise illegal("two groups of one order go to two different zones", "5")
    moving: list[str] = []
    record = state["move"] or {"moved": [], "double": None}
    for to, uids in groups:
        if to not in zones:
            raise illegal(f"there is no zone {to}", "2.1")
        if not uids:
            raise illegal("a group has at least one unit", "5")
        for uid in uids:
            unit = state["units"].get(uid)
            if unit is None or unit["side"] != side:
                raise illegal(f"{uid} is not a {NAMES[side]} unit", "2.2")
            if unit["status"] != "on" or unit["zone"] != frm:
                raise illegal(f"{uid} is not in {frm}", "5")
            double = record.get("double") or []
            if uid in record["moved"] and uid not in double:
                raise illegal(f"{uid} has already moved this turn", "5")
            if unit["frozen"] and not state["flags"]["mitte"]:
                raise illegal(f"{uid} may not move until Soviet troops enter the Mitte", "5.2")
            moving.append(uid)
    if len(set(moving)) != len(moving):
        raise illegal("a unit moves once", "5")
    enemy = bool(units_at(state, frm, other(side)))
    own_here = units_at(state, frm, side)
    kinds = []
    for to, uids in groups:
        if not adjacent(state, frm, to, side):
            raise illegal(f"{to} is not adjacent to {frm}", "5.1")
        if is_area(state, to):
            if side == "german":
                raise illegal("German units cannot enter Areas", "5.2")
            raise illegal("no unit can enter an Area with a Movement order", "7.2")
        kind = kind_of(state, side, frm, to, enemy)
        if kind == "advance-from-disputed":
            raise illegal(
                f"{frm} holds enemy units: an Advance starts from a zone without enemy units",
                "5.5.1",
            )
        if kind == "retreat" and side == "soviet" and units_at(state, to, "german"):
            raise illegal(f"a Soviet Retreat may not enter {to}, which holds German units", "5.5.3")
        cap = limit(state, to, side)
        if cap is not None and len(units_at(state, to, side)) + len(uids) > cap:
            raise illegal(
                f"{len(uids)} more {NAMES[side]} units would exceed the stacking limit of {to} "
                f"({cap})",
                "5.3",
            )
        kinds.append(kind)
    if enemy and len(own_here) - len(moving) < COVER[side]:
        raise illegal(
            f"a {NAMES[side]} Retreat leaves {COVER[side]} unit(s) in {frm} to cover it", "5.5.3"
        )
    return kinds


def is_withdrawal(state: State, kinds: list[str], groups: Groups) -> bool:
    """5.5.4: a German order counts against the two Withdrawals unless its withdrawing
    groups are made only of yellow-dot units."""
    for kind, (_to, uids) in zip(kinds, groups, strict=True):
        if kind == "withdraw" and not all(state["units"][u]["yellow"] for u in uids):
            return True
    return False


def carry_out(state: State, side: str, frm: str, groups: Groups) -> None:
    """Move the units, mark them moved, update control and the first-entry flags."""
    record = state["move"]
    for to, uids in groups:
        for uid in uids:
            state["units"][uid]["zone"] = to
            if uid not in record["moved"]:
                record["moved"].append(uid)
            elif record.get("double") and uid in record["double"]:
                record["double"].remove(uid)
        if side == "soviet":
            note_soviet_entry(state, to)
        update_control(state, to)
    update_control(state, frm)
