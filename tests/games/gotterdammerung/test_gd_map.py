"""Götterdämmerung: the stand-in maps (data/map.toml) and their helpers.

Every hex number and place name the rulebook uses is checked here with the section it
comes from, and the facts issue 16 says the stand-in must match (4.25's adjacency, 6.45's
hexsides, the Front boundaries, the eight Transition Hexes); the loader refuses a broken
file with one DataError naming every problem."""

from __future__ import annotations

import json
import tomllib
from collections import deque
from typing import Any

import pytest

from pbem.errors import DataError
from pbem.games.datacheck import shipped_files
from pbem.games.gotterdammerung import map_data as gm
from pbem.games.gotterdammerung import tables

RAW = shipped_files(gm.PACKAGE, [gm.MAP_FILE])[gm.MAP_FILE]
RING = ["op:2220", "op:2221", "op:2222", "op:2323", "op:2422", "op:2421", "op:2420", "op:2320"]


@pytest.fixture(scope="module")
def board() -> dict[str, Any]:
    return gm.default_map()


def edited(*edits: tuple[str, str]) -> bytes:
    """The shipped text with each `old` (which must occur exactly once) replaced by `new`."""
    text = RAW.decode()
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
        text = text.replace(old, new)
    return text.encode()


def reachable(board: dict[str, Any], start: str, *, avoid: str) -> set[str]:
    """Operational hexes reachable from `start` without crossing a hexside with `avoid`."""
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in gm.neighbours(board, h, "op"):
            if n not in seen and avoid not in gm.hexside(board, h, n):
                seen.add(n)
                todo.append(n)
    return seen


# --- the shipped file ----------------------------------------------------------------------------


def test_shipped_map_loads_as_plain_json(board: dict[str, Any]) -> None:
    assert json.loads(json.dumps(board)) == board
    assert gm.load_map(RAW) == board
    kinds = [info["kind"] for info in board["hexes"].values()]
    assert kinds.count("transition") == 8
    assert kinds.count("unused") == 2
    assert 1000 < kinds.count("operational") < 1500  # a modest map: loads fast
    assert 100 < kinds.count("city") < 300


def test_every_item_has_a_provenance_and_stand_ins_say_so() -> None:
    doc = tomllib.loads(RAW.decode())
    items: list[dict[str, Any]] = []
    for value in doc.values():
        items.extend(value if isinstance(value, list) else [value])
    assert len(items) > 40
    for item in items:
        assert item["provenance"] == "stand-in" or item["provenance"].startswith("rulebook ")
        assert item.get("note"), item  # what is invented, or what the rulebook says
    assert doc["operational"]["provenance"] == "stand-in"  # the rulebook prints no map
    assert doc["city"]["provenance"] == "stand-in"


def test_names_match_the_terrain_effects_chart(board: dict[str, Any]) -> None:
    """The terrain and hexside names are those tables.py gives costs for."""
    assert {info["terrain"] for info in board["hexes"].values()} <= set(tables.HEX_TERRAINS)
    features = {f for names in board["hexsides"].values() for f in names}
    assert features <= set(tables.HEXSIDE_TERRAINS)
    wanted = {"minor-river", "river", "major-river", "sea-lake", "spree", "spree-bridge", "elbe"}
    assert wanted | {"front-boundary", "road", "railroad", "u-bahn"} <= features
    terrains = {info["terrain"] for info in board["hexes"].values()}
    assert terrains == set(tables.HEX_TERRAINS)  # every type is somewhere on the map


# --- 4.25: the grid and the two maps -------------------------------------------------------------


