"""The Race to Berlin state: its shape, the initial state, and small accessors.

The state is plain JSON data and describes itself for templates:

    game, turn, turns, phase ("logistics" | "action" | "opening" | "strategic" | "over"),
    step (the decision asked for now), first (the player who started the turn),
    active (whose placement, action or strategic move it is),
    map        static: areas (name, terrain, edges, berlin, eagle, front, neighbours,
               rivers), area_ids (map order), area_keys (lower case -> id, for the
               parser), borders, sources (control -> the areas that are its supply
               sources while it holds them) -- shared between states, never changed
    areas      area -> {control, fortification (id, name, value, kind, defense) | None}
    units      unit -> {id, name, force, area | None, strength | None, status}
    blocks     every block placed this turn, a hidden piece of the kit (pbem.kit.pieces):
               label, owner, value (None until opened), revealed, placed_at (seq),
               claims [{seq, by, cubes, exhausting}], due; and the game's force, area
               (None once off the board), cubes, exhausted, off (why it left the board)
    hands      role -> None (sealed; `with_secrets` fills in the owner's own)
    block_values role -> the values of its 8 logistics blocks (rulebook 4.1; static)
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

`copy_state` copies a state knowing this shape (several times faster than a generic deep
copy, and `apply` copies the state once per entry); the static map and the block values
are shared, the blocks and the small parts (`LAZY_PARTS`) until the copy changes one
(`writable_block`, `own_part`: copy on write), and so are the parts only ever replaced
whole, never changed in place: the unit and area records (`update_unit`, `update_area`
replace them), `hands` (replaced whole: the public state's are None, `with_secrets` makes
new ones), the special tokens' records (`tokens.use_token`), fortifications, the parts of
the attack in progress named in `_copy_combat`, `last_combat` and `result`. The tests'
check that `apply` never changes its input (every rulebook test, and the bot games) guards
this.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import repeat
from operator import is_, itemgetter
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
    area_graph,
)
from pbem.kit.owned_parts import PartOwners
from pbem.maps.areas import AreaGraph

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


def refuse(problem: str | None, rule: str) -> None:
    """Refuse a decision when a rules check (a `*_problem` function, which the choices
    also ask) found a problem with it, quoting the rule broken."""
    if problem is not None:
        raise illegal(problem, rule)


def other(role: str) -> str:
    return SOVIET if role == WEST else WEST


# --- copies -----------------------------------------------------------------------------------

# Scalars, and parts shared between copies: the static map, and the parts that are
# replaced whole and never changed in place.
SHARED = frozenset(
    {
        "game",
        "turn",
        "turns",
        "phase",
        "step",
        "first",
        "active",
        "cubes_total",
        "actions",
        "map",
        "block_values",
        "last_combat",
        "result",
        "hands",
    }
)
# Parts whose shape `copy_state` knows (every other key is deep-copied).
KNOWN = SHARED | {
    "areas",
    "units",
    "blocks",
    "tokens",
    "cubes",
    "markers",
    "strategic",
    "bases",
    "placed",
    "unplaced",
    "eagles",
    "vp",
    "stranded",
    "combat",
}


# --- blocks, copy on write ---------------------------------------------------------------------
# A copy of a state shares its blocks (a dozen dicts or more, most of them unchanged by an
# entry) with the state it copies until it changes one: every change of a block goes
# through `writable_block` (the rules' own changes, and the kit's reveals, settle and views
# through the engine's `writable` hook), which copies the block into the state's list first
# unless the state made it or copied it already. What tells the two apart is kept outside
# the state (its JSON and its views are unchanged): for a blocks list, a list of the block
# dicts it may share (its source's blocks when `share_blocks` made it). A list that is
# copied in turn shares every block from then on (its record is dropped), and a list with no
# record (a state from a snapshot, a test, a record dropped when the memo was full, a list
# a handler made anew) is recorded at its first change as sharing every block it holds then:
# never a block changed that another state holds, at worst one copy more.

_SHARED_BLOCKS: dict[int, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}
_KEPT = 64  # (a verifier needs the newest copy or two, a bot a few more)


def share_blocks(source: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of a state's blocks list that shares its blocks until it changes them."""
    copy = source.copy()
    _SHARED_BLOCKS.pop(id(source), None)  # `source` is copied: its blocks are shared now
    if len(_SHARED_BLOCKS) >= _KEPT:
        _SHARED_BLOCKS.clear()
    _SHARED_BLOCKS[id(copy)] = (copy, source)
    return copy


def writable_block(state: State, block: dict[str, Any]) -> dict[str, Any]:
    """The block of `state` that `block` is (the very dict, or one with its label: a
    reference taken before an earlier change copied it), this state's own to change in
    place: copied first if another state may hold it. Read the block from what this
    returns, never from a reference taken before."""
    blocks = state["blocks"]
    try:
        at = [*map(is_, blocks, repeat(block))].index(True)
    except ValueError:
        label = block["label"]
        at = next(n for n, b in enumerate(blocks) if b["label"] == label)
    current = blocks[at]
    record = _SHARED_BLOCKS.get(id(blocks))
    if record is None or record[0] is not blocks:
        record = _SHARED_BLOCKS[id(blocks)] = (blocks, blocks.copy())  # (all shared, maybe)
    elif not any(map(is_, record[1], repeat(current))):
        return current  # made or copied in this state
    current = blocks[at] = current.copy()
    return current


def forget_shared_blocks() -> None:
    """Drop every record (tests: a list without one copies each block it first changes)."""
    _SHARED_BLOCKS.clear()


