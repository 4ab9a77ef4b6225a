"""Race to the Sea 1914: the cards file and the card evaluator
(pbem.games.race_to_the_sea.cards; rulebook 6, 7.7.1-7.7.3, 11, 12, 13), with the worked
examples of 11.4, 12.9 and 13.0."""

from __future__ import annotations

import itertools

import pytest

from pbem.errors import DataError
from pbem.games.datacheck import shipped_files
from pbem.games.race_to_the_sea.cards import (
    CARDS_FILE,
    COVERS,
    EMPTY_HEX,
    PACKAGE,
    CardTextError,
    assault_cover,
    assault_hits,
    default_cards,
    evaluate,
    event_result,
    firepower_hits,
    foch_takes_command,
    forced_march,
    load_cards,
    lowest,
    parse_section,
    siege_ends,
)
from pbem.games.race_to_the_sea.initiative import bid_round
from pbem.games.race_to_the_sea.units import default_units, ratings

RAW = shipped_files(PACKAGE, (CARDS_FILE,))[CARDS_FILE]
DATA = default_cards()
UNITS = default_units()["units"]
GERMAN = {card["number"]: card for card in DATA["combat"]["germans"]}
ALLIED = {card["number"]: card for card in DATA["combat"]["allies"]}


def unit(ident: str) -> dict:
    return ratings(UNITS[ident])


def _edit(raw: bytes, old: str, new: str) -> bytes:
    text = raw.decode()
    assert text.count(old) == 1, old
    return text.replace(old, new).encode()


# --- the worked examples -------------------------------------------------------------------------


def test_rulebook_11_4_german_5_against_allied_6_in_noyon_gives_one_net_hit() -> None:
    """II Corps fires at the French IV Corps in Noyon (a City: Medium Cover): #5's three
    hits, #6's -2 (MET A, Medium Cover), one net hit."""
    attack = GERMAN[5]["firepower_attack"]
    defense = ALLIED[6]["firepower_defense"]
    assert attack["text"] == "Hit if RF 4/3/2; Hit if MG 4; Hit if ART 4/3/2"
    assert defense["text"] == "-1 Hit if MET A; -1 Hit if Heavy Cover; -1 Hit if Medium Cover"
    ii, iv = unit("de-ii"), unit("fr-iv")
    assert evaluate(attack["lines"], ii, iv, {"cover": "medium", "higher": False}) == 3
    assert evaluate(defense["lines"], iv, ii, {"cover": "medium", "higher": False}) == -2
    assert firepower_hits(GERMAN[5], ALLIED[6], ii, iv, {"cover": "medium"}) == 1
    assert GERMAN[5]["provenance"] == ALLIED[6]["provenance"] == "rulebook 11.4"


def test_rulebook_11_4_both_cards_are_event_cards_so_event_11_fires() -> None:
    """13.0.A: #5 and #6 both say EVENT!: the Event of 11 applies though 11.4 is silent."""
    assert GERMAN[5]["event"] and ALLIED[6]["event"]
    result = event_result(DATA, {"germans": 5, "allies": 6}, momentum="germans")
    assert result is not None and result["sum"] == 11
    assert result["side"] == "allies"  # the higher card


def test_rulebook_12_9_xxiii_reserve_across_the_river_into_ypres() -> None:
    """German #9 against Allied #7, Ypres a City (Medium) made Heavy by the river (2.1.4.C):
    no hits on the British, two on the XXIII Reserve, which is eliminated (SZ 2)."""
    ypres = assault_cover("medium", across_river=True)
    assert ypres == "heavy"
    xxiii, gb_iv = unit("de-xxiii-res"), unit("gb-iv")
    for higher in (None, "attacker"):  # from the Elevated hex: elevation does not matter here
        situation = {"cover": ypres, "higher": higher}
        assert assault_hits(GERMAN[9], ALLIED[7], xxiii, gb_iv, situation) == (0, 2)
    assert xxiii["sz"] <= 2


