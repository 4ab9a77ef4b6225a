"""Race to Berlin map: structure and properties of the stand-in board, its balance as claimed in
map.toml's comments, and properties of the front and supply helpers under any control."""

from __future__ import annotations

import heapq
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.race_to_berlin import data as rtb

DATA = rtb.load_data({})
AREAS: list[str] = DATA["area_ids"]
MAP_TEXT = rtb.default_data()["map.toml"].decode()


# --- structure -----------------------------------------------------------------------------------


def test_every_area_reachable_from_every_other() -> None:
    for start in AREAS:
        seen, todo = {start}, [start]
        while todo:
            for there in rtb.neighbours(DATA, todo.pop()):
                if there not in seen:
                    seen.add(there)
                    todo.append(there)
        assert seen == set(AREAS), start


def test_adjacency_and_rivers_are_symmetric() -> None:
    for a in AREAS:
        around = rtb.neighbours(DATA, a)
        assert a not in around
        assert around == sorted(set(around), key=AREAS.index)
        for b in around:
            assert a in rtb.neighbours(DATA, b)
            assert rtb.is_river(DATA, a, b) == rtb.is_river(DATA, b, a)
    assert len(DATA["borders"]) == sum(len(rtb.neighbours(DATA, a)) for a in AREAS) // 2 == 89
    assert sum(b["river"] for b in DATA["borders"]) == 20


def test_halves_mirror_each_other() -> None:
    """16 numbered areas a side: 3 start areas, 12 German areas of that front, 1 ring area."""
    areas = DATA["areas"]
    fronts = {f: [a for a in AREAS if areas[a]["front"] == f] for f in ("west", "east")}
    assert fronts["west"] == [str(n) for n in range(4, 16)] + ["31"]
    assert fronts["east"] == [str(n) for n in range(16, 28)] + ["32"]
    for force, start in (("west", ["1", "2", "3"]), ("soviet", ["28", "29", "30"])):
        assert [a for a in AREAS if areas[a]["control"] == force] == start
    units = DATA["units"]
    for force, front in (("german-west", "west"), ("german-east", "east")):
        for unit in units:
            if unit["force"] == force and unit["area"]:
                assert areas[unit["area"]]["front"] == front


# --- balance (the figures quoted in map.toml) ----------------------------------------------------

SIDES = {
    # side: (start areas, areas it may never enter at start: the ally's areas, its Berlin)
    "west": ({"1", "2", "3"}, {"28", "29", "30", "B2", "B3"}),
    "soviet": ({"28", "29", "30"}, {"1", "2", "3", "B4", "B5"}),
}
RING = {"west": ("31", "32"), "soviet": ("32", "31")}  # (own ring area, the other one)
EAGLE = {"west": "blue", "soviet": "red"}


def _entry_cost(a: str, b: str) -> int:
    """Defence bonuses met when attacking from a into b: terrain, river, fortification (a
    major one counted +2 and +3 more for having to be beaten twice, rulebook 4.2.1.2)."""
    bonus = DATA["areas"][b]["terrain"] + int(rtb.is_river(DATA, a, b))
    for fort in DATA["fortifications"]:
        if fort["area"] == b:
            bonus += fort["defense"] + (3 if fort["kind"] == "major" else 0)
    return bonus


