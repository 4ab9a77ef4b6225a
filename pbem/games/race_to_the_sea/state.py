"""Race to the Sea 1914: the engine's state, its setup and what the rules read from it.

The state is plain JSON (docs/race-to-the-sea.md, "Fog of war as hidden pieces"):

    board, units_data, cards_data, markers   the loaded data files, shared by every copy
                                             (`static_keys`), never changed
    turn, round, step, active                where the sequence of play (7) stands
    momentum                                 the Strategic Momentum side (4.1.1)
    counters      label -> {side, nationality, hex, cavalry, scouting, unit, activated}:
                  every unit or False Report on the map; `unit` is public for cavalry and
                  for a revealed counter, None while its identity is a hidden piece
    pieces        the kit's hidden pieces: `unit/<label>` (a counter's identity), the bids
                  (`bid/<side>/t<turn>/r<round>`) and the unseen discards
                  (`discard/<side>/t<turn>`, the secret of a private draw)
    next_label    the number of the next counter label (c01, c02, ...: never reused)
    control       the hexes whose control differs from 15.3 (printed label -> side)
    decks         each side's Combat Results deck (public draws, 6.2)
    batch         the reinforcements of the phase being placed (7.1, public: the TT)
    played        the Bid Numbers each side played this turn
    hands         None in the public state; a role's own hand in its `with_secrets` state
    flooded       the flooded hexes (9.8, dykes.py): water for movement, control, victory

Positions for `movement.py` are built from the counters: a hidden counter is "infantry"
of unknown SZ (None) in the public state, and its real kind and SZ in its owner's state.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from pbem.core.canonical import copy_json
from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea import units as ru
from pbem.games.race_to_the_sea.entry_index import entry_index
from pbem.games.race_to_the_sea.shared_pieces import own, share
from pbem.kit import decks
from pbem.kit.pieces import due, known_value
from pbem.maps.hexes import label as hex_label

SIDES = ("allies", "germans")
NAMES = {"allies": "the Allies", "germans": "the Germans"}
TURNS = 10  # 2.2.A
ROUNDS = 5  # 7.6.B: five Initiative Cards in hand, one Action Round each
STATIC_KEYS = ("board", "units_data", "cards_data", "markers")
NATIONALITIES = {"allies": ("french", "british", "belgian"), "germans": ("german",)}


def other(side: str) -> str:
    return mv.other(side)


def illegal(message: str, rule: str) -> IllegalOrderError:
    return IllegalOrderError(f"illegal: {message} (rulebook {rule})")


def hex_text(hex_: int) -> str:
    return hex_label(hex_)


# --- setup (15) ---------------------------------------------------------------------------------


def initial_state(data: Mapping[str, Any]) -> State:
    """15.2-15.3: turn 1 ahead, the Germans with the Strategic Momentum (4.1.1.B), every
    hex controlled as 15.3 says, both Combat Results decks full (6.2)."""
    cards = data["cards"]
    return {
        "board": data["map"],
        "units_data": data["units"],
        "cards_data": cards,
        "markers": data["markers"],
        "turn": 0,  # 0 while setting up (15), then 1-10
        "round": 0,
        "step": "place",
        "active": "allies",  # 15.5.A: the Allies set up first
        "momentum": "germans",  # 4.1.1.B
        "foch": None,  # the turn Foch took command (7.7.2)
        "siege": None,  # the turn Antwerp fell (7.7.1)
        "belgians": None,  # the turn the Belgian Army entered (15.6.2.2)
        "counters": {},
        "pieces": {},
        "next_label": 1,
        "control": {},
        "decks": {
            side: decks.new_deck([card["number"] for card in cards["combat"][side]])
            for side in SIDES
        },
        "batch": None,
        "played": {side: [] for side in SIDES},
        "discards": {side: None for side in SIDES},
        "order": [],
        "index": 0,
        "railed": [],
        "march": None,
        "fog": [],
        "fr_carry": {side: 0 for side in SIDES},
        "hands": {side: None for side in SIDES},
        "place_order": [],
        "bids": None,
        "flooded": [],  # 9.8: the flooded hexes (water for all purposes, 2.1.8.B)
        "stacks": {},  # counter -> its current Casualties markers piece (hits.py)
        "next_stack": 1,  # the number of the next markers piece or draw secret
        "restack": None,  # the draws waiting for their owner's `restack` (hits.py)
        "eliminated": {side: [] for side in SIDES},  # unit ids off the map (5.2.6, 9.6)
        "combat": None,  # the combat being resolved (firepower.py, assault.py)
        "resume": None,  # where the sequence of play goes on after a combat
        "event": None,  # an Event waiting for its side's picks (events.py)
        "absorbing": None,  # an Event's hits waiting for their owner (events.py)
        "planned_ops": None,  # the Planned Operations marker: {holder, hex} (4.1.4, 9.4)
        "counter": None,  # a Counter-Attack Event waiting for its side (assault.py, 13.0)
        "later_events": [],  # Events waiting for the one before them (13.0.D)
        "plan_units": None,  # the units of a Planned Operations action (operations.py)
        "plan_asked": None,  # the turn the 7.7.5 deployment was asked
    }


def copy_state(state: State) -> State:
    """A copy to change: the static data shared, the rest copied (claims lists are
    replaced, never changed in place, so pieces copy shallowly). An opened piece is
    shared, not copied: nothing changes a piece once it is revealed (the kit's `reveal`,
    `oblige`, `fill` and views touch only sealed ones, a label opens once, and the rules
    claim and mark sealed pieces only), and most pieces of a long game are opened. The
    counters are shared the same way (an entry moves or marks one or two of fifty): the
    rules change one only through `writable_counter`. The Combat Results decks are shared
    whole: `flip_card`, their only change, replaces them with a copy first; so is the
    control record, which `take_control` only ever replaces with a new one, and the
    values of `SHARED` below, which the rules only ever replace (never change in place:
    tests/games/race_to_the_sea/test_rts_fast_paths.py checks that apply leaves the state
    it is given as it was, at every entry of the demo save and of bot games)."""
    new = dict(state)  # (every value shared: those changed in place are copied below)
    new["counters"] = share(state["counters"])  # every counter, until one changes (below)
    new["pieces"] = share(state["pieces"])  # every piece, until the rules change one (`own`)
    for key in _ADDED:  # (a state without them gains them, as the copies always did)
        if key not in state:
            new[key] = []
    if state["batch"] is not None:
        new["batch"] = {
            k: (list(v) if isinstance(v, list) else v) for k, v in state["batch"].items()
        }
    if state["march"] is not None:
        new["march"] = {
            k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
            for k, v in state["march"].items()
        }
    new["stacks"] = dict(state["stacks"])
    for key in ("combat", "event", "absorbing", "counter"):
        if state.get(key) is not None:
            new[key] = copy_json(state[key])
    if "bids" in state and state["bids"] is not None:
        new["bids"] = {
            "order": list(state["bids"]["order"]),
            "labels": dict(state["bids"]["labels"]),
        }
    return new


# The values `copy_state` shares with the copy because the rules only ever replace them
# (a list or dict of the state assigned anew, never appended to or changed by key): the
# control record, the decks, the cards played, the unseen discards, the order of play, the
# units moved by rail, the fog of war's sides, the False Reports carried, the placing
# order, the flooded hexes, the hands, the eliminated units, the Events waiting, the
# Planned Operations' units and marker.
SHARED = (
    "control", "decks", "played", "discards", "order", "railed", "fog", "fr_carry",
    "place_order", "flooded", "hands", "eliminated", "later_events", "plan_units",
    "planned_ops",
)  # fmt: skip
_ADDED = ("place_order", "flooded", "later_events")


# --- counters and identities ----------------------------------------------------------------------


def piece_label(counter: str) -> str:
    return f"unit/{counter}"


def new_counter_label(state: State, offset: int = 0) -> str:
    return f"c{state['next_label'] + offset:02d}"


def unit(state: State, unit_id: str) -> dict[str, Any]:
    found: dict[str, Any] = state["units_data"]["units"][unit_id]
    return found


def identity(state: State, counter: str) -> str | None:
    """The counter's unit id as this state knows it (public, or its owner's state)."""
    found = state["counters"][counter]
    if found["unit"] is not None:
        return str(found["unit"])
    piece = state["pieces"].get(piece_label(counter))
    value = None if piece is None else known_value(piece)
    return None if value is None else str(value)


def is_hidden(state: State, counter: str) -> bool:
    """Hidden from the public: the identity is a sealed piece (3.3.1, 10.4)."""
    return state["counters"][counter]["unit"] is None


def anything_due(state: State) -> bool:
    """Whether some piece says why it is due: when none does, `pieces.due` is empty for
    every role, without its look at each piece in Python (a long game holds hundreds, and
    most entries owe nothing); when one does, the callers ask `pieces.due` itself. (A
    record of the sealed pieces only, kept outside the state, was slower: most pieces of a
    game are still sealed two thirds through, and this look runs in C.)"""
    return any(map(_DUE, state["pieces"].values()))


_DUE = itemgetter("due")


def due_pieces(state: State, role: str) -> list[dict[str, Any]]:
    """The kit's `pieces.due` of the state's pieces (which picks out the due ones in C: a
    long game holds hundreds of pieces, and a piece of the other side is often due while
    this side acts, so `anything_due` alone spared little)."""
    return due(state["pieces"].values(), role)


def opening(state: State, label: str) -> bool:
    """The counter's identity must open in its owner's next entry (a recon, 10.4.C)."""
    piece = state["pieces"].get(piece_label(label))
    return piece is not None and bool(piece["due"]) and not piece["revealed"]


def leaving(state: State, label: str) -> bool:
    """A False Report its owner must open in its next entry (as the owner knows it): the
    opening takes it off the map before that entry's decision applies (10.4.C)."""
    if not opening(state, label):
        return False
    known = identity(state, label)
    return known is not None and unit(state, known)["kind"] == "false-report"


