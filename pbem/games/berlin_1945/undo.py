"""Undoing what a reaction card cancels (rulebook 2.3, 6.1).

A cancelled order is undone: its units return to their starting zone, a rebuilt unit
returns to the removed units, and the cards discarded for it are not recovered (6.1).
A cancelled card is undone through what it recorded when played (`cards.remember`); the
orders a card gave (#24's second move, the planned orders of #13 / #22) are undone as
orders.
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import State
from pbem.games.berlin_1945 import position, tables
from pbem.games.berlin_1945.hands import writable
from pbem.games.berlin_1945.position import limit, units_at, zone_of
from pbem.games.berlin_1945.shared_parts import own_part
from pbem.games.berlin_1945.state import illegal

Entry = dict[str, Any]


def order_units(entry: Entry) -> list[tuple[str, str]]:
    """(unit, zone it reached) for a logged Movement or Rebuild order."""
    if entry["kind"] == "move":
        return [(u, to) for to, us in entry["groups"] for u in us]
    return [(entry["unit"], entry["zone"])]


def check_order_undoable(state: State, entry: Entry) -> None:
    n = entry["n"]
    units = order_units(entry)
    for u, zone in units:
        if u not in state["at"][tables.of(state).units[u].side].get(zone, ()):
            raise illegal(f"order {n} cannot be undone: {u} is no longer in {zone}", "6.1")
    if entry["kind"] == "move":
        side = tables.of(state).units[units[0][0]].side
        cap = limit(state, entry["frm"], side)
        back = len(units) + len(units_at(state, entry["frm"], side))
        if cap is not None and back > cap:
            raise illegal(
                f"order {n} cannot be undone: {entry['frm']} would exceed its stacking", "5.3"
            )


def undo_order(state: State, entry: Entry) -> None:
    if entry["kind"] == "move":
        for u, zone in order_units(entry):
            position.move(state, u, zone, entry["frm"])
    else:
        position.remove(state, entry["unit"], entry["zone"])
    for zone, ctrl in entry["control"].items():
        if ctrl is not None:
            state["control"][zone] = ctrl
    state["move"]["undone"].append(entry["n"])
    if "flags" in entry:
        restore_flags(state)


def restore_flags(state: State) -> None:
    """Version 1.1: an undone Soviet order undoes everything it caused, its first entries
    too (5.2 the Reichstag garrison, 5.3 the German limit in V, 5.4 the German orders).
    The flags go back to what they were before this phase's first Soviet order, and every
    order still standing enters its destinations again, in the order they were given."""
    log = state["move"]["log"]
    undone = state["move"]["undone"]
    first = next(e for e in log if "flags" in e)
    state["flags"] = dict(first["flags"])
    for e in log:
        if "flags" in e and e["n"] not in undone:
            for to, _units in e["groups"]:
                position.note_soviet_entry(state, to)


def orders_of_card(state: State, number: int) -> list[Entry]:
    """The orders still standing that card `number` gave this Movement phase, last first
    (undoing in reverse order restores the control each one found)."""
    log = state["move"]["log"]
    undone = state["move"]["undone"]
    return [e for e in reversed(log) if e.get("card") == number and e["n"] not in undone]


def undo_card(state: State, entry: Entry, check_only: bool) -> None:
    """Undo a card played this Movement phase (a cancel_card reaction), or refuse."""
    for undo in entry["undo"]:
        t = undo["t"]
        if t == "free_rebuild" and state["move"]["free_rebuild"] < undo["count"]:
            raise illegal("the Rebuild order this card gave is already used", "2.3")
        if t == "off" and any(zone_of(state, u) is None for u in undo["units"]):
            raise illegal("the reinforcements are no longer on the map", "2.3")
        if t == "restore":
            for u, zone in undo["units"]:
                side = tables.of(state).units[u].side
                cap = limit(state, zone, side)
                if u not in state["removed"] or (
                    cap is not None and len(units_at(state, zone, side)) + 1 > cap
                ):
                    raise illegal(f"{u} cannot return to {zone}", "2.3, 5.3")
        if t == "orders":
            for order in orders_of_card(state, entry["n"]):
                check_order_undoable(state, order)
    if check_only:
        return
    for undo in entry["undo"]:
        t = undo["t"]
        if t == "off":
            for u in undo["units"]:
                position.lift(state, u)
        elif t == "marker":
            markers = own_part(state, "markers").get(undo["zone"], [])
            if undo["marker"] in markers:
                markers.remove(undo["marker"])
        elif t == "free_rebuild":
            state["move"]["free_rebuild"] -= undo["count"]
        elif t == "restore":
            for u, zone in undo["units"]:
                position.restore(state, u, zone)
        elif t == "undiscard":
            writable(state, undo["role"], undo["slot"])["status"] = "hand"
        elif t == "orders":
            for order in orders_of_card(state, entry["n"]):
                undo_order(state, order)
            if state["move"]["double_card"] == entry["n"]:
                state["move"]["double"] = None
        for zone, ctrl in undo.get("control", {}).items():
            if ctrl is not None:
                state["control"][zone] = ctrl
    state["move"]["cards_undone"].append(entry["n"])
