"""What changed in the last turn of a Berlin 1945 game, read from the Adjudicator's actions,
for the map (`svg.highlight_of`): moves and attacks as arrows, results as marks.

The engine records what happened as event texts (moves.py, german.py, soviet.py, battle.py,
combat.py, cards.py, orders.py, turn.py, flow.py); this module reads those texts back, so
it depends on their wording, and tests/games/berlin_1945/test_b45_svg.py replays real
games to catch a change of wording. Every event is public (it is in every role's log), so
the highlight is the same for every viewer.

A turn runs from one "turn N begins" event to the next (a turn's combats are in the entry
that begins the next one). The last turn is the last such stretch that moved or fought;
at the start of a turn, when only cards were drawn, that is the turn before.

An order the opponent cancels with a card ("the opponent's order K is undone", rulebook
2.3, 6.1) is the K-th order that side carried out in its Movement phase (its move log
counts Movement and Rebuild orders alike): its arrows are dropped and a mark says so.
A move into a zone that is fought over later in the same turn is an attack.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbem.maps.svg import Highlight

if TYPE_CHECKING:
    from pbem.core.adjudicator import Action

ZONE = r"(?P<zone>[A-F]|1[0-8]|[1-9]|I{1,3}|IV|V)"
TURN = re.compile(r"^turn \d+ begins")
# "German advance/flank from 15: de-a, de-b to 8; de-c to 16 (order 1 of 4)"
GERMAN_MOVE = re.compile(
    r"^German [\w/-]+ from (?P<frm>\S+): (?P<groups>.+) \((?:order \d+ of \d+|additional order)\)$"
)
# "Soviet order 2 (advance) from F: su-a to 14; su-b to 13"
SOVIET_MOVE = re.compile(r"^Soviet order \d+ \([\w/-]+\) from (?P<frm>\S+): (?P<groups>.+)$")
SOVIET_RETREAT = re.compile(
    r"^Soviet order \d+ is cancelled and converted into a Retreat from (?P<frm>\S+), "
    r"leaving 2 units: (?P<groups>.+) \(rulebook 7\.3\)$"
)
REBUILT = re.compile(rf"^(?P<unit>\S+) is rebuilt in {ZONE} \(rulebook 6\)$")
COMBAT = re.compile(rf"^combat in {ZONE}$")
NO_COMBAT = re.compile(rf"^no combat in {ZONE}:")
WINS = re.compile(r"^(?P<side>German|Soviet) wins (?P<w>\d+) to (?P<l>\d+):")
TIE = re.compile(r"^tie (?P<a>\d+) to (?P<b>\d+):")
REMOVED = re.compile(r"^removed: (?P<units>[^()]+) \((?P<why>.+)\)$")
REMOVED_BY_CARD = re.compile(r"^(?P<unit>\S+) is removed by card(?P<rest>.*)$")
CARD_UNITS = re.compile(rf"^(?:German|Soviet) reinforcements (?P<units>.+) deployed in {ZONE}$")
GROUP_ENTERS = re.compile(rf"^Soviet reinforcement group (?P<group>\d+) enters Area {ZONE}")
MARKER = re.compile(rf"^(?P<kind>\S+) marker placed in {ZONE} \((?P<side>German|Soviet) ")
UNDONE = re.compile(
    r"^(?P<side>German|Soviet) plays card #(?P<card>\d+) .*: the opponent's order (?P<n>\d+) "
    r"is undone"
)
CARD_CANCELLED = re.compile(
    r"^(?P<side>German|Soviet) plays card #\d+ .*: the opponent's card #(?P<card>\d+) is "
    r"cancelled"
)
ORDER_CANCELLED = re.compile(r"^Soviet (?:additional )?order (?P<n>\d+) is cancelled(?! and)")
VICTORY = re.compile(r"^(?:German|Soviet) victory: ")
PLAY_IN = re.compile(rf"^play \d+ in {ZONE}\b", re.IGNORECASE)

OPPONENT = {"German": "soviet", "Soviet": "german"}
OFF_MAP = ""  # the place of a mark that belongs to no zone (the map lists it in its panel)


@dataclass
class _Turn:
    """One turn's events, read in order."""

    # per side, the orders of its move log: ("move", [(frm, to)]) or ("rebuild", [])
    orders: dict[str, list[list[tuple[str, str]]]] = field(
        default_factory=lambda: {"german": [], "soviet": []}
    )
    undone: list[tuple[str, int, str]] = field(default_factory=list)  # side, order n, card
    fought: list[str] = field(default_factory=list)
    marks: list[tuple[str, str]] = field(default_factory=list)
    combat: str | None = None  # the zone of the combat being fought

    def drawable(self) -> bool:
        return any(self.orders.values()) or bool(self.marks)