# --- the small parts, copy on write ------------------------------------------------------------
# The parts a few rules change in place (the area and unit records, which `update_area` and
# `update_unit` replace, the cube pools, the markers, the eagles and victory points, the
# bases, the stranded areas, the placements, the tokens, the strategic moves)
# are shared between a state and its copy until the copy changes one: every change goes
# through `own_part`, which copies the part by its shape first unless the state made or
# copied it already. Kept outside the state as the blocks' records are: for a state, the
# parts it owns; a state that is copied owns none from then on, and a state with no record
# copies each part at its first change.

LAZY_PARTS = (
    "areas",
    "units",
    "tokens",
    "cubes",
    "markers",
    "bases",
    "strategic",
    "placed",
    "unplaced",
    "eagles",
    "vp",
    "stranded",
)


def _two_levels(part: Any) -> Any:
    """A part kept per player, each player's value copied (None stays None)."""
    if part is None:
        return None
    copied: dict[str, Any] = {}
    for role, value in part.items():
        copied[role] = value.copy()
    return copied


_COPY_PART: dict[str, Callable[[Any], Any]] = {
    "areas": dict.copy,
    "units": dict.copy,
    "tokens": _two_levels,
    "cubes": _two_levels,
    "markers": _two_levels,
    "bases": _two_levels,
    "strategic": _two_levels,
    "placed": dict.copy,
    "unplaced": dict.copy,
    "eagles": dict.copy,
    "vp": dict.copy,
    "stranded": list.copy,
}
_PART_OWNERS = PartOwners(_COPY_PART)
own_part = _PART_OWNERS.own_part  # (`state[key]`, one of LAZY_PARTS, this state's own to change)
forget_owned_parts = _PART_OWNERS.forget


# The parts `copy_state` does not read, looked up in C; KNOWN's size.
_SHARED_PARTS = itemgetter(*SHARED)
_LAZY_READ = itemgetter(*LAZY_PARTS)
_KNOWN_COUNT = len(KNOWN)


def _copy_combat(combat: dict[str, Any]) -> dict[str, Any]:
    """The attack in progress: its `dice` and `rerolled` change in place (a re-roll); its
    support, tokens, strengths and totals are replaced whole, never changed in place."""
    new = combat.copy()
    new["defenders"] = combat["defenders"].copy()
    new["rerolled"] = combat["rerolled"].copy()
    if combat["dice"] is not None:
        new["dice"] = combat["dice"].copy()  # each side's pair of dice is replaced whole
    return new


def copy_state(state: State) -> State:
    """A copy of the state to change (see the module docstring for what is shared)."""
    # (`.copy()` of each dict, not `dict(...)` or `{**...}`: the same copy, but a dict's
    # `.copy()` clones its table at once where the others insert key by key)
    new: State = state.copy()
    new["blocks"] = share_blocks(state["blocks"])  # (each copied when first changed)
    # the small parts are shared until changed (`own_part`): `state` is copied, so it owns
    # none of them from now on, and the copy none yet
    _PART_OWNERS.shared(state, new)
    _LAZY_READ(state)  # (every part there: KeyError as a copy of each would raise)
    if state["combat"] is not None:
        new["combat"] = _copy_combat(state["combat"])
    # A state of these rules has no other part: its keys are KNOWN's, which the parts read
    # above and `_SHARED_PARTS` show in C (a part missing raises KeyError) when there are
    # as many as KNOWN has (a set of the keys to compare would cost more than the rest).
    if len(state) != _KNOWN_COUNT:
        _copy_unknown(state, new)
    else:
        try:
            _SHARED_PARTS(state)
        except KeyError:
            _copy_unknown(state, new)
    return new


def _copy_unknown(state: State, new: State) -> None:
    """Any part these rules do not know, copied whole."""
    if not KNOWN.issuperset(state):
        for key in state.keys() - KNOWN:
            new[key] = copy_json(state[key])


def update_unit(state: State, unit: str, **changes: Any) -> dict[str, Any]:
    """Change a unit's record by replacing it (copies of the state share the records);
    returns the new record."""
    record = {**state["units"][unit], **changes}
    own_part(state, "units")[unit] = record
    return record


def update_area(state: State, area: str, **changes: Any) -> dict[str, Any]:
    """Change an area's record (control, fortification) by replacing it (see above)."""
    record = {**state["areas"][area], **changes}
    own_part(state, "areas")[area] = record
    return record


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
        "area_keys": {a.lower(): a for a in data["area_ids"]},  # for the parser
        "areas": areas_map,
        "borders": [list(b["areas"]) for b in data["borders"]],
        # rulebook 4.4: the areas that are a force's supply source while it holds them
        "sources": {
            **{
                p: [a for a in data["area_ids"] if set(data["areas"][a]["edges"]) & set(e)]
                for p, e in SUPPLY_EDGES.items()
            },
            GERMAN: [a for a in data["area_ids"] if data["areas"][a]["eagle"]],
        },
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


def pool(state: State, role: str) -> int:
    return int(state["cubes"][role]["pool"])


# --- map --------------------------------------------------------------------------------------


def area_name(state: State, area: str) -> str:
    return f"{area} ({state['map']['areas'][area]['name']})"


def graph(state: State) -> AreaGraph:
    """The board as an area graph, built once from the static map (`data.area_graph`)."""
    return area_graph(state["map"])


def neighbours(state: State, area: str) -> list[str]:
    return list(graph(state).neighbours(area))


def adjacent(state: State, a: str, b: str) -> bool:
    return graph(state).adjacent(a, b)


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
