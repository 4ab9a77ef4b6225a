"""Berlin 1945 data: the shipped files load, what the rulebook states holds (tests named by
rulebook section), provenance on every item, and the helpers for the rules engine."""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from typing import Any

import pytest

from pbem.games.berlin_1945 import board, cards_file, counters_file, map_file, rulebook
from pbem.games.berlin_1945 import data as b45_data

FILES = b45_data.default_data()
DOCS = {name: tomllib.loads(raw.decode()) for name, raw in FILES.items()}
AREAS = ["A", "B", "C", "D", "E", "F"]
SECTORS = ["I", "II", "III", "IV", "V"]


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return b45_data.load_data({})


def all_cards(data: dict[str, Any]) -> list[dict[str, Any]]:
    return data["decks"]["german"] + data["decks"]["soviet"]


def units_of(data: dict[str, Any], **match: Any) -> list[dict[str, Any]]:
    return [u for u in data["units"] if all(u[k] == v for k, v in match.items())]


# --- the shipped files ---------------------------------------------------------------------------


def test_shipped_files_load_as_plain_json(data: dict[str, Any]) -> None:
    assert set(FILES) == {"map.toml", "counters.toml", "cards.toml"}
    assert b45_data.load_data(FILES) == data
    board = map_file.load_map(FILES["map.toml"])
    counters = counters_file.load_counters(FILES["counters.toml"], board)
    cards = cards_file.load_cards(FILES["cards.toml"], board, counters)
    assert data == {**board, **counters, **cards}
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


def test_a_file_not_given_is_the_shipped_one() -> None:
    raw = FILES["map.toml"].replace(b'name = "Treptow"', b'name = "Treptow-Koepenick"')
    loaded = b45_data.load_data({"map.toml": raw})
    assert loaded["zones"]["18"]["name"] == "Treptow-Koepenick"
    assert loaded["zones"]["18"]["label"] == "District 18 (Treptow-Koepenick)"
    assert loaded["decks"] == b45_data.load_data({})["decks"]


# --- rulebook 1, 2.1: zones and rings ------------------------------------------------------------


def test_rulebook_1_2_1_zones_and_rings(data: dict[str, Any]) -> None:
    """Areas A-F the outer edge, Districts 12-18 outer, 6-11 middle, 1-5 inner, Sectors I-V."""
    districts = [str(n) for n in range(1, 19)]
    assert data["zone_ids"] == AREAS + districts + SECTORS
    assert list(data["zones"]) == data["zone_ids"]
    assert data["rings"] == {
        "edge": AREAS,
        "outer": [str(n) for n in range(12, 19)],
        "middle": [str(n) for n in range(6, 12)],
        "inner": [str(n) for n in range(1, 6)],
        "mitte": SECTORS,
    }
    kinds = Counter(z["kind"] for z in data["zones"].values())
    assert kinds == {"area": 6, "district": 18, "sector": 5}
    assert [board.ring_depth(data, z) for z in ("A", "12", "6", "1", "V")] == [4, 3, 2, 1, 0]
    assert data["turns"] == 12  # rulebook 7
    assert data["spaces"] == ["flak-control", "control", "turn-track", "removed-units"]


def test_rulebook_names_of_districts_and_the_reichstag(data: dict[str, Any]) -> None:
    """rulebook 5, 5.1, 5.3, 5.5.1, 7.3 name eleven districts; 5.3 calls Sector V the
    Reichstag. The other districts carry stand-in names."""
    names = {z: data["zones"][z]["name"] for z in data["zone_ids"]}
    assert {z: names[z] for z in rulebook.RULEBOOK_NAMES} == {
        "1": "Tiergarten",
        "2": "Moabit",
        "3": "Prenzlauer",
        "5": "Kreuzberg",
        "7": "Charlottenburg",
        "8": "Wedding",
        "9": "Weissensee",
        "13": "Zehlendorf",
        "14": "Spandau",
        "15": "Reinickendorf",
        "16": "Pankow",
        "V": "Reichstag",
    }
    assert all(names[str(n)] for n in range(1, 19))  # every district has a name
    assert not any(names[z] for z in AREAS + SECTORS[:4])
    assert data["zones"]["V"]["label"] == "Sector V (Reichstag)"
    assert data["zones"]["A"]["label"] == "Area A"