def _pairs(frm: str, groups: str) -> list[tuple[str, str]]:
    """ "u1, u2 to 8; u3 to 16" -> [(frm, "8"), (frm, "16")]."""
    return [(frm, part.rsplit(" to ", 1)[1].strip()) for part in groups.split("; ")]


def _read(turn: _Turn, by: str, action_text: str, text: str) -> None:
    side = by if by in ("german", "soviet") else ""
    if (m := GERMAN_MOVE.match(text)) or (m := SOVIET_MOVE.match(text)):
        turn.orders["german" if text.startswith("German") else "soviet"].append(
            _pairs(m["frm"], m["groups"])
        )
    elif m := SOVIET_RETREAT.match(text):
        turn.orders["soviet"].append(_pairs(m["frm"], m["groups"]))
    elif m := REBUILT.match(text):
        turn.orders[side or "german"].append([])
        turn.marks.append((m["zone"], f"rebuilt {m['unit']}"))
    elif m := COMBAT.match(text):
        turn.combat = m["zone"]
        turn.fought.append(m["zone"])
    elif m := NO_COMBAT.match(text):
        turn.marks.append((m["zone"], "no combat: one side has no units left"))
        turn.combat = None
    elif (m := WINS.match(text)) and turn.combat:
        turn.marks.append((turn.combat, f"{m['side']} won {m['w']} to {m['l']}"))
    elif (m := TIE.match(text)) and turn.combat:
        turn.marks.append((turn.combat, f"tie {m['a']} to {m['b']}"))
    elif m := REMOVED.match(text):
        # casualties are the current combat's; a removal for the Reichstag (7.5) names no zone
        where = turn.combat if turn.combat and "7.4.4" in m["why"] else OFF_MAP
        turn.marks.append((where, f"removed {m['units']}"))
    elif m := REMOVED_BY_CARD.match(text):
        played = PLAY_IN.match(action_text)
        # the card's zone is in the decision ("play 17 in 7"); a combat card's is the combat's
        place = played["zone"].upper() if played else turn.combat if m["rest"] else None
        turn.marks.append((place or OFF_MAP, f"{m['unit']} removed by card"))
    elif m := CARD_UNITS.match(text):
        turn.marks.append((m["zone"], f"reinforcements {m['units']}"))
    elif m := GROUP_ENTERS.match(text):
        turn.marks.append((m["zone"], f"reinforcement group {m['group']} arrives"))
    elif m := MARKER.match(text):
        turn.marks.append((m["zone"], f"{m['kind']} marker placed"))
    elif m := UNDONE.match(text):
        turn.undone.append((OPPONENT[m["side"]], int(m["n"]), m["card"]))
    elif m := CARD_CANCELLED.match(text):
        turn.marks.append((OFF_MAP, f"{m['side']} card cancels the opponent's card #{m['card']}"))
    elif m := ORDER_CANCELLED.match(text):
        turn.marks.append((OFF_MAP, f"Soviet order {m['n']} cancelled"))
    elif VICTORY.match(text):
        turn.marks.append((OFF_MAP, text))


def _unique(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(dict.fromkeys(pairs))


def _highlight(turn: _Turn) -> Highlight:
    marks = list(turn.marks)
    dropped: set[tuple[str, int]] = set()
    for side, n, card in turn.undone:
        orders = turn.orders[side]
        if 1 <= n <= len(orders):
            dropped.add((side, n))
            start = orders[n - 1][0][0] if orders[n - 1] else OFF_MAP
            marks.append((start, f"order undone by card #{card}"))
    moves: list[tuple[str, str]] = []
    attacks: list[tuple[str, str]] = []
    for side, orders in turn.orders.items():
        for n, pairs in enumerate(orders, start=1):
            if (side, n) in dropped:
                continue
            for frm, to in pairs:
                (attacks if to in turn.fought else moves).append((frm, to))
    return Highlight(_unique(moves), _unique(attacks), _unique(marks))


def last_turn(actions: Sequence[Action]) -> Highlight:
    """The highlight of the last turn that moved or fought in `actions` (empty if none)."""
    turns = [_Turn()]
    for action in actions:
        for event in action.events:
            if TURN.match(event.text):
                turns.append(_Turn())
                continue
            _read(turns[-1], action.by, action.text, event.text)
    for turn in reversed(turns):
        if turn.drawable():
            return _highlight(turn)
    return Highlight()