def test_rulebook_12_9_iii_reserve_big_push_on_the_british_iv_corps() -> None:
    """Allied #12 scores one hit on the larger III Reserve; of the German #3 and #11 the
    Germans play #3 for three hits; the British IV Corps is eliminated, the III Reserve
    survives with a Light Casualties marker. Holds whatever Ypres's cover from Dixmude."""
    iii, gb_iv = unit("de-iii-res"), unit("gb-iv")
    for cover in ("medium", "heavy"):
        situation = {"cover": cover}
        on_british_3, on_german = assault_hits(GERMAN[3], ALLIED[12], iii, gb_iv, situation)
        on_british_11, on_german_11 = assault_hits(GERMAN[11], ALLIED[12], iii, gb_iv, situation)
        assert on_german == on_german_11 == 1
        assert on_british_3 == 3 and on_british_11 < on_british_3
        assert on_british_3 >= gb_iv["sz"] and on_german < iii["sz"]
    assert "Hit if enemy larger" in ALLIED[12]["assault_defense"]["text"]
    small = dict(iii, sz=gb_iv["sz"])  # not larger: #12's line does not apply
    assert assault_hits(GERMAN[3], ALLIED[12], small, gb_iv, {"cover": "heavy"})[1] == 0


def test_rulebook_13_0_cards_4_and_5_sum_to_9_counter_attack_for_the_higher_card() -> None:
    """The French drew #4, the Germans #5: Counter-Attack/Wave-Attack, for the Germans."""
    result = event_result(DATA, {"germans": 5, "allies": 4}, momentum="allies")
    assert result is not None
    assert result["sum"] == 9 and result["side"] == "germans"
    assert result["entry"]["title"] == "Counter-Attack/Wave-Attack"
    assert result["entry"]["kind"] == "counter-attack"
    assert result["entry"]["provenance"] == "rulebook 13.0"
    swapped = event_result(DATA, {"germans": 4, "allies": 5}, momentum="germans")
    assert swapped is not None and swapped["side"] == "allies"


def test_rulebook_7_5_1_and_8_3_initiative_cards() -> None:
    """Six cards a side (6.1); the Germans hold a 4 and the Allies a 2 (7.5.1), both a 5
    (8.3's design note)."""
    bids = DATA["initiative"]
    assert len(bids["germans"]) == len(bids["allies"]) == 6
    assert 4 in bids["germans"] and 2 in bids["allies"]
    assert 5 in bids["germans"] and 5 in bids["allies"]
    assert bid_round({"germans": 4, "allies": 2}, "germans").order()[:2] == ["germans", "germans"]
    assert bid_round({"germans": 5, "allies": 5}, "germans").lull


# --- the decks ------------------------------------------------------------------------------------


def test_rulebook_6_2_twelve_cards_a_side_events_on_1_to_6_four_sections() -> None:
    for deck in (GERMAN, ALLIED):
        assert sorted(deck) == list(range(1, 13))
        assert [n for n in deck if deck[n]["event"]] == [1, 2, 3, 4, 5, 6]
        for card in deck.values():
            for section in (
                "firepower_attack",
                "firepower_defense",
                "assault_attack",
                "assault_defense",
            ):
                assert card[section]["text"] and card[section]["lines"]
    assert any(card["empty_hex"] for card in GERMAN.values())
    assert any(card["empty_hex"] is None for card in ALLIED.values())
    assert GERMAN != ALLIED  # 6.2.C: "not exactly the same"


def test_provenance_rulebook_only_where_an_example_fixes_the_card() -> None:
    fixed = {
        ("germans", 5): "rulebook 11.4",
        ("allies", 6): "rulebook 11.4",
        ("germans", 3): "rulebook 12.9",
        ("germans", 9): "rulebook 12.9",
        ("germans", 11): "rulebook 12.9",
        ("allies", 7): "rulebook 12.9",
        ("allies", 12): "rulebook 12.9",
    }
    for side, deck in (("germans", GERMAN), ("allies", ALLIED)):
        for n, card in deck.items():
            assert card["provenance"] == fixed.get((side, n), "stand-in")
            assert card["note"]


