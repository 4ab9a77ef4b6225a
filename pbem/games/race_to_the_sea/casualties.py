"""Race to the Sea 1914: Casualties markers, modified ratings and casualty bookkeeping
(rulebook 3.2.7, 4.1.3, 4.2, 5, 9.6). Pure functions over plain JSON data.

`markers.toml` holds the marker mix (stand-ins but for the two sides the rulebook shows):
`load_markers` checks it and returns `{id: marker}`, each marker with its `light` and
`heavy` effects ({"sz": -1, "met": 0, "rf": 0, "mg": -1, "art": -1}) and provenance.

A unit's casualties are a *stack*: the markers under it in the order they were placed,
each `[marker id, "light" | "heavy"]` (lists, so a stack is JSON as it stands in a state).
A Light side is one hit, a Heavy side two (5.2.2-5.2.3); a hit flips the last marker if it
shows Light, else draws a new one Light side up (5.2.4); a recovered hit undoes the last
step (5.2.5.A). The caller supplies the randomness: `draw()` returns the next marker id
from the cup.

The cup: the rulebook's one shared cup (4.2) cannot be drawn from privately by two players
without a trusted party, so each side draws from its own copy of the full mix
(docs/race-to-the-sea.md, "The casualty cup"). A side's cup is every marker not under one
of its own units (`cup_for`), which only its owner knows; a private draw is a roll in a
range fixed by the mix alone (`roll_range`), mapped onto the owner's cup (`drawer`), so
the public request (how many rolls, over what range) says nothing about the cup. In a
double-blind game with the option `shared_cup`, the referee, who knows every stack, draws
from the one cup itself (`shared_cup`; hits.deal_values), with the same rolls and mapping.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pbem.errors import IllegalOrderError
from pbem.games.datacheck import DataChecker, read_toml, shipped_file
from pbem.games.race_to_the_sea.records import FrozenRecord, frozen_record

PACKAGE = "pbem.games.race_to_the_sea"
MARKERS_FILE = "markers.toml"

CATEGORIES = ("sz", "met", "rf", "mg", "art")  # the rating positions of a marker (3.2.7.A)
NUMBERED = ("rf", "mg", "art")  # 3.2.4-3.2.6: 4 (best) .. 1
MET_LEVELS = ("A", "B", "C", "D")  # 3.2.2: A elite .. D militia
LIGHT, HEAVY = "light", "heavy"
HITS = {LIGHT: 1, HEAVY: 2}  # 5.2.2-5.2.3
SIDES = ("allies", "germans")

# A private draw is a roll in [0, roll_range) taken modulo the cup's size: exact only while
# every cup size divides the range, and the range must fit the generator (below 2**64).
MAX_MARKERS = 40

# Stand-in: the rulebook does not say what happens when the cup is empty (4.2 gives no
# count). A hit that finds its side's cup empty still counts, with no rating effect but
# its SZ (5.1.D); docs/race-to-the-sea.md explains why 24 markers make this rare.
BLANK = "blank"
BLANK_EFFECTS = {
    LIGHT: {"sz": -1, "met": 0, "rf": 0, "mg": 0, "art": 0},
    HEAVY: {"sz": -2, "met": 0, "rf": 0, "mg": 0, "art": 0},
}

Stack = list[list[str]]
Markers = Mapping[str, Mapping[str, Any]]

# --- The marker mix ----------------------------------------------------------------------------

MARKER_FIELDS = ("id", "light", "heavy", "provenance", "note")
SIDE_FIELDS = (*CATEGORIES, "provenance")
# 5.1.D: every hit is -1 SZ, so a Light side (one hit) is SZ -1 and a Heavy side SZ -2
SIDE_SZ = {LIGHT: -1, HEAVY: -2}
# 5.2.2: a Light side reduces "by one level"; 3.2.7.A: a -2 (on a Heavy side) by two
SIDE_LOWEST = {LIGHT: -1, HEAVY: -2}


def load_markers(data: bytes) -> dict[str, dict[str, Any]]:
    """The Casualties markers of `markers.toml`, by id in file order; every problem of the
    file in one DataError."""
    doc, check = read_toml(data, MARKERS_FILE, ["marker"])
    markers: dict[str, dict[str, Any]] = {}
    seen: dict[tuple[tuple[int, ...], tuple[int, ...]], str] = {}
    for item, where in check.items(doc, "marker"):
        ident, where = check.named(item, where, "marker {}", MARKER_FIELDS)
        note = check.text(item, "note", where, required=False)
        sides = {side: _side(check, item, side, where) for side in (LIGHT, HEAVY)}
        light, heavy = sides[LIGHT], sides[HEAVY]
        if ident is None or light is None or heavy is None:
            continue
        if ident == BLANK:
            check.add(where, f"{BLANK!r} is the empty cup's stand-in, not a marker id")
            continue
        if ident in markers:
            check.add(where, "repeats an earlier marker id")
            continue
        milder = [c for c in CATEGORIES if heavy[c] > light[c]]
        if milder:
            check.add(
                f"{where}.heavy",
                f"milder than the Light side in {', '.join(milder)}: flipping to Heavy "
                "(a second hit, 5.2.3) must not raise a rating",
            )
        key = (tuple(light[c] for c in CATEGORIES), tuple(heavy[c] for c in CATEGORIES))
        if key in seen:
            check.add(
                where, f"the same as marker {seen[key]}: the markers are all different (5.1.D)"
            )
        seen.setdefault(key, ident)
        markers[ident] = {
            "id": ident,
            LIGHT: {c: light[c] for c in CATEGORIES},
            HEAVY: {c: heavy[c] for c in CATEGORIES},
            "provenance": item.get("provenance"),
            "light_provenance": light["provenance"],
            "heavy_provenance": heavy["provenance"],
            "note": note or "",
        }
    if not check.problems and not markers:
        check.add("marker", "no markers: the cup needs at least one (4.2)")
    if len(markers) > MAX_MARKERS:
        check.add("marker", f"{len(markers)} markers: at most {MAX_MARKERS} (private draws)")
    check.stop_if_any()
    return markers


def _side(check: DataChecker, item: dict[str, Any], side: str, where: str) -> dict[str, Any] | None:
    """One side of a marker: its -1/-2 per category (0 when left out) and its provenance."""
    where = f"{where}.{side}"
    table = item.get(side)
    if table is None:
        check.add(where.rsplit(".", 1)[0], f"missing field {side!r}")
        return None
    if not check.is_table(table, where):
        return None
    check.fields(table, where, SIDE_FIELDS)
    values: dict[str, Any] = {"provenance": table.get("provenance")}
    ok = True
    for category in CATEGORIES:
        if category not in table:
            values[category] = 0
            continue
        value = check.integer(table, category, where, -2, -1)
        if value is not None and category != "sz" and value < SIDE_LOWEST[side]:
            check.add(f"{where}.{category}", f"{value}: a Light side lowers by one level (5.2.2)")
            value = None
        ok = ok and value is not None
        values[category] = value
    if ok and values["sz"] != SIDE_SZ[side]:
        check.add(
            f"{where}.sz",
            f"expected {SIDE_SZ[side]} (5.1.D: every hit is -1 SZ), found {values['sz']}",
        )
        ok = False
    return values if ok else None


def default_markers() -> dict[str, dict[str, Any]]:
    """The shipped marker mix."""
    return load_markers(shipped_file(PACKAGE, MARKERS_FILE))


# --- Modified ratings (3.2.7) ------------------------------------------------------------------


def effects(markers: Markers, stack: Sequence[Sequence[str]]) -> list[Mapping[str, int]]:
    """The effects of the sides showing in `stack` (5.2.4: a Light and a Heavy add up)."""
    shown: list[Mapping[str, int]] = []
    for marker, side in stack:
        if marker == BLANK:
            shown.append(BLANK_EFFECTS[side])
        elif marker not in markers:
            raise IllegalOrderError(f"illegal: no Casualties marker {marker} in the mix")
        else:
            shown.append(markers[marker][side])
    return shown


def modified(ratings: Mapping[str, Any], under: Iterable[Mapping[str, int]]) -> dict[str, Any]:
    """A unit's ratings with the effects of the markers `under` it (3.2.7.A-B).

    Each -1 lowers a rating one level (MET A > B > C > D, numbers down), each -2 two,
    cumulatively. MET never goes below D nor a number below 1 (3.2.7.B); SZ may reach 0,
    which eliminates the unit (3.2.7.B, 5.2.6). The special artillery (SQ, HA) and any other
    field are kept (3.3.4). A marker never raises a rating: a positive effect is refused.
    """
    total = dict.fromkeys(CATEGORIES, 0)
    for effect in under:
        for category in CATEGORIES:
            value = effect.get(category, 0)
            if value > 0:
                raise ValueError(f"a Casualties marker never raises a rating ({category} +{value})")
            total[category] += value
    result = dict(ratings)
    if "sz" in result:
        result["sz"] = max(result["sz"] + total["sz"], 0)
    if "met" in result:
        level = MET_LEVELS.index(result["met"]) - total["met"]
        result["met"] = MET_LEVELS[min(level, len(MET_LEVELS) - 1)]
    for category in NUMBERED:
        if category in result:
            result[category] = max(result[category] + total[category], 1)
    return result


def unit_ratings(
    ratings: Mapping[str, Any], stack: Sequence[Sequence[str]], markers: Markers
) -> dict[str, Any]:
    """`modified` for a unit's stack of markers."""
    return modified(ratings, effects(markers, stack))


