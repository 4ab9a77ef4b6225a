"""Götterdämmerung: the listed choices of each step and the bot's samples.

A hex map has too many moves to list: `choices` lists a sensible subset (each unit's
one-hex moves, each attack from every adjacent hex, `done`), and the samplers draw a legal
decision from a seeded `random.Random` (never the protocol's generator). Every sample is
checked with the same functions the handlers use, so a bot never signs an illegal entry.

The bot is random but not aimless, so that its games look like the battle: Soviet units
lean towards Berlin, German units stay near where they are, attacks are made at 1:1 or
better, and a phase ends after a handful of moves.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import repeat
from typing import Any

from pbem.core.engine import State
from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import (
    arrivals,
    deployment,
    fighting,
    moving,
    overrun,
    phases,
    rail,
    zoc,
)
from pbem.games.gotterdammerung import combat as cb
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import movement as mv
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung.decisions import (
    Advance,
    Artillery,
    Attack,
    Bid,
    Deploy,
    Done,
    Enter,
    Lose,
    Move,
    OpenBid,
    Overrun,
    Rail,
    Remove,
    Retreat,
    Volkssturm,
)

BERLIN = "op:2321"  # (unused hex at the City Map's centre: distances only)
MOVES_PER_PHASE = 6
ATTACKS_PER_PHASE = 4


def _usable_neighbours(board: Mapping[str, Any]) -> Mapping[str, tuple[str, ...]]:
    """Each hex's neighbours that are not unused (2.1), in md.neighbours's order."""
    return _per_board(board)[0]


def _city_hexes(board: Mapping[str, Any]) -> tuple[str, ...]:
    """The ids of the City Map's hexes ("city:..."), sorted."""
    return _per_board(board)[1]


def _neighbour_sets(board: Mapping[str, Any]) -> Mapping[str, frozenset[str]]:
    """Each hex's neighbours (md.neighbours), as a set."""
    return _per_board(board)[2]


# the map's tables above, made once per map object: the map (a static part of the state) is
# never changed, and it is held here, so its id names no other object while it is here
_Tables = tuple[dict[str, tuple[str, ...]], tuple[str, ...], dict[str, frozenset[str]]]
_BOARD: list[tuple[Mapping[str, Any], _Tables]] = []


