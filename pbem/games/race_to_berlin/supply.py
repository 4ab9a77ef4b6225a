"""Supply (rulebook 4.4): supply lines, isolation, annexation and its delays.

A supply line is a chain of adjacent areas of one force from one of its supply bases:
the western or southern edge for the West, the eastern edge for the Soviets, any German
eagle area or B1 for the Germans. An area cut off is annexed at once by the force that
cut it off: its units and fortifications are eliminated and its blocks leave the board.

Delays: an active block of the area's own force keeps it until no active block remains
there, or until the end of the action phase. When every Western and Soviet block is
exhausted while German blocks are still active, cut-off German areas wait until the last
German block is exhausted; then the surrounding force takes them, or the player who
started the turn where both surround them (rulebook 4.2.1.2, last paragraphs).
Front line markers: a player who should annex German areas without enough markers
loses 3 action cubes and the other player annexes them; if neither can, the areas stay
German, emptied of German pieces (recorded as `stranded`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any

from pbem.core.engine import Context
from pbem.games.race_to_berlin.blocks import take_off
from pbem.games.race_to_berlin.board import remove_fortification, set_control, short_of_markers
from pbem.games.race_to_berlin.state import (
    ALLIED,
    GERMAN,
    NAMES,
    State,
    area_name,
    blocks_in,
    force_units_in,
    graph,
    is_active,
    other,
    own_part,
)
from pbem.games.race_to_berlin.units import eliminate
from pbem.games.race_to_berlin.victory import lose_cubes

R_SUPPLY = "4.4"


def sources(state: State, control_: str) -> set[str]:
    """The supply sources `control_` holds: its edge areas, or the German eagles and B1."""
    areas = state["areas"]
    return {a for a in state["map"]["sources"][control_] if areas[a]["control"] == control_}


def _trace(
    state: State, control_: str, held: frozenset[str]
) -> tuple[frozenset[str], tuple[str, ...]]:
    """(the areas of `control_` with a supply line, those without, in map order); `held`:
    the areas `control_` controls (what `sources` and the areas' control say, read once)."""
    reached = frontier = frozenset(a for a in state["map"]["sources"][control_] if a in held)
    neighbours = _neighbour_sets(state)
    while frontier:  # breadth first, a ring of areas at a time, in set operations
        ring: set[str] = set()
        for area in frontier:
            ring |= neighbours[area]
        frontier = frozenset((ring & held) - reached)
        reached = reached | frontier
    left = held - reached  # (most often none: no area is cut off)
    cut = tuple(a for a in state["map"]["area_ids"] if a in left) if left else ()
    return reached, cut


def _neighbour_sets(state: State) -> dict[str, frozenset[str]]:
    """Area -> its neighbours (the area graph's), as sets; made once per map (`_MEMO`)."""
    found: dict[str, frozenset[str]] | None = _MEMO.get("neighbours")
    if found is None:
        board = graph(state)
        found = _MEMO["neighbours"] = {
            a: frozenset(board.neighbours(a)) for a in state["map"]["area_ids"]
        }
    return found


# Supply depends only on who controls which area (the map never changes), and every
# action asks for it again: each control configuration is traced once and kept, for the
# map of the game at hand (a new map starts afresh, its neighbour sets too), up to
# MEMO_LIMIT configurations. A configuration not seen yet most often differs from the last
# one by an area or two changing hands: the trace of a control whose areas are the same
# (`_trace` reads nothing else but the map) is kept too, by its areas, and not made again.
MEMO_LIMIT = 4096
_MEMO: dict[str, Any] = {"map": None, "lines": {}, "traces": {}}


_CONTROL = itemgetter("control")


def _records_getter(area_ids: list[str]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """areas -> their records in `area_ids` order, as a tuple (itemgetter of one key would
    give the record alone)."""
    if len(area_ids) == 1:
        (only,) = area_ids
        return lambda areas: (areas[only],)
    return itemgetter(*area_ids)


def _lines(state: State) -> dict[str, tuple[frozenset[str], tuple[str, ...]]]:
    static = state["map"]
    if _MEMO["map"] is not static:
        _MEMO.clear()
        _MEMO["map"], _MEMO["lines"], _MEMO["traces"] = static, {}, {}
        # the area records in map order, in one call (`key` below: its loops run in C)
        _MEMO["records"] = _records_getter(static["area_ids"])
    memo: dict[tuple[str, ...], Any] = _MEMO["lines"]
    key = tuple(map(_CONTROL, _MEMO["records"](state["areas"])))
    lines = memo.get(key)
    if lines is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        traces: dict[tuple[str, frozenset[str]], Any] = _MEMO["traces"]
        if len(traces) >= MEMO_LIMIT:
            traces.clear()
        held: dict[str, set[str]] = {}
        for area, control_ in zip(static["area_ids"], key, strict=True):
            held.setdefault(control_, set()).add(area)
        lines = {}
        for c in (*ALLIED, GERMAN):
            areas = frozenset(held.get(c, ()))
            traced = traces.get((c, areas))
            if traced is None:
                traced = traces[(c, areas)] = _trace(state, c, areas)
            lines[c] = traced
        memo[key] = lines
    return lines


def supplied(state: State, control_: str) -> frozenset[str]:
    """Areas of `control_` with a supply line."""
    return _lines(state)[control_][0]


def unsupplied(state: State, control_: str) -> list[str]:
    """Areas of `control_` cut off from supply, in map order."""
    return list(_lines(state)[control_][1])


def distances_to_supply(state: State, control_: str) -> Mapping[str, int]:
    """Steps from every area to the nearest supplied area of `control_` (any path)."""
    return graph(state).distances(supplied(state, control_))


def has_active_block(state: State, area: str, control_: str) -> bool:
    return any(is_active(b) and b["force"] == control_ for b in blocks_in(state, area))


def germans_hold_on(state: State) -> bool:
    """Every Western and Soviet block exhausted while German blocks are still active."""
    # (one pass, no call per block: asked after every action)
    german = False
    for b in state["blocks"]:
        if b["area"] is not None and not b["exhausted"]:  # `is_active`
            if b["force"] == GERMAN:
                german = True
            elif b["force"] in ALLIED:
                return False
    return german


# --- annexation -------------------------------------------------------------------------------


def settle(state: State, ctx: Context, cutter: str | None = None, final: bool = False) -> None:
    """Annex every cut-off area that may be annexed now (all of them when `final`)."""
    for _ in range(len(state["map"]["area_ids"])):
        if state["result"] is not None:
            return
        # The supply lines of this configuration, read once: each side below reads them
        # again only after an annexation changed who controls what (most often none does).
        lines = _lines(state)
        if _settle_allied(state, ctx, final, lines):
            continue
        if not _settle_german(state, ctx, cutter, final, lines):
            return


Lines = dict[str, tuple[frozenset[str], tuple[str, ...]]]


def _settle_allied(state: State, ctx: Context, final: bool, lines: Lines) -> bool:
    """`lines`: the supply lines of the state as given (traced again after a change)."""
    changed = False
    for force in ALLIED:
        for area in (_lines(state) if changed else lines)[force][1]:
            if not final and has_active_block(state, area, force):
                continue
            _clear(state, area, force, ctx, "cut off from supply, annexed by the Germans")
            set_control(state, area, GERMAN, ctx, f"cut off from supply (rulebook {R_SUPPLY})")
            changed = True
    return changed


def _settle_german(
    state: State, ctx: Context, cutter: str | None, final: bool, lines: Lines
) -> bool:
    """`lines`: the supply lines of the state as it is (nothing changed since)."""
    if not final and germans_hold_on(state):
        return False
    cut = list(lines[GERMAN][1])
    # stranded areas linked to supply again are ordinary German areas once more
    state["stranded"] = [a for a in state["stranded"] if a in cut]
    cut = [a for a in cut if a not in state["stranded"]]
    ready = [a for a in cut if final or not has_active_block(state, a, GERMAN)]
    if not ready:
        return False
    for group in _groups(state, ready):
        _annex_german(state, group, ctx, cutter)
        if state["result"] is not None:
            return True
    return True


def _groups(state: State, areas: list[str]) -> list[list[str]]:
    """Connected groups of `areas`, in map order."""
    return graph(state).components(areas)


def surrounding(state: State, group: list[str]) -> list[str]:
    """The Allied forces with an area next to `group`."""
    areas = state["areas"]
    found = {areas[n]["control"] for n in graph(state).touching(group)}
    return [f for f in ALLIED if f in found]


def _annex_german(state: State, group: list[str], ctx: Context, cutter: str | None) -> None:
    around = surrounding(state, group)
    names = ", ".join(group)
    if len(around) == 2:
        first = cutter if cutter in around else state["first"]
        order = [first, other(first)]
    else:
        order = list(around)
    taker = None
    for candidate in order:
        changes = {a: candidate for a in group}
        if candidate in short_of_markers(state, changes):
            ctx.event(
                f"{NAMES[candidate]} lacks the front line markers to annex cut-off German "
                f"area(s) {names}",
                role=candidate,
                areas=list(group),
            )
            if not lose_cubes(state, candidate, 3, ctx, "not enough front line markers to annex"):
                return
            continue
        taker = candidate
        break
    for area in group:
        _clear(state, area, GERMAN, ctx, "cut off from supply (rulebook 4.4)")
    if taker is None:
        stranded = own_part(state, "stranded")
        stranded.extend(a for a in group if a not in stranded)
        ctx.event(
            f"cut-off German area(s) {names} stay German, emptied of German pieces "
            f"(rulebook 4.2.1.2: neither player has the markers to annex them)",
            areas=list(group),
        )
        return
    for area in group:
        set_control(state, area, taker, ctx, f"cut off from supply (rulebook {R_SUPPLY})")


def _clear(state: State, area: str, control_: str, ctx: Context, why: str) -> None:
    """Eliminate `control_`'s units and fortification in `area`, take its blocks off."""
    for unit in force_units_in(state, area, control_):
        eliminate(state, unit, ctx, why)
    for block in blocks_in(state, area):
        take_off(state, block, ctx, why)
    remove_fortification(state, area, ctx, area_name(state, area), why)
