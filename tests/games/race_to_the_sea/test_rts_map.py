"""Race to the Sea 1914: the stand-in hex map (data/map.toml) and its helpers.

Every fact the rulebook states about the map, and every fact issue 15 says the stand-in
data must match, is checked here with the section it comes from; the loader refuses a
broken file with one DataError naming every problem."""

from __future__ import annotations

import json
import tomllib
from typing import Any

import pytest

from pbem.errors import DataError
from pbem.games.datacheck import shipped_files
from pbem.games.race_to_the_sea import map_data as rm
from pbem.maps.hexes import HexGrid, split

RAW = shipped_files(rm.PACKAGE, [rm.MAP_FILE])[rm.MAP_FILE]


@pytest.fixture(scope="module")
def board() -> dict[str, Any]:
    return rm.default_map()


def at(board: dict[str, Any], name: str) -> int:
    return rm.hex_of(board, name)


def step(board: dict[str, Any], name_or_hex: str | int, direction: str) -> int:
    """The neighbour of a place in a grid direction (north at the top, 'odd-q')."""
    start = at(board, name_or_hex) if isinstance(name_or_hex, str) else name_or_hex
    found = rm.grid(board).neighbour(start, direction)
    assert found is not None, f"no hex {direction} of {name_or_hex}"
    return found


def edited(*edits: tuple[str, str]) -> bytes:
    """The shipped text with each `old` (which must occur exactly once) replaced by `new`."""
    text = RAW.decode()
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
        text = text.replace(old, new)
    return text.encode()


# --- the shipped file ----------------------------------------------------------------------------


def test_shipped_map_loads_as_plain_json(board: dict[str, Any]) -> None:
    assert json.loads(json.dumps(board)) == board
    assert rm.load_map(RAW) == board
    assert (board["columns"], board["rows"], board["offset"]) == (18, 20, "odd-q")
    assert len(board["hexes"]) == 18 * 20
    assert board["hexes"]["0906"]["hex"] == 906


def test_every_item_has_a_provenance_and_stand_ins_say_so() -> None:
    doc = tomllib.loads(RAW.decode())
    items: list[dict[str, Any]] = []
    for value in doc.values():
        items.extend(value if isinstance(value, list) else [value])
    assert len(items) > 40
    for item in items:
        assert item["provenance"] == "stand-in" or item["provenance"].startswith("rulebook ")
        assert item.get("note"), item  # what is invented, or where the rulebook says it
    assert doc["map"]["provenance"] == "stand-in"  # the rulebook prints no map


def test_grid_is_cached_by_identity(board: dict[str, Any]) -> None:
    assert rm.grid(board) is rm.grid(board)
    copy = json.loads(json.dumps(board))
    assert rm.grid(copy) is not rm.grid(board)
    assert rm.grid(copy).hexes == rm.grid(board).hexes


# --- 2.1 terrain -------------------------------------------------------------------------------


def test_channel_along_the_north_edge(board: dict[str, Any]) -> None:
    """2.1.8 A: the hexes in blue along the north side are the English Channel."""
    g = rm.grid(board)
    north = g.edge_hexes("first-row")
    assert all(rm.terrain(board, h) == "water" for h in north)
    water = {h for h in g if rm.terrain(board, h) == "water"}
    assert g.region(north, water) == water  # no lake inland: all of it is the Channel
    assert all(rm.terrain(board, h) != "water" for h in g.edge_hexes("last-row"))


def test_entrenchments_on_the_south_edge_allied_to_the_west(board: dict[str, Any]) -> None:
    """2.1.9: two entrenchment hexes on the south edge, the Allied (western) and German
    (eastern); Prohibited Terrain (10.3.2)."""
    g = rm.grid(board)
    allied, german = board["entrenchments"]["allies"], board["entrenchments"]["germans"]
    assert [h for h in g if rm.terrain(board, h) == "entrenchment"] == [allied, german]
    assert "last-row" in g.edges(allied) and "last-row" in g.edges(german)
    assert split(allied)[0] < split(german)[0]
    assert g.adjacent(allied, german)
    for h in (allied, german):
        for n in g.neighbours(h):
            assert rm.move_cost(board, n, h) is None