# --- rulebook 5.1: adjacency ---------------------------------------------------------------------


@pytest.mark.parametrize("a,b,section", rulebook.RULEBOOK_ADJACENT, ids=lambda v: str(v))
def test_rulebook_5_1_and_examples_adjacent(
    data: dict[str, Any], a: str, b: str, section: str
) -> None:
    """5.1: 7-1, 7-2, 14-15, 14-7, 8-15, 8-16, 8-2, 8-3, 8-7; the examples of 5 (15-16, 15-8),
    5.5.1 (F-14, F-13, E-13, 2-8, 3-8, 9-8), 7.2 (16-15) and 7.3 (3-9, 4-3)."""
    for side in ("german", "soviet"):
        assert board.adjacent(data, a, b, side) and board.adjacent(data, b, a, side)
    assert b in board.neighbours(data, a)


def test_rulebook_5_1_the_stated_adjacencies_are_all_there() -> None:
    pairs = {frozenset(p[:2]) for p in rulebook.RULEBOOK_ADJACENT}
    stated = [("7", "1"), ("7", "2"), ("14", "15"), ("14", "7")]
    stated += [("8", z) for z in ("15", "16", "2", "3", "7")]
    assert {frozenset(p) for p in stated} <= pairs
    assert {frozenset(p) for p in [("15", "16"), ("8", "9"), ("3", "9"), ("3", "4")]} <= pairs
    assert {frozenset(p) for p in [("F", "14"), ("F", "13"), ("E", "13")]} <= pairs


@pytest.mark.parametrize("a,b", [("14", "8"), ("3", "I"), ("15", "7"), ("2", "II"), ("1", "I")])
def test_rulebook_5_1_not_adjacent(data: dict[str, Any], a: str, b: str) -> None:
    """5.1: "14 is not adjacent to 8, 3 not to I, 15 not to 7, 2 not to II, 1 not to I"."""
    for side in ("german", "soviet"):
        assert not board.adjacent(data, a, b, side)
        assert not board.adjacent(data, b, a, side)
    assert sorted([a, b], key=data["zone_ids"].index) in data["not_adjacent"]


def test_rulebook_5_1_german_mitte_sectors_all_adjacent(data: dict[str, Any]) -> None:
    """5.1 exception: the German player treats all Mitte sectors as adjacent to each other."""
    assert data["rules"]["german-mitte-all-adjacent"] is True
    assert not board.adjacent(data, "I", "III", "soviet")
    assert not board.adjacent(data, "II", "IV", "soviet")
    for a in SECTORS:
        for b in SECTORS:
            if a != b:
                assert board.adjacent(data, a, b, "german"), (a, b)
        assert not board.adjacent(data, a, a, "german")
    assert board.neighbours(data, "I", "german") == ["2", "II", "III", "IV", "V"]
    assert (
        board.neighbours(data, "I", "soviet")
        == board.neighbours(data, "I")
        == ["2", "II", "IV", "V"]
    )
    assert not board.adjacent(data, "2", "III", "german")  # only sector to sector


def test_stand_in_geometry_is_concentric(data: dict[str, Any]) -> None:
    """Stand-in: each area touches outer districts only, no border skips a ring, V touches
    only I-IV, and the 5.1 corner contacts are four-way points of the layout."""
    for a, b in data["borders"]:
        assert abs(board.ring_depth(data, a) - board.ring_depth(data, b)) <= 1, (a, b)
    for area in AREAS:
        assert {board.ring(data, z) for z in board.neighbours(data, area)} == {"outer"}
    assert board.neighbours(data, "V") == ["I", "II", "III", "IV"]
    for a, b, c, d in [("14", "15", "8", "7"), ("2", "3", "II", "I"), ("1", "2", "I", "IV")]:
        ring = [a, b, c, d]  # around one point: neighbours adjacent, diagonals not
        for i in range(4):
            assert board.adjacent(data, ring[i], ring[(i + 1) % 4], "soviet")
        assert not board.adjacent(data, a, c, "soviet") and not board.adjacent(data, b, d, "soviet")
    assert len(data["borders"]) == 68


# --- rulebook 5.2, 5.3: movement restrictions and stacking ---------------------------------------