def test_4_25_zoc_example_adjacency(board: dict[str, Any]) -> None:
    """4.25: 1320 touches 1219, 1220, 1321, 1420 (City) and 2420 (Transition); 2420 touches
    2320, 2421 (Transition), 2419, 2520, 2521 (Operational) and City hexes 1019, 1119, 1219,
    1320, 1420; 2419 touches 2319, 2418, 2519, 2520 (Operational), 2320, 2420 (Transition)."""
    city = ["city:1219", "city:1220", "city:1321", "city:1420"]
    assert gm.neighbours(board, "city:1320") == [*city, "op:2420"]
    assert all(gm.kind(board, h) == "city" for h in city)
    assert gm.neighbours(board, "op:2420", "op") == [
        "op:2320",
        "op:2419",
        "op:2421",
        "op:2520",
        "op:2521",
    ]
    assert gm.neighbours(board, "op:2420", "city") == [
        "city:1019",
        "city:1119",
        "city:1219",
        "city:1320",
        "city:1420",
    ]
    assert [gm.kind(board, h) for h in ("op:2320", "op:2421", "op:2419", "op:2520")] == [
        "transition",
        "transition",
        "operational",
        "operational",
    ]
    assert gm.neighbours(board, "op:2419") == [
        "op:2319",
        "op:2320",
        "op:2418",
        "op:2420",
        "op:2519",
        "op:2520",
    ]
    assert gm.neighbours(board, "op:2419", "city") == []


@pytest.mark.parametrize("number", [1611, 1712, 2419, 2520, 3615, 3716, 1113, 1213, 3220])
def test_4_25_parity_rule(board: dict[str, Any], number: int) -> None:
    """Issue 16: an even XX touches XX-1 and XX+1 at YY and YY+1, an odd XX at YY-1 and YY."""
    xx, yy = divmod(number, 100)
    rows = (yy, yy + 1) if xx % 2 == 0 else (yy - 1, yy)
    wanted = {xx * 100 + yy - 1, xx * 100 + yy + 1}
    wanted |= {c * 100 + r for c in (xx - 1, xx + 1) for r in rows}
    near = {int(h[3:]) for h in gm.neighbours(board, gm.ref("op", number))}
    assert near == wanted


def test_hex_ids_carry_their_map(board: dict[str, Any]) -> None:
    """City and Operational numbers are separate series (issue 16): ids say which map."""
    assert gm.hex_at(board, "1320") == "city:1320"  # 4.25: a Berlin City hex
    assert gm.hex_at(board, "0825") == "city:0825"  # 8.43, 11.13
    assert gm.hex_at(board, "2419") == "op:2419"
    assert gm.hex_at(board, " 2419 ", on="op") == "op:2419"
    assert gm.hex_at(board, "city:2420") == "op:2420"  # 4.15: one hex on both maps
    assert gm.hex_at(board, "2420", on="city") == "op:2420"
    with pytest.raises(ValueError, match="no hex 1320 on the Operational Map"):
        gm.hex_at(board, "op:1320")
    with pytest.raises(ValueError, match="is not a hex"):
        gm.hex_at(board, "24-20")
    with pytest.raises(ValueError, match="not a hex of the maps"):
        gm.kind(board, "op:9999")


def test_2_1_hexes_2321_and_2322_are_not_used(board: dict[str, Any]) -> None:
    for h in ("op:2321", "op:2322"):
        assert gm.kind(board, h) == "unused"
        assert gm.neighbours(board, h) == []
    for info in board["hexes"].values():
        assert not {"op:2321", "op:2322"} & set(info["neighbours"])
    assert board["unused"] == ["op:2321", "op:2322"]


def test_4_15_eight_transition_hexes_on_both_maps(board: dict[str, Any]) -> None:
    """5.33 and 5.68: eight Transition Hexes; 4.15: each on both maps; here the ring
    around the unused 2321/2322 (the reading issue 16 documents)."""
    assert board["transition"] == sorted(RING)
    for h in RING:
        assert gm.on_map(board, h, "op") and gm.on_map(board, h, "city")
        assert gm.neighbours(board, h, "city"), h  # every one opens onto the City Map
        assert "op:2321" not in gm.neighbours(board, h)
    assert gm.on_map(board, "city:1320", "city") and not gm.on_map(board, "city:1320", "op")
    assert not gm.on_map(board, "op:2419", "city")
    # The ring is closed: each Transition Hex touches the next.
    for a, b in zip(RING, RING[1:] + RING[:1], strict=True):
        assert gm.adjacent(board, a, b)


def test_adjacency_is_symmetric(board: dict[str, Any]) -> None:
    for h, info in board["hexes"].items():
        for n in info["neighbours"]:
            assert h in board["hexes"][n]["neighbours"], (h, n)
            assert n != h


# --- the hexes the rulebook names ----------------------------------------------------------------

