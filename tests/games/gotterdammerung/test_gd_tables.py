"""Götterdämmerung: the tables (data/tables.toml) and their pure functions: the Terrain
Effects Chart (5.1-5.4), odds and shifts (6.3, 6.4), both CRTs and the overrun's d10 (6.5,
7.1), the Game-Turn Record Track (8.41, 11.16, 11.17)."""

from __future__ import annotations

import itertools

import pytest

from pbem.errors import DataError, IllegalOrderError
from pbem.games.datacheck import shipped_files
from pbem.games.gotterdammerung import tables as t

RAW = shipped_files(t.PACKAGE, (t.TABLES_FILE,))[t.TABLES_FILE].decode()


@pytest.fixture(scope="module")
def data() -> dict:
    return t.default_tables()


def _load(text: str) -> dict:
    return t.load_tables(text.encode())


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


# --- odds: the worked examples ---------------------------------------------------------


def test_6_3_twelve_against_five_is_2_to_1_and_drops_two_points(data: dict) -> None:
    """6.3: "12 ... and 5 ... the ratio is 10:5 = 2:1, the attacker's remaining 2 points of
    attack strength are dropped"."""
    odds = t.odds(data, 12, 5)
    assert (odds.ratio, odds.column, odds.dropped) == ("2:1", "2:1", 2)


def test_6_3_two_columns_left_of_2_to_1_is_1_to_1(data: dict) -> None:
    """6.3: "the ratio ... is 2:1 and the total combat modifier is 'shift 2 columns left',
    the 1:1 column is used"."""
    assert t.odds(data, 12, 5, shift=-2).column == "1:1"


def test_6_3_ratios_beyond_the_table_read_its_end_columns(data: dict) -> None:
    """6.3: "A ratio lower than 1:3 is resolved as 1:3, and a ratio higher than 8:1 is
    resolved as 8:1"."""
    assert t.odds(data, 1, 5).column == "1:3"
    assert t.odds(data, 1, 100).column == "1:3"
    assert t.odds(data, 9, 1).column == "8:1"
    assert t.odds(data, 100, 1).column == "8:1"
    # and after shifts, the column read stays within the table
    assert t.odds(data, 100, 1, shift=5).column == "8:1"
    assert t.odds(data, 1, 5, shift=-3).column == "1:3"


def test_6_48_the_ratio_is_capped_before_it_is_shifted(data: dict) -> None:
    """6.48: "10 and the defence strength is 1, and a two-column left shift is applied, the
    result is not '10:1 -> 8:1' but '8:1 -> 6:1'"."""
    odds = t.odds(data, 10, 1, shift=-2)
    assert (odds.ratio, odds.column) == ("8:1", "6:1")


def test_the_defender_keeps_every_fraction(data: dict) -> None:
    """6.3: "all fractions are rounded in favour of the defender"."""
    assert t.odds(data, 14, 5).column == "2:1"  # 2.8
    assert t.odds(data, 15, 5).column == "3:1"
    assert t.odds(data, 7, 5).column == "1:1"  # 1.4 < 3:2
    assert t.odds(data, 8, 5).column == "3:2"  # 1.6
    assert t.odds(data, 4, 9).column == "1:3"  # 0.44 < 1:2
    assert t.odds(data, 5, 10).column == "1:2"


def test_6_48_a_german_attack_below_1_to_3_before_shifts_may_not_be_made(data: dict) -> None:
    """The second 6.48: below the leftmost column before modifiers, no German attack; the
    Soviet one reads 1:3 (6.3)."""
    with pytest.raises(IllegalOrderError, match=r"^rule 6\.48: a German attack below 1:3"):
        t.odds(data, 2, 7, attacker=t.GERMAN)
    assert t.odds(data, 2, 7, attacker=t.SOVIET).column == "1:3"
    # exactly 1:3 may attack, and a left shift then keeps it on 1:3
    assert t.odds(data, 2, 6, shift=-1, attacker=t.GERMAN).column == "1:3"


def test_6_15_a_zero_attack_may_not_attack(data: dict) -> None:
    with pytest.raises(IllegalOrderError, match=r"^rule 6\.15"):
        t.odds(data, 0, 3)


# --- column shifts (6.4) ---------------------------------------------------------------


