"""Race to the Sea 1914: victory points and the victory level at the end of Turn 10 (14).

Pure functions of the board, the control changes (`movement.control_of`: 15.3 initial
control plus the recorded changes, 14.1 B) and the flooded hexes. No identity is needed:
a hidden False Report controls its hex like a unit (3.1.3 B), so the score is public.

Each side scores the hexes it controls on the opponent's side of the Historic Trench Line
(14.1 A: the Germans west of it, the Allies east):
- 1 VP a hex with a strategic LOC to the side's own map edge (14.1 C);
- instead, 3 VP for the Germans' Dunkirk and Calais (14.2) and the Allies' Ghent and
  Maubeuge (14.3), no LOC needed;
- instead, 2 VP for each of the ten hexes behind the enemy entrenchment (14.4), with LOC
  (14.4: "the same qualifications as in 14.1.B and 14.1.C");
- nothing for a flooded hex (9.8 C).
The 3-VP places count only on the opponent's side, as "instead of 1 VP" says; on the
shipped map they all are.
"""

from __future__ import annotations

from collections.abc import Collection

from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.initiative import victory_level
from pbem.games.race_to_the_sea.movement import (
    SIDES,
    Board,
    Control,
    _changed,
    control_of,
    hex_label,
    strategic_loc_hexes,
)
from pbem.games.race_to_the_sea.records import FrozenRecord, frozen_record
from pbem.maps.regions import spread

KEY_HEXES = {"germans": ("Dunkirk", "Calais"), "allies": ("Ghent", "Maubeuge")}  # 14.2, 14.3
KEY_VP, BEHIND_VP, HEX_VP = 3, 2, 1
OPPONENT_SIDE = {"germans": "west", "allies": "east"}  # 14.1 A


@frozen_record
class Result(FrozenRecord):
    """The end of the game (14.5): the points, the winner (None on a draw), the level."""

    points: dict[str, int]
    winner: str | None
    level: str


def victory_hexes(
    board: Board, control: Control, flooded: Collection[int] = ()
) -> dict[str, dict[int, int]]:
    """Per side, the hexes that score and their VP (14.1-14.4, 9.8 C): `strict_victory_hexes`
    with each hex's control found once, not once a side and again for each step of the LOC
    search, and the map's fixed facts of each hex read from a table made once per map (the
    outcome of a finished game was a twentieth of a cold `pbem show` of it).
    tests/games/race_to_the_sea/test_rts_fast_paths.py holds the two equal."""
    table = _hex_table(board)
    around = rm.neighbour_table(board)  # (`grid.region`'s search, without the grid)
    changes = _changes(control)
    if changes is None:  # (keys `_changes` does not read: each hex asked as the rules ask)
        owner = {
            h: (None if start is None or h in flooded else _changed(control, h) or start)
            for h, (start, _, _) in table.items()
        }
    else:
        owner = {
            h: (None if start is None or h in flooded else changes.get(h) or start)
            for h, (start, _, _) in table.items()
        }
    out: dict[str, dict[int, int]] = {}
    for side in SIDES:
        keys = {rm.hex_of(board, name) for name in KEY_HEXES[side]}
        friendly = {h for h, held in owner.items() if held == side}
        with_loc = spread(
            {h for h in rm.own_edge_hexes(board, side) if h in friendly},
            around,
            friendly.__contains__,
            None,
        )
        opponent = OPPONENT_SIDE[side]
        scored: dict[int, int] = {}
        for h, (_, trench, behind) in table.items():
            if owner[h] != side or trench != opponent:
                continue  # 9.8 C; 14.1 B; 14.1 A
            if h in keys:
                scored[h] = KEY_VP  # 14.2, 14.3: no LOC needed
            elif h not in with_loc:
                continue  # 14.1 C (and 14.4)
            elif side in behind:
                scored[h] = BEHIND_VP  # 14.4
            else:
                scored[h] = HEX_VP  # 14.1 A
        out[side] = scored
    return out


def _changes(control: Control) -> dict[int, str] | None:
    """`{h: movement._changed(control, h)}` for every hex the record names, read from the
    record once instead of three lookups for each hex of the map: a key is the hex's int,
    else its label ("0825"), else its `str` ("825"), in that order of precedence; None
    when a key is none of these kinds (a float, a bool...: `_changed` decides then).
    tests/games/race_to_the_sea/test_rts_map_tables.py holds it to `_changed`."""
    found: dict[int, tuple[int, str]] = {}
    for key, side in control.items():
        if type(key) is int:
            h, rank = key, 0
        elif type(key) is str and key.isascii() and key.isdigit():
            h = int(key)
            rank = 1 if key == hex_label(h) else 2 if key == str(h) else -1
            if rank < 0:
                continue  # (a spelling `_changed` never asks for: "00825")
        else:
            return None
        if h not in found or rank < found[h][0]:
            found[h] = (rank, side)
    return {h: side for h, (_, side) in found.items()}