# Every 4-digit hex number in the rulebook (1945, a year, is not one), with its map and kind.
RULEBOOK_HEXES = {
    "0316": ("op:0316", "operational", "5.26"),
    "0407": ("op:0407", "operational", "11.13"),
    "0516": ("op:0516", "operational", "5.26"),
    "0616": ("op:0616", "operational", "5.26"),
    "0626": ("city:0626", "city", "11.13"),
    "0726": ("city:0726", "city", "11.13"),
    "0825": ("city:0825", "city", "8.43, 11.13"),
    "0829": ("city:0829", "city", "11.13"),
    "1019": ("city:1019", "city", "4.25"),
    "1113": ("op:1113", "operational", "5.27"),
    "1119": ("city:1119", "city", "4.25"),
    "1213": ("op:1213", "operational", "5.27"),
    "1219": ("city:1219", "city", "4.25"),
    "1220": ("city:1220", "city", "4.25"),
    "1320": ("city:1320", "city", "4.25"),
    "1321": ("city:1321", "city", "4.25"),
    "1420": ("city:1420", "city", "4.25"),
    "1518": ("op:1518", "operational", "5.26"),
    "1611": ("op:1611", "operational", "6.45"),
    "1711": ("op:1711", "operational", "6.45"),
    "1712": ("op:1712", "operational", "6.45"),
    "1812": ("op:1812", "operational", "11.13"),
    "2310": ("op:2310", "operational", "11.13"),
    "2319": ("op:2319", "operational", "4.25"),
    "2320": ("op:2320", "transition", "4.25"),
    "2321": ("op:2321", "unused", "2.1"),
    "2322": ("op:2322", "unused", "2.1"),
    "2324": ("op:2324", "operational", "8.33"),
    "2418": ("op:2418", "operational", "4.25"),
    "2419": ("op:2419", "operational", "4.25"),
    "2420": ("op:2420", "transition", "4.25"),
    "2421": ("op:2421", "transition", "4.25"),
    "2519": ("op:2519", "operational", "4.25"),
    "2520": ("op:2520", "operational", "4.25, 5.27"),
    "2521": ("op:2521", "operational", "4.25, 5.27"),
    "2726": ("op:2726", "operational", "11.13"),
    "2908": ("op:2908", "operational", "11.13"),
    "2928": ("op:2928", "operational", "11.13"),
    "3220": ("op:3220", "operational", "9.21, 11.13"),
    "3615": ("op:3615", "operational", "12.51"),
    "3625": ("op:3625", "operational", "8.32"),
    "3716": ("op:3716", "operational", "12.51"),
    "4110": ("op:4110", "operational", "11.13"),
}


@pytest.mark.parametrize("number", sorted(RULEBOOK_HEXES))
def test_every_hex_the_rulebook_names(board: dict[str, Any], number: str) -> None:
    h, kind, _section = RULEBOOK_HEXES[number]
    assert gm.kind(board, h) == kind
    if kind != "unused":
        assert gm.hex_at(board, number) == h  # the bare number is not ambiguous


VP_11_13 = [
    (25, "Reichstag", "city:0626"),
    (15, "Potsdam", "op:2726"),
    (5, "Reich Chancellery", "city:0825"),
    (5, "Brandenburg Gate", "city:0726"),
    (5, "Zoo", "city:0829"),
    (5, "Stettin", "op:0407"),
    (10, "Frankfurt an der Oder", "op:2908"),
    (10, "Zossen", "op:3220"),
    (10, "Beelitz", "op:2928"),
    (5, "Vrietzen", "op:1812"),
    (5, "Seelow", "op:2310"),
    (5, "Cottbus", "op:4110"),
]


def test_11_13_victory_point_hexes(board: dict[str, Any]) -> None:
    assert [(v["vp"], v["name"], v["hex"]) for v in board["vp"]] == VP_11_13
    for points, name, h in VP_11_13:
        assert board["hexes"][h]["vp"] == points
        assert gm.name_of(board, h) == name
        if h.startswith("op:"):  # the towns of the Operational Map are cities
            assert gm.terrain(board, h) in ("major-city", "small-city"), name
    assert sum(v["vp"] for v in board["vp"]) == 105
    assert "vp" not in board["hexes"]["op:3625"]


