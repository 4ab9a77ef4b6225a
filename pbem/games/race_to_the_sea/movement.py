"""Race to the Sea 1914: the movement rules as pure functions over the board and a simple
positions model: normal movement (10), railroad movement (7.3), forced marches (7.7.3),
retreats (12.7, 11.3), hex control (14.1 B, 15.3) and lines of communications (9.5, 14.1 C).

Positions are plain JSON data, a list of pieces (or a dict of them by id):

    {"id": "c07", "side": "allies" | "germans", "hex": 1018,
     "kind": "infantry" | "cavalry" | "false", "scouting": bool, "sz": int | None}

This is what the engine knows publicly (docs/race-to-the-sea.md, fog of war): each
counter's hex, side and whether it is cavalry. A hidden counter's identity is sealed, so
its `kind` may read "infantry" for a False Report and its `sz` is None. Checks that need a
hidden fact (stacking, 10.2; the 4-SZ rail limit, 7.3 A) are then not decided but returned
as *claims*, one line each, for the engine to record and check when the pieces open.

`flooded` is a collection of flooded hexes (9.8: treated as water, 2.1.8 B). `control` is
a dict hex -> side holding only the hexes whose control differs from the start (15.3:
west of the Historic Trench Line, which includes the hexes behind the Allied entrenchment,
Allied; east of it German). Its keys may be ints or the printed labels ("0906"), as JSON
gives them back.

Readings of the rules where the rulebook is silent (each is documented where it is used):
- every enemy piece exerts No Man's Land, scouting cavalry and False Reports included
  (10.1.1 A "an enemy unit"; 3.1.3 B for False Reports);
- "occupied by a friendly unit" (10.1.2, 12.7 C) means a friendly piece other than the
  one moving;
- deployed cavalry controls hexes and may use the railroads like infantry (10.5.1: it
  "functions in the exact same way as infantry"; 7.3 F forbids only scouting cavalry);
  scouting cavalry controls nothing;
- "closer to the enemy's side of the map" (12.7 D) is measured by map column: the Allies'
  enemy side is the east edge (14.1 C), so for them a hex of a higher column is closer;
  for the Germans a lower column.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.records import FrozenRecord, frozen_record
from pbem.maps.hexes import label, split

SIDES = ("allies", "germans")
KINDS = ("infantry", "cavalry", "false")
MA = 3  # 10.1 B
SCOUTING_MA = 5  # 10.1 B
STACK_LIMIT = 6  # 10.2 A
RAIL_SZ_LIMIT = 4  # 7.3 A
GERMAN_FORCED_MARCH = 2  # 7.7.3.1: two hexes without forest or river, else one
ALLIED_FORCED_MARCH = 1  # 7.7.3.2
OWN_EDGE_COLUMN = {"allies": "west", "germans": "east"}  # 14.1 C

Board = Mapping[str, Any]  # the map, as map_data.load_map reads it
Pieces = Iterable[Mapping[str, Any]] | Mapping[str, Mapping[str, Any]]
Control = Mapping[Any, str]


@frozen_record
class MoveCheck(FrozenRecord):
    """The public verdict on a move: `problem` is one line naming the rule broken (None if
    the public facts allow it); `claims` are the lines that hidden facts must bear out."""

    problem: str | None = None
    claims: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.problem is None


@frozen_record
class Retreat(FrozenRecord):
    """One legal retreat: the hexes entered (one, or two through an overstacked friendly
    hex, 12.7 E) and the claims hidden sizes must bear out."""

    path: tuple[int, ...]
    claims: tuple[str, ...] = ()

    @property
    def hex(self) -> int:
        return self.path[-1]


# --- Pieces ------------------------------------------------------------------------------------


def other(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r} (expected allies or germans)")
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def piece_list(pieces: Pieces) -> list[Mapping[str, Any]]:
    """The pieces as a list, from a list or a dict keyed by id."""
    if isinstance(pieces, Mapping):
        return [{"id": key, **value} for key, value in pieces.items()]
    return list(pieces)


# find, occupants and enemy_hexes build the id-carrying dicts only for the pieces they
# return: they run some 100,000 times a self-play game (bench/selfplay.py).


def find(pieces: Pieces, piece_id: str) -> Mapping[str, Any]:
    if isinstance(pieces, Mapping):
        direct = pieces.get(piece_id)
        if direct is not None and "id" not in direct:
            return {"id": piece_id, **direct}  # keyed by its id (positions(): every piece)
        for key, value in pieces.items():
            if value.get("id", key) == piece_id:
                return {"id": key, **value}
        raise KeyError(f"no piece {piece_id!r} on the map")
    for piece in piece_list(pieces):
        if piece["id"] == piece_id:
            return piece
    raise KeyError(f"no piece {piece_id!r} on the map")


def is_false(piece: Mapping[str, Any]) -> bool:
    return piece.get("kind") == "false"


def is_scouting(piece: Mapping[str, Any]) -> bool:
    return piece.get("kind") == "cavalry" and bool(piece.get("scouting"))


def controls_hexes(piece: Mapping[str, Any]) -> bool:
    """Whether the piece takes control of the hexes it enters (14.1 B: infantry; 3.1.3 B:
    a hidden False Report acts as infantry; 10.5.1: deployed cavalry as infantry)."""
    return not is_scouting(piece)


def occupants(pieces: Pieces, hex_: int, side: str, but: str | None = None) -> list[Any]:
    """The pieces of `side` in `hex_`, leaving out the piece `but`."""
    if isinstance(pieces, Mapping):
        return [
            {"id": key, **v}
            for key, v in pieces.items()
            if v["hex"] == hex_ and v["side"] == side and v.get("id", key) != but
        ]
    return [
        p for p in piece_list(pieces) if p["hex"] == hex_ and p["side"] == side and p["id"] != but
    ]


def enemy_hexes(pieces: Pieces, side: str) -> set[int]:
    """The hexes holding a piece of `side`'s enemy."""
    foe = other(side)
    if isinstance(pieces, Mapping):
        return {v["hex"] for v in pieces.values() if v["side"] == foe}
    return {p["hex"] for p in piece_list(pieces) if p["side"] == foe}


