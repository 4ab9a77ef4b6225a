"""State of Berlin 1945: plain JSON, built from the data at setup, and board helpers.

Shape (all JSON):
    turn, phase, step        turn 1-12; phase in deal/draw/limit/reinforce/plan/german/open/
                             soviet/combat/reichstag/reveal/over
    map                      ring (0 edge .. 4 mitte), limits per side, adjacency per side
    units                    id -> {side, type, strength, elite, rebuild, yellow, zone,
                             status on/off/removed, frozen, group}
    control                  zone -> "german" / "soviet" (districts and sectors)
    flags                    inner / sectors / reichstag / mitte (first Soviet entries, 5.2-5.4)
    german_max               the German base number of orders (4, then 3/2/1, 5.4)
    move                     this turn's movement bookkeeping (moved units, orders used, ...)
    cards                    number -> card data; decks: role -> sorted card numbers
    hands                    role -> {slots: k -> {label, status, card, seq}, draws: [...]}
    plan                     the Soviet plan of this turn: label, seq, snapshot, orders
    combat                   the combat being fought; result: None or the outcome
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import copy_json
from pbem.core.engine import State
from pbem.errors import IllegalOrderError

ROLES = ("german", "soviet")
NAMES = {"german": "German", "soviet": "Soviet"}
RINGS = {"edge": 0, "outer": 1, "middle": 2, "inner": 3, "mitte": 4}
MITTE = 4
SECTORS_I_IV = ("I", "II", "III", "IV")
REICHSTAG = "V"
COVER = {"german": 1, "soviet": 2}  # units left behind by a Retreat (5.5.3)
HAND_LIMIT = 6
INITIAL_HAND = 5
TURNS = 12


def illegal(message: str, rule: str) -> IllegalOrderError:
    return IllegalOrderError(f"illegal: {message} (rulebook {rule})")


def other(role: str) -> str:
    return "soviet" if role == "german" else "german"


def clone(state: State) -> State:
    new = copy_json(state)
    assert isinstance(new, dict)
    return new


# --- board ------------------------------------------------------------------------------------


def ring(state: State, zone: str) -> int:
    return int(state["map"]["ring"][zone])


def is_area(state: State, zone: str) -> bool:
    return ring(state, zone) == 0


def adjacent(state: State, a: str, b: str, side: str) -> bool:
    return b in state["map"]["adj"][side].get(a, [])


def limit(state: State, zone: str, side: str) -> int | None:
    if zone == REICHSTAG and side == "german" and state["flags"]["sectors"]:
        return None  # 5.3: unlimited once a Soviet unit entered Sectors I-IV
    value = state["map"]["limit"][zone][side]
    return None if value is None else int(value)


def units_at(state: State, zone: str, side: str | None = None) -> list[str]:
    return sorted(
        uid
        for uid, u in state["units"].items()
        if u["status"] == "on" and u["zone"] == zone and (side is None or u["side"] == side)
    )


def strength_of(state: State, uids: list[str]) -> int:
    return sum(int(state["units"][u]["strength"]) for u in uids)


def disputed(state: State, zone: str) -> bool:
    return bool(units_at(state, zone, "german")) and bool(units_at(state, zone, "soviet"))


def disputed_zones(state: State) -> list[str]:
    return [z for z in state["map"]["zones"] if disputed(state, z)]


def berlin_strength(state: State, side: str) -> int:
    return sum(
        int(u["strength"])
        for u in state["units"].values()
        if u["status"] == "on" and u["side"] == side
    )


def update_control(state: State, zone: str) -> None:
    """5.5: a zone is controlled by the side whose units alone are in it; else unchanged."""
    if is_area(state, zone):
        return
    g = units_at(state, zone, "german")
    s = units_at(state, zone, "soviet")
    if g and not s:
        state["control"][zone] = "german"
    elif s and not g:
        state["control"][zone] = "soviet"


def note_soviet_entry(state: State, zone: str) -> None:
    """First Soviet entries: order reductions (5.4), V stacking (5.3), frozen garrison (5.2)."""
    r = ring(state, zone)
    flags = state["flags"]
    if r == 3:
        flags["inner"] = True
    if r == MITTE:
        flags["mitte"] = True
        if zone in SECTORS_I_IV:
            flags["sectors"] = True
        if zone == REICHSTAG:
            flags["reichstag"] = True


def german_base_orders(state: State) -> int:
    flags = state["flags"]
    if flags["reichstag"]:
        return 1
    if flags["sectors"]:
        return 2
    if flags["inner"]:
        return 3
    return 4


# --- setup ------------------------------------------------------------------------------------


def initial_state(tables: Mapping[str, Any]) -> State:
    units: dict[str, Any] = {}
    for u in tables["units"]:
        start = u.get("start")
        units[u["id"]] = {
            "side": u["side"],
            "type": u["type"],
            "strength": u["strength"],
            "elite": u["elite"],
            "rebuild": u["rebuild"],
            "yellow": bool(u.get("yellow_dot", False)),
            "zone": start,
            "status": "on" if start else "off",
            "frozen": start == REICHSTAG and u["side"] == "german",
            "group": u.get("reinforcement"),
            "card": u.get("card"),
        }
    zones = list(tables["zones"])
    control = {z: "german" for z in zones if tables["ring"][z] != 0}
    state: State = {
        "turn": 1,
        "phase": "deal",
        "step": "draw",
        "map": {
            "zones": zones,
            "ring": dict(tables["ring"]),
            "limit": copy_json(tables["limit"]),
            "adj": copy_json(tables["adj"]),
        },
        "units": units,
        "control": control,
        "flags": {"inner": False, "sectors": False, "reichstag": False, "mitte": False},
        "german_max": 4,
        "move": None,
        "cards": copy_json(tables["cards"]),
        "decks": copy_json(tables["decks"]),
        "hands": {r: {"slots": {}, "draws": [], "secrets": []} for r in ROLES},
        "plan": None,
        "combat": None,
        "react": None,
        "markers": {},
        "reinforcement_zones": copy_json(tables["reinforcement_zones"]),
        "played": {r: [] for r in ROLES},
        "result": None,
        "log": [],
    }
    return state


def new_move_record(state: State) -> dict[str, Any]:
    return {
        "moved": [],
        "orders": 0,
        "withdrawals": 0,
        "extra": None,  # None, "bought" (German extra move bought), "used"
        "double": None,  # card #24: units allowed to move a second time
        "bonus": 0,  # extra orders from cards
        "order_cards": [],
        "log": [],  # orders carried out this phase, for reaction cards that cancel them
    }
