"""Götterdämmerung: the counters file (pbem.games.gotterdammerung.counters) and every counter
fact the rulebook states: the schedules of 9.2, 9.5 and 9.6, the split values of 5.73, the
reinforcement pools of 8.32 and 8.33, the lists of 9.32 and 12.32, the special units of 2.21,
the stacking values of 4.1, the 25 Volkssturm and 28 Delay markers."""

from __future__ import annotations

import re

import pytest

from pbem.errors import DataError
from pbem.games.datacheck import parse_toml, shipped_files
from pbem.games.gotterdammerung.counters import (
    ALKETT_DEFENCE,
    COUNTERS_FILE,
    JUETERBOG_DEFENCE,
    PACKAGE,
    alkett_eligible,
    battle_groups,
    census,
    default_counters,
    delay_mix,
    group,
    in_area,
    initial,
    jueterbog_eligible,
    load_counters,
    pool,
    reinforcements,
    survival_vp,
    volkssturm_mix,
)

RAW = shipped_files(PACKAGE, (COUNTERS_FILE,))[COUNTERS_FILE]


@pytest.fixture(scope="module")
def data() -> dict:
    return default_counters()


@pytest.fixture(scope="module")
def units(data: dict) -> dict:
    return data["units"]


def _edit(raw: bytes, unit_id: str, key: str, value: str | None) -> bytes:
    """`raw` with one field of unit `unit_id` set to `value` (a TOML value), or removed."""
    blocks = raw.decode().split("\n\n")
    hits = [i for i, b in enumerate(blocks) if f'\nid = "{unit_id}"\n' in b]
    assert len(hits) == 1, unit_id
    lines = [line for line in blocks[hits[0]].split("\n") if not line.startswith(f"{key} = ")]
    if value is not None:
        lines.append(f"{key} = {value}")
    blocks[hits[0]] = "\n".join(lines)
    return "\n\n".join(blocks).encode()


def _drop(raw: bytes, unit_id: str) -> bytes:
    blocks = raw.decode().split("\n\n")
    kept = [b for b in blocks if f'\nid = "{unit_id}"\n' not in b]
    assert len(kept) == len(blocks) - 1, unit_id
    return "\n\n".join(kept).encode()


def _strength(unit: dict) -> tuple[int, int, int]:
    return (unit["attack"], unit["defence"], unit["movement"])


def _by_name(units: dict, ids: list[str]) -> dict[str, dict]:
    return {units[i]["name"]: units[i] for i in ids}


def _formations(units: dict, ids: list[str]) -> dict[str, int]:
    """parent -> how many of `ids` belong to it."""
    counts: dict[str, int] = {}
    for i in ids:
        counts[units[i]["parent"]] = counts.get(units[i]["parent"], 0) + 1
    return counts


# --- the file as a whole -------------------------------------------------------------------


def test_shipped_file_loads_with_provenance_on_every_unit(units: dict) -> None:
    assert len(units) > 200
    for unit in units.values():
        assert re.fullmatch(r"stand-in|rulebook \S.*", unit["provenance"]), unit["id"]
        if unit["provenance"] == "stand-in":
            assert unit["note"], f"{unit['id']}: a stand-in says what is invented"


def test_the_counters_fit_in_the_480_of_the_box(data: dict) -> None:
    """2.4: two counter sheets, 480 counters in total."""
    assert data["total"] == 480
    counts = census(data)
    assert counts["volkssturm"] + counts["delay"] + counts["units"] + counts["artillery"] <= 480


def test_loads_are_fresh_copies() -> None:
    first = default_counters()
    first["units"]["ger-hitler"]["defence"] = 99
    assert default_counters()["units"]["ger-hitler"]["defence"] == 1


# --- 2.21, 4.1, 4.2: special units, stacking and ZOC ---------------------------------------