def nml_hexes(board: Board, pieces: Pieces, side: str) -> set[int]:
    """The No Man's Land hexes for `side`'s movement: the hexes adjacent to an enemy unit
    (10.1.1 A), every enemy piece counting (a hidden False Report acts as infantry,
    3.1.3 B; scouting cavalry is a unit too)."""
    g = rm.adjacency(board)  # (`rm.grid(board)`'s answers)
    return {n for h in enemy_hexes(pieces, side) for n in g.neighbours(h)}


class _NearEnemies:
    """`nml_hexes(board, pieces, side)` as a container asked hex by hex (`h in nml`): a
    hex is in No Man's Land when one of its neighbours holds an enemy piece, which is
    what the set holds (the neighbours of every enemy hex)."""

    def __init__(self, grid: Any, enemies: set[int]) -> None:
        self.grid, self.enemies = grid, enemies
        self.known: dict[object, bool] = {}

    def __contains__(self, hex_: object) -> bool:
        found = self.known.get(hex_)
        if found is None:
            found = self.known[hex_] = hex_ in self.grid and not self.enemies.isdisjoint(
                self.grid.neighbours(hex_)
            )
        return bool(found)


def near_enemies(board: Board, enemies: set[int]) -> tuple[set[int], Container[int]]:
    """What `_path_problem` finds itself when not given its `near`: the enemy's hexes
    (`enemy_hexes`, found by the caller) and No Man's Land asked hex by hex."""
    return enemies, _NearEnemies(rm.adjacency(board), enemies)


_ASK: Any = object()  # (not in `move_costs` yet)


def _size(piece: Mapping[str, Any]) -> int | None:
    if is_false(piece):
        return 0  # 10.2 C: False Reports stack for free
    sz = piece.get("sz")
    return None if sz is None else int(sz)


def stacking_check(
    pieces: Pieces, piece: Mapping[str, Any], hex_: int, among: Iterable[str] | None = None
) -> MoveCheck:
    """Whether `piece` may stop in `hex_` with the friendly pieces already there: at most
    6 SZ (10.2 A-B), False Reports free (10.2 C). Unknown sizes make a claim. `among`, if
    given (with `pieces` a dict), holds the keys of every friendly piece in `hex_` (any
    others too), found by a caller that looked at every piece already: only those are
    looked at (the answer reads their sizes' sum and whether one is unknown, in any order)."""
    mine = _size(piece)
    if mine == 0:
        return MoveCheck()
    side, but = piece["side"], piece["id"]
    if isinstance(pieces, Mapping):  # as `occupants`, without building the pieces
        keys = pieces if among is None else among
        sizes = [
            _size(v)
            for key in keys
            if (v := pieces[key])["hex"] == hex_ and v["side"] == side and v.get("id", key) != but
        ]
    else:
        sizes = [_size(p) for p in occupants(pieces, hex_, side, but=but)]
    known = sum(s for s in sizes if s is not None) + (mine or 0)
    if known > STACK_LIMIT:
        return MoveCheck(
            f"10.2 B: {piece['id']} may not stop in hex {label(hex_)}: "
            f"{known} SZ would exceed the limit of {STACK_LIMIT}"
        )
    if mine is None or None in sizes:
        return MoveCheck(
            claims=(
                f"10.2 A: at most {STACK_LIMIT} SZ in hex {label(hex_)} after {piece['id']} stops",
            )
        )
    return MoveCheck()


