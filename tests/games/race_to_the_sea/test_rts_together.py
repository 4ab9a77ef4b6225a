"""Race to the Sea 1914: the shipped stand-in data files together. The units' places are
on the map, and the worked examples of 11.4 and 12.9 come out of the map, the units and
the cards as the engine will read them (covers and elevations from the map, not given)."""

from __future__ import annotations

from pbem.games.race_to_the_sea import cards, map_data, units
from pbem.games.race_to_the_sea.units import ratings

BOARD = map_data.default_map()
UNITS = units.default_units()["units"]
CARDS = cards.default_cards()
GERMAN = {card["number"]: card for card in CARDS["combat"]["germans"]}
ALLIED = {card["number"]: card for card in CARDS["combat"]["allies"]}
NOT_PLACES = {
    "A",  # the three Siege of Antwerp hexes (2.1.10)
    "GRL",  # the German Rail Line (15.6.2.1)
    "south of the Somme",  # 15.5.1, an area
    "within two hexes of St Quentin",  # 15.6.1
    "with the at-start or Turn 1 units",  # False Reports, 15.5.B / 15.6.B
}


def test_every_place_a_unit_enters_or_starts_at_is_on_the_map() -> None:
    places = {
        str(unit["entry"]["location"])
        for unit in UNITS.values()
        if unit.get("entry") and unit["entry"].get("location")
    }
    assert places - NOT_PLACES, places
    for place in sorted(places - NOT_PLACES):
        hex_ = map_data.hex_of(BOARD, place)
        assert map_data.terrain(BOARD, hex_) not in ("water", "entrenchment"), place
    st_quentin = map_data.hex_of(BOARD, "St Quentin")  # 15.6.1's German cavalry
    assert map_data.grid(BOARD).within(st_quentin, 2)


def test_rulebook_11_4_from_the_map_noyon_is_medium_cover() -> None:
    noyon = map_data.hex_of(BOARD, "Noyon")
    cover = map_data.cover(BOARD, noyon)
    assert cover == "medium"
    situation = {"cover": cover, "higher": None}
    assert cards.firepower_hits(GERMAN[5], ALLIED[6], ratings(UNITS["de-ii"]),
                                ratings(UNITS["fr-iv"]), situation) == 1  # fmt: skip


def test_rulebook_12_9_from_the_map_the_river_makes_ypres_heavy_cover() -> None:
    """The XXIII Reserve assaults Ypres from its Elevated south-east neighbour, across the
    river: Heavy Cover (2.1.4.C), no hits on the British IV Corps, two on the XXIII."""
    ypres = map_data.hex_of(BOARD, "Ypres")
    south_east = map_data.grid(BOARD).neighbour(ypres, "SE")
    assert south_east is not None
    cover = map_data.assault_cover(BOARD, south_east, ypres)
    assert cover == "heavy" == cards.assault_cover(map_data.cover(BOARD, ypres), True)
    higher = "attacker" if map_data.higher(BOARD, south_east, ypres) else None
    xxiii, british = ratings(UNITS["de-xxiii-res"]), ratings(UNITS["gb-iv"])
    assert cards.assault_hits(GERMAN[9], ALLIED[7], xxiii, british,
                              {"cover": cover, "higher": higher}) == (0, 2)  # fmt: skip
    # From Dixmude (not adjacent to that hex: a flank attack, 12.5.A) the III Reserve's
    # Big Push with #3 eliminates the British IV Corps.
    dixmude = map_data.hex_of(BOARD, "Dixmude")
    assert map_data.grid(BOARD).adjacent(dixmude, ypres)
    assert not map_data.grid(BOARD).adjacent(dixmude, south_east)
    flank = {"cover": map_data.assault_cover(BOARD, dixmude, ypres), "higher": None}
    on_british, _on_german = cards.assault_hits(
        GERMAN[3], ALLIED[12], ratings(UNITS["de-iii-res"]), british, flank
    )
    assert on_british >= british["sz"]