def positions(state: State) -> dict[str, dict[str, Any]]:
    """The counters as movement.py reads them, with what this state knows: `_position` of
    each, inlined, with each unit's kind and SZ from a table of the units (a move, a bot's
    every choice asks this of some fifty counters)."""
    info, sealed = _unit_info(state["units_data"]["units"]), state["pieces"]
    out = {}
    for label, counter in state["counters"].items():
        known = counter["unit"]
        if known is None:
            piece = sealed.get("unit/" + label)
            if piece is not None and (piece["revealed"] or piece.get("known")):
                known = piece["value"]
        if known is None:
            kind, sz = ("cavalry" if counter["cavalry"] else "infantry"), None
        else:
            kind, sz = info[known]
        out[label] = {
            "side": counter["side"],
            "hex": counter["hex"],
            "kind": kind,
            "scouting": counter["scouting"],
            "sz": sz,
        }
    return out


def _unit_info(units: Mapping[str, Any]) -> Mapping[str, tuple[str, Any]]:
    """Unit id -> (its kind as a position says it, its SZ), by units table (by identity:
    the loaded tables are never changed, and shared by every copy of a state)."""
    found = _UNIT_INFO.get(id(units))
    if found is None or found[0] is not units:
        if len(_UNIT_INFO) >= 8:
            _UNIT_INFO.clear()
        table = {
            unit_id: ("false" if data["kind"] == "false-report" else data["kind"], data["sz"])
            for unit_id, data in units.items()
        }
        found = _UNIT_INFO[id(units)] = (units, table)
    return found[1]


