"""What the turn being played did in a Götterdämmerung game, for its map
(`svg.highlight_of`): moves, railroad moves, retreats and advances as move arrows, attacks
and overruns as attack arrows, combat results, arrivals and destroyed units as marks.

Read from the Adjudicator's actions alone, through the data the engine puts on its events
(moving.py: `path` of a move or a railroad move, `hex` of an arrival; fighting.py:
`attack_hexes`, `target` and `result` of a combat, `path` of a retreat or an advance).
Nothing on the maps is hidden from one side only, and events are in every role's log, so
the highlight is the same for every viewer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pbem.maps.svg import Highlight, turn_of

if TYPE_CHECKING:
    from pbem.core.adjudicator import Action


def last_turn(actions: Iterable[Action]) -> Highlight:
    moves: list[tuple[str, str]] = []
    attacks: list[tuple[str, str]] = []
    marks: list[tuple[str, str]] = []
    _turn, played = turn_of(list(actions))
    for action in played:
        for event in action.events:
            data: Any = event.data
            path = data.get("path")
            if isinstance(path, list) and len(path) >= 2:
                moves.append((str(path[0]), str(path[-1])))
            if "result" in data and "target" in data:
                target = str(data["target"])
                attacks += [(str(h), target) for h in data.get("attack_hexes") or ()]
                marks.append((target, str(data["result"])))
            if event.text.endswith("(9.1)") and "hex" in data:
                marks.append((str(data["hex"]), "arrives"))
    return Highlight(moves=tuple(moves), attacks=tuple(attacks), marks=tuple(marks))
