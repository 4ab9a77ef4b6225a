"""What one role may see (None: the public), for summaries and menus: the templates in
templates/berlin-1945 read this view, never the state.

The view is built, not stripped: every unit with its side, strength, zone and status; each
hand as its slots, where a card shows only once played, or to its own side (a committed
card its state knows, a drawn card it computed); the Soviet plan as sealed, the
Soviet's own plan to the Soviet ("mine"), or opened. Nothing a role may not know is ever
copied in, so a view never depends on another role's secrets even when the state it is
computed from holds them.
"""

from __future__ import annotations

from typing import Any

from pbem.core.canonical import copy_json
from pbem.core.engine import State
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.hands import hand_size, slot_label
from pbem.games.berlin_1945.rulebook import ROLES
from pbem.kit import decks

# the public bookkeeping of the game sequence, shown as it is
PUBLIC = (
    "turn",
    "phase",
    "step",
    "todo",
    "german_max",
    "reinforced",
    "control",
    "flags",
    "move",
    "combat",
    "react",
    "markers",
    "played",
    "result",
)


def units(state: State) -> dict[str, dict[str, Any]]:
    t = tables.of(state)
    where = {u: z for side in ROLES for z, us in state["at"][side].items() for u in us}
    removed = set(state["removed"])
    return {
        uid: {
            "side": unit.side,
            "type": unit.type,
            "strength": unit.strength,
            "elite": unit.elite,
            "yellow": unit.yellow,
            "zone": where.get(uid),
            "status": "on" if uid in where else "removed" if uid in removed else "off",
        }
        for uid, unit in t.units.items()
    }


def hand(state: State, side: str, role: str | None) -> dict[str, Any]:
    held = state["hands"][side]
    slots: dict[str, dict[str, Any]] = {}
    for k, piece in held["slots"].items():
        shown = piece["revealed"] or (piece.get("known") and piece["owner"] == role)
        slots[k] = {
            "label": piece["label"],
            "status": piece["status"],
            "card": piece["value"] if shown else None,
        }
    drawn = held.get("drawn", {}) if side == role else {}
    for k in held["pending"]:
        slots[str(k)] = {
            "label": slot_label(side, k),
            "status": "pending",
            "card": drawn.get(str(k)),
        }
    return {
        "slots": slots,
        "in_hand": hand_size(state, side),
        "deck": decks.left(state["decks"][side]),
    }


def plan(state: State, role: str | None) -> dict[str, Any] | None:
    piece = state["plan"]
    if piece is None:
        return None
    out: dict[str, Any] = {
        "label": piece["label"],
        "placed_at": piece["placed_at"],
        "orders": piece["value"] if piece["revealed"] else None,
        "status": piece.get("status"),
    }
    if not piece["revealed"] and piece.get("known") and role == piece["owner"]:
        out["mine"] = piece["value"]
    return copy_json(out)


def view(state: State, role: str | None) -> State:
    out: State = copy_json({key: state[key] for key in PUBLIC})
    t = tables.of(state)
    out["units"] = units(state)
    out["hands"] = {side: hand(state, side, role) for side in ROLES}
    out["plan"] = plan(state, role)
    out["cards"] = {
        key: {"number": card["number"], "name": card["name"], "symbols": list(card["symbols"])}
        for key, card in t.cards.items()
    }
    return out
