"""Berlin 1945 data: broken user files (generated from the shipped text) each give one
DataError naming the file, the item and the problem."""

from __future__ import annotations

import pytest

from pbem.errors import DataError
from pbem.games.berlin_1945 import data as b45_data
from pbem.games.berlin_1945 import map_file

FILES = b45_data.default_data()


def edited(name: str, *edits: tuple[str, str]) -> bytes:
    """The shipped text with each `old` (which must occur exactly once) replaced by `new`."""
    text = FILES[name].decode()
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {name}"
        text = text.replace(old, new)
    return text.encode()


def problems(name: str, *edits: tuple[str, str]) -> str:
    with pytest.raises(DataError) as info:
        b45_data.load_data({name: edited(name, *edits)})
    return str(info.value)


def border(a: str, b: str) -> str:
    return f'{{ between = ["{a}", "{b}"], provenance = "stand-in" }}'


def in_card(deck: str, number: int, old: str, new: str) -> tuple[str, str]:
    """An edit of the first `old` inside one card's block of cards.toml."""
    text = FILES["cards.toml"].decode()
    start = text.index(f'[[card]]\ndeck = "{deck}"\nnumber = {number}\n')
    end = text.find("\n[[card]]\n", start + 1)
    block = text[start : end if end > 0 else len(text)]
    assert old in block, (deck, number, old)
    return (block, block.replace(old, new, 1))


MAP_ERRORS = [
    # (edits, message)
    (
        [(border("A", "15"), border("A", "19"))],
        "map.toml: border A-19: unknown zone '19'",
    ),
    (
        [(border("A", "16"), border("A", "A"))],
        "map.toml: border A-A: self-loop: zone A cannot border itself",
    ),
    (
        [(border("B", "16"), border("16", "A"))],
        "map.toml: border 16-A: repeats border A-16: pairs are symmetric, give each pair once",
    ),
    (
        [(border("B", "16"), border("A", "16"))],
        "map.toml: border A-16: given twice",
    ),
    (  # rulebook 5.1: 7 is adjacent to 1
        [
            (
                '  { between = ["7", "1"], provenance = "rulebook 5.1" },'
                "  # Charlottenburg-Tiergarten\n",
                "",
            )
        ],
        "map.toml: border: District 7 (Charlottenburg) and District 1 (Tiergarten) are adjacent "
        "(rulebook 5.1), but no border joins them",
    ),
    (  # rulebook 5.1: 14 is not adjacent to 8
        [(border("A", "15"), border("A", "15") + ", " + border("14", "8"))],
        "map.toml: border 14-8: 8 and 14 are listed as not adjacent (not_adjacent 14-8, "
        "rulebook 5.1)",
    ),
    (
        [('  { between = ["3", "I"], provenance = "rulebook 5.1" },\n', "")],
        "map.toml: not_adjacent: 3-I is missing: District 3 (Prenzlauer) and Sector I are not "
        "adjacent (rulebook 5.1)",
    ),
    (
        [(border("2", "I"), border("8", "I"))],
        "map.toml: border 8-I: joins the middle ring (Districts 6-11) and the Mitte (Sectors "
        "I-V): the rings are concentric, a border joins zones of one ring or of neighbouring "
        "rings (rulebook 1)",
    ),
    (
        [(border("A", "15") + ",\n", ""), (border("A", "16") + ",\n", "")],
        "map.toml: zone[A]: touches no district of the outer ring: the Soviets enter Berlin from "
        "the areas (rulebook 2.1, 4); map.toml: border: the map is not connected: A cut off "
        "from Sector V",
    ),
    (
        [
            (
                'name_provenance = "rulebook 5.1"\nring = "middle"',
                'name_provenance = "rulebook 5.1"\nring = "inner"',
            )
        ],
        "map.toml: zone[7].ring: District 7 (Charlottenburg) is in the middle ring (Districts "
        "6-11) (rulebook 1), found 'inner'",
    ),
    (
        [
            (
                'stack = 7\nstack_provenance = "rulebook 5.3"',
                'stack = 6\nstack_provenance = "rulebook 5.3"',
            )
        ],
        "map.toml: zone[5].stack: District 5 (Kreuzberg) has a stacking limit of 7 (rulebook "
        "5.3), found 6",
    ),
    (
        [('stack = 8  # "District 8 has a stacking limit of 8"', "stack = 9")],
        "map.toml: zone[8].stack: District 8 (Wedding) has a stacking limit of 8 (rulebook "
        "5.5.1), found 9",
    ),
    (
        [
            (
                'name = "Spandau"\nname_provenance = "rulebook 5.1"\nring = "outer"\n'
                'stack = "unlimited"',
                'name = "Spandau"\nname_provenance = "rulebook 5.1"\nring = "outer"\nstack = 10',
            )
        ],
        "map.toml: zone[14].stack: stacking is unlimited in Areas A-F and Districts 12-18 "
        "(rulebook 5.3), found 10",
    ),
    (
        [('id = "I"\nring = "mitte"\nstack = 4', 'id = "I"\nring = "mitte"\nstack = 5')],
        "map.toml: zone[I].stack: Sectors I-IV hold 4 units per side (rulebook 5.3), found 5",
    ),
    (
        [('stack_soviet = "unlimited"\n', "")],
        "map.toml: zone[V].stack_soviet: Sector V holds unlimited Soviet units (rulebook 5.3): "
        "write stack_soviet = \"unlimited\", found 'nothing'",
    ),
    (
        [
            (
                'name_provenance = "rulebook 7.3"\nring = "inner"\nstack = 6',
                'name_provenance = "rulebook 7.3"\nring = "inner"\nstack = 3',
            )
        ],
        "map.toml: zone[3].stack: the example of rulebook 7.3 has 4 units of a side in District 3 "
        "(Prenzlauer), found a limit of 3",
    ),
    (
        [('name = "Wedding"', 'name = "Gesundbrunnen"')],
        "map.toml: zone[8].name: the rulebook names it 'Wedding' (rulebook 5), found "
        "'Gesundbrunnen'",
    ),
    (
        [('id = "9"', "id = 9")],
        'map.toml: zone #15.id: zone ids are strings: write id = "9", not 9',
    ),
    (
        [('provenance = "rulebook 1"\n\n[[zone]]\nid = "11"', '\n[[zone]]\nid = "11"')],
        "map.toml: zone[10]: missing 'provenance' (a rulebook section or 'stand-in')",
    ),
    (
        [
            (
                'id = "german-mitte-all-adjacent"\nvalue = true',
                'id = "german-mitte-all-adjacent"\nvalue = false',
            )
        ],
        "map.toml: rule[german-mitte-all-adjacent].value: the rulebook fixes this rule "
        "(rulebook 5.1): write value = true, found False",
    ),
    (
        [("turns = 12", "turns = 10")],
        "map.toml: map.turns: expected 12 (rulebook 7), found 10",
    ),
]


