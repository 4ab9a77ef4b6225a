"""Secret Soviet planning (rulebook 7.2) and execution (7.3, 6, 6.1): the plan is one sealed
commitment, checked when opened (a false claim names the planning entry), executed in the
Soviet's order, cancelled or converted into a Retreat when the German made it illegal."""

from __future__ import annotations

import json

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945.decisions import Plan
from tests.games.berlin_1945.b45_support import Game, Pool, clear


def planning(seed: int = 0) -> tuple[Game, Pool]:
    g = Game(seed)
    g.until("plan")
    clear(g.state)
    return g, Pool(g.state)


def soviet_hand(g: Game) -> list[int]:
    slots = g.state["hands"]["soviet"]["slots"]
    return sorted(int(k) for k, s in slots.items() if s["status"] in ("hand", "pending"))


def test_rulebook_7_2_plan_is_one_commitment_and_the_public_decision_is_plan() -> None:
    g, pool = planning()
    pool.take("soviet-regular", 2, "15")
    ctx = g.text("soviet", "plan 15 -> 8:2")
    assert g.texts[-1] == "soviet: plan"
    assert "plan/turn-1" in ctx.committed_now()
    assert g.sealed["plan/turn-1"][1] == {
        "orders": [{"frm": "15", "dests": [["8", 2]]}],
        "extra": None,
        "rebuild": None,
        "card": None,
    }
    assert g.state["plan"]["seq"] == ctx.seq and g.state["plan"]["orders"] is None
    assert g.state["step"] == "german"


def test_rulebook_7_2_german_view_never_holds_the_plan_before_it_opens() -> None:
    g, pool = planning()
    pool.take("soviet-regular", 2, "15")
    g.text("soviet", "plan 15 -> 8:2")
    german = json.dumps(g.engine.view_known(g.state, "german", g.known("german")))
    public = json.dumps(g.engine.view(g.state, None))
    soviet = json.dumps(g.engine.view_known(g.state, "soviet", g.known("soviet")))
    assert '"frm"' not in german and '"frm"' not in public
    assert '"frm"' in soviet
    g.text("german", "end movement")
    ctx = g.text("soviet", "open")
    assert "plan/turn-1" in ctx.opened_now()
    assert '"frm"' in json.dumps(g.engine.view(g.state, "german"))


def test_rulebook_7_2_an_illegal_plan_is_a_false_claim_naming_the_planning_entry() -> None:
    g, pool = planning()
    pool.take("soviet-regular", 2, "14")
    private = g.private("soviet")
    _public, values = g.engine.seal(private, "soviet", Plan())
    values["plan/turn-1"] = {
        "orders": [{"frm": "14", "dests": [["8", None]]}],  # 14 is not adjacent to 8
        "extra": None,
        "rebuild": None,
        "card": None,
    }
    ctx = g.raw("soviet", "plan", values, [])
    planned = ctx.seq
    g.text("german", "end movement")
    with pytest.raises(
        IllegalOrderError, match=rf"false claim in entry {planned} by soviet: .*not adjacent"
    ):
        g.text("soviet", "open")


def test_rulebook_7_2_example_advance_cancelled_by_a_german_flank() -> None:
    g, pool = planning()
    mine = pool.take("soviet-regular", 2, "15")
    german = pool.take("wehrmacht", 1, "16")
    g.text("soviet", "plan 15 -> 8:2")
    g.text("german", f"move 16 -> 15: {german[0]}")
    g.text("german", "end movement")
    g.text("soviet", "open")
    with pytest.raises(IllegalOrderError, match="cancel 1"):
        g.text("soviet", "execute 1")
    with pytest.raises(IllegalOrderError, match="Retreat"):
        g.text("soviet", "retreat 1")  # two units only: nothing may leave
    g.text("soviet", "cancel 1")
    assert {g.state["units"][u]["zone"] for u in mine} == {"15"}


def test_rulebook_7_3_example_withdrawal_converted_into_a_retreat() -> None:
    g, pool = planning()
    mine = pool.take("soviet-regular", 4, "3")
    g.state["control"]["3"] = "soviet"
    germans = pool.take("wehrmacht", 4, "4")
    g.text("soviet", "plan 3 -> 9:all")
    g.text("german", f"move 4 -> 3: {', '.join(germans)}")
    g.text("german", "end movement")
    g.text("soviet", "open")
    with pytest.raises(IllegalOrderError, match="7.3"):
        g.text("soviet", "execute 1")
    ctx = g.text("soviet", "retreat 1")
    where = sorted(g.state["units"][u]["zone"] for u in mine)
    assert where == ["3", "3", "9", "9"]
    assert any("converted into a Retreat" in e for e in ctx.events)


def test_rulebook_7_3_orders_execute_in_the_order_the_soviet_chooses() -> None:
    g, pool = planning()
    pool.take("soviet-regular", 1, "15")
    pool.take("soviet-regular", 1, "16")
    g.text("soviet", "plan 15 -> 8:1; 16 -> 9:1")
    g.text("german", "end movement")
    g.text("soviet", "open")
    g.text("soviet", "execute 2")
    assert g.state["plan"]["status"] == {"1": "todo", "2": "done"}
    g.text("soviet", "execute 1")
    g.text("soviet", "end movement")


