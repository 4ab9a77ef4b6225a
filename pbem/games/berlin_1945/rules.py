"""Rules engine for Berlin 1945: The Fall of the Reichstag (roles german and soviet), a game
of the kit (`pbem.kit.steps.StepGame`).

A turn (rulebook 7): card draw (private draws, hand limit 6), secret Soviet planning (the
hidden piece `plan/turn-<n>`), German movement, Soviet movement (the plan is opened and
executed; orders the German made illegal are cancelled or converted into a Retreat),
combat in every disputed zone (German then Soviet card choice, deterministic strengths,
the winner's d10 casualty checks), and the Reichstag presence check. Soviet reinforcements
arrive after the draw of turn 4 (8.1). From the end of turn 4 the German wins at once when
his strength in Berlin exceeds the Soviet one; otherwise the Soviet wins at the end of turn
12 with twice the German strength in Sector V (9). At the end both sides open every hand
slot and draw secret and every draw is recomputed and checked.

The step table is `steps.STEPS`; the rules are in `flow` (the sequence), `moves` (5),
`plan` (7.2), `hands` (2.3), `cards` (card effects), `combat` (7.4), `undo` (reactions),
and the handlers of each phase (`turn`, `german`, `soviet`, `battle`, `reaction`,
`orders`). The state is described in `state`; what a role sees in `view`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from operator import itemgetter
from typing import Any

from pbem.core.canonical import JSON, copy_json
from pbem.core.engine import FRESH, Context, Engine, Outcome, State
from pbem.errors import InvalidOrderError, PbemError
from pbem.games.berlin_1945 import data, flow, shared_parts, tables
from pbem.games.berlin_1945.decisions import (
    DECISION_TYPES,
    WRITERS,
    Cards,
    Draw,
    Open,
    Plan,
    Play,
    format_decision,
    parse_decision,
)
from pbem.games.berlin_1945.hands import (
    commit_pending,
    drawn_cards,
    hand_cards,
    next_secret,
    pending_labels,
    seal_drawn,
    slot_label,
    slot_of,
)
from pbem.games.berlin_1945.plan import check_plan_legal, plan_label, plan_to_json, snapshot
from pbem.games.berlin_1945.rulebook import NAMES, ROLES
from pbem.games.berlin_1945.standing import ORDERS as STANDING_ORDERS
from pbem.games.berlin_1945.state import fixed, illegal, initial_state
from pbem.games.berlin_1945.steps import STEPS
from pbem.games.berlin_1945.view import view
from pbem.kit import pieces
from pbem.kit.pieces import Piece
from pbem.kit.steps import StepGame


class Berlin1945Engine(StepGame):
    """Berlin 1945: The Fall of the Reichstag, German against Soviet in 12 turns, with a secret
    Soviet plan and hidden hands drawn privately."""

    name = "berlin-1945"
    title = "Berlin 1945: The Fall of the Reichstag"
    version = "1.2"
    # 1.0: before the rules fixes of issue 13; its games keep its rules (`for_version`).
    # A game from 1.1 on records "rules" in its state (`state.fixed`), which the fixes read.
    # 1.1: the rules of 1.2, written as before the shell-safe syntax of issue 14 (`->`, `;`,
    # `#`, `!`); 1.0 and 1.1 games keep signing that canonical text.
    earlier_versions = ("1.0", "1.1")
    fixes = True
    shell_safe = True
    roles = ROLES
    required_roles = ROLES
    data_files = data.DATA_FILES
    decision_types = DECISION_TYPES
    steps = STEPS
    orders = STANDING_ORDERS
    turn_rule = "7"
    over_rule = "9"
    static_keys = ("tables",)
    role_names = NAMES

    def for_version(self, version: str) -> Engine:
        """1.0 keeps the rules as they were: its states never hold "rules"; 1.0 and 1.1 keep
        their decisions' text (`shell_safe` off)."""
        if version == "1.0":
            return self.earlier("1.0", fixes=False, shell_safe=False)
        if version == "1.1":
            return self.earlier("1.1", shell_safe=False)
        return super().for_version(version)

    def read_data(self, raw: Mapping[str, bytes]) -> str:
        """Validate the files (DataError with a clear message) and build the tables text."""
        return tables.build(data.read_files(raw))

    def setup(self, data: Any, options: Mapping[str, JSON]) -> State:
        self.refuse_options(options)
        state = initial_state(self.data_or_shipped(data))
        if self.fixes:
            state["rules"] = self.version
        return state

    def clone(self, state: State) -> State:
        """A copy to change, made part by part (`COPY`): a part is copied down to the level
        the rules change it in place, and what they never change in place is shared (the
        tables, a kit static key; the lists of `at`, replaced by `position`; the hand slots,
        copied on write by `hands.writable`; the decks, cards played, markers and flags,
        copied on write by `shared_parts.own_part`). Every card drawn stays a piece all game, and
        a deep copy of them all on every entry would be most of the cost of an entry.
        A part `COPY` does not name is copied whole."""
        # (`_SHAPE` in C: as many keys as it has, each of them found; a comparison of the
        # keys with the set would cost a fifth of the copy)
        if len(state) == _SHAPE_COUNT:
            try:
                _SHAPE_PARTS(state)
            except KeyError:
                return generic_clone(state)  # (not a state these rules make: the reference)
        elif state.keys() != _SHAPE_1_0:
            return generic_clone(state)
        # Every part of a state of these rules, copied in line (a loop over the parts and a
        # call per part made the copy a quarter slower). `generic_clone` is the reference: the
        # same copy, which tests/games/berlin_1945/test_b45_clone.py checks on every state
        # of the demo and of bot games. A part that is not of the type these rules give it
        # takes the reference too.
        todo, move, plan, combat = state["todo"], state["move"], state["plan"], state["combat"]
        if (
            type(todo) is not list
            or (move is not None and type(move) is not dict)
            or (combat is not None and type(combat) is not dict)
            or (plan is not None and type(plan) is not dict)
        ):
            return generic_clone(state)
        # (loops, not comprehensions: a comprehension is a call of its own in Python 3.11;
        # `.copy()` of each dict and list, not `dict(...)` or `list(...)`: the same copy,
        # but a dict's `.copy()` clones its table at once where `dict(...)` inserts key by
        # key)
        new = state.copy()
        at = {}
        for side, zones in state["at"].items():
            at[side] = zones.copy()
        new["at"] = at
        new["control"] = state["control"].copy()
        new["todo"] = todo.copy()
        if move is not None:
            new["move"] = move_copy(move)
        hands = {}
        for role, hand in state["hands"].items():
            hands[role] = {
                "slots": hand["slots"].copy(),
                "pending": hand["pending"].copy(),
                "secrets": hand["secrets"].copy(),
            }
        new["hands"] = hands
        shared_parts.shared(state, new)  # (the decks, cards played, markers and flags)
        if plan is not None:
            new["plan"] = plan_copy(plan)
        if combat is not None:
            new["combat"] = copy_json(combat)
        return new

    # --- syntax -------------------------------------------------------------------------------

    def parse(self, text: str, state: State, role: str) -> Any:
        """One syntax in every step (no step has its own parser): the state is not read."""
        return parse_decision(text)

    def format(self, decision: Any) -> str:
        # (asked for every entry: the writer of the decision's exact type at once; anything
        # else, a subclass or no decision, takes the checked way)
        writer = WRITERS.get(type(decision))
        if writer is not None:
            return writer(decision, self.shell_safe)
        if not isinstance(decision, DECISION_TYPES):
            raise InvalidOrderError(f"not a Berlin 1945 decision: a {type(decision).__name__}")
        return self.format_decision(decision)

    def format_decision(self, decision: Any) -> str:
        return format_decision(decision, self.shell_safe)

    # --- hidden information -------------------------------------------------------------------

    def pieces(self, state: State) -> Iterable[Piece]:
        """The hand slots of both sides and the plan."""
        out = [
            *state["hands"]["german"]["slots"].values(),
            *state["hands"]["soviet"]["slots"].values(),
        ]
        if state["plan"] is not None:
            out.append(state["plan"])
        return out

    def due_pieces(self, state: State, role: str) -> list[Piece]:
        """The kit's answer (`pieces.due` of `pieces`), without listing the pieces first
        (asked for every entry)."""
        hands, plan = state["hands"], state["plan"]
        german, soviet = hands["german"]["slots"].values(), hands["soviet"]["slots"].values()
        # (most often none is due: a piece that says why it is due looked for in C first,
        # and the pieces listed only when one does)
        if any(map(_DUE, german)) or any(map(_DUE, soviet)) or (plan is not None and _DUE(plan)):
            found = [*german, *soviet]
            if plan is not None:
                found.append(plan)
            return pieces.due(found, role)
        return []

    def standing_commits(self, state: State, role: str) -> Collection[str]:
        """The cards drawn by `role`'s previous entry: committed by its next one."""
        return pending_labels(state, role)

    def before(self, state: State, role: str, decision: Any, ctx: Context) -> None:
        commit_pending(state, role, ctx)

    def after(self, state: State, role: str, decision: Any, ctx: Context) -> None:
        """9.2: the automatic German victory holds "at any time during any turn", so every
        entry (the one place each change of strength in Berlin goes through: a Rebuild, a
        reinforcement card, a cancelled order or card, a removal) ends with the check (1.1).
        Not while a combat's casualties or after-combat cards are being chosen: that combat
        is not over yet (its end checks)."""
        if not fixed(state) or state["step"] in ("reveal", "over"):
            return
        combat = state["combat"]
        if combat is not None and combat["sub"] in ("casualties", "after"):
            return
        flow.german_auto_victory(state, ctx)

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        """`role`'s own cards and plan filled in, the cards it drew (not yet committed)
        computed from its own private draws. The parts it fills are new; every other part
        is the public state's own (a role's state is never applied nor changed)."""
        if role not in ROLES:
            return state
        hand = state["hands"][role]
        mine = dict(hand, slots={k: pieces.fill(p, known) for k, p in hand["slots"].items()})
        if hand["pending"]:
            mine["drawn"] = drawn_cards(state, role, known)
        new = dict(state, hands={**state["hands"], role: mine})
        if role == "soviet" and state["plan"] is not None:
            new["plan"] = pieces.fill(state["plan"], known)
        return new

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        values = seal_drawn(state, role)
        if isinstance(decision, Draw):
            values[next_secret(state, role)] = FRESH
        if isinstance(decision, Plan) and not decision.sealed:
            plan = plan_to_json(decision)
            try:
                check_plan_legal(state, snapshot(state), plan)
            except PbemError as exc:
                raise illegal(f"the plan is illegal: {exc}", "7.2") from exc
            # a card drawn this turn counts (2.3, 7.1-7.2): the plan's entry commits its slot
            drawn = state["hands"][role].get("drawn", {}).values()
            card = plan["card"]
            if card is not None and slot_of(state, role, int(card)) is None and card not in drawn:
                raise illegal(f"card #{card} is not in your hand", "5.4")
            values[plan_label(state["turn"])] = plan
            return Plan(sealed=True), values
        if isinstance(decision, (Play, Cards)):
            held = hand_cards(state, role).values()
            for card in (decision.card,) if isinstance(decision, Play) else decision.cards:
                if card not in held:
                    raise illegal(f"card {card} is not in your hand", "2.3")
        return decision, values

    def due_openings(self, state: State, role: str, decision: Any) -> list[str]:
        """The step's required openings, and the slot of each card the decision plays."""
        labels = super().due_openings(state, role, decision)
        cards: tuple[int, ...] = ()
        if isinstance(decision, Play):
            cards = (decision.card,)
        elif isinstance(decision, Cards):
            cards = decision.cards
        elif isinstance(decision, Open) and state["step"] == "open":
            planned = pieces.known_value(state["plan"])
            if isinstance(planned, dict) and isinstance(planned.get("card"), int):
                cards = (planned["card"],)
        for card in cards:
            k = slot_of(state, role, card)
            if k is not None:
                labels.append(slot_label(role, k))
        return labels

    # --- views and the result -----------------------------------------------------------------

    def view(self, state: State, role: str | None) -> State:
        return view(state, role)

    def outcome(self, state: State) -> Outcome | None:
        if state["step"] != "over":
            return None
        result = state["result"]
        winner = result["winner"]
        score = {r: (1 if r == winner else 0) for r in ROLES}
        return Outcome(winner, result["level"], score, result["reason"])