# --- Normal movement (10) -------------------------------------------------------------------------


def movement_allowance(piece: Mapping[str, Any]) -> int:
    """10.1 B: three hexes, five for scouting cavalry."""
    return SCOUTING_MA if is_scouting(piece) else MA


def _step_problem(
    board: Board,
    a: int,
    b: int,
    flooded: Collection[int],
    enemies: set[int],
) -> str | None:
    """What forbids stepping from `a` into `b` whatever the cost."""
    g = rm.adjacency(board)  # (`rm.grid(board)`'s answers)
    if b not in g:
        return f"hex {b} is not on the map"
    if not g.adjacent(a, b):
        return f"hexes {label(a)} and {label(b)} are not adjacent"
    if b in flooded:
        return f"9.8 B: hex {label(b)} is flooded, a water hex no unit may enter (10.3.2)"
    if rm.terrain(board, b) in rm.PROHIBITED:
        return f"10.3.2: hex {label(b)} is {rm.terrain(board, b)}, prohibited terrain"
    if b in enemies:
        return f"10.2 D: hex {label(b)} is enemy-occupied; only an Assault Combat enters it"
    return None


def _path_problem(
    board: Board,
    pieces: Pieces,
    piece_id: str,
    path: Sequence[int],
    flooded: Collection[int],
    cost: Callable[[int, int], int] | None,
    allowance: int,
    what: str,
    near: tuple[set[int], Container[int]] | None = None,
    stack: Iterable[str] | None = None,
) -> MoveCheck:
    """The checks shared by normal movement and forced marches: `path` starts at the
    piece's hex; `cost` prices a step; `allowance` is the most the path may cost; `near`,
    if given, is (`enemy_hexes`, `nml_hexes`) of the piece's side, computed once by a
    caller that checks many paths; `stack`, `stacking_check`'s `among` in the last hex;
    `cost` None prices a step as a normal move does (`_move_cost`)."""
    try:
        piece = find(pieces, piece_id)
    except KeyError as error:
        return MoveCheck(str(error.args[0]))
    hexes = list(path)
    if len(hexes) < 2:
        return MoveCheck(f"a {what} names the starting hex and at least one hex entered")
    if hexes[0] != piece["hex"]:
        return MoveCheck(
            f"{piece_id} is in hex {label(piece['hex'])}, "
            f"not {label(hexes[0])} where the path starts"
        )
    side = piece["side"]
    nml: Container[int]
    if near is not None:
        enemies, nml = near
    else:  # only the path's hexes are asked: `nml_hexes` of them, not of the whole map
        enemies = enemy_hexes(pieces, side)
        nml = _NearEnemies(rm.adjacency(board), enemies)
    spent = 0
    around, terrains = rm.neighbour_table(board), rm.terrain_table(board)
    costs = rm.move_costs(board)
    for i, (a, b) in enumerate(zip(hexes, hexes[1:], strict=False), start=1):
        # `_step_problem`, read from the map's tables in line: a step that is not plainly
        # allowed (on the map, adjacent, not flooded, not prohibited, no enemy) asks it for
        # its refusal (or its answer: the fast path only ever sends a step to it)
        if (
            b not in (around.get(a) or ())
            or b in flooded
            or (found := terrains.get(b)) is None
            or found in rm.PROHIBITED
            or b in enemies
        ):
            problem = _step_problem(board, a, b, flooded, enemies)
            if problem is not None:
                return MoveCheck(problem)
        # 10.1.1 C: NML to NML only from the start hex (entering NML ends the move, B),
        # and only screened (10.1.2): friendly units in both hexes, then one hex only.
        if (
            a in nml
            and b in nml
            and not (occupants(pieces, a, side, but=piece_id) and occupants(pieces, b, side))
        ):
            return MoveCheck(
                f"10.1.1 C: {piece_id} may not move from No Man's Land hex {label(a)} "
                f"straight into No Man's Land hex {label(b)} unless screened "
                "(10.1.2: friendly units in both)"
            )
        if cost is None:  # a normal move's (`_move_cost`), its memo read in line
            step = costs.get((a, b)) if b not in flooded else None
            spent += step if step is not None else _move_cost(board, flooded, a, b)
        else:
            spent += cost(a, b)
        if spent > allowance:
            return MoveCheck(
                f"10.3.1 D: {piece_id} has not the movement allowance to enter hex {label(b)} "
                f"({spent} needed, {allowance} allowed)"
            )
        if b in nml and i < len(hexes) - 1:
            return MoveCheck(
                f"10.1.1 B: {piece_id} must stop on entering No Man's Land hex {label(b)}"
            )
    return stacking_check(pieces, piece, hexes[-1], stack)