def test_rulebook_6_1_soviet_extra_order_planned_last_and_paid_at_execution() -> None:
    g, pool = planning()
    pool.take("soviet-regular", 1, "15")
    pool.take("soviet-regular", 1, "16")
    g.text("soviet", "plan 15 -> 8:1; extra 16 -> 9:1")
    g.text("german", "end movement")
    g.text("soviet", "open")
    g.text("soviet", "execute 1")
    hand = soviet_hand(g)
    with pytest.raises(IllegalOrderError, match="discard"):
        g.text("soviet", "execute 2")
    with pytest.raises(IllegalOrderError, match="resolved first"):
        g.text("soviet", "end movement")
    g.text("soviet", f"execute 2 discard #{hand[0]}, #{hand[1]}")
    assert len(soviet_hand(g)) == len(hand) - 2


def test_rulebook_6_1_only_one_card_cancels_the_extra_order_without_discard() -> None:
    g, pool = planning()
    pool.take("soviet-regular", 1, "15")
    pool.take("soviet-regular", 1, "16")
    g.text("soviet", "plan 15 -> 8:1; extra 16 -> 9:1")
    g.text("german", "end movement")
    g.text("soviet", "open")
    for k in soviet_hand(g)[1:]:
        g.state["hands"]["soviet"]["slots"][str(k)]["status"] = "discarded"
    assert len(soviet_hand(g)) == 1
    with pytest.raises(IllegalOrderError, match="fewer than two cards"):
        g.text("soviet", "execute 2")
    g.text("soviet", "cancel 2")
    assert len(soviet_hand(g)) == 1


def test_rulebook_6_1_illegal_extra_order_still_discards_two_cards() -> None:
    g, pool = planning()
    pool.take("soviet-regular", 1, "15")
    germans = pool.take("wehrmacht", 1, "17")
    pool.take("soviet-regular", 1, "16")
    g.text("soviet", "plan 15 -> 8:1; extra 16 -> 9:1")
    g.text("german", f"move 17 -> 16: {germans[0]}")
    g.text("german", "end movement")
    g.text("soviet", "open")
    hand = soviet_hand(g)
    with pytest.raises(IllegalOrderError, match="cannot be executed"):
        g.text("soviet", f"execute 2 discard #{hand[0]}, #{hand[1]}")
    with pytest.raises(IllegalOrderError, match="discard"):
        g.text("soviet", "cancel 2")
    g.text("soviet", f"cancel 2 discard #{hand[0]}, #{hand[1]}")
    assert len(soviet_hand(g)) == len(hand) - 2


def test_rulebook_6_soviet_rebuild_order_in_a_controlled_zone() -> None:
    g, pool = planning()
    pool.take("soviet-regular", 1, "15")
    g.state["control"]["15"] = "soviet"
    lost = pool.take("soviet-regular", 1, "A")[0]
    g.state["units"][lost].update(status="removed", zone=None)
    with pytest.raises(IllegalOrderError, match="does not control"):
        g.text("soviet", "plan rebuild in 16")
    g.text("soviet", "plan rebuild in 15")
    g.text("german", "end movement")
    g.text("soviet", "open")
    hand = soviet_hand(g)
    g.text("soviet", f"execute 1 with {lost} discard #{hand[0]}, #{hand[1]}")
    assert g.state["units"][lost]["zone"] == "15"


def test_rulebook_6_guards_cannot_be_rebuilt() -> None:
    g, pool = planning()
    g.state["control"]["15"] = "soviet"
    pool.take("soviet-regular", 1, "15")
    guard = pool.take("soviet-guards", 1, "A")[0]
    g.state["units"][guard].update(status="removed", zone=None)
    with pytest.raises(IllegalOrderError, match="can be rebuilt"):
        g.text("soviet", "plan rebuild in 15")


def find_soviet_card(number: int) -> Game:
    for seed in range(200):
        g = Game(seed)
        g.until("plan")
        slots = g.private("soviet")["hands"]["soviet"]["slots"]
        if any(s["card"] == number for s in slots.values()):
            return g
    raise AssertionError(f"no seed deals Soviet card {number}")


def test_rulebook_5_4_zhukov_gives_two_more_planned_orders_and_no_additional_order() -> None:
    g = find_soviet_card(13)
    clear(g.state)
    pool = Pool(g.state)
    for z in ("15", "16", "17", "18", "12"):
        pool.take("soviet-regular", 1, z)
    with pytest.raises(IllegalOrderError, match="at most 3"):
        g.text("soviet", "plan 15 -> 8:1; 16 -> 9:1; 17 -> 10:1; 18 -> 11:1")
    with pytest.raises(IllegalOrderError, match="excludes the additional order"):
        g.text("soviet", "plan 15 -> 8:1; extra 16 -> 9:1; card 13")
    if 22 not in _cards(g):
        with pytest.raises(IllegalOrderError, match="not in your hand"):
            g.text("soviet", "plan 15 -> 8:1; card 22")
    g.text("soviet", "plan 15 -> 8:1; 16 -> 9:1; 17 -> 10:1; 18 -> 11:1; 12 -> 6:1; card 13")
    g.text("german", "end movement")
    ctx = g.text("soviet", "open")
    assert any(lb.startswith("hand/soviet/") and v == 13 for lb, v in ctx.opened_now().items())
    assert 13 in g.state["played"]["soviet"]
    for i in range(1, 6):
        g.text("soviet", f"execute {i}")


def _cards(g: Game) -> list[int]:
    slots = g.private("soviet")["hands"]["soviet"]["slots"]
    return [s["card"] for s in slots.values() if s["status"] in ("hand", "pending")]
