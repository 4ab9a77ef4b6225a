"""Götterdämmerung: the engine's state, its set-up and what the rules read from it.

The state is plain JSON (docs/gotterdammerung.md, "The engine"):

    board, tables, counters   the loaded data files, shared by every copy (`static_keys`)
    options                   the optional rules chosen at game creation (12.1-12.5) and
                              the starting Support Points
    seats                     role -> side (pbem.kit.seats): the identity, or as 12.4's bid
                              decides
    turn, phase, step         where the turn sequence (3.1, phases.py) stands
    units      id -> unit dict (the shape zoc.py, combat.py and supply.py take): `side`,
               `hex` (a map id, or "ngp" in the North German Plain Box), `steps`,
               `disrupted`, `out_of_supply`, `defence_only` (8.18), `delays` (Delay markers
               not yet turned over, 6.82), `artillery` (6.91), `volkssturm` (a Volkssturm
               unit: its strength, once revealed, is its own `attack`/`defence`/`movement`,
               8.45) and this phase's flags (`moved`, `attacked`, `defended`, `advanced`,
               `retreated_into`)
    waiting    reinforcements not yet on the map: id -> {turn, at, rail}
    destroyed  ids of destroyed units, in order (8.32-8.33 bring some back; 11.14)
    gone       ids removed without being destroyed (9.13, 9.35, 9.4)
    cups       the 12th Army cup (9.32) and the Volkssturm units not yet drawn (8.42);
               the Volkssturm strengths not yet revealed (`vs_mix`, 8.45) and the Delay
               markers not revealed since the last German Combat Phase (`delay_pool`, 6.85)
    occupied   hexes with a Soviet Occupied marker (5.47, 11.12)
    support_points, bonus (11.16), elbe (11.17), vlasov (9.4), ubahn (12.14: "demolished")
    moving     the unit whose move is under way (5.15) and the points it has left
    combat     the combat being resolved (fighting.py), None between combats

Nothing is hidden from one side only, except the 12.4 bid (a sealed round): Delay markers
and Volkssturm strengths are unknown to both and drawn by public dice at the reveal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from pbem.core.canonical import JSON, copy_json
from pbem.core.engine import State
from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import arrivals, zoc
from pbem.games.gotterdammerung import combat as cb
from pbem.games.gotterdammerung import counters as gc
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung.units_owned import forget as forget_owned
from pbem.games.gotterdammerung.units_owned import owned as _owned
from pbem.kit import seats

SIDES = ("soviet", "german")
NAMES = {"soviet": "the Soviet player", "german": "the German player"}
STATIC_KEYS = ("board", "tables", "counters")
NGP = "ngp"
_OFF_MAP = frozenset({None, NGP})  # a unit's "hex" when it is on neither map
FLAGS = ("moved", "attacked", "defended", "advanced", "retreated_into")
SUPPORT_POINTS = 12  # 6.59 (the default; 10.3 prints 15: an option)
CURSE_DELTA = -2  # 12.24: 12 -> 10
SIXTH_SS_DELTA = 5  # 12.36: 12 -> 17
OPTIONS = ("support_points", "underground", "curse", "sixth_ss", "bidding", "short_boundary")


def other(side: str) -> str:
    return cb.other(side)


CITED = re.compile(r"\((?:rulebook )?[0-9]+\.[0-9][^()]*\)\Z")  # "... (6.52)" at the end


def illegal(message: str, rule: str) -> IllegalOrderError:
    """A refusal quoting the rule broken, unless the message already ends with its rule
    (the pure rule modules' messages do: "... (6.52)")."""
    if CITED.search(message):
        return IllegalOrderError(f"illegal: {message}")
    return IllegalOrderError(f"illegal: {message} (rulebook {rule})")


# --- options (12) -------------------------------------------------------------------------------


def read_options(options: Mapping[str, JSON]) -> dict[str, Any]:
    """The game's options: booleans for 12.1-12.5 and the starting Support Points. Without
    `support_points`, 6.59's 12, less 2 with Hitler's Curse (12.24: 10) and plus 5 with the 6th
    SS Panzer Army (12.36: 17); both together give 15, which is also 10.3's figure."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(
            f"unknown option {', '.join(unknown)} (gotterdammerung has {', '.join(OPTIONS)})"
        )
    out: dict[str, Any] = {}
    for name in OPTIONS[1:]:
        value = options.get(name, False)
        if not isinstance(value, bool):
            raise ValueError(f"option {name} is true or false, not {value!r}")
        out[name] = value
    points = options.get("support_points")
    if points is None:
        points = SUPPORT_POINTS
        points += CURSE_DELTA if out["curse"] else 0
        points += SIXTH_SS_DELTA if out["sixth_ss"] else 0
    if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 99:
        raise ValueError(f"option support_points is a number 0-99, not {points!r}")
    out["support_points"] = points
    return out


# --- set-up (10) -------------------------------------------------------------------------------


def new_unit(data: Mapping[str, Any], uid: str, h: str | None) -> dict[str, Any]:
    counter = data["units"][uid]
    return {
        "id": uid,
        "side": counter["side"] if counter["side"] != "american" else "soviet",
        "nationality": counter["nationality"],
        "hex": h,
        "steps": int(counter["steps"]),
        "disrupted": False,
        "out_of_supply": False,
        "delays": 0,
    }


def new_vs_unit(uid: str, h: str) -> dict[str, Any]:
    """A Volkssturm unit placed face down (8.44): its strength is not drawn yet."""
    return {
        "id": uid,
        "side": "german",
        "nationality": "german",
        "hex": h,
        "steps": 1,
        "disrupted": False,
        "out_of_supply": False,
        "delays": 0,
        "volkssturm": True,
    }


def place_hex(counter: Mapping[str, Any]) -> str | None:
    place = counter.get("place") or {}
    if place.get("hex") is None or place.get("map") is None:
        return None
    return md.ref(str(place["map"]), int(place["hex"]))


SHORT_BOUNDARY = ("op:2520|op:2521", "op:3615|op:3716")  # 12.51, both ends included


def board_for(board: Mapping[str, Any], options: Mapping[str, Any]) -> Mapping[str, Any]:
    """The map as the options play it: 12.35 removes the 1BF/2BF boundary for movement,
    retreat and advance (with the 6th SS Panzer Army; supply still comes from a depot of the
    unit's own front, 8.12); 12.51 removes the 1BF/1UF boundary from 2520/2521 to 3615/3716.
    A new map object, made once at set-up (the loaded one is shared, never changed)."""
    fronts = dict(board["fronts"])
    if options.get("sixth_ss"):
        fronts.pop("1bf-2bf", None)
    if options.get("short_boundary") and "1bf-1uf" in fronts:
        segment = set(_segment(board, fronts["1bf-1uf"], *SHORT_BOUNDARY))
        fronts["1bf-1uf"] = [key for key in fronts["1bf-1uf"] if key not in segment]
    if fronts == board["fronts"]:
        return board
    return {**board, "fronts": fronts}


def _segment(board: Mapping[str, Any], keys: list[str], start: str, end: str) -> list[str]:
    """The hexsides of a boundary line from `start` to `end`, both included: those joined to
    `start` without passing `end`. Two hexsides of a line are joined when they meet at a
    corner: they share one hex and their other hexes touch. [] if an end is not on it."""
    if start not in keys or end not in keys:
        return []
    sides = {key: tuple(key.split("|")) for key in keys}

    def joined(a: str, b: str) -> bool:
        shared = set(sides[a]) & set(sides[b])
        if len(shared) != 1:
            return False
        x = next(h for h in sides[a] if h not in shared)
        y = next(h for h in sides[b] if h not in shared)
        return md.adjacent(board, x, y)

    found = {start}
    todo = [start]
    while todo:
        key = todo.pop()
        if key == end:
            continue  # the line goes on beyond `end`: not part of the segment
        for other in keys:
            if other not in found and joined(key, other):
                found.add(other)
                todo.append(other)
    return sorted(found) if end in found else []


def initial_state(data: Mapping[str, Any], options: Mapping[str, Any]) -> State:
    """10.0-10.4: the Soviet units at their (stand-in) chart hexes, full strength, with the
    out-of-supply marks of 10.12; German units with a fixed chart hex placed, the A-J units
    waiting for the German player's deployment (10.22); the three cups filled (10.4)."""
    counters = data["counters"]
    units: dict[str, Any] = {}
    waiting: dict[str, Any] = {}
    for side in ("soviet", "german"):
        for uid in gc.initial(counters, side):
            counter = counters["units"][uid]
            h = place_hex(counter)
            if h is None:
                continue  # A-J units: the German deployment step places them
            unit = new_unit(counters, uid, h)
            unit["out_of_supply"] = bool(counter["place"].get("out_of_supply"))  # 10.12
            units[uid] = unit
    for uid, counter in counters["units"].items():
        place = counter.get("place") or {}
        if place.get("turn") is not None:
            fixed = md.ref(md.OP, int(place["hex"])) if place.get("hex") is not None else None
            waiting[uid] = {
                "turn": int(place["turn"]),
                "at": place["at"],
                "hex": fixed,  # 9.21: Moltke enters at hex 3220, not at a lettered entry
                "rail": place["rail"],
            }
    mix = gc.volkssturm_mix(counters)
    state: State = {
        "board": board_for(data["map"], options),
        "tables": data["tables"],
        "counters": counters,
        "options": dict(options),
        "turn": 0,
        "phase": "setup",
        "step": "artillery",
        "units": units,
        "waiting": waiting,
        "destroyed": [],
        "gone": [],
        "cups": {
            "twelfth": sorted(gc.group(counters, "12th-army")),  # 9.32
            "volkssturm": [f"vs-{n:02d}" for n in range(1, gc.VOLKSSTURM + 1)],  # 8.42
        },
        "vs_mix": dict(mix),
        "delay_pool": {str(k): v for k, v in gc.delay_mix(counters).items()},
        "occupied": [],
        "support_points": int(options["support_points"]),
        "bonus": [],
        "elbe": None,
        "vlasov": None,
        "ubahn": None,
        "bid_vp": 0,
        "moving": None,
        "combat": None,
        "phase_data": {},
        "log": [],
    }
    seats.seat(state, SIDES, None if options["bidding"] else {s: s for s in SIDES})
    return state


def copy_state(state: State) -> State:
    """A copy to change: the static data shared; the units (flat dicts of plain values,
    the bulk of the state) shared with the original until one is changed (`own`), the rest
    copied as JSON, but for the parts the rules only ever replace (`_REPLACED_ONLY`).
    Neither copy owns any unit afterwards: a change to either copies it.

    Its keys come in the order of the original's, but for `_TAIL` last. A state made by
    copy_state already has them so (unless the rules added a key since): then the copy
    starts as the original's `.copy()` and only the parts to copy are replaced."""
    if tuple(state)[-_TAILED:] == _TAIL:
        new: State = state.copy()
        for k, v in state.items():
            if type(v) not in _LEAVES and k not in _AS_THEY_ARE:
                new[k] = _copy_plain(v)
    else:
        new = {
            k: v if type(v) in _LEAVES or k in _REPLACED_ONLY else _copy_plain(v)
            for k, v in state.items()
            if k not in _SHARED_KEYS
        }
        for key in _TAIL:
            if key in state:
                new[key] = state[key]
    # the waiting reinforcements: each entry is replaced, never changed in place (one dict
    # per unit still to come: two thirds of what was copied as JSON at the start)
    new["waiting"] = dict(state["waiting"])
    units = state["units"]
    forget_owned(units)  # its unit dicts are shared from now on
    new["units"] = dict(units)
    return new


_SHARED_KEYS = frozenset((*STATIC_KEYS, "units", "waiting"))  # (copy_state: not as JSON)
_LEAVES = frozenset((str, int, bool, float, type(None)))  # (immutable: shared by a copy)
# The parts of the state that the rules set whole and never change in place (the options
# chosen at set-up; the summary of the last combat, made anew when a combat ends): a copy
# shares them. tests/games/gotterdammerung/test_gd_copy_on_write.py: applying an entry
# never changes the state it is applied to.
_REPLACED_ONLY = frozenset(("options", "last_combat"))
_AS_THEY_ARE = _SHARED_KEYS | _REPLACED_ONLY  # (copy_state's `.copy()`: not replaced)
_TAIL = ("waiting", "units", *STATIC_KEYS)  # (a copy's last keys, in this order)
_TAILED = len(_TAIL)
_join = "".join


def _copy_plain(value: Any) -> Any:
    """A deep copy of the state's other parts (small dicts and lists of plain values): each
    dict and list anew, the immutable values in them shared; anything else (a JSON state
    holds nothing else) as copy_json copies it. Cheaper than a marshal round trip for these
    few hundred values (tests/games/gotterdammerung/test_gd_lean_paths.py: equal to
    copy_json's, and nothing mutable shared). A list of strings only (ids and hexes: most
    of them) is copied at once: `"".join` takes it whole exactly when every item is one. A
    dict is copied at once, then what in it is not plain is replaced by its own copy."""
    kind = type(value)
    if kind is list:
        try:
            _join(value)
        except TypeError:  # (an item that is not a string: each copied as it needs)
            return [v if type(v) in _LEAVES else _copy_plain(v) for v in value]
        return value.copy()
    if kind is dict:
        out = value.copy()
        for k, v in value.items():
            if type(v) not in _LEAVES:
                out[k] = _copy_plain(v)
        return out
    if kind in _LEAVES:
        return value
    return copy_json(value)


# --- copy-on-write units ---------------------------------------------------------------------
#
# `copy_state` shares the unit dicts between a state and its copy (an entry changes a few
# units; copying all 150 of them was a fifth of a verification's rules). The rules change a
# unit only through `own` (or `put` for a new one), which first gives this state a unit dict
# of its own; which dicts a units mapping alone holds is kept by units_owned.py, outside the
# state (the state's JSON is unchanged), where zoc_index also reads it.
# tests/games/gotterdammerung/test_gd_copy_on_write.py: applying an entry never changes the
# state it is applied to, and games are those of deep copies.


def own(state: State, uid: str) -> dict[str, Any]:
    """Unit `uid` of `state` as a dict that no other state holds: the one to change. Take
    it before reading what is to change, and change it through what this returns."""
    units = state["units"]
    owned = _owned(units)
    unit: dict[str, Any] = units[uid]
    if uid not in owned:
        unit = units[uid] = dict(unit)
        owned.add(uid)
    return unit


def put(state: State, unit: dict[str, Any]) -> dict[str, Any]:
    """Place a new unit dict (one no state holds yet) in `state`, owned by it."""
    units = state["units"]
    units[unit["id"]] = unit
    _owned(units).add(unit["id"])
    return unit


def set_field(state: State, uid: str, key: str, value: Any) -> None:
    """`own(state, uid)[key] = value`, without copying a unit that already holds exactly
    that value (the same type too: False and 0 serialise differently)."""
    unit = state["units"][uid]
    if key in unit:
        old = unit[key]
        if old is value or (type(old) is type(value) and old == value):
            return
    own(state, uid)[key] = value


def set_for_all(state: State, key: str, value: Any) -> None:
    """`set_field(state, uid, key, value)` for every unit: those that already hold exactly
    `value` are found in one pass and left as they are (most of them, at a phase's end)."""
    kind = type(value)
    changed = [
        uid
        for uid, unit in state["units"].items()
        if (old := unit.get(key, _ABSENT)) is not value and not (type(old) is kind and old == value)
    ]
    for uid in changed:
        own(state, uid)[key] = value


_ABSENT = object()  # (set_for_all: a unit without the field holds no value yet)


# --- reading the state -----------------------------------------------------------------------


def counter(state: State, uid: str) -> Mapping[str, Any]:
    unit = state["units"].get(uid)
    if unit is not None and unit.get("volkssturm"):
        return zoc.counter(state["counters"], unit)
    found = state["counters"]["units"].get(uid)
    if found is None:
        raise illegal(f"there is no unit {uid}", "2.2")
    return found


def on_map(state: State) -> list[dict[str, Any]]:
    """The units on either map (not those in the North German Plain Box). Nearly always
    every unit: that is found by one C-level pass over their hexes, which costs less than
    the comprehension (still made when some unit is off the maps)."""
    units = state["units"].values()
    if _OFF_MAP.isdisjoint(map(_HEX, units)):
        return list(units)
    return [u for u in units if u["hex"] not in _OFF_MAP]


_HEX = itemgetter("hex")


def in_box(state: State, side: str) -> list[dict[str, Any]]:
    return [u for u in state["units"].values() if u["hex"] == NGP and u["side"] == side]


def unit_of(state: State, uid: str, side: str | None = None) -> dict[str, Any]:
    unit = state["units"].get(uid)
    if unit is None:
        where = "destroyed" if uid in state["destroyed"] else "not on the map"
        raise illegal(f"{uid} is {where}", "2.2")
    if side is not None and unit["side"] != side:
        raise illegal(f"{uid} is not one of your units", "2.2")
    return unit


def face(state: State, unit: Mapping[str, Any]) -> dict[str, int]:
    """The unit's printed attack, defence and movement on the side it shows: reduced after
    losing a step (6.52), a revealed Volkssturm unit's own strength (8.45); a face-down
    Volkssturm unit moves with the front's allowance (8.44)."""
    if unit.get("volkssturm"):
        if "attack" in unit:
            return {k: int(unit[k]) for k in ("attack", "defence", "movement")}
        return {
            "attack": 0,
            "defence": 0,
            "movement": int(state["counters"]["volkssturm"]["front_movement"]),
        }
    c = state["counters"]["units"][unit["id"]]
    printed = c if unit["steps"] >= int(c["steps"]) or not c.get("reduced") else c["reduced"]
    return {k: int(printed[k]) for k in ("attack", "defence", "movement")}


def mover(state: State, unit: Mapping[str, Any]) -> dict[str, Any]:
    """What movement.py reads: the counter's facts with the unit's side, hex and face."""
    uid = unit["id"]
    held = state["units"].get(uid)
    if unit.get("volkssturm") or (held is not None and held.get("volkssturm")):
        c = counter(state, uid)
        foot = {"class": "foot"} if "class" not in c else {}  # 8.4
        return {**c, **foot, **unit, "name": uid, "movement": face(state, unit)["movement"]}
    # (not a Volkssturm unit: `counter` and `face` in line, the movement alone read)
    c = state["counters"]["units"].get(uid)
    if c is None:
        raise illegal(f"there is no unit {uid}", "2.2")
    reduced = c.get("reduced") if unit["steps"] < int(c["steps"]) else None
    movement = int((reduced or c)["movement"])
    return {**c, **unit, "name": uid, "movement": movement}


def role_of(state: State, side: str) -> str:
    return seats.role_of(state, side)


def side_of(state: State, role: str) -> str:
    side = seats.side_of(state, role)
    if side is None:
        raise illegal("sides are not decided yet", "12.42")
    return side


def units_at(state: State, h: str) -> list[dict[str, Any]]:
    return [u for u in state["units"].values() if u["hex"] == h]


def enemy_hexes(state: State, side: str) -> set[str]:
    return {u["hex"] for u in state["units"].values() if u["side"] != side} - _OFF_MAP


# --- hexes and paths ---------------------------------------------------------------------------


def hex_of(state: State, text: str, near: str | None = None) -> str:
    """A hex written "2419", "op:2419" or "city:1320"; a bare number that exists on both
    maps is taken as the neighbour of `near` if exactly one is."""
    board = state["board"]
    if text == NGP:
        return NGP
    if near is not None and near != NGP and ":" not in text:
        found = [n for n in md.neighbours(board, near) if n.endswith(":" + text)]
        if len(found) == 1:
            return found[0]
    try:
        return md.hex_at(board, text)
    except ValueError as error:
        raise illegal(str(error), "2.1") from None


def resolve_path(state: State, start: str | None, words: Sequence[str]) -> list[str]:
    """The hexes of a path written after a unit: its own hex may lead (then it is dropped);
    each next hex is read as a neighbour of the one before."""
    out: list[str] = []
    here = start
    for i, word in enumerate(words):
        h = hex_of(state, word, here)
        if i == 0 and h == start:
            continue
        out.append(h)
        here = h
    return out


def entry_hexes(state: State, info: Mapping[str, Any], side: str) -> list[str]:
    """Where a waiting reinforcement may enter now: the free hexes of its entry code, or
    its own entry hex if the schedule names one (9.1, 9.13). Every unit is asked, not only
    those on the maps: an entry hex is a map hex, never one of theirs (None, the box)."""
    units = state["units"].values()
    if info.get("at") is None:
        h = info["hex"]
        return [] if any(u["hex"] == h and u["side"] != side for u in units) else [h]
    return arrivals.entry_hexes(state["board"], units, info["at"], side)


def hex_text(h: str) -> str:
    return "the NGP Box" if h == NGP else h.replace("op:", "").replace("city:", "city ")


def phase_flags_off(state: State) -> None:
    isdisjoint = _FLAG_SET.isdisjoint  # (most units carry none: one C call each)
    flagged = [uid for uid, unit in state["units"].items() if not isdisjoint(unit)]
    for uid in flagged:
        mine = own(state, uid)
        for flag in _FLAG_SET.intersection(mine):
            del mine[flag]


_FLAG_SET = frozenset(FLAGS)