@pytest.mark.parametrize(
    ("name", "h"),
    [
        ("Jüterbog", "op:3625"),  # 8.32
        ("Spandau", "op:2324"),  # 8.33
        ("Führer Chancellery", "city:0825"),  # 8.43
        ("Führer bunker", "city:0825"),  # 11.13
        ("Parliament building", "city:0626"),  # 11.13
        ("Tsoo", "city:0829"),  # 11.13
        ("Frankfurt", "op:2908"),  # 2.23 "Frnk = Frankfurt (an der Oder)"
        ("Wriezen", "op:1812"),  # the real spelling of 11.13's Vrietzen
        ("Zossen", "op:3220"),  # 9.21: the Moltke battalion enters at hex 3220
    ],
)
def test_places_by_name_and_spelling(board: dict[str, Any], name: str, h: str) -> None:
    assert gm.place(board, name) == h


def test_unknown_place_is_refused(board: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="no place called 'Görlitz'"):
        gm.place(board, "Görlitz")


def test_spandau_is_beside_the_city() -> None:
    """8.33 puts the Alkett factory in Spandau; the stand-in keeps it next to a Transition
    Hex (west of Berlin), as the real Spandau is."""
    board = gm.default_map()
    assert gm.adjacent(board, "op:2324", "op:2323")


# --- hexsides ------------------------------------------------------------------------------------


def test_6_45_major_river_and_clear_hexside(board: dict[str, Any]) -> None:
    """6.45: Soviet units in 1611 and 1711 attack 1712; 1711-1712 is clear, so the major
    river modifier does not apply (1611-1712 is a major river)."""
    assert gm.adjacent(board, "op:1611", "op:1712")
    assert gm.adjacent(board, "op:1711", "op:1712")
    assert "major-river" in gm.hexside(board, "op:1611", "op:1712")
    assert gm.river(board, "op:1611", "op:1712") == "major-river"
    assert gm.hexside(board, "op:1711", "op:1712") == []
    assert gm.river(board, "op:1711", "op:1712") is None


@pytest.mark.parametrize(
    ("a", "b", "fronts"),
    [
        ("op:1113", "op:1213", "1bf-2bf"),  # 5.27
        ("op:2520", "op:2521", "1bf-1uf"),  # 5.27, 12.51
        ("op:3615", "op:3716", "1bf-1uf"),  # 12.51
    ],
)
def test_5_27_front_boundary_hexsides(board: dict[str, Any], a: str, b: str, fronts: str) -> None:
    assert "front-boundary" in gm.hexside(board, a, b)
    assert gm.front_boundary(board, a, b) == fronts
    assert gm.front_boundary(board, "op:2419", "op:2420") is None