def test_rulebook_12_6_no_endless_repeated_combat() -> None:
    """Checked property (cards.py): each deck holds an Assault Attack that scores at least
    one hit whatever the units and the situation; with 6.2.D's reshuffle only when a deck
    runs out, any 23 draws hold it. Also checked by brute force for every pair of real
    units in the data, at full strength and with every rating worn down to its floor, in
    every cover class and elevation: some attack card never gives a 0-0 tie."""
    for deck in (GERMAN, ALLIED):
        assert any(lowest(card["assault_attack"]["lines"]) >= 1 for card in deck.values())
    real = [u for u in UNITS.values() if u["kind"] != "false-report"]
    worn = {"sz": 1, "met": "D", "rf": 1, "mg": 1, "art": 1}
    situations = [{"cover": c, "higher": h} for c in COVERS for h in (None, "attacker", "defender")]
    for a, d in itertools.product(real, real):
        if a["side"] == d["side"]:
            continue
        deck_a = GERMAN if a["side"] == "germans" else ALLIED
        deck_d = ALLIED if a["side"] == "germans" else GERMAN
        for attacker, defender in (
            (ratings(a), ratings(d)),
            ({**ratings(a), **worn}, {**ratings(d), **worn}),
        ):
            for situation in situations:
                assert any(
                    all(
                        assault_hits(ac, dc, attacker, defender, situation) != (0, 0)
                        for dc in deck_d.values()
                    )
                    for ac in deck_a.values()
                ), (a["id"], d["id"], situation)


def test_firepower_defense_only_reduces_and_net_hits_never_go_below_zero() -> None:
    """11.2.E, H: the sum of both sections, no effect at 0 or below."""
    for card in (*GERMAN.values(), *ALLIED.values()):
        assert all(line["hits"] < 0 for line in card["firepower_defense"]["lines"])
        assert all(line["hits"] > 0 for line in card["assault_defense"]["lines"])
    weak = {"sz": 1, "met": "D", "rf": 1, "mg": 1, "art": 1, "special": ""}
    iv = unit("fr-iv")
    assert evaluate(GERMAN[5]["firepower_attack"]["lines"], weak, iv, {"cover": "medium"}) == 0
    assert firepower_hits(GERMAN[5], ALLIED[6], weak, iv, {"cover": "medium"}) == 0


def test_rulebook_2_1_4_c_a_river_adds_cover_only_against_assaults() -> None:
    assert assault_cover("light", across_river=True) == "medium"  # the forest example
    assert assault_cover("light", across_river=False) == "light"
    assert assault_cover("none", across_river=True) == "light"
    assert assault_cover("heavy", across_river=True) == "heavy"  # nothing above Heavy


def test_rulebook_12_9_an_empty_hex_is_0_sz_d_met_and_reads_only_the_empty_hex_result() -> None:
    assert EMPTY_HEX["sz"] == 0 and EMPTY_HEX["met"] == "D"
    xxiii = unit("de-xxiii-res")
    # Allied #1: "Hit if enemy MET D" on the Empty Hex: the C MET attacker takes none...
    assert ALLIED[1]["empty_hex"]["text"] == "Hit if enemy MET D"
    assert assault_hits(GERMAN[9], ALLIED[1], xxiii, None, {"cover": "none"})[1] == 0
    d_met = dict(xxiii, met="D")
    assert assault_hits(GERMAN[9], ALLIED[1], d_met, None, {"cover": "none"})[1] == 1
    # ...and never its Assault Defense (#2: "Hit if RF 4/3; Hit if Heavy Cover", which would
    # score in Heavy Cover); a card with no Empty Hex result has no effect (12.9.B)
    assert ALLIED[2]["empty_hex"] is None
    heavy = {"cover": "heavy", "empty_hex": True}
    assert assault_hits(GERMAN[9], ALLIED[2], d_met, unit("gb-iv"), heavy)[1] == 0
    assert assault_hits(GERMAN[9], ALLIED[2], d_met, unit("gb-iv"), {"cover": "heavy"})[1] == 2
    # the attacker is larger than the 0 SZ defender (German #3: "Hit if larger")
    assert assault_hits(GERMAN[3], ALLIED[2], xxiii, None, {"cover": "none"})[0] >= 1