@pytest.mark.parametrize(
    ("ident", "strength"),
    [
        ("ger-hitler", (0, 1, 0)),
        ("ger-depot", (0, 1, 0)),
        ("ger-okh", (0, 1, 0)),
        ("ger-goerlitz", (0, 4, 0)),
        ("ger-alkett", (0, 3, 0)),
    ],
)
def test_special_units_as_2_21_prints_them(units: dict, ident: str, strength: tuple) -> None:
    """2.21: Hitler 0-1-0, the German depot 0-1-0, OKH 0-1-0, Görlitz 0-4-0, Alkett 0-3-0;
    4.11: all five have stacking value 0."""
    unit = units[ident]
    assert _strength(unit) == strength
    assert unit["stacking"] == 0
    # 2.3: movement 0 is neither foot nor vehicle, but an HQ (OKH) is a vehicle unit
    assert unit["class"] == ("vehicle" if ident == "ger-okh" else "static")


def test_no_zoc_for_hitler_factory_depots_and_hqs(units: dict) -> None:
    """4.21: the Hitler, factory, supply depot and HQ units have no ZOC (the fortress does)."""
    for ident in ("ger-hitler", "ger-alkett", "ger-depot", "ger-okh", "ger-6ss-hq"):
        assert units[ident]["zoc"] == "none", ident
    for ident in ("sov-2bf-depot", "sov-1uf-depot", "sov-1bf-depot"):
        assert units[ident]["zoc"] == "none", ident
    assert units["ger-goerlitz"]["zoc"] == "weak"


def test_strong_zoc_for_soviet_and_polish_corps_weak_for_the_rest(units: dict) -> None:
    """4.22: Soviet and Polish corps strong; Battle groups, regiments, brigades, American
    divisions and German units weak."""
    assert units["sov-4grc"]["zoc"] == "strong"
    assert units["sov-1pol-tc"]["zoc"] == "strong"
    assert units["sov-8gtc-bg1"]["zoc"] == "weak"
    assert units["sov-htr-1"]["zoc"] == "weak"
    assert units["sov-hab-1"]["zoc"] == "weak"
    assert units["us-9id"]["zoc"] == "weak"
    assert units["ger-fueb"]["zoc"] == "weak"


def test_stacking_values_of_4_1(units: dict, data: dict) -> None:
    """4.12: support units 0, Battle groups 2, corps 4; 4.14: a Rifle Corps 4; 4.13: a
    Volkssturm 0."""
    assert {units[i]["stacking"] for i in pool(data, "support")} == {0}
    corps = [u for u in units.values() if u["size"] == "corps" and u["nationality"] != "american"]
    assert corps and {u["stacking"] for u in corps} == {4}
    assert {
        u["stacking"]
        for u in units.values()
        if u["size"] == "battle-group" and u["side"] == "soviet"
    } == {2}
    assert data["volkssturm"]["stacking"] == 0


def test_steps_of_6_52(units: dict) -> None:
    """6.52: Soviet and Polish corps and American divisions have two steps; all others one."""
    for unit in units.values():
        two = (unit["size"] == "corps" and unit["nationality"] in ("soviet", "polish")) or (
            unit["size"] == "division" and unit["nationality"] == "american"
        )
        assert unit["steps"] == (2 if two else 1), unit["id"]
        assert (unit["reduced"] is not None) == two, unit["id"]


def test_vehicle_and_foot_units_of_2_3(units: dict) -> None:
    """2.3: armour, panzergrenadier, cavalry, panzer hunter, HQ, assault gun are vehicle
    units; a unit that is not and moves 1 or more is a foot unit."""
    assert units["ger-mltk"]["class"] == "vehicle"
    assert units["ger-6ss-hq"]["class"] == "vehicle"
    assert units["sov-1gcc"]["class"] == "vehicle"
    assert units["ger-281-inf"]["class"] == "foot"
    assert units["sov-4grc"]["class"] == "foot"


def test_artillery_regiments_of_5_61(units: dict) -> None:
    """5.61 names German artillery regiments with a movement allowance of 3 (no rail)."""
    artillery = [u for u in units.values() if u["branch"] == "artillery"]
    assert artillery and all(u["movement"] == 3 for u in artillery)