def test_5_27_the_1bf_1uf_boundary_runs_from_2520_to_the_east_edge(board: dict[str, Any]) -> None:
    """5.27: only the line from the hexside 2520/2521 to the eastern edge; no boundary
    north or west of it."""
    sides = [key.split("|") for key in board["fronts"]["1bf-1uf"]]
    numbers = [(int(a[3:]), int(b[3:])) for a, b in sides]
    assert any(a % 100 == 1 or b % 100 == 1 for a, b in numbers)  # reaches rows ending 01
    assert all(min(a, b) // 100 >= 25 for a, b in numbers)  # nothing north of 2520
    assert all(max(a % 100, b % 100) <= 21 for a, b in numbers)  # nothing west of 2521


def test_4_26_the_spree(board: dict[str, Any]) -> None:
    """4.26, 5.36, 6.16: on the City Map the Spree is a full sea/lake hexside except where a
    bridge crosses it (then a river); on the Operational Map an ordinary major river."""
    city_spree = [k.split("|") for k, f in board["hexsides"].items() if "spree" in f]
    bridges = [k.split("|") for k, f in board["hexsides"].items() if "spree-bridge" in f]
    assert city_spree and bridges
    for a, b in city_spree:
        assert a.startswith("city:") and b.startswith("city:")
        assert gm.full_lake(board, a, b)
        assert gm.river(board, a, b) is None
    for a, b in bridges:
        assert not gm.full_lake(board, a, b)
        assert gm.river(board, a, b) == "river"
    spree = tomllib.loads(RAW.decode())["hexsides"]
    op_spree = [item for item in spree if item["name"] == "Spree" and item["map"] == "op"]
    assert [item["feature"] for item in op_spree] == ["major-river"]


def test_sea_lake_hexsides_and_minor_rivers(board: dict[str, Any]) -> None:
    lake = [k.split("|") for k, f in board["hexsides"].items() if "sea-lake" in f]
    assert lake and all(gm.full_lake(board, a, b) for a, b in lake)
    minor = [k.split("|") for k, f in board["hexsides"].items() if "minor-river" in f]
    assert minor and all(gm.river(board, a, b) == "minor-river" for a, b in minor)
    # 4.25: nothing blocks the ZOC of the example's hexes.
    for h in ("op:2419", "op:2420"):
        for n in gm.neighbours(board, h):
            assert not gm.full_lake(board, h, n)


def test_9_72_the_elbe_separates_the_americans(board: dict[str, Any]) -> None:
    """9.72: American units (entering at SW, 9.71) may not cross the Elbe; the Elbe is a
    major river (11.17 speaks of adjacency across one)."""
    elbe = [k.split("|") for k, f in board["hexsides"].items() if "elbe" in f]
    assert elbe and all("major-river" in gm.hexside(board, a, b) for a, b in elbe)
    american = reachable(board, board["entry"]["SW"][0], avoid="elbe")
    assert set(board["entry"]["SW"]) <= american
    assert "op:2419" not in american and "op:3625" not in american
    assert set(board["entry"]["W"]).isdisjoint(american)  # the 12th Army's edge: this side


def test_5_33_5_68_transition_hexes_linked_by_road_and_railroad(board: dict[str, Any]) -> None:
    for a, b in zip(RING, RING[1:] + RING[:1], strict=True):
        features = gm.hexside(board, a, b)
        assert "road" in features and "railroad" in features, (a, b)


def test_12_1_u_bahn_on_the_city_map(board: dict[str, Any]) -> None:
    lines = board["ubahn"]
    assert lines and all(line["map"] == "city" for line in lines)
    a, b = lines[0]["hexes"][:2]
    assert "u-bahn" in gm.hexside(board, a, b)
    for line in board["railroads"]:  # 5.35: no railroads on the City Map
        assert all(not h.startswith("city:") for h in line["hexes"])


def test_hexside_of_non_neighbours_is_refused(board: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        gm.hexside(board, "op:2419", "op:2421")
    with pytest.raises(ValueError, match="unknown map"):
        gm.neighbours(board, "op:2419", "sea")


# --- the North German Plain Box, entries, deployment, edges -----------------------------------


def test_5_26_north_german_plain_box(board: dict[str, Any]) -> None:
    box = board["ngp_box"]
    assert box["red_arrows"] == ["op:0316", "op:0516", "op:0616", "op:1518"]
    assert box["road_exits"] == ["op:0516", "op:0616", "op:1518"]  # 5.26: road benefit
    assert box["spaces"] == 8  # 9.23
    roads = {h for road in board["roads"] for h in road["hexes"]}
    assert set(box["road_exits"]) <= roads
    assert set(box["red_arrows"]) <= set(board["edges"]["north"])


def test_entry_hexes(board: dict[str, Any]) -> None:
    """9.16, 9.21, 9.22, 9.34, 9.5, 9.71: the lettered entry hexes N, NE, E, SE, S, SW, W."""
    assert list(board["entry"]) == ["N", "NE", "E", "SE", "S", "SW", "W"]
    edge = {
        "N": "north",
        "NE": "east",
        "E": "east",
        "SE": "east",
        "S": "south",
        "SW": "west",
        "W": "west",
    }
    for code, hexes in board["entry"].items():
        assert hexes and set(hexes) <= set(gm.edge_hexes(board, edge[code])), code
    # 9.16: the 344th enters at SW by railroad.
    rail = {h for line in board["railroads"] for h in line["hexes"]}
    assert set(board["entry"]["SW"]) & rail
    # Soviet reinforcements (9.5) enter east of the start line, German ones west of it.
    for code in ("NE", "E", "SE"):
        assert all(gm.east_of_start_line(board, h) for h in board["entry"][code])
    for code in ("N", "S", "SW", "W"):
        assert not any(gm.east_of_start_line(board, h) for h in board["entry"][code])


def test_10_22_deployment_areas_a_to_j(board: dict[str, Any]) -> None:
    assert list(board["deployment"]) == ["A", "B", "C", "D", "E", "F", "G", "H", "J"]
    seen: set[str] = set()
    for hexes in board["deployment"].values():
        assert hexes and all(gm.kind(board, h) == "operational" for h in hexes)
        assert not any(gm.east_of_start_line(board, h) for h in hexes)
        assert seen.isdisjoint(hexes)
        seen |= set(hexes)


def test_8_18_start_line(board: dict[str, Any]) -> None:
    assert gm.east_of_start_line(board, "op:1711")  # 6.45's Soviet bridgehead
    assert gm.east_of_start_line(board, "op:2001")
    assert not gm.east_of_start_line(board, "op:2419")
    assert not gm.east_of_start_line(board, "city:1320")


def test_8_12_edges(board: dict[str, Any]) -> None:
    """8.12: the east edge hexes are the Soviet supply sources; on turn 1 those ending 01."""
    east = gm.edge_hexes(board, "east")
    assert east and all(h.endswith("01") for h in east)
    assert all(h.endswith("32") for h in gm.edge_hexes(board, "west"))
    assert all(h.startswith("op:44") for h in gm.edge_hexes(board, "south"))
    with pytest.raises(ValueError, match="unknown edge"):
        gm.edge_hexes(board, "up")


def test_fortifications_are_operational(board: dict[str, Any]) -> None:
    forts = [h for h, info in board["hexes"].items() if info["fortified"]]
    assert forts and all(gm.fortified(board, h) for h in forts)
    assert all(h.startswith("op:") for h in forts)
    assert not gm.fortified(board, "op:2419")


# --- the grids -----------------------------------------------------------------------------------


def test_grids_are_cached_and_carry_the_features(board: dict[str, Any]) -> None:
    grids = gm.grids(board)
    assert gm.grids(board) is grids
    op, city = grids["op"], grids["city"]
    assert 2321 in op and 1320 not in op and 1320 in city
    assert op.has(1611, 1712, "major-river")
    assert op.distance(2419, 2420) == 1
    assert sorted(op.neighbours(2420)) == [2320, 2321, 2419, 2421, 2520, 2521]
    assert op.terrain_of(2726) == "major-city"
    copy = json.loads(json.dumps(board))
    assert gm.grids(copy) is not grids


# --- broken files --------------------------------------------------------------------------------


def test_broken_file_gives_one_line_per_problem() -> None:
    raw = edited(
        ('hex = "0626"', 'hex = "0627"'),
        ('red_arrows = ["0316", "0516", "0616", "1518"]', 'red_arrows = ["0316", "0516"]'),
        ('area = "J"', 'area = "I"'),
        ('"1611-1712"', '"1611-1713"'),
    )
    with pytest.raises(DataError) as caught:
        gm.load_map(raw)
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith("map.toml: ")
    assert "places[Reichstag]: expected 'city:0626' (11.13), found 'city:0627'" in text
    assert "ngp_box.red_arrows: expected ['0316', '0516', '0616', '1518'] (5.26)" in text
    assert "deployment[I].area: 'I' is not one of A, B, C, D, E, F, G, H, J" in text
    assert "deployment: missing area(s) J (10.22)" in text
    assert "hexes 1611 and 1713 are not neighbours" in text


def test_broken_grid_and_transition_hexes_are_refused() -> None:
    with pytest.raises(DataError, match="expected 8 hexes"):
        gm.load_map(edited(('hexes = ["2220", "2221",', 'hexes = ["2221",')))
    with pytest.raises(DataError, match=r"unknown 'x'"):
        text = RAW.decode()
        start = text.index('terrain = [\n  "') + len('terrain = [\n  "')
        gm.load_map((text[:start] + "x" + text[start + 1 :]).encode())
    with pytest.raises(DataError, match="expected 'stand-in' or 'rulebook <section>'"):
        gm.load_map(
            edited(
                ('provenance = "rulebook 2.1"\nnote = "two', 'provenance = "maybe"\nnote = "two')
            )
        )
    with pytest.raises(DataError, match="not valid TOML"):
        gm.load_map(b"[map\n")
