"""Götterdämmerung: victory points and levels (rulebook 11) as pure functions.

Inputs are plain data: the loaded map and counters data, the units on the maps (as in
zoc.py), the set of hexes bearing a Soviet Occupied marker (11.12) and, for the Meeting at
the Elbe, the Soviet supply status of supply.supply_status.

Readings where the rulebook is terse:
- 11.13 "controlling" a VP hex is its Soviet Occupied marker (11.12).
- 11.14 "infantry units" are the counters of branch infantry; paratroops, panzergrenadiers
  and the other branches count 2. A Volkssturm unit is a face-down marker or a counter of
  the Volkssturm mix (`volkssturm` on the unit dict).
- 11.15 "west of the initial-deployment codes": an edge hex not east of the start line
  (map_data.east_of_start_line). A unit in the North German Plain Box has `hex` "ngp".
- 11.15's optional reading of strong ZOC is taken: a Soviet strong ZOC does not reach a
  German-occupied hex for these lines.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import supply, zoc

Unit = Mapping[str, Any]
BONUS_VP = 10  # 11.16
BONUS_TURNS = (1, 2, 3)  # 11.16
ELBE_VP = {6: 5, 7: 4, 8: 3}  # 11.17; 9 and later: 2
ELBE_LATER_VP = 2
FUHRER_VP = 25  # 11.14
ONE_VP_BRANCHES = ("infantry", "naval-infantry", "anti-tank", "flak", "special-duty")  # 11.14
TWELFTH_ARMY = "12A"
NGP = "ngp"
LEVELS = (  # 11.2: (highest difference, level)
    (10, "German strategic victory"),
    (20, "German operational victory"),
    (30, "German tactical victory"),
    (40, "Draw"),
    (50, "Soviet tactical victory"),
    (60, "Soviet operational victory"),
)
TOP_LEVEL = "Soviet strategic victory"  # 11.2: 61 or more


def vp_hexes(board: Mapping[str, Any]) -> dict[str, int]:
    """11.13: hex -> VP."""
    return {str(item["hex"]): int(item["vp"]) for item in board["vp"]}


def _vp_values(board: Mapping[str, Any]) -> Mapping[str, int]:
    """`vp_hexes`, remembered per loaded map (as supply's per-map lookups are) and only
    read: every entry that moves a unit asks it."""
    found: Mapping[str, int] = supply._per_map(board, "vp hexes", lambda: vp_hexes(board))
    return found


def after_entry(board: Mapping[str, Any], occupied: Collection[str], side: str, h: str) -> set[str]:
    """11.12: the Soviet Occupied hexes after a unit of `side` enters hex `h` (by movement,
    retreat or advance): a Soviet unit marks a VP hex, a German unit removes the marker."""
    out = set(occupied)
    if side == "soviet" and h in _vp_values(board):
        out.add(h)
    elif side == "german":
        out.discard(h)
    return out


def bonus_vp(board: Mapping[str, Any], turn: int, h: str, earned: Collection[str]) -> int:
    """11.16: 10 VP the first time a VP hex is occupied on Game Turns 1-3, whatever its VP;
    `earned` are the hexes that already gave theirs (kept when the German retakes one)."""
    if turn in BONUS_TURNS and h in _vp_values(board) and h not in earned:
        return BONUS_VP
    return 0


def soviet_hex_vp(board: Mapping[str, Any], occupied: Iterable[str]) -> int:
    """11.13: the VP of the hexes under Soviet occupation."""
    values = _vp_values(board)
    return sum(values.get(h, 0) for h in set(occupied))


def elbe_vp(turn: int) -> int:
    """11.17's table: 6 -> 5, 7 -> 4, 8 -> 3, 9 and later -> 2; 0 before turn 6."""
    if turn < 6:
        return 0
    return ELBE_VP.get(turn, ELBE_LATER_VP)


def meeting_at_elbe(
    board: Mapping[str, Any],
    units: Sequence[Unit],
    status: Mapping[str, str],
    turn: int,
    already: bool,
) -> int:
    """11.17: at the end of the Supply and Reinforcement Phase of turn 6 and later, the VP for
    a supplied Soviet unit adjacent to an American unit (across a major river too); once a
    game (`already`: a Meeting at the Elbe marker is placed). American units carry
    `nationality` "american" on their unit dict (no American counter is in the data yet)."""
    if already or turn < 6:
        return 0
    american = {u["hex"] for u in units if u.get("nationality") == "american"}
    for u in units:
        if u["side"] != "soviet" or status.get(u["id"]) != supply.SUPPLIED:
            continue
        if any(n in american for n in md.neighbours(board, u["hex"])):
            return elbe_vp(turn)
    return 0


def unit_vp(data: Mapping[str, Any], unit: Unit) -> int:
    """11.14: what a surviving German unit is worth."""
    if unit.get("volkssturm"):
        return 0
    c = zoc.counter(data, unit)
    if c["branch"] == "fuhrer":
        return FUHRER_VP
    if c.get("parent") == TWELFTH_ARMY:
        return 0
    if c["branch"] in ONE_VP_BRANCHES:
        return 1
    return 2


def exit_hexes(board: Mapping[str, Any]) -> set[str]:
    """11.15: north, west and south edge hexes west of the initial-deployment codes."""
    return set(_exits(board))


def _exits(board: Mapping[str, Any]) -> frozenset[str]:
    """`exit_hexes`, remembered per loaded map (as supply's per-map lookups are)."""

    def build() -> frozenset[str]:
        out: set[str] = set()
        for edge in ("north", "west", "south"):
            out.update(h for h in md.edge_hexes(board, edge) if not md.east_of_start_line(board, h))
        return frozenset(out)

    found: frozenset[str] = supply._per_map(board, "exit hexes", build)
    return found


def surviving(
    board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit], unit: Unit
) -> bool:
    """11.15: is a German unit "surviving" at the end of the game?"""
    return _Survival(board, data, units).surviving(unit)