# 2.23's German abbreviations that name units (the others name places or people)
ABBREVIATIONS_223 = (
    "Bec",
    "Dan",
    "d.Ry",
    "Döb",
    "DR",
    "FG",
    "FHH",
    "FLJ",
    "Folk",
    "Frnk",
    "FüB",
    "FvS",
    "G.Sy",
    "GB",
    "GD",
    "Gör",
    "HG",
    "Clau",
    "Alkt",
    "Bran",
)


def test_units_named_by_2_23_exist(units: dict) -> None:
    names = " ".join(u["name"] for u in units.values())
    for abbreviation in ABBREVIATIONS_223:
        assert f"({abbreviation})" in names, abbreviation


# --- 5.7: splitting corps --------------------------------------------------------------------

SPLITS_573 = {
    # (branch, guards): (corps, groups)
    ("tank", True): ((20, 18, 8), [(9, 4, 9), (9, 3, 9)]),
    ("mechanized", True): ((19, 19, 8), [(9, 5, 9), (9, 4, 9)]),
    ("cavalry", True): ((14, 10, 7), [(6, 2, 8), (6, 2, 8)]),
    ("tank", False): ((18, 16, 8), [(7, 3, 9), (7, 3, 9)]),
    ("mechanized", False): ((19, 19, 8), [(7, 4, 9), (7, 4, 9)]),
}


def test_split_table_of_5_73_exactly(data: dict) -> None:
    table = {
        (s["branch"], s["guards"]): (tuple(s["corps"]), [tuple(g) for g in s["groups"]])
        for s in data["splits"].values()
    }
    assert table == SPLITS_573


@pytest.mark.parametrize(
    ("ident", "key"),
    [
        ("sov-8gtc", ("tank", True)),
        ("sov-7gmc", ("mechanized", True)),
        ("sov-1gcc", ("cavalry", True)),
        ("sov-11tc", ("tank", False)),
        ("sov-1mc", ("mechanized", False)),
    ],
)
def test_each_corps_type_splits_as_5_73_says(
    data: dict, units: dict, ident: str, key: tuple
) -> None:
    """5.72-5.73: two Battle groups of the corps' name, branch and status."""
    corps_strength, groups = SPLITS_573[key]
    corps = units[ident]
    assert _strength(corps) == corps_strength
    bgs = [units[i] for i in battle_groups(data, ident)]
    assert sorted(_strength(b) for b in bgs) == sorted(groups)
    for bg in bgs:
        assert bg["name"].startswith(corps["name"])
        assert (bg["branch"], bg["guards"], bg["front"]) == (
            corps["branch"],
            corps["guards"],
            corps["front"],
        )
        assert bg["steps"] == 1 and bg["size"] == "battle-group"


def test_every_vehicle_corps_of_a_5_73_type_has_its_values(units: dict) -> None:
    for unit in units.values():
        key = (unit["branch"], unit["guards"])
        if unit["size"] == "corps" and unit["side"] == "soviet" and key in SPLITS_573:
            assert _strength(unit) == SPLITS_573[key][0], unit["id"]


def test_a_vehicle_corps_without_split_values_is_refused() -> None:
    """5.71: every tank, mechanized or cavalry corps must split to enter Berlin, and 5.73 has
    no ordinary Cavalry Corps."""
    raw = _edit(RAW, "sov-1gcc", "guards", "false")
    with pytest.raises(DataError, match=r"unit sov-1gcc: no split values for an? ordinary cavalry"):
        load_counters(raw)


def test_rifle_corps_do_not_split(data: dict) -> None:
    """5.79: a Rifle Corps enters Berlin City hexes unsplit."""
    assert battle_groups(data, "sov-4grc") == []


def test_support_units_of_5_74(data: dict, units: dict) -> None:
    """5.74: heavy tank regiments, heavy SP gun regiments, heavy artillery brigades; 5.78:
    no parent front."""
    support = [units[i] for i in pool(data, "support")]
    assert {u["branch"] for u in support} == {"heavy-tank", "heavy-sp-gun", "heavy-artillery"}
    assert all(u["front"] is None for u in support)


