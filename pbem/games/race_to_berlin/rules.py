"""Rules engine for Race to Berlin (two players, 1945).

Dynamics: two players, "west" and "soviet", over three game turns. Each also commands
the German front facing the other (the West the Eastern Front Germans, the Soviets the
Western Front Germans). A turn is a Logistics Phase (players alternate placing sealed
logistics blocks), an Action Phase (alternate moves, attacks and block removals until a
player has no block on the board), the end-of-turn opening of sealed blocks (West first,
then Soviet: one signer at a time, protocol section 8), and a Strategic Movement Phase
(turns 1 and 2). A Western or Soviet unit in B1 wins at once; a player who cannot pay a
cube penalty loses at once; otherwise victory points decide after turn 3 (ties allowed).

Chance: two d6 per side in every combat (the positive difference is the bonus), two more
for a Reserves re-roll, and a public die for turn 3's first player when the victory
points are tied. Dice are asked for only after the last decision the rules place before
them (protocol section 4): the tokens decision of an attack rolls the combat dice, after
the attack and support declarations are signed.

Information: the logistics blocks' values are hidden (protocol section 5); each block is a
hidden piece of the kit (`pbem.kit.pieces`). Each placement commits its value
(`block/<role>/t<turn>/<n>`); the public state never holds a sealed value. Blocks are
opened at step 5 of their first attack or defence, or at the end of the game turn;
claims made while sealed (exhaustion) are checked then.

The engine is a kit step table (`STEPS`): each step names who is asked, its prompt, its
handlers, its choices and the openings or commitments its decision carries; the kit's
shared `apply` does the checks every game shares. Modules: `state` (shape, setup,
copies), `decisions` (syntax), `blocks` (hidden values and cubes), `units`, `board`
(entering areas, markers, control), `victory`, `supply`, `logistics`, `actions` (move,
remove), `tokens` (special tokens), `combat` (steps 1-7), `effects` (steps 8-9),
`retreats` (what may retreat and advance), `strategic`, `flow` (the sequence of play),
`prompts`, `choices`, `view`, `bot`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context, Engine, Outcome, State
from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin import choices, flow, prompts
from pbem.games.race_to_berlin import data as rtb_data
from pbem.games.race_to_berlin.actions import move, remove
from pbem.games.race_to_berlin.blocks import label_for, open_block, remaining_hand, sealed_labels
from pbem.games.race_to_berlin.board import refresh_markers
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
    WRITERS,
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
from pbem.games.race_to_berlin.standing import ORDERS
from pbem.games.race_to_berlin.state import (
    NAMES,
    ROLES,
    copy_state,
    illegal,
    initial_state,
    own_block_in,
    writable_block,
)
from pbem.games.race_to_berlin.view import board_view
from pbem.kit.pieces import Piece, known_value
from pbem.kit.steps import NO_OPENINGS, Openings, Step, StepGame

R_REVEAL = "4.2.1.2 step 5"
R_END_OPENING = "4.1: revealed blocks stay revealed until the end of the game turn"

# --- who is asked ---------------------------------------------------------------------------


def _active(state: State) -> str | None:
    """The player whose placement, action or strategic move it is."""
    active: str | None = state["active"]
    return active


def _combat(state: State) -> str:
    """The player the attack in progress asks (the defence, the losses, the advance...)."""
    asked: str = state["combat"]["asked"]
    return asked


def _opener(state: State) -> str | None:
    """At the end of the turn, one player at a time opens its sealed blocks, West first
    (protocol section 8: one signer at a time; docs/protocol-notes.md, "Turn order")."""
    for role in ROLES:
        for block in state["blocks"]:
            if block["owner"] == role and not block["revealed"]:
                return role
    return None


# --- what a decision opens and commits (protocol section 5) ------------------------------------


def _support_opens(state: State, role: str, d: Any) -> Openings:
    if not isinstance(d, Support):
        return NO_OPENINGS
    return Openings(tuple(support_openings(state, role, d)), rule=R_REVEAL)


def _token_opens(state: State, role: str, d: Any) -> Openings:
    if not isinstance(d, Tokens):
        return NO_OPENINGS
    return Openings(tuple(token_openings(state, role)), rule=R_REVEAL)


def _end_opens(state: State, role: str, d: Any) -> Openings:
    if not isinstance(d, OpenBlocks):
        return NO_OPENINGS
    return Openings(tuple(sealed_labels(state, role)), rule=R_END_OPENING)


def _place_commits(state: State, role: str, d: Any) -> list[str]:
    return [label_for(state, role)]


# --- the steps (Rally the Troops' `states`), in the order of a game turn -----------------------

STEPS: dict[str, Step] = {
    # rulebook 4.1.1: the Logistics Phase
    "place": Step(
        asks=_active,
        prompt=prompts.place,
        handlers={Place: flow.place},
        choices=choices.placements,
        commits=_place_commits,
        exhaustive=True,
    ),
    # rulebook 4.2: the Action Phase
    "action": Step(
        asks=_active,
        prompt=prompts.action,
        handlers={Move: move, Attack: declare, RemoveBlock: remove},
        choices=choices.actions,
    ),
    # rulebook 4.2.1.2 steps 4-7: support, reveal and tokens, Reserves
    "support": Step(
        asks=_combat,
        prompt=prompts.support,
        handlers={Support: declare_support},
        choices=choices.supports,
        opens=_support_opens,
        exhaustive=True,
    ),
    "tokens": Step(
        asks=_combat,
        prompt=prompts.tokens,
        handlers={Tokens: play_tokens},
        choices=choices.tokens,
        opens=_token_opens,
        exhaustive=True,
    ),
    "reserves": Step(
        asks=_combat,
        prompt=prompts.reserves,
        handlers={Reserves: reserves},
        choices=choices.reserves,
        exhaustive=True,
    ),
    # rulebook 4.2.1.2 steps 8-9: Counterattack, losses, retreat, advance
    "counterattack": Step(
        asks=_combat,
        prompt=prompts.counterattack,
        handlers={Counterattack: counterattack},
        choices=choices.counterattacks,
        exhaustive=True,
    ),
    "loss": Step(
        asks=_combat,
        prompt=prompts.loss,
        handlers={Loss: loss},
        choices=choices.losses,
        exhaustive=True,
    ),
    "retreat": Step(
        asks=_combat,
        prompt=prompts.retreat,
        handlers={Retreat: retreat},
        choices=choices.retreats,
    ),
    "advance": Step(
        asks=_combat,
        prompt=prompts.advance,
        handlers={Advance: advance},
        choices=choices.advances,
    ),
    # protocol section 5: the end-of-turn openings, one player at a time
    "open": Step(
        asks=_opener,
        prompt=prompts.open_blocks,
        handlers={OpenBlocks: flow.open_blocks},
        choices=choices.openings,
        opens=_end_opens,
        exhaustive=True,
    ),
    # rulebook 4.3: the Strategic Movement Phase and the 6th SS Panzer Army's transfer
    "strategic": Step(
        asks=_active,
        prompt=prompts.strategic,
        handlers={Strategic: flow.strategic_move, EndStrategic: flow.end_strategic},
        choices=choices.strategic,
    ),
    "place_reserve": Step(
        asks=_active,
        prompt=prompts.place_reserve,
        handlers={PlaceReserve: flow.place_reserve},
        choices=choices.reserve_placements,
        exhaustive=True,
    ),
}


class RaceToBerlinEngine(StepGame):
    """Race to Berlin: a two-player race to Berlin in 1945, each side also playing the
    Germans facing the other, with sealed logistics blocks."""

    name = "race-to-berlin"
    title = "Race to Berlin"
    version = "1.1"
    # 1.0: before the shell-safe syntax of issue 14 (`move 11 -> 12: us-1`); its games keep
    # signing that canonical text (`for_version`); the parser reads both in every version.
    earlier_versions = ("1.0",)
    shell_safe = True
    roles = ROLES
    required_roles = ROLES
    data_files = rtb_data.DATA_FILES

    steps = STEPS
    orders = ORDERS
    decision_types = DECISION_TYPES
    turn_rule = "4"
    over_rule = "5"
    role_names = NAMES

    def for_version(self, version: str) -> Engine:
        """1.0 writes its decisions as 1.0 did (`->`, a colon); its rules are those of 1.1."""
        if version == "1.0":
            return self.earlier("1.0", shell_safe=False)
        return super().for_version(version)

    # --- data ---------------------------------------------------------------------------

    def read_data(self, raw: Mapping[str, bytes]) -> dict[str, Any]:
        return rtb_data.read_files(raw)

    # --- rulebook 2: game preparation ---------------------------------------------------

    def setup(self, data: Any, options: Mapping[str, Any]) -> State:
        self.refuse_options(options)
        state = initial_state(self.data_or_shipped(data))
        refresh_markers(state)
        flow.start_turn(state, None)
        return state

    # --- syntax -------------------------------------------------------------------------

    def parse_decision(self, text: str, state: State, role: str) -> Any:
        return parse_decision(text, state, role)

    def format_decision(self, decision: Any) -> str:
        return format_decision(decision, self.shell_safe)

    def format(self, decision: Any) -> str:
        # (asked for every entry: the writer of the decision's type, `decisions.WRITERS`;
        # anything else, a subclass or no decision, takes the kit's checked way)
        writer = WRITERS.get(type(decision))
        if writer is None:
            return super().format(decision)
        return writer(decision, self.shell_safe)

    # --- hidden information -------------------------------------------------------------

    def pieces(self, state: State) -> list[Piece]:
        blocks: list[Piece] = state["blocks"]
        return blocks

    def settle_piece(self, state: State, piece: Piece, ctx: Context) -> None:
        # A block opened after the game is checked as one opened in play: one of its
        # owner's values, every cube claim, no value used twice (4.1).
        open_block(state, piece, ctx)

    def clone(self, state: State) -> State:
        return copy_state(state)

    def writable(self, state: State, piece: Piece) -> Piece:
        """A copy shares its blocks with its source until it changes one (`writable_block`)."""
        return writable_block(state, piece)

    def clone_for_secrets(self, state: State) -> State:
        # The kit fills in values on the blocks only (and `with_secrets` replaces `hands`):
        # the rest is shared with the public state, which the filled-in state never changes.
        new = dict(state)
        new["blocks"] = [dict(block) for block in state["blocks"]]
        return new

    def with_secrets(self, state: State, role: str, known: Mapping[str, JSON]) -> State:
        """The kit fills in `role`'s own sealed block values; its hand left to place follows."""
        if role not in ROLES:
            return state
        filled = super().with_secrets(state, role, known)
        new = filled if filled is not state else dict(state)  # only `hands` changes below
        new["hands"] = {**state["hands"], role: remaining_hand(filled, role)}
        return new

    def view(self, state: State, role: str | None) -> State:
        """The kit strips every sealed value that is not `role`'s (the other's hand too)."""
        stripped = super().view(state, role)
        stripped["hands"] = {r: h if r == role else None for r, h in stripped["hands"].items()}
        return board_view(stripped)

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
            if block is not None and isinstance(value, int):
                after = block["cubes"] + decision.cubes
                if after > value:
                    raise illegal(
                        f"the {value}-block in {decision.frm} has {block['cubes']} cubes; "
                        f"{decision.cubes} more would exceed its value",
                        "4.1",
                    )
                return Attack(decision.target, decision.frm, decision.cubes, after == value), {}
        return decision, {}

    # --- apply: the kit's shared checks, the step's handler, then this ---------------------
    # Every handler validates first and rolls last: the adjudicator's first call uses a
    # context whose roll() raises EntropyPending, which must mean "legal, waiting for dice".

    def after(self, state: State, role: str, decision: Any, ctx: Context) -> None:
        # A result (B1, an unpaid cube loss) ends the game at once: the last openings.
        if state["result"] is not None and state["phase"] not in ("opening", "over"):
            flow.finish(state, ctx)

    # --- the result ---------------------------------------------------------------------

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