class _Survival:
    """11.15 for every unit of one position: the lines' blocked hexes, the exit hexes and the
    German-held Transition Hexes found once, and the Operational lines to the exits by one
    search backwards from them (supply._Lines: the same answers as a trace per unit,
    tests/games/gotterdammerung/test_gd_speed.py)."""

    def __init__(
        self, board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit]
    ) -> None:
        self.board, self.data = board, data
        self.blocked = supply.blocker(board, data, units, "german", strong_cancelled=True)
        self.ends = _exits(board)
        self.lines = supply._Lines(board, "german", self.blocked)
        self.held = sorted(
            {u["hex"] for u in units if u["side"] == "german" and u["hex"] in board["transition"]}
        )

    def surviving(self, unit: Unit) -> bool:
        board = self.board
        if unit["hex"] == NGP:
            return False
        if zoc.counter(self.data, unit)["branch"] == "fuhrer":
            return True
        if md.kind(board, unit["hex"]) != md.CITY_HEX:
            return self.lines.reaches(unit["hex"], self.ends, None)
        for th in self.held:
            if (
                self.blocked(th)
                or supply.trace(board, "german", unit["hex"], {th}, self.blocked, on=md.CITY)
                is None
            ):
                continue
            if self.lines.reaches(th, self.ends, None):
                return True
        return False


def german_vp(board: Mapping[str, Any], data: Mapping[str, Any], units: Sequence[Unit]) -> int:
    """11.14-11.15: the German total."""
    survival = _Survival(board, data, units)
    return sum(unit_vp(data, u) for u in units if u["side"] == "german" and survival.surviving(u))


def level(difference: int) -> str:
    """11.2: the outcome for Soviet VP minus German VP."""
    for top, name in LEVELS:
        if difference <= top:
            return name
    return TOP_LEVEL
