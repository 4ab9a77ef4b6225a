"""Movement orders (rulebook 5): adjacency, rings, Advance / Flank / Retreat / Withdraw,
stacking, once per turn per unit, and carrying an order out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.core.engine import State
from pbem.games.berlin_1945 import position, tables
from pbem.games.berlin_1945.rulebook import COVER, NAMES, RULEBOOK_CARDS
from pbem.games.berlin_1945.state import fixed, illegal, other

Groups = Sequence[tuple[str, Sequence[str]]]


def kind_of(state: State, side: str, frm: str, to: str, enemy_in_start: bool) -> str:
    """5.5: the type of a movement from `frm` to `to` for `side`."""
    rings = tables.of(state).ring
    forward = rings[to] - rings[frm]
    if side == "german":
        forward = -forward
    if enemy_in_start:
        return "retreat" if forward <= 0 else "advance-from-disputed"
    return "advance" if forward > 0 else "flank" if forward == 0 else "withdraw"


def check_order(state: State, side: str, frm: str, groups: Groups) -> list[str]:
    """Validate one Movement order; return the type of each destination's movement."""
    t = tables.of(state)
    if frm not in t.ring:
        raise illegal(f"there is no zone {frm}", "2.1")
    if not 1 <= len(groups) <= 2:
        raise illegal("an order moves one or two groups", "5")
    if len({to for to, _u in groups}) != len(groups):
        raise illegal("two groups of one order go to two different zones", "5")
    moving: list[str] = []
    record = state["move"]
    moved = record["moved"] if record else ()
    double = (record["double"] if record else None) or ()
    here = state["at"][side].get(frm, ())
    unfrozen = state["flags"]["mitte"]
    for to, uids in groups:
        if to not in t.ring:
            raise illegal(f"there is no zone {to}", "2.1")
        if not uids:
            raise illegal("a group has at least one unit", "5")
        for uid in uids:
            unit = t.units.get(uid)
            if unit is None or unit.side != side:
                raise illegal(f"{uid} is not a {NAMES[side]} unit", "2.2")
            if uid not in here:
                raise illegal(f"{uid} is not in {frm}", "5")
            if uid in moved and uid not in double:
                raise illegal(f"{uid} has already moved this turn", "5")
            if unit.frozen and not unfrozen:
                raise illegal(f"{uid} may not move until Soviet troops enter the Mitte", "5.2")
            moving.append(uid)
    if len(set(moving)) != len(moving):
        raise illegal("a unit moves once", "5")
    if side == "german" and record and fixed(state):
        second = any(u in moved and u in double for u in moving)  # #24 alters the rule
        check_destinations(record["log"], frm, [to for to, _u in groups], second)
    enemy = frm in state["at"][other(side)]
    kinds = []
    for to, uids in groups:
        if to not in t.adj[side].get(frm, ()):
            raise illegal(f"{to} is not adjacent to {frm}", "5.1")
        if t.ring[to] == 0:
            if side == "german":
                raise illegal("German units cannot enter Areas", "5.2")
            raise illegal("no unit can enter an Area with a Movement order", "7.2")
        kind = kind_of(state, side, frm, to, enemy)
        if kind == "advance-from-disputed":
            raise illegal(
                f"{frm} holds enemy units: an Advance starts from a zone without enemy units",
                "5.5.1",
            )
        if kind == "retreat" and side == "soviet" and to in state["at"]["german"]:
            raise illegal(f"a Soviet Retreat may not enter {to}, which holds German units", "5.5.3")
        cap = position.limit(state, to, side)
        if cap is not None and len(state["at"][side].get(to, ())) + len(uids) > cap:
            raise illegal(
                f"{len(uids)} more {NAMES[side]} units would exceed the stacking limit of {to} "
                f"({cap})",
                "5.3",
            )
        kinds.append(kind)
    if enemy and len(here) - len(moving) < COVER[side]:
        raise illegal(
            f"a {NAMES[side]} Retreat leaves {COVER[side]} unit(s) in {frm} to cover it", "5.5.3"
        )
    return kinds


def check_destinations(log: list[dict[str, Any]], frm: str, dests: list[str], second: bool) -> None:
    """5, 7.3 (1.1): "units in the same starting zone can move to a maximum of two
    destination zones", over all the side's orders of the turn (the German orders of this
    phase in `log`; the Soviet plan is checked the same way by `plan.Draft`). The second
    move of #24 Panzergrenadiers is the card's and is not counted."""
    if second:
        return
    before = {
        to
        for e in log
        if e["kind"] == "move" and e["frm"] == frm and "card" not in e
        for to, _u in e["groups"]
    }
    if len(before | set(dests)) > 2:
        raise illegal(
            f"units of {frm} already moved to {', '.join(sorted(before))} this turn: the units "
            "of one starting zone move to at most two destination zones",
            "5, 7.3",
        )


# 8.2, card #23 Steiner!: "This unit is not considered to withdraw if it subsequently moves
# toward the Mitte." The loader sets `never_withdraws` on exactly the unit this card deploys
# (counters_file, cards_file), so the card's number names it here.
NEVER_WITHDRAWS = frozenset(
    n
    for (deck, n), spec in RULEBOOK_CARDS.items()
    if deck == "german" and spec.get("units", {}).get("never_withdraws")
)


def is_withdrawal(state: State, kinds: list[str], groups: Groups) -> bool:
    """5.5.4: a German order counts against the two Withdrawals unless its withdrawing
    groups are made only of yellow-dot units; Steiner never withdraws toward the Mitte (8.2,
    card #23), so a group is judged without him. Steiner has the yellow dot too: his card
    changes no count the yellow dot does not already spare (docs/berlin-1945.md)."""
    units = tables.of(state).units
    for kind, (_to, uids) in zip(kinds, groups, strict=True):
        movers = [u for u in uids if units[u].card not in NEVER_WITHDRAWS]
        if kind == "withdraw" and movers and not all(units[u].yellow for u in movers):
            return True
    return False


def carry_out(state: State, side: str, frm: str, groups: Groups) -> None:
    """Move the units, mark them moved, update control and the first-entry flags."""
    record = state["move"]
    for to, uids in groups:
        for uid in uids:
            position.move(state, uid, frm, to)
            if uid not in record["moved"]:
                record["moved"].append(uid)
            elif record["double"] and uid in record["double"]:
                record["double"].remove(uid)
        if side == "soviet":
            position.note_soviet_entry(state, to)
        position.update_control(state, to)
    position.update_control(state, frm)
