"""Race to the Sea 1914: the units file (pbem.games.race_to_the_sea.units; rulebook 3, 15.5,
15.6) and the unit facts the worked examples fix (3.3.4, 10.5.3.B, 11.4, 12.9)."""

from __future__ import annotations

import re

import pytest

from pbem.errors import DataError
from pbem.games.datacheck import shipped_files
from pbem.games.race_to_the_sea.units import (
    PACKAGE,
    TABLES,
    UNITS_FILE,
    default_units,
    load_units,
    ratings,
)

RAW = shipped_files(PACKAGE, (UNITS_FILE,))[UNITS_FILE]


@pytest.fixture(scope="module")
def units() -> dict:
    return default_units()["units"]


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


def test_every_unit_of_the_setup_and_reinforcement_tables_with_its_entry(units: dict) -> None:
    """15.5.1, 15.5.2, 15.5.3, 15.6.1, 15.6.2, 15.6.2.2: names and entries as printed."""
    assert units["fr-vi-res"]["entry"] == {
        "turn": 0,
        "after": None,
        "location": "south of the Somme",
    }
    assert units["fr-ii-cav"]["entry"]["location"] == "Amiens"
    assert [
        u for u in units if units[u]["entry"] == {"turn": 1, "after": None, "location": "GRL"}
    ] == [
        "de-i-bav",
        "de-ii-bav",
        "de-xxi",
        "de-xiv-res",
    ]
    assert units["de-xxiv-res"]["entry"] == {"turn": 5, "after": None, "location": "Mons"}
    assert units["de-xviii"]["entry"]["location"] == "La Fere"
    # 15.5.3: the Belgian Army the turn after the siege ends; 15.6.2.2: the German siege
    # units on any turn after it, in any A hex
    assert units["be-army"]["entry"] == {"turn": None, "after": "siege", "location": "A"}
    siege = [u for u in units if units[u]["entry"]["after"] == "belgian-army"]
    assert siege == ["de-iii-res", "de-xxii-res", "de-xxiii-res", "de-xxvi-res", "de-xxvii-res"]
    assert set(TABLES) <= set(units)
    assert {units[u]["side"] for u in units} == {"allies", "germans"}


def test_rulebook_3_3_4_the_french_vi_reserve_exactly(units: dict) -> None:
    assert ratings(units["fr-vi-res"]) == {
        "sz": 2, "met": "B", "rf": 1, "mg": 3, "art": 2, "special": "SQ",
    }  # fmt: skip
    assert units["fr-vi-res"]["provenance"] == "rulebook 3.3.4"


def test_rulebook_10_5_3_b_cavalry_has_at_most_2_sz(units: dict) -> None:
    cavalry = [u for u in units.values() if u["kind"] == "cavalry"]
    assert len(cavalry) == 6
    assert all(1 <= u["sz"] <= 2 for u in cavalry)
    assert any(u["sz"] == 2 for u in cavalry) and any(u["sz"] == 1 for u in cavalry)


def test_rulebook_11_4_german_ii_corps_and_french_iv_corps(units: dict) -> None:
    ii = units["de-ii"]
    # card #5: "Hit if RF 4/3/2; Hit if MG 4; Hit if ART 4/3/2" all apply
    assert ii["mg"] == 4 and ii["rf"] >= 2 and ii["art"] >= 2
    assert ii["entry"]["location"] == "Chauny"
    assert units["fr-iv"]["met"] == "A"


def test_rulebook_12_9_xxiii_reserve_iii_reserve_and_british_iv_corps(units: dict) -> None:
    xxiii, iii, gb_iv = units["de-xxiii-res"], units["de-iii-res"], units["gb-iv"]
    assert xxiii["sz"] == 2  # "eliminated because it has an SZ Rating of 2"
    assert iii["sz"] > gb_iv["sz"]  # "the German unit is larger"
    assert iii["sz"] >= 2  # it survives the one hit with a Light Casualties marker
    assert gb_iv["sz"] <= 3  # three hits eliminate it
    assert gb_iv["nationality"] == "british" and gb_iv["provenance"] == "rulebook 12.9"


def test_the_cut_off_15_5_2_row_is_completed_with_the_british_iv_corps_as_a_stand_in(
    units: dict,
) -> None:
    gb_iv = units["gb-iv"]
    assert gb_iv["entry"]["turn"] is not None and gb_iv["entry"]["turn"] >= 5
    assert "STAND-IN" in gb_iv["note"]
    later = [u for u in units.values() if u["entry"]["turn"] and u["entry"]["turn"] >= 6]
    assert [u["id"] for u in later] == ["gb-indian"] and later[0]["provenance"] == "stand-in"


