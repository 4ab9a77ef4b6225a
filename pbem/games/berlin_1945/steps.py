"""The step table of Berlin 1945 (the kit's `Step`s): for each step of the game sequence
(rulebook 7), who is asked, the prompt, the decisions it accepts with their handlers, the
legal choices, and the openings and commitments a decision may carry.

    draw       each side in turn draws (the initial hand of 5, then 1 a turn)   2.3, 7.1
    limit      a side over 6 cards discards down to 6                          7.1
    reinforce  the Soviet reinforcements enter (turn 4)                        8.1
    plan       the Soviet commits the plan in secret                           7.2
    german     German movement, cards and additional orders                    7.3, 5, 6
    react      the opponent may cancel an order or card of the phase just over 2.3, 6.1
    open       the Soviet opens the plan                                       7.3
    soviet     the Soviet executes the plan                                    7.3, 6.1
    combat     the German picks a combat, both play cards, casualties          7.4
    reichstag  the Soviet presence check                                       7.5
    reveal     the game is decided: each side opens every secret               2.3, 9

Every entry may also commit the cards its side drew in its previous entry (the engine's
`standing_commits`; they become hand slots before the handler runs).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import State
from pbem.games.berlin_1945 import battle, choices, german, reaction, soviet, turn
from pbem.games.berlin_1945.decisions import (
    Cancel,
    Cards,
    Casualties,
    Discard,
    Draw,
    EndMovement,
    Execute,
    Fight,
    Move,
    NoReaction,
    Open,
    Plan,
    Play,
    Rebuild,
    Reinforce,
    RemoveUnit,
    RetreatOrder,
)
from pbem.games.berlin_1945.hands import held_labels, next_secret, reveal_labels
from pbem.games.berlin_1945.orders import play_card
from pbem.games.berlin_1945.plan import plan_label
from pbem.kit.steps import Openings, Step, asks

HAND_RULE = "2.3"  # what a refusal of a card slot's opening cites
NOTHING = Openings(rule=HAND_RULE)  # an entry that opens something here cites rule 2.3


def in_turn(state: State) -> str:
    """Steps that ask each side in turn (`todo`)."""
    return str(state["todo"][0])


# --- openings and commitments ----------------------------------------------------------------


def card_openings(state: State, role: str, decision: Any) -> Openings:
    """A card played opens the slot that holds it; which one, only its owner knows, so it
    may open any slot in hand (the handler checks it holds a card played)."""
    if isinstance(decision, (Play, Cards)):
        return Openings(optional=held_labels(state, role), rule=HAND_RULE)
    return NOTHING


def plan_openings(state: State, role: str, decision: Any) -> Openings:
    """7.3: the plan opens, with the slot of the card it uses (#13 / #22) if any."""
    return Openings((state["plan"]["label"],), held_labels(state, role), "7.3")


def end_openings(state: State, role: str, decision: Any) -> Openings:
    """The end of the game opens every hand slot and draw secret, and a plan still sealed."""
    labels = reveal_labels(state, role)
    plan = state["plan"]
    if role == "soviet" and plan is not None and not plan["revealed"]:
        labels.append(plan["label"])
    return Openings(tuple(labels), rule=HAND_RULE)


def draw_commits(state: State, role: str, decision: Any) -> list[str]:
    return [next_secret(state, role)] if isinstance(decision, Draw) else []


def plan_commits(state: State, role: str, decision: Any) -> list[str]:
    return [plan_label(state["turn"])] if isinstance(decision, Plan) else []


def no_openings(state: State, role: str, decision: Any) -> Openings:
    return NOTHING


# --- prompts -------------------------------------------------------------------------------------


def draw_prompt(state: State, role: str) -> str:
    if state["phase"] == "deal":
        return "draw your initial hand"
    return f"turn {state['turn']}: draw a card"


def combat_prompt(state: State, role: str) -> str:
    combat = state["combat"]
    if combat["sub"] == "pick":
        return f"choose the next combat: {', '.join('fight ' + z for z in combat['left'])}"
    if combat["sub"] == "cards":
        return (
            f"combat in {combat['zone']}: play cards "
            "('cards play N', 'N bang' for a ! mode, or 'no cards')"
        )
    if combat["sub"] == "answer":
        return (
            f"combat in {combat['zone']}: answer the Soviet cards with ! cards "
            "('cards play N', 'N bang') or 'no cards'"
        )
    if combat["sub"] == "after":
        return (
            f"the combat in {combat['zone']} is over: play ! cards acting now "
            "('cards play N') or 'no cards'"
        )
    return f"combat in {combat['zone']}: choose {combat['queue'][0][1]} casualties"


def text(template: str) -> Any:
    """A prompt that only names the turn."""
    return lambda state, role: template.format(turn=state["turn"])


# --- the table -----------------------------------------------------------------------------------

STEPS: dict[str, Step] = {
    "draw": Step(
        asks=in_turn,
        prompt=draw_prompt,
        handlers={Draw: turn.do_draw},
        choices=lambda s, r: [Draw()],
        opens=no_openings,
        commits=draw_commits,
        exhaustive=True,
    ),
    "limit": Step(
        asks=in_turn,
        prompt=text("discard down to 6 cards ('discard slot K')"),
        handlers={Discard: turn.do_discard},
        choices=choices.limit_choices,
        opens=no_openings,
        exhaustive=True,
    ),
    "reinforce": Step(
        asks=asks("soviet"),
        prompt=text("place the reinforcements ('reinforce b, e')"),
        handlers={Reinforce: turn.do_reinforce},
        choices=choices.reinforce_choices,
        opens=no_openings,
        exhaustive=True,
    ),
    "plan": Step(
        asks=asks("soviet"),
        prompt=text("turn {turn}: plan your orders in secret ('plan 15 to 8:2, 16:2 then ...')"),
        handlers={Plan: soviet.do_plan},
        choices=choices.plan_choices,
        opens=no_openings,
        commits=plan_commits,
    ),
    "german": Step(
        asks=asks("german"),
        prompt=text("turn {turn}: German movement ('move 4 to 3 with ...', 'end movement')"),
        handlers={
            Move: german.do_move,
            Discard: german.do_discard,
            Rebuild: german.do_rebuild,
            Play: play_card,
            EndMovement: german.do_end,
        },
        choices=choices.german_choices,
        sample=choices.sample_german,
        opens=card_openings,
    ),
    "react": Step(
        asks=lambda state: str(state["react"]["role"]),
        prompt=text(
            "cancel one of the opponent's orders with a card ('play N on K') or 'no reaction'"
        ),
        handlers={Play: reaction.do_react, NoReaction: reaction.do_no_reaction},
        choices=choices.react_choices,
        opens=card_openings,
    ),
    "open": Step(
        asks=asks("soviet"),
        prompt=text("turn {turn}: open your plan ('open')"),
        handlers={Open: soviet.do_open},
        choices=lambda s, r: [Open()],
        opens=plan_openings,
        exhaustive=True,
    ),
    "soviet": Step(
        asks=asks("soviet"),
        prompt=text("turn {turn}: execute your plan ('execute N', 'retreat N', 'cancel N')"),
        handlers={
            Execute: soviet.do_execute,
            RetreatOrder: soviet.do_retreat,
            Cancel: soviet.do_cancel,
            Play: play_card,
            Rebuild: soviet.do_rebuild,
            EndMovement: soviet.do_end,
        },
        choices=choices.soviet_choices,
        sample=choices.sample_soviet,
        opens=card_openings,
    ),
    "combat": Step(
        asks=lambda state: str(state["combat"]["asked"]),
        prompt=combat_prompt,
        handlers={
            Fight: battle.do_fight,
            Cards: battle.do_cards,
            Casualties: battle.do_casualties,
        },
        choices=choices.combat_choices,
        opens=card_openings,
    ),
    "reichstag": Step(
        asks=asks("soviet"),
        prompt=text("remove a German unit (not SS) or 'remove none'"),
        handlers={RemoveUnit: turn.do_remove},
        choices=choices.reichstag_choices,
        opens=no_openings,
        exhaustive=True,
    ),
    "reveal": Step(
        asks=in_turn,
        prompt=text("open every hand slot and draw secret ('open')"),
        handlers={Open: turn.do_reveal},
        choices=lambda s, r: [Open()],
        opens=end_openings,
        exhaustive=True,
    ),
}