def test_antwerp_a_hexes_are_three_clear_hexes_in_the_north_east(board: dict[str, Any]) -> None:
    """2.1.10: three hexes labelled A, clear; toward Antwerp (north-east)."""
    hexes = board["antwerp"]
    assert len(set(hexes)) == 3
    assert all(rm.terrain(board, h) == "clear" for h in hexes)
    assert all(rm.side_of_trench_line(board, h) == "east" for h in hexes)
    ghent = split(at(board, "Ghent"))
    assert all(split(h)[0] > ghent[0] and split(h)[1] <= ghent[1] for h in hexes)


def test_elevation_levels(board: dict[str, Any]) -> None:
    """2.1.11: three levels, Low the most predominant; 11.4 B ranks them."""
    levels = [rm.elevation(board, h) for h in rm.grid(board)]
    assert set(levels) == {"low", "elevated", "high"}
    assert levels.count("low") > len(levels) / 2
    hill = next(h for h in rm.grid(board) if rm.elevation(board, h) == "high")
    ypres = at(board, "Ypres")
    assert rm.elevation_rank(board, hill) == 2 and rm.elevation_rank(board, ypres) == 0
    assert rm.higher(board, hill, ypres) and not rm.higher(board, ypres, hill)
    assert not rm.higher(board, ypres, ypres)  # 11.4 A: strictly higher


def test_cover_by_terrain(board: dict[str, Any]) -> None:
    """2.1.1-2.1.7: clear none, forest and town Light, city Medium, major city Heavy."""
    wanted = {"clear": "none", "forest": "light", "town": "light", "city": "medium"}
    wanted["major city"] = "heavy"
    seen = set()
    for h in rm.grid(board):
        kind = rm.terrain(board, h)
        if kind in wanted:
            assert rm.cover(board, h) == wanted[kind]
            seen.add(kind)
    assert seen == set(wanted)


def test_a_river_raises_assault_cover_by_one_level(board: dict[str, Any]) -> None:
    """2.1.4 C and its example: a forest attacked across a river is Medium Cover in an
    assault, Light against firepower; one level beyond Heavy is still Heavy."""
    g = rm.grid(board)
    forest, attacker = next(
        (b, a)
        for a in g
        for b in g.neighbours(a)
        if rm.terrain(board, b) == "forest" and rm.is_river(board, a, b)
    )
    assert rm.cover(board, forest) == "light"
    assert rm.assault_cover(board, attacker, forest) == "medium"
    dry = next(n for n in g.neighbours(forest) if not rm.is_river(board, n, forest))
    assert rm.assault_cover(board, dry, forest) == "light"
    lille = at(board, "Lille")
    assert rm.terrain(board, lille) == "major city"
    wet = next(n for n in g.neighbours(lille) if rm.is_river(board, n, lille))
    assert rm.assault_cover(board, wet, lille) == "heavy"
    with pytest.raises(ValueError, match="not adjacent"):
        rm.assault_cover(board, at(board, "Calais"), lille)


def test_railroads_connect_only_where_the_track_does(board: dict[str, Any]) -> None:
    """2.1.3 A: railroad hexes are connected only if the graphics connect."""
    g = rm.grid(board)
    rail = [h for h in g if rm.is_railroad(board, h)]
    assert all(any(rm.rail_linked(board, h, n) for n in g.neighbours(h)) for h in rail)
    side_by_side = [
        (a, b)
        for a in rail
        for b in g.neighbours(a)
        if b in rail and not rm.rail_linked(board, a, b)
    ]
    assert side_by_side  # the stand-in has parallel tracks that do not join there
    assert len(rm.rail_components(board)) == 1  # yet one network in all
    # a separate line beside the network is not connected to it
    two = edited(
        (
            'name = "Bruges-Zeebrugge"\nhexes = ["1103", "1102"]',
            'name = "Bruges-Zeebrugge"\nhexes = ["1203", "1303"]',
        )
    )
    apart = rm.load_map(two)
    assert rm.is_railroad(apart, 1203) and not rm.is_railroad(apart, 1102)
    assert not rm.rail_linked(apart, 1103, 1203)  # neighbours, both railroad hexes
    assert len(rm.rail_components(apart)) == 2
    assert not rm.rail_connected(apart, 1203, 1103)