_UNIT_INFO: dict[int, tuple[Mapping[str, Any], dict[str, tuple[str, Any]]]] = {}


def position_of(state: State, label: str) -> dict[str, Any]:
    """One counter of `positions(state)`, without building the others."""
    piece = state["pieces"].get("unit/" + label)
    return _position(state["counters"][label], piece, state["units_data"]["units"])


def _position(
    counter: Mapping[str, Any], piece: Mapping[str, Any] | None, units: Mapping[str, Any]
) -> dict[str, Any]:
    known = counter["unit"]  # `identity`, inlined: this runs for every counter, often
    if known is None and piece is not None and (piece["revealed"] or piece.get("known")):
        known = piece["value"]
    kind, sz = "infantry", None
    if counter["cavalry"]:
        kind = "cavalry"
    if known is not None:
        data = units[known]
        kind = "false" if data["kind"] == "false-report" else data["kind"]
        sz = data["sz"]
    return {
        "side": counter["side"],
        "hex": counter["hex"],
        "kind": kind,
        "scouting": counter["scouting"],
        "sz": sz,
    }


def writable_counter(state: State, label: str) -> dict[str, Any]:
    """The counter `label` of `state` (a copy being changed), to change in place: a copy
    shares its counters with the state it was copied from until it changes one
    (shared_pieces.py), so every change of a counter's fields goes through this."""
    return own(state["counters"], label)


def own_counters(state: State, side: str) -> list[str]:
    return sorted(k for k, c in state["counters"].items() if c["side"] == side)


def add_counter(
    state: State, side: str, nationality: str, hex_: int, unit_id: str | None, cavalry: bool
) -> str:
    label = new_counter_label(state)
    state["next_label"] += 1
    state["counters"][label] = {
        "side": side,
        "nationality": nationality,
        "hex": hex_,
        "cavalry": cavalry,
        "scouting": False,
        "unit": unit_id,
        "activated": False,
    }
    return label