def test_6_44_6_45_river_shifts(data: dict) -> None:
    """6.44: all across major rivers 3 left; all across rivers (or major rivers and the rest
    rivers) 1 left; 6.45: one attacker across any other hexside cancels it (1611 and 1711
    against 1712: 1711|1712 is clear)."""
    assert t.river_shift(data, ["major-river", "major-river"]) == -3
    assert t.river_shift(data, ["river", "river"]) == -1
    assert t.river_shift(data, ["major-river", "river"]) == -1
    assert t.river_shift(data, ["major-river", None]) == 0  # the 6.45 example
    assert t.river_shift(data, []) == 0
    assert t.hexside_class(data, ["major-river", "road"]) == "major-river"
    assert t.hexside_class(data, ["spree-bridge"]) == "river"  # 5.36
    assert t.hexside_class(data, ["elbe"]) == "major-river"
    assert t.hexside_class(data, ["minor-river"]) is None


def test_6_43_to_6_47_shifts_add_up(data: dict) -> None:
    """Fortification one left for a German defender only (6.43), artillery three right
    (6.46), the U-Bahn one right (12.12), all cumulative (6.47)."""
    base = t.combat_shift(data, t.SOVIET, "clear")
    assert base == 0
    assert t.combat_shift(data, t.SOVIET, "clear", fortified=True) == -1
    assert t.combat_shift(data, t.GERMAN, "clear", fortified=True, defender=t.SOVIET) == 0
    assert t.combat_shift(data, t.SOVIET, "clear", artillery=True) == 3
    assert t.combat_shift(data, t.SOVIET, "clear", u_bahn=True) == 1
    shifted = t.combat_shift(
        data, t.SOVIET, "clear", crossings=["major-river"], fortified=True, artillery=True
    )
    assert shifted == -3 - 1 + 3


def test_6_42_terrain_columns_on_the_soviet_crt_only(data: dict) -> None:
    """6.42: the Soviet CRT has a column per terrain (a shift here), the German one reads
    "non-clear" for every terrain but clear instead of shifting."""
    for terrain, entry in data["hex_terrain"].items():
        assert t.combat_shift(data, t.SOVIET, terrain) == entry["soviet_crt_shift"]
        assert t.combat_shift(data, t.GERMAN, terrain) == 0
    assert data["hex_terrain"]["clear"]["soviet_crt_shift"] == 0
    assert any(e["soviet_crt_shift"] < 0 for e in data["hex_terrain"].values())
    clear, other = data["german_crt"]["clear"], data["german_crt"]["non-clear"]
    for roll, index in itertools.product(range(1, 7), range(len(data["columns"]))):
        assert t.crt_result(data, t.GERMAN, index, roll, "clear").code == clear[roll - 1][index]
        forest = t.crt_result(data, t.GERMAN, index, roll, "forest").code
        assert forest == other[roll - 1][index]
    assert clear != other


# --- the CRTs and their result codes (6.5, 7.1) ----------------------------------------


def test_result_codes_parse_into_what_6_5_says_they_do() -> None:
    one_dr = t.parse_result("1DR", t.SOVIET)  # 6.52, 6.53
    assert (one_dr.defender_steps, one_dr.defender_retreat, one_dr.retreat_by) == (1, True, "owner")
    assert (one_dr.attacker_steps, one_dr.attacker_retreat) == (0, False)
    three_a = t.parse_result("3A", t.SOVIET)
    assert (three_a.attacker_steps, three_a.attacker_retreat, three_a.type) == (3, False, "nA")
    assert t.parse_result("2AR", t.SOVIET).attacker_retreat
    assert t.parse_result("EX", t.SOVIET).exchange  # 6.54
    assert t.parse_result("DE", t.SOVIET).destroyed  # 6.55
    dash = t.parse_result("–", t.SOVIET)  # 6.56, the rulebook's dash
    assert dash == t.parse_result("-", t.GERMAN) == t.Result(code="-", type="-")
    ar = t.parse_result("AR", t.GERMAN)  # 6.57: the Soviet player retreats the Germans
    assert (ar.attacker_retreat, ar.retreat_by, ar.attacker_steps) == (True, "opponent", 0)
    cases = {  # 6.58: (delay markers, steps lost by the target, retreat by the German player)
        "*": (1, 0, False),
        "**": (2, 0, False),
        "**R": (2, 0, True),
        "**1": (2, 1, False),
        "**1R": (2, 1, True),
    }
    for code, (delay, steps, retreat) in cases.items():
        result = t.parse_result(code, t.GERMAN)
        assert (result.delay, result.defender_steps, result.defender_retreat) == (
            delay,
            steps,
            retreat,
        )
        assert result.retreat_by == ("opponent" if retreat else None)
    assert t.parse_result("**1R", t.GERMAN).as_json()["delay"] == 2