# --- places --------------------------------------------------------------------------------------

NAMED = [
    "Amiens", "Abbeville", "Calais", "Dunkirk", "Nieuport", "Ostend", "Zeebrugge", "Ghent",
    "Maubeuge", "Ypres", "Dixmude", "Arras", "Lens", "Albert", "Noyon", "Chauny",
    "St Quentin", "Cambrai", "Valenciennes", "Mons", "La Fere", "Perrone", "Lille",
    "Bethune", "La Bassee", "Armentieres", "Montdidier", "Compiegne", "Soissons",
    "Boulogne", "St Omer", "Hazebrouck", "Bruges", "Courtrai", "Douai", "Tournai",
]  # fmt: skip


def test_every_place_the_rules_name_is_on_the_map(board: dict[str, Any]) -> None:
    """The places of 9.5, 9.8, 10.3.4, 11.4, 12.9, 14.2-14.3 and the set-up (15), each a
    town, city or major city of its own hex."""
    hexes = [at(board, name) for name in NAMED]
    assert len(set(hexes)) == len(NAMED)
    for name, h in zip(NAMED, hexes, strict=True):
        assert rm.terrain(board, h) in ("town", "city", "major city"), name
        assert rm.name_of(board, h) == name
    assert at(board, "Peronne") == at(board, "Perrone")  # the rulebook spells it Perrone
    assert at(board, "Dixemude") == at(board, "Dixmude")  # 9.8 spells it Dixemude
    with pytest.raises(KeyError, match="no place named 'Paris'"):
        at(board, "Paris")


def test_south_entry_is_a_railroad_hex(board: dict[str, Any]) -> None:
    """15.5.2 C: the South Entry Hex is the railroad hex with the red arrow; 9.5.2 French
    units may Regroup to it."""
    entry = at(board, "South Entry")
    g = rm.grid(board)
    assert rm.is_railroad(board, entry)
    assert g.edges(entry) & {"last-row", "first-column"}
    assert rm.side_of_trench_line(board, entry) == "west"
    assert rm.rail_connected(board, entry, at(board, "Amiens"))  # 7.3: rail north from it


def test_cambrai_and_valenciennes_join_mons_by_rail(board: dict[str, Any]) -> None:
    """15.6.2.1 A: a path of connected railroad hexes back to Mons; only through the
    hexes the caller accepts (friendly-controlled, not NML)."""
    mons = at(board, "Mons")
    line = next(r["hexes"] for r in board["railroads"] if r["name"] == "Mons-Valenciennes-Cambrai")
    for town in ("Cambrai", "Valenciennes"):
        assert rm.terrain(board, at(board, town)) == "city"  # 15.6.2.1 "that city"
        assert rm.rail_connected(board, at(board, town), mons)
        assert rm.rail_connected(board, at(board, town), mons, through=set(line).__contains__)
    blocked = {at(board, "Cambrai"), mons}
    assert not rm.rail_connected(board, at(board, "Cambrai"), mons, through=blocked.__contains__)
    assert rm.rail_reachable(board, 101) == set()  # water: no track


def test_ypres_assault_from_the_south_east_is_heavy_cover(board: dict[str, Any]) -> None:
    """12.9: the XXIII Reserve assaults the British in Ypres "from the elevated hex to the
    southeast": Heavy Cover, "the city, plus ... assaulting across a river hexside"; the
    III Reserve attacks from Dixmude at the same time, a Flank Attack (12.5 A)."""
    ypres = at(board, "Ypres")
    south_east = step(board, "Ypres", "SE")
    assert rm.terrain(board, ypres) == "city"
    assert rm.elevation(board, south_east) == "elevated"
    assert rm.is_river(board, south_east, ypres)
    assert rm.cover(board, ypres) == "medium"  # firepower: no river bonus (2.1.4 C)
    assert rm.assault_cover(board, south_east, ypres) == "heavy"
    dixmude = at(board, "Dixmude")
    g = rm.grid(board)
    assert g.adjacent(dixmude, ypres)
    assert not g.adjacent(dixmude, south_east)  # 12.5 A: two hexes not adjacent


