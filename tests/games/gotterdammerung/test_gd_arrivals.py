"""Götterdämmerung reinforcement and arrivals (rulebook 8.3, 8.4, 9, 12.35): arrivals.py."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.gotterdammerung import arrivals as ar
from pbem.games.gotterdammerung import counters as c
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import tables as t

BOARD = md.default_map()
DATA = c.default_counters()
TABLES = t.default_tables()
JUETERBOG = "op:3625"
SPANDAU = "op:2324"


def unit(uid: str, h: str, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "side": DATA["units"][uid]["side"], "hex": h, **extra}


def vs(n: int, h: str) -> dict[str, Any]:
    return {"id": f"vs-{n:02d}", "side": "german", "hex": h, "volkssturm": True}


# --- 9.1 entry ------------------------------------------------------------------------------


def test_9_13_enemy_units_bar_an_entry_hex_zoc_does_not() -> None:
    n = BOARD["entry"]["N"]
    assert ar.entry_hexes(BOARD, [], "N", "german") == n
    blocked = [unit("sov-18rc", n[0])]
    assert ar.entry_hexes(BOARD, blocked, "N", "german") == n[1:]
    # a Soviet corps next to an entry hex puts it in ZOC: entry is still allowed (9.13)
    beside = next(h for h in md.neighbours(BOARD, n[1], md.OP) if h not in n)
    assert ar.entry_hexes(BOARD, [unit("sov-18rc", beside)], "N", "german") == n
    assert ar.entry_problem(BOARD, blocked, "german", "N", n[0]) is not None
    assert "9.13" in str(ar.entry_problem(BOARD, blocked, "german", "N", n[0]))
    assert ar.entry_problem(BOARD, blocked, "german", "N", n[1]) is None
    assert "9.1" in str(ar.entry_problem(BOARD, [], "german", "N", "op:2420"))
    # a friendly unit in the hex does not bar it
    assert ar.entry_hexes(BOARD, [unit("ger-281-inf", n[0])], "N", "german") == n


def test_9_13_all_entry_hexes_occupied_the_unit_is_lost() -> None:
    sw = BOARD["entry"]["SW"]
    soviets = [unit(u, h) for u, h in zip(("sov-18rc", "sov-46rc", "sov-105rc"), sw, strict=True)]
    assert ar.entry_hexes(BOARD, soviets, "SW", "german") == []
    assert ar.lost_on_entry(BOARD, soviets, "german", "SW")
    assert not ar.lost_on_entry(BOARD, soviets[:2], "german", "SW")
    # Moltke's single hex (9.21)
    assert ar.lost_on_entry(BOARD, [unit("sov-18rc", "op:3220")], "german", "op:3220")
    assert ar.entry_problem(BOARD, [], "german", "op:3220", "op:3220") is None
    with pytest.raises(ValueError):
        ar.entry_hexes(BOARD, [], "X", "german")
    # without a side the code's owner is meant; "SW" serves both (9.16, 9.71)
    assert ar.entry_hexes(BOARD, soviets[:1], "SE") == BOARD["entry"]["SE"]
    assert ar.entry_hexes(BOARD, [unit("ger-281-inf", "op:3901")], "SE") == BOARD["entry"]["SE"][1:]
    with pytest.raises(ValueError):
        ar.entry_hexes(BOARD, [], "SW")


# --- 9.2, 9.5, 9.6 schedules ------------------------------------------------------------------


def test_9_21_german_schedule() -> None:
    turn1 = ar.german_arrivals(DATA, 1)
    assert len(turn1) == 4 and {e for _, e in turn1} == {"NGP"}  # 18th PzG
    turn2 = dict(ar.german_arrivals(DATA, 2))
    assert [u for u, e in turn2.items() if e == "S"] == ["ger-fru-1", "ger-fru-2", "ger-fru-3"]
    assert turn2["ger-mltk"] == "op:3220"
    assert turn2["ger-344-inf-1"] == "SW" and turn2["ger-344-inf-2"] == "SW"
    turn3 = ar.german_arrivals(DATA, 3)
    assert sorted(e for _, e in turn3) == ["NGP", "NGP", "S", "S", "S"]
    assert [len(ar.german_arrivals(DATA, n)) for n in (4, 5, 6, 7, 8)] == [3, 1, 3, 6, 0]


def test_9_16_the_344th_enters_by_rail() -> None:
    assert ar.by_rail(DATA, "ger-344-inf-1") and ar.by_rail(DATA, "ger-344-inf-2")
    assert not ar.by_rail(DATA, "ger-fru-1")


def test_9_5_soviet_schedule_and_9_71_americans() -> None:
    assert ar.soviet_arrivals(DATA, 2, {}) == [
        ("sov-1gcc", "SE"),
        ("sov-7gmc", "SE"),
        ("sov-1pol-tc", "SE"),
    ]
    turn3 = ar.soviet_arrivals(DATA, 3, {})
    assert {e for _, e in turn3} == {"NE"} and "sov-2bf-depot" in dict(turn3)
    assert len(ar.soviet_arrivals(DATA, 4, {})) == 4
    assert ar.soviet_arrivals(DATA, 5, {}) == [("sov-1bf-depot", "E")]
    americans = ar.soviet_arrivals(DATA, 6, {})
    assert sorted(u for u, _ in americans) == ["us-104id", "us-3ad", "us-69id", "us-9id"]
    assert {e for _, e in americans} == {"SW"}
    assert ar.soviet_arrivals(DATA, 1, {}) == []


def test_12_35_with_the_6th_ss_the_2bf_turn_3_units_arrive_on_turn_2() -> None:
    options = {ar.SIXTH_SS_OPTION: True}
    turn2 = dict(ar.soviet_arrivals(DATA, 2, options))
    assert len(turn2) == 7
    assert turn2["sov-2bf-depot"] == "NE" and turn2["sov-1gtc"] == "NE"
    assert ar.soviet_arrivals(DATA, 3, options) == []
    assert ar.soviet_arrivals(DATA, 4, options) == ar.soviet_arrivals(DATA, 4, {})


# --- 9.22 the North German Plain Box ----------------------------------------------------------

OLD = ["ger-18-pzg-1", "ger-18-pzg-2", "ger-4pol-1", "ger-4pol-2"]
LANG = ["ger-lang-1", "ger-lang-2", "ger-lang-3"]


def test_9_22_rulebook_example() -> None:
    # four German and five Soviet units in the box; the three Langemarck units arrive: seven
    assert ar.ngp_entries(7, 5, 3) == 2
    # "If the Soviet units in the box had totalled six ... only one unit"
    assert ar.ngp_entries(7, 6, 3) == 1
    # equal or more Soviet units: none enters
    assert ar.ngp_entries(7, 7, 3) == 0 and ar.ngp_entries(1, 9, 1) == 0
    with pytest.raises(ValueError):
        ar.ngp_entries(2, 0, 3)
    box = OLD + LANG
    n = BOARD["entry"]["N"][0]
    assert ar.ngp_group_problems(BOARD, [], box, 5, LANG, LANG[:2], n) == []
    assert ar.ngp_group_problems(BOARD, [], box, 6, LANG, LANG[1:2], n) == []


def test_9_22_choice_limits() -> None:
    box = OLD + LANG
    n = BOARD["entry"]["N"][0]
    too_many = ar.ngp_group_problems(BOARD, [], box, 5, LANG, LANG, n)
    assert any("only 2 may enter" in p for p in too_many)
    # this turn's arrivals first
    old_first = ar.ngp_group_problems(BOARD, [], box, 5, LANG, [LANG[0], OLD[0]], n)
    assert any("this turn must be chosen first" in p for p in old_first)
    # all arrivals in: older units may fill the difference
    assert ar.ngp_group_problems(BOARD, [], box, 3, LANG, [*LANG, OLD[0]], n) == []
    # 9.12: entry is not delayed at will
    assert any("must enter" in p for p in ar.ngp_group_problems(BOARD, [], box, 5, LANG, [], n))
    # one "N" hex for all of them
    bad_hex = ar.ngp_group_problems(BOARD, [], box, 5, LANG, LANG[:2], "op:2420")
    assert any('"N" entry hexes' in p for p in bad_hex)
    occupied = ar.ngp_group_problems(BOARD, [unit("sov-18rc", n)], box, 5, LANG, LANG[:2], n)
    assert any("9.13" in p for p in occupied)


def test_5_26_units_that_entered_the_box_from_the_map_never_return() -> None:
    box = ["ger-281-inf", *LANG]
    from_map = ["ger-281-inf"]
    # four German against one Soviet: 3 may enter; the unit from the map may not be one
    problems = ar.ngp_group_problems(
        BOARD, [], box, 1, LANG, ["ger-281-inf", *LANG[:2]], BOARD["entry"]["N"][0], from_map
    )
    assert any("5.26" in p for p in problems)
    ok = ar.ngp_group_problems(BOARD, [], box, 0, LANG, LANG, BOARD["entry"]["N"][0], from_map)
    assert ok == []  # 4 allowed, only 3 eligible: all three must enter, no more


def test_9_22_one_unit_at_a_time() -> None:
    box = OLD + LANG
    assert ar.ngp_choice_problems(box, LANG, [], LANG[0], 2) == []
    first = ar.ngp_choice_problems(box, LANG, [], OLD[0], 2)
    assert first == [
        "units that entered the box this turn leave it first: "
        "ger-lang-1, ger-lang-2, ger-lang-3 (9.22)"
    ]
    # once this turn's arrivals have all left, older units may follow
    rest = OLD + [LANG[2]]
    assert ar.ngp_choice_problems(OLD, LANG, LANG, OLD[0], 1) == []
    assert "no more" in ar.ngp_choice_problems(rest, LANG, LANG[:2], LANG[2], 0)[0]
    assert "5.26" in ar.ngp_choice_problems(box, LANG, [], LANG[0], 2, from_map=[LANG[0]])[0]
    assert "not in the North German Plain Box" in ar.ngp_choice_problems(OLD, LANG, [], "x", 2)[0]


# --- 9.3 the 12th Army ------------------------------------------------------------------------


def test_9_33_9_35_twelfth_army_counts() -> None:
    assert ar.twelfth_army_count(DATA, 7) == 4 and ar.twelfth_army_count(DATA, 8) == 4
    assert [ar.twelfth_army_count(DATA, n) for n in (1, 6, 9, 10)] == [0, 0, 0, 0]
    assert ar.twelfth_army_entry(DATA) == "W"  # 9.34


def test_9_33_twelfth_army_draw_without_replacement() -> None:
    cup = c.pool(DATA, "12th-army")
    assert len(cup) == 11
    drawn, rest = ar.twelfth_army_draw(cup, 3)
    assert drawn == cup[3] and drawn not in rest and len(rest) == 10
    assert cup == c.pool(DATA, "12th-army")  # the caller's cup is not changed
    with pytest.raises(ValueError):
        ar.twelfth_army_draw(cup, 11)
    with pytest.raises(ValueError):
        ar.twelfth_army_draw([], 0)


def test_9_36_twelfth_army_never_enters_transition_or_city_hexes() -> None:
    uvh = DATA["units"]["ger-12a-uvh"]
    assert "9.36" in str(ar.twelfth_barred(BOARD, uvh, "op:2420"))
    assert "9.36" in str(ar.twelfth_barred(BOARD, uvh, "city:0726"))
    assert ar.twelfth_barred(BOARD, uvh, "op:2632") is None
    assert ar.twelfth_barred(BOARD, DATA["units"]["ger-281-inf"], "op:2420") is None
    # a map unit, looked up in the counters data
    assert ar.twelfth_barred(BOARD, unit("ger-12a-uvh", "op:2632"), "op:2420", DATA)


def test_12_34_sixth_ss_may_enter_transition_hexes_not_city_hexes() -> None:
    lah = DATA["units"]["ger-6ss-lah-1"]
    assert ar.sixth_ss_barred(BOARD, lah, "op:2420") is None
    assert "12.34" in str(ar.sixth_ss_barred(BOARD, lah, "city:0726"))
    assert ar.sixth_ss_barred(BOARD, DATA["units"]["ger-281-inf"], "city:0726") is None


def test_9_37_12_34_which_crt() -> None:
    assert ar.crt_for_attack(DATA, ["ger-12a-uvh", "ger-12a-clau"]) == "soviet"  # 9.37
    assert ar.crt_for_attack(DATA, ["ger-12a-uvh", "ger-281-inf"]) == "german"  # 9.37 mix
    assert ar.crt_for_attack(DATA, ["ger-6ss-lah-1"]) == "soviet"  # 12.34
    assert ar.crt_for_attack(DATA, ["ger-6ss-lah-1", "ger-12a-uvh"]) == "german"  # 12.34
    assert ar.crt_for_attack(DATA, [unit("ger-281-inf", "op:0307")]) == "german"
    assert ar.crt_for_attack(DATA, [vs(1, "city:0726")]) == "german"
    assert ar.crt_for_attack(DATA, ["sov-18rc"]) == "soviet"


# --- 9.4 Vlasov -----------------------------------------------------------------------------


def test_9_4_vlasov_revolt() -> None:
    assert [ar.vlasov_revolts(r) for r in range(1, 7)] == [False] * 3 + [True] * 3
    with pytest.raises(ValueError):
        ar.vlasov_revolts(7)
    units = [unit("ger-600-1", "op:2809"), unit("ger-281-inf", "op:0307")]
    assert ar.vlasov_units(DATA, units) == ["ger-600-1"]
    assert not ar.vlasov_roll_due(DATA, units, 1, withdrawn=False)  # from turn 2
    assert ar.vlasov_roll_due(DATA, units, 2, withdrawn=False)
    assert not ar.vlasov_roll_due(DATA, units, 5, withdrawn=True)  # never again
    assert not ar.vlasov_roll_due(DATA, units[1:], 3, withdrawn=False)


# --- 8.32, 8.33 German reinforcement ----------------------------------------------------------

DEPOT = unit("ger-depot", JUETERBOG)
ALKETT = unit("ger-alkett", SPANDAU)


def test_8_32_rulebook_example_two_units() -> None:
    # "the two units 1-2-5 and 2-2-5": 606th (1-2-5) and a 344th regiment (2-2-5)
    assert (DATA["units"]["ger-606-inf"]["defence"], DATA["units"]["ger-344-inf-1"]["defence"]) == (
        2,
        2,
    )
    chosen = ["ger-606-inf", "ger-344-inf-1"]
    places = {"ger-606-inf": JUETERBOG, "ger-344-inf-1": "op:3525"}
    assert ar.jueterbog_problems(BOARD, DATA, [DEPOT], chosen, places, destroyed=chosen) == []


def test_8_32_rulebook_example_four_units_total_five_kept_at_four() -> None:
    # 1-2-5, 1-1-5, 1-1-5 and 0-1-5 total 5 defence: the rule's 4 is kept (module doc)
    chosen = ["ger-606-inf", "ger-gb-a", "ger-bec", "ger-391-sich"]
    assert sum(DATA["units"][u]["defence"] for u in chosen) == 5
    places = dict.fromkeys(chosen, JUETERBOG)
    problems = ar.jueterbog_problems(BOARD, DATA, [DEPOT], chosen, places, destroyed=chosen)
    assert problems == ["the chosen units total 5 defence strength, at most 4 (8.32)"]
    assert ar.jueterbog_problems(BOARD, DATA, [DEPOT], chosen[1:], places, destroyed=chosen) != []


def test_8_32_who_may_be_chosen() -> None:
    destroyed = ["ger-600-1", "ger-20-pzg-a", "ger-606-inf", "ger-35-sspol"]
    for uid in ("ger-600-1", "ger-20-pzg-a"):  # the 600th; not infantry
        problems = ar.jueterbog_problems(
            BOARD, DATA, [DEPOT], [uid], {uid: JUETERBOG}, destroyed=destroyed
        )
        assert problems and "8.32" in problems[0]
    # SS infantry may be chosen
    ss = ar.jueterbog_problems(
        BOARD, DATA, [DEPOT], ["ger-35-sspol"], {"ger-35-sspol": JUETERBOG}, destroyed=destroyed
    )
    assert ss == []
    # only destroyed units
    alive = ar.jueterbog_problems(
        BOARD, DATA, [DEPOT], ["ger-342-inf"], {"ger-342-inf": JUETERBOG}, destroyed=destroyed
    )
    assert alive == ["ger-342-inf is not a destroyed unit (8.32)"]
    # without `destroyed` the caller has checked it
    unchecked = ar.jueterbog_problems(
        BOARD, DATA, [DEPOT], ["ger-342-inf"], {"ger-342-inf": JUETERBOG}
    )
    assert unchecked == []


def test_8_32_depot_and_unlimited_supply_line() -> None:
    chosen, places = ["ger-606-inf"], {"ger-606-inf": JUETERBOG}
    none = ar.jueterbog_problems(BOARD, DATA, [], chosen, places, destroyed=chosen)
    assert none and "Jüterbog" in none[0]
    ring = [unit("sov-18rc", h) for h in md.neighbours(BOARD, JUETERBOG, md.OP)]
    cut = ar.jueterbog_problems(BOARD, DATA, [DEPOT, *ring], chosen, places, destroyed=chosen)
    assert cut and "supply line" in cut[0]
    assert not ar.jueterbog_open(BOARD, DATA, [DEPOT, *ring])
    assert ar.jueterbog_open(BOARD, DATA, [DEPOT])


def test_8_32_placement_hexes() -> None:
    chosen = ["ger-606-inf"]
    far = ar.jueterbog_problems(
        BOARD, DATA, [DEPOT], chosen, {"ger-606-inf": "op:3825"}, destroyed=chosen
    )
    assert any("adjacent" in p for p in far)
    # a Soviet corps two hexes away puts one neighbour of Jüterbog in its ZOC
    near = set(md.neighbours(BOARD, JUETERBOG, md.OP))
    spot = next(
        h
        for h in md.neighbours(BOARD, "op:3525", md.OP)
        if h not in near and h != JUETERBOG and not (set(md.neighbours(BOARD, h)) & {JUETERBOG})
    )
    soviet = unit("sov-18rc", spot)
    zoc_hex = "op:3525"
    in_zoc = ar.jueterbog_problems(
        BOARD, DATA, [DEPOT, soviet], chosen, {"ger-606-inf": zoc_hex}, destroyed=chosen
    )
    assert any("Soviet ZOC" in p for p in in_zoc)
    # ... unless a German unit is already there
    friend = unit("ger-281-inf", zoc_hex)
    assert (
        ar.jueterbog_problems(
            BOARD, DATA, [DEPOT, soviet, friend], chosen, {"ger-606-inf": zoc_hex}, destroyed=chosen
        )
        == []
    )
    on_it = unit("sov-46rc", "op:3726")
    occupied = ar.jueterbog_problems(
        BOARD, DATA, [DEPOT, on_it], chosen, {"ger-606-inf": "op:3726"}, destroyed=chosen
    )
    assert any("holds Soviet units" in p for p in occupied)


def test_8_32_excess_units_are_removed_only_when_no_room() -> None:
    chosen = ["ger-606-inf"]
    hexes = [JUETERBOG, *md.neighbours(BOARD, JUETERBOG, md.OP)]
    full = [unit("ger-281-inf", h) for h in hexes for _ in range(2)]  # 2 x 2 points each
    assert ar.jueterbog_problems(BOARD, DATA, [DEPOT, *full], chosen, {}, destroyed=chosen) == []
    over = ar.jueterbog_problems(
        BOARD, DATA, [DEPOT, *full], chosen, {"ger-606-inf": JUETERBOG}, destroyed=chosen
    )
    assert any("stacking points" in p for p in over)
    room = full[:-1]  # one hex has room for a 1-point unit
    left_out = ar.jueterbog_problems(BOARD, DATA, [DEPOT, *room], chosen, {}, destroyed=chosen)
    assert any("can still be placed" in p for p in left_out)


def test_8_33_rulebook_examples() -> None:
    two = ["ger-25-pzg-c", "ger-kur-b"]  # 1-1-9 armour and 0-1-9 assault gun
    assert [DATA["units"][u]["defence"] for u in two] == [1, 1]
    assert ar.alkett_problems(BOARD, DATA, [ALKETT], two, destroyed=two) == []
    one = ["ger-mltk"]  # a 1-2-9 tank hunter
    assert ar.alkett_problems(BOARD, DATA, [ALKETT], one, destroyed=one) == []
    three = ["ger-mltk", "ger-25-pzg-c"]
    assert ar.alkett_problems(BOARD, DATA, [ALKETT], three, destroyed=three) == [
        "the chosen units total 3 defence strength, at most 2 (8.33)"
    ]
    infantry = ["ger-606-inf"]
    assert ar.alkett_problems(BOARD, DATA, [ALKETT], infantry, destroyed=infantry)
    assert "Alkett" in ar.alkett_problems(BOARD, DATA, [], one, destroyed=one)[0]


def test_8_33_excess_is_lost() -> None:
    full = [unit("ger-281-inf", SPANDAU), unit("ger-281-inf", SPANDAU)]
    one = ["ger-mltk"]
    assert ar.alkett_problems(BOARD, DATA, [ALKETT, *full], one, [], destroyed=one) == []
    over = ar.alkett_problems(BOARD, DATA, [ALKETT, *full], one, destroyed=one)
    assert any("stacking points" in p for p in over)
    assert any(
        "fits on Spandau" in p
        for p in ar.alkett_problems(BOARD, DATA, [ALKETT], one, [], destroyed=one)
    )


# --- 8.4 Volkssturm -------------------------------------------------------------------------


def test_8_41_volkssturm_count() -> None:
    for turn in range(1, 11):
        assert ar.volkssturm_count(TABLES, turn) == t.volkssturm(TABLES, turn)
    assert ar.volkssturm_count(TABLES, 2, left=1) == 1  # 8.42: 25 in all
    assert ar.volkssturm_count(TABLES, 2, left=0) == 0


def test_8_43_volkssturm_hexes() -> None:
    h = "city:0726"
    assert ar.volkssturm_hex_problems(BOARD, DATA, [], h) == []
    assert "Transition" in ar.volkssturm_hex_problems(BOARD, DATA, [], "op:2420")[0]
    assert "Berlin City Map" in ar.volkssturm_hex_problems(BOARD, DATA, [], "op:2632")[0]
    assert any("Chancellery" in p for p in ar.volkssturm_hex_problems(BOARD, DATA, [], "city:0825"))
    soviet = [unit("sov-18rc", h)]
    assert any("Soviet units" in p for p in ar.volkssturm_hex_problems(BOARD, DATA, soviet, h))
    # Soviet ZOC alone does not bar placement
    beside = md.neighbours(BOARD, h, md.CITY)[0]
    assert ar.volkssturm_hex_problems(BOARD, DATA, [unit("sov-18rc", beside)], h) == []


def test_8_43_volkssturm_supply_line() -> None:
    h = "city:0726"
    ring = [unit("sov-18rc", n) for n in md.neighbours(BOARD, h)]
    assert any("supply line" in p for p in ar.volkssturm_hex_problems(BOARD, DATA, ring, h))


def test_8_43_4_13_volkssturm_stacking() -> None:
    h = "city:0726"
    # 4.13: the first Volkssturm counts 0, each further one 1; a City hex holds 2 points
    three = [vs(1, h), vs(2, h)]
    assert ar.volkssturm_hex_problems(BOARD, DATA, three, h) == []
    four = [vs(1, h), vs(2, h), vs(3, h)]
    assert any("stacking points" in p for p in ar.volkssturm_hex_problems(BOARD, DATA, four, h))


def test_8_45_volkssturm_strength_from_unrevealed_identities() -> None:
    mix = c.volkssturm_mix(DATA)
    assert sum(mix.values()) == 25
    first = sorted(mix)[0]
    a, d, m = (int(x) for x in first.split("-"))
    assert ar.volkssturm_strength(mix, 0) == (a, d, m)
    assert ar.volkssturm_strength(mix, 24) == tuple(int(x) for x in sorted(mix)[-1].split("-"))
    # every identity of the first kind revealed: the draw never gives it again
    left = ar.volkssturm_unrevealed(DATA, [(a, d, m)] * mix[first])
    assert first not in left and sum(left.values()) == 25 - mix[first]
    assert all(ar.volkssturm_strength(left, i) != (a, d, m) for i in range(sum(left.values())))
    with pytest.raises(ValueError):
        ar.volkssturm_unrevealed(DATA, [(a, d, m)] * (mix[first] + 1))
    with pytest.raises(ValueError):
        ar.volkssturm_strength({}, 0)
