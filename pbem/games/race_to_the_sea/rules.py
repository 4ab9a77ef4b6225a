"""Rules engine for Race to the Sea 1914 (two players, allies and germans), without combat.

The engine is a kit step table (`STEPS`, docs/architecture-notes.md "The game kit"); the
design is docs/race-to-the-sea.md. Modules: `state` (shape, setup, positions, entry
hexes), `decisions` (syntax), `flow` (the sequence of play 7 and its handlers), `choices`
(legal choices and bot samples); the rules pieces `map_data`, `units`, `cards`,
`movement`, `initiative`, `victory` are shared with the data files' tests.

Information (protocol section 5):
- each non-cavalry unit or False Report on the map is a public counter (label, hex, side,
  nationality) whose identity is a kit piece `unit/<label>`, committed by its owner when
  placed (`seal` turns `place fr-iv 0714` into `place french 0714` and the commitment);
  the owner opens it on a Cavalry Recon (9.7, a reveal obligation), at the Fog of War
  step it is re-committed under fresh labels (7.7.4.A), and at the end all open;
- the bids are a `SealedRound` (the Germans commit, the Allies bid in the clear, the
  Germans open), each sealed bid claiming a card left in hand;
- the unseen Initiative discard (7.2.A) is a private draw, opened at 7.7.6 and checked
  against the turn's five bids;
- the Combat Results decks are public draws (7.7.1-7.7.3).

Not registered in pbem/games/__init__.py: combat (11-13) is still to come.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import FRESH, Context, Outcome, State
from pbem.errors import DataError, InvalidOrderError
from pbem.games.datacheck import given_or_shipped, shipped_files
from pbem.games.race_to_the_sea import cards as rc
from pbem.games.race_to_the_sea import casualties, choices, flow, victory
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import units as ru
from pbem.games.race_to_the_sea.decisions import (
    DECISION_TYPES,
    Bid,
    Discard,
    Done,
    EndRail,
    First,
    Flip,
    Hide,
    March,
    Move,
    OpenAll,
    OpenBid,
    Pass,
    Place,
    Rail,
    Recon,
    format_decision,
    parse_decision,
)
from pbem.games.race_to_the_sea.state import (
    NAMES,
    SIDES,
    STATIC_KEYS,
    copy_state,
    initial_state,
    new_counter_label,
    piece_label,
)
from pbem.kit import decks
from pbem.kit.pieces import Piece
from pbem.kit.steps import NO_OPENINGS, Openings, Step, StepGame, asks_key

PACKAGE = "pbem.games.race_to_the_sea"
DATA_FILES = (rm.MAP_FILE, ru.UNITS_FILE, rc.CARDS_FILE, casualties.MARKERS_FILE)
ACTIVE = asks_key("active")


# --- prompts ----------------------------------------------------------------------------------


def _p_place(state: State, role: str) -> str:
    where = "set up (15)" if state["turn"] == 0 else f"turn {state['turn']}: reinforcements (7.1)"
    units = ", ".join(state["batch"]["units"]) or "False Reports"
    return (
        f"{where}: place {units} ('place fr-iv 0714', cavalry "
        "'place fr-ii-cav 0615 scouting'), then 'done'"
    )


def _p_act(state: State, role: str) -> str:
    return (
        f"turn {state['turn']} round {state['round']}: action {state['index'] + 1} of "
        f"{len(state['order'])} ('move c07 0714 0715', 'flip c03', 'recon c03 0612 to 0613 c21', "
        "or 'pass' if no unit can act)"
    )


PROMPTS = {
    "discard": lambda s, r: (
        f"turn {s['turn']}: draw your unseen Initiative discard ('discard', 7.2)"
    ),
    "rail": lambda s, r: (
        "Allied railroad movement, 4 SZ at most ('rail c03 0620 1007', then 'end rail', 7.3)"
    ),
    "bid": lambda s, r: (
        f"turn {s['turn']} round {s['round']}: bid an Initiative Card ('bid 1-5', 7.4)"
    ),
    "open_bid": lambda s, r: "open your sealed bid ('open bid')",
    "march_first": lambda s, r: (
        "who forced-marches first ('first germans' or 'first allies', 7.7.3)"
    ),
    "march": lambda s, r: (
        f"forced march: {s['march']['left'][r]} unit(s) left "
        "('forced march c03 0714 0715' or 'done')"
    ),
    "fog": lambda s, r: (
        "fog of war: your face-up units away from the enemy hide again ('hide', 7.7.4.A)"
    ),
    "final": lambda s, r: "the game is over: open every sealed piece ('open all', 7.7.6.C)",
}


# --- openings and commitments ----------------------------------------------------------------


def _place_commits(state: State, role: str, d: Any) -> list[str]:
    if isinstance(d, Place) and d.unit is None:
        return [piece_label(new_counter_label(state))]
    return []


def _discard_commits(state: State, role: str, d: Any) -> list[str]:
    return [flow.discard_label(state, role)]


def _fog_commits(state: State, role: str, d: Any) -> list[str]:
    return flow.fresh_labels(state, role)


def _final_opens(state: State, role: str, d: Any) -> Openings:
    if not isinstance(d, OpenAll):
        return NO_OPENINGS
    return Openings(tuple(flow.sealed_of(state, role)), rule="7.7.6.C")


def _open_all(state: State, role: str, d: OpenAll, ctx: Context) -> None:
    flow.open_all(state, role, d, ctx, flow.check_claims)


STEPS: dict[str, Step] = {
    # 15, 7.1: setting up and reinforcements
    "place": Step(
        asks=ACTIVE,
        prompt=_p_place,
        handlers={Place: flow.place, Done: flow.placement_done},
        choices=choices.placements,
        sample=choices.sample_placement,
        commits=_place_commits,
        rule="7.1",
    ),
    # 7.2: the unseen discard
    "discard": Step(
        asks=ACTIVE,
        prompt=PROMPTS["discard"],
        handlers={Discard: flow.discard},
        choices=choices.discards,
        commits=_discard_commits,
        rule="7.2",
        exhaustive=True,
    ),
    # 7.3: Allied railroad movement
    "rail": Step(
        asks=ACTIVE,
        prompt=PROMPTS["rail"],
        handlers={Rail: flow.rail, EndRail: flow.end_rail},
        choices=choices.rails,
        sample=choices.sample_rail,
        rule="7.3",
    ),
    # 7.4, 8: the bids, a sealed round
    "bid": Step(
        asks=flow.BIDS.asks,
        prompt=PROMPTS["bid"],
        handlers={Bid: flow.bid},
        choices=choices.bids,
        commits=flow.BIDS.commits,
        rule="7.4",
    ),
    "open_bid": Step(
        asks=flow.BIDS.asks,
        prompt=PROMPTS["open_bid"],
        handlers={OpenBid: flow.open_bid},
        choices=choices.open_bids,
        rule="7.4",
        exhaustive=True,
    ),
    # 7.5, 9: the actions
    "act": Step(
        asks=flow.acting,
        prompt=_p_act,
        handlers={
            Move: flow.move,
            Flip: flow.flip,
            Recon: flow.recon,
            Pass: flow.pass_action,
        },
        choices=choices.actions,
        sample=choices.sample_action,
        rule="7.5, 9",
    ),
    # 7.7.3: forced march
    "march_first": Step(
        asks=ACTIVE,
        prompt=PROMPTS["march_first"],
        handlers={First: flow.first},
        choices=choices.firsts,
        rule="7.7.3",
        exhaustive=True,
    ),
    "march": Step(
        asks=ACTIVE,
        prompt=PROMPTS["march"],
        handlers={March: flow.forced_march, Done: flow.march_done},
        choices=choices.marches,
        sample=choices.sample_march,
        rule="7.7.3",
    ),
    # 7.7.4.A: fog of war
    "fog": Step(
        asks=ACTIVE,
        prompt=PROMPTS["fog"],
        handlers={Hide: flow.hide},
        choices=choices.hides,
        commits=_fog_commits,
        rule="7.7.4",
        exhaustive=True,
    ),
    # 7.7.6.C: everything opens
    "final": Step(
        asks=ACTIVE,
        prompt=PROMPTS["final"],
        handlers={OpenAll: _open_all},
        choices=choices.finals,
        opens=_final_opens,
        rule="7.7.6",
        exhaustive=True,
    ),
}


class RaceToTheSeaEngine(StepGame):
    """Race to the Sea 1914: the sequence of play, movement and the fog of war (no combat)."""

    name = "race-to-the-sea"
    title = "Race to the Sea 1914"
    version = "1.0"
    roles = SIDES
    required_roles = SIDES
    data_files = DATA_FILES
    steps = STEPS
    decision_types = DECISION_TYPES
    static_keys = STATIC_KEYS
    turn_rule = "7"
    over_rule = "7.7.6.C"
    role_names = NAMES

    # --- data ---------------------------------------------------------------------------

    def default_data(self) -> dict[str, bytes]:
        return shipped_files(PACKAGE, DATA_FILES)

    def load_data(self, files: Mapping[str, bytes]) -> dict[str, Any]:
        raw = given_or_shipped(files, DATA_FILES, "race_to_the_sea", PACKAGE)
        return {
            "map": rm.load_map(raw[rm.MAP_FILE]),
            "units": ru.load_units(raw[ru.UNITS_FILE]),
            "cards": rc.load_cards(raw[rc.CARDS_FILE]),
            "markers": casualties.load_markers(raw[casualties.MARKERS_FILE]),
        }

    # --- 15: setup ----------------------------------------------------------------------

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        if options:
            raise DataError(f"race-to-the-sea has no options (got {', '.join(sorted(options))})")
        state = initial_state(data if data is not None else self.load_data({}))
        state["place_order"] = ["allies", "germans"]  # 15.5.A, 15.6.A
        flow.start_placing(state, None)
        return state

    # --- syntax -------------------------------------------------------------------------

    def parse_decision(self, text: str, state: State, role: str) -> Any:
        return parse_decision(text, state, role)

    def format(self, decision: Any) -> str:
        if not isinstance(decision, DECISION_TYPES):
            raise InvalidOrderError(f"not a race-to-the-sea decision: {decision!r}")
        return format_decision(decision)

    # --- hidden information -------------------------------------------------------------

    def clone(self, state: State) -> State:
        return copy_state(state)

    def check_claims(self, piece: Piece, value: JSON) -> None:
        flow.check_claims(piece, value)

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        """The owner's client: a hidden placement names its unit only in the commitment; a
        bid is sealed unless it is the round's last; the discard and the fresh labels of
        the fog of war commit their values."""
        step = state["step"]
        if isinstance(decision, Place) and decision.unit is not None and step == "place":
            kind = state["units_data"]["units"].get(decision.unit, {}).get("kind")
            if kind is not None and kind != "cavalry":
                nationality = state["units_data"]["units"][decision.unit]["nationality"]
                public = Place(None, nationality, decision.hex)
                return public, {piece_label(new_counter_label(state)): decision.unit}
        if isinstance(decision, Bid) and decision.value is not None:
            values = flow.BIDS.seal(state, role, decision.value)
            if values:
                return Bid(None), values
        if isinstance(decision, Discard) and step == "discard":
            return decision, {flow.discard_label(state, role): FRESH}
        if isinstance(decision, Hide) and step == "fog":
            return decision, dict(flow.rehide_values(state, role))
        return decision, {}

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        """The kit fills `role`'s own pieces; its hand (7.2.B) follows from its discard."""
        filled = super().with_secrets(state, role, known)
        label = state["discards"].get(role) if role in SIDES else None
        if label is None:
            return filled
        piece = state["pieces"][label]
        index = known.get(piece["draw"])
        if not isinstance(index, int):
            return filled
        new = filled if filled is not state else dict(state)
        drawn = decks.private_cards(
            {"pile": piece["pile"], "private": [piece["draw"]]}, {piece["draw"]: index}
        )
        hand = Counter(piece["pile"])
        hand.subtract([*drawn, *state["played"][role]])
        new["hands"] = {**state["hands"], role: sorted(hand.elements())}
        return new

    def view(self, state: State, role: str | None) -> State:
        """The kit strips every sealed value that is not `role`'s; the other's hand too."""
        stripped = super().view(state, role)
        stripped["hands"] = {r: h if r == role else None for r, h in stripped["hands"].items()}
        return stripped

    # --- apply hooks --------------------------------------------------------------------

    def before(self, state: State, role: str, decision: Any, ctx: Context) -> None:
        flow.on_opened(state, ctx)

    # --- the end (14) -------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state["step"] != "over":
            return None
        result = victory.result(state["board"], state["control"])
        points = result.points
        text = (
            f"the Allies {points['allies']} VP, the Germans {points['germans']} VP: "
            f"{result.level}" + (f" for {NAMES[result.winner]}" if result.winner else "")
        )
        return Outcome(result.winner, result.level, dict(points), text)


ENGINE = RaceToTheSeaEngine()