def _routes(side: str) -> tuple[dict[str, int], dict[str, int]]:
    """Fewest steps and cheapest total bonus from the side's start areas to every area."""
    start, barred = SIDES[side]
    steps = {a: 0 for a in start}
    frontier = sorted(start)
    while frontier:
        later = []
        for here in frontier:
            for there in rtb.neighbours(DATA, here):
                if there not in barred and there not in steps:
                    steps[there] = steps[here] + 1
                    later.append(there)
        frontier = later
    cost = {a: 0 for a in start}
    queue = [(0, a) for a in sorted(start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > cost[here]:
            continue
        for there in rtb.neighbours(DATA, here):
            new = spent + _entry_cost(here, there)
            if there not in barred and new < cost.get(there, 10**9):
                cost[there] = new
                heapq.heappush(queue, (new, there))
    return steps, cost


def test_both_sides_race_over_the_same_distances() -> None:
    result = {}
    for side in SIDES:
        steps, cost = _routes(side)
        eagles = DATA["eagles"][EAGLE[side]]
        own, other = RING[side]
        result[side] = {
            "eagle steps": sorted(steps[e] for e in eagles),
            "eagle cost": sum(cost[e] for e in eagles),
            "own ring": (steps[own], cost[own]),
            "other ring": (steps[other], cost[other]),
            "B1": (steps["B1"], cost["B1"]),
        }
    print(result)
    assert result["west"] == {
        "eagle steps": [2, 2, 3, 4],
        "eagle cost": 19,
        "own ring": (5, 8),
        "other ring": (5, 9),
        "B1": (6, 10),
    }
    assert result["soviet"] == {
        "eagle steps": [2, 2, 3, 4],
        "eagle cost": 20,
        "own ring": (5, 8),
        "other ring": (5, 9),
        "B1": (6, 10),
    }
    # the header of map.toml quotes these figures
    comments = " ".join(
        line.lstrip("#").strip() for line in MAP_TEXT.splitlines() if line.startswith("#")
    )
    for claim in (
        "needs 2, 2, 3 and 4 steps to its four eagles, 5 to either ring area and 6 to B1",
        "the West pays 19 for its four eagles and the Soviets 20; both pay 8 to reach their own "
        "ring area, 9 for the other ring area and 10 for B1",
    ):
        assert claim in comments


def test_germans_face_each_side_with_about_equal_force() -> None:
    """12 Western Front units (11 after the 6th SS leaves) against 11 (12 after it arrives)."""
    on_board = [u for u in DATA["units"] if u["area"]]
    west = sum(u["force"] == "german-west" for u in on_board)
    east = sum(u["force"] == "german-east" for u in on_board)
    assert (west, east) == (12, 11)
    forts = {"west": 0, "east": 0}
    for fort in DATA["fortifications"]:
        forts[DATA["areas"][fort["area"]]["front"]] += 1
    assert forts == {"west": 6, "east": 10}


# --- properties of the helpers -------------------------------------------------------------------

controls = st.lists(st.sampled_from(rtb.CONTROLS), min_size=len(AREAS), max_size=len(AREAS)).map(
    lambda values: dict(zip(AREAS, values, strict=True))
)


@settings(max_examples=150, deadline=None)
@given(controls)
def test_property_front_borders_separate_a_force_from_everything_else(
    control: dict[str, str],
) -> None:
    fronts = {f: rtb.front_borders(control, DATA, f) for f in rtb.CONTROLS}
    for force, borders in fronts.items():
        for border in DATA["borders"]:
            a, b = border["areas"]
            needed = (control[a] == force) != (control[b] == force)
            assert ((a, b) in borders) == needed
    # where West and Soviet areas touch, both players put a marker (rulebook 4.2.1.2)
    for a, b in fronts["west"]:
        if {control[a], control[b]} == {"west", "soviet"}:
            assert (a, b) in fronts["soviet"]
    # every border between two different holders is a front for exactly two forces
    for border in DATA["borders"]:
        a, b = border["areas"]
        count = sum(tuple(border["areas"]) in fronts[f] for f in rtb.CONTROLS)
        assert count == (2 if control[a] != control[b] else 0)


@settings(max_examples=150, deadline=None)
@given(controls)
def test_property_supply_is_a_connected_part_of_the_own_areas(control: dict[str, str]) -> None:
    for force in rtb.CONTROLS:
        supplied = set(rtb.supplied_areas(control, DATA, force))
        assert all(control[a] == force for a in supplied)
        # closed: an own area next to a supplied one is supplied too
        for a in supplied:
            for b in rtb.neighbours(DATA, a):
                if control[b] == force:
                    assert b in supplied
        # every supplied area has a base in its component
        bases = set(DATA["supply_bases"]["german" if force == "german" else force])
        assert not supplied or supplied & bases


BLOCK = re.compile(r"\[\[(area|border)\]\]\n(?:(?!\n\n).)*\n\n", re.S)


@settings(max_examples=20, deadline=None)
@given(st.randoms(use_true_random=False))
def test_property_order_of_areas_and_borders_does_not_matter(rng: random.Random) -> None:
    """Shuffling the [[area]] and [[border]] blocks (and swapping border ends) changes nothing."""
    head = MAP_TEXT[: MAP_TEXT.index("[[area]]")]
    blocks = [m.group(0) for m in BLOCK.finditer(MAP_TEXT + "\n")]
    assert len(blocks) == 37 + 89
    rng.shuffle(blocks)
    swapped = [
        re.sub(r'between = \["(\w+)", "(\w+)"\]', r'between = ["\2", "\1"]', b)
        if rng.random() < 0.5
        else b
        for b in blocks
    ]
    assert rtb.load_map(("".join([head, *swapped])).encode()) == rtb.load_map(MAP_TEXT.encode())


@pytest.mark.parametrize("side", ["west", "soviet"])
def test_each_side_can_reach_both_ring_areas_without_the_other(side: str) -> None:
    """rulebook 4.5 note: the race can be blocked; neither ring area is out of a side's reach."""
    steps, _ = _routes(side)
    assert {"31", "32", "B1"} <= set(steps)
    allowed: Any = rtb.BERLIN_ALLOWED[side]
    assert all(b in steps for b in allowed)
