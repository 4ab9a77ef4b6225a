"""Götterdämmerung: entering hexes, whatever the way (movement, retreat, advance after
combat, an overrun's entry): who may never enter which hexes (9.36, 9.72, 12.34, 12.37,
5.71), and what entering one changes (the Soviet Occupied markers of 5.47 and 11.12, the
turn 1-3 bonus of 11.16). Shared by moving.py and fighting.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.engine import Context, State
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import victory


def barred(state: State, unit: Mapping[str, Any], a: str, b: str) -> tuple[str, str] | None:
    """Why the unit may never step from `a` into `b`, by movement, retreat or advance after
    combat alike (9.36, 9.72, 12.34, 12.37, 5.71): (message, rule), or None."""
    board, data = state["board"], state["counters"]
    counter = data["units"].get(unit["id"], {})
    uid = unit["id"]
    kind = md.kind(board, b)
    if counter.get("parent") == "12A" and kind in (md.TRANSITION, md.CITY_HEX):
        return f"{uid} is of the 12th Army: no Transition or City hexes", "9.36"
    sixth_ss = state["options"]["sixth_ss"]
    if sixth_ss and (counter.get("place") or {}).get("pool") == "6th-ss" and kind == md.CITY_HEX:
        return f"{uid} is of the 6th SS Panzer Army: no City hexes", "12.34"
    if sixth_ss and counter.get("front") == "2BF" and kind == md.TRANSITION:
        return f"{uid} is of the 2nd Belorussian Front: no Transition Hexes", "12.37"
    american = counter.get("nationality") == "american"
    if american and a != gs.NGP and "elbe" in md.hexside(board, a, b):
        return f"{uid} is American: it may not cross the Elbe", "9.72"
    if (
        unit["side"] == "soviet"
        and counter.get("size") == "corps"
        and counter.get("class") == "vehicle"
        and kind == md.CITY_HEX
    ):
        return f"{uid} must be split before it enters Berlin City hexes", "5.71, 5.48"
    return None


def enter_hexes(state: State, unit: dict[str, Any], path: list[str], ctx: Context) -> None:
    """The unit is now at the end of `path`; every hex it entered updates the Soviet
    Occupied markers (5.47, 11.12) and the turn 1-3 bonus (11.16)."""
    board = state["board"]
    for h in path:
        if h == gs.NGP:
            continue
        before = set(state["occupied"])
        transition = md.kind(board, h) == md.TRANSITION
        after = victory.after_entry(board, before, unit["side"], h)
        if unit["side"] == "soviet" and transition:
            after.add(h)  # 5.47
        if unit["side"] == "german" and h in before:
            after.discard(h)  # 5.47, 11.12
        if unit["side"] == "soviet" and h not in before and h in after:
            bonus = victory.bonus_vp(board, state["turn"], h, state["bonus"])
            if bonus:
                state["bonus"].append(h)
                ctx.event(f"{gs.hex_text(h)} occupied on turn {state['turn']}: +{bonus} VP (11.16)")
        state["occupied"] = sorted(after)
    mine = gs.own(state, unit["id"])
    if mine is not unit:  # (a caller's copy would show the old hex: callers pass `own`'s)
        raise AssertionError(f"{unit['id']}: enter_hexes was given a dict the state does not own")
    mine["hex"] = path[-1]