@pytest.mark.parametrize(
    ("code", "crt"),
    [
        ("R", t.SOVIET),  # no bare R: R follows a number (6.53)
        ("4D", t.SOVIET),  # 6.52: 1 to 3
        ("0A", t.SOVIET),
        ("1X", t.SOVIET),
        ("AR", t.SOVIET),  # the German CRT's (6.57)
        ("*", t.SOVIET),
        ("EX", t.GERMAN),  # the Soviet CRT's (6.54)
        ("DE", t.GERMAN),
        ("1D", t.GERMAN),
        ("*R", t.GERMAN),  # 6.58 defines only *, **, **R, **1, **1R
        ("***", t.GERMAN),
        ("", t.GERMAN),
    ],
)
def test_codes_a_table_does_not_define_are_refused(code: str, crt: str) -> None:
    with pytest.raises(ValueError, match=r"is not a (Soviet|German) CRT result"):
        t.parse_result(code, crt)


def test_every_result_type_the_rulebook_defines_is_in_the_tables(data: dict) -> None:
    """6.52-6.58: numbers 1-3 with A or D, followed or not by R; EX; DE; AR; *, **, **R,
    **1, **1R; and "-" on both tables."""
    found = t.result_types(data)
    assert found[t.SOVIET] >= {"-", "nA", "nD", "nAR", "nDR", "EX", "DE", "1", "2", "3"}
    assert found[t.GERMAN] >= {"-", "AR", "*", "**", "**R", "**1", "**1R"}
    every_code = {code for row in data["soviet_crt"] for code in row}
    assert "R" not in every_code and {"1D", "1DR", "2A", "2AR", "3AR", "3DR"} <= every_code


def test_the_loader_refuses_tables_missing_a_result_type() -> None:
    text = RAW.replace('"EX"', '"1A"')
    with pytest.raises(DataError, match=r"soviet_crt: never gives EX \(rulebook 6\.52-6\.56\)"):
        _load(text)
    text = RAW.replace('"**1R"', '"**1"')
    with pytest.raises(DataError, match=r"german_crt: never gives \*\*1R"):
        _load(text)


def test_crt_lookup_by_roll_and_column(data: dict) -> None:
    for roll, index in itertools.product(range(1, 7), range(len(data["columns"]))):
        code = data["soviet_crt"][roll - 1][index]
        assert t.crt_result(data, t.SOVIET, index, roll).code == code
    # the 6.48 example's 6:1 column
    index = t.odds(data, 10, 1, -2).index
    assert t.crt_result(data, t.SOVIET, index, 1).code == data["soviet_crt"][0][index]
    with pytest.raises(ValueError, match="a roll of 7 on a 6-sided die"):
        t.crt_result(data, t.SOVIET, 0, 7)
    with pytest.raises(ValueError, match="a roll of 0"):
        t.crt_result(data, t.GERMAN, 0, 0)


def test_7_1_an_overrun_reads_the_soviet_crt_with_a_d10(data: dict) -> None:
    """7.1: "resolved in the same way as ... 6.3 ... a ten-sided die is always used" (2.4:
    the d10 only for overruns, which only the Soviet player makes, 7.0)."""
    assert len(data["soviet_crt"]) == 10
    for roll in range(1, 11):
        assert t.overrun_result(data, 4, roll).code == data["soviet_crt"][roll - 1][4]
    with pytest.raises(ValueError, match=r"rule 7\.1"):
        t.crt_result(data, t.GERMAN, 0, 8, die=10)
    with pytest.raises(ValueError, match="a roll of 11 on a 10-sided die"):
        t.overrun_result(data, 0, 11)


def test_the_tables_favour_the_attacker_as_odds_rise(data: dict) -> None:
    """Stand-in sanity: at every roll the Soviet defender loses at least as much at higher
    odds (DE counted highest), and the attacker no more."""

    def rank(code: str) -> tuple[int, int]:
        r = t.parse_result(code, t.SOVIET)
        # a step or a retreat counts one; DE above everything
        defender = 10 if r.destroyed else r.defender_steps + r.defender_retreat + r.exchange
        attacker = r.attacker_steps + r.attacker_retreat + r.exchange
        return defender, -attacker

    for row in data["soviet_crt"]:
        ranks = [rank(code) for code in row]
        assert all(a[0] <= b[0] for a, b in itertools.pairwise(ranks)), row
        assert all(a[1] <= b[1] for a, b in itertools.pairwise(ranks)), row
    for rows in zip(data["soviet_crt"], data["soviet_crt"][1:], strict=False):
        # a higher roll is never better for the attacker (the d10's rows 7-10 are the worst)
        assert all(rank(a) >= rank(b) for a, b in zip(*rows, strict=True)), rows