def legal_move(
    board: Board,
    pieces: Pieces,
    piece_id: str,
    path: Sequence[int],
    flooded: Collection[int] = (),
    enemies: set[int] | None = None,
    stack: Iterable[str] | None = None,
) -> MoveCheck:
    """Whether the piece may make the normal move (9.1, 10) along `path`, the hexes from
    its own hex (first) to where it stops (last): MA 3, 5 scouting cavalry (10.1 B);
    forest or river 2, not cumulative (10.3.1); no water, entrenchment or flooded hex
    (10.3.2, 9.8 B); stop on entering NML (10.1.1 B); NML to NML only screened, one hex
    (10.1.1 C, 10.1.2); pass through but do not stop over 6 SZ (10.2 A-C); never into an
    enemy-occupied hex (10.2 D). `enemies`, if given, is `enemy_hexes` of the piece's side
    and `stack` the keys of its side's pieces in the last hex (`stacking_check`'s `among`),
    found by a caller that looked at every piece already."""
    try:
        allowance = movement_allowance(find(pieces, piece_id))
    except KeyError as error:
        return MoveCheck(str(error.args[0]))
    near = None if enemies is None else near_enemies(board, enemies)
    return _path_problem(
        board, pieces, piece_id, path, flooded, None, allowance, "move", near, stack
    )


def _move_cost(board: Board, flooded: Collection[int], a: int, b: int) -> int:
    """A normal move's price of the step from `a` into `b` (`legal_move`'s)."""
    return rm.move_cost(board, a, b, flooded) or 0  # prohibited steps refused before


def reachable(
    board: Board,
    pieces: Pieces,
    piece_id: str,
    flooded: Collection[int] = (),
    near: tuple[set[int], set[int]] | None = None,
) -> dict[int, list[int]]:
    """Every hex the piece may end a normal move in, with a cheapest legal path to it (for
    bots and menus); destinations whose stacking rests on hidden sizes are included (their
    move carries the claim `legal_move` returns). `near`, if given, is (`enemy_hexes`,
    `nml_hexes`) of the piece's side, computed once by a caller that asks for many pieces."""
    piece = find(pieces, piece_id)
    side, start = piece["side"], piece["hex"]
    g = rm.adjacency(board)  # (`rm.grid(board)`'s answers)
    enemies, nml = near or (enemy_hexes(pieces, side), nml_hexes(board, pieces, side))
    allowance = movement_allowance(piece)
    best: dict[int, int] = {start: 0}
    came: dict[int, int] = {}
    todo: list[int] = [start]
    costs = rm.move_costs(board)  # (`move_cost`'s memo, read here without a call a step)
    around = rm.neighbour_table(board)  # (`g.neighbours`, without its check of the hex)
    while todo:
        todo.sort(key=best.__getitem__)
        here = todo.pop(0)
        in_nml = here in nml
        if in_nml and here != start:
            continue  # 10.1.1 B: entering NML ends the move
        so_far = best[here]
        for there in around.get(here) or g.neighbours(here):
            # `_step_problem`, for a neighbour on the map: no cost is a prohibited or
            # flooded hex (10.3.2, 9.8 B); an enemy-occupied hex is never entered (10.2 D)
            step = costs.get((here, there), _ASK)
            if step is _ASK or there in flooded:
                step = rm.move_cost(board, here, there, flooded)
            if step is None or there in enemies:
                continue
            if in_nml and there in nml:
                screened = occupants(pieces, here, side, but=piece_id) and occupants(
                    pieces, there, side
                )
                if not screened:
                    continue
            spent = so_far + step
            if spent > allowance or spent >= best.get(there, allowance + 1):
                continue
            best[there], came[there] = spent, here
            if there not in todo:
                todo.append(there)
    # The other friendly pieces, by hex: all that `stacking_check` reads of `pieces` for a
    # hex, in their order (elsewhere it needs none).
    crowded: dict[int, Any] = {}
    if isinstance(pieces, Mapping):
        for k, v in pieces.items():
            if v["side"] == side and v.get("id", k) != piece_id:
                crowded.setdefault(v["hex"], {})[k] = v
    else:
        for p in pieces:
            if p["side"] == side and p["id"] != piece_id:
                crowded.setdefault(p["hex"], []).append(p)
    # (a hex with no other friendly piece: `stacking_check` of the piece alone, once)
    alone = (_size(piece) or 0) <= STACK_LIMIT
    out: dict[int, list[int]] = {}
    for h in sorted(best):
        if h == start:
            continue
        if not (alone if h not in crowded else stacking_check(crowded[h], piece, h).ok):
            continue
        path = [h]
        while path[-1] != start:
            path.append(came[path[-1]])
        out[h] = path[::-1]
    return out