def test_noyon_is_a_city_with_a_retreat_to_the_south_west(board: dict[str, Any]) -> None:
    """11.4: the II Corps (15.6.1: at Chauny) fires at the French in Noyon, a city hex
    (Medium Cover); the French retreat one hex south-west (12.7 C: not prohibited, not
    an enemy NML hex; D: not toward the enemy's side)."""
    noyon, chauny = at(board, "Noyon"), at(board, "Chauny")
    g = rm.grid(board)
    assert rm.terrain(board, noyon) == "city" and rm.cover(board, noyon) == "medium"
    assert g.adjacent(chauny, noyon)
    south_west = step(board, "Noyon", "SW")
    assert rm.move_cost(board, noyon, south_west) is not None
    assert not g.adjacent(chauny, south_west)  # out of the II Corps' NML
    assert split(south_west)[0] < split(noyon)[0]  # away from the German edge


def test_movement_example_from_albert(board: dict[str, Any]) -> None:
    """10.3.4: from Albert north, then Arras, then Lens: three hexes; or south-east across
    the river (two) and one hex toward Noyon; not on north-east into Perrone across the
    river (MA 3, 10.1 B)."""
    g = rm.grid(board)
    albert, arras, lens = at(board, "Albert"), at(board, "Arras"), at(board, "Lens")
    north = step(board, "Albert", "N")
    path = [albert, north, arras, lens]
    assert all(g.adjacent(a, b) for a, b in zip(path, path[1:], strict=False))
    assert rm.path_cost(board, path) == 3
    assert all(rm.terrain(board, h) != "forest" for h in path)
    assert not any(rm.is_river(board, a, b) for a, b in zip(path, path[1:], strict=False))

    south_east = step(board, "Albert", "SE")
    assert rm.is_river(board, albert, south_east)  # a river along Albert's south-east side
    assert rm.move_cost(board, albert, south_east) == 2
    noyon = at(board, "Noyon")
    toward = [
        n
        for n in g.neighbours(south_east)
        if g.distance(n, noyon) < g.distance(south_east, noyon)
        and rm.move_cost(board, south_east, n) == 1
    ]
    assert toward
    assert rm.path_cost(board, [albert, south_east, toward[0]]) == 3

    perrone = at(board, "Perrone")
    assert step(board, south_east, "NE") == perrone
    assert rm.is_river(board, south_east, perrone)
    assert rm.path_cost(board, [albert, south_east, perrone]) == 4  # more than MA 3


def test_movement_costs(board: dict[str, Any]) -> None:
    """10.3.1: forest 2, river crossing 2, both still 2 (C); 10.3.2 water, entrenchment and
    a flooded hex (2.1.8 B) prohibited."""
    g = rm.grid(board)
    forest, wet = next(
        (b, a)
        for a in g
        for b in g.neighbours(a)
        if rm.terrain(board, b) == "forest" and rm.is_river(board, a, b)
    )
    assert rm.move_cost(board, wet, forest) == 2  # river into forest: one Difficult hex
    dry = next(
        n
        for n in g.neighbours(forest)
        if not rm.is_river(board, n, forest) and rm.move_cost(board, n, forest) is not None
    )
    assert rm.move_cost(board, dry, forest) == 2
    dixmude, ypres = at(board, "Dixmude"), at(board, "Ypres")
    assert rm.move_cost(board, ypres, dixmude) == 1
    assert rm.move_cost(board, ypres, dixmude, flooded={dixmude}) is None
    calais = at(board, "Calais")
    sea = next(n for n in g.neighbours(calais) if rm.terrain(board, n) == "water")
    assert rm.move_cost(board, calais, sea) is None
    assert rm.path_cost(board, [calais, sea]) is None