@pytest.mark.parametrize(
    "edits,message", MAP_ERRORS, ids=[m.split(": ", 2)[1] for _, m in MAP_ERRORS]
)
def test_broken_map(edits: list[tuple[str, str]], message: str) -> None:
    assert message in problems("map.toml", *edits)


def unit_line(unit_id: str) -> str:
    (line,) = [
        ln for ln in FILES["counters.toml"].decode().splitlines() if f'id = "{unit_id}"' in ln
    ]
    return line


def moved(unit_id: str, old: str, new: str) -> tuple[str, str]:
    line = unit_line(unit_id)
    return (line, line.replace(old, new))


COUNTER_ERRORS = [
    (
        [(unit_line("su-328rd") + "\n", "")],
        "counters.toml: unit: expected 33 soviet-regular units (rulebook 2.2), found 32",
    ),
    (
        [
            (
                'colour = "black"\nelite = true\nstrength = 2',
                'colour = "black"\nelite = true\nstrength = 3',
            )
        ],
        "counters.toml: unit_type[ss].strength: expected 2 (rulebook 7.4.2), found 3",
    ),
    (
        [moved("su-150rd", 'start = "A"', 'start = "15"')],
        "counters.toml: unit[su-150rd].start: the Soviets start in Areas A-F (rulebook 2.1, 4), "
        "found District 15 (Reinickendorf)",
    ),
    (
        [moved("de-hj", 'start = "14"', 'start = "F"')],
        "counters.toml: unit[de-hj].start: German units cannot enter Areas A-F (rulebook 2.1, "
        "5.2), found F",
    ),
    (
        [moved("de-mohnke", 'start = "V"', 'start = "5"')],
        "counters.toml: zone[V]: two German units start in Sector V, one Wehrmacht and one SS "
        "(rulebook 5.2), found wehrmacht",
    ),
    (
        [
            moved("de-408art", 'start = "6"', 'start = "2"'),
            moved("de-1flak", 'start = "1"', 'start = "2"'),
            moved("de-prenzlauer", 'start = "3"', 'start = "2"'),
            moved("de-kriegsmarine", 'start = "4"', 'start = "2"'),
            moved("de-15ss", 'start = "5"', 'start = "2"'),
        ],
        "counters.toml: zone[2]: 6 German units at start (de-408art, de-1flak, "
        "de-grossdeutschland, de-prenzlauer, de-kriegsmarine, de-15ss); at most 5 (rulebook 5.3)",
    ),
    (
        [moved("su-39gd", "reinforcement = 1", "reinforcement = 2")],
        "counters.toml: reinforcement[1]: a group is 3 soviet-regular, 1 soviet-guards (rulebook "
        "8.1), found 3 soviet-regular",
    ),
    (
        [('zones = ["D", "E", "F"]', 'zones = ["C", "D", "E"]')],
        "counters.toml: reinforcement[2].zones: group 2 arrives in Area D, E or F (rulebook 8.1), "
        "found ['C', 'D', 'E']",
    ),
    (
        [("group = 1\nturn = 4", "group = 1\nturn = 5")],
        "counters.toml: reinforcement[1].turn: expected 4 (rulebook 8.1), found 5",
    ),
    (
        [moved("de-volkssturm", "yellow_dot = true, ", "")],
        "counters.toml: unit[de-volkssturm].yellow_dot: the five units deployed by Event cards, "
        "and only they, have the yellow dot (rulebook 5.5.4)",
    ),
    (
        [moved("su-33rd", "reinforcement = 1", "card = 5")],
        "counters.toml: unit[su-33rd].card: only German units are deployed by Event cards",
    ),
    (
        [('{ kind = "barricade", count = 6', '{ kind = "barricade", count = 7')],
        "counters.toml: marker: 62 units and 66 markers make 128 counters, expected 127 "
        "(rulebook 2.2)",
    ),
    (
        [('{ kind = "control", count = 23', '{ kind = "control", count = 22')],
        "counters.toml: marker[control].count: every district and sector starts with a German "
        "Control marker (rulebook 5.5): expected 23, found 22",
    ),
    (
        [moved("de-reichstag", 'start = "V"', 'start = "V", reinforcement = 1')],
        "counters.toml: unit[de-reichstag]: give exactly one of start (a zone), reinforcement (a "
        "group) or card (a card number), found start, reinforcement",
    ),
    (
        [moved("de-mohnke", 'type = "ss"', 'type = "waffen-ss"')],
        "counters.toml: unit[de-mohnke].type: 'waffen-ss' is not one of soviet-regular, "
        "soviet-guards, wehrmacht, ss",
    ),
    (
        [("total = 127", "total = 128")],
        "counters.toml: counters.total: expected 127 (rulebook 2, 2.2), found 128",
    ),
]


