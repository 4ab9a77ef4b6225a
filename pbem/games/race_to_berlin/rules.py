"""Rules engine for Race to Berlin (two players, 1945).

Dynamics: two players, "west" and "soviet", over three game turns. Each also commands
the German front facing the other (the West the Eastern Front Germans, the Soviets the
Western Front Germans). A turn is a Logistics Phase (players alternate placing sealed
logistics blocks), an Action Phase (alternate moves, attacks and block removals until a
player has no block on the board), the end-of-turn opening of sealed blocks, and a
Strategic Movement Phase (turns 1 and 2). A Western or Soviet unit in B1 wins at once;
a player who cannot pay a cube penalty loses at once; otherwise victory points decide
after turn 3 (ties allowed).

Chance: two d6 per side in every combat (the positive difference is the bonus), two more
for a Reserves re-roll, and a public die for turn 3's first player when the victory
points are tied. Dice are asked for only after the last decision the rules place before
them (protocol section 4): the tokens decision of an attack rolls the combat dice, after
the attack and support declarations are signed.

Information: the logistics blocks' values are hidden (protocol section 5). Each placement
commits its value (`block/<role>/t<turn>/<n>`); the public state never holds a sealed
value. Blocks are opened at step 5 of their first attack or defence, or at the end of the
game turn; claims made while sealed (exhaustion) are checked then.

Modules: `state` (shape and setup), `decisions` (syntax), `blocks` (hidden values and
cubes), `board` (entering areas, markers, control), `supply`, `logistics`, `actions`
(move, remove), `combat` (steps 1-7), `effects` (steps 8-9), `strategic`, `opening`,
`flow` (phases, victory), `choices`, `view`, `bot`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context, Engine, Outcome, Prompt, State
from pbem.errors import DataError, IllegalOrderError, InvalidOrderError
from pbem.games.race_to_berlin import data as rtb_data
from pbem.games.race_to_berlin.actions import move, remove
from pbem.games.race_to_berlin.blocks import fill_secrets, label_for, sealed_labels
from pbem.games.race_to_berlin.board import refresh_markers
from pbem.games.race_to_berlin.choices import asked, choices
from pbem.games.race_to_berlin.combat import (
    declare,
    declare_support,
    play_tokens,
    reserves,
    support_openings,
    token_openings,
)
from pbem.games.race_to_berlin.decisions import (
    DECISION_TYPES,
    Advance,
    Attack,
    Counterattack,
    EndStrategic,
    Loss,
    Move,
    OpenBlocks,
    Place,
    PlaceReserve,
    RemoveBlock,
    Reserves,
    Retreat,
    Strategic,
    Support,
    Tokens,
    format_decision,
    parse_decision,
)
from pbem.games.race_to_berlin.effects import advance, counterattack, loss, retreat
from pbem.games.race_to_berlin.flow import finish, start_turn
from pbem.games.race_to_berlin.logistics import place
from pbem.games.race_to_berlin.opening import open_blocks
from pbem.games.race_to_berlin.prompts import prompt_text
from pbem.games.race_to_berlin.state import (
    NAMES,
    ROLES,
    clone_state,
    illegal,
    initial_state,
    known_value,
    own_block_in,
)
from pbem.games.race_to_berlin.strategic import end_strategic, place_reserve, strategic_move
from pbem.games.race_to_berlin.view import public_view

# Named steps (Rally the Troops' `states`): the decisions each step accepts.
STEPS: dict[str, tuple[type, ...]] = {
    "place": (Place,),
    "action": (Move, Attack, RemoveBlock),
    "support": (Support,),
    "tokens": (Tokens,),
    "reserves": (Reserves,),
    "counterattack": (Counterattack,),
    "loss": (Loss,),
    "retreat": (Retreat,),
    "advance": (Advance,),
    "strategic": (Strategic, EndStrategic),
    "place_reserve": (PlaceReserve,),
    "open": (OpenBlocks,),
}

_HANDLERS: dict[type, Any] = {
    Place: place,
    Move: move,
    Attack: declare,
    RemoveBlock: remove,
    Support: declare_support,
    Tokens: play_tokens,
    Reserves: reserves,
    Counterattack: counterattack,
    Loss: loss,
    Retreat: retreat,
    Advance: advance,
    Strategic: strategic_move,
    EndStrategic: end_strategic,
    PlaceReserve: place_reserve,
    OpenBlocks: open_blocks,
}

# Decisions that may carry openings or commitments (protocol section 5).
OPENS = (Support, Tokens, OpenBlocks)
COMMITS = (Place,)


class RaceToBerlinEngine(Engine):
    """Race to Berlin: a two-player race to Berlin in 1945, each side also playing the
    Germans facing the other, with sealed logistics blocks."""

    name = "race-to-berlin"
    title = "Race to Berlin"
    version = "1.0"
    roles = ROLES
    required_roles = ROLES
    data_files = rtb_data.DATA_FILES

    # --- data ---------------------------------------------------------------------------

    def default_data(self) -> dict[str, bytes]:
        return rtb_data.default_data()

    def load_data(self, files: Mapping[str, bytes]) -> dict[str, Any]:
        return rtb_data.load_data(files)

    # --- rulebook 2: game preparation ---------------------------------------------------

    def setup(self, data: Any, options: Mapping[str, Any]) -> State:
        if options:
            raise DataError(f"race-to-berlin has no options (got {', '.join(sorted(options))})")
        if data is None:
            data = self.load_data({})
        state = initial_state(data)
        refresh_markers(state)
        start_turn(state, None)
        return state

    # --- prompts, choices, syntax -------------------------------------------------------

    def prompts(self, state: State) -> list[Prompt]:
        return [Prompt(role, prompt_text(state, role)) for role in asked(state)]

    def choices(self, state: State, role: str) -> list[Any]:
        return choices(state, role)

    def parse(self, text: str, state: State, role: str) -> Any:
        return parse_decision(text, state, role)

    def format(self, decision: Any) -> str:
        if not isinstance(decision, DECISION_TYPES):
            raise InvalidOrderError(f"not a race-to-berlin decision: {decision!r}")
        return format_decision(decision)

    # --- hidden information -------------------------------------------------------------

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        if role not in ROLES:
            return state
        return fill_secrets(state, role, known)

    def seal(self, state: State, role: str, decision: Any) -> tuple[Any, dict[str, JSON]]:
        if isinstance(decision, Place):
            if decision.value is None:
                raise IllegalOrderError(
                    f"illegal: say which block to place, e.g. 'place 4 in {decision.area}' "
                    "(rulebook 4.1.1: players choose any one of their remaining blocks)"
                )
            hand = state["hands"].get(role)
            if hand is not None and decision.value not in hand:
                left = ", ".join(str(v) for v in hand) or "none"
                raise illegal(
                    f"{NAMES[role]} has no {decision.value}-block left to place (left: {left})",
                    "4.1: 8 blocks, 2 each of 2, 3, 4, 5",
                )
            return Place(decision.area), {label_for(state, role): decision.value}
        if isinstance(decision, Attack):
            block = own_block_in(state, decision.frm, role)
            value = known_value(block) if block is not None else None
            if block is not None and value is not None:
                after = block["cubes"] + decision.cubes
                if after > value:
                    raise illegal(
                        f"the {value}-block in {decision.frm} has {block['cubes']} cubes; "
                        f"{decision.cubes} more would exceed its value",
                        "4.1",
                    )
                return Attack(decision.target, decision.frm, decision.cubes, after == value), {}
        return decision, {}

    def due_openings(self, state: State, role: str, decision: Any) -> list[str]:
        step = state.get("step")
        if isinstance(decision, Support) and step == "support":
            return support_openings(state, role, decision)
        if isinstance(decision, Tokens) and step == "tokens":
            return token_openings(state, role)
        if isinstance(decision, OpenBlocks) and step == "open":
            return sealed_labels(state, role)
        return []

    # --- apply --------------------------------------------------------------------------
    # Every handler validates first and rolls last: the adjudicator's first call uses a
    # context whose roll() raises EntropyPending, which must mean "legal, waiting for dice".

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        if not isinstance(decision, DECISION_TYPES):
            raise IllegalOrderError(f"illegal: {decision!r} is not a race-to-berlin decision")
        if state["phase"] == "over":
            raise illegal("the game is over", "5")
        if role not in asked(state):
            who = ", ".join(NAMES[r] for r in asked(state)) or "nobody"
            raise illegal(f"{role!r} is not asked now; the game waits for {who}", "4")
        step = state["step"]
        if not isinstance(decision, STEPS[step]):
            raise illegal(
                f"{format_decision(decision)!r} is not possible now ({prompt_text(state, role)})",
                "4",
            )
        if not isinstance(decision, OPENS) and ctx.opened_now():
            raise illegal(
                f"{', '.join(sorted(ctx.opened_now()))} may not be opened by this decision",
                "4.2.1.2 step 5",
            )
        if not isinstance(decision, COMMITS) and ctx.committed_now():
            raise illegal(
                f"{', '.join(ctx.committed_now())}: only a placement commits a value", "4.1.1"
            )
        new = clone_state(state)
        _HANDLERS[type(decision)](new, role, decision, ctx)
        if new["result"] is not None and new["phase"] not in ("opening", "over"):
            finish(new, ctx)
        return new

    # --- views and the result -----------------------------------------------------------

    def view(self, state: State, role: str | None) -> State:
        # The public state holds no sealed value; every role sees the same.
        return public_view(state)

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        result = state["result"]
        score = dict(state["vp"])
        return Outcome(
            winner=result["winner"],
            level=result["level"],
            score=score,
            text=f"{result['reason']} (victory points West {score['west']}, "
            f"Soviet {score['soviet']})",
        )


ENGINE = RaceToBerlinEngine()
