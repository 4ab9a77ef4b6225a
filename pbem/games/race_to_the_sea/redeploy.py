"""The Fog of War step (7.7.4): hiding again (A), False Report redeployment and the
overstack cure (B), in one entry of each side, in the Strategic Momentum side's order.

docs/race-to-the-sea.md, "The end-turn Fog of War step (7.7.4)", is the design. The entry
`hide [up C...] [put NATIONALITY HEX ...] [shift C FROM TO ...]`:

1. `up`: the False Reports picked up open their identities in this entry (only False
   Reports may be picked up: a real unit opened there refuses the entry); their markers,
   if any, go back to the cup (they leave the map, 3.1.3.D);
2. `put`: a False Report of that nationality from the pool (the owner's client picks which)
   goes to a friendly-controlled hex;
3. `shift`: a unit of an overstacked hex moves one hex, not closer to an enemy counter
   (a free move, no Activated marker); the public cannot see the overstack, so the move
   claims it (checked when the counters open);
4. the counters re-labelled: with any of 1-3, every own hidden counter (and every unit
   flipped back by A), each hex's counters under fresh labels in the order nationality then
   unit id, each with a fresh stack piece (`hits.rehide_stacks`, the stacks follow the
   units); without them, only the hexes where a unit flips back (7.7.4.A, as before).
   So the opponent knows only how many counters each hex holds, as at the table.

Afterwards every own hex whose units could have moved claims at most 6 SZ (7.1.C: the
overstack is cured at this step), and each re-labelled hex claims its identities are the
old ones less the False Reports picked up plus those put there; both are checked when
everything opens (7.7.6.C, `check_at_end`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import repeat
from operator import add, sub
from typing import Any

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import hits
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import Hide
from pbem.games.race_to_the_sea.shared_pieces import own
from pbem.games.race_to_the_sea.state import (
    add_counter,
    control_of,
    flooded,
    hex_text,
    identity,
    illegal,
    leaving,
    opening,
    piece_label,
    positions,
    take_control,
    unit,
    writable_counter,
)
from pbem.games.race_to_the_sea.what_next import NEXT_FOG
from pbem.kit import pieces
from pbem.kit.pieces import known_value
from pbem.kit.steps import NO_OPENINGS, Next, Openings

RULE = "7.7.4.B"
MAX_SZ = 4  # 3.2.1: a reinforced corps
NATIONALITIES = {"allies": ("belgian", "british", "french"), "germans": ("german",)}


def redeploying(d: Hide) -> bool:
    return bool(d.up or d.put or d.shift)


# --- what the entry does to the map ---------------------------------------------------------------


def rehide_targets(state: State, side: str) -> list[str]:
    """7.7.4.A: face-up non-cavalry units not adjacent to an enemy unit. A counter whose
    identity opens in the owner's next entry counts as face up, and a False Report that
    opening removes counts as gone, so that the owner's client (before the opening) and
    the rules (after it) agree on the fresh labels."""
    return _targets(state, side, _own_counters(state, side))


def _targets(state: State, side: str, own_counters: OwnCounters) -> list[str]:
    """`rehide_targets`, of `_own_counters(state, side)`."""
    around = rm.adjacency(state["board"]).neighbours
    enemy = _enemy_hexes(state, side)  # (`adjacent_to_enemy` of each, the enemy found once)
    return [
        label
        for label, c, opens, goes in own_counters
        if (c["unit"] is not None or opens) and not goes and enemy.isdisjoint(around(c["hex"]))
    ]


# (label, counter, `opening` of it, `leaving` of it) of each non-cavalry counter of a side
OwnCounters = list[tuple[str, Any, bool, bool]]


def _own_counters(state: State, side: str) -> OwnCounters:
    """`side`'s non-cavalry counters in label order, each with `opening` and `leaving` of
    it worked out in line from its identity piece (a fog of war step asks them of some
    twenty counters three times: `plan` for the entry's commitments and for the handler)."""
    pieces_ = state["pieces"]
    out = []
    for label, c in sorted(state["counters"].items()):
        if c["side"] != side or c["cavalry"]:
            continue
        piece = pieces_.get(f"unit/{label}")  # (`piece_label`)
        opens = piece is not None and bool(piece["due"]) and not piece["revealed"]
        goes = False
        if opens:  # `leaving`: a False Report, as this state knows it
            known = identity(state, label)
            goes = known is not None and unit(state, known)["kind"] == "false-report"
        out.append((label, c, opens, goes))
    return out


def plan(state: State, side: str, d: Hide) -> list[dict[str, Any]]:
    """The hexes re-labelled by `d`: {hex, old: labels (nationality, label order), puts:
    nationalities}, by hex. The same before the entry's openings (the owner's client, the
    adjudicator's allowed commitments) and after them (the handler): a counter picked up or
    a False Report leaving is left out, a counter opening counts as face up."""
    own_counters = _own_counters(state, side)
    targets = set(_targets(state, side, own_counters))
    moved = {s[0]: s[2] for s in d.shift}
    where: dict[int, list[str]] = {}
    for label, c, opens, goes in own_counters:
        if label in d.up or goes:
            continue
        hidden = c["unit"] is None and not opens
        if label in targets or hidden:
            where.setdefault(moved.get(label, c["hex"]), []).append(label)
    puts: dict[int, list[str]] = {}
    for nationality, hex_ in d.put:
        puts.setdefault(hex_, []).append(nationality)
    if redeploying(d):
        hexes = sorted({*where, *puts})
    else:
        hexes = sorted({state["counters"][k]["hex"] for k in targets})
    return [
        {
            "hex": h,
            "old": sorted(where.get(h, []), key=lambda k: (state["counters"][k]["nationality"], k)),
            "puts": sorted(puts.get(h, [])),
        }
        for h in hexes
    ]


def _nationalities(state: State, group: dict[str, Any]) -> list[str]:
    """The nationality of each new label of the group, in label order."""
    found = [state["counters"][k]["nationality"] for k in group["old"]] + list(group["puts"])
    return sorted(found)


def fresh_count(state: State, side: str, d: Hide) -> int:
    return sum(len(g["old"]) + len(g["puts"]) for g in plan(state, side, d))


def commits(state: State, side: str, d: Any) -> list[str]:
    """The fresh identity labels and their stack pieces (hits.rehide_label)."""
    if not isinstance(d, Hide):
        return []
    news = [f"c{state['next_label'] + i:02d}" for i in range(fresh_count(state, side, d))]
    return [*(piece_label(k) for k in news), *(hits.rehide_label(k) for k in news)]


def opens(state: State, side: str, d: Any) -> Openings:
    """1: the counters picked up open their identities in this entry."""
    if not isinstance(d, Hide) or not d.up:
        return NO_OPENINGS
    for label in d.up:
        c = state["counters"].get(label)
        if c is None or c["side"] != side or c["cavalry"] or c["unit"] is not None:
            raise illegal(f"{label} is no hidden counter of {side}: only those are picked up", RULE)
    if len(set(d.up)) != len(d.up):
        raise illegal("a counter is picked up once", RULE)
    return Openings(tuple(piece_label(k) for k in d.up), rule=RULE)


# --- the pool (3.1.3, 7.7.4.B) --------------------------------------------------------------------


def arrived(state: State, side: str) -> list[str]:
    """The False Reports of `side` in play by now (public: the set-up and reinforcement
    tables): those that went with the first units, those of an entry turn passed, the
    Belgian one once the Belgian Army entered."""
    out = []
    for unit_id in state["units_data"]["sides"][side]:
        data = unit(state, unit_id)
        if data["kind"] != "false-report":
            continue
        entry = data["entry"]
        turn = entry["turn"]
        if entry["after"] is not None:
            came = state.get("belgians")
            turn = None if came is None else int(came)
        if turn is not None and turn <= state["turn"]:
            out.append(unit_id)
    return sorted(out)


def pool(state: State, side: str, d: Hide | None = None) -> list[str]:
    """The False Reports the owner may put (as its own state knows): arrived, not on the
    map, or picked up now or leaving it."""
    on_map = {
        identity(state, k)
        for k, c in state["counters"].items()
        if c["side"] == side and not leaving(state, k) and (d is None or k not in d.up)
    }
    return [u for u in arrived(state, side) if u not in on_map]


# --- the owner's client ---------------------------------------------------------------------------


def values(state: State, side: str, d: Hide) -> dict[str, Any]:
    """The commitments of the entry: per hex, the units and the False Reports put there,
    by nationality then unit id, onto the fresh labels, each with its stack (a False
    Report put starts fresh: its markers went back to the cup when it was picked up)."""
    free = pool(state, side, d)
    out: dict[str, Any] = {}
    i = state["next_label"]
    for group in plan(state, side, d):
        members = []
        for k in group["old"]:
            unit_id = identity(state, k)
            if unit_id is None:
                raise illegal(f"{k}'s identity is not known to this client", RULE)
            members.append((unit_id, hits.stack_of(state, k) or []))
        for nationality in group["puts"]:
            choice = next((u for u in free if unit(state, u)["nationality"] == nationality), None)
            if choice is None:
                raise illegal(f"no {nationality} False Report is left in the pool", RULE)
            free.remove(choice)
            members.append((choice, []))
        members.sort(key=lambda m: (unit(state, m[0])["nationality"], m[0]))
        for unit_id, stack in members:
            out[piece_label(f"c{i:02d}")] = unit_id
            out[hits.rehide_label(f"c{i:02d}")] = stack
            i += 1
    return out


# --- the handler ---------------------------------------------------------------------------------


def _enemy_hexes(state: State, side: str) -> frozenset[int]:
    """The hexes holding a counter of `side`'s enemy."""
    return frozenset(c["hex"] for c in state["counters"].values() if c["side"] != side)


def _enemy_distance(state: State, side: str, hex_: int) -> int | None:
    """The distance from `hex_` to the closest enemy counter (None: no enemy counter)."""
    return _distance_to(state["board"], _enemy_hexes(state, side), hex_)


def _distance_to(board: Any, enemy: frozenset[int], hex_: int) -> int | None:
    """`_enemy_distance`, of the enemy counters' hexes `enemy`."""
    key = (id(board), enemy, hex_)
    found = _DISTANCES.get(key)
    if found is None or found[0] is not board:
        if len(_DISTANCES) >= 4096:
            _DISTANCES.clear()
        found = _DISTANCES[key] = (board, _closest(board, enemy, hex_))
    return found[1]


def _closest(board: Any, enemy: frozenset[int], hex_: int) -> int | None:
    """`min(g.distance(hex_, h) for h in enemy)`, with each hex's axial coordinates read
    from a table of the map instead of worked out from its id for each pair, and the
    distances found in C (map over the enemy's coordinates: a fog of war step asks a dozen
    hexes of some twenty enemy hexes each)."""
    if not enemy:
        return None
    where = _axial(board)
    qa, ra = where.get(hex_) or rm.grid(board).axial(hex_)
    qs, rs, ss = _coordinates(board, enemy)
    # Grid.distance, (|dq| + |dr| + |dq + dr|) // 2 (dq + dr the difference of the hexes'
    # q + r); halving the least sum is the least of the halves.
    return (
        min(
            map(
                add,
                map(add, map(abs, map(sub, qs, repeat(qa))), map(abs, map(sub, rs, repeat(ra)))),
                map(abs, map(sub, ss, repeat(qa + ra))),
            )
        )
        // 2
    )


def _coordinates(
    board: Any, enemy: frozenset[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The axial coordinates q and r of the hexes `enemy`, and their sums q + r, each a
    tuple in one order, by map (by identity) and hexes (a fog of war step asks `_closest`
    of one enemy for a dozen hexes)."""
    key = (id(board), enemy)
    found = _COORDINATES.get(key)
    if found is None or found[0] is not board:
        if len(_COORDINATES) >= 64:
            _COORDINATES.clear()
        where = _axial(board)
        coordinates = [where.get(h) or rm.grid(board).axial(h) for h in enemy]
        qs = tuple(q for q, _r in coordinates)
        rs = tuple(r for _q, r in coordinates)
        found = _COORDINATES[key] = (board, (qs, rs, tuple(map(add, qs, rs))))
    return found[1]


_COORDINATES: dict[
    tuple[int, frozenset[int]],
    tuple[Any, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]],
] = {}


def _axial(board: Any) -> Mapping[int, tuple[int, int]]:
    """Each hex's axial coordinates (`Grid.axial`), by map (map_data.axial_table)."""
    return rm.axial_table(board)


# _enemy_distance by map (by identity: never changed once loaded), the enemy counters' hexes
# and the hex: a fog of war step asks it for every shift it checks, of an unchanged enemy.
_DISTANCES: dict[tuple[int, frozenset[int], int], tuple[Any, int | None]] = {}


def shift_problem(
    state: State,
    side: str,
    label: str,
    start: int,
    to: int,
    enemy: frozenset[int] | None = None,
) -> str | None:
    """Why `label` may not make the 7.7.4.B move from `start` to `to` (None: it may);
    `enemy`, if given, is `_enemy_hexes(state, side)`, derived once by a caller that asks
    for many moves of one position."""
    c = state["counters"].get(label)
    if c is None or c["side"] != side:
        return f"{label} is no counter of {side}"
    if c["hex"] != start:
        return f"{label} is in hex {hex_text(c['hex'])}"
    board = state["board"]
    if not rm.adjacency(board).adjacent(start, to):
        return f"hex {hex_text(to)} is not adjacent to hex {hex_text(start)}"
    if rm.move_cost(board, start, to, flooded(state)) is None:
        return f"no unit may enter hex {hex_text(to)}"
    enemy = _enemy_hexes(state, side) if enemy is None else enemy
    if to in enemy:
        return f"hex {hex_text(to)} holds an enemy counter"
    before, after = _distance_to(board, enemy, start), _distance_to(board, enemy, to)
    if before is not None and after is not None and after < before:
        return f"hex {hex_text(to)} is closer to an enemy counter than hex {hex_text(start)}"
    return None


def can_shift(state: State, side: str, hex_: int) -> bool:
    """Whether a unit of `hex_` has a legal 7.7.4.B move (public)."""
    label = next(
        (k for k, c in sorted(state["counters"].items()) if c["side"] == side and c["hex"] == hex_),
        None,
    )
    if label is None:
        return False
    near = rm.adjacency(state["board"]).neighbours(hex_)
    return any(shift_problem(state, side, label, hex_, h) is None for h in near)


def _hex_units(
    state: State, side: str, hex_: int, by_hex: ByHex | None = None
) -> tuple[list[str], list[int]]:
    """(own hidden counters of the hex, the printed SZ of its own public units); `by_hex`,
    if given, is `_by_hex(state, side)`, derived once by a caller that asks many hexes."""
    hidden, known = [], []
    here = by_hex.get(hex_, []) if by_hex is not None else _by_hex(state, side).get(hex_, [])
    for k, c in here:
        if c["unit"] is None:
            hidden.append(k)
        else:
            known.append(int(unit(state, str(c["unit"]))["sz"]))
    return hidden, known


ByHex = dict[int, list[tuple[str, dict[str, Any]]]]


def _by_hex(state: State, side: str) -> ByHex:
    """`side`'s counters by hex, each hex's in label order."""
    out: ByHex = {}
    for k, c in sorted(state["counters"].items()):
        if c["side"] == side:
            out.setdefault(c["hex"], []).append((k, c))
    return out


def _hex_sizes(state: State, side: str, hex_: int) -> tuple[list[str], int]:
    hidden, known = _hex_units(state, side, hex_)
    return hidden, sum(known)


def hide(state: State, role: str, d: Hide, ctx: Context) -> Next:
    """7.7.4: the kit opened the counters picked up (on_opened took the False Reports off
    the map); then the False Reports are put, the overstacked units move and the counters
    take fresh labels."""
    for label in d.up:
        if label in state["counters"]:
            raise illegal(
                f"{label} is {state['counters'][label]['unit']}, not a False Report: only "
                "False Reports are picked up",
                RULE,
            )
        state["stacks"].pop(label, None)  # its markers back to the cup
    for nationality, hex_ in d.put:
        if nationality not in NATIONALITIES[role]:
            raise illegal(f"{role} have no {nationality} False Reports", RULE)
        if control_of(state, hex_) != role:
            raise illegal(f"hex {hex_text(hex_)} is not {role}-controlled", RULE)
    plan_now = plan(state, role, d)  # before the moves: 7.7.4.A comes first
    seen: set[str] = set()
    for label, start, to in d.shift:
        if label in seen:
            raise illegal(f"{label} moves once", RULE)
        seen.add(label)
        problem = shift_problem(state, role, label, start, to)
        if problem is not None:
            raise illegal(problem, RULE)
        hidden, known = _hex_sizes(state, role, start)
        if not hidden and known <= mv.STACK_LIMIT:
            raise illegal(f"hex {hex_text(start)} is not overstacked", RULE)
        if hidden:
            holder = own(state["pieces"], piece_label(hidden[0]))
            pieces.claim(
                holder, ctx, role, rule=RULE, over=hidden, known=known, limit=mv.STACK_LIMIT,
                text=f"hex {hex_text(start)} was overstacked when {label} moved out",
            )  # fmt: skip
        writable_counter(state, label)["hex"] = to
        take_control(state, label, to)
        ctx.event(f"7.7.4.B: {label} moves from {hex_text(start)} to {hex_text(to)}")
    for group in plan_now:
        _relabel(state, role, group, ctx)
    _stacking_claims(state, role, ctx)
    if redeploying(d):
        ctx.event(f"7.7.4.B: {len(d.up)} False Report(s) picked up, {len(d.put)} put on the map")
    state["fog"] = state["fog"][1:]  # (shared by copies: replaced)
    return NEXT_FOG


def _relabel(state: State, role: str, group: dict[str, Any], ctx: Context) -> None:
    hex_ = group["hex"]
    old = list(group["old"])
    nationalities = _nationalities(state, group)
    old_stacks = [state["stacks"].pop(k) for k in old if k in state["stacks"]]
    was = {k: state["counters"].pop(k) for k in old}
    first = f"c{state['next_label']:02d}"
    into = [f"c{state['next_label'] + i:02d}" for i in range(len(nationalities))]
    for n, nationality in enumerate(nationalities):
        label = f"c{state['next_label']:02d}"
        piece = pieces.place(ctx, piece_label(label), role, RULE)
        same = [k for k in old if was[k]["nationality"] == nationality]
        known = [was[k]["unit"] for k in same]
        facts: dict[str, Any] = {"rule": "7.7.4", "was": same}
        if group["puts"]:
            pool_now = [
                u for u in arrived(state, role) if unit(state, u)["nationality"] == nationality
            ]
            if all(u is not None for u in known):
                facts["candidates"] = sorted({*known, *pool_now})
        elif all(u is not None for u in known):
            facts["candidates"] = sorted(known)
        if n == 0:
            facts.update(made="redeploy", source=old, into=into, puts=len(group["puts"]))
        pieces.claim(piece, ctx, role, **facts)
        state["pieces"][piece["label"]] = piece
        add_counter(state, role, nationality, hex_, None, False)
    if into:
        hits.rehide_stacks(state, role, first, len(into), old_stacks, ctx)
        take_control(state, into[0], hex_)
    ctx.event(f"7.7.4: {', '.join(old) or 'no counter'} in {hex_text(hex_)} take fresh labels")


def _stacking_claims(state: State, role: str, ctx: Context) -> None:
    """7.1.C, 7.7.4.B: after the step an own hex is not overstacked unless none of its
    units could have moved one hex without overstacking the hex it enters (the rulebook
    does not say what happens then: it stays). Decided now when every size is public,
    else claimed and checked when the counters open (`check_at_end`)."""
    g = rm.adjacency(state["board"])  # (`rm.grid`'s answers)
    # (nothing below moves a counter: the counters by hex and the enemy's hexes, once)
    by_hex, enemy = _by_hex(state, role), _enemy_hexes(state, role)
    for hex_ in sorted(by_hex):
        hidden, sizes = _hex_units(state, role, hex_, by_hex)
        if sum(sizes) + MAX_SZ * len(hidden) <= mv.STACK_LIMIT:
            continue  # it cannot be overstacked
        mover = by_hex[hex_][0][0]  # the first own counter of the hex, by label
        ways: list[dict[str, Any]] = []
        for to in g.neighbours(hex_):
            if shift_problem(state, role, mover, hex_, to, enemy) is None:
                there, known = _hex_units(state, role, to, by_hex)
                ways.append({"hex": to, "members": there, "known": sum(known)})
        if not ways:
            continue
        facts = {"here": hidden, "sizes": sizes, "ways": ways}
        holders = [*hidden, *(k for w in ways for k in w["members"])]
        text = f"hex {hex_text(hex_)} is not left overstacked (7.1.C)"
        if not holders:
            problem = cure_problem(state, facts, lambda k: None)
            if problem is not None:
                raise illegal(problem, RULE)
            continue
        holder = own(state["pieces"], piece_label(holders[0]))
        pieces.claim(holder, ctx, role, rule=RULE, cure=hex_, limit=mv.STACK_LIMIT, text=text,
                     **facts)  # fmt: skip


def cure_problem(state: State, made: Any, size_of: Any) -> str | None:
    """Why an overstack left by the step was curable (None: it was not overstacked, or no
    unit could move; or a size is still unknown)."""
    here = [size_of(k) for k in made["here"]]
    if any(s is None for s in here):
        return None
    sizes = [*here, *made["sizes"]]
    total = sum(sizes)
    if total <= mv.STACK_LIMIT:
        return None
    for way in made["ways"]:
        there = [size_of(k) for k in way["members"]]
        if any(s is None for s in there):
            continue
        room = mv.STACK_LIMIT - int(way["known"]) - sum(there)
        fits = [s for s in sizes if 0 < s <= room]
        if fits:
            return (
                f"a hex was left with {total} SZ, though a unit of {fits[0]} SZ could move "
                f"to hex {hex_text(int(way['hex']))}"
            )
    return None


# --- the end of the game ------------------------------------------------------------------------


def _opened(state: State, label: str) -> Any:
    piece = state["pieces"].get(label)
    return None if piece is None else known_value(piece)


def check_at_end(state: State, side: str) -> None:
    """When everything has opened (7.7.6.C): each re-labelled hex holds the units it held,
    less the False Reports picked up, plus False Reports put there; a hex a unit moved out
    of was overstacked. A false claim names its entry."""
    for piece in sorted(state["pieces"].values(), key=lambda p: p["label"]):
        if piece["owner"] != side:
            continue
        for made in piece["claims"]:
            if made.get("made") == "redeploy":
                _check_group(state, made)
            elif "cure" in made:
                problem = cure_problem(state, made, lambda k: _size(state, k))
                if problem is not None:
                    raise pieces.false_claim(int(made["seq"]), str(made["by"]), problem, RULE)
            elif "over" in made:
                values_ = [_opened(state, piece_label(k)) for k in made["over"]]
                if any(v is None for v in values_):
                    continue
                total = int(made["known"]) + sum(int(unit(state, str(v))["sz"]) for v in values_)
                if total <= int(made["limit"]):
                    raise pieces.false_claim(
                        int(made["seq"]), str(made["by"]), f"{made['text']} ({total} SZ)", RULE
                    )


def _size(state: State, label: str) -> int | None:
    value = _opened(state, piece_label(label))
    return None if value is None else int(unit(state, str(value))["sz"])


def _check_group(state: State, made: dict[str, Any]) -> None:
    old = [_opened(state, piece_label(k)) for k in made["source"]]
    new = [_opened(state, piece_label(k)) for k in made["into"]]
    if any(v is None for v in (*old, *new)):
        return
    added = Counter(str(v) for v in new)
    added.subtract(str(v) for v in old)
    wrong = any(n < 0 for n in added.values()) or sum(added.values()) != int(made["puts"])
    wrong = wrong or any(
        n > 0 and unit(state, u)["kind"] != "false-report" for u, n in added.items()
    )
    if wrong:
        raise pieces.false_claim(
            int(made["seq"]),
            str(made["by"]),
            "the re-labelled counters are not the units they came from and the False "
            "Reports put there",
            RULE,
        )


# --- choices (the bot) ---------------------------------------------------------------------------


def overstacked(state: State, side: str) -> list[int]:
    """Own hexes over 6 SZ as `side`'s own state knows them."""
    pos = positions(state)
    sizes: Counter[int] = Counter()
    for p in pos.values():
        if p["side"] == side and p["sz"] is not None:
            sizes[p["hex"]] += int(p["sz"])
    return sorted(h for h, sz in sizes.items() if sz > mv.STACK_LIMIT)


def _is_false_report(state: State, label: str) -> bool:
    unit_id = identity(state, label)
    return unit_id is not None and unit(state, unit_id)["kind"] == "false-report"


def sample(state: State, side: str, rng: Any) -> Hide:
    """A bot's fog entry: the overstack cured where it can be, now and then a False Report
    picked up and put elsewhere."""
    shifts = []
    pos = positions(state)
    for hex_ in overstacked(state, side):
        movers = sorted(
            (k for k, p in pos.items() if p["side"] == side and p["hex"] == hex_ and p["sz"]),
            key=lambda k: -int(pos[k]["sz"]),
        )
        total = sum(int(pos[k]["sz"]) for k in movers)
        for k in movers:
            if total <= mv.STACK_LIMIT:
                break
            for to in rm.adjacency(state["board"]).neighbours(hex_):
                if shift_problem(state, side, k, hex_, to) is not None:
                    continue
                there = sum(
                    int(p["sz"] or 0) for p in pos.values() if p["side"] == side and p["hex"] == to
                )
                if there + int(pos[k]["sz"]) <= mv.STACK_LIMIT:
                    shifts.append((k, hex_, to))
                    pos[k] = {**pos[k], "hex": to}
                    total -= int(pos[k]["sz"])
                    break
    up: list[str] = []
    put: list[tuple[str, int]] = []
    if rng.random() < 0.3:
        mine = [
            k
            for k, c in sorted(state["counters"].items())
            if c["side"] == side
            and c["unit"] is None
            and not opening(state, k)
            and _is_false_report(state, k)
            and k not in {s[0] for s in shifts}
        ]
        friendly = sorted(
            h
            for h in {c["hex"] for c in state["counters"].values() if c["side"] == side}
            if control_of(state, h) == side
        )
        if mine and friendly:
            k = rng.choice(mine)
            up.append(k)
            put.append((state["counters"][k]["nationality"], rng.choice(friendly)))
    return Hide(tuple(up), tuple(put), tuple(shifts))