def test_rulebook_5_2_germans_never_enter_areas_and_no_one_moves_into_one(
    data: dict[str, Any],
) -> None:
    """2.1, 5.2: Germans cannot enter Areas A-F; 7.2: no unit enters an area by movement."""
    assert data["rules"]["germans-may-not-enter-areas"] and data["rules"]["areas-exit-only"]
    for area in AREAS:
        assert board.stack_limit(data, area, "german", soviets_in_mitte=False) == 0
        assert not board.may_enter(data, area, "german") and not board.may_enter(
            data, area, "soviet"
        )
    assert board.may_enter(data, "14", "german") and board.may_enter(data, "V", "soviet")
    assert data["rules"]["no-rebuild-in-areas"]  # rulebook 6


def test_rulebook_5_2_reichstag_garrison_frozen_until_soviets_enter_the_mitte(
    data: dict[str, Any],
) -> None:
    """5.2: the two German units (one Wehrmacht, one SS) in Sector V at start cannot move."""
    assert data["rules"]["reichstag-garrison-frozen"] is True
    assert data["frozen_at_start"] == data["initial_display"]["V"]
    garrison = [u for u in data["units"] if u["id"] in data["frozen_at_start"]]
    assert sorted(u["type"] for u in garrison) == ["ss", "wehrmacht"]


def test_rulebook_5_3_stacking_limits(data: dict[str, Any]) -> None:
    """5.3: areas and 12-18 unlimited, 1-11 printed (5 Kreuzberg: 7; 5.5.1: 8 Wedding: 8),
    I-IV 4 per side, V 4 German and unlimited Soviet."""

    def limit(zone: str, side: str, entered: bool = False) -> int | None:
        return board.stack_limit(data, zone, side, soviets_in_mitte=entered)

    for zone in AREAS:
        assert limit(zone, "soviet") is None
    for n in range(12, 19):
        assert limit(str(n), "german") is None and limit(str(n), "soviet") is None
    for n in range(1, 12):
        assert isinstance(limit(str(n), "german"), int)
        assert limit(str(n), "german") == limit(str(n), "soviet")
    assert limit("5", "german") == limit("5", "soviet") == 7
    assert limit("8", "german") == limit("8", "soviet") == 8
    for sector in ("I", "II", "III", "IV"):
        assert limit(sector, "german") == limit(sector, "soviet") == 4
        assert limit(sector, "german", entered=True) == 4
    assert limit("V", "german") == 4 and limit("V", "soviet") is None
    # "As soon as a Soviet unit enters Sectors I to IV ... unlimited"
    assert data["rules"]["reichstag-german-unlimited-after-mitte-entry"] is True
    assert limit("V", "german", entered=True) is None
    # the examples need room: 4 of a side in 3 and 4 (7.3) and in 6 (7.4.4), 5 Germans in 8
    assert all((limit(z, "german") or 0) >= 4 for z in ("3", "4", "6"))


def test_rulebook_5_3_initial_display_within_stacking(data: dict[str, Any]) -> None:
    for zone, ids in data["initial_display"].items():
        for side in ("german", "soviet"):
            n = sum(1 for u in data["units"] if u["id"] in ids and u["side"] == side)
            cap = board.stack_limit(data, zone, side, soviets_in_mitte=False)
            assert cap is None or n <= cap, (zone, side)


# --- rulebook 5.5: directions of movement --------------------------------------------------------


def test_rulebook_5_5_directions(data: dict[str, Any]) -> None:
    """The Soviets advance toward the Mitte, the Germans away from it; same ring is a flank."""
    assert board.direction(data, "F", "14", "soviet") == "advance"  # 5.5.1
    assert board.direction(data, "2", "8", "german") == "advance"  # 5.5.1
    assert board.direction(data, "9", "8", "german") == "flank"  # 5.5.1
    assert board.direction(data, "3", "9", "soviet") == "rear"  # 7.3: a Soviet withdrawal
    assert board.direction(data, "8", "2", "german") == "rear"
    assert board.direction(data, "I", "V", "german") == "flank"  # inside the Mitte
    assert board.direction(data, "IV", "V", "soviet") == "flank"


# --- rulebook 2.2, 7.4.2: counters ---------------------------------------------------------------


