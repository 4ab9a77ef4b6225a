"""pbem.maps.hexes: printed XXYY ids and the offset conventions (checked against the
Götterdämmerung rulebook's own examples), map edges, hexsides, movement costs with rivers and
prohibited hexsides, zones of control, supply lines, regions and drawing positions; and
properties over random grids (symmetric neighbours and distances, distance equal to the
unit-cost path length, the triangle inequality, one supply search agreeing with many)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.maps.hexes import (
    OFFSETS,
    HexGrid,
    SupplyRule,
    hex_id,
    label,
    split,
    supplied_hexes,
    supply_line,
    zone_of_control,
)


def test_printed_ids_round_trip() -> None:
    assert hex_id(13, 20) == 1320 and split(1320) == (13, 20)
    assert hex_id(8, 25) == 825 and label(825) == "0825"
    assert hex_id(105, 7, digits=3) == 105007 and split(105007, digits=3) == (105, 7)
    with pytest.raises(ValueError):
        hex_id(100, 1)
    grid = HexGrid(range(1, 30), range(1, 30))
    assert grid.parse("0825") == 825 and grid.label(825) == "0825"
    with pytest.raises(KeyError, match="not on the map"):
        grid.parse("3001")
    with pytest.raises(ValueError, match="not a hex number"):
        grid.parse("08x5")


# --- neighbours -----------------------------------------------------------------------------------


def test_gotterdammerung_grid_is_even_q() -> None:
    """Götterdämmerung 4.25: "The ZOC of a unit on Operational hex 2419 extends to hexes 2319,
    2418, 2519 and 2520 ..., and to 2320 and 2420" -- its six neighbours; from Transition Hex
    2420 to 2320, 2421, 2419, 2520, 2521 (2321 is not used, 2.1); from city hex 1320 to 1219,
    1220, 1321, 1420. 6.45: units in 1611 and 1711 both attack 1712."""
    grid = HexGrid(range(1, 40), range(1, 40), offset="even-q")
    assert set(grid.neighbours(2419)) == {2319, 2320, 2418, 2420, 2519, 2520}
    assert {2320, 2421, 2419, 2520, 2521} < set(grid.neighbours(2420))
    assert {1219, 1220, 1321, 1420} < set(grid.neighbours(1320))
    assert grid.adjacent(1611, 1712) and grid.adjacent(1711, 1712)
    odd = HexGrid(range(1, 40), range(1, 40), offset="odd-q")
    assert set(odd.neighbours(2419)) != {2319, 2320, 2418, 2420, 2519, 2520}


@pytest.mark.parametrize(
    "offset,odd_column,even_column",
    [
        # hex 305 (odd column) and 405 (even column), clockwise from N
        ("even-q", (304, 404, 405, 306, 205, 204), (404, 505, 506, 406, 306, 305)),
        ("odd-q", (304, 405, 406, 306, 206, 205), (404, 504, 505, 406, 305, 304)),
    ],
)
def test_neighbours_of_an_odd_and_an_even_column(
    offset: str, odd_column: tuple[int, ...], even_column: tuple[int, ...]
) -> None:
    grid = HexGrid(range(1, 9), range(1, 9), offset=offset)
    assert grid.neighbours(305) == odd_column
    assert grid.neighbours(405) == even_column
    assert [grid.direction(305, n) for n in odd_column] == ["N", "NE", "SE", "S", "SW", "NW"]
    assert grid.neighbour(305, "SE") == odd_column[2]


@pytest.mark.parametrize(
    "offset,odd_row,even_row",
    [
        # hex 505 (odd row) and 504 (even row), clockwise from NW
        ("odd-r", (504, 604, 605, 606, 506, 405), (403, 503, 604, 505, 405, 404)),
        ("even-r", (404, 504, 605, 506, 406, 405), (503, 603, 604, 605, 505, 404)),
    ],
)
def test_neighbours_of_pointy_grids(
    offset: str, odd_row: tuple[int, ...], even_row: tuple[int, ...]
) -> None:
    grid = HexGrid(range(1, 9), range(1, 9), offset=offset)
    assert grid.neighbours(505) == odd_row
    assert grid.neighbours(504) == even_row
    assert grid.direction(505, 605) == "E" and grid.direction(505, 405) == "W"


def test_map_edges_and_absent_hexes() -> None:
    grid = HexGrid(range(1, 6), range(1, 5), offset="even-q", absent=[303])
    assert grid.neighbours(101) == (201, 102)  # the corner: the rest is off the map
    assert grid.edges(101) == {"first-column", "first-row"}
    assert grid.edges(504) == {"last-column", "last-row"}
    assert grid.edges(202) == frozenset()
    assert grid.edge_hexes("first-row") == [101, 201, 301, 401, 501]
    assert grid.neighbour(101, "N") is None and grid.neighbour(101, "S") == 102
    assert 303 not in grid and 303 not in grid.neighbours(302)
    assert len(grid.neighbours(203)) == 5
    with pytest.raises(KeyError, match="not on the map"):
        grid.neighbours(303)
    with pytest.raises(ValueError, match="not neighbours"):
        grid.direction(101, 103)
    with pytest.raises(ValueError, match="unknown direction"):
        grid.neighbour(101, "E")
    with pytest.raises(ValueError, match="unknown offset"):
        HexGrid(range(1, 3), range(1, 3), offset="odd")


# --- hexsides and movement ------------------------------------------------------------------------


def river_grid(**hexsides: list[str]) -> HexGrid:
    # a 3x3 even-q grid; the hexside 202|203 has the given features
    sides = {frozenset((202, 203)): names for names in hexsides.values()}
    return HexGrid(range(1, 4), range(1, 4), offset="even-q", hexsides=sides)


def test_hexside_features_are_keyed_by_the_unordered_pair() -> None:
    grid = river_grid(side=["river", "bridge"])
    assert grid.hexside(202, 203) == grid.hexside(203, 202) == {"river", "bridge"}
    assert grid.has(203, 202, "river") and not grid.has(202, 102, "river")
    assert grid.hexsides_with("bridge") == [(202, 203)]
    with pytest.raises(ValueError, match="not neighbours"):
        grid.hexside(101, 103)
    with pytest.raises(ValueError, match="neighbouring hexes"):
        HexGrid(range(1, 4), range(1, 4), hexsides={frozenset((101, 103)): ["river"]})


def test_crossing_a_river_costs_extra_and_the_path_goes_around() -> None:
    """Götterdämmerung 5.31: the costs of the hex entered and the hexside crossed add up."""
    grid = river_grid(side=["river"])

    def cross(a: int, b: int) -> float:
        return 2 if grid.has(a, b, "river") else 0

    route = grid.cheapest(202, 203, cross=cross)
    assert route is not None and route.cost == 2 and route.hexes == (202, 103, 203)
    cheap = grid.cheapest(202, 203, cross=lambda a, b: 0.5 if grid.has(a, b, "river") else 0)
    assert cheap is not None and cheap.cost == 1.5 and cheap.hexes == (202, 203)


def test_an_impassable_hexside_and_a_prohibited_hex() -> None:
    """Götterdämmerung 5.28: no crossing of a full sea or lake hexside; Race to the Sea 10.3.2:
    no entering water or entrenchment hexes."""
    grid = river_grid(side=["sea"])

    def cross(a: int, b: int) -> float | None:
        return None if grid.has(a, b, "sea") else 0

    def enter(h: int) -> float | None:
        return None if h == 103 else 1

    route = grid.cheapest(202, 203, cross=cross, enter=enter)
    assert route is not None and route.hexes == (202, 303, 203)

    # 203 sits on the last row: with 103 and 303 closed too, nothing leads into it
    def walled(h: int) -> float | None:
        return None if h in (103, 303) else 1

    assert grid.cheapest(202, 203, cross=cross, enter=walled) is None
    assert grid.cheapest(202, 203, cross=cross, enter=enter, max_cost=1) is None


def test_race_to_the_sea_difficult_terrain_counts_once() -> None:
    """Race to the Sea 10.3.1: a forest hex or a river crossing counts as two hexes, both
    together still two (10.3.1 C) -- a `step` cost, not a sum."""
    grid = HexGrid(range(1, 4), range(1, 4), hexsides={frozenset((202, 203)): ["river"]})
    forest = {203}

    def step(a: int, b: int) -> int:
        return 2 if b in forest or grid.has(a, b, "river") else 1

    assert grid.costs(202, step=step)[203] == 2
    assert grid.costs(202, step=step, max_cost=3) == {
        h: c for h, c in grid.costs(202, step=step).items() if c <= 3
    }


def test_stop_hexes_are_entered_but_not_left() -> None:
    """Race to the Sea 10.1.1 B: units stop on entering No Man's Land."""
    grid = HexGrid(range(1, 2), range(1, 6))  # one column: 101..105 in a line
    assert grid.costs(101, stop={103}) == {101: 0, 102: 1, 103: 2}
    assert grid.costs(103, stop={103}) == {103: 0, 102: 1, 101: 2, 104: 1, 105: 2}