def test_dixmude_is_the_floodable_hex(board: dict[str, Any]) -> None:
    """9.8: the Allies may flood the Dixemude hex; 9.5.3-9.5.4 ports and Ghent exist."""
    assert board["floodable"] == [at(board, "Dixmude")]
    for port in ("Calais", "Dunkirk", "Nieuport", "Ostend", "Zeebrugge"):
        assert any(
            rm.terrain(board, n) == "water" for n in rm.grid(board).neighbours(at(board, port))
        )


# --- 14.x victory geometry -----------------------------------------------------------------------


def test_trench_line_runs_from_the_coast_to_the_entrenchments(board: dict[str, Any]) -> None:
    """14.1 A: the Historic Trench Line (red-dotted hexsides), from the coast near Nieuport
    to the entrenchment hexes (15.1), splits the map into west and east."""
    g = rm.grid(board)
    line = board["trench_line"]
    touched = {h for pair in line for h in pair}
    assert at(board, "Nieuport") in touched
    assert (
        board["entrenchments"]["allies"] in touched and board["entrenchments"]["germans"] in touched
    )
    assert sorted(board["entrenchments"].values()) in [sorted(p) for p in line]
    for west, east in line:
        assert rm.side_of_trench_line(board, west) == "west"
        assert rm.side_of_trench_line(board, east) == "east"
        assert g.has(west, east, rm.TRENCH)
    for h in g:
        if rm.terrain(board, h) == "water":
            assert rm.side_of_trench_line(board, h) is None
        else:
            assert rm.side_of_trench_line(board, h) in ("west", "east")
    assert one_line(g, [frozenset(p) for p in line])
    # the north end is on the coast: a hex of its first hexside borders the Channel
    north = min(line, key=lambda p: max(split(h)[1] for h in p))
    assert any(rm.terrain(board, n) == "water" for h in north for n in g.neighbours(h))


def one_line(g: HexGrid, sides: list[frozenset[int]]) -> bool:
    """Whether the hexsides form one unbroken line: each meets another at a corner (two
    hexsides meet where they share a hex and their other hexes are neighbours)."""

    def meet(x: frozenset[int], y: frozenset[int]) -> bool:
        shared = x & y
        if len(shared) != 1:
            return False
        (a,), (b,) = x - shared, y - shared
        return g.adjacent(a, b)

    reached, todo = {sides[0]}, [sides[0]]
    while todo:
        here = todo.pop()
        for other in sides:
            if other not in reached and meet(here, other):
                reached.add(other)
                todo.append(other)
    return len(reached) == len(sides)


def test_every_river_is_one_unbroken_line(board: dict[str, Any]) -> None:
    """2.1.4 A: rivers run along the edges of hexes."""
    g = rm.grid(board)
    assert {r["name"] for r in board["rivers"]} >= {"Somme", "Yser", "Lys", "Scheldt", "Oise"}
    for river in board["rivers"]:
        assert one_line(g, [frozenset(p) for p in river["hexsides"]]), river["name"]
    assert not one_line(g, [frozenset((906, 1007)), frozenset((1013, 1014))])


def test_ports_and_cities_lie_on_the_right_side(board: dict[str, Any]) -> None:
    """14.2: Dunkirk and Calais (German 3 VP) west of the line; 14.3: Ghent and Maubeuge
    (Allied 3 VP) east; 15.6.1: the German start hexes east; 15.5.1: Amiens west."""
    for name in ("Dunkirk", "Calais", "Amiens", "Abbeville", "Ypres", "Arras", "Albert"):
        assert rm.side_of_trench_line(board, at(board, name)) == "west", name
    for name in (
        "Ghent",
        "Maubeuge",
        "Noyon",
        "Chauny",
        "St Quentin",
        "Mons",
        "La Fere",
        "Dixmude",
    ):
        assert rm.side_of_trench_line(board, at(board, name)) == "east", name