def test_rulebook_2_2_unit_counts_colours_and_strengths(data: dict[str, Any]) -> None:
    """2.2: 33 orange Soviet regulars, 2 red Guards, 22 gray Wehrmacht, 5 black SS;
    7.4.2: strength 1, 2, 1, 2; 6: SS and Guards cannot be rebuilt."""
    assert Counter(u["type"] for u in data["units"]) == {
        "soviet-regular": 33,
        "soviet-guards": 2,
        "wehrmacht": 22,
        "ss": 5,
    }
    types = data["unit_types"]
    assert {t: (v["colour"], v["strength"], v["rebuild"]) for t, v in types.items()} == {
        "soviet-regular": ("orange", 1, True),
        "soviet-guards": ("red", 2, False),
        "wehrmacht": ("gray", 1, True),
        "ss": ("black", 2, False),
    }
    for unit in data["units"]:
        assert unit["strength"] == types[unit["type"]]["strength"]
        assert unit["side"] == types[unit["type"]]["side"]
    assert len({u["id"] for u in data["units"]}) == 62


def test_rulebook_2_2_markers_and_127_counters(data: dict[str, Any]) -> None:
    """2.2: 127 counters; 8 marker types; 7: one Game Turn marker; 5.5: Control markers on every
    district and sector at start."""
    markers = data["markers"]
    assert set(markers) == {
        "barricade",
        "game-turn",
        "moltke-bridge",
        "flak-tower",
        "shock-army",
        "wave-attack",
        "order",
        "planning",
        "control",
    }
    assert markers["game-turn"] == 1
    assert markers["control"] == 18 + 5
    assert len(data["units"]) + sum(markers.values()) == data["counters_total"] == 127


def test_rulebook_2_1_4_initial_display(data: dict[str, Any]) -> None:
    """The Soviets start in Areas A-F (2.1, 4), the Germans in Districts 1-18 and two in Sector
    V (5.2); Sectors I-IV start empty. The split is a stand-in."""
    display = data["initial_display"]
    assert set(display) == set(AREAS) | {str(n) for n in range(1, 19)} | {"V"}
    start = {u["id"]: u for u in data["units"] if u["start"]}
    for zone, ids in display.items():
        sides = {start[i]["side"] for i in ids}
        assert sides == ({"soviet"} if zone in AREAS else {"german"}), zone
    assert [len(display[a]) for a in AREAS] == [5, 5, 4, 4, 4, 5]
    assert Counter(u["type"] for u in start.values()) == {
        "soviet-regular": 27,
        "wehrmacht": 19,
        "ss": 3,
    }


# --- rulebook 8.1: Soviet reinforcements ---------------------------------------------------------


def test_rulebook_8_1_two_groups_of_three_regular_and_one_elite(data: dict[str, Any]) -> None:
    """8.1: 8 units after the card draw of turn 4, one group in A, B or C, the other in D, E
    or F. Counted inside the 33 + 2 of 2.2 (there are only 2 red counters)."""
    groups = data["reinforcements"]
    assert [(g["group"], g["turn"], g["zones"]) for g in groups] == [
        (1, 4, ["A", "B", "C"]),
        (2, 4, ["D", "E", "F"]),
    ]
    by_id = {u["id"]: u for u in data["units"]}
    for group in groups:
        assert Counter(by_id[u]["type"] for u in group["units"]) == {
            "soviet-regular": 3,
            "soviet-guards": 1,
        }
        assert all(not by_id[u]["start"] and by_id[u]["reinforcement"] for u in group["units"])
    assert sum(len(g["units"]) for g in groups) == 8
    assert units_of(data, type="soviet-guards") == units_of(
        data, type="soviet-guards", start=""
    )  # both Guards arrive as reinforcements


# --- rulebook 5.5.4, 8.2: German card units ------------------------------------------------------


def test_rulebook_5_5_4_the_five_yellow_dot_units(data: dict[str, Any]) -> None:
    """5.5.4: two Wenck units, the Volkssturm, the Charlemagne and the Steiner group."""
    dotted = units_of(data, yellow_dot=True)
    assert sorted((u["name"], u["type"], u["card"]) for u in dotted) == [
        ("Charlemagne", "ss", 3),
        ("Steiner", "ss", 23),
        ("Volkssturm", "wehrmacht", 10),
        ("Wenck's 12th Army", "wehrmacht", 2),
        ("Wenck's 12th Army", "wehrmacht", 2),
    ]
    assert all(u["side"] == "german" and not u["start"] for u in dotted)
    assert [u["id"] for u in units_of(data, never_withdraws=True)] == ["de-steiner"]