def _per_board(board: Mapping[str, Any]) -> _Tables:
    for held, tables in _BOARD:
        if held is board:
            return tables
    hexes = board["hexes"]
    usable = {
        h: tuple(n for n in md.neighbours(board, h) if md.kind(board, n) != md.UNUSED)
        for h in hexes
    }
    city = tuple(sorted(k for k in hexes if k.startswith("city:")))
    sets = {h: frozenset(md.neighbours(board, h)) for h in hexes}
    tables = (usable, city, sets)
    _BOARD[:] = [*_BOARD[-3:], (board, tables)]
    return tables


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """`rng.shuffle(items)`: the same draws and the same order, made in line for a plain
    `random.Random` (CPython's shuffle and _randbelow_with_getrandbits: one getrandbits of
    the bound's bit length, again while the value is not below it); any other generator
    shuffles itself."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _short(h: str) -> str:
    return h.replace("op:", "") if h.startswith("op:") else h


def _distance(state: State, a: str, b: str = BERLIN) -> int:
    if a == gs.NGP or b == gs.NGP:
        return 99
    na, nb = int(a[-4:]), int(b[-4:])
    if a.startswith("city:"):
        return 0
    (ca, ra), (cb_, rb) = divmod(na, 100), divmod(nb, 100)
    return abs(ca - cb_) + abs(ra - rb)


# `_distance` to BERLIN by hex id: a function of the id's text alone (no state read), so
# kept for the process; a few hundred ids at most
_TO_BERLIN: dict[str, int] = {}


def _to_berlin(h: str) -> int:
    found = _TO_BERLIN.get(h)
    if found is None:
        found = _TO_BERLIN[h] = _distance({}, h)
    return found


# --- set-up ---------------------------------------------------------------------------------------


def bids(state: State, role: str) -> list[Any]:
    return [Bid(n) for n in (5, 10, 12, 15)]


def sample_bid(state: State, role: str, rng: random.Random) -> Any:
    return Bid(rng.randint(6, 16))


def open_bids(state: State, role: str) -> list[Any]:
    return [OpenBid()]


def default_artillery(state: State) -> dict[str, str]:
    """Each Artillery Support marker on the first corps of its army (6.91)."""
    data = state["counters"]
    out: dict[str, str] = {}
    for marker in data["artillery"]:
        for unit in sorted(gs.on_map(state), key=lambda u: u["id"]):
            if unit["id"] in out.values():
                continue
            if not deployment.artillery_problems(data, gs.on_map(state), marker["id"], unit["id"]):
                out[marker["id"]] = unit["id"]
                break
    return out


def artillery(state: State, role: str) -> list[Any]:
    return [Artillery(tuple(sorted(default_artillery(state).items())))]


def deploys(state: State, role: str) -> list[Any]:
    return [Deploy(None)]


# --- movement -----------------------------------------------------------------------------------


def _movable(state: State, side: str) -> list[dict[str, Any]]:
    found = []
    units = gs.on_map(state)
    for unit in units:
        if unit["side"] != side or unit.get("moved"):
            continue
        try:
            moving._eligible(state, unit, units)
        except IllegalOrderError:
            continue
        if gs.face(state, unit)["movement"] < 1:
            continue
        found.append(unit)
    return found


def _some_movable(
    state: State,
    side: str,
    rng: random.Random,
    most: int,
    units: list[dict[str, Any]] | None = None,
) -> Iterator[dict[str, Any]]:
    """Up to `most` units of `side` that may move now, in a random order: the units are
    shuffled (at the first `next`) and checked one by one as the caller asks for the next,
    so a caller that stops at the first unit that may go checks no more. The checks read
    the state only (no draw), so the units met are those a list made at once would hold."""
    units = gs.on_map(state) if units is None else units  # (gs.on_map, if the caller has it)
    order = [u for u in units if u["side"] == side and not u.get("moved")]
    shuffle(rng, order)
    found = 0
    for unit in order:
        if found == most:
            return
        try:
            moving._eligible(state, unit, units)
        except IllegalOrderError:
            continue
        if gs.face(state, unit)["movement"] >= 1:
            found += 1
            yield unit


def _legal_paths(state: State, unit: dict[str, Any], depth: int = 2) -> list[list[str]]:
    try:
        move = moving.preview(state, unit)
    except IllegalOrderError:
        return []
    if move.get("stopped") or move["points"] < 1:
        return []  # (check_walk refuses every step of such a move)
    board = state["board"]
    callbacks = moving.zoc_rules(state, unit, move["zoc"] if move["fresh"] else False)
    # check_walk refuses a step into an enemy-held hex (5.21): not asked (it is most of the
    # bots' time); the same hexes as check_walk's own `gs.enemy_hexes`
    enemy = gs.enemy_hexes(state, unit["side"])
    out: list[list[str]] = []
    frontier = [[unit["hex"]]]
    may_end: dict[str, bool] = {}  # by end hex: paths of one unit often share their end
    stacks = zoc.by_hex(state["units"].values())  # (gs.units_at of every hex at once)
    facts = gs.mover(state, unit)  # (the same for every path tried)
    for _ in range(depth):
        nxt = []
        for path in frontier:
            for n in md.neighbours(board, path[-1]):
                if n in path or n in enemy or md.kind(board, n) == md.UNUSED:
                    continue
                try:
                    moving.check_walk(
                        state, unit, move, [*path[1:], n], callbacks, enemy=enemy, facts=facts
                    )
                except IllegalOrderError:
                    continue
                nxt.append([*path, n])
        for p in nxt:
            end = p[-1]
            if end not in may_end:
                may_end[end] = _may_end(state, unit, end, stacks)
            if may_end[end]:
                out.append(p[1:])
        frontier = nxt
    return out


def _may_end(
    state: State,
    unit: dict[str, Any],
    h: str,
    stacks: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
) -> bool:
    """Would the unit's hex stay legal at the end of the phase (4.1, 4.17)? The bot never
    leaves an overstack for 4.18 (the rules allow it, at a price). `stacks`: the units by
    hex (zoc.by_hex of every unit), if the caller has them."""
    if h == gs.NGP:
        return True
    here = gs.units_at(state, h) if stacks is None else stacks.get(h, [])
    stack = [u for u in here if u["id"] != unit["id"]]
    return not zoc.stack_problems(state["board"], state["counters"], [*stack, {**unit, "hex": h}])


def moves(state: State, role: str) -> list[Any]:
    side = phases.phase_side(state)
    listed: list[Any] = [Done()]
    for unit in _movable(state, side)[:12]:
        for path in _legal_paths(state, unit, depth=1):
            listed.append(Move(unit["id"], tuple(_short(h) for h in path)))
    return listed


def _at_least(state: State, flag: str, count: int) -> bool:
    """Do `count` or more units bear `flag` (counted in C: one `dict.get` a unit)?"""
    return sum(map(bool, map(dict.get, state["units"].values(), repeat(flag)))) >= count


def _due(state: State, side: str) -> list[str]:
    return sorted(
        uid
        for uid, info in state["waiting"].items()
        if info["turn"] <= state["turn"]
        and info["at"] != "NGP"
        and ("german" if state["counters"]["units"][uid]["side"] == "german" else "soviet") == side
    )


def sample_move(state: State, role: str, rng: random.Random) -> Any:
    side = phases.phase_side(state)
    current = state["moving"]
    if state["phase"] in moving.NORMAL_PHASES:
        for uid in _due(state, side):
            sample = _sample_entry(state, uid, rng)
            if sample is not None:
                return sample
        if side == "german" and state["phase_data"].get("ngp_allowed", 0) > 0:
            for unit in gs.in_box(state, "german"):
                sample = _sample_entry(state, unit["id"], rng, code="N")
                if sample is not None:
                    return sample
    if current is not None and current["points"] > 0 and rng.random() < 0.5:
        unit = state["units"].get(current["unit"])
        if unit is not None:
            sample = _sample_walk(state, unit, rng)
            if sample is not None:
                return sample
    if _at_least(state, "moved", MOVES_PER_PHASE) or rng.random() < 0.1:
        return Done()
    units = gs.on_map(state)
    german: set[str] | None = None  # (the hexes German units hold: found for an overrun)
    for unit in _some_movable(state, side, rng, 6, units):
        if unit.get("delays") and state["phase"] == "soviet-move":
            return Move(unit["id"], ())
        move = _preview(state, unit)  # (one preview for the overrun and the walk)
        if move is None:
            continue  # (both would give None)
        if side == "soviet" and state["phase"] in ("soviet-move", "breakthrough"):
            if german is None:
                german = {u["hex"] for u in units if u["side"] == "german"}
            sample = _sample_overrun(state, unit, rng, move, units, german)
            if sample is not None:
                return sample
        sample = _sample_walk(state, unit, rng, move)
        if sample is not None:
            return sample
    return Done()


def _sample_walk(
    state: State, unit: dict[str, Any], rng: random.Random, move: dict[str, Any] | None = None
) -> Any:
    """A legal one- or two-hex step of the unit's move: candidate paths are drawn without
    checking (Soviet units try those ending nearer Berlin first), then checked one by one
    with the handler's own check until one passes: a handful of checks, not every path.
    `move`: the unit's moving.preview, if the caller has it."""
    if move is None:
        move = _preview(state, unit)
        if move is None:
            return None
    if move.get("stopped") or move["points"] < 1:
        return None
    board = state["board"]
    enemy = gs.enemy_hexes(state, unit["side"])
    start = unit["hex"]
    usable = _usable_neighbours(board)
    firsts = [n for n in usable[start] if n not in enemy]
    candidates = [[n] for n in firsts]
    candidates += [[n, m] for n in firsts for m in usable[n] if m != start and m not in enemy]
    if unit["side"] == "soviet":
        # candidates.sort(key=lambda p: (_to_berlin(p[-1]), rng.random())): the keys made
        # in the list's order (as sort makes them), then the same stable sort
        known, draw = _TO_BERLIN, rng.random
        keys = [(known[p[-1]] if p[-1] in known else _to_berlin(p[-1]), draw()) for p in candidates]
        candidates = [candidates[i] for i in sorted(range(len(keys)), key=keys.__getitem__)]
        head = candidates[: max(3, len(candidates) // 3)]
        shuffle(rng, head)
        candidates = head + candidates[len(head) :]
    else:
        shuffle(rng, candidates)
    # (every draw is made above: what follows reads the state only, so stopping early
    # leaves the generator where trying every candidate would)
    facts = gs.mover(state, unit)  # (the same for every path tried)
    if _phase_bars(state, unit, facts):
        return None  # (a Siege Movement Phase's units off the City Map, most often)
    callbacks = None  # (moving.zoc_rules, found for the first path checked)
    stacks = None
    ends: dict[str, bool] = {}  # _may_end by end hex (paths of one unit share their ends)
    refused: set[str] = set()  # first hexes whose one-hex step check_walk refused
    for path in candidates[:24]:
        if path[0] in refused:
            # check_walk refuses a path whose first step it refuses alone: its tests of that
            # step come first and a step's points are never negative (5.23's one hex
            # whatever the cost is for a one-hex path only)
            continue
        end = path[-1]
        may_end = ends.get(end)
        if may_end is None:
            if ends and stacks is None:  # (a second end to test: the units by hex, once)
                stacks = zoc.by_hex(state["units"].values())
            may_end = ends[end] = _may_end(state, unit, end, stacks)
        if not may_end:
            continue
        if callbacks is None:
            callbacks = moving.zoc_rules(state, unit, move["zoc"] if move["fresh"] else False)
        try:
            moving.check_walk(state, unit, move, path, callbacks, enemy=enemy, facts=facts)
        except IllegalOrderError:
            if len(path) == 1:
                refused.add(path[0])
            continue
        return Move(unit["id"], tuple(_short(h) for h in path))
    return None


def _preview(state: State, unit: dict[str, Any]) -> dict[str, Any] | None:
    """moving.preview, None where it refuses (the unit may not move now)."""
    try:
        return moving.preview(state, unit)
    except IllegalOrderError:
        return None


def _phase_bars(state: State, unit: dict[str, Any], facts: Mapping[str, Any]) -> bool:
    """Does the phase bar the unit from moving at all, whatever its path (5.16, 5.17, 5.46,
    5.54): then check_walk refuses every path. movement's own test of the phase, on a path
    that enters no hex but the unit's own: its one test of the hexes entered (5.46: no
    Operational hex) reads only that hex, on the City Map when the unit's test passed."""
    start = unit["hex"]
    try:
        mv._check_phase(state["board"], facts, [start, start], moving._phase(state), facts["name"])
    except IllegalOrderError:
        return True
    return False


def _sample_entry(state: State, uid: str, rng: random.Random, code: str | None = None) -> Any:
    info = state["waiting"].get(uid)
    code = code or (info["at"] if info else "N")
    side = "german" if state["counters"]["units"][uid]["side"] == "german" else "soviet"
    hexes = gs.entry_hexes(state, info if info is not None else {"at": code}, side)
    if not hexes:
        return None
    if info is not None and info.get("rail"):
        by_rail = [h for h in hexes if rail.entry_by_rail(state["board"], h)]
        if by_rail:
            h = rng.choice(by_rail)
            return Rail(uid, tuple(_short(x) for x in _rail_run(state, h, rng)))
    h = rng.choice(hexes)
    return Enter(uid, (_short(h),))


def _rail_run(state: State, start: str, rng: random.Random, most: int = 3) -> list[str]:
    """A short run along the railroad from `start`, away from the enemy (for the bot)."""
    board = state["board"]
    enemy_zoc = zoc._zone(board, state["counters"], gs.on_map(state), "german")  # (read)
    taken = {u["hex"] for u in gs.on_map(state) if u["side"] == "soviet"}
    path = [start]
    for _ in range(rng.randint(0, most)):
        nexts = [
            n
            for n in md.neighbours(board, path[-1], md.OP)
            if n not in path
            and n not in taken
            and n not in enemy_zoc
            and md.kind(board, n) == md.OPERATIONAL
            and rail.is_railroad(board, path[-1], n)
        ]
        if not nexts:
            break
        path.append(rng.choice(nexts))
    return path


def _sample_overrun(
    state: State,
    unit: dict[str, Any],
    rng: random.Random,
    move: dict[str, Any] | None = None,
    units: list[dict[str, Any]] | None = None,
    german: set[str] | None = None,
) -> Any:
    """An overrun the unit may make now (7.1), taken at 7 in 10. `move`, `units` and
    `german`: its moving.preview, gs.on_map and the hexes German units hold there, if the
    caller has them."""
    if move is None:
        move = _preview(state, unit)
        if move is None:
            return None
    board = state["board"]
    if units is None:
        units = gs.on_map(state)
    if german is None:
        german = {u["hex"] for u in units if u["side"] == "german"}
    for n in md.neighbours(board, unit["hex"]):
        if n not in german:
            continue
        problems = overrun.overrun_problems(
            board,
            state["tables"],
            state["counters"],
            units,
            gs.mover(state, unit),
            unit["hex"],
            n,
            points_left=move["points"],
            phase=phases.MOVEMENT[state["phase"]],
            turn=state["turn"],
        )
        if not problems and rng.random() < 0.7:
            return Overrun(unit["id"], _short(unit["hex"]), _short(n))
    return None


# --- combat ---------------------------------------------------------------------------------------


def _attacks(state: State) -> list[tuple[Attack, Any]]:
    side = phases.phase_side(state)
    board = state["board"]
    siege = state["phase"] == "siege-combat"
    # the position indexed once for every target (nothing changes while they are tried), in
    # one pass over the units: the side's units by hex, each with its place in the list of
    # units (the order `near` keeps); every unit by hex (attack_problems and combat_odds
    # read of the units only those in the target hex, cb.defenders: the units there, in
    # the list's order, give the same answers as all of them); the hexes to attack
    own: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    stacks: dict[str, list[dict[str, Any]]] = {}
    open_targets = set()
    for i, u in enumerate(gs.on_map(state)):
        h = u["hex"]
        here = stacks.get(h)
        if here is None:
            stacks[h] = [u]
        else:
            here.append(u)
        if u["side"] == side:
            mine = own.get(h)
            if mine is None:
                own[h] = [(i, u)]
            else:
                mine.append((i, u))
        elif not u.get("defended"):
            open_targets.add(h)
    found = []
    neighbours = _neighbour_sets(board)
    memo = _target_memo(state)
    fixed = (state["phase"], state["turn"], bool(state["options"]["sixth_ss"]), side)
    held = set(own)  # (the hexes the side holds)
    for target in sorted(open_targets):
        if neighbours[target].isdisjoint(held):
            continue  # (most targets: no unit of the side beside them; a C-level test)
        if siege and md.kind(board, target) == md.OPERATIONAL:
            continue
        placed = [p for h in neighbours[target] for p in own.get(h, ())]
        placed.sort(key=_place)
        beside = [u for _, u in placed]
        there = stacks.get(target, [])
        key = (*fixed, target, _contents(there), _contents(beside))
        try:
            answer = memo[key]
        except KeyError:
            answer = memo[key] = _attack_on(state, side, target, there, beside)
        if answer is not None:
            found.append(answer)
    return found


def _attack_on(
    state: State,
    side: str,
    target: str,
    there: list[dict[str, Any]],
    beside: list[dict[str, Any]],
) -> tuple[Attack, Any] | None:
    """The attack on `target` by those of `beside` (the side's units next to it, in the
    units' order) that may make it, with its odds; None if none may. It reads of the state
    only its phase, turn, 6th SS option and static parts, and of the units only `there`
    (the units in the target hex) and `beside`: what `_target_memo`'s keys hold."""
    board, data = state["board"], state["counters"]
    if state["phase"] == "siege-combat":  # (3.1: a filter of its own, made first)
        beside = [u for u in beside if md.kind(board, u["hex"]) != md.OPERATIONAL]
    near = [u for u in beside if not fighting.declaration_problems(state, there, [u], target)]
    nations = {data["units"].get(u["id"], {}).get("nationality") for u in near}
    if "american" in nations and len(nations) > 1:
        near = [u for u in near if data["units"].get(u["id"], {}).get("nationality") != "american"]
    if not near:
        return None
    hexes = tuple(sorted({_short(u["hex"]) for u in near}))
    decision = Attack(_short(target), hexes, tuple(sorted(u["id"] for u in near)))
    try:
        odds = cb.combat_odds(
            board,
            state["tables"],
            data,
            [_guessed(fighting.fighting_unit(u, u["side"] != side)) for u in there],
            near,
            target,
            turn=state["turn"],
            crt="soviet" if side == "soviet" else arrivals.crt_for_attack(data, near),
        )
    except IllegalOrderError:
        return None
    return decision, odds


def _contents(units: list[dict[str, Any]]) -> tuple[Any, ...]:
    """The units' fields and their values' types (True and 1 are equal keys otherwise), in
    order: equal for units that every rule reads alike."""
    return tuple((tuple(u.items()), tuple(map(type, u.values()))) for u in units)


# `_attack_on`'s answers by what it reads (the phase, turn, 6th SS option, side, target and
# the contents of the units there and beside): a later call in the phase finds most targets
# as they were. Kept for one set of static parts (map, tables, counters: never changed, and
# held here, so their ids name no other objects), and at most _TARGETS_KEPT answers.
_TARGETS: dict[str, Any] = {"static": None, "answers": {}}
_TARGETS_KEPT = 4096


def _target_memo(state: State) -> dict[tuple[Any, ...], Any]:
    static = (state["board"], state["tables"], state["counters"])
    held = _TARGETS["static"]
    answers: dict[tuple[Any, ...], Any] = _TARGETS["answers"]
    if (
        held is None
        or any(a is not b for a, b in zip(held, static, strict=True))
        or len(answers) >= _TARGETS_KEPT
    ):
        answers = {}
        _TARGETS.update(static=static, answers=answers)
    return answers


def _place(placed: tuple[int, dict[str, Any]]) -> int:
    return placed[0]


def _guessed(unit: dict[str, Any]) -> dict[str, Any]:
    """For the bot's odds only: a face-down Volkssturm unit taken as 1-1 (8.44: nobody
    knows its strength until it is turned over in the combat)."""
    if unit.get("volkssturm") and "attack" not in unit:
        return {**unit, "attack": 1, "defence": 1}
    return unit


def attacks(state: State, role: str) -> list[Any]:
    return [Done(), *(a for a, _ in _attacks(state))]


def sample_attack(state: State, role: str, rng: random.Random) -> Any:
    if _at_least(state, "attacked", ATTACKS_PER_PHASE * 2):
        return Done()
    good = [a for a, odds in _attacks(state) if _ratio(odds.odds.column) >= 1.0]
    if not good or rng.random() < 0.15:
        return Done()
    return rng.choice(good)


def _ratio(column: str) -> float:
    a, d = column.split(":")
    return int(a) / int(d)


# --- results ---------------------------------------------------------------------------------


def losses(state: State, role: str) -> list[Any]:
    combat = state["combat"]
    side = combat["losing"]
    ids = combat["attackers"] if side == combat["attacker"] else combat["defenders"]
    alive = [uid for uid in ids if uid in state["units"]]
    owed = combat["owed"][side]
    out = []
    for uid in alive:
        if state["units"][uid]["steps"] >= owed:
            out.append(Lose(tuple([uid] * owed)))
    if len(alive) >= owed:
        out.append(Lose(tuple(alive[:owed])))
    return out or [Lose(tuple(alive[:owed]))]


def sample_loss(state: State, role: str, rng: random.Random) -> Any:
    combat = state["combat"]
    side = combat["losing"]
    ids = combat["attackers"] if side == combat["attacker"] else combat["defenders"]
    left = {uid: state["units"][uid]["steps"] for uid in ids if uid in state["units"]}
    chosen = []
    for _ in range(combat["owed"][side]):
        pick = rng.choice(sorted(uid for uid, n in left.items() if n > 0))
        left[pick] -= 1
        chosen.append(pick)
    return Lose(tuple(chosen))


def retreats(state: State, role: str) -> list[Any]:
    combat = state["combat"]
    uid = combat["retreat"]["left"][0]
    unit = state["units"][uid]
    return [
        Retreat(uid, tuple(_short(h) for h in path))
        for path in fighting.retreat_options(state, unit, combat)
    ]


def sample_retreat(state: State, role: str, rng: random.Random) -> Any:
    return rng.choice(retreats(state, role))


def advances(state: State, role: str) -> list[Any]:
    info = state["combat"]["advance"]
    return [Done(), *(Advance(uid, (_short(h),)) for uid in info["units"] for h in info["vacated"])]


def sample_advance(state: State, role: str, rng: random.Random) -> Any:
    listed = advances(state, role)
    rng.shuffle(listed)
    for decision in listed:
        if isinstance(decision, Done):
            if rng.random() < 0.3:
                return decision
            continue
        unit = state["units"][decision.unit]
        path = [gs.hex_of(state, decision.path[0], unit["hex"])]
        if not zoc.may_enter(state["board"], state["counters"], gs.on_map(state), unit, path[0]):
            continue
        if not fighting.advance_problems(state, unit, path, None):
            return decision
    return Done()


# --- removals (4.18) and the German reinforcement step ----------------------------------------


def _removal_options(state: State, h: str) -> list[tuple[str, ...]]:
    board, data = state["board"], state["counters"]
    stack = gs.units_at(state, h)
    ids = [u["id"] for u in stack]
    for size in range(1, len(ids) + 1):
        found = [
            chosen
            for chosen in itertools.combinations(ids, size)
            if zoc.removal_problem(board, data, stack, chosen) is None
        ]
        if found:
            return found
    return []


def removals(state: State, role: str) -> list[Any]:
    """4.18: the smallest removals that make every broken hex legal (a few of them)."""
    broken = sorted(phases.overstacks(state))
    if not broken:
        return []
    owner = gs.units_at(state, broken[0])[0]["side"]  # one side's hexes at a time
    per_hex = [
        _removal_options(state, h) for h in broken if gs.units_at(state, h)[0]["side"] == owner
    ]
    if not per_hex or not all(per_hex):
        return []
    firsts = tuple(uid for options in per_hex for uid in options[0])
    out = [Remove(firsts)]
    for i, options in enumerate(per_hex):
        for option in options[1:4]:
            chosen = [
                uid for j, opts in enumerate(per_hex) for uid in (option if j == i else opts[0])
            ]
            out.append(Remove(tuple(chosen)))
    return out


def reinforcements(state: State, role: str) -> list[Any]:
    out: list[Any] = [Done()]
    count = state["phase_data"].get("volkssturm", 0)
    if count:
        hexes = _volkssturm_hexes(state, count, random.Random(state["turn"]))
        if hexes:
            out.insert(0, Volkssturm(tuple(hexes)))
    return out


def _volkssturm_hexes(state: State, want: int, rng: random.Random) -> list[str]:
    """Up to `want` legal Volkssturm hexes (8.43), tried in a random order: each test traces
    a supply line, so the bot stops as soon as it has enough."""
    board, data = state["board"], state["counters"]
    units = gs.on_map(state)
    candidates = list(_city_hexes(board))
    shuffle(rng, candidates)
    good: list[str] = []
    for h in candidates:
        if len(good) == want:
            break
        if not arrivals.volkssturm_hex_problems(board, data, units, h):
            good.append(h)
    return good


def sample_reinforcement(state: State, role: str, rng: random.Random) -> Any:
    count = state["phase_data"].get("volkssturm", 0)
    if count:
        hexes = _volkssturm_hexes(state, count, rng)
        if hexes:
            return Volkssturm(tuple(hexes))
    return Done()