def test_costs_within_a_budget_are_the_hexes_within_that_distance() -> None:
    grid = HexGrid(range(1, 8), range(1, 8), offset="odd-q")
    assert set(grid.costs(404, max_cost=2)) == set(grid.within(404, 2))
    assert len(grid.within(404, 1)) == 7 and len(grid.within(404, 2)) == 19


def test_regions_and_components() -> None:
    grid = HexGrid(range(1, 5), range(1, 3), offset="even-q")
    friendly = {101, 102, 201, 401, 402}
    assert grid.region([101], friendly) == {101, 102, 201}
    assert grid.components(friendly) == [[101, 102, 201], [401, 402]]
    assert grid.region([301], friendly) == set()


# --- zones of control and supply ------------------------------------------------------------------


def two_rows() -> HexGrid:
    # columns 1..5, rows 1..2, even-q
    return HexGrid(range(1, 6), range(1, 3), offset="even-q")


def test_zone_of_control_is_the_six_hexes_around_unless_blocked() -> None:
    """Race to the Sea 10.1.1 A: the six hexes adjacent to an enemy unit; Götterdämmerung 4.21,
    4.26: none from units without ZOC, none across a full sea or lake hexside."""
    grid = HexGrid(range(1, 8), range(1, 8))
    assert zone_of_control(grid, [404]) == set(grid.neighbours(404))
    assert zone_of_control(grid, [404], exerts=lambda h: h != 404) == set()
    sea = {frozenset((404, 405))}
    zoc = zone_of_control(grid, [404], extends=lambda a, b: frozenset((a, b)) not in sea)
    assert zoc == set(grid.neighbours(404)) - {405}