@pytest.mark.parametrize(
    "edits,message", COUNTER_ERRORS, ids=[m.split(": ", 2)[1] for _, m in COUNTER_ERRORS]
)
def test_broken_counters(edits: list[tuple[str, str]], message: str) -> None:
    assert message in problems("counters.toml", *edits)


CARD_ERRORS = [
    (
        [('deck = "german"\nnumber = 25', 'deck = "soviet"\nnumber = 25')],
        "cards.toml: card[soviet-25]: duplicate card number 25 in the soviet deck; cards.toml: "
        "card: the german deck has 24 cards, expected 25 (rulebook 2.3: 50 Event cards, 25 for "
        "each side); missing numbers [25]",
    ),
    (
        [
            (
                'name = "Panzerfaust"\nsymbols = ["C", "!"]',
                'name = "Panzerfaust"\nsymbols = ["C", "X"]',
            )
        ],
        "cards.toml: card[german-1].symbols: expected 1 to 2 different symbols of M, C, ! "
        "(rulebook 2.3), found ['C', 'X']",
    ),
    (
        [('effect = "double_move"', 'effect = "teleport"')],
        "cards.toml: card[german-24].effect #1.effect: 'teleport' is not one of combat_modifier, "
        "extra_orders, double_move, reinforce, place_marker, cancel_card, cancel_order, "
        "remove_unit, discard_cards",
    ),
    (
        [('count = 2\norder = "movement"', 'order = "movement"')],
        "cards.toml: card[soviet-13].effect #1: extra_orders needs 'count'",
    ),
    (
        [('zones = ["1", "4", "8"]', 'zonez = ["1", "4", "8"]')],
        "cards.toml: card[german-4].effect #1: unknown parameter 'zonez' for place_marker "
        "(known: marker, zones, zone_filter, count, amount)",
    ),
    (
        [('zone_filter = "controlled"\namount = 2', 'zone_filter = "controlled"\namount = 0')],
        "cards.toml: card[german-4].effect #1.amount: 0 is not in -5..5, not 0",
    ),
    (
        [in_card("german", 1, 'when = "combat"', 'when = "movement"')],
        "cards.toml: card[german-1].effect #1.when: a C effect is played combat (rulebook 2.3), "
        "found 'movement'",
    ),
    (
        [('zones = ["12", "13", "18"]', 'zones = ["12", "13", "17"]')],
        "cards.toml: card[german-2]: Wenck's 12th Army is reinforce at movement-end with zones = "
        "['12', '13', '18'], together = True (rulebook 8.2)",
    ),
    (
        [('count = 2\norder = "movement"', 'count = 3\norder = "movement"')],
        "cards.toml: card: the soviet cards allow 6 Movement orders in a turn (soviet-13, "
        "soviet-22); the most is 5 (rulebook 5.4)",
    ),
    (
        [in_card("german", 11, 'order = "rebuild"', 'order = "movement"')],
        "cards.toml: card: the german cards allow 7 Movement orders in a turn (german-11, "
        "german-24); the most is 6 (rulebook 5.4)",
    ),
    (
        [('units = ["de-charlemagne"]', 'units = ["de-charlemange"]')],
        "cards.toml: card[german-3].effect #1.units: unknown unit 'de-charlemange' (counters.toml)",
    ),
    (
        [('zones = ["13", "16"]', 'zones = ["13", "F"]')],
        "cards.toml: card[german-23].effect #1.zones: German units cannot enter Areas A-F "
        "(rulebook 5.2), found F",
    ),
    (
        [
            (
                'types = ["wehrmacht"]\nzone_filter = "combat"',
                'types = ["soviet-guards"]\nzone_filter = "combat"',
            )
        ],
        "cards.toml: card[soviet-15].effect #1.types: a card removes the opponent's units "
        "(rulebook 6), soviet-guards is soviet",
    ),
    (
        [('exclusive_with = ["soviet-13"]\n', "")],
        "cards.toml: card[soviet-13].effect #1.exclusive_with: soviet-22 does not exclude "
        "soviet-13 in turn: exclusion is mutual",
    ),
    (
        [
            (
                "text_provenance = \"rulebook 5.4 (symbol and timing stand-in; the card's "
                'requirements are not given)"\n',
                "",
            )
        ],
        "cards.toml: card[german-24]: missing 'text_provenance' (a rulebook section or 'stand-in')",
    ),
    (
        [('name = "Tiger Tanks"', 'name = "Tiger Tanks"\ntext_provenance = "rulebook 9"')],
        "cards.toml: card[german-12].text_provenance: a stand-in card has stand-in text, found "
        "'rulebook 9'",
    ),
    (
        [('marker = "moltke-bridge"', 'marker = "moltke-bridges"')],
        "cards.toml: card[soviet-20].effect #1.marker: unknown marker kind 'moltke-bridges' "
        "(counters.toml)",
    ),
    (
        [('name = "Ivan Konev"', 'name = "Ivan Konev!"')],
        "cards.toml: card[soviet-22].name: card #22 is 'Ivan Konev' (rulebook 5.4), found "
        "'Ivan Konev!'",
    ),
    (
        [("limit = 6", "limit = 7")],
        "cards.toml: hand.limit: expected 6 (rulebook 2.3, 7.1), found 7",
    ),
    (
        [("soviet_movement = 2", "soviet_movement = 1")],
        "cards.toml: additional_order.soviet_movement: expected 2 (rulebook 2.3, 5.4, 6), found 1",
    ),
]


