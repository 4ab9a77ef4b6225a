"""Invariants of a Race to the Sea 1914 game, checked after every decision of the seeded
bot games (test_rts_selfplay.py) on the state with both sides' secrets.

Each check is a small function that returns the problems it finds (empty: all is well),
so that a new rule adds one function and one line in `after_decision` or `at_the_end`.
Checks that depend on combat data read it only when the state has it (a markers piece, a
card in play), so they hold before and after combat lands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from pbem.core.engine import State
from pbem.games.race_to_the_sea import casualties
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.flow import duplicates
from pbem.games.race_to_the_sea.state import SIDES, identity
from pbem.kit.pieces import known_value

STACKING_LIMIT = 6  # 10.2.A
CARDS_PER_DECK = 12  # 6.2: twelve Combat Results Cards per side
# The steps between actions: no move, combat or event is half done when one of them asks.
# A combat step the rules add later is not here, so a check that needs a finished action
# (stacking after an assault's advance, 12.8) waits for the next of these.
QUIET_STEPS = frozenset(
    {"place", "discard", "rail", "bid", "open_bid", "act", "march_first", "march", "fog"}
    | {"final", "over"}
)


def quiet(state: State) -> bool:
    return state["step"] in QUIET_STEPS


# --- what the full state knows of a counter ---------------------------------------------------


def marker_stacks(state: State) -> dict[str, list[list[str]] | None]:
    """Each counter's Casualties markers, None where this state does not know their value;
    counters without a markers piece (fresh ones) are left out. The current piece is the
    one `state["stacks"]` names (hits.py), else the `markers/<label>/<k>` of highest k."""
    if "stacks" in state:
        found: dict[str, list[list[str]] | None] = {}
        for counter, name in state["stacks"].items():
            value = known_value(state["pieces"][name]) if name is not None else []
            found[counter] = value if isinstance(value, list) else None
        return found
    latest: dict[str, tuple[int, Any]] = {}
    for name, piece in state["pieces"].items():
        if not name.startswith("markers/"):
            continue
        _kind, label, k = (name.split("/") + ["", ""])[:3]
        rank = int(k) if k.isdigit() else -1
        if label not in latest or rank > latest[label][0]:
            latest[label] = (rank, piece)
    stacks: dict[str, list[list[str]] | None] = {}
    for label, (_rank, piece) in latest.items():
        value = known_value(piece)
        stacks[label] = value if isinstance(value, list) else None
    return stacks


def printed_sz(state: State, label: str) -> int | None:
    unit_id = identity(state, label)
    if unit_id is None:
        return None
    sz = state["units_data"]["units"][unit_id]["sz"]
    return int(sz) if sz is not None else None


def is_false_report(state: State, label: str) -> bool:
    unit_id = identity(state, label)
    return unit_id is not None and state["units_data"]["units"][unit_id]["kind"] == "false-report"


def current_sz(
    state: State, label: str, stacks: Mapping[str, list[list[str]] | None]
) -> int | None:
    """The counter's SZ now: the printed one less its markers (3.2.7, 5.1.D) when its
    stack is known, the printed one when it has no stack; None if its identity is hidden."""
    sz = printed_sz(state, label)
    if sz is None:
        return None
    stack = stacks.get(label)
    if not stack:
        return sz
    return int(casualties.unit_ratings({"sz": sz}, stack, state["markers"])["sz"])


# --- the checks -------------------------------------------------------------------------------


def positions_of(state: State) -> dict[str, int]:
    return {label: c["hex"] for label, c in state["counters"].items()}


def moved_counters(before: Mapping[str, int], after: State) -> set[str]:
    """Counters on the map before and after a decision whose hex changed (a placement or a
    fresh label is not a move; a counter that left the map is not either)."""
    return {
        label
        for label, c in after["counters"].items()
        if label in before and before[label] != c["hex"]
    }


def stacking_problems(state: State, moved: set[str]) -> list[str]:
    """10.2.A-C: a moved unit never stops in a hex of over 6 SZ of its side (False Reports
    free). Placements are not moves: they may overstack (7.1.B), cured at 7.7.4.B."""
    problems = []
    stacks = marker_stacks(state) if moved else {}
    for label in sorted(moved):
        counter = state["counters"].get(label)
        if counter is None or is_false_report(state, label):
            continue
        total = 0
        for other, c in state["counters"].items():
            if c["hex"] == counter["hex"] and c["side"] == counter["side"]:
                total += current_sz(state, other, stacks) or 0
        if total > STACKING_LIMIT:
            problems.append(
                f"10.2: {label} stopped in {counter['hex']:04d} with {total} SZ of "
                f"{counter['side']} units"
            )
    return problems


def initiative_problems(state: State) -> list[str]:
    """7.4, 8: each Initiative Card is played at most once per turn (the played Bid Numbers
    are a part of the side's six cards, at most five)."""
    problems = []
    for side in SIDES:
        played = Counter(state["played"][side])
        deck = Counter(state["cards_data"]["initiative"][side])
        over = played - deck
        if over or sum(played.values()) > 5:
            problems.append(f"7.4: {side} played {sorted(state['played'][side])} this turn")
    return problems


def identity_problems(state: State) -> list[str]:
    """15: each unit has one counter: no unit id under two labels."""
    return [
        f"15: {unit_id} is under both {first} and {later}"
        for side in SIDES
        for later, first, unit_id in duplicates(state, side)
    ]


def size_problems(state: State, after_action: bool) -> list[str]:
    """3.2.1, 5.2.6: SZ is never negative; a unit whose hits reach its SZ is eliminated and
    leaves the map (checked once the action that hit it is over)."""
    problems = []
    stacks = marker_stacks(state)
    units = state["units_data"]["units"]
    for label in sorted(state["counters"]):
        # printed_sz, is_false_report and current_sz of the counter, its identity found once
        # (the checks ran after every decision of 50 games: identity thrice per counter was
        # most of them)
        unit_id = identity(state, label)
        if unit_id is None:
            continue
        unit = units[unit_id]
        sz = int(unit["sz"]) if unit["sz"] is not None else None
        if sz is None:
            continue
        if sz < 0:
            problems.append(f"3.2.1: {label} has a printed SZ of {sz}")
        stack = stacks.get(label)
        if not stack or unit["kind"] == "false-report":
            continue
        hits = casualties.hits_of(stack)
        now = int(casualties.unit_ratings({"sz": sz}, stack, state["markers"])["sz"])
        if now < 0:
            problems.append(f"3.2.7: {label} has SZ {now}")
        if after_action and hits >= sz:
            problems.append(f"5.2.6: {label} took {hits} hits with SZ {sz} and is still on the map")
    return problems


# A map's hexes and those of them units may enter, by map object: the map is static data
# that a game's states share and never change (state.STATIC_KEYS), so each is listed once,
# not at every decision. The map is kept with them: its id is never another map's.
_MAP_HEXES: dict[int, tuple[Any, frozenset[int], frozenset[int]]] = {}


def map_hexes(board: Mapping[str, Any]) -> tuple[frozenset[int], frozenset[int]]:
    """(the hexes of the map, those whose terrain units may enter: not in rm.PROHIBITED)."""
    kept = _MAP_HEXES.get(id(board))
    if kept is None or kept[0] is not board:
        hexes = frozenset(rm.grid(board).hexes)
        enterable = frozenset(h for h in hexes if rm.terrain(board, h) not in rm.PROHIBITED)
        kept = _MAP_HEXES[id(board)] = (board, hexes, enterable)
    return kept[1], kept[2]


def map_problems(state: State) -> list[str]:
    """Every counter stands on a hex of the map that units may enter (10.3.2)."""
    hexes, enterable = map_hexes(state["board"])
    problems = []
    for label, c in sorted(state["counters"].items()):
        if c["hex"] in enterable:
            continue
        if c["hex"] not in hexes:
            problems.append(f"{label} is on {c['hex']}, which is not a map hex")
        else:
            problems.append(f"10.3.2: {label} is on prohibited terrain {c['hex']:04d}")
    return problems


def _card_numbers(value: Any, side: str) -> Iterator[int]:
    """Card numbers of `side` in a combat's bookkeeping: under any key naming cards, a
    mapping of side -> a card number or a list of them."""
    if isinstance(value, Mapping):
        for key, inner in value.items():
            if "card" in str(key) and isinstance(inner, Mapping) and side in inner:
                found = inner[side]
                if isinstance(found, int) and not isinstance(found, bool):
                    yield found
                elif isinstance(found, list):
                    yield from (c for c in found if isinstance(c, int))
            else:
                yield from _card_numbers(inner, side)
    elif isinstance(value, list):
        for inner in value:
            yield from _card_numbers(inner, side)


def cards_in_play(state: State, side: str) -> list[int]:
    """Combat Results Cards of `side` that a combat under way (`state["combat"]`) names:
    where a card drawn and not yet discarded may be (a Big Push's two cards, 12.5.C). Read
    generically, so that it holds whatever shape the combat record takes."""
    return list(_card_numbers(state.get("combat"), side))


def deck_problems(state: State, between_actions: bool) -> list[str]:
    """6.2: each side's twelve Combat Results Cards are in its pile or its discard pile,
    each once; during a combat a card may be out of both only if the combat holds it,
    between actions never."""
    problems = []
    for side in SIDES:
        deck = state["decks"][side]
        full = Counter(card["number"] for card in state["cards_data"]["combat"][side])
        held = Counter([*deck["pile"], *deck["discard"]])
        where = f"pile {deck['pile']}, discard {deck['discard']}"
        if sum(full.values()) != CARDS_PER_DECK:
            problems.append(f"6.2: {side} has {sum(full.values())} Combat Results Cards")
        if held - full:
            problems.append(f"6.2: {side} holds a card twice ({where})")
        missing = full - held
        if missing and (between_actions or missing - Counter(cards_in_play(state, side))):
            problems.append(f"6.2: {side} misses cards {sorted(missing.elements())} ({where})")
    return problems


# --- one game ---------------------------------------------------------------------------------


class Watch:
    """The invariants along one game: call `after_decision` with the full state after each
    decision, `at_the_end` with the final public and full states."""

    def __init__(self, state: State) -> None:
        self.before = positions_of(state)
        self.moved: set[str] = set()

    def after_decision(self, full: State, text: str) -> list[str]:
        self.moved |= moved_counters(self.before, full)
        self.moved &= set(full["counters"])
        self.before = positions_of(full)
        done = quiet(full)
        problems = [
            *initiative_problems(full),
            *identity_problems(full),
            *size_problems(full, after_action=done),
            *map_problems(full),
            *deck_problems(full, between_actions=done),
        ]
        if done:
            problems += stacking_problems(full, self.moved)
            self.moved = set()
        return [f"after {text!r}: {p}" for p in problems]

    @staticmethod
    def at_the_end(public: State, outcome: Any) -> list[str]:
        """7.7.6.C: every sealed piece is open; 14: the outcome is there."""
        problems = [
            f"7.7.6.C: {label} is still sealed"
            for label, piece in sorted(public["pieces"].items())
            if not piece["revealed"]
        ]
        if outcome is None:
            problems.append("14: the game is over without an outcome")
        return problems