# --- movement (5.1-5.4, 7.1) -----------------------------------------------------------


def test_5_12_and_5_31_movement_examples(data: dict) -> None:
    """5.12: a foot unit into a city hex spends 2; a vehicle into forest across a minor river
    4 (2 + 2). 5.31: a vehicle across a major river into forest 7 (2 + 5)."""
    for city in ("small-city", "major-city"):
        assert t.move_cost(data, t.FOOT, city, side=t.GERMAN) == 2
    assert t.move_cost(data, t.VEHICLE, "forest", ["minor-river"], side=t.SOVIET) == 4
    assert t.move_cost(data, t.VEHICLE, "forest", ["major-river"], side=t.GERMAN) == 7


def test_movement_extras(data: dict) -> None:
    """5.41 a Transition Hex costs 3 whatever its terrain, 5.37 a fortification +1 for Soviet
    units only, 5.22 leaving a weak ZOC +3, 7.1 an overrun +3."""
    assert t.move_cost(data, t.FOOT, "built-up", into_transition=True, side=t.SOVIET) == 3
    assert t.move_cost(data, t.VEHICLE, "clear", fortified=True, side=t.SOVIET) == 2
    assert t.move_cost(data, t.VEHICLE, "clear", fortified=True, side=t.GERMAN) == 1
    assert t.move_cost(data, t.FOOT, "forest", leaving_weak_zoc=True, side=t.GERMAN) == 5
    assert t.move_cost(data, t.VEHICLE, "clear", overrun=True, side=t.SOVIET) == 4


def test_5_32_a_road_replaces_the_terrain_but_not_in_an_overrun(data: dict) -> None:
    road = data["hexside_terrain"]["road"]["vehicle"]
    across = ["major-river", "road"]
    assert t.move_cost(data, t.VEHICLE, "forest", across, side=t.SOVIET) == road
    assert t.move_cost(data, t.VEHICLE, "forest", across, side=t.SOVIET, road=False) == 7
    # 7.29: no road benefit when overrunning (7.1: +3)
    assert t.move_cost(data, t.VEHICLE, "forest", across, side=t.SOVIET, overrun=True) == 10


def test_prohibited_hexsides(data: dict) -> None:
    """5.28 full sea/lake, 5.36 the Spree (a bridge is a river), 5.27 Front boundaries for
    Soviet units."""
    assert t.move_cost(data, t.FOOT, "clear", ["sea-lake"], side=t.GERMAN) is None
    assert t.move_cost(data, t.FOOT, "built-up", ["spree"], side=t.GERMAN) is None
    bridge = t.move_cost(data, t.FOOT, "built-up", ["spree-bridge"], side=t.GERMAN)
    river = t.move_cost(data, t.FOOT, "built-up", ["river"], side=t.GERMAN)
    assert bridge == river is not None
    assert t.move_cost(data, t.FOOT, "clear", ["front-boundary"], side=t.SOVIET) is None
    assert t.move_cost(data, t.FOOT, "clear", ["front-boundary"], side=t.GERMAN) == 1


# --- the Game-Turn Record Track ----------------------------------------------------------


def test_the_turn_track(data: dict) -> None:
    """1.1 ten turns; 8.41 Volkssturm per turn (stand-ins, 25 in all at most, 8.42); 11.16
    bonus VP turns 1-3; 11.17 the Meeting at the Elbe 6: 5, 7: 4, 8: 3, 9 and later: 2."""
    assert len(data["turns"]) == 10
    assert sum(t.volkssturm(data, turn) for turn in range(1, 11)) <= 25
    assert [t.bonus_vp(data, turn) for turn in range(1, 11)] == [True] * 3 + [False] * 7
    assert [t.elbe_vp(data, turn) for turn in range(1, 11)] == [0] * 5 + [5, 4, 3, 2, 2]
    with pytest.raises(ValueError, match="no Game Turn 11"):
        t.volkssturm(data, 11)


# --- the loader ------------------------------------------------------------------------