# --- Forced march (7.7.3) -------------------------------------------------------------------------


def forced_march_check(
    board: Board,
    pieces: Pieces,
    piece_id: str,
    path: Sequence[int],
    flooded: Collection[int] = (),
    near: tuple[set[int], Container[int]] | None = None,
    stack: Iterable[str] | None = None,
) -> MoveCheck:
    """A forced march (7.7.3): one hex; the Germans two if neither enters a forest nor
    crosses a river (7.7.3.1). Normal movement rules apply, terrain cost aside (7.7.3.3 A):
    NML, screening, stacking, prohibited and enemy-occupied hexes as in `legal_move`.
    `near`: the piece's side's (`enemy_hexes`, `nml_hexes`), if the caller has them; `stack`:
    `stacking_check`'s `among` in the last hex (as `legal_move`)."""
    try:
        piece = find(pieces, piece_id)
    except KeyError as error:
        return MoveCheck(str(error.args[0]))
    hexes = list(path)
    german = piece["side"] == "germans"
    limit = GERMAN_FORCED_MARCH if german else ALLIED_FORCED_MARCH
    if len(hexes) - 1 > limit:
        rule = "7.7.3.1" if german else "7.7.3.2"
        return MoveCheck(f"{rule}: a forced march moves at most {limit} hex(es)")
    if len(hexes) == 3:
        g = rm.adjacency(board)  # (`rm.grid(board)`'s answers)
        for a, b in zip(hexes, hexes[1:], strict=False):
            if a not in g or b not in g or not g.adjacent(a, b):
                break  # reported by _path_problem
            if rm.terrain(board, b) == "forest" or rm.is_river(board, a, b):
                return MoveCheck(
                    "7.7.3.1: a two-hex forced march may not enter a forest or cross a river "
                    f"(hex {label(b)})"
                )
    return _path_problem(
        board, pieces, piece_id, hexes, flooded, lambda a, b: 1, limit, "forced march", near, stack
    )


# --- Control (14.1 B, 15.3) --------------------------------------------------------------------


def initial_control(board: Board, hex_: int) -> str | None:
    """15.3: Allied west of the Historic Trench Line (the hexes behind the Allied
    entrenchment lie there), German east of it; None for the hexes no one controls
    (water and the entrenchments, which no unit may ever enter, 10.3.2)."""
    cached = _INITIAL.get(id(board))
    if cached is None or cached[0] is not board:
        if len(_INITIAL) >= 8:
            _INITIAL.clear()
        cached = _INITIAL[id(board)] = (board, {})
    known = cached[1]
    if hex_ not in known:
        known[hex_] = _initial_control(board, hex_)
    return known[hex_]


# initial_control by map (the map data is never changed once loaded) and hex: it is asked
# some 100,000 times a self-play game (bench/selfplay.py).
_INITIAL: dict[int, tuple[Mapping[str, Any], dict[int, str | None]]] = {}


def _initial_control(board: Board, hex_: int) -> str | None:
    if rm.terrain(board, hex_) in rm.PROHIBITED:
        return None
    side = rm.side_of_trench_line(board, hex_)
    return {"west": "allies", "east": "germans"}.get(side or "")


# Printed labels by hex id: `_changed` looks one up some 150,000 times a self-play game.
_label = lru_cache(maxsize=4096)(label)
hex_label = _label  # the same, for the engine (state.take_control writes the control)


def _changed(control: Control, hex_: int) -> str | None:
    if not control:
        return None
    for key in (hex_, _label(hex_), str(hex_)):
        if key in control:
            return control[key]
    return None