# --- Hits bookkeeping (5.2) --------------------------------------------------------------------


def hits_of(stack: Sequence[Sequence[str]]) -> int:
    """The hits a stack shows: 1 per Light side, 2 per Heavy side (5.2.1-5.2.4)."""
    return sum(HITS[side] for _marker, side in stack)


def apply_hits(stack: Sequence[Sequence[str]], hits: int, draw: Callable[[], str]) -> Stack:
    """The stack after `hits` more hits, elimination aside (see `absorb`).

    Hit by hit: a Light marker on top is flipped to Heavy (5.2.3), otherwise a new marker
    is drawn and placed Light side up (5.2.2). So a fresh unit taking two hits shows one
    Heavy marker (5.2.3), and a Light unit taking two more shows a Heavy and a new Light
    (5.2.4: "first flipped to its Heavy Casualties side and then a new Light ... drawn").
    """
    result = [[marker, side] for marker, side in stack]
    for _ in range(hits):
        if result and result[-1][1] == LIGHT:
            result[-1][1] = HEAVY
        else:
            result.append([draw(), LIGHT])
    return result


def recover(stack: Sequence[Sequence[str]], hits: int) -> tuple[Stack, list[str]]:
    """The stack after removing up to `hits` hits in reverse order of application (5.2.5.A:
    a Heavy marker flips back to Light, a Light one comes off), and the markers that go back
    to the cup (5.2.5.B). A unit with fewer hits removes what it has (9.5.5)."""
    result = [[marker, side] for marker, side in stack]
    returned: list[str] = []
    for _ in range(hits):
        if not result:
            break
        if result[-1][1] == HEAVY:
            result[-1][1] = LIGHT
        else:
            returned.append(result.pop()[0])
    return result, [m for m in returned if m != BLANK]


