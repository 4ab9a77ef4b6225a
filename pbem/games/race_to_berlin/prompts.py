"""What each step asks, in words a player can act on (the syntax to type included): one
function per step of the step table (`rules.STEPS`), each `(state, role) -> text`."""

from __future__ import annotations

from pbem.games.race_to_berlin.logistics import eligible_areas
from pbem.games.race_to_berlin.state import NAMES, State


def _head(state: State) -> str:
    return f"Turn {state['turn']} of {state['turns']}"


def _attack(state: State) -> str:
    """The head of a combat step's prompt: "Turn 1 of 3, attack on 4 from 1"."""
    combat = state["combat"]
    return f"{_head(state)}, attack on {combat['target']} from {combat['from']}"


def place(state: State, role: str) -> str:
    areas = ", ".join(eligible_areas(state, role))
    return (
        f"{_head(state)}, Logistics Phase: {NAMES[role]} places a block "
        f"('place <value> in <area>'; eligible: {areas})"
    )


def action(state: State, role: str) -> str:
    return (
        f"{_head(state)}, Action Phase: {NAMES[role]} acts ('move <from> to <to> with "
        "<units> [+ block]', 'attack <area> from <area> cubes <1|2>' or 'remove block in <area>')"
    )


def support(state: State, role: str) -> str:
    return (
        f"{_attack(state)}: {NAMES[role]} declares the defence's support "
        f"('support in {state['combat']['defence_area']}', 'support from <area>' or "
        "'no support')"
    )


def tokens(state: State, role: str) -> str:
    return (
        f"{_attack(state)}: {NAMES[role]} reveals and plays tokens before the dice "
        "('tokens logistics support', 'tokens logistics', 'tokens support' or 'no tokens')"
    )


def reserves(state: State, role: str) -> str:
    combat = state["combat"]
    side = "attack" if combat["stage"] == "reserves_attack" else "defence"
    dice = combat["dice"][side]
    return (
        f"{_attack(state)}: {NAMES[role]} may play Reserves to re-roll the {side} dice "
        f"{dice[0]} and {dice[1]} ('reroll' or 'keep')"
    )


def counterattack(state: State, role: str) -> str:
    return (
        f"{_attack(state)}: the defence lost; {NAMES[role]} may play Counterattack "
        "('counterattack' or 'no counterattack')"
    )


def loss(state: State, role: str) -> str:
    return (
        f"{_attack(state)}: {NAMES[role]} chooses the German unit that loses 1 strength "
        "('loss <unit>')"
    )


def retreat(state: State, role: str) -> str:
    return (
        f"{_attack(state)}: {NAMES[role]} retreats the defenders "
        "('retreat <unit> to <area>, ..., block to <area>')"
    )


def advance(state: State, role: str) -> str:
    return (
        f"{_attack(state)}: {NAMES[role]} may advance into {state['combat']['target']} "
        "('advance <units> [+ block]' or 'no advance')"
    )


def strategic(state: State, role: str) -> str:
    return (
        f"{_head(state)}, Strategic Movement Phase: {NAMES[role]} may move one own and one "
        "German unit ('strategic <unit> from <from> to <to>' or 'end strategic')"
    )


def place_reserve(state: State, role: str) -> str:
    return (
        f"{_head(state)}: {NAMES[role]} places the Eastern Front 6th SS Panzer Army next to "
        "the Eastern Front line ('place 6ss in <area>')"
    )


def open_blocks(state: State, role: str) -> str:
    return f"{_head(state)}, end of the turn: {NAMES[role]} opens its sealed blocks ('open blocks')"