def hands_copy(hands: dict[str, Any]) -> dict[str, Any]:
    """The slots dicts are copied, the slots themselves shared until written."""
    return {
        role: {
            "slots": dict(hand["slots"]),
            "pending": list(hand["pending"]),
            "secrets": list(hand["secrets"]),
        }
        for role, hand in hands.items()
    }


def move_copy(move: dict[str, Any]) -> dict[str, Any]:
    """A logged order or card never changes (what is undone is listed apart), so the logs
    are copied, not their entries; the card being played adds to its own, new entry."""
    new = move.copy()
    new["moved"] = move["moved"].copy()
    new["log"] = move["log"].copy()
    new["card_log"] = move["card_log"].copy()
    new["undone"] = move["undone"].copy()
    new["cards_undone"] = move["cards_undone"].copy()
    if move["double"] is not None:
        new["double"] = move["double"].copy()
    return new


def plan_copy(plan: Piece) -> Piece:
    """The plan piece: its status is copied, its snapshot and opened orders are shared."""
    new = plan.copy()
    new["claims"] = plan["claims"].copy()
    if new.get("status") is not None:
        new["status"] = new["status"].copy()
    return new


# How `clone` copies each part: a function, or None to share it (never changed in place:
# the rules replace it). Any other part (`combat`) is copied whole.
COPY: dict[str, Callable[[Any], Any] | None] = {
    "tables": None,
    "at": lambda at: {side: dict(zones) for side, zones in at.items()},
    "removed": None,
    "control": dict,
    "flags": None,  # (the lazy parts: shared until changed, shared_parts.own_part)
    "todo": list,
    "played": None,
    "markers": None,
    "move": move_copy,
    "react": None,
    "result": None,
    "hands": hands_copy,
    "decks": None,
    "plan": plan_copy,
}