def test_a_corps_with_wrong_split_values_is_refused() -> None:
    raw = _edit(RAW, "sov-8gtc", "strength", "[20, 17, 8]")
    with pytest.raises(
        DataError, match=r"unit sov-8gtc\.strength: expected \[20, 18, 8\] \(rulebook 5\.73\)"
    ):
        load_counters(raw)


# --- 9.2: German reinforcements --------------------------------------------------------------

# turn -> parent -> (units, where); 9.21 exactly
GERMAN_921 = {
    1: {"18 PzG": (4, "NGP")},
    2: {"Fru": (3, "S"), "344": (2, "SW rail"), "Mltk": (1, "hex 3220")},
    3: {"4Pol": (2, "NGP"), "HG": (3, "S")},
    4: {"Lang": (3, "NGP")},
    5: {"HJ": (1, "NGP")},
    6: {"7 Pz": (3, "NGP")},
    7: {"3 Mar": (3, "NGP"), "549": (2, "NGP"), "2 Fj": (1, "NGP")},
    8: {},
    9: {},
    10: {},
}


def _where(place: dict) -> str:
    if place["hex"] is not None:
        return f"hex {place['hex']}"
    return place["at"] + (" rail" if place["rail"] else "")


@pytest.mark.parametrize("turn", sorted(GERMAN_921))
def test_german_reinforcement_schedule_of_9_21(data: dict, units: dict, turn: int) -> None:
    ids = reinforcements(data, "german", turn)
    found: dict[str, tuple[int, str]] = {}
    for parent, n in _formations(units, ids).items():
        wheres = {_where(units[i]["place"]) for i in ids if units[i]["parent"] == parent}
        assert len(wheres) == 1, parent
        found[parent] = (n, wheres.pop())
    assert found == GERMAN_921[turn]


def test_german_reinforcements_with_printed_values(units: dict) -> None:
    """9.21: Moltke 1-2-9, Hitler Youth 0-1-7, 2nd Paratroop Brigade 1-1-5."""
    assert _strength(units["ger-mltk"]) == (1, 2, 9)
    assert _strength(units["ger-hj-pzj"]) == (0, 1, 7)
    assert _strength(units["ger-2-fj-bde"]) == (1, 1, 5)
    assert units["ger-mltk"]["branch"] == units["ger-hj-pzj"]["branch"] == "tank-destroyer"


def test_the_344th_enters_by_railroad(data: dict, units: dict) -> None:
    """9.16: the 344th Infantry Division (two units) enters by railroad from SW on turn 2."""
    ids = [i for i in reinforcements(data, "german", 2) if units[i]["parent"] == "344"]
    assert len(ids) == 2
    assert all(units[i]["place"]["rail"] and units[i]["place"]["at"] == "SW" for i in ids)


# --- 9.5, 9.6: Soviet and American reinforcements ----------------------------------------

SOVIET_95 = {
    2: ({"1st Guards Cavalry Corps", "7th Guards Mechanized Corps", "1st Polish Tank Corps"}, "SE"),
    3: (
        {
            "2nd Belorussian Front supply depot",
            "1st Guards Tank Corps",
            "8th Guards Tank Corps",
            "3rd Guards Cavalry Corps",
        },
        "NE",
    ),
    4: (
        {
            "3rd Guards Rifle Corps",
            "20th Rifle Corps",
            "128th Rifle Corps",
            "1st Ukrainian Front supply depot",
        },
        "SE",
    ),
    5: ({"1st Belorussian Front supply depot"}, "E"),
}


@pytest.mark.parametrize("turn", [2, 3, 4, 5])
def test_soviet_reinforcement_schedule_of_9_5(data: dict, units: dict, turn: int) -> None:
    ids = [i for i in reinforcements(data, "soviet", turn) if units[i]["nationality"] != "american"]
    names, at = SOVIET_95[turn]
    assert set(_by_name(units, ids)) == names
    assert {units[i]["place"]["at"] for i in ids} == {at}