# --- rulebook 2.3: the decks ---------------------------------------------------------------------


def test_rulebook_2_3_two_decks_of_25_numbered_1_to_25(data: dict[str, Any]) -> None:
    assert data["cards_per_side"] == 25
    for side in ("german", "soviet"):
        deck = data["decks"][side]
        assert [c["number"] for c in deck] == list(range(1, 26))
        assert all(c["deck"] == side and c["id"] == f"{side}-{c['number']}" for c in deck)
    assert len(all_cards(data)) == 50
    assert data["hand"] == {"start": 5, "draw": 1, "limit": 6}
    assert data["additional_order"] == {
        "german_movement": 1,
        "soviet_movement": 2,
        "rebuild": 2,
        "per_turn": 1,
    }


def test_rulebook_2_3_symbols_modes_and_timing(data: dict[str, Any]) -> None:
    """Symbols are M, C, !; a card with two has two alternative modes; C is played at combat,
    M in the own Movement phase."""
    for card in all_cards(data):
        assert 1 <= len(card["symbols"]) <= 2 and set(card["symbols"]) <= {"M", "C", "!"}
        assert {e["mode"] for e in card["effects"]} == set(card["symbols"]), card["id"]
        assert card["timing"] and card["text"]
        for effect in card["effects"]:
            assert effect["effect"] in rulebook.EFFECTS
            if effect["mode"] == "C":
                assert effect["when"] == "combat"
            if effect["mode"] == "M":
                assert effect["when"] in ("movement", "movement-end")
    two = sorted(c["id"] for c in all_cards(data) if len(c["symbols"]) == 2)
    assert two == ["german-1", "soviet-3"]


def test_rulebook_2_3_panzerfaust_has_two_alternative_effects(data: dict[str, Any]) -> None:
    card = board.card(data, "german-1")
    assert card["name"] == "Panzerfaust" and card["symbols"] == ["C", "!"]
    assert [(e["mode"], e["effect"]) for e in card["effects"]] == [
        ("C", "combat_modifier"),
        ("!", "remove_unit"),
    ]


def test_rulebook_7_4_2_flak_towers_place_a_strength_marker(data: dict[str, Any]) -> None:
    (effect,) = board.card(data, "german-4")["effects"]
    assert board.card(data, "german-4")["name"] == "Flak Anti-Aircraft Towers"
    assert effect["effect"] == "place_marker" and effect["marker"] == "flak-tower"
    assert effect["amount"] == 2 and effect["zones"] == ["1", "4", "8"]


def test_every_effect_is_a_known_primitive_with_its_parameters(data: dict[str, Any]) -> None:
    used = Counter(e["effect"] for c in all_cards(data) for e in c["effects"])
    assert set(used) == set(rulebook.EFFECTS)  # every primitive is used at least once
    for card in all_cards(data):
        for effect in card["effects"]:
            required, optional = rulebook.EFFECTS[effect["effect"]]
            assert set(required) <= set(effect), (card["id"], effect)
            assert set(effect) <= {"mode", "when", "effect", *required, *optional}


# --- rulebook 8.2: the printed German reinforcement cards ----------------------------------------


def test_rulebook_8_2_card_2_wencks_12th_army(data: dict[str, Any]) -> None:
    card = board.card(data, "german-2")
    assert (card["name"], card["symbols"]) == ("Wenck's 12th Army", ["M"])
    assert card["timing"] == "At the end of your Movement phase."
    assert card["effects"] == [
        {
            "mode": "M",
            "when": "movement-end",
            "effect": "reinforce",
            "units": ["de-wenck-1", "de-wenck-2"],
            "zones": ["12", "13", "18"],
            "together": True,
        }
    ]


def test_rulebook_8_2_card_3_charlemagne_battalion(data: dict[str, Any]) -> None:
    card = board.card(data, "german-3")
    assert (card["name"], card["symbols"]) == ("Charlemagne Battalion", ["M"])
    (effect,) = card["effects"]
    assert effect["effect"] == "reinforce" and effect["when"] == "movement-end"
    assert effect["units"] == ["de-charlemagne"] and effect["zone_filter"] == "controlled"
    assert "any zone under German control" in card["text"]


