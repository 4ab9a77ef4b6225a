"""Movement orders (rulebook 5, 5.1-5.5): groups, adjacency, rings, order types, stacking,
order counts, the frozen Reichstag garrison and the Areas."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from tests.games.berlin_1945.b45_support import Game, Pool, clear, give


def german_turn(seed: int = 0) -> tuple[Game, Pool]:
    g = Game(seed)
    g.until("plan")
    g.text("soviet", "plan none")
    assert g.state["step"] == "german"
    clear(g.state)
    return g, Pool(g.state)


def soviet_plan_turn(seed: int = 0) -> tuple[Game, Pool]:
    g = Game(seed)
    g.until("plan")
    clear(g.state)
    return g, Pool(g.state)


def zone_of(g: Game, uid: str) -> str | None:
    return g.state["units"][uid]["zone"]


# --- rulebook 5: examples 1-3 ----------------------------------------------------------------


def test_rulebook_5_example_1_one_order_two_destinations_one_unit_stays() -> None:
    g, pool = soviet_plan_turn()
    units = pool.take("soviet-regular", 5, "15")
    g.text("soviet", "plan 15 -> 16:2, 8:2")
    g.text("german", "end movement")
    g.text("soviet", "open")
    g.text("soviet", "execute 1")
    where = sorted(zone_of(g, u) for u in units)
    assert where == ["15", "16", "16", "8", "8"]


def test_rulebook_5_example_2_whole_group_advances() -> None:
    g, pool = soviet_plan_turn()
    units = pool.take("soviet-regular", 5, "15")
    g.text("soviet", "plan 15 -> 8:all")
    g.text("german", "end movement")
    g.text("soviet", "open")
    g.text("soviet", "execute 1")
    assert {zone_of(g, u) for u in units} == {"8"}


def test_rulebook_5_example_3_two_start_zones_need_two_orders() -> None:
    g, pool = soviet_plan_turn()
    pool.take("soviet-regular", 2, "15")
    pool.take("soviet-regular", 2, "16")
    with pytest.raises(IllegalOrderError, match="two orders from 15"):
        g.text("soviet", "plan 15 -> 8:1; 15 -> 16:1")
    g.text("soviet", "plan 15 -> 8:all; 16 -> 8:all")
    g.text("german", "end movement")
    g.text("soviet", "open")
    g.text("soviet", "execute 2")
    g.text("soviet", "execute 1")
    assert len([u for u in g.state["units"].values() if u["zone"] == "8"]) == 4


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
    state = Game().state
    for side in ("german", "soviet"):
        assert (b in state["map"]["adj"][side][a]) is adjacent
        assert (a in state["map"]["adj"][side][b]) is adjacent


def test_rulebook_5_1_german_treats_all_mitte_sectors_as_adjacent() -> None:
    g, pool = german_turn()
    assert "III" not in g.state["map"]["adj"]["soviet"]["I"]
    unit = pool.take("wehrmacht", 1, "I")
    g.text("german", f"move i -> iii: {unit[0]}")
    assert zone_of(g, unit[0]) == "III"


def test_rulebook_5_1_soviet_may_not_plan_a_non_adjacent_destination() -> None:
    g, pool = soviet_plan_turn()
    pool.take("soviet-regular", 2, "14")
    with pytest.raises(IllegalOrderError, match="not adjacent"):
        g.text("soviet", "plan 14 -> 8:all")


# --- 5.2 restrictions ------------------------------------------------------------------------


def test_rulebook_5_2_germans_cannot_enter_areas() -> None:
    g, pool = german_turn()
    unit = pool.take("wehrmacht", 1, "15")
    with pytest.raises(IllegalOrderError, match=r"Areas \(rulebook 5.2\)"):
        g.text("german", f"move 15 -> a: {unit[0]}")


def test_rulebook_5_2_reichstag_garrison_frozen_until_soviets_enter_the_mitte() -> None:
    g = Game()
    g.until("plan")
    g.text("soviet", "plan none")
    frozen = sorted(u for u, v in g.state["units"].items() if v["frozen"])
    assert len(frozen) == 2 and all(g.state["units"][u]["zone"] == "V" for u in frozen)
    with pytest.raises(IllegalOrderError, match="5.2"):
        g.text("german", f"move v -> i: {frozen[0]}")
    g.state["flags"]["mitte"] = True
    g.text("german", f"move v -> i: {frozen[0]}")


# --- 5.3 stacking ----------------------------------------------------------------------------


def test_rulebook_5_3_stacking_cancels_the_whole_order() -> None:
    g, pool = german_turn()
    cap = g.state["map"]["limit"]["2"]["german"]
    pool.take("wehrmacht", cap, "2")
    movers = pool.take("wehrmacht", 2, "8")
    with pytest.raises(IllegalOrderError, match=r"stacking limit of 2 .*5.3"):
        g.text("german", f"move 8 -> 2: {movers[0]}; 3: {movers[1]}")
    assert zone_of(g, movers[1]) == "8"


def test_rulebook_5_3_reichstag_german_limit_4_until_soviets_in_sectors() -> None:
    g, pool = german_turn()
    pool.take("wehrmacht", 4, "V")
    mover = pool.take("wehrmacht", 1, "I")
    with pytest.raises(IllegalOrderError, match="stacking limit of V"):
        g.text("german", f"move i -> v: {mover[0]}")
    g.state["flags"]["sectors"] = True  # a Soviet unit entered Sectors I-IV
    g.text("german", f"move i -> v: {mover[0]}")
    assert zone_of(g, mover[0]) == "V"


def test_rulebook_5_3_soviets_unlimited_in_the_reichstag() -> None:
    g, pool = soviet_plan_turn()
    pool.take("soviet-regular", 6, "I")
    pool.take("soviet-regular", 5, "V")
    g.text("soviet", "plan i -> v:all")
    g.text("german", "end movement")
    g.text("soviet", "open")
    g.text("soviet", "execute 1")
    assert len([u for u in g.state["units"].values() if u["zone"] == "V"]) == 11


def test_rulebook_5_3_first_soviet_entry_into_sectors_flags_the_reichstag_limit() -> None:
    g, pool = soviet_plan_turn()
    pool.take("soviet-regular", 2, "5")
    g.state["control"]["5"] = "soviet"
    g.text("soviet", "plan 5 -> iii:all")
    g.text("german", "end movement")
    g.text("soviet", "open")
    g.text("soviet", "execute 1")
    assert g.state["flags"]["sectors"] and g.state["flags"]["mitte"]


# --- 5.4 number of orders --------------------------------------------------------------------


def test_rulebook_5_4_german_four_orders_then_one_extra_by_discarding() -> None:
    g, pool = german_turn()
    groups = [pool.take("wehrmacht", 1, z)[0] for z in ("12", "13", "14", "15", "16", "17")]
    dests = ["13", "14", "15", "16", "17", "18"]
    for uid, frm, to in zip(groups[:4], ("12", "13", "14", "15"), dests, strict=False):
        g.text("german", f"move {frm} -> {to}: {uid}")
    with pytest.raises(IllegalOrderError, match="used all 4 Movement orders"):
        g.text("german", f"move 16 -> 17: {groups[4]}")
    slot = g.state["hands"]["german"]["slots"]
    held = sorted(int(k) for k, s in slot.items() if s["status"] == "hand")
    g.text("german", f"discard #{held[0]} for move")
    assert g.last is not None and any("unseen" in e for e in g.last.events)
    g.text("german", f"move 16 -> 17: {groups[4]}")
    with pytest.raises(IllegalOrderError):
        g.text("german", f"discard #{held[1]} for move")


def test_rulebook_5_4_german_orders_reduced_irreversibly() -> None:
    g = Game(3)
    g.until("plan")
    state = g.state
    state["flags"]["inner"] = True
    from pbem.games.berlin_1945.state import german_base_orders

    assert german_base_orders(state) == 3
    state["flags"]["sectors"] = True
    assert german_base_orders(state) == 2
    state["flags"]["reichstag"] = True
    assert german_base_orders(state) == 1
    # flags never go back: expelling the Soviets does not clear them
    assert state["flags"]["inner"]


def test_rulebook_5_4_soviet_at_most_three_basic_orders() -> None:
    g, pool = soviet_plan_turn()
    for z in ("15", "16", "17", "18"):
        pool.take("soviet-regular", 1, z)
    with pytest.raises(IllegalOrderError, match="at most 3"):
        g.text("soviet", "plan 15 -> 8:all; 16 -> 9:all; 17 -> 10:all; 18 -> 11:all")


# --- 5.5 types of orders ---------------------------------------------------------------------


def test_rulebook_5_5_1_advance_needs_a_start_without_enemies() -> None:
    g, pool = german_turn()
    pool.take("soviet-regular", 1, "8")
    units = pool.take("wehrmacht", 2, "8")
    with pytest.raises(IllegalOrderError, match="5.5.1"):
        g.text("german", f"move 8 -> 15: {units[0]}")


def test_rulebook_5_5_1_german_advance_example_three_orders_to_8() -> None:
    g, pool = german_turn()
    pool.take("soviet-regular", 2, "8")
    a = pool.take("wehrmacht", 3, "2")
    b = pool.take("wehrmacht", 1, "3")
    c = pool.take("wehrmacht", 2, "9")
    g.text("german", f"move 2 -> 8: {a[0]}, {a[1]}")
    g.text("german", f"move 3 -> 8: {b[0]}")
    g.text("german", f"move 9 -> 8: {', '.join(c)}")
    assert g.last is not None and any("flank" in e for e in g.last.events)
    assert (
        len([u for u in g.state["units"].values() if u["zone"] == "8" and u["side"] == "german"])
        == 5
    )


def test_rulebook_5_5_3_retreat_leaves_cover_german_one() -> None:
    g, pool = german_turn()
    pool.take("soviet-regular", 1, "8")
    units = pool.take("wehrmacht", 2, "8")
    with pytest.raises(IllegalOrderError, match="leaves 1 unit"):
        g.text("german", f"move 8 -> 2: {', '.join(units)}")
    g.text("german", f"move 8 -> 2: {units[0]}")


def test_rulebook_5_5_3_soviet_retreat_leaves_two_and_avoids_germans() -> None:
    g, pool = soviet_plan_turn()
    pool.take("wehrmacht", 1, "8")
    pool.take("wehrmacht", 1, "16")
    pool.take("soviet-regular", 3, "8")
    with pytest.raises(IllegalOrderError, match="leaves 2 unit"):
        g.text("soviet", "plan 8 -> 15:2")
    with pytest.raises(IllegalOrderError, match="holds German units"):
        g.text("soviet", "plan 8 -> 16:1")
    g.text("soviet", "plan 8 -> 15:1")


def test_rulebook_5_5_4_german_withdrawal_limit_and_its_exceptions() -> None:
    g, pool = german_turn()
    g.state["german_max"] = 4
    ws = [pool.take("wehrmacht", 1, z)[0] for z in ("8", "9", "10")]
    yellow = ["de-wenck-1", "de-wenck-2"]
    for u in yellow:
        g.state["units"][u].update(status="on", zone="11")
    g.text("german", f"move 8 -> 2: {ws[0]}")
    g.text("german", f"move 9 -> 3: {ws[1]}")
    with pytest.raises(IllegalOrderError, match="more than two Withdrawal"):
        g.text("german", f"move 10 -> 4: {ws[2]}")
    g.text("german", f"move 11 -> 4: {', '.join(yellow)}")  # yellow dots: not counted
    assert g.state["move"]["withdrawals"] == 2


def test_rulebook_5_5_4_mixed_yellow_group_counts_as_withdrawal() -> None:
    g, pool = german_turn()
    ws = [pool.take("wehrmacht", 1, z)[0] for z in ("8", "9")]
    mixed = pool.take("wehrmacht", 1, "11") + ["de-wenck-1"]
    g.state["units"]["de-wenck-1"].update(status="on", zone="11")
    g.text("german", f"move 8 -> 2: {ws[0]}")
    g.text("german", f"move 9 -> 3: {ws[1]}")
    with pytest.raises(IllegalOrderError, match="5.5.4"):
        g.text("german", f"move 11 -> 4: {', '.join(sorted(mixed))}")


def test_rulebook_5_5_4_moves_inside_the_mitte_are_not_withdrawals() -> None:
    g, pool = german_turn()
    g.state["flags"]["mitte"] = True
    units = [pool.take("wehrmacht", 1, z)[0] for z in ("I", "II", "III")]
    g.text("german", f"move i -> v: {units[0]}")
    g.text("german", f"move ii -> v: {units[1]}")
    g.text("german", f"move iii -> v: {units[2]}")
    assert g.state["move"]["withdrawals"] == 0


def test_rulebook_5_a_unit_moves_once_per_turn() -> None:
    g, pool = german_turn()
    unit = pool.take("wehrmacht", 1, "12")[0]
    g.text("german", f"move 12 -> 13: {unit}")
    with pytest.raises(IllegalOrderError, match="already moved"):
        g.text("german", f"move 13 -> 14: {unit}")


def test_rulebook_5_5_control_changes_only_when_one_side_remains() -> None:
    g, pool = german_turn()
    pool.take("soviet-regular", 1, "2")
    g.state["control"]["2"] = "german"
    unit = pool.take("wehrmacht", 1, "8")[0]
    g.text("german", f"move 8 -> 2: {unit}")
    assert g.state["control"]["2"] == "german"  # disputed: unchanged
    assert g.state["control"]["8"] == "german"  # empty: stays with its controller


def test_rulebook_5_4_panzergrenadiers_move_a_group_twice() -> None:
    for seed in range(200):
        g = Game(seed)
        g.until("plan")
        g.text("soviet", "plan none")
        hand = g.private("german")["hands"]["german"]["slots"].values()
        if any(s["card"] == 24 and s["status"] == "hand" for s in hand):
            break
    else:
        pytest.skip("no seed deals card 24 in time")
    clear(g.state)
    unit = Pool(g.state).take("wehrmacht", 1, "12")[0]
    with pytest.raises(IllegalOrderError, match="right after"):
        g.text("german", "play 24")
    g.text("german", f"move 12 -> 13: {unit}")
    g.text("german", "play 24")
    g.text("german", f"move 13 -> 14: {unit}")
    assert g.state["units"][unit]["zone"] == "14"
    assert g.state["move"]["orders"] == 2 and g.state["move"]["bonus"] == 1
    with pytest.raises(IllegalOrderError, match="already moved"):
        g.text("german", f"move 14 -> 15: {unit}")


def test_rulebook_2_3_reaction_card_cancels_a_german_order_which_is_undone() -> None:
    for seed in range(300):
        g = Game(seed)
        g.until("plan")
        hand = g.private("soviet")["hands"]["soviet"]["slots"].values()
        if any(s["card"] == 25 and s["status"] == "hand" for s in hand):
            break
    else:
        pytest.skip("no seed deals Soviet card 25")
    g.text("soviet", "plan none")
    clear(g.state)
    unit = Pool(g.state).take("wehrmacht", 1, "12")[0]
    g.react = True
    g.text("german", f"move 12 -> 13: {unit}")
    g.text("german", "end movement")
    assert g.state["step"] == "react" and g.asked() == "soviet"
    with pytest.raises(IllegalOrderError, match="no order 2"):
        g.text("soviet", "play 25 on 2")
    ctx = g.text("soviet", "play 25 on 1")  # Reconnaissance Patrol
    assert list(ctx.opened_now().values()) == [25]
    assert g.state["units"][unit]["zone"] == "12"
    assert any("undone" in e for e in ctx.events)
    g.text("soviet", "no reaction")
    assert g.state["step"] == "open"


def test_rulebook_2_3_reaction_card_cancels_an_m_card_and_undoes_its_effect() -> None:
    for seed in range(300):
        g = Game(seed)
        g.until("plan")
        hand = g.private("soviet")["hands"]["soviet"]["slots"].values()
        if any(s["card"] == 9 and s["status"] == "hand" for s in hand):
            break
    else:
        pytest.skip("no seed deals Soviet card 9")
    g.text("soviet", "plan none")
    g.react = True
    # the German placed a Flak tower marker with card #4 this phase (set up directly)
    marker = {"kind": "flak-tower", "side": "german", "amount": 2}
    g.state["markers"]["8"] = [marker]
    g.state["move"]["card_log"] = [
        {"n": 4, "mode": "M", "undo": [{"t": "marker", "zone": "8", "marker": marker}]}
    ]
    g.text("german", "end movement")
    assert g.state["step"] == "react"
    with pytest.raises(IllegalOrderError, match="no card 5"):
        g.text("soviet", "play 9 on card 5")
    ctx = g.text("soviet", "play 9 on card 4")  # NKVD Intelligence
    assert g.state["markers"]["8"] == []
    assert any("cancelled" in e for e in ctx.events)


# --- cancelling cards undo what the cancelled card gave (2.3, 5.4, 6.1) ---------------------


def test_rulebook_2_3_5_4_cancelling_panzergrenadiers_undoes_the_second_move() -> None:
    g, pool = german_turn()
    give(g, "german", 24)
    give(g, "soviet", 9)  # NKVD Intelligence: cancels an M / ! card
    unit = pool.take("wehrmacht", 1, "12")[0]
    g.react = True
    g.text("german", f"move 12 -> 13: {unit}")
    g.text("german", "play 24")
    g.text("german", f"move 13 -> 14: {unit}")
    g.text("german", "end movement")
    assert g.state["step"] == "react"
    ctx = g.text("soviet", "play 9 on card 24")
    # the second move is undone, the first stands (5.4: the card gave the second order)
    assert g.state["units"][unit]["zone"] == "13"
    assert [e.get("undone", False) for e in g.state["move"]["log"]] == [False, True]
    assert any("cancelled" in e for e in ctx.events)


def test_rulebook_2_3_cancelling_an_unused_panzergrenadiers_undoes_nothing_else() -> None:
    g, pool = german_turn()
    give(g, "german", 24)
    give(g, "soviet", 9)
    unit = pool.take("wehrmacht", 1, "12")[0]
    g.react = True
    g.text("german", f"move 12 -> 13: {unit}")
    g.text("german", "play 24")
    g.text("german", "end movement")
    g.text("soviet", "play 9 on card 24")
    assert g.state["units"][unit]["zone"] == "13"
    assert not g.state["move"]["log"][0].get("undone")


def test_rulebook_2_3_5_4_cancelling_zhukov_undoes_the_orders_it_gave() -> None:
    g, pool = soviet_plan_turn()
    give(g, "soviet", 13)  # Georgi Zhukov: 2 extra Movement orders
    give(g, "german", 21)  # cancels an M / ! card
    starts = ["12", "13", "14", "15", "16"]
    units = {z: pool.take("soviet-regular", 1, z)[0] for z in starts}
    dests = {"12": "6", "13": "7", "14": "7", "15": "8", "16": "9"}
    g.text("soviet", "plan " + "; ".join(f"{z} -> {dests[z]}:1" for z in starts) + "; card 13")
    g.react = True
    g.text("german", "end movement")
    g.text("soviet", "open")
    for i in range(1, 6):
        g.text("soviet", f"execute {i}")
    g.text("soviet", "end movement")
    assert g.state["step"] == "react" and g.asked() == "german"
    ctx = g.text("german", "play 21 on card 13")
    # orders 4 and 5 (planned beyond the three basic ones) are undone; 1-3 stand
    where = {z: g.state["units"][u]["zone"] for z, u in units.items()}
    assert where == {"12": "6", "13": "7", "14": "7", "15": "15", "16": "16"}
    assert any("cancelled" in e for e in ctx.events)


def test_rulebook_2_3_a_card_whose_order_cannot_be_undone_cannot_be_cancelled() -> None:
    g, pool = german_turn()
    give(g, "german", 24)
    give(g, "soviet", 9)
    unit = pool.take("wehrmacht", 1, "12")[0]
    g.react = True
    g.text("german", f"move 12 -> 13: {unit}")
    g.text("german", "play 24")
    g.text("german", f"move 13 -> 14: {unit}")
    g.text("german", "end movement")
    g.state["units"][unit].update(status="removed", zone=None)  # gone since (set up directly)
    with pytest.raises(IllegalOrderError, match="cannot be undone"):
        g.text("soviet", "play 9 on card 24")


def test_rulebook_2_3_barricades_place_up_to_three_markers_one_a_zone() -> None:
    g, pool = german_turn()
    give(g, "german", 5)  # Barricades (stand-in): up to 3, one a zone, German control
    for z in ("12", "13", "14", "15"):
        g.state["control"][z] = "german"
    with pytest.raises(IllegalOrderError, match="up to 3 zones"):
        g.text("german", "play 5 in 12, 13, 14, 15")
    with pytest.raises(IllegalOrderError, match="one a zone"):
        g.text("german", "play 5 in 12, 12")
    g.text("german", "play 5 in 12, 13, 14")
    placed = {z: [m["kind"] for m in g.state["markers"].get(z, [])] for z in ("12", "13", "14")}
    assert placed == {"12": ["barricade"], "13": ["barricade"], "14": ["barricade"]}
    give(g, "german", 15)  # the second Barricades card cannot stack a zone
    with pytest.raises(IllegalOrderError, match="already has a barricade"):
        g.text("german", "play 15 in 15, 12")