@frozen_record
class Absorbed(FrozenRecord):
    """What `hits` did to a unit: its new stack, whether it is eliminated, and the markers
    that go back to its side's cup."""

    stack: Stack
    eliminated: bool
    returned: list[str]


def absorb(stack: Sequence[Sequence[str]], sz: int, hits: int, draw: Callable[[], str]) -> Absorbed:
    """`hits` on a unit of printed SZ `sz`: eliminated the moment its hits equal or exceed
    its SZ (5.2.6, 5.1.D: "a unit with a 2 SZ Rating that absorbs two hits is eliminated"),
    its markers back to the cup and none drawn; otherwise `apply_hits`."""
    if hits_of(stack) + hits >= sz:
        return Absorbed([], True, [marker for marker, _side in stack if marker != BLANK])
    return Absorbed(apply_hits(stack, hits, draw), False, [])


def rebuild(sz: int, draw: Callable[[], str]) -> Stack:
    """9.6: an eliminated unit comes back at SZ 1, its markers showing SZ - 1 hits."""
    return apply_hits([], sz - 1, draw)


# --- The cup: each side's own copy of the mix (docs/race-to-the-sea.md) -----------------------


def cup_for(
    side: str, markers: Markers, under: Iterable[Sequence[Sequence[str]]] = ()
) -> list[str]:
    """`side`'s cup, in canonical (sorted) order: its own copy of the full mix less the
    markers under its own units (`under`: the stacks of every unit of the side). The other
    side's markers never change it. Markers come back to it when they leave a unit (5.2.5.B,
    5.2.6) simply by leaving the stack."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r} (expected allies or germans)")
    return _left(markers, under, f"two {side} units (one copy per side)")


def shared_cup(markers: Markers, under: Iterable[Sequence[Sequence[str]]]) -> list[str]:
    """The rulebook's one cup (4.2), in canonical order: the mix less the markers under
    every unit of both sides (`under`). Only a referee who knows every stack can draw from
    it (a double-blind game's `shared_cup` option, docs/race-to-the-sea.md)."""
    return _left(markers, under, "two units (4.2)")


def _left(markers: Markers, under: Iterable[Sequence[Sequence[str]]], twice: str) -> list[str]:
    """The mix less the markers of `under`, sorted; a marker under two of them is refused
    (`twice` says where)."""
    held: set[str] = set()
    for stack in under:
        for marker, _side in stack:
            if marker == BLANK:
                continue
            if marker not in markers:
                raise IllegalOrderError(f"illegal: no Casualties marker {marker} in the mix")
            if marker in held:
                raise IllegalOrderError(f"illegal: marker {marker} is under {twice}")
            held.add(marker)
    return sorted(set(markers) - held)


def roll_range(markers: Markers) -> int:
    """The size of the range of one private marker draw: a multiple of every cup size the
    mix allows (1..len(mix)), so `roll % len(cup)` is exactly uniform whatever the cup
    holds, and the range, public in the RNG log, depends on the mix alone."""
    return math.lcm(*range(1, len(markers) + 1))


def draw_request(markers: Markers, hits: int) -> tuple[int, int]:
    """What a private marker draw for `hits` hits shows in the log: how many rolls (one per
    hit, used or not) and over how many values (`roll_range`). It depends on public facts
    alone, never on the unit's markers nor on its side's cup."""
    return hits, roll_range(markers)


def drawer(cup: Sequence[str], rolls: Iterable[int]) -> Callable[[], str]:
    """A `draw` for `apply_hits`: each call takes the next roll (in [0, roll_range)) and
    draws index roll % size from what is left of `cup`; an empty cup gives BLANK. The
    engine asks one roll per hit, used or not (a flip draws nothing), so the number of rolls
    says nothing about the unit's markers."""
    left = list(cup)
    pending = iter(rolls)

    def draw() -> str:
        roll = next(pending, None)
        if roll is None:
            raise IllegalOrderError("illegal: a Casualties marker draw has no roll left")
        if not left:
            return BLANK
        return left.pop(roll % len(left))

    return draw