def test_the_28th_army_and_the_polish_tank_corps(units: dict) -> None:
    """9.5: the 28th Army's three corps; the 1st Polish Tank Corps is Polish."""
    assert {units[i]["parent"] for i in ("sov-3grc", "sov-20rc", "sov-128rc")} == {"28A"}
    assert units["sov-1pol-tc"]["nationality"] == "polish"


def test_second_belorussian_front_turn_3_group_is_four_units(data: dict, units: dict) -> None:
    """12.35: the 2BF reinforcements of turn 3 are four units, the supply depot included."""
    ids = [i for i in reinforcements(data, "soviet", 3) if units[i]["front"] == "2BF"]
    assert len(ids) == 4
    assert "sov-2bf-depot" in ids


def test_depots_by_front(units: dict) -> None:
    """9.5 and 8.12: one depot of each front; 6.15: a Soviet depot defends with 1, cannot attack."""
    for ident, front in (
        ("sov-2bf-depot", "2BF"),
        ("sov-1uf-depot", "1UF"),
        ("sov-1bf-depot", "1BF"),
    ):
        unit = units[ident]
        assert unit["front"] == front and unit["branch"] == "depot"
        assert (unit["attack"], unit["defence"]) == (0, 1)


def test_american_units_of_9_71(data: dict, units: dict) -> None:
    ids = [i for i in reinforcements(data, "soviet", 6)]
    assert set(_by_name(units, ids)) == {
        "9th Infantry Division",
        "69th Infantry Division",
        "104th Infantry Division",
        "3rd Armored Division",
    }
    for i in ids:
        assert units[i]["nationality"] == "american" and units[i]["place"]["at"] == "SW"
        assert units[i]["steps"] == 2  # 6.52
    no_later = [i for t in range(7, 11) for i in reinforcements(data, "soviet", t)]
    assert no_later == []


# --- 9.3, 12.3: the 12th Army and the 6th SS Panzer Army -----------------------------------

TWELFTH_932 = {
    'Infantry Division "Ulrich von Hutten" (UvH)',
    'Infantry Division "Ferdinand von Schill" (FvS)',
    'Infantry Division "Scharnhorst" (Shst)',
    'Infantry Division "Potsdam" (Pots)',
    'Reich Labour Division "Theodor Körner" (T.Kör)',
    'Reich Labour Division "Schlageter" (Sgtr)',
    '38th SS Panzergrenadier Division "Nibelungen" (Nib)',
    "106th Panzer Brigade",
    "210th Assault Gun Brigade",
    'Panzer Division "Clausewitz" (Clau)',
    'Panzer-hunter brigade "Hermann Göring" (HG)',
}


def test_twelfth_army_of_9_32(data: dict, units: dict) -> None:
    ids = pool(data, "12th-army")
    assert len(ids) == 11
    assert set(_by_name(units, ids)) == TWELFTH_932
    assert group(data, "12th-army") == ids


def test_twelfth_army_draws_of_9_33(data: dict) -> None:
    """9.33: four in turn 7, four in turn 8; 9.34: at a W hex."""
    assert data["twelfth_army"] == {
        "draws": [{"turn": 7, "count": 4}, {"turn": 8, "count": 4}],
        "at": "W",
    }


def test_sixth_ss_panzer_army_of_12_32(data: dict, units: dict) -> None:
    """12.32: twenty units with a yellow band, an HQ and nineteen others, of the named
    formations."""
    ids = pool(data, "6th-ss")
    assert len(ids) == 20
    hqs = [i for i in ids if units[i]["size"] == "hq"]
    assert hqs == ["ger-6ss-hq"]
    names = " ".join(units[i]["name"] for i in ids)
    for named in (
        "LAH",
        "Das Reich",
        "Totenkopf",
        "Hitler Youth",
        "6th Panzer Division",
        "710th Infantry Division",
        "Führer Grenadier",
        "356th",
        "Keitel",
        "Folkmann",
        "Stau",
    ):
        assert named in names, named


