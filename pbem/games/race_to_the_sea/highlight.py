"""What the turn being played did in a Race to the Sea 1914 game, for its map
(`svg.highlight_of`): moves and attacks as arrows, results as marks.

Read from the Adjudicator's actions alone: each decision's public text (decisions.py:
`move c17 1203 1204 1305`, `rail c03 0620 1007`, `forced march c03 0714 0715`,
`fire c04 0807 to 0808`, `recon c03 0612 to 0613 c21`, `flood 0306`, an assault's hexes)
and the engine's event texts (flow.py, firepower.py, hits.py, dykes.py). Both are in
every role's log and name hidden counters only by their public labels, so the highlight
is the same for every viewer and never shows a secret. A change of wording in those
modules shows in tests/games/race_to_the_sea/test_rts_render.py, which replays games.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pbem.maps.svg import Highlight, turn_of

if TYPE_CHECKING:
    from pbem.core.adjudicator import Action

HEX = re.compile(r"^\d{4}$")
PLACED = re.compile(r"^(c\d+): .*placed.* in (\d{4})")
ELIMINATED = re.compile(r"^(c\d+) .*is eliminated in (\d{4})")
FELL_BACK = re.compile(r"^(c\d+) falls back to (\d{4})")
NET_HITS = re.compile(r"^net hits on (c\d+): (\d+)")
DISPLACED = re.compile(r"^(c\d+) is displaced to (\d{4})")


def _hexes(words: Sequence[str]) -> list[str]:
    return [w for w in words if HEX.match(w)]


def last_turn(actions: Iterable[Action]) -> Highlight:
    """Moves (rail, forced march, fall back, displacement) as move arrows from where the
    counter started to where it stopped; fire, assaults and recons as attack arrows;
    arrivals (by hex, not during the set-up, when every counter is new), hits,
    eliminations and floods as marks on their hexes."""
    moves: list[tuple[str, str]] = []
    attacks: list[tuple[str, str]] = []
    marks: list[tuple[str, str]] = []
    target = ""  # the hex of the attack being resolved
    where: dict[str, str] = {}  # counter label -> the hex it was last seen in this turn
    arrived: dict[str, int] = {}  # hex -> counters placed there this turn
    turn, played = turn_of(list(actions))
    for action in played:
        words = action.text.split()
        hexes = _hexes(words)
        verb = " ".join(words[:2]) if words[:2] == ["forced", "march"] else words[0]
        if verb in ("move", "rail", "forced march") and len(hexes) >= 2:
            moves.append((hexes[0], hexes[-1]))
            where[words[2 if verb == "forced march" else 1]] = hexes[-1]
        elif verb in ("fire", "recon", "assault") and len(hexes) >= 2:
            target = hexes[-1]
            attacks += [(h, target) for h in dict.fromkeys(hexes[:-1]) if h != target]
            if verb == "recon":
                marks.append((target, "recon"))
        elif verb == "flood" and hexes:
            marks.append((hexes[0], "flooded"))
        for event in action.events:
            if found := PLACED.match(event.text):
                where[found[1]] = found[2]
                arrived[found[2]] = arrived.get(found[2], 0) + 1
            else:
                _event(event.text, target, where, moves, marks)
    if turn:
        marks += [(h, f"{n} new") for h, n in arrived.items()]
    return Highlight(moves=tuple(moves), attacks=tuple(attacks), marks=tuple(marks))


def _event(
    text: str,
    target: str,
    where: dict[str, str],
    moves: list[tuple[str, str]],
    marks: list[tuple[str, str]],
) -> None:
    if found := ELIMINATED.match(text):
        marks.append((found[2], f"{found[1]} eliminated"))
    elif found := FELL_BACK.match(text) or DISPLACED.match(text):
        start = where.get(found[1], target)
        if start:
            moves.append((start, found[2]))
        where[found[1]] = found[2]
    elif (found := NET_HITS.match(text)) and target:
        hits = int(found[2])
        marks.append((target, f"{found[1]}: {hits} hit{'s' if hits != 1 else ''}"))