def test_ten_hexes_behind_each_enemy_entrenchment(board: dict[str, Any]) -> None:
    """14.4: ten hexes for each side to capture, behind the enemy entrenchment hexes."""
    g = rm.grid(board)
    enemy = {"allies": "germans", "germans": "allies"}
    far_side = {"allies": "east", "germans": "west"}
    for side in rm.SIDES:
        hexes = board["behind_enemy_lines"][side]
        assert len(set(hexes)) == 10
        trench = board["entrenchments"][enemy[side]]
        for h in hexes:
            assert rm.is_behind_enemy_lines(board, h, side)
            assert not rm.is_behind_enemy_lines(board, h, enemy[side])
            assert rm.side_of_trench_line(board, h) == far_side[side]
            assert g.distance(h, trench) <= 4
            assert rm.terrain(board, h) not in rm.PROHIBITED
    assert not rm.is_behind_enemy_lines(board, at(board, "Ypres"), "germans")
    with pytest.raises(ValueError, match="unknown side"):
        rm.is_behind_enemy_lines(board, 906, "french")


def test_map_edges(board: dict[str, Any]) -> None:
    """14.1 C: the Allies trace to the west map edge, the Germans to the east map edge."""
    assert board["edges"] == {"allies": "west", "germans": "east"}
    west, east = rm.edge_hexes(board, "allies"), rm.edge_hexes(board, "germans")
    assert west and east
    assert all(split(h)[0] == 1 for h in west) and all(split(h)[0] == 18 for h in east)
    assert all(rm.terrain(board, h) not in rm.PROHIBITED for h in west + east)
    assert len(west) + 5 == 20  # column 01 rows 06-20; rows 01-05 are the Channel


def test_allied_start_area_south_of_the_somme(board: dict[str, Any]) -> None:
    """15.5.1: the French set up south of the Somme River and west of the line; the Somme
    runs along Albert's south-east side (10.3.4), Amiens (15.5.1) south of it."""
    area = set(rm.allied_start_area(board))
    assert at(board, "Amiens") in area and at(board, "Montdidier") in area
    assert at(board, "South Entry") in area
    assert at(board, "Albert") not in area and at(board, "Abbeville") not in area
    assert step(board, "Albert", "SE") in area
    assert all(rm.side_of_trench_line(board, h) == "west" for h in area)
    somme = next(r for r in board["rivers"] if r["name"] == "Somme")
    assert sorted([at(board, "Albert"), step(board, "Albert", "SE")]) in somme["hexsides"]


def test_german_cavalry_start_near_st_quentin(board: dict[str, Any]) -> None:
    """15.6.1: the German I Cavalry sets up within two hexes of St Quentin."""
    near = rm.grid(board).within(at(board, "St Quentin"), 2)
    assert len(near) == 19
    assert all(rm.terrain(board, h) not in rm.PROHIBITED for h in near)


# --- refusing broken files -----------------------------------------------------------------------


def test_loader_lists_every_problem_in_one_error() -> None:
    broken = edited(
        ('name = "Lens"', 'name = "Arras"'),  # duplicate name
        (
            'hexsides = [["0906", "1007"], ["0907", "1007"]]',
            'hexsides = [["0906", "1207"], ["0907", "1007"]]',
        ),
        (
            '[south_entry]\nhex = "0620"\nprovenance = "rulebook 15.5.2"',
            '[south_entry]\nhex = "0620"',
        ),
    )
    with pytest.raises(DataError) as err:
        rm.load_map(broken)
    text = str(err.value)
    assert "\n" not in text
    assert "map.toml: places[Arras]: duplicate name 'Arras'" in text
    assert "hexes 0906 and 1207 are not adjacent" in text
    assert "south_entry: missing 'provenance'" in text