def test_twelfth_army_and_sixth_ss_score_nothing(data: dict, units: dict) -> None:
    """11.14 and 12.34: 12th Army and 6th SS units are not counted for VP."""
    for ident in pool(data, "12th-army") + pool(data, "6th-ss"):
        assert survival_vp(units[ident]) == 0


def test_dropping_a_twelfth_army_unit_is_refused() -> None:
    with pytest.raises(
        DataError, match=r"group 12th-army: 10 units, expected 11 \(rulebook 9\.32\)"
    ):
        load_counters(_drop(RAW, "ger-12a-nib"))


# --- 8.3: the reinforcement pools of Jüterbog and Spandau ------------------------------------


def test_jueterbog_and_spandau(units: dict) -> None:
    """8.32: the German depot at Jüterbog (3625); 8.33: Alkett at Spandau (2324)."""
    assert units["ger-depot"]["place"] == {
        "map": "op",
        "hex": 3625,
        "out_of_supply": False,
    }
    assert units["ger-alkett"]["place"] == {
        "map": "op",
        "hex": 2324,
        "out_of_supply": False,
    }


def _eligible(units: dict, test, strength: tuple) -> list[str]:
    return [i for i, u in units.items() if test(u) and _strength(u) == strength]


def test_jueterbog_examples_of_8_32_can_be_made(units: dict) -> None:
    """8.32: 1-2-5, 1-1-5, 1-1-5 and 0-1-5, or 1-2-5 and 2-2-5: infantry of 4 defence.
    The four-unit example adds up to 5 defence, not 4 (a rulebook slip): the 4 is the rule."""
    assert JUETERBOG_DEFENCE == 4
    assert len(_eligible(units, jueterbog_eligible, (1, 2, 5))) >= 1
    assert len(_eligible(units, jueterbog_eligible, (1, 1, 5))) >= 2
    assert len(_eligible(units, jueterbog_eligible, (0, 1, 5))) >= 1
    assert len(_eligible(units, jueterbog_eligible, (2, 2, 5))) >= 1
    first, second = [(1, 2, 5), (1, 1, 5), (1, 1, 5), (0, 1, 5)], [(1, 2, 5), (2, 2, 5)]
    assert sum(d for _, d, _ in first) == 5  # the slip: over the limit, so not allowed
    assert sum(d for _, d, _ in second) == JUETERBOG_DEFENCE


def test_jueterbog_excludes_the_600th_and_takes_ss_infantry(data: dict, units: dict) -> None:
    """8.32: not the 600th Division's regiments (nor Volkssturm, which are no units here);
    SS infantry may be chosen."""
    assert group(data, "600th")
    assert not any(jueterbog_eligible(units[i]) for i in group(data, "600th"))
    assert jueterbog_eligible(units["ger-bec"])  # an SS infantry regiment
    assert not jueterbog_eligible(units["ger-mltk"])
    assert not any("volkssturm" in i for i in units)


def test_alkett_examples_of_8_33_can_be_made(units: dict) -> None:
    """8.33: 1-1-9 and 0-1-9, or one 1-2-9: armour, assault gun or tank hunter of 2 defence."""
    assert ALKETT_DEFENCE == 2
    for strength in ((1, 1, 9), (0, 1, 9), (1, 2, 9)):
        assert _eligible(units, alkett_eligible, strength), strength
    assert not alkett_eligible(units["ger-281-inf"])
    assert not alkett_eligible(units["ger-20-pzg-a"])  # panzergrenadiers are not named


def test_the_600th_division_is_on_the_map(data: dict, units: dict) -> None:
    """9.4: the 600th Division is on the map when the die is first rolled (turn 2)."""
    assert all("area" in units[i]["place"] for i in group(data, "600th"))


# --- 8.4, 6.8: Volkssturm and Delay markers --------------------------------------------------


def test_twenty_five_volkssturm_with_a_mix_of_backs(data: dict) -> None:
    """8.42: 25 Volkssturm; 8.45: some backs move less than the front. The mix is a stand-in."""
    vs = data["volkssturm"]
    assert vs["count"] == 25
    mix = volkssturm_mix(data)
    assert sum(mix.values()) == 25
    assert any(b["movement"] < vs["front_movement"] for b in vs["backs"])