def test_rulebook_8_2_card_10_volkssturm_and_feldgendarmerie(data: dict[str, Any]) -> None:
    card = board.card(data, "german-10")
    assert (card["name"], card["symbols"]) == ("Volkssturm and Feldgendarmerie", ["M"])
    (effect,) = card["effects"]
    assert effect["units"] == ["de-volkssturm"] and effect["zone_filter"] == "no-enemy"
    assert "any district or sector with no Soviet units" in card["text"]


def test_rulebook_8_2_card_23_steiner(data: dict[str, Any]) -> None:
    card = board.card(data, "german-23")
    assert (card["name"], card["symbols"]) == ("Steiner!", ["M"])
    (effect,) = card["effects"]
    assert effect["units"] == ["de-steiner"] and effect["zones"] == ["13", "16"]
    assert "not considered to withdraw" in card["text"]


def test_rulebook_8_1_8_2_only_the_german_deck_reinforces(data: dict[str, Any]) -> None:
    for card in all_cards(data):
        if any(e["effect"] == "reinforce" for e in card["effects"]):
            assert card["id"] in {"german-2", "german-3", "german-10", "german-23"}


# --- rulebook 5.4: cards that add orders ---------------------------------------------------------


def test_rulebook_5_4_card_24_panzergrenadiers_moves_twice(data: dict[str, Any]) -> None:
    card = board.card(data, "german-24")
    assert card["name"] == "Panzergrenadiers"
    assert [e["effect"] for e in card["effects"]] == ["double_move"]


def test_rulebook_5_4_cards_13_zhukov_and_22_konev(data: dict[str, Any]) -> None:
    """2 extra orders for #13, 1 for #22, never both in a turn, and either rules out the
    additional order by discarding; both are ! cards."""
    zhukov, konev = board.card(data, "soviet-13"), board.card(data, "soviet-22")
    assert (zhukov["name"], konev["name"]) == ("Georgi Zhukov", "Ivan Konev")
    assert zhukov["symbols"] == konev["symbols"] == ["!"]
    (z,) = zhukov["effects"]
    (k,) = konev["effects"]
    assert (z["effect"], z["count"], z["order"]) == ("extra_orders", 2, "movement")
    assert (k["effect"], k["count"], k["order"]) == ("extra_orders", 1, "movement")
    assert z["exclusive_with"] == ["soviet-22"] and k["exclusive_with"] == ["soviet-13"]
    assert z["blocks_additional_order"] and k["blocks_additional_order"]


def test_rulebook_5_4_movement_order_maximums(data: dict[str, Any]) -> None:
    """German at most 6 (4 + 1 discard + 1 #24), Soviet at most 5 (3 + 2 by #13): no other card
    adds Movement orders."""
    movers = sorted(
        c["id"]
        for c in all_cards(data)
        for e in c["effects"]
        if e["effect"] == "double_move"
        or (e["effect"] == "extra_orders" and e["order"] != "rebuild")
    )
    assert movers == ["german-24", "soviet-13", "soviet-22"]


# --- provenance ----------------------------------------------------------------------------------

RULEBOOK = re.compile(r"^rulebook \d+(\.\d+)*(, \d+(\.\d+)*)*( \(.+\))?$")


def provenances(item: dict[str, Any]) -> list[str]:
    return [v for k, v in item.items() if k == "provenance" or k.endswith("_provenance")]


def test_every_item_has_a_provenance_citing_a_section_or_stand_in() -> None:
    seen: list[str] = []
    for name, doc in DOCS.items():
        for key, value in doc.items():
            items = value if isinstance(value, list) else [value]
            for item in items:
                assert "provenance" in item, (name, key, item)
                seen.extend(provenances(item))
    assert len(seen) > 300
    for value in seen:
        assert value == "stand-in" or RULEBOOK.match(value), value


