"""What changed in the last game turn of a Race to Berlin game, for its map.

The adjudicator keeps each decision's events (`game.actions`); their data say what
moved and what was attacked: a move or strategic move carries `frm` and `to`
(actions.py, strategic.py), an attack `frm` and `target` (combat.py). An advance
(`units`, `area`) goes from the attack's area, a retreat (`unit`, `area`, in a `retreat`
decision) from the attacked one, so both are read in the order they happened. Results
become marks: the combat's totals, control changes, strength losses, eliminations, a
reserve's arrival.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pbem.games.race_to_berlin.svg_style import NAMES
from pbem.maps.svg import Highlight

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator


def _attack_of(data: Mapping[str, Any]) -> tuple[str, str] | None:
    if {"attacker", "target", "frm"} <= set(data):
        return str(data["frm"]), str(data["target"])
    return None


class _Marks:
    """Marks by area, condensed so a busy area's first lines say the most: its final
    control change, then eliminations, then each combat's totals, then each unit's last
    strength (a strength the map shows anyway)."""

    ORDER = ("control", "eliminated", "result", "strength")

    def __init__(self) -> None:
        self.latest: dict[tuple[str, str, str], str] = {}  # (area, kind, key) -> text
        self.results: list[tuple[str, str]] = []

    def control(self, area: str, control: str) -> None:
        self.latest[(area, "control", "")] = f"now {NAMES.get(control, '?')}"

    def eliminated(self, area: str, unit: str) -> None:
        self.latest[(area, "eliminated", unit)] = f"{unit} eliminated"

    def strength(self, area: str, unit: str, strength: object) -> None:
        self.latest[(area, "strength", unit)] = f"{unit} down to {strength}"

    def result(self, area: str, attack: object, defence: object, won: bool) -> None:
        self.results.append((area, f"attack {attack} v {defence}: {'won' if won else 'held'}"))

    def marks(self) -> tuple[tuple[str, str], ...]:
        areas = list(dict.fromkeys([a for a, _, _ in self.latest] + [a for a, _ in self.results]))
        out: list[tuple[str, str]] = []
        for area in areas:
            for kind in self.ORDER:
                if kind == "result":
                    out += [(a, text) for a, text in self.results if a == area]
                else:
                    out += [
                        (a, t) for (a, k, _), t in self.latest.items() if a == area and k == kind
                    ]
        return tuple(out)


def highlight_of(game: Adjudicator) -> Highlight:
    """The moves, attacks and results of the game turn the game is in (the actions the turn
    summary lists): moves, strategic moves, retreats and advances as move arrows, attacks
    as attack arrows, combat results, control changes, losses and eliminations as marks."""
    actions = [a for a in game.actions if a.turn is not None]
    if not actions:
        return Highlight()
    state = game.state
    turn = state.get("turn") if isinstance(state, dict) else actions[-1].turn
    moves: list[tuple[str, str]] = []
    attacks: list[tuple[str, str]] = []
    marks = _Marks()
    attack: tuple[str, str] | None = None  # (from, target) of the attack being resolved
    for action in actions:
        if action.turn != turn:
            continue
        retreating = action.text.startswith("retreat ")
        for event in action.events:
            data = event.data
            keys = set(data)
            declared = _attack_of(data)
            if declared is not None:
                attack = declared
                attacks.append(declared)
            elif {"frm", "to"} <= keys:  # a move or a strategic move (rulebook 4.2.1.1, 4.3)
                moves.append((str(data["frm"]), str(data["to"])))
            elif {"area", "control", "was"} <= keys:
                marks.control(str(data["area"]), str(data["control"]))
            elif attack is None:
                continue  # what follows belongs to an attack
            elif keys == {"units", "area"}:  # an advance
                moves.append((attack[0], str(data["area"])))
            elif {"attack", "defence", "winner"} <= keys:
                won = data["winner"] == "attack"
                marks.result(attack[1], data["attack"], data["defence"], won)
            elif keys == {"unit", "strength"}:
                marks.strength(attack[1], str(data["unit"]), data["strength"])
            elif keys == {"unit", "area"} and data["area"] is not None:
                area = str(data["area"])
                # an elimination carries the same data as a retreat: its text tells them apart
                if " eliminated in " in event.text:
                    marks.eliminated(area, str(data["unit"]))
                elif retreating and area != attack[1]:
                    moves.append((attack[1], area))
            elif keys == {"area"} and retreating and data["area"] != attack[1]:
                moves.append((attack[1], str(data["area"])))  # a block retreats
    return Highlight(tuple(_unique(moves)), tuple(_unique(attacks)), marks.marks())


def _unique(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return list(dict.fromkeys(pairs))
