"""What each prompt asks, in words a player can act on (the syntax to type included)."""

from __future__ import annotations

from typing import Any

from pbem.games.race_to_berlin.logistics import eligible_areas
from pbem.games.race_to_berlin.state import NAMES, State


def prompt_text(state: State, role: str) -> str:
    turn = state["turn"]
    step = state["step"]
    head = f"Turn {turn} of {state['turns']}"
    combat: dict[str, Any] = state.get("combat") or {}
    where = f"attack on {combat['target']} from {combat['from']}" if combat else ""
    if step == "place":
        areas = ", ".join(eligible_areas(state, role))
        return (
            f"{head}, Logistics Phase: {NAMES[role]} places a block "
            f"('place <value> in <area>'; eligible: {areas})"
        )
    if step == "action":
        return (
            f"{head}, Action Phase: {NAMES[role]} acts ('move <from> -> <to>: <units> "
            "[+ block]', 'attack <area> from <area> cubes <1|2>' or 'remove block in <area>')"
        )
    if step == "support":
        return (
            f"{head}, {where}: {NAMES[role]} declares the defence's support "
            f"('support in {combat['defence_area']}', 'support from <area>' or 'no support')"
        )
    if step == "tokens":
        return (
            f"{head}, {where}: {NAMES[role]} reveals and plays tokens before the dice "
            "('tokens logistics support', 'tokens logistics', 'tokens support' or 'no tokens')"
        )
    if step == "reserves":
        side = "attack" if combat["stage"] == "reserves_attack" else "defence"
        dice = combat["dice"][side]
        return (
            f"{head}, {where}: {NAMES[role]} may play Reserves to re-roll the {side} dice "
            f"{dice[0]} and {dice[1]} ('reroll' or 'keep')"
        )
    if step == "counterattack":
        return (
            f"{head}, {where}: the defence lost; {NAMES[role]} may play Counterattack "
            "('counterattack' or 'no counterattack')"
        )
    if step == "loss":
        return (
            f"{head}, {where}: {NAMES[role]} chooses the German unit that loses 1 strength "
            "('loss <unit>')"
        )
    if step == "retreat":
        return (
            f"{head}, {where}: {NAMES[role]} retreats the defenders "
            "('retreat <unit> -> <area>, ..., block -> <area>')"
        )
    if step == "advance":
        return (
            f"{head}, {where}: {NAMES[role]} may advance into {combat['target']} "
            "('advance <units> [+ block]' or 'no advance')"
        )
    if step == "strategic":
        return (
            f"{head}, Strategic Movement Phase: {NAMES[role]} may move one own and one German "
            "unit ('strategic <unit> <from> -> <to>' or 'end strategic')"
        )
    if step == "place_reserve":
        return (
            f"{head}: {NAMES[role]} places the Eastern Front 6th SS Panzer Army next to the "
            "Eastern Front line ('place 6ss in <area>')"
        )
    if step == "open":
        return f"{head}, end of the turn: {NAMES[role]} opens its sealed blocks ('open blocks')"
    return f"{head}: the game is over"