def test_the_card_grammar() -> None:
    own = {"sz": 3, "met": "B", "rf": 2, "mg": 4, "art": 4, "special": "SQ"}
    enemy = {"sz": 2, "met": "D", "rf": 1, "mg": 1, "art": 1, "special": "HA"}
    flat = {"cover": "none", "higher": False}

    def score(text: str, situation: dict = flat) -> int:
        return evaluate(parse_section(text), own, enemy, situation)

    assert score("2 Hits if ART 4") == 2
    assert score("Hit if larger; Hit if enemy larger") == 1
    assert score("Hit if SQ; Hit if HA; Hit if enemy HA") == 2
    assert score("Hit if enemy MET C/D and enemy RF 1") == 1
    assert score("Hit if MET A; -1 Hit if MET B") == -1
    assert score("Hit if Higher Elevation") == 0
    assert score("Hit if Higher Elevation", {"cover": "none", "higher": True}) == 1
    assert score("-1 Hit if Heavy Cover", {"cover": "heavy", "higher": False}) == -1
    assert score("Hit if No Cover; Hit") == 2
    assert score("No effect") == 0
    assert parse_section("-2 Hits if SZ 4/3")[0]["if"] == [
        {"test": "rating", "whose": "own", "rating": "sz", "values": [4, 3]}
    ]
    assert lowest(parse_section("Hit; Hit if MG 4; -1 Hit if Heavy Cover")) == 0
    for bad in ("Hit if MG 5", "Hits if MG 4", "2 Hit", "Hit if Fog", "Hit if MET E", "Hit if"):
        with pytest.raises(CardTextError):
            parse_section(bad)


# --- the Event table, the turn track, the forced march ------------------------------------------


def test_rulebook_13_0_the_event_table() -> None:
    entries = DATA["events"]["entries"]
    assert [e["sum"] for e in entries] == list(range(2, 13))
    kinds = {e["kind"] for e in entries}
    assert {"planned-operations", "momentum", "hit", "reveal", "counter-attack"} <= kinds
    assert {e["to"] for e in entries} == {"higher", "lower", "germans", "allies"}
    assert all(e["provenance"] == "stand-in" for e in entries if e["sum"] != 9)
    # equal cards: the Strategic Momentum side counts as the higher one (stand-in)
    tie = event_result(DATA, {"germans": 2, "allies": 2}, "allies")
    assert tie is not None and tie["entry"]["to"] == "higher" and tie["side"] == "allies"
    lower = event_result(DATA, {"germans": 1, "allies": 4}, "allies")
    assert lower is not None and lower["entry"]["to"] == "lower" and lower["side"] == "germans"
    assert event_result(DATA, {"germans": 7, "allies": 2}, "germans") is None  # 13.0.A


def test_rulebook_7_7_3_the_forced_march_table_exactly() -> None:
    table = {n: forced_march(DATA, n) for n in range(1, 13)}
    printed = {1: (1, 0), 2: (1, 0), 3: (1, 0), 4: (2, 1), 5: (2, 1), 6: (2, 1), 7: (2, 1),
               8: (2, 2), 9: (3, 2), 10: (3, 2), 11: (3, 3), 12: (3, 3)}  # fmt: skip
    assert {n: (r["germans"], r["allies"]) for n, r in table.items()} == printed