def test_false_reports_per_nationality_with_the_british_one_on_turn_4(units: dict) -> None:
    """3.1.3, 3.2.1: no boxes, SZ 0; 15.5.2: a British False Report arrives on Turn 4."""
    false = [u for u in units.values() if u["kind"] == "false-report"]
    assert {u["nationality"] for u in false} == {"french", "british", "belgian", "german"}
    assert all(u["sz"] == 0 and u["met"] is None and u["rf"] is None for u in false)
    british = [u for u in false if u["nationality"] == "british"]
    assert [(u["entry"]["turn"], u["entry"]["location"]) for u in british] == [(4, "Abbeville")]
    assert british[0]["provenance"] == "rulebook 15.5.2"


def test_provenance_on_every_unit_and_a_note_on_every_stand_in(units: dict) -> None:
    for unit in units.values():
        assert re.match(r"^(stand-in|rulebook \S.*)\Z", unit["provenance"])
        if unit["provenance"] == "stand-in" or unit["kind"] != "false-report":
            assert unit["note"]


def test_ratings_in_range_and_siege_reserves_with_heavy_artillery(units: dict) -> None:
    """3.2: SZ 1-4, MET A-D, RF/MG/ART 1-4; 7.7.1's historical note: HA for the Reserve
    units entering after the siege."""
    for unit in units.values():
        if unit["kind"] == "false-report":
            continue
        assert 1 <= unit["sz"] <= 4 and unit["met"] in "ABCD"
        assert all(1 <= unit[r] <= 4 for r in ("rf", "mg", "art"))
        assert unit["special"] in ("SQ", "HA", "")
    assert all(
        units[u]["special"] == "HA" for u in units if units[u]["entry"]["after"] == "belgian-army"
    )


def test_the_at_start_stack_in_amiens_is_within_the_stacking_limit(units: dict) -> None:
    """10.2.A: six SZ per hex; 15.5.1 puts three units in Amiens."""
    amiens = [
        u for u in units.values() if u["entry"] == {"turn": 0, "after": None, "location": "Amiens"}
    ]
    assert len(amiens) == 3 and sum(u["sz"] for u in amiens) <= 6


def test_the_loader_lists_every_problem_in_one_data_error() -> None:
    raw = _edit(RAW, "fr-i-cav", "sz", "3")
    raw = _edit(raw, "fr-xiv", "id", '"fr-xvi"')
    raw = _edit(raw, "fr-xiii", "met", '"E"')
    raw = _edit(raw, "de-xviii", "provenance", None)
    raw = _edit(raw, "de-xix", "location", '"Lille"')
    with pytest.raises(DataError) as caught:
        load_units(raw)
    message = str(caught.value)
    assert "\n" not in message
    assert "units.toml: unit fr-i-cav.sz: cavalry has at most 2 SZ (10.5.3.B), found 3" in message
    assert "unit fr-xvi: duplicate id" in message
    assert "unit fr-xiii.met: 'E' is not one of A, B, C, D" in message
    assert "unit de-xviii: missing 'provenance'" in message
    assert "unit de-xix.location: 'Lille' is not one of" in message


def test_the_loader_refuses_what_the_rulebook_fixes() -> None:
    with pytest.raises(DataError, match=r"unit fr-vi-res: expected .*rulebook 3\.3\.4"):
        load_units(_edit(RAW, "fr-vi-res", "rf", "2"))  # 3.3.4's misprint is not followed
    with pytest.raises(DataError, match=r"unit de-ii: needs MG 4 .*11\.4"):
        load_units(_edit(RAW, "de-ii", "mg", "3"))
    with pytest.raises(DataError, match=r"unit fr-iv: needs MET A \(rulebook 11\.4\)"):
        load_units(_edit(RAW, "fr-iv", "met", '"B"'))
    with pytest.raises(DataError, match=r"de-xxiii-res: needs SZ 2.*12\.9"):
        load_units(_edit(RAW, "de-xxiii-res", "sz", "3"))
    with pytest.raises(DataError, match=r"de-iii-res: must be larger than the British IV"):
        load_units(_edit(RAW, "de-iii-res", "sz", "3"))
    with pytest.raises(DataError, match=r"unit de-xv: missing \(rulebook 15\.6\.2 names it\)"):
        load_units(_edit(RAW, "de-xv", "id", '"de-xv-other"'))
    with pytest.raises(DataError, match=r"unit de-xix: expected .*15\.6\.2"):
        load_units(_edit(RAW, "de-xix", "turn", "3"))
    with pytest.raises(DataError, match=r"unit be-army: give exactly one of 'turn'"):
        load_units(_edit(RAW, "be-army", "turn", "3"))


def test_a_false_report_has_no_ratings() -> None:
    raw = _edit(RAW, "gb-false-1", "met", '"C"')
    with pytest.raises(
        DataError, match="unit gb-false-1: a False Report has no ratings, found met"
    ):
        load_units(raw)
    with pytest.raises(DataError, match=r"unit gb-false-1.sz: 1 is not in 0..0"):
        load_units(_edit(RAW, "gb-false-1", "sz", "1"))