def test_the_shipped_tables_mark_their_stand_ins() -> None:
    assert 'provenance = "stand-in"' in RAW
    assert RAW.count('volkssturm_provenance = "stand-in"') == 10


def test_the_loader_lists_every_problem_in_one_data_error() -> None:
    text = _swap(RAW, '"1DR", "1DR", "2DR"', '"1DR", "1R", "2DR"')
    text = _swap(
        text, 'id = "marsh"\nname = "Marsh"\nfoot = 2', 'id = "marsh"\nname = "Marsh"\nfoot = 0'
    )
    text = _swap(
        text,
        'id = "sea-lake"\nname = "Full sea or lake"\nprohibited = "all"',
        'id = "sea-lake"\nname = "Full sea or lake"\nprohibited = "none"',
    )
    text = _swap(text, "turn = 4\nvolkssturm = 3", "turn = 4\nvolkssturm = 30")
    text = _swap(text, '[odds]\ncolumns = ["1:3", "1:2"', '[odds]\ncolumns = ["1:3", "x"')
    with pytest.raises(DataError) as caught:
        _load(text)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("tables.toml: ")
    assert "soviet_crt.rows roll 1 column 5: '1R' is not a Soviet CRT result" in message
    assert "hex_terrain marsh.foot: 0 is not in >= 1" in message
    assert "hexside_terrain sea-lake.prohibited: 'none' is not one of all, soviet" in message
    assert "turn #4.volkssturm: 30 is not in 0..25" in message
    assert "odds.columns: not odds such as '3:2': 'x'" in message


def test_the_loader_refuses_what_the_rulebook_states() -> None:
    cases = [
        (
            "foot = 2\nvehicle = 2\nsoviet_crt_shift = -1",
            "foot = 2\nvehicle = 3\nsoviet_crt_shift = -1",
            r"hex_terrain forest\.vehicle: expected 2 \(rulebook 5\.12, 5\.31\)",
        ),
        (
            "foot = 3\nvehicle = 5",
            "foot = 3\nvehicle = 4",
            r"hexside_terrain major-river\.vehicle: expected 5 \(rulebook 5\.31\)",
        ),
        (
            "transition_entry = 3",
            "transition_entry = 2",
            r"movement\.transition_entry: expected 3 \(rulebook 5\.41\)",
        ),
        (
            "shift = -3",
            "shift = -2",
            r"modifier major-river\.shift: expected -3 \(rulebook 6\.44\)",
        ),
        (
            "turn = 7\nvolkssturm = 2\nelbe_vp = 4",
            "turn = 7\nvolkssturm = 2\nelbe_vp = 3",
            r"turn 7\.elbe_vp: expected 4 \(rulebook 11\.17\)",
        ),
        (
            'same_as = "sea-lake"',
            'same_as = "river"',
            r"spree\.same_as: expected 'sea-lake' \(rulebook 5\.36\)",
        ),
    ]
    for old, new, pattern in cases:
        with pytest.raises(DataError, match=pattern):
            _load(_swap(RAW, old, new))


def test_the_odds_columns_must_make_the_examples_true() -> None:
    """Without 3:2 the 6.3 example reads 1:2; without 7:1 the 6.48 one reads 5:1."""
    with pytest.raises(DataError, match=r"12 against 5 shifted 2 left must read 1:1, found 1:2"):
        _load(_drop_column(RAW, 3))
    with pytest.raises(DataError, match=r"10 against 1 shifted 2 left must read 6:1, found 5:1"):
        _load(_drop_column(RAW, 9))
    with pytest.raises(DataError, match=r"must run from 1:3 to 8:1 \(rulebook 6\.3\)"):
        _load(_drop_column(RAW, 10))


def _drop_column(text: str, index: int) -> str:
    """The file without odds column `index`, in the header and every CRT row."""
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("columns = [", "[")) and stripped.endswith(("]", "],")):
            head, _, body = line.partition("[")
            if head.strip() in ("columns =", "") and body.count('"') >= 20:
                items = body.rstrip(",").rstrip("]").split(", ")
                del items[index]
                tail = "]," if stripped.endswith("],") else "]"
                line = f"{head}[{', '.join(items)}{tail}"
        out.append(line)
    return "\n".join(out) + "\n"


def test_a_stand_in_must_say_what_is_invented() -> None:
    text = _swap(
        RAW,
        'note = "Costs and CRT shift invented."\n',
        "",
    )
    with pytest.raises(DataError, match=r"hex_terrain marsh: missing field 'note'"):
        _load(text)
