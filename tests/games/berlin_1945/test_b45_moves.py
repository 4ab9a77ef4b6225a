"""Movement orders (rulebook 5, 5.1-5.5): groups, adjacency, rings, order types, stacking,
order counts, the frozen Reichstag garrison and the Areas."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.position import german_base_orders
from pbem.testing import Table
from tests.games.berlin_1945.b45_support import (
    Pool,
    clear,
    give,
    held,
    put,
    remove,
    say,
    table,
    to_plan,
    units_in,
    zone_of,
)


def german_turn(seed: int = 0) -> tuple[Table, Pool]:
    t = to_plan(seed)
    say(t, "soviet", "plan none")
    assert t.state["step"] == "german"
    clear(t.state)
    return t, Pool(t.state)


def soviet_plan_turn(seed: int = 0) -> tuple[Table, Pool]:
    t = to_plan(seed)
    clear(t.state)
    return t, Pool(t.state)


# --- rulebook 5: examples 1-3 ----------------------------------------------------------------


def test_rulebook_5_example_1_one_order_two_destinations_one_unit_stays() -> None:
    t, pool = soviet_plan_turn()
    units = pool.take("soviet-regular", 5, "15")
    say(t, "soviet", "plan 15 -> 16:2, 8:2")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 1")
    where = sorted(zone_of(t, u) for u in units)
    assert where == ["15", "16", "16", "8", "8"]


def test_rulebook_5_example_2_whole_group_advances() -> None:
    t, pool = soviet_plan_turn()
    units = pool.take("soviet-regular", 5, "15")
    say(t, "soviet", "plan 15 -> 8:all")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 1")
    assert {zone_of(t, u) for u in units} == {"8"}


def test_rulebook_5_example_3_two_start_zones_need_two_orders() -> None:
    t, pool = soviet_plan_turn()
    pool.take("soviet-regular", 2, "15")
    pool.take("soviet-regular", 2, "16")
    pool.take("soviet-regular", 1, "15")
    # 5, 7.3: the units of one zone move to at most two destinations (1.1: in all the
    # turn's orders, for both sides alike; test_b45_timing has the German side)
    with pytest.raises(IllegalOrderError, match="at most two destination zones"):
        say(t, "soviet", "plan 15 -> 8:1, 16:1; 15 -> 14:1")
    say(t, "soviet", "plan 15 -> 8:all; 16 -> 8:all")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 2")
    say(t, "soviet", "execute 1")
    assert len(units_in(t, "8")) == 5


# --- 5.1 adjacency ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "adjacent"),
    [
        ("7", "1", True),
        ("7", "2", True),
        ("14", "8", False),
        ("14", "15", True),
        ("14", "7", True),
        ("8", "15", True),
        ("8", "16", True),
        ("8", "2", True),
        ("8", "3", True),
        ("8", "7", True),
        ("3", "I", False),
        ("15", "7", False),
        ("2", "II", False),
        ("1", "I", False),
    ],
)
def test_rulebook_5_1_adjacency_examples(a: str, b: str, adjacent: bool) -> None:
    adj = tables.of(table().state).adj
    for side in ("german", "soviet"):
        assert (b in adj[side][a]) is adjacent
        assert (a in adj[side][b]) is adjacent


def test_rulebook_5_1_german_treats_all_mitte_sectors_as_adjacent() -> None:
    t, pool = german_turn()
    assert "III" not in tables.of(t.state).adj["soviet"]["I"]
    unit = pool.take("wehrmacht", 1, "I")
    say(t, "german", f"move i -> iii: {unit[0]}")
    assert zone_of(t, unit[0]) == "III"


def test_rulebook_5_1_soviet_may_not_plan_a_non_adjacent_destination() -> None:
    t, pool = soviet_plan_turn()
    pool.take("soviet-regular", 2, "14")
    with pytest.raises(IllegalOrderError, match="not adjacent"):
        say(t, "soviet", "plan 14 -> 8:all")


# --- 5.2 restrictions ------------------------------------------------------------------------


def test_rulebook_5_2_germans_cannot_enter_areas() -> None:
    t, pool = german_turn()
    unit = pool.take("wehrmacht", 1, "15")
    with pytest.raises(IllegalOrderError, match=r"Areas \(rulebook 5.2\)"):
        say(t, "german", f"move 15 -> a: {unit[0]}")


def test_rulebook_5_2_reichstag_garrison_frozen_until_soviets_enter_the_mitte() -> None:
    t = to_plan()
    say(t, "soviet", "plan none")
    frozen = sorted(u for u, v in tables.of(t.state).units.items() if v.frozen)
    assert len(frozen) == 2 and all(zone_of(t, u) == "V" for u in frozen)
    with pytest.raises(IllegalOrderError, match="5.2"):
        say(t, "german", f"move v -> i: {frozen[0]}")
    t.state["flags"]["mitte"] = True
    say(t, "german", f"move v -> i: {frozen[0]}")


# --- 5.3 stacking ----------------------------------------------------------------------------


def test_rulebook_5_3_stacking_cancels_the_whole_order() -> None:
    t, pool = german_turn()
    cap = tables.of(t.state).limit["2"]["german"]
    pool.take("wehrmacht", cap, "2")
    movers = pool.take("wehrmacht", 2, "8")
    with pytest.raises(IllegalOrderError, match=r"stacking limit of 2 .*5.3"):
        say(t, "german", f"move 8 -> 2: {movers[0]}; 3: {movers[1]}")
    assert zone_of(t, movers[1]) == "8"


def test_rulebook_5_3_reichstag_german_limit_4_until_soviets_in_sectors() -> None:
    t, pool = german_turn()
    pool.take("wehrmacht", 4, "V")
    mover = pool.take("wehrmacht", 1, "I")
    with pytest.raises(IllegalOrderError, match="stacking limit of V"):
        say(t, "german", f"move i -> v: {mover[0]}")
    t.state["flags"]["sectors"] = True  # a Soviet unit entered Sectors I-IV
    say(t, "german", f"move i -> v: {mover[0]}")
    assert zone_of(t, mover[0]) == "V"


def test_rulebook_5_3_soviets_unlimited_in_the_reichstag() -> None:
    t, pool = soviet_plan_turn()
    pool.take("soviet-regular", 6, "I")
    pool.take("soviet-regular", 5, "V")
    say(t, "soviet", "plan i -> v:all")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 1")
    assert len(units_in(t, "V")) == 11


def test_rulebook_5_3_first_soviet_entry_into_sectors_flags_the_reichstag_limit() -> None:
    t, pool = soviet_plan_turn()
    pool.take("soviet-regular", 2, "5")
    t.state["control"]["5"] = "soviet"
    say(t, "soviet", "plan 5 -> iii:all")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 1")
    assert t.state["flags"]["sectors"] and t.state["flags"]["mitte"]


# --- 5.4 number of orders --------------------------------------------------------------------


def test_rulebook_5_4_german_four_orders_then_one_extra_by_discarding() -> None:
    t, pool = german_turn()
    groups = [pool.take("wehrmacht", 1, z)[0] for z in ("12", "13", "14", "15", "16", "17")]
    dests = ["13", "14", "15", "16", "17", "18"]
    for uid, frm, to in zip(groups[:4], ("12", "13", "14", "15"), dests, strict=False):
        say(t, "german", f"move {frm} -> {to}: {uid}")
    with pytest.raises(IllegalOrderError, match="used all 4 Movement orders"):
        say(t, "german", f"move 16 -> 17: {groups[4]}")
    hand = held(t, "german")
    ctx = say(t, "german", f"discard #{hand[0]} for move")
    assert ctx.said("unseen")
    say(t, "german", f"move 16 -> 17: {groups[4]}")
    with pytest.raises(IllegalOrderError):
        say(t, "german", f"discard #{hand[1]} for move")


def test_rulebook_5_4_german_orders_reduced_irreversibly() -> None:
    t = to_plan(3)
    state = t.state
    state["flags"]["inner"] = True
    assert german_base_orders(state) == 3
    state["flags"]["sectors"] = True
    assert german_base_orders(state) == 2
    state["flags"]["reichstag"] = True
    assert german_base_orders(state) == 1
    # flags never go back: expelling the Soviets does not clear them
    assert state["flags"]["inner"]


def test_rulebook_5_4_soviet_at_most_three_basic_orders() -> None:
    t, pool = soviet_plan_turn()
    for z in ("15", "16", "17", "18"):
        pool.take("soviet-regular", 1, z)
    with pytest.raises(IllegalOrderError, match="at most 3"):
        say(t, "soviet", "plan 15 -> 8:all; 16 -> 9:all; 17 -> 10:all; 18 -> 11:all")


# --- 5.5 types of orders ---------------------------------------------------------------------


def test_rulebook_5_5_1_advance_needs_a_start_without_enemies() -> None:
    t, pool = german_turn()
    pool.take("soviet-regular", 1, "8")
    units = pool.take("wehrmacht", 2, "8")
    with pytest.raises(IllegalOrderError, match="5.5.1"):
        say(t, "german", f"move 8 -> 15: {units[0]}")


def test_rulebook_5_5_1_german_advance_example_three_orders_to_8() -> None:
    t, pool = german_turn()
    pool.take("soviet-regular", 2, "8")
    a = pool.take("wehrmacht", 3, "2")
    b = pool.take("wehrmacht", 1, "3")
    c = pool.take("wehrmacht", 2, "9")
    say(t, "german", f"move 2 -> 8: {a[0]}, {a[1]}")
    say(t, "german", f"move 3 -> 8: {b[0]}")
    ctx = say(t, "german", f"move 9 -> 8: {', '.join(c)}")
    assert ctx.said("flank")
    assert len(units_in(t, "8", "german")) == 5


def test_rulebook_5_5_3_retreat_leaves_cover_german_one() -> None:
    t, pool = german_turn()
    pool.take("soviet-regular", 1, "8")
    units = pool.take("wehrmacht", 2, "8")
    with pytest.raises(IllegalOrderError, match="leaves 1 unit"):
        say(t, "german", f"move 8 -> 2: {', '.join(units)}")
    say(t, "german", f"move 8 -> 2: {units[0]}")


def test_rulebook_5_5_3_soviet_retreat_leaves_two_and_avoids_germans() -> None:
    t, pool = soviet_plan_turn()
    pool.take("wehrmacht", 1, "8")
    pool.take("wehrmacht", 1, "16")
    pool.take("soviet-regular", 3, "8")
    with pytest.raises(IllegalOrderError, match="leaves 2 unit"):
        say(t, "soviet", "plan 8 -> 15:2")
    with pytest.raises(IllegalOrderError, match="holds German units"):
        say(t, "soviet", "plan 8 -> 16:1")
    say(t, "soviet", "plan 8 -> 15:1")


def test_rulebook_5_5_4_german_withdrawal_limit_and_its_exceptions() -> None:
    t, pool = german_turn()
    t.state["german_max"] = 4
    ws = [pool.take("wehrmacht", 1, z)[0] for z in ("8", "9", "10")]
    yellow = ["de-wenck-1", "de-wenck-2"]
    put(t.state, "11", yellow)
    say(t, "german", f"move 8 -> 2: {ws[0]}")
    say(t, "german", f"move 9 -> 3: {ws[1]}")
    with pytest.raises(IllegalOrderError, match="more than two Withdrawal"):
        say(t, "german", f"move 10 -> 4: {ws[2]}")
    say(t, "german", f"move 11 -> 4: {', '.join(yellow)}")  # yellow dots: not counted
    assert t.state["move"]["withdrawals"] == 2


def test_rulebook_5_5_4_mixed_yellow_group_counts_as_withdrawal() -> None:
    t, pool = german_turn()
    ws = [pool.take("wehrmacht", 1, z)[0] for z in ("8", "9")]
    mixed = pool.take("wehrmacht", 1, "11") + ["de-wenck-1"]
    put(t.state, "11", ["de-wenck-1"])
    say(t, "german", f"move 8 -> 2: {ws[0]}")
    say(t, "german", f"move 9 -> 3: {ws[1]}")
    with pytest.raises(IllegalOrderError, match="5.5.4"):
        say(t, "german", f"move 11 -> 4: {', '.join(sorted(mixed))}")


def test_rulebook_5_5_4_moves_inside_the_mitte_are_not_withdrawals() -> None:
    t, pool = german_turn()
    t.state["flags"]["mitte"] = True
    units = [pool.take("wehrmacht", 1, z)[0] for z in ("I", "II", "III")]
    say(t, "german", f"move i -> v: {units[0]}")
    say(t, "german", f"move ii -> v: {units[1]}")
    say(t, "german", f"move iii -> v: {units[2]}")
    assert t.state["move"]["withdrawals"] == 0


def test_rulebook_5_a_unit_moves_once_per_turn() -> None:
    t, pool = german_turn()
    unit = pool.take("wehrmacht", 1, "12")[0]
    say(t, "german", f"move 12 -> 13: {unit}")
    with pytest.raises(IllegalOrderError, match="already moved"):
        say(t, "german", f"move 13 -> 14: {unit}")


def test_rulebook_5_5_control_changes_only_when_one_side_remains() -> None:
    t, pool = german_turn()
    pool.take("soviet-regular", 1, "2")
    t.state["control"]["2"] = "german"
    unit = pool.take("wehrmacht", 1, "8")[0]
    say(t, "german", f"move 8 -> 2: {unit}")
    assert t.state["control"]["2"] == "german"  # disputed: unchanged
    assert t.state["control"]["8"] == "german"  # empty: stays with its controller


def test_rulebook_5_4_panzergrenadiers_move_a_group_twice() -> None:
    t, pool = german_turn()
    give(t, "german", 24)
    unit = pool.take("wehrmacht", 1, "12")[0]
    with pytest.raises(IllegalOrderError, match="right after"):
        say(t, "german", "play 24")
    say(t, "german", f"move 12 -> 13: {unit}")
    say(t, "german", "play 24")
    say(t, "german", f"move 13 -> 14: {unit}")
    assert zone_of(t, unit) == "14"
    assert t.state["move"]["orders"] == 2 and t.state["move"]["bonus"] == 1
    with pytest.raises(IllegalOrderError, match="already moved"):
        say(t, "german", f"move 14 -> 15: {unit}")


def test_rulebook_2_3_reaction_card_cancels_a_german_order_which_is_undone() -> None:
    t, pool = german_turn()
    give(t, "soviet", 25)  # Reconnaissance Patrol
    unit = pool.take("wehrmacht", 1, "12")[0]
    say(t, "german", f"move 12 -> 13: {unit}")
    say(t, "german", "end movement", react=True)
    assert t.state["step"] == "react" and t.asked() == "soviet"
    with pytest.raises(IllegalOrderError, match="no order 2"):
        say(t, "soviet", "play 25 on 2", react=True)
    ctx = say(t, "soviet", "play 25 on 1", react=True)
    assert list(ctx.opened_now().values()) == [25]
    assert zone_of(t, unit) == "12"
    assert ctx.said("undone")
    say(t, "soviet", "no reaction")
    assert t.state["step"] == "open"


def test_rulebook_2_3_reaction_card_cancels_an_m_card_and_undoes_its_effect() -> None:
    t = to_plan()
    give(t, "soviet", 9)  # NKVD Intelligence
    say(t, "soviet", "plan none")
    # the German placed a Flak tower marker with card #4 this phase (set up directly)
    marker = {"kind": "flak-tower", "side": "german", "amount": 2}
    t.state["markers"]["8"] = [marker]
    t.state["move"]["card_log"] = [
        {"n": 4, "mode": "M", "undo": [{"t": "marker", "zone": "8", "marker": marker}]}
    ]
    say(t, "german", "end movement", react=True)
    assert t.state["step"] == "react"
    with pytest.raises(IllegalOrderError, match="no card 5"):
        say(t, "soviet", "play 9 on card 5", react=True)
    ctx = say(t, "soviet", "play 9 on card 4", react=True)
    assert t.state["markers"]["8"] == []
    assert ctx.said("cancelled")


# --- cancelling cards undo what the cancelled card gave (2.3, 5.4, 6.1) ---------------------


def test_rulebook_2_3_5_4_cancelling_panzergrenadiers_undoes_the_second_move() -> None:
    t, pool = german_turn()
    give(t, "german", 24)
    give(t, "soviet", 9)  # NKVD Intelligence: cancels an M / ! card
    unit = pool.take("wehrmacht", 1, "12")[0]
    say(t, "german", f"move 12 -> 13: {unit}")
    say(t, "german", "play 24")
    say(t, "german", f"move 13 -> 14: {unit}")
    say(t, "german", "end movement", react=True)
    assert t.state["step"] == "react"
    ctx = say(t, "soviet", "play 9 on card 24", react=True)
    # the second move is undone, the first stands (5.4: the card gave the second order)
    assert zone_of(t, unit) == "13"
    assert [n in t.state["move"]["undone"] for n in (1, 2)] == [False, True]
    assert ctx.said("cancelled")


def test_rulebook_2_3_cancelling_an_unused_panzergrenadiers_undoes_nothing_else() -> None:
    t, pool = german_turn()
    give(t, "german", 24)
    give(t, "soviet", 9)
    unit = pool.take("wehrmacht", 1, "12")[0]
    say(t, "german", f"move 12 -> 13: {unit}")
    say(t, "german", "play 24")
    say(t, "german", "end movement", react=True)
    say(t, "soviet", "play 9 on card 24", react=True)
    assert zone_of(t, unit) == "13"
    assert 1 not in t.state["move"]["undone"]


def test_rulebook_2_3_5_4_cancelling_zhukov_undoes_the_orders_it_gave() -> None:
    t, pool = soviet_plan_turn()
    give(t, "soviet", 13)  # Georgi Zhukov: 2 extra Movement orders
    give(t, "german", 21)  # cancels an M / ! card
    starts = ["12", "13", "14", "15", "16"]
    units = {z: pool.take("soviet-regular", 1, z)[0] for z in starts}
    dests = {"12": "6", "13": "7", "14": "7", "15": "8", "16": "9"}
    say(t, "soviet", "plan " + "; ".join(f"{z} -> {dests[z]}:1" for z in starts) + "; card 13")
    say(t, "german", "end movement", react=True)
    say(t, "soviet", "open", react=True)
    for i in range(1, 6):
        say(t, "soviet", f"execute {i}", react=True)
    say(t, "soviet", "end movement", react=True)
    assert t.state["step"] == "react" and t.asked() == "german"
    ctx = say(t, "german", "play 21 on card 13", react=True)
    # orders 4 and 5 (planned beyond the three basic ones) are undone; 1-3 stand
    where = {z: zone_of(t, u) for z, u in units.items()}
    assert where == {"12": "6", "13": "7", "14": "7", "15": "15", "16": "16"}
    assert ctx.said("cancelled")


def test_rulebook_2_3_a_card_whose_order_cannot_be_undone_cannot_be_cancelled() -> None:
    t, pool = german_turn()
    give(t, "german", 24)
    give(t, "soviet", 9)
    unit = pool.take("wehrmacht", 1, "12")[0]
    say(t, "german", f"move 12 -> 13: {unit}")
    say(t, "german", "play 24")
    say(t, "german", f"move 13 -> 14: {unit}")
    say(t, "german", "end movement", react=True)
    remove(t.state, unit)  # gone since (set up directly)
    with pytest.raises(IllegalOrderError, match="cannot be undone"):
        say(t, "soviet", "play 9 on card 24", react=True)


def test_rulebook_2_3_barricades_place_up_to_three_markers_one_a_zone() -> None:
    t, pool = german_turn()
    give(t, "german", 5)  # Barricades (stand-in): up to 3, one a zone, German control
    for z in ("12", "13", "14", "15"):
        t.state["control"][z] = "german"
    with pytest.raises(IllegalOrderError, match="up to 3 zones"):
        say(t, "german", "play 5 in 12, 13, 14, 15")
    with pytest.raises(IllegalOrderError, match="one a zone"):
        say(t, "german", "play 5 in 12, 12")
    say(t, "german", "play 5 in 12, 13, 14")
    placed = {z: [m["kind"] for m in t.state["markers"].get(z, [])] for z in ("12", "13", "14")}
    assert placed == {"12": ["barricade"], "13": ["barricade"], "14": ["barricade"]}
    give(t, "german", 15)  # the second Barricades card cannot stack a zone
    with pytest.raises(IllegalOrderError, match="already has a barricade"):
        say(t, "german", "play 15 in 15, 12")