@pytest.mark.parametrize(
    "edits,message", CARD_ERRORS, ids=[m.split(": ", 2)[1] for _, m in CARD_ERRORS]
)
def test_broken_cards(edits: list[tuple[str, str]], message: str) -> None:
    assert message in problems("cards.toml", *edits)


def test_a_stage_reports_every_problem() -> None:
    raw = edited(
        "map.toml",
        ("turns = 12", "turns = 10"),
        ('name = "Wedding"', 'name = "Gesundbrunnen"'),
    )
    with pytest.raises(DataError) as info:
        map_file.load_map(raw)
    assert str(info.value) == (
        "map.toml: map.turns: expected 12 (rulebook 7), found 10; "
        "map.toml: zone[8].name: the rulebook names it 'Wedding' (rulebook 5), found "
        "'Gesundbrunnen'"
    )


def test_broken_files_that_are_not_toml_or_not_known() -> None:
    with pytest.raises(DataError, match="map.toml: not UTF-8"):
        map_file.load_map(b"\xff\xfe")
    with pytest.raises(DataError, match="cards.toml: not valid TOML"):
        b45_data.load_data({"cards.toml": FILES["cards.toml"] + b"\n[hand]\n"})
    with pytest.raises(DataError, match=r"counters.toml: top level: unknown section\(s\) dice"):
        b45_data.load_data({"counters.toml": FILES["counters.toml"] + b"\n[dice]\nsides = 10\n"})
    with pytest.raises(DataError, match="rules.toml: unknown data file for berlin_1945"):
        b45_data.load_data({"rules.toml": b""})
    with pytest.raises(DataError, match="map.toml: expected bytes, found str"):
        b45_data.load_data({"map.toml": FILES["map.toml"].decode()})  # type: ignore[dict-item]