# The keys of a state of these rules (1.1 on record "rules"; 1.0 does not), for `clone`.
_SHAPE_1_0 = frozenset(
    {
        "tables", "at", "removed", "control", "flags", "turn", "phase", "step", "todo",
        "draw_count", "german_max", "reinforced", "move", "decks", "hands", "plan", "combat",
        "react", "markers", "played", "result",
    }
)  # fmt: skip
_SHAPE = _SHAPE_1_0 | {"rules"}
_SHAPE_COUNT = len(_SHAPE)
_DUE = itemgetter("due")  # (a piece's reason to be opened next, as `pieces.due` reads it)
_SHAPE_PARTS = itemgetter(*_SHAPE)  # (KeyError unless every key of `_SHAPE` is there)
# (`clone` leaves the other parts to `dict(state)`: shared ones, None in `COPY`, and the
# scalars: turn, phase, step, draw_count, german_max, reinforced, rules.)


def generic_clone(state: State) -> State:
    """The reference copy: each part by `COPY`, any part it does not name copied whole."""
    new = dict(state)
    for key, value in state.items():
        if isinstance(value, (dict, list)):
            copy = COPY.get(key, copy_json)
            if copy is not None:
                new[key] = copy(value)
    shared_parts.shared(state, new)
    return new


ENGINE = Berlin1945Engine()