def test_twenty_eight_delay_markers(data: dict) -> None:
    """6.81: 28 Delay markers; 5.18's example shows a -2."""
    mix = delay_mix(data)
    assert sum(mix.values()) == 28
    assert mix[-2] >= 1
    assert all(value < 0 for value in mix)


def test_a_delay_mix_that_does_not_add_up_is_refused() -> None:
    raw = RAW.replace(b"value = -4\ncount = 2", b"value = -4\ncount = 3")
    assert raw != RAW
    with pytest.raises(
        DataError, match=r"delay\.value: the mix counts 29 markers, expected 28 \(6\.81\)"
    ):
        load_counters(raw)


# --- 6.9, 10: artillery markers and the initial deployment ------------------------------------


def test_four_artillery_markers_on_armies_with_corps(data: dict, units: dict) -> None:
    """6.91: four markers, each placed on a corps of its own army; 2.25 shows 8GA."""
    armies = [m["army"] for m in data["artillery"]]
    assert len(armies) == 4 and "8GA" in armies
    on_map = {units[i]["parent"] for i in initial(data, "soviet")}
    assert set(armies) <= on_map


def test_german_deployment_codes_a_to_j_without_i(data: dict) -> None:
    """10.0, 10.22: groups A, B, C, D, E, F, G, H, J and "other"."""
    codes = {u["place"]["area"] for u in data["units"].values() if "area" in u["place"]}
    assert codes == set("ABCDEFGHJ")
    assert in_area(data, "I") == []


def test_initial_deployment_respects_stacking(data: dict, units: dict) -> None:
    """4.0: 4 points an Operational hex, 2 a City hex; 4.17: one nationality a hex."""
    hexes: dict[tuple, list[dict]] = {}
    for i in initial(data, "soviet") + initial(data, "german"):
        place = units[i]["place"]
        if "map" in place:
            hexes.setdefault((place["map"], place["hex"]), []).append(units[i])
    assert hexes
    for (map_name, _), here in hexes.items():
        assert sum(u["stacking"] for u in here) <= (4 if map_name == "op" else 2)
        assert len({u["nationality"] for u in here}) == 1


def test_fronts_and_the_second_belorussian_front(data: dict, units: dict) -> None:
    """6.18, 8.12: every Soviet unit but the support units and Americans has a front."""
    for i in initial(data, "soviet"):
        assert units[i]["front"] in ("1BF", "2BF", "1UF"), i
    assert any(units[i]["front"] == "2BF" for i in initial(data, "soviet"))


def test_overstacked_start_is_refused() -> None:
    raw = _edit(RAW, "sov-80rc", "place", '{ map = "op", hex = 1211 }')
    with pytest.raises(DataError, match=r"op hex 1211: 8 stacking points, over the limit of 4"):
        load_counters(raw)


# --- 11.14 --------------------------------------------------------------------------------


def test_survival_vp_of_11_14(units: dict) -> None:
    assert survival_vp(units["ger-hitler"]) == 25
    assert survival_vp(units["ger-281-inf"]) == 1  # infantry
    assert survival_vp(units["ger-1-naval"]) == 1  # naval infantry
    assert survival_vp(units["ger-frnk-at"]) == 1  # anti-tank gun
    assert survival_vp(units["ger-stettin-flak"]) == 1  # flak
    assert survival_vp(units["ger-610-zbv"]) == 1  # special duty
    assert survival_vp(units["ger-fueb"]) == 2  # all others
    assert survival_vp(units["ger-9-fj-a"]) == 2


# --- errors -----------------------------------------------------------------------------------