def control_of(
    board: Board, control: Control, hex_: int, flooded: Collection[int] = ()
) -> str | None:
    """Which side controls `hex_`: the recorded change, else the initial control (15.3);
    None for water, entrenchment and flooded hexes."""
    if hex_ in flooded:
        return None  # 9.8 B: a water hex
    start = initial_control(board, hex_)
    if start is None:
        return None
    return _changed(control, hex_) or start


def update_control(
    board: Board, control: Control, piece: Mapping[str, Any], hex_: int
) -> dict[int, str]:
    """The control changes after `piece` enters `hex_` (a new dict, keyed by int): the side
    of an infantry unit, a hidden False Report (3.1.3 B) or deployed cavalry (10.5.1)
    takes the hex (14.1 B: "was the last to occupy"); only changes from 15.3 are kept."""
    out: dict[int, str] = {}
    for key, side in control.items():
        out[int(key)] = side
    if not controls_hexes(piece) or initial_control(board, hex_) is None:
        return out
    out.pop(hex_, None)
    if piece["side"] != initial_control(board, hex_):
        out[hex_] = piece["side"]
    return out


def _friendly(
    board: Board, control: Control, side: str, flooded: Collection[int]
) -> Callable[[int], bool]:
    return lambda h: control_of(board, control, h, flooded) == side