def test_enemy_zoc_blocks_a_supply_line_and_a_friendly_unit_opens_it() -> None:
    """Götterdämmerung 8.15: not through an enemy-ZOC hex that holds no friendly unit, but
    through one that holds one; 8.13: depots' lines not even then; 4.28: strong ZOC never."""
    grid = two_rows()
    enemy = {302}
    zoc = zone_of_control(grid, enemy)
    assert zoc == {201, 202, 301, 401, 402}
    rule = SupplyRule(length=8, enemy_units=enemy, enemy_zoc=zoc)
    assert supply_line(grid, 101, [501], rule) is None
    friends = SupplyRule(length=8, enemy_units=enemy, enemy_zoc=zoc, friendly_units={201, 301, 401})
    line = supply_line(grid, 101, [501], friends)
    assert line is not None and line.hexes == (101, 201, 301, 401, 501) and line.cost == 4
    too_short = SupplyRule(
        length=3, enemy_units=enemy, enemy_zoc=zoc, friendly_units={201, 301, 401}
    )
    assert supply_line(grid, 101, [501], too_short) is None
    depot = SupplyRule(
        enemy_units=enemy, enemy_zoc=zoc, friendly_units={201, 301, 401}, friendly_negates_zoc=False
    )
    assert supply_line(grid, 101, [501], depot) is None
    strong = SupplyRule(enemy_units=enemy, strong_zoc=zoc, friendly_units={201, 301, 401})
    assert supply_line(grid, 101, [501], strong) is None


def test_the_tracing_unit_counts_as_friendly_in_its_own_hex() -> None:
    grid = two_rows()
    zoc = zone_of_control(grid, {302})
    rule = SupplyRule(enemy_units={302}, enemy_zoc=zoc, friendly_units={301, 401})
    line = supply_line(grid, 201, [501], rule)
    assert line is not None and line.hexes == (201, 301, 401, 501)
    assert supplied_hexes(grid, [501], rule)[201] == 3
    strong = SupplyRule(enemy_units={302}, strong_zoc=zoc)
    assert supply_line(grid, 201, [501], strong) is None


def test_race_to_the_sea_line_of_communications_through_friendly_hexes() -> None:
    """Race to the Sea 9.5: a connected path of friendly-controlled hexes, any length."""
    grid = two_rows()
    friendly = {101, 102, 202, 302, 401, 501}
    rule = SupplyRule(inside=friendly.__contains__)
    line = supply_line(grid, 101, [501], rule)
    assert line is not None and line.hexes == (101, 102, 202, 302, 401, 501)
    assert supply_line(grid, 101, [501], SupplyRule(inside=(friendly - {302}).__contains__)) is None


# --- drawing --------------------------------------------------------------------------------------