def adjacent_to_enemy(state: State, counter: str) -> bool:
    here = state["counters"][counter]
    g = rm.adjacency(state["board"])  # (`rm.grid`'s answers)
    near = set(g.neighbours(here["hex"]))
    return any(c["side"] != here["side"] and c["hex"] in near for c in state["counters"].values())


# --- control (14.1 B, 15.3) -----------------------------------------------------------------------


def flooded(state: State) -> list[int]:
    """The flooded hexes (9.8.B): the calls into movement.py pass them, so that they are
    water there: no unit enters them, no side controls them (9.8.C: no VP)."""
    return list(state.get("flooded", []))


def control_of(state: State, hex_: int) -> str | None:
    return mv.control_of(state["board"], state["control"], hex_, flooded(state))


def take_control(state: State, counter: str, hex_: int) -> None:
    """14.1 B: the side whose unit occupies a hex controls it (a hidden False Report too,
    3.1.3 B; scouting cavalry never, 10.5.1). Read: a unit occupies the hex it stops in,
    not the hexes it passes through."""
    piece = position_of(state, counter)
    if _control_stays(state, piece, hex_):
        return  # (rebuilt, the record would have the same hexes, sides and order)
    changed = mv.update_control(state["board"], state["control"], {"id": counter, **piece}, hex_)
    state["control"] = {mv.hex_label(h): side for h, side in sorted(changed.items())}


def _control_stays(state: State, piece: Mapping[str, Any], hex_: int) -> bool:
    """Whether `take_control` would write the control record as it is: `hex_` keeps the
    side it has (most moves stay in friendly hexes), and the record is already as
    `take_control` writes it (printed labels as keys, in map order)."""
    control = state["control"]
    start = mv.initial_control(state["board"], hex_)
    if mv.controls_hexes(piece) and start is not None:
        want = None if piece["side"] == start else piece["side"]
        if control.get(mv.hex_label(hex_)) != want:
            return False
    return _as_written(control)


def _as_written(control: Mapping[str, Any]) -> bool:
    """Whether the control record's keys are as `take_control` writes them: printed labels
    (four characters), in map order. Kept by record (the answer reads only its keys, and a
    record is never changed in place: `take_control` replaces it, `copy_state` shares it),
    held with the record and its length (no id reused, a key added or dropped seen): a
    move asks it of the record the entry before left, some fifty keys looked at again."""
    found = _WRITTEN.get(id(control))
    if found is not None and found[0] is control and found[1] == len(control):
        return found[2]
    # (`all(type(k) is str and len(k) == 4 for k in control)`, its keys looked at in C)
    written = (
        set(map(type, control)) <= _STR
        and set(map(len, control)) <= _FOUR
        and list(control) == sorted(control)
    )
    if len(_WRITTEN) >= 16:
        _WRITTEN.clear()
    _WRITTEN[id(control)] = (control, len(control), written)
    return written


_STR, _FOUR = {str}, {4}
# control record's id -> (the record, its length, `_as_written` of it)
_WRITTEN: dict[int, tuple[Mapping[str, Any], int, bool]] = {}


def stop_positions(state: State, label: str, hex_: int) -> dict[str, Any]:
    """What `movement.legal_move` and `forced_march_check` read of `positions(state)` for
    the counter `label` stopping in `hex_`: the position of that counter and of its side's
    counters in `hex_` (stacking, 10.2), the others' side and hex (enemy hexes, No Man's
    Land, screening) straight from the counters, without a position built for each of
    fifty. tests/games/race_to_the_sea/test_rts_fast_paths.py holds the verdicts to those
    on `positions(state)`."""
    return move_positions(state, label, hex_)[0]


def move_positions(
    state: State, label: str, hex_: int
) -> tuple[dict[str, Any], set[int] | None, list[str]]:
    """(`stop_positions(state, label, hex_)`, `mv.enemy_hexes` of them for the side of
    `label`, the labels of that side's counters in `hex_` once `label` stops there), from
    one look at each counter (a move asked the fifty counters three times); the enemy
    hexes are None for a side that is neither (`mv.enemy_hexes` refuses it: the caller
    asks it). tests/games/race_to_the_sea/test_rts_fast_paths_6.py holds the three to the
    strict ones."""
    counters = state["counters"]
    out: dict[str, Any] = dict(counters)
    side = counters[label]["side"]
    foe = _FOE.get(side)
    enemy: set[int] = set()
    here = []
    for key, counter in counters.items():
        if counter["side"] == foe:
            enemy.add(counter["hex"])
        elif key == label or (counter["hex"] == hex_ and counter["side"] == side):
            out[key] = position_of(state, key)
            here.append(key)
    return out, (enemy if foe is not None else None), here


