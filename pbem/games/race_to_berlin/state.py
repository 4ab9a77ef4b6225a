"""The Race to Berlin state: its shape, the initial state, and small accessors.

The state is plain JSON data and describes itself for templates:

    game, turn, turns, phase ("logistics" | "action" | "opening" | "strategic" | "over"),
    step (the decision asked for now), first (the player who started the turn),
    active (whose placement, action or strategic move it is),
    map        static: areas (name, terrain, edges, berlin, eagle, front, neighbours,
               rivers), borders, supply edges -- shared between states, never mutated
    areas      area -> {control, fortification (id, name, value, kind, defense) | None}
    units      unit -> {id, name, force, area | None, strength | None, status}
    blocks     every block placed this turn: label, owner, force, area (None once off
               the board), cubes, value (None until opened), revealed, exhausted,
               placed_at (seq), claims [{seq, role, cubes, exhausting}]
    hands      role -> None (sealed; `with_secrets` fills in the owner's own)
    placed     role -> blocks placed this turn;  unplaced: role -> blocks left unused
    cubes      role -> {pool, lost};  markers: role -> {total, used, left}
    tokens     role -> [{id, kind, force, used}]
    eagles     eagle area -> holder role | None;  vp: role -> victory tokens held
    bases      role -> supply base areas the player has held (rulebook 4.4)
    combat     the attack in progress (strengths, modifiers, dice) or None
    last_combat the summary of the last finished attack
    strategic  role -> {own, german, done} during the strategic movement phase
    result     {winner, level, reason} once decided (the game is over after the
               end-of-turn openings)

Players and forces (rulebook 1, 4.1.1): the West player commands the "west" units and
the Eastern Front Germans ("german-east"), the Soviet player "soviet" and the Western
Front Germans ("german-west"). Area control is "west", "soviet" or "german".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pbem.core.canonical import copy_json
from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.data import (
    BERLIN,
    BERLIN_ALLOWED,
    FORCE_CONTROL,
    PLAYER_FORCES,
    STACK_LIMIT,
    SUPPLY_EDGES,
)

State = dict[str, Any]

WEST, SOVIET, GERMAN = "west", "soviet", "german"
ROLES = (WEST, SOVIET)
TURNS = 3
ALLIED = (WEST, SOVIET)

# Player -> its German front, and the reverse.
GERMAN_FORCE = {WEST: "german-east", SOVIET: "german-west"}
NAMES = {WEST: "West", SOVIET: "Soviet", GERMAN: "German"}


def illegal(message: str, rule: str) -> IllegalOrderError:
    """An IllegalOrderError that quotes the rule broken (unless the message already does)."""
    if message.endswith(")") and "(rulebook " in message:
        return IllegalOrderError(f"illegal: {message}")
    return IllegalOrderError(f"illegal: {message} (rulebook {rule})")


def other(role: str) -> str:
    return SOVIET if role == WEST else WEST


def clone(value: Any) -> Any:
    """A deep copy of plain JSON data (the core's shared fast copy)."""
    return copy_json(value)


def clone_state(state: State) -> State:
    """A copy of the state to change; the static map is shared, never mutated."""
    static = state.get("map")
    copied: State = clone({k: v for k, v in state.items() if k != "map"})
    if static is not None:
        copied["map"] = static
    return copied


# --- setup ------------------------------------------------------------------------------------


def initial_state(data: Mapping[str, Any]) -> State:
    """The state before the first Logistics Phase (rulebook 2)."""
    areas_map = {}
    for area_id in data["area_ids"]:
        a = data["areas"][area_id]
        areas_map[area_id] = {
            "id": area_id,
            "name": a["name"],
            "terrain": a["terrain"],
            "edges": list(a["edges"]),
            "berlin": a["berlin"],
            "eagle": a["eagle"],
            "front": a["front"],
            "neighbours": list(a["neighbours"]),
            "rivers": list(a["rivers"]),
        }
    static = {
        "title": data["title"],
        "area_ids": list(data["area_ids"]),
        "areas": areas_map,
        "borders": [list(b["areas"]) for b in data["borders"]],
        "supply_edges": {p: list(e) for p, e in SUPPLY_EDGES.items()},
    }
    areas: dict[str, Any] = {
        a: {"control": data["areas"][a]["control"], "fortification": None} for a in data["area_ids"]
    }
    for fort in data["fortifications"]:
        areas[fort["area"]]["fortification"] = {
            "id": fort["id"],
            "name": fort["name"],
            "value": fort["value"],
            "kind": fort["kind"],
            "defense": fort["defense"],
        }
    units: dict[str, Any] = {}
    for u in data["units"]:
        german = u["force"] in ("german-west", "german-east")
        units[u["id"]] = {
            "id": u["id"],
            "name": u["name"],
            "force": u["force"],
            "area": None if u.get("reserve") else u["area"],
            "strength": u.get("strength") if german else None,
            "status": "reserve" if u.get("reserve") else "board",
            "replaces": u.get("replaces") or None,
        }
    eagles = {a: None for a in data["area_ids"] if data["areas"][a]["eagle"] in ("blue", "red")}
    bases = {
        p: [
            a
            for a in data["area_ids"]
            if areas[a]["control"] == p and set(data["areas"][a]["edges"]) & set(SUPPLY_EDGES[p])
        ]
        for p in ROLES
    }
    state: State = {
        "game": "race-to-berlin",
        "turn": 1,
        "turns": TURNS,
        "phase": "logistics",
        "step": "place",
        "first": SOVIET,
        "active": SOVIET,
        "map": static,
        "areas": areas,
        "units": units,
        "blocks": [],
        "hands": {p: None for p in ROLES},
        "block_values": {p: list(data["logistics"][p]) for p in ROLES},
        "placed": {p: 0 for p in ROLES},
        "unplaced": {p: 0 for p in ROLES},
        "cubes": {p: {"pool": data["action_cubes"], "lost": 0} for p in ROLES},
        "cubes_total": data["action_cubes"],
        "markers": {p: {"total": data["front_markers"], "used": 0, "left": 0} for p in ROLES},
        "tokens": {p: [dict(t, used=False) for t in data["special"][p]] for p in ROLES},
        "eagles": eagles,
        "vp": {p: 0 for p in ROLES},
        "bases": bases,
        "stranded": [],
        "actions": 0,
        "combat": None,
        "last_combat": None,
        "strategic": None,
        "result": None,
    }
    return state


# --- who controls what ------------------------------------------------------------------------


def force_player(force: str) -> str:
    """The player who commands a unit force ("west", "soviet", "german-west", "german-east")."""
    return WEST if force in PLAYER_FORCES[WEST] else SOVIET


def control_of(force: str) -> str:
    """The area control a unit force is friendly to."""
    return str(FORCE_CONTROL[force])


def is_german(force: str) -> bool:
    return force.startswith("german")


def unit_control(state: State, unit_id: str) -> str:
    return control_of(state["units"][unit_id]["force"])


def units_in(state: State, area: str) -> list[str]:
    """Every unit on the board in `area`, in data order."""
    return [u for u, rec in state["units"].items() if rec["area"] == area]


def controlled_units_in(state: State, area: str, role: str) -> list[str]:
    """The units in `area` that `role` commands."""
    forces = PLAYER_FORCES[role]
    return [
        u for u, rec in state["units"].items() if rec["area"] == area and rec["force"] in forces
    ]


def force_units_in(state: State, area: str, control: str) -> list[str]:
    """The units in `area` friendly to `control` ("west", "soviet" or "german")."""
    return [
        u
        for u, rec in state["units"].items()
        if rec["area"] == area and FORCE_CONTROL[rec["force"]] == control
    ]


def berlin_count(state: State, control: str) -> int:
    """Units of one force in all of Berlin (rulebook 4.5: at most 3)."""
    return sum(
        1
        for rec in state["units"].values()
        if rec["area"] in BERLIN and FORCE_CONTROL[rec["force"]] == control
    )


# --- blocks -----------------------------------------------------------------------------------


def block_by_label(state: State, label: str) -> dict[str, Any]:
    for block in state["blocks"]:
        if block["label"] == label:
            return block
    raise KeyError(label)


def blocks_in(state: State, area: str) -> list[dict[str, Any]]:
    """Blocks on the board in `area` (B1 may hold two, one per player)."""
    return [b for b in state["blocks"] if b["area"] == area]


def own_block_in(state: State, area: str, role: str) -> dict[str, Any] | None:
    for b in state["blocks"]:
        if b["area"] == area and b["owner"] == role:
            return b
    return None


def on_board(state: State, role: str | None = None) -> list[dict[str, Any]]:
    return [
        b for b in state["blocks"] if b["area"] is not None and (role is None or b["owner"] == role)
    ]


def is_active(block: Mapping[str, Any]) -> bool:
    """On the board and not exhausted (rulebook 4.1: cubes below the value)."""
    return block["area"] is not None and not block["exhausted"]


def known_value(block: Mapping[str, Any]) -> int | None:
    """The block's value if this state knows it (opened, or the owner's own state)."""
    value = block["value"]
    return value if isinstance(value, int) else None


def pool(state: State, role: str) -> int:
    return int(state["cubes"][role]["pool"])


# --- map --------------------------------------------------------------------------------------


def area_name(state: State, area: str) -> str:
    return f"{area} ({state['map']['areas'][area]['name']})"


def neighbours(state: State, area: str) -> list[str]:
    return list(state["map"]["areas"][area]["neighbours"])


def adjacent(state: State, a: str, b: str) -> bool:
    return b in state["map"]["areas"][a]["neighbours"]


def is_river(state: State, a: str, b: str) -> bool:
    return b in state["map"]["areas"][a]["rivers"]


def control(state: State, area: str) -> str:
    return str(state["areas"][area]["control"])


def in_berlin(area: str) -> bool:
    return area in BERLIN


def berlin_allowed(area: str, control_: str) -> bool:
    """Rulebook 4.5: Germans only in B1, the West only in B4/B5, the Soviets only in B2/B3
    (and B1 for an Allied player, which wins the game at once)."""
    if area not in BERLIN:
        return True
    if area == "B1":
        return True
    return area in BERLIN_ALLOWED[control_]


class Index:
    """Units by area, computed once for many questions about one unchanged state."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.by_area: dict[str, list[str]] = {}
        for unit, rec in state["units"].items():
            if rec["area"] is not None:
                self.by_area.setdefault(rec["area"], []).append(unit)

    def units_in(self, area: str) -> list[str]:
        return self.by_area.get(area, [])

    def controlled(self, area: str, role: str) -> list[str]:
        forces = PLAYER_FORCES[role]
        units = self.state["units"]
        return [u for u in self.by_area.get(area, []) if units[u]["force"] in forces]


def room_for(
    state: State,
    area: str,
    control_: str,
    leaving: Iterable[str] = (),
    ix: Index | None = None,
) -> int:
    """How many more units of `control_` may enter `area` (3 per area; 3 per force in
    Berlin), counting `leaving` units as gone."""
    gone = set(leaving)
    present = ix.units_in(area) if ix is not None else units_in(state, area)
    here = sum(1 for u in present if u not in gone)
    room = STACK_LIMIT - here
    if area in BERLIN:
        inside = sum(
            1
            for u, rec in state["units"].items()
            if rec["area"] in BERLIN and FORCE_CONTROL[rec["force"]] == control_ and u not in gone
        )
        room = min(room, STACK_LIMIT - inside)
    return max(room, 0)


def natural(area: str) -> tuple[int, int, str]:
    """Numbered areas by number, then B1..B5."""
    if area.isdigit():
        return (0, int(area), "")
    return (1, 0, area)