def _hex_table(board: Board) -> dict[int, tuple[str | None, str | None, frozenset[str]]]:
    """Each hex of the map, in map order: (its initial control, its side of the trench
    line, the sides it is behind the enemy lines for), by map (by identity: a loaded map is
    never changed, and kept with its table so that its id is not another's)."""
    found = _TABLES.get(id(board))
    if found is None or found[0] is not board:
        if len(_TABLES) >= 8:
            _TABLES.clear()
        found = _TABLES[id(board)] = (board, _made_table(board))
    return found[1]


_START_CONTROL = {"west": "allies", "east": "germans"}  # movement._initial_control's


def _made_table(board: Board) -> dict[int, tuple[str | None, str | None, frozenset[str]]]:
    """`_hex_table`'s table, each hex's record of the map read once (`initial_control` and
    `side_of_trench_line` of it, inlined: a cold `pbem show` makes this table for the
    outcome, and a call each for 360 hexes was a fiftieth of it);
    tests/games/race_to_the_sea/test_rts_fast_paths.py holds it to those functions."""
    lines = board["behind_enemy_lines"]  # 14.4: the few hexes behind a side's lines
    behind = {h: frozenset(s for s in SIDES if h in lines[s]) for s in SIDES for h in lines[s]}
    index = rm.hex_records(board)
    nowhere: frozenset[str] = frozenset()
    table = {}
    for h in rm.map_hexes(board):
        info = index[h]  # (a KeyError for a hex without a record, as `_info` raises)
        side = info.get("side")
        trench = str(side) if side is not None else None
        start = None if info["terrain"] in rm.PROHIBITED else _START_CONTROL.get(trench or "")
        table[h] = (start, trench, behind.get(h, nowhere))
    return table


_TABLES: dict[int, tuple[Board, dict[int, tuple[str | None, str | None, frozenset[str]]]]] = {}


def strict_victory_hexes(
    board: Board, control: Control, flooded: Collection[int] = ()
) -> dict[str, dict[int, int]]:
    """What `victory_hexes` must equal: the rules as they read (tests)."""
    out: dict[str, dict[int, int]] = {}
    for side in SIDES:
        keys = {rm.hex_of(board, name) for name in KEY_HEXES[side]}
        with_loc = strategic_loc_hexes(board, control, side, flooded)
        scored: dict[int, int] = {}
        for h in rm.grid(board):
            if h in flooded or control_of(board, control, h, flooded) != side:
                continue  # 9.8 C; 14.1 B
            if rm.side_of_trench_line(board, h) != OPPONENT_SIDE[side]:
                continue  # 14.1 A
            if h in keys:
                scored[h] = KEY_VP  # 14.2, 14.3: no LOC needed
            elif h not in with_loc:
                continue  # 14.1 C (and 14.4)
            elif rm.is_behind_enemy_lines(board, h, side):
                scored[h] = BEHIND_VP  # 14.4
            else:
                scored[h] = HEX_VP  # 14.1 A
        out[side] = scored
    return out


def victory_points(board: Board, control: Control, flooded: Collection[int] = ()) -> dict[str, int]:
    """Each side's VP total (14.5 A)."""
    return {
        side: sum(hexes.values()) for side, hexes in victory_hexes(board, control, flooded).items()
    }


def result(board: Board, control: Control, flooded: Collection[int] = ()) -> Result:
    """The winner, the higher total (14.5 A), and the level of the difference (14.5 B).
    Memoised by the content of the control record and the flooded hexes (and the map by
    identity, never changed once loaded): the end of a game is asked its outcome several
    times (every entry after it, the summary, the verdict), each a region search per side."""
    key = (id(board), tuple(control.items()), tuple(flooded))
    found = _RESULTS.get(key)
    if found is None or found[0] is not board:
        if len(_RESULTS) >= 16:
            _RESULTS.clear()
        found = _RESULTS[key] = (board, _result(board, control, flooded))
    known = found[1]
    return Result(dict(known.points), known.winner, known.level)  # a copy: points is a dict


_RESULTS: dict[tuple[object, ...], tuple[Board, Result]] = {}


def _result(board: Board, control: Control, flooded: Collection[int]) -> Result:
    points = victory_points(board, control, flooded)
    difference = points["allies"] - points["germans"]
    winner = None if difference == 0 else ("allies" if difference > 0 else "germans")
    return Result(points, winner, victory_level(difference))