def test_broken_file_lists_every_problem_one_per_item() -> None:
    raw = _edit(RAW, "ger-281-inf", "stacking", "9")
    raw = _edit(raw, "sov-4grc", "branch", '"armour"')
    raw = _edit(raw, "ger-hitler", "provenance", None)
    with pytest.raises(DataError) as caught:
        load_counters(raw)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("counters.toml: ")
    assert message.split("; ") == [  # file order: the Soviet units come first
        "counters.toml: unit sov-4grc.branch: no soviet unit has branch armour (rulebook 2.22)",
        "counters.toml: unit ger-281-inf.stacking: 9 is not in 0..4",
        "counters.toml: unit ger-hitler: missing 'provenance' (a rulebook section or 'stand-in')",
    ]


def test_special_unit_values_are_checked() -> None:
    raw = _edit(RAW, "ger-goerlitz", "strength", "[0, 3, 0]")
    with pytest.raises(
        DataError, match=r"unit ger-goerlitz\.strength: expected \(0, 4, 0\) \(rulebook 2\.21\)"
    ):
        load_counters(raw)


def test_a_bad_place_is_named() -> None:
    raw = _edit(RAW, "ger-281-inf", "place", '{ area = "I" }')
    with pytest.raises(DataError, match=r"unit ger-281-inf\.place\.area: 'I' is not one of A, B"):
        load_counters(raw)


def test_not_toml_is_one_line() -> None:
    with pytest.raises(DataError, match=r"^counters\.toml: not valid TOML"):
        load_counters(b"[[unit]\n")


# --- agreement with the stand-in map (data/map.toml) --------------------------------------------


@pytest.fixture(scope="module")
def game_map() -> dict:
    """map.toml as parsed TOML (its loader is another module's): grids, areas, start line."""
    return parse_toml(shipped_files(PACKAGE, ("map.toml",))["map.toml"], "map.toml")


def _on_map(game_map: dict, map_name: str, hex_id: int) -> bool:
    """The hex is printed and used: map.toml draws one string per column XX, west on the
    left (YY falling), " " for no hex; 2321 and 2322 are not used (2.1)."""
    grid = game_map["operational" if map_name == "op" else "city"]
    first, last = int(grid["first"]), int(grid["last"])
    xx, yy = divmod(hex_id, 100)
    if not (first // 100 <= xx <= last // 100 and first % 100 <= yy <= last % 100):
        return False
    if map_name == "op" and f"{hex_id:04d}" in game_map["unused"]["hexes"]:
        return False
    row = grid["terrain"][xx - first // 100]
    return row[last % 100 - yy] != " "


def test_start_hexes_are_on_the_map(units: dict, game_map: dict) -> None:
    placed = [u for u in units.values() if "map" in u["place"]]
    assert len(placed) > 50
    for unit in placed:
        place = unit["place"]
        assert _on_map(game_map, place["map"], place["hex"]), unit["id"]
    assert _on_map(game_map, "op", units["ger-mltk"]["place"]["hex"])  # 9.21: 3220


def test_soviet_start_east_of_the_start_line_german_west(units: dict, game_map: dict) -> None:
    """8.18 and 11.15 read the start line east of the German deployment codes: the Soviets
    start east of it, the Germans' fixed hexes west of it, off the deployment areas."""
    east = game_map["start_line"]["east_rows"]
    areas = {int(h) for d in game_map["deployment"] for h in d["hexes"]}
    for unit in units.values():
        place = unit["place"]
        if place.get("map") != "op":
            continue
        xx, yy = divmod(place["hex"], 100)
        if unit["side"] == "soviet":
            assert yy <= east[xx - 1] and place["hex"] not in areas, unit["id"]
        else:
            assert yy > east[xx - 1], unit["id"]


def test_deployment_codes_and_entry_letters_match_the_map(data: dict, game_map: dict) -> None:
    """10.22: the codes are the map's areas; 9.x: every entry letter is one the map draws."""
    codes = {u["place"]["area"] for u in data["units"].values() if "area" in u["place"]}
    assert codes == {d["area"] for d in game_map["deployment"]}
    letters = {u["place"]["at"] for u in data["units"].values() if u["place"].get("at")}
    assert letters - {"NGP"} <= set(game_map["entry"])
    assert data["twelfth_army"]["at"] in game_map["entry"]