@pytest.mark.parametrize(
    ("edits", "message"),
    [
        (
            (('allies = "0920"\ngermans = "1020"', 'allies = "1020"\ngermans = "0920"'),),
            "the Allied hex must be west of the German one",
        ),
        (
            (('hexes = ["1703", "1803", "1804"]', 'hexes = ["1703", "1803"]'),),
            "antwerp.hexes: expected 3 different hexes, found 2",
        ),
        (
            (('hexes = ["1703", "1803", "1804"]', 'hexes = ["1703", "1803", "1504"]'),),
            "hex 1504 is major city, not clear (2.1.10)",
        ),
        (
            (('[south_entry]\nhex = "0620"', '[south_entry]\nhex = "0720"'),),
            "hex 0720 is not a railroad hex (15.5.2 C)",
        ),
        (
            (('allies = "west"', 'allies = "east"'),),
            "edges.allies: expected 'west' (rulebook 14.1 C)",
        ),
        (
            (
                (
                    'name = "Lens"\nhex = "0910"\nterrain = "town"',
                    'name = "Lens"\nhex = "0910"\nterrain = "city"',
                ),
            ),
            "terrain 'city', but the terrain grid shows 'town'",
        ),
        (
            (('"........XX........",', '"........X.........",'),),
            "expected exactly two entrenchment hexes (2.1.9), found 1",
        ),
        (
            (('  ["0920", "1020"],\n', ""),),
            "trench_line: must cut the land in two, found 1 part(s)",
        ),
        (
            (('  ["0804", "0904"],', '  ["0904", "0804"],'),),
            "pair 0904-0804 must be given [west, east]",
        ),
        ((('name = "Somme"', 'name = "Ancre"'),), "no river named 'Somme' (15.5.1)"),
        ((('hex = "0906"', 'hex = "0999"'),), "places[Ypres].hex: hex 0999 is not on the map"),
        ((('hex = "0906"', "hex = 906"),), 'expected a hex such as "0906", found 906'),
        ((('offset = "odd-q"', 'offset = "even-q"'),), "map.offset: 'even-q' is not one of odd-q"),
        (
            (
                (
                    'name = "Bruges-Zeebrugge"\nhexes = ["1103", "1102"]',
                    'name = "Bruges-Zeebrugge"\nhexes = ["1103", "1101"]',
                ),
            ),
            "railroads[Bruges-Zeebrugge]: hex 1101 is water",
        ),
    ],
)
def test_loader_refuses(edits: tuple[tuple[str, str], ...], message: str) -> None:
    with pytest.raises(DataError) as err:
        rm.load_map(edited(*edits))
    assert message in str(err.value)
    assert str(err.value).startswith("map.toml: ")


def test_behind_enemy_lines_must_be_ten_on_the_far_side() -> None:
    doc = tomllib.loads(RAW.decode())
    allies = doc["behind_enemy_lines"]["allies"]
    text = "allies = [" + ", ".join(f'"{h}"' for h in allies) + "]"
    fewer = "allies = [" + ", ".join(f'"{h}"' for h in ["0919", *allies[1:]]) + "]"
    with pytest.raises(DataError) as err:
        rm.load_map(edited((text, fewer)))
    message = str(err.value)
    assert "hexes on both lists: 0919" in message
    short = "allies = [" + ", ".join(f'"{h}"' for h in allies[:9]) + "]"
    with pytest.raises(DataError, match="expected 10 different hexes, found 9"):
        rm.load_map(edited((text, short)))
    wrong_side = "allies = [" + ", ".join(f'"{h}"' for h in ["0813", *allies[1:]]) + "]"
    with pytest.raises(DataError, match="hexes not east of the trench line: 0813"):
        rm.load_map(edited((text, wrong_side)))


def test_loader_refuses_bad_toml_and_missing_sections() -> None:
    with pytest.raises(DataError, match="map.toml: not valid TOML"):
        rm.load_map(b"[map\n")
    with pytest.raises(DataError) as err:
        rm.load_map(b'[map]\ncolumns = 4\nrows = 4\noffset = "odd-q"\n')
    text = str(err.value)
    assert "map: missing 'provenance'" in text
    assert "top level: missing section 'terrain'" in text
