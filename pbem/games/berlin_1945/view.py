"""What one role may see (None: the public), for summaries and menus: the templates in
templates/berlin-1945 read this view, never the state.

The view is built, not stripped: every unit with its side, strength, zone and status; each
hand as its slots, where a card shows only once played, or to its own side (a committed
card its state knows, a drawn card it computed); the Soviet plan as sealed, the
Soviet's own plan to the Soviet ("mine"), or opened. Nothing a role may not know is ever
copied in, so a view never depends on another role's secrets even when the state it is
computed from holds them.

For a player who plans from the summary alone, `zones` lists every zone in map order,
Areas A-F too (they have no control: the Soviet deployment areas, rulebook 2.1), with its
name, ring, control, stacking limits, neighbours, markers and units; units and cards carry
their names and texts, and `stand_in` where the shipped data calls them stand-ins
(`labels`; a game on its own data files gets no names or texts from here: `data.own`).
"""

from __future__ import annotations

from typing import Any

from pbem.core.canonical import copy_json
from pbem.core.engine import State
from pbem.games.berlin_1945 import labels, tables
from pbem.games.berlin_1945.hands import hand_size, slot_label
from pbem.games.berlin_1945.labels import Labels
from pbem.games.berlin_1945.position import limit
from pbem.games.berlin_1945.rulebook import RING_NAMES, RINGS, ROLES, zone_label
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


def units(state: State, names: Labels | None = None) -> dict[str, dict[str, Any]]:
    t = tables.of(state)
    where = {u: z for side in ROLES for z, us in state["at"][side].items() for u in us}
    removed = set(state["removed"])
    return {
        uid: {
            "id": uid,
            "name": names.units[uid]["name"] if names else None,
            "stand_in": bool(names and names.units[uid]["stand_in"]),
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


def zones(state: State, names: Labels | None) -> list[dict[str, Any]]:
    """Every zone in map order: Areas A-F, Districts, Sectors (rulebook 1, 2.1)."""
    t = tables.of(state)
    out = []
    for z in t.zones:
        name = names.zones[z]["name"] if names else None
        # the map's adjacency is the Soviet one; the German one adds the Mitte sectors (5.1)
        near = t.adj["soviet"][z]
        out.append(
            {
                "id": z,
                "label": zone_label(z, name or ""),
                "name": name,
                "stand_in": bool(names and names.zones[z]["stand_in"]),
                "ring": RINGS[t.ring[z]],
                "ring_name": RING_NAMES[RINGS[t.ring[z]]],
                "control": state["control"].get(z),  # None: an Area (never controlled)
                "limit": {side: limit(state, z, side) for side in ROLES},
                "neighbours": [
                    {"id": n, "stand_in": bool(names and frozenset((z, n)) in names.borders)}
                    for n in near
                ],
                "german_neighbours": [n for n in t.adj["german"][z] if n not in near],
                "markers": [
                    {**m, "stand_in": bool(names and m["kind"] in names.markers)}
                    for m in state["markers"].get(z, [])
                ],
                "units": [u for side in ROLES for u in state["at"][side].get(z, ())],
            }
        )
    return out


def cards(state: State, names: Labels | None) -> dict[str, dict[str, Any]]:
    """Both decks, public (the data files are): names, symbols and, from the shipped data,
    each card's timing and text (None on a game's own data)."""
    out = {}
    for key, card in tables.of(state).cards.items():
        shipped = names.cards.get(key) if names else None
        out[key] = {
            "key": key,
            "deck": card["deck"],
            "number": card["number"],
            "name": card["name"],
            "symbols": list(card["symbols"]),
            "timing": shipped["timing"] if shipped else None,
            "text": shipped["text"] if shipped else None,
            "stand_in": bool(shipped and shipped["stand_in"]),
            "text_stand_in": bool(shipped and shipped["text_stand_in"]),
        }
    return out


def view(state: State, role: str | None) -> State:
    out: State = copy_json({key: state[key] for key in PUBLIC})
    names = labels.for_state(state)
    out["data"] = {"title": names.title if names else None, "own": names is None}
    out["units"] = units(state, names)
    out["zones"] = zones(state, names)
    out["hands"] = {side: hand(state, side, role) for side in ROLES}
    out["plan"] = plan(state, role)
    out["cards"] = cards(state, names)
    return out
