"""Race to Berlin data: the shipped files load, what the rulebook states holds, provenance,
the helpers, and validation errors for broken user files (generated from the shipped text)."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from typing import Any

import pytest

from pbem.errors import DataError
from pbem.games.race_to_berlin import data as rtb

FILES = rtb.default_data()
MAP = FILES["map.toml"]
TOKENS = FILES["tokens.toml"]
BERLIN = ["B1", "B2", "B3", "B4", "B5"]


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return rtb.load_data({})


def edited(raw: bytes, *edits: tuple[str, str]) -> bytes:
    """The shipped text with each `old` (which must occur exactly once) replaced by `new`."""
    text = raw.decode()
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
        text = text.replace(old, new)
    return text.encode()


def units_in(data: dict[str, Any], area: str) -> list[dict[str, Any]]:
    return [u for u in data["units"] if u["area"] == area]


# --- the shipped files ---------------------------------------------------------------------------


def test_shipped_files_load_as_plain_json(data: dict[str, Any]) -> None:
    assert set(FILES) == {"map.toml", "tokens.toml"}
    assert rtb.load_data(FILES) == data
    assert data == {**rtb.load_map(MAP), **rtb.load_tokens(TOKENS)}
    assert json.loads(json.dumps(data)) == data  # no tuples, sets or other non-JSON values

    def walk(node: Any) -> None:
        assert node is not None and not isinstance(node, float | tuple | set), node
        if isinstance(node, dict):
            assert all(isinstance(k, str) for k in node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)


def test_area_ids_are_strings_numbered_then_berlin(data: dict[str, Any]) -> None:
    assert data["area_ids"] == [str(n) for n in range(1, 33)] + BERLIN
    assert list(data["areas"]) == data["area_ids"]
    assert all(u["area"] == "" or isinstance(u["area"], str) for u in data["units"])


def test_every_item_has_a_provenance() -> None:
    seen: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if where:  # every table but the document itself
                assert "provenance" in node, where
                seen.append(node["provenance"])
                if "eagle" in node:
                    seen.append(node["eagle_provenance"])
            for key, value in node.items():
                if isinstance(value, dict | list):
                    walk(value, f"{where}.{key}" if where else key)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                if isinstance(item, dict):
                    walk(item, f"{where}[{i}]")

    for raw in (MAP, TOKENS):
        walk(tomllib.loads(raw.decode()), "")
    assert len(seen) > 200
    assert all(p == "stand-in" or p.startswith("rulebook ") for p in seen)
    doc = tomllib.loads(MAP.decode())
    berlin_borders = [b for b in doc["border"] if any(a.startswith("B") for a in b["between"])]
    assert len(berlin_borders) == 20
    assert {b["provenance"] for b in berlin_borders} == {"rulebook 4.5"}
    sixth_ss = [u for u in doc["unit"] if u["name"] == "6th SS Panzer Army"]
    assert all(u["provenance"].startswith("rulebook 4.3") for u in sixth_ss)


# --- what the rulebook states --------------------------------------------------------------------


def test_rulebook_1_component_counts(data: dict[str, Any]) -> None:
    """rulebook 1: 2x25 front line markers, 2x8 logistics blocks, 2x20 action cubes, 40 units,
    16 special tokens, 16 fortifications in 3 types, 2x4 victory point tokens."""
    assert data["front_markers"] == 25
    assert {p: len(v) for p, v in data["logistics"].items()} == {"west": 8, "soviet": 8}
    assert data["action_cubes"] == 20
    assert len(data["units"]) == 40
    assert sum(len(tokens) for tokens in data["special"].values()) == 16
    assert len(data["fortifications"]) == 16
    assert {f["kind"] for f in data["fortifications"]} == {"improved", "regular", "major"}
    assert data["victory_tokens"] == 4
    assert len(data["eagles"]["blue"]) == len(data["eagles"]["red"]) == 4


def test_rulebook_1_fortification_types_and_the_stand_in_split(data: dict[str, Any]) -> None:
    """rulebook 4.2.1.2: improved +1, regular +2, major also only +2. The split is a stand-in."""
    kinds = {(f["value"], f["kind"], f["defense"]) for f in data["fortifications"]}
    assert kinds == {(1, "improved", 1), (2, "regular", 2), (3, "major", 2)}
    assert Counter(f["kind"] for f in data["fortifications"]) == {
        "major": 4,
        "regular": 8,
        "improved": 4,
    }
    names = {f["area"]: f["name"] for f in data["fortifications"]}
    assert names["5"].startswith("Westwall") and names["22"] == "Pomeranian Wall"
    assert all(data["areas"][f["area"]]["control"] == "german" for f in data["fortifications"])
    assert len(names) == 16  # one token per area


def test_rulebook_1_forces_and_unit_counts_per_front(data: dict[str, Any]) -> None:
    """rulebook 1: Western Allies armies, Red Army fronts, Germans on two fronts."""
    assert Counter(u["force"] for u in data["units"]) == {
        "west": 8,
        "soviet": 8,
        "german-west": 12,
        "german-east": 12,
    }
    names = {u["name"] for u in data["units"]}
    assert {"US 1st Army", "British 2nd Army", "1st Belorussian Front"} <= names


def test_rulebook_2_german_units_start_at_strength_4(data: dict[str, Any]) -> None:
    """rulebook 2: all German units have 4 strength points; West and Soviet units have none."""
    for unit in data["units"]:
        if unit["force"].startswith("german-"):
            assert unit["strength"] == 4, unit
        else:
            assert "strength" not in unit, unit


def test_rulebook_4_1_logistics_blocks_two_each_of_2_3_4_5(data: dict[str, Any]) -> None:
    """rulebook 4.1: an identical set of 8 blocks per player, 2 of each value 2, 3, 4, 5."""
    assert data["logistics"] == {
        "west": [2, 2, 3, 3, 4, 4, 5, 5],
        "soviet": [2, 2, 3, 3, 4, 4, 5, 5],
    }
    doc = tomllib.loads(TOKENS.decode())
    assert {b["provenance"] for b in doc["logistics"]} == {"rulebook 4.1"}


def test_rulebook_4_1_1_players_play_their_force_and_the_germans_facing_the_other(
    data: dict[str, Any],
) -> None:
    """rulebook 4.1.1 and Special tokens: 8 per player, each assigned to a force it plays."""
    assert data["controls"] == {
        "west": ["west", "german-east"],
        "soviet": ["soviet", "german-west"],
    }
    for player, tokens in data["special"].items():
        assert len(tokens) == 8
        assert {t["force"] for t in tokens} == set(data["controls"][player])
        assert len({t["id"] for t in tokens}) == 8
        # Counterattack needs defending German units with strength (rulebook: Special tokens)
        assert all(t["force"].startswith("german-") for t in tokens if t["kind"] == "counterattack")
        own = Counter(t["kind"] for t in tokens if t["force"] == player)
        assert own == {"logistics": 2, "support": 1, "reserves": 1}  # the stand-in mix


def test_rulebook_4_3_two_sixth_ss_panzer_army_tokens(data: dict[str, Any]) -> None:
    """rulebook 4.3: the Western Front 6th SS Panzer Army is on the board; after turn 1 it is
    replaced by the Eastern Front token, which starts off the board."""
    tokens = [u for u in data["units"] if u["name"] == "6th SS Panzer Army"]
    west = next(u for u in tokens if u["force"] == "german-west")
    east = next(u for u in tokens if u["force"] == "german-east")
    assert len(tokens) == 2
    assert west["area"] and not west["reserve"]
    assert data["areas"][west["area"]]["front"] == "west"
    assert east == {
        "id": "de-6sspz-east",
        "name": "6th SS Panzer Army",
        "force": "german-east",
        "area": "",
        "reserve": True,
        "strength": 4,
        "replaces": west["id"],
    }
    assert [u["id"] for u in data["units"] if u["reserve"]] == [east["id"]]


def test_rulebook_4_4_supply_bases(data: dict[str, Any]) -> None:
    """rulebook 4.4: West from the western and southern edges, Soviets from the eastern edge,
    Germans from the eagle areas (and B1, rulebook 4.2.1.1)."""
    edges = data["edges"]
    bases = data["supply_bases"]
    assert bases["west"] == sorted(set(edges["west"]) | set(edges["south"]), key=int)
    assert bases["soviet"] == edges["east"] == ["28", "29", "30"]
    eagles = data["eagles"]
    assert set(bases["german"]) == set(eagles["blue"]) | set(eagles["red"]) | {"B1"}
    control = rtb.initial_control(data)
    for force in ("west", "soviet", "german"):
        own = [a for a in data["area_ids"] if control[a] == force]
        assert rtb.supplied_areas(control, data, force) == own, force
    assert {a for a in edges["west"] if control[a] == "west"} == {"1", "2", "3"}


def test_rulebook_4_5_berlin_sub_areas_adjacency(data: dict[str, Any]) -> None:
    """rulebook 4.5: all five sub-areas are adjacent to each other and to 31 and 32 only."""
    for sub in BERLIN:
        expected = {"31", "32"} | (set(BERLIN) - {sub})
        assert set(rtb.neighbours(data, sub)) == expected, sub
    assert rtb.neighbours(data, "B1") == ["31", "32", "B2", "B3", "B4", "B5"]


def test_rulebook_4_5_areas_31_and_32_touch_berlin_and_nothing_else_does(
    data: dict[str, Any],
) -> None:
    touching = {a for a in data["area_ids"] if set(rtb.neighbours(data, a)) & set(BERLIN)}
    assert touching - set(BERLIN) == {"31", "32"}
    for ring in ("31", "32"):
        assert set(BERLIN) <= set(rtb.neighbours(data, ring))
    assert data["berlin_access"] == ["31", "32"]


def test_rulebook_4_5_berlin_kinds_and_restrictions_at_start(data: dict[str, Any]) -> None:
    """rulebook 4.5: B1 centre, B2/B3 eastern, B4/B5 western; Germans in Berlin only in B1;
    at most 3 units a force in Berlin; rulebook 4.2.1.1: at most 3 units an area."""
    assert {b: data["areas"][b]["berlin"] for b in BERLIN} == {
        "B1": "center",
        "B2": "east",
        "B3": "east",
        "B4": "west",
        "B5": "west",
    }
    assert all(data["areas"][b]["control"] == "german" for b in BERLIN)
    assert not any(data["areas"][a]["berlin"] for a in data["area_ids"] if a not in BERLIN)
    for sub in ("B2", "B3", "B4", "B5"):
        assert not units_in(data, sub)
    assert len(units_in(data, "B1")) <= 3
    stacks = Counter(u["area"] for u in data["units"] if u["area"])
    assert max(stacks.values()) == 3


def test_rulebook_5_b1_has_the_two_colour_eagle(data: dict[str, Any]) -> None:
    """rulebook 5: B1 has a 2-colour eagle (automatic victory, no point); rulebook 1: Essen and
    Breslau are victory point areas."""
    assert data["eagles"]["both"] == ["B1"]
    assert data["areas"]["B1"]["eagle"] == "both"
    named = {data["areas"][a]["name"]: a for a in data["area_ids"]}
    assert named["Ruhr"] in data["eagles"]["blue"] and "Essen" in data["areas"]["7"]["places"]
    assert named["Lower Silesia"] in data["eagles"]["red"]
    assert "Breslau" in data["areas"]["24"]["places"]
    for colour in ("blue", "red"):
        assert all(data["areas"][a]["control"] == "german" for a in data["eagles"][colour])


def test_initial_front_markers_within_25_per_player(data: dict[str, Any]) -> None:
    """rulebook 1: 25 front line markers per player; the front at start follows from control."""
    control = rtb.initial_control(data)
    counts = {p: len(rtb.front_borders(control, data, p)) for p in ("west", "soviet")}
    print(f"initial front line markers: West {counts['west']}, Soviet {counts['soviet']}")
    assert counts == {"west": 5, "soviet": 5}
    assert all(n <= data["front_markers"] for n in counts.values())
    assert {p: len(v) for p, v in data["initial_front"].items()} == counts
    assert data["initial_front"]["west"] == [
        ["1", "4"],
        ["1", "5"],
        ["2", "5"],
        ["2", "6"],
        ["3", "6"],
    ]


# --- the helpers ---------------------------------------------------------------------------------


def test_neighbours_and_rivers(data: dict[str, Any]) -> None:
    assert rtb.neighbours(data, "5") == ["1", "2", "4", "6", "7", "8"]
    assert rtb.is_river(data, "5", "8") and rtb.is_river(data, "8", "5")  # the Rhine at Remagen
    assert not rtb.is_river(data, "4", "5")
    assert not rtb.is_river(data, "31", "B1")
    with pytest.raises(ValueError, match="share no border"):
        rtb.is_river(data, "1", "32")
    with pytest.raises(KeyError, match="unknown area '33'"):
        rtb.neighbours(data, "33")


def test_front_borders_put_two_markers_where_west_and_soviet_meet(data: dict[str, Any]) -> None:
    """rulebook 4.2.1.2: where Western and Soviet areas are adjacent, both put a marker."""
    control = rtb.initial_control(data)
    control.update({"31": "west", "32": "soviet"})
    west = rtb.front_borders(control, data, "west")
    soviet = rtb.front_borders(control, data, "soviet")
    assert ("31", "32") in west and ("31", "32") in soviet
    assert all(isinstance(b, tuple) for b in west)
    with pytest.raises(ValueError, match="lacks area"):
        rtb.front_borders({"1": "west"}, data, "west")
    with pytest.raises(ValueError, match="unknown force"):
        rtb.front_borders(control, data, "german-east")


def test_supply_is_cut_by_an_encirclement(data: dict[str, Any]) -> None:
    """rulebook 4.4: an area is supplied through a chain of friendly areas from a base."""
    control = rtb.initial_control(data)
    # The Soviets take Lusatia & Dresden (27): still supplied only if linked to the east edge.
    control["27"] = "soviet"
    assert "27" not in rtb.supplied_areas(control, data, "soviet")
    control.update({"18": "soviet", "21": "soviet", "24": "soviet"})
    assert "27" in rtb.supplied_areas(control, data, "soviet")
    # The West takes the Ruhr, Frankfurt and Nuremberg: the Westwall is pocketed, the rest of
    # the Western Front still reaches Hamburg.
    control = rtb.initial_control(data)
    control.update({a: "west" for a in ("7", "8", "12")})
    supplied = rtb.supplied_areas(control, data, "german")
    assert not {"4", "5", "6", "9"} & set(supplied)
    assert {"10", "11", "13", "14", "15", "31"} <= set(supplied)


# --- validation of user files --------------------------------------------------------------------


def test_user_map_replaces_the_default() -> None:
    raw = edited(MAP, ('name = "Sandomierz"', 'name = "Sandomierz & Baranow"'))
    loaded = rtb.load_data({"map.toml": raw})
    assert loaded["areas"]["30"]["name"] == "Sandomierz & Baranow"
    assert loaded["logistics"]["west"] == [2, 2, 3, 3, 4, 4, 5, 5]  # tokens: the default


MAP_ERRORS = [
    # (edits, message)
    (
        [('between = ["27", "32"]', 'between = ["27", "33"]')],
        "map.toml: border 27-33: unknown area '33'",
    ),
    (
        [('between = ["26", "27"]', 'between = ["26", "26"]')],
        "map.toml: border 26-26: self-loop: area 26 cannot border itself",
    ),
    (
        [('between = ["22", "23"]', 'between = ["24", "23"]')],
        "map.toml: border 23-24: repeats border 24-23: borders are symmetric, give each pair once",
    ),
    (
        [('between = ["22", "23"]', 'between = ["23", "24"]')],
        "map.toml: border 23-24: duplicate border",
    ),
    (
        [("terrain = 2  # the Masurian Lakes", "terrain = 3")],
        "map.toml: area[16].terrain: 3 is not in 0..2",
    ),
    (
        [
            (
                '"Giessen"]\ncontrol = "german"\nfront = "west"\nterrain = 0\neagle = "blue"',
                '"Giessen"]\ncontrol = "german"\nfront = "west"\nterrain = 0\neagle = "red"',
            )
        ],
        "map.toml: area: expected 4 blue eagle areas (rulebook 1: victory point tokens 2x4), "
        "found 3: 7, 12, 13",
    ),
    (
        [
            (
                'terrain = 0\nprovenance = "stand-in"\n\n[[area]]\nid = "21"',
                'terrain = 0\n\n[[area]]\nid = "21"',
            )
        ],
        "map.toml: area[20]: missing 'provenance' (a rulebook section or 'stand-in')",
    ),
    (
        [('provenance = "rulebook 4.5 (terrain stand-in)"', 'provenance = "my uncle"')],
        "map.toml: area[B1].provenance: expected 'stand-in' or 'rulebook <section>', "
        "found 'my uncle'",
    ),
    (
        [('name = "Festung Posen", value = 1', 'name = "Festung Posen", value = 4')],
        "map.toml: fortification[festung-posen].value: 4 is not in 1..3",
    ),
    (
        [
            (
                '  { id = "festung-posen", name = "Festung Posen", value = 1, area = "23", '
                'provenance = "stand-in" },\n',
                "",
            )
        ],
        "map.toml: fortification: expected 16 fortification tokens (rulebook 1), found 15",
    ),
    (
        [('value = 1, area = "23"', 'value = 1, area = "1"')],
        "map.toml: fortification[festung-posen].area: fortifications start in German areas, "
        "1 is 'west'",
    ),
    (
        [('force = "german-west", area = "15"', 'force = "german-north", area = "15"')],
        "map.toml: unit[de-12].force: 'german-north' is not one of west, soviet, german-west, "
        "german-east",
    ),
    (
        [('force = "german-west", area = "15"', 'force = "german-west", area = "5"')],
        "map.toml: area[5]: 4 units at start (de-15, de-5pz, de-6sspz-west, de-12); at most 3 "
        "(rulebook 4.2.1.1)",
    ),
    (
        [('force = "german-west", area = "15"', 'force = "german-west", area = "B2"')],
        "map.toml: unit[de-12].area: German units in Berlin only in B1 (rulebook 4.5)",
    ),
    (
        [
            ('force = "german-west", area = "13"', 'force = "german-west", area = "B1"'),
            ('force = "german-west", area = "14"', 'force = "german-west", area = "B1"'),
            ('force = "german-west", area = "15"', 'force = "german-west", area = "B1"'),
            ('force = "german-east", area = "25"', 'force = "german-east", area = "B1"'),
        ],
        "map.toml: Berlin: 4 German units at start (de-blumentritt, de-11, de-12, de-steiner); "
        "at most 3 per force in all of Berlin (rulebook 4.5)",
    ),
    (
        [('[[border]]\nbetween = ["32", "B1"]\nprovenance = "rulebook 4.5"\n\n', "")],
        "map.toml: area[B1]: a Berlin sub-area borders the other four and areas 31 and 32 only "
        "(rulebook 4.5); missing 32, extra none",
    ),
    (
        [('between = ["27", "32"]', 'between = ["27", "B3"]')],
        "map.toml: area[B3]: a Berlin sub-area borders the other four and areas 31 and 32 only "
        "(rulebook 4.5); missing none, extra 27",
    ),
    (
        [
            (
                'places = ["Lichtenberg", "Weissensee"]\nberlin = "east"',
                'places = ["Lichtenberg", "Weissensee"]\nberlin = "west"',
            )
        ],
        "map.toml: area[B2].berlin: B2 is 'east' Berlin (rulebook 4.5), found 'west'",
    ),
    (
        [
            ('[[border]]\nbetween = ["2", "3"]\nprovenance = "stand-in"\n\n', ""),
            ('edges = ["west", "south"]', "edges = []"),
        ],
        "map.toml: area: West area(s) 3 not connected to the western or southern edge through "
        "West areas at start (rulebook 4.4)",
    ),
    (
        [
            ('[[border]]\nbetween = ["29", "30"]\nprovenance = "stand-in"\n\n', ""),
            (
                'between = ["18", "30"]  # the Baranow bridgehead is across the Vistula\n'
                'provenance = "stand-in"\n\n[[border]]\n',
                "",
            ),
        ],
        "map.toml: border: the map is not connected: 30 cut off",
    ),
    (
        [('id = "30"', "id = 30")],
        'map.toml: area #30.id: area ids are strings: write id = "30", not 30',
    ),
    (
        [('id = "30"', 'id = "33"')],
        "map.toml: area: numbered areas must run 1..N without gaps; missing [30]",
    ),
    (
        [
            (
                'name = "12th Army", force = "german-west", area = "15", strength = 4',
                'name = "12th Army", force = "german-west", area = "15", strength = 3',
            )
        ],
        "map.toml: unit[de-12].strength: German units start at strength 4 (rulebook 2), found 3",
    ),
    (
        [
            (
                'name = "Polish 2nd Army", force = "soviet", area = "30",',
                'name = "Polish 2nd Army", force = "soviet", area = "30", strength = 4,',
            )
        ],
        "map.toml: unit[pl-2].strength: West and Soviet units have no strength (rulebook 2)",
    ),
    (
        [('replaces = "de-6sspz-west"', 'replaces = "de-1"')],
        "map.toml: unit[de-6sspz-east].replaces: 'de-1' is '1st Army', not '6th SS Panzer Army': "
        "one formation changes fronts (rulebook 4.3)",
    ),
    (
        [('force = "german-west", area = "15"', 'force = "german-west", area = "17"')],
        "map.toml: unit[de-12].area: a german-west unit starts on the western front, area 17 is on "
        "the eastern front",
    ),
    (
        [
            (
                '"US 7th Army", force = "west", area = "3"',
                '"US 7th Army", force = "west", area = "30"',
            )
        ],
        "map.toml: unit[us-7].area: a west unit starts in a west area, 30 is 'soviet'",
    ),
    (
        [("river = true  # the Neisse", "rivr = true")],
        "map.toml: border 24-27: unknown field 'rivr' (known: between, river, provenance)",
    ),
    (
        [('front = "east"\nterrain = 1  # the Seelow Heights', "terrain = 1")],
        'map.toml: area[32]: a German area needs front = "west" or "east" (its units at start)',
    ),
    (
        [('eagle = "both"', 'eagle = "blue"')],
        'map.toml: area[B1].eagle: B1 has the two-colour eagle: eagle = "both" (rulebook 5)',
    ),
    (
        [
            (
                'edges = ["east"]\nprovenance = "stand-in"\n\n[[area]]\nid = "30"',
                'edges = ["east"]\neagle = "red"\neagle_provenance = "stand-in"\n'
                'provenance = "stand-in"\n\n[[area]]\nid = "30"',
            )
        ],
        "map.toml: area[29].eagle: eagle areas are German at start (rulebook 4.4, 5), this one is "
        "'soviet'",
    ),
]


@pytest.mark.parametrize(
    "edits,message", MAP_ERRORS, ids=[m.split(": ", 2)[1] for _, m in MAP_ERRORS]
)
def test_broken_map_names_file_item_and_problem(edits: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(DataError) as info:
        rtb.load_data({"map.toml": edited(MAP, *edits)})
    assert message in str(info.value)


def test_broken_map_reports_every_problem_of_a_stage() -> None:
    raw = edited(
        MAP,
        ("terrain = 2  # the Masurian Lakes", "terrain = 3"),
        ('name = "Festung Posen", value = 1', 'name = "Festung Posen", value = 4'),
    )
    with pytest.raises(DataError) as info:
        rtb.load_map(raw)
    assert str(info.value) == (
        "map.toml: area[16].terrain: 3 is not in 0..2; "
        "map.toml: fortification[festung-posen].value: 4 is not in 1..3"
    )


def test_broken_map_with_too_long_a_front(monkeypatch: pytest.MonkeyPatch) -> None:
    """rulebook 1: the front at start must fit the 25 markers (here a limit of 4 to trip it)."""
    monkeypatch.setattr(rtb, "FRONT_MARKERS", 4)
    with pytest.raises(DataError) as info:
        rtb.load_map(MAP)
    assert (
        "map.toml: area: the West front at start needs 5 front line markers, there are only 4"
        in (str(info.value))
    )


def test_broken_map_40_units() -> None:
    line = (
        '  { id = "pl-2", name = "Polish 2nd Army", force = "soviet", area = "30", '
        'provenance = "stand-in" },\n'
    )
    extra = line.replace('"pl-2"', '"pl-3"').replace("Polish 2nd Army", "Polish 3rd Army")
    with pytest.raises(DataError, match=r"unit: expected 40 unit tokens \(rulebook 1\), found 41"):
        rtb.load_map(edited(MAP, (line, line + extra)))


def test_broken_files_that_are_not_toml() -> None:
    with pytest.raises(DataError, match="map.toml: not UTF-8"):
        rtb.load_map(b"\xff\xfe")
    with pytest.raises(DataError, match="map.toml: not valid TOML"):
        rtb.load_map(MAP + b"\n[map]\n")
    with pytest.raises(DataError, match=r"map.toml: top level: unknown section\(s\) weather"):
        rtb.load_map(MAP + b"\n[weather]\nprovenance = 'stand-in'\n")
    with pytest.raises(DataError, match="rules.toml: unknown data file for race_to_berlin"):
        rtb.load_data({"rules.toml": b""})
    with pytest.raises(DataError, match="tokens.toml: expected bytes, found str"):
        rtb.load_data({"tokens.toml": TOKENS.decode()})  # type: ignore[dict-item]


TOKEN_ERRORS = [
    (
        [
            (
                'player = "west"\nvalues = [2, 2, 3, 3, 4, 4, 5, 5]',
                'player = "west"\nvalues = [2, 2, 3, 3, 4, 4, 5, 6]',
            )
        ],
        "tokens.toml: logistics[west].values: expected [2, 2, 3, 3, 4, 4, 5, 5] (rulebook 4.1: 2 "
        "each of 2, 3, 4, 5), found [2, 2, 3, 3, 4, 4, 5, 6]",
    ),
    (
        [("per_player = 20", "per_player = 19")],
        "tokens.toml: action_cubes.per_player: expected 20 (rulebook 1), found 19",
    ),
    (
        [("per_player = 25", "per_player = 30")],
        "tokens.toml: front_markers.per_player: expected 25 (rulebook 1), found 30",
    ),
    (
        [('force = "west", kind = "reserves"', 'force = "west", kind = "counterattack"')],
        "tokens.toml: special[west, west, counterattack].kind: Counterattack is played for "
        "defending German units",
    ),
    (
        [('force = "german-east", kind = "support"', 'force = "german-west", kind = "support"')],
        "tokens.toml: special[west, german-west, support].force: the west player plays west and "
        "german-east, not german-west (rulebook 4.1.1)",
    ),
    (
        [
            (
                'force = "west", kind = "logistics", count = 2',
                'force = "west", kind = "logistics", count = 3',
            )
        ],
        "tokens.toml: special: the west player has 9 special tokens, expected 8",
    ),
    (
        [('force = "soviet", kind = "support"', 'force = "soviet", kind = "airstrike"')],
        "tokens.toml: special #8.kind: 'airstrike' is not one of logistics, support, "
        "counterattack, reserves",
    ),
    (
        [('player = "soviet"\nvalues', 'player = "west"\nvalues')],
        "tokens.toml: logistics[west]: the west player's blocks are given twice",
    ),
]


@pytest.mark.parametrize("edits,message", TOKEN_ERRORS)
def test_broken_tokens_name_file_item_and_problem(
    edits: list[tuple[str, str]], message: str
) -> None:
    with pytest.raises(DataError) as info:
        rtb.load_data({"tokens.toml": edited(TOKENS, *edits)})
    assert message in str(info.value)