_FOE = {SIDES[0]: SIDES[1], SIDES[1]: SIDES[0]}  # (`mv.other`, without its refusal)


# --- the Combat Results decks (6.2) ------------------------------------------------------------


def flip_card(state: State, side: str, ctx: Context, purpose: str) -> int:
    """The top card of `side`'s Combat Results deck, flipped (a public draw) and put on
    its discard pile: its number."""
    # The decks are shared by a state and its copies (`copy_state`): this, their one
    # change, draws from a copy of the side's deck made here, never from the shared one.
    deck = {k: list(v) for k, v in state["decks"][side].items()}
    state["decks"] = {**state["decks"], side: deck}
    card = decks.draw(deck, ctx, purpose)
    decks.discard(deck, card)
    return int(card)


# --- reinforcements (7.1, 15.5-15.6) ------------------------------------------------------------


def entry_hexes(state: State, unit_id: str, side: str) -> list[int]:
    """The hexes where `unit_id` may be placed now (7.1.B): its listed hexes that are
    friendly-controlled and hold no enemy (overstacking is allowed on placement); if none,
    the closest friendly-controlled hexes (7.1.B: the unit then takes one hit,
    recovery.placement_hit). Derived once per position (entry_index.py)."""
    return list(entry_index(state, side).entry_hexes(unit_id))


def listed_hexes(state: State, unit_id: str, side: str) -> list[int]:
    """The hexes the tables list for `unit_id` (before 7.1.B's closest-hex fallback)."""
    return entry_index(state, side).listed_hexes(unit_id)


def arriving(state: State, side: str, turn: int) -> list[str]:
    """The units of `side` that enter on `turn` (15.5, 15.6): by the tables, the Belgian
    Army the turn after Antwerp falls (15.5.3), the German siege units the turn after it
    (15.6.2.2 lets them enter on any later turn; they all come at the first)."""
    out = []
    after = {"siege": _after(state["siege"]), "belgian-army": _after(state["belgians"])}
    for unit_id in state["units_data"]["sides"][side]:
        data = unit(state, unit_id)
        entry = data["entry"]
        if data["kind"] == "false-report" and entry["location"] == ru.WITH_FIRST_UNITS:
            continue  # counted in `fr_carry` (15.5.B, 15.6.B)
        if entry["turn"] == turn or entry["after"] and turn == after[entry["after"]]:
            out.append(unit_id)
    return out


def _after(turn: int | None) -> int | None:
    return None if turn is None else turn + 1


def first_false_reports(state: State, side: str) -> list[str]:
    """The False Reports that go with the at-start or Turn 1 units (15.5.B, 15.6.B)."""
    return [
        u
        for u in state["units_data"]["sides"][side]
        if unit(state, u)["entry"]["location"] == ru.WITH_FIRST_UNITS
    ]


def hidden_count(state: State, batch: Mapping[str, Any]) -> tuple[int, int]:
    """(hidden counters the batch must place, at most): its non-cavalry units, plus its
    False Reports that may come along."""
    units = [u for u in batch["units"] if unit(state, u)["kind"] != "cavalry"]
    need = sum(1 for u in units if unit(state, u)["kind"] != "false-report")
    return need, len(units) + batch["extra_false"]


def hidden_candidates(state: State, batch: dict[str, Any]) -> list[str]:
    """The units a hidden counter of the batch may be: its non-cavalry units and its False
    Reports."""
    units = [u for u in batch["units"] if unit(state, u)["kind"] != "cavalry"]
    return units + list(batch["false_ids"])


# --- the counters a side acts with -----------------------------------------------------------


def counter_of(state: State, role: str, label: str, rule: str) -> dict[str, Any]:
    """`role`'s counter `label` on the map, else refused under `rule`."""
    counter: dict[str, Any] | None = state["counters"].get(label)
    if counter is None:
        raise illegal(f"no counter {label} on the map", rule)
    if counter["side"] != role:
        raise illegal(f"{label} is not {role}'", rule)
    return counter


def ready_counter(state: State, role: str, label: str) -> dict[str, Any]:
    """`role`'s counter `label`, able to act now: not yet activated this round (9.B), one
    of the Planned Operations units while they act (9.4.A)."""
    counter = counter_of(state, role, label, "9.B")
    if counter["activated"]:
        raise illegal(f"{label} has already acted this round", "9.B")
    planned = state.get("plan_units")
    if planned is not None and label not in planned:
        raise illegal(f"{label} is not one of the Planned Operations units", "9.4.A")
    return counter