def test_map_provenance_stand_in_and_rulebook_items() -> None:
    doc = DOCS["map.toml"]
    facts = {frozenset(p[:2]): p[2] for p in rulebook.RULEBOOK_ADJACENT}
    for border in doc["border"]:
        pair = frozenset(border["between"])
        if pair in facts:
            assert border["provenance"].startswith("rulebook "), border
            assert facts[pair].split(", ")[0] in border["provenance"], border
        else:
            assert border["provenance"] == "stand-in", border
    for zone in doc["zone"]:
        assert zone["provenance"].startswith("rulebook "), zone
        if zone["id"] in rulebook.RULEBOOK_NAMES:
            section = rulebook.RULEBOOK_NAMES[zone["id"]][1]
            assert zone["name_provenance"].startswith(f"rulebook {section}"), zone
        elif "name" in zone:
            assert zone["name_provenance"] == "stand-in", zone
        printed = zone["id"] in {str(n) for n in range(1, 12)} - {"5", "8"}
        assert (zone["stack_provenance"] == "stand-in") == printed, zone
    assert {r["provenance"] for r in doc["not_adjacent"][:5]} == {"rulebook 5.1"}
    assert all(r["provenance"].startswith("rulebook ") for r in doc["rule"])


def test_counters_provenance_stand_in_and_rulebook_items() -> None:
    doc = DOCS["counters.toml"]
    for unit in doc["unit"]:
        if "card" in unit:
            assert unit["provenance"].startswith("rulebook 5.5.4, 8.2"), unit
            assert unit["name_provenance"].startswith("rulebook "), unit
        elif "reinforcement" in unit:
            assert unit["provenance"] == "rulebook 8.1", unit
            assert unit["name_provenance"] == "stand-in", unit
        elif unit["start"] == "V":
            assert unit["provenance"] == "rulebook 5.2", unit
        else:
            assert unit["provenance"] == unit["name_provenance"] == "stand-in", unit
    fixed = {"game-turn", "control"}
    for marker in doc["marker"]:
        assert marker["provenance"].startswith("rulebook ") == (marker["kind"] in fixed), marker
    assert all(t["provenance"].startswith("rulebook 2.2") for t in doc["unit_type"])


def test_cards_provenance_stand_in_and_rulebook_items() -> None:
    doc = DOCS["cards.toml"]
    from_rulebook = {
        "german-1": "rulebook 2.3",
        "german-2": "rulebook 8.2",
        "german-3": "rulebook 8.2",
        "german-4": "rulebook 7.4.2",
        "german-10": "rulebook 8.2",
        "german-23": "rulebook 8.2",
        "german-24": "rulebook 5.4",
        "soviet-13": "rulebook 5.4",
        "soviet-22": "rulebook 5.4",
    }
    for card in doc["card"]:
        card_id = f"{card['deck']}-{card['number']}"
        if card_id in from_rulebook:
            assert card["provenance"].startswith(from_rulebook[card_id]), card_id
            assert card["text_provenance"].startswith(from_rulebook[card_id]), card_id
        else:
            assert card["provenance"] == "stand-in", card_id
            assert card.get("text_provenance", "stand-in") == "stand-in", card_id
    # Number stand-ins are said so: the rulebook names these cards without a number.
    for card_id in ("german-1", "german-4"):
        deck, number = card_id.split("-")
        (card,) = [c for c in doc["card"] if c["deck"] == deck and c["number"] == int(number)]
        assert "(number stand-in)" in card["provenance"]


# --- the helpers ---------------------------------------------------------------------------------


def test_helpers_reject_unknown_zones_sides_and_cards(data: dict[str, Any]) -> None:
    assert board.ring(data, "V") == "mitte" and board.ring(data, "A") == "edge"
    assert board.zone(data, "5")["name"] == "Kreuzberg"
    with pytest.raises(KeyError, match="unknown zone '19'"):
        board.ring(data, "19")
    with pytest.raises(KeyError, match="unknown zone 'VI'"):
        board.adjacent(data, "V", "VI", "german")
    with pytest.raises(ValueError, match="unknown side 'west'"):
        board.adjacent(data, "I", "II", "west")
    with pytest.raises(ValueError, match="unknown side"):
        board.stack_limit(data, "5", "allied", soviets_in_mitte=False)
    with pytest.raises(KeyError, match="unknown card 'german-26'"):
        board.card(data, "german-26")
    copy = board.card(data, "soviet-13")
    copy["name"] = "changed"
    assert board.card(data, "soviet-13")["name"] == "Georgi Zhukov"  # a copy, not the record