def loc(
    board: Board,
    control: Control,
    start: int,
    targets: Iterable[int],
    side: str | None = None,
    flooded: Collection[int] = (),
) -> list[int] | None:
    """A shortest path of connected hexes controlled by `side` (by default the side
    controlling `start`) from `start` to one of `targets` (9.5, 14.1 C); None if none."""
    side = side or control_of(board, control, start, flooded)
    if side is None:
        return None
    friendly = _friendly(board, control, side, flooded)
    goals = {t for t in targets if friendly(t)}
    if not friendly(start) or not goals:
        return None
    g = rm.adjacency(board)  # (`rm.grid(board)`'s answers)
    came: dict[int, int | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here in goals:
            path = [here]
            while (back := came[path[-1]]) is not None:
                path.append(back)
            return path[::-1]
        for there in g.neighbours(here):
            if there not in came and friendly(there):
                came[there] = here
                queue.append(there)
    return None


REGROUP_PORTS = ("Calais", "Dunkirk", "Nieuport", "Ostend", "Zeebrugge")  # 9.5.3


def regroup_targets(
    board: Board, nationality: str, control: Control, flooded: Collection[int] = ()
) -> list[int]:
    """The friendly-controlled hexes a unit of `nationality` may trace its Regroup or
    Rebuild LOC to (9.5.1-9.5.4, 9.6), in map order."""
    side = "germans" if nationality == "german" else "allies"
    if nationality in ("german", "french"):
        found = list(_cities(board))  # 9.5.1, 9.5.2
        if nationality == "french":
            found.append(rm.hex_of(board, rm.SOUTH_ENTRY))  # 9.5.2
    elif nationality == "british":
        found = [rm.hex_of(board, name) for name in REGROUP_PORTS]  # 9.5.3
    elif nationality == "belgian":
        found = [rm.hex_of(board, "Ghent")]  # 9.5.4
    else:
        raise ValueError(f"unknown nationality {nationality!r}")
    friendly = _friendly(board, control, side, flooded)
    return sorted({h for h in found if friendly(h)})


def _cities(board: Board) -> tuple[int, ...]:
    """The map's city and major city hexes, in map order, by map (by identity: never changed
    once loaded): a bot's every Regroup choice asks them, each a look at the whole map."""
    cached = _CITIES.get(id(board))
    if cached is None or cached[0] is not board:
        if len(_CITIES) >= 8:
            _CITIES.clear()
        found = tuple(
            h for h in rm.map_hexes(board) if rm.terrain(board, h) in ("city", "major city")
        )  # (`rm.grid(board)`'s hexes, in its order)
        cached = _CITIES[id(board)] = (board, found)
    return cached[1]


_CITIES: dict[int, tuple[Mapping[str, Any], tuple[int, ...]]] = {}


def regroup_loc(
    board: Board,
    control: Control,
    nationality: str,
    start: int,
    flooded: Collection[int] = (),
) -> list[int] | None:
    """9.5: the LOC of a unit of `nationality` in `start` to an eligible hex, or None."""
    side = "germans" if nationality == "german" else "allies"
    targets = regroup_targets(board, nationality, control, flooded)
    return loc(board, control, start, targets, side, flooded)


def strategic_loc_hexes(
    board: Board, control: Control, side: str, flooded: Collection[int] = ()
) -> set[int]:
    """The hexes controlled by `side` that trace a path of connected friendly-controlled
    hexes to a friendly-controlled hex of `side`'s own map edge (14.1 C: the Allies the
    west edge, the Germans the east edge)."""
    friendly = _friendly(board, control, side, flooded)
    return rm.grid(board).region(rm.edge_hexes(board, side), friendly)


# --- Railroad movement (7.3) ------------------------------------------------------------------


def rail_move_problem(
    board: Board,
    pieces: Pieces,
    control: Control,
    piece_id: str,
    path_or_destination: int | Sequence[int],
    flooded: Collection[int] = (),
) -> MoveCheck:
    """Whether the piece may move by rail (7.3) along a path (its hex first) or to a
    destination (any route then): an Allied infantry unit, False Report or deployed
    cavalry (7.3 A, F); starting on a railroad hex, only along connected track, ending on
    a railroad town, city or major city (7.3 C); never starting in, entering or ending in
    an enemy-controlled or enemy NML hex, even friendly-occupied (7.3 D); stacking at the
    end (10.2). The 4-SZ limit of the phase is `rail_limit_check`."""
    try:
        piece = find(pieces, piece_id)
    except KeyError as error:
        return MoveCheck(str(error.args[0]))
    if piece["side"] != "allies":
        return MoveCheck("7.3 A: only Allied units move by rail")
    if is_scouting(piece):
        return MoveCheck("7.3 F: scouting cavalry may not use Railroad Movement")
    start = piece["hex"]
    barred = _rail_barred(board, pieces, control, flooded)
    if not rm.is_railroad(board, start):
        return MoveCheck(f"7.3 C: {piece_id} does not start on a railroad hex")
    problem = barred(start)
    if problem is not None:
        return MoveCheck(f"{problem} (the rail move starts there)")
    if isinstance(path_or_destination, int):
        end = path_or_destination
        if end not in rm.adjacency(board):  # (`rm.grid(board)`'s hexes)
            return MoveCheck(f"hex {end} is not on the map")
        if end == start:
            return MoveCheck("a rail move ends in another hex")
        problem = barred(end)
        if problem is not None:
            return MoveCheck(problem)
        if end not in rm.rail_reachable(board, start, lambda h: barred(h) is None):
            return MoveCheck(
                f"7.3 C-D: no connected railroad through Allied-controlled hexes clear of "
                f"enemy No Man's Land joins hex {label(start)} to hex {label(end)}"
            )
    else:
        hexes = list(path_or_destination)
        if len(hexes) < 2 or hexes[0] != start:
            return MoveCheck(
                f"a rail path starts in {piece_id}'s hex {label(start)} and enters another"
            )
        g = rm.adjacency(board)  # (`rm.grid(board)`'s answers)
        for a, b in zip(hexes, hexes[1:], strict=False):
            if b not in g or not g.adjacent(a, b) or not rm.rail_linked(board, a, b):
                return MoveCheck(f"7.3 C: no railroad joins hex {label(a)} to hex {b:04d}")
            problem = barred(b)
            if problem is not None:
                return MoveCheck(problem)
        end = hexes[-1]
    if rm.terrain(board, end) not in rm.SETTLEMENTS:
        return MoveCheck(
            f"7.3 C: a rail move ends in a town, city or major city, not hex {label(end)}"
        )
    return stacking_check(pieces, piece, end)


def _rail_barred(
    board: Board, pieces: Pieces, control: Control, flooded: Collection[int]
) -> Callable[[int], str | None]:
    """What bars an Allied rail move from a hex (7.3 D, 9.8 B), None if nothing does."""
    nml = nml_hexes(board, pieces, "allies")
    enemies = enemy_hexes(pieces, "allies")

    def barred(h: int) -> str | None:
        if h in flooded:
            return f"9.8 B: hex {label(h)} is flooded"
        if control_of(board, control, h, flooded) != "allies":
            return f"7.3 D: hex {label(h)} is not Allied-controlled"
        if h in nml:
            return f"7.3 D: hex {label(h)} is enemy No Man's Land"
        if h in enemies:
            return f"7.3 D: hex {label(h)} is enemy-occupied"
        return None

    return barred


def rail_destinations(
    board: Board,
    pieces: Pieces,
    control: Control,
    piece_id: str,
    flooded: Collection[int] = (),
) -> list[int]:
    """The hexes, in id order, that `rail_move_problem` accepts as the piece's destination,
    found with one search of the track instead of one per destination (for bots and
    menus: bench/selfplay.py)."""
    try:
        piece = find(pieces, piece_id)
    except KeyError:
        return []
    if piece["side"] != "allies" or is_scouting(piece) or not rm.is_railroad(board, piece["hex"]):
        return []
    start = piece["hex"]
    barred = _rail_barred(board, pieces, control, flooded)
    if barred(start) is not None:
        return []
    reach = rm.rail_reachable(board, start, lambda h: barred(h) is None)
    return [
        end
        for end in sorted(reach)
        if end != start
        and rm.terrain(board, end) in rm.SETTLEMENTS
        and stacking_check(pieces, piece, end).ok
    ]


def rail_limit_check(pieces: Pieces, moved: Iterable[str]) -> MoveCheck:
    """7.3 A-B: the units moved by rail in one phase total at most 4 SZ, False Reports
    free; hidden sizes make a claim."""
    chosen = [find(pieces, piece_id) for piece_id in moved]
    sizes = [_size(p) for p in chosen]
    known = sum(s for s in sizes if s is not None)
    if known > RAIL_SZ_LIMIT:
        return MoveCheck(f"7.3 A: {known} SZ moved by rail this phase, more than {RAIL_SZ_LIMIT}")
    if None in sizes:
        hidden = ", ".join(p["id"] for p, s in zip(chosen, sizes, strict=True) if s is None)
        return MoveCheck(
            claims=(
                f"7.3 A: at most {RAIL_SZ_LIMIT} SZ moved by rail this phase ({hidden} hidden)",
            )
        )
    return MoveCheck()


# --- Retreats (12.7, 11.3) ---------------------------------------------------------------------


def closer_to_enemy_side(side: str, from_hex: int, to_hex: int) -> bool:
    """12.7 D, read by map column: the Allies' enemy side is the east edge, the Germans'
    the west edge (14.1 C)."""
    a, b = split(from_hex)[0], split(to_hex)[0]
    return b > a if side == "allies" else b < a


def retreat_options(
    board: Board,
    pieces: Pieces,
    piece_id: str,
    attacker_entry_hex: int | None = None,
    flooded: Collection[int] = (),
) -> list[Retreat]:
    """The retreats the piece may make (12.7; a Fallback From Fire follows them too, 11.3 A,
    with no attacker entry hex). Pass the positions after the attackers entered the battle
    hex. A hex is legal if it is adjacent, not the attacker's entry hex, not enemy-occupied,
    not enemy NML unless friendly-occupied, not prohibited and not overstacked (12.7 C);
    when an overstacked friendly hex is all that bars a hex, the unit retreats through it
    one hex further (12.7 E). Those not closer to the enemy's side of the map are preferred
    (12.7 D): if any exists, only they are listed. An empty list: the unit cannot retreat,
    stays and takes a hit (12.7 F)."""
    piece = find(pieces, piece_id)
    side, start = piece["side"], piece["hex"]
    g = rm.adjacency(board)  # (`rm.grid(board)`'s answers)
    enemies = enemy_hexes(pieces, side)
    nml = nml_hexes(board, pieces, side)

    def open_hex(h: int) -> bool:
        if h in (start, attacker_entry_hex) or h in enemies or h in flooded:
            return False
        if rm.terrain(board, h) in rm.PROHIBITED:
            return False
        return h not in nml or bool(occupants(pieces, h, side, but=piece_id))

    one: list[Retreat] = []
    through: list[int] = []  # hexes barred, or perhaps barred, only by overstacking
    for h in g.neighbours(start):
        if not open_hex(h):
            continue
        stack = stacking_check(pieces, piece, h)
        if stack.ok:
            one.append(Retreat((h,), stack.claims))
        if not stack.ok or stack.claims:
            through.append(h)
    two: list[Retreat] = []
    if not any(not r.claims for r in one):  # 12.7 E: only when no one-hex retreat is sure
        for h in through:
            for h2 in g.neighbours(h):
                if h2 in g.neighbours(start) or not open_hex(h2):
                    continue  # a hex next to the battle is a one-hex retreat or none
                stack = stacking_check(pieces, piece, h2)
                if not stack.ok:
                    continue
                claims = stack.claims
                if any(r.hex == h for r in one):  # hidden sizes: h must be overstacked
                    claims = (*claims, f"12.7 E: hex {label(h)} would be overstacked")
                two.append(Retreat((h, h2), claims))
    found = one + two
    preferred = [r for r in found if not closer_to_enemy_side(side, start, r.hex)]
    return preferred or found