@pytest.mark.parametrize("offset", OFFSETS)
@pytest.mark.parametrize("top", [None, "flat", "pointy"])
def test_centres_of_neighbours_are_one_hex_apart(offset: str, top: str | None) -> None:
    grid = HexGrid(range(1, 6), range(1, 6), offset=offset)
    width, height = grid.extent(10, top)
    for h in grid:
        x, y = grid.center(h, 10, top)
        assert 0 < x < width and 0 < y < height
        for n in grid.neighbours(h):
            nx, ny = grid.center(n, 10, top)
            assert math.isclose(math.hypot(nx - x, ny - y), 10 * math.sqrt(3))
        for cx, cy in grid.corners(h, 10, top):
            assert math.isclose(math.hypot(cx - x, cy - y), 10)
            assert -1e-9 <= cx <= width + 1e-9 and -1e-9 <= cy <= height + 1e-9


def test_flat_and_pointy_tops() -> None:
    grid = HexGrid(range(1, 4), range(1, 4), offset="even-q")
    assert grid.center(101, 1) == pytest.approx((1, math.sqrt(3) / 2))
    assert grid.center(201, 1) == pytest.approx((2.5, math.sqrt(3)))  # even column sits lower
    assert grid.center(201, 1, "pointy") == pytest.approx((math.sqrt(3), 2.5))
    with pytest.raises(ValueError, match="flat' or 'pointy"):
        grid.center(101, 1, "round")


def test_hexside_line_is_shared_by_both_hexes() -> None:
    grid = HexGrid(range(1, 4), range(1, 4), offset="odd-q")
    for b in grid.neighbours(202):
        p, q = grid.hexside_line(202, b, 5)
        corners_b = grid.corners(b, 5)
        for point in (p, q):
            assert any(math.isclose(math.dist(point, c), 0, abs_tol=1e-9) for c in corners_b)
        assert math.isclose(math.dist(p, q), 5)


# --- properties -----------------------------------------------------------------------------------


@st.composite
def grids(draw: st.DrawFn) -> HexGrid:
    first_col, first_row = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    cols, rows = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    return HexGrid(
        range(first_col, first_col + cols),
        range(first_row, first_row + rows),
        offset=draw(st.sampled_from(OFFSETS)),
    )


@settings(max_examples=120, deadline=None)
@given(grids())
def test_property_neighbours_are_symmetric_and_directions_opposite(grid: HexGrid) -> None:
    names = grid.direction_names
    opposite = dict(zip(names, names[3:] + names[:3], strict=True))
    for h in grid:
        assert len(grid.neighbours(h)) <= 6
        for n in grid.neighbours(h):
            assert h in grid.neighbours(n)
            assert grid.distance(h, n) == 1
            assert grid.direction(n, h) == opposite[grid.direction(h, n)]
            assert grid.neighbour(h, grid.direction(h, n)) == n


@settings(max_examples=120, deadline=None)
@given(grids(), st.data())
def test_property_distance_is_symmetric_and_the_unit_cost_path_length(
    grid: HexGrid, data: st.DataObject
) -> None:
    a, b, c = (data.draw(st.sampled_from(grid.hexes)) for _ in range(3))
    assert grid.distance(a, b) == grid.distance(b, a)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)
    route = grid.cheapest(a, b)
    assert route is not None
    assert route.cost == grid.distance(a, b) == len(route.hexes) - 1
    assert all(grid.adjacent(x, y) for x, y in zip(route.hexes, route.hexes[1:], strict=False))


@settings(max_examples=80, deadline=None)
@given(grids(), st.data())
def test_property_one_supply_search_agrees_with_one_line_per_hex(
    grid: HexGrid, data: st.DataObject
) -> None:
    hexes = st.sets(st.sampled_from(grid.hexes), max_size=4)
    enemy, friendly, sources = data.draw(hexes), data.draw(hexes), data.draw(hexes)
    friendly -= enemy
    forest = data.draw(hexes)

    def cost(a: int, b: int) -> int:
        return 2 if b in forest else 1

    rule = SupplyRule(
        length=data.draw(st.sampled_from([None, 2, 4])),
        enemy_units=enemy,
        enemy_zoc=zone_of_control(grid, enemy),
        friendly_units=friendly,
        cost=data.draw(st.sampled_from([None, cost])),
    )
    everyone = supplied_hexes(grid, sources, rule)
    for h in grid:
        line = supply_line(grid, h, sources, rule)
        assert (line is None) == (h not in everyone), h
        if line is not None:
            assert line.cost == everyone[h]
            assert line.hexes[0] == h and line.hexes[-1] in sources