def test_rulebook_7_7_1_and_7_7_2_turn_track_entries() -> None:
    turns = DATA["turns"]
    assert [t["turn"] for t in turns] == list(range(1, 11))
    assert not siege_ends(DATA, 1, 12) and not foch_takes_command(DATA, 1, 12)
    assert siege_ends(DATA, 4, 12) and not siege_ends(DATA, 4, 1)
    assert foch_takes_command(DATA, 5, 4) and not foch_takes_command(DATA, 5, 3)
    # stand-in: both certain by Turn 7 (the Belgian Army must get in before the end)
    assert all(siege_ends(DATA, 7, n) and foch_takes_command(DATA, 7, n) for n in range(1, 13))


# --- loader refusals ----------------------------------------------------------------------------


def test_the_loader_lists_every_problem_in_one_data_error() -> None:
    raw = _edit(
        RAW, "Hit if RF 4/3/2; Hit if MG 4; Hit if ART 4/3/2", "Hit if RF 4/3/2; Hit if MG 4"
    )
    raw = _edit(
        raw,
        'side = "germans"\nnumber = 8\nevent = false',
        'side = "germans"\nnumber = 8\nevent = true',
    )
    raw = _edit(raw, '"Hit if MG 4/3/2; -1 Hit if Heavy Cover"', '"Hit if MG 9"')
    nine = 'sum = 9\ntitle = "Counter-Attack/Wave-Attack"\nkind = "counter-attack"\nto = '
    raw = _edit(raw, nine + '"higher"', nine + '"lower"')
    raw = _edit(
        raw,
        "low = 8\nhigh = 8\ngermans = 2\nallies = 2",
        "low = 8\nhigh = 8\ngermans = 2\nallies = 1",
    )
    raw = _edit(raw, "turn = 3\n", "turn = 2\n")
    eight = ' Hit if Light Cover"\nassault_attack = "2 Hits'
    raw = _edit(raw, '"-1' + eight, '"' + eight.lstrip())
    with pytest.raises(DataError) as caught:
        load_cards(raw)
    message = str(caught.value)
    assert "\n" not in message
    five = "Hit if RF 4/3/2; Hit if MG 4; Hit if ART 4/3/2"
    assert (
        f"cards.toml: combat germans #5.firepower_attack: expected {five!r} (rulebook 11.4)"
        in message
    )
    assert "combat germans #8.event: expected False (6.2.B: EVENT! on #1-#6)" in message
    assert "combat germans #5.assault_attack: 'MG 9': a MG value is not in 1..4" in message
    assert (
        "combat germans #8.firepower_defense: Firepower Defense lines only take hits away"
        in message
    )
    assert "event 9: expected ('counter-attack', 'higher') (rulebook 13.0)" in message
    assert "forced_march: expected" in message and "(rulebook 7.7.3)" in message
    assert "turn 2: duplicate turn" in message and "missing turn(s) 3" in message


def test_the_loader_refuses_a_deck_that_allows_endless_repeated_combat() -> None:
    raw = _edit(RAW, 'assault_attack = "Hit; Hit if SQ"', 'assault_attack = "Hit if SQ"')
    raw = _edit(raw, 'assault_attack = "Hit; Hit if MET A"', 'assault_attack = "Hit if MET A"')
    with pytest.raises(
        DataError, match=r"combat allies: no Assault Attack that always scores a hit.*12\.6"
    ):
        load_cards(raw)


def test_the_loader_refuses_initiative_cards_without_the_rulebooks_bids() -> None:
    raw = _edit(RAW, 'side = "allies"\nbid = 2', 'side = "allies"\nbid = 3')
    with pytest.raises(DataError, match=r"initiative allies: needs a 2 \(rulebook 7\.5\.1, 8\.3\)"):
        load_cards(raw)
    raw = _edit(
        RAW,
        'side = "germans"\nbid = 1\nprovenance = "stand-in"\nnote = "Bid Number invented."\n',
        "",
    )
    with pytest.raises(DataError, match=r"initiative germans: expected 6 cards \(6\.1\), found 5"):
        load_cards(raw)
