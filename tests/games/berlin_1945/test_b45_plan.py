"""Secret Soviet planning (rulebook 7.2) and execution (7.3, 6, 6.1): the plan is one sealed
commitment, checked when opened (a false claim names the planning entry), executed in the
Soviet's order, cancelled or converted into a Retreat when the German made it illegal."""

from __future__ import annotations

import json

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945.decisions import Plan
from pbem.testing import Table
from tests.games.berlin_1945.b45_support import (
    Pool,
    cards,
    clear,
    find_seed,
    held,
    remove,
    say,
    to_plan,
    zone_of,
)


def planning(seed: int = 0) -> tuple[Table, Pool]:
    t = to_plan(seed)
    clear(t.state)
    return t, Pool(t.state)


def soviet_hand(t: Table) -> list[int]:
    return held(t, "soviet")


def test_rulebook_7_2_plan_is_one_commitment_and_the_public_decision_is_plan() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 2, "15")
    ctx = say(t, "soviet", "plan 15 -> 8:2")
    assert t.history[-1][1:] == ("soviet", "plan")
    assert "plan/turn-1" in ctx.committed_now()
    assert t.secrets["soviet"]["plan/turn-1"] == {
        "orders": [{"frm": "15", "dests": [["8", 2]]}],
        "extra": None,
        "rebuild": None,
        "card": None,
    }
    plan = t.state["plan"]
    assert plan["placed_at"] == ctx.seq and plan["value"] is None and not plan["revealed"]
    assert t.state["step"] == "german"


def test_rulebook_7_2_german_view_never_holds_the_plan_before_it_opens() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 2, "15")
    say(t, "soviet", "plan 15 -> 8:2")
    german = json.dumps(t.engine.view_known(t.state, "german", t.known("german")))
    public = json.dumps(t.engine.view(t.state, None))
    soviet = json.dumps(t.engine.view_known(t.state, "soviet", t.known("soviet")))
    assert '"frm"' not in german and '"frm"' not in public
    assert '"frm"' in soviet
    say(t, "german", "end movement")
    ctx = say(t, "soviet", "open")
    assert "plan/turn-1" in ctx.opened_now()
    assert '"frm"' in json.dumps(t.engine.view(t.state, "german"))


def test_rulebook_7_2_an_illegal_plan_is_a_false_claim_naming_the_planning_entry() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 2, "14")
    private = t.private("soviet")
    _public, values = t.engine.seal(private, "soviet", Plan())
    values["plan/turn-1"] = {
        "orders": [{"frm": "14", "dests": [["8", None]]}],  # 14 is not adjacent to 8
        "extra": None,
        "rebuild": None,
        "card": None,
    }
    ctx = t.raw("soviet", "plan", values)
    planned = ctx.seq
    say(t, "german", "end movement")
    with pytest.raises(
        IllegalOrderError, match=rf"false claim in entry {planned} by soviet: .*not adjacent"
    ):
        say(t, "soviet", "open")


def test_rulebook_7_2_example_advance_cancelled_by_a_german_flank() -> None:
    t, pool = planning()
    mine = pool.take("soviet-regular", 2, "15")
    german = pool.take("wehrmacht", 1, "16")
    say(t, "soviet", "plan 15 -> 8:2")
    say(t, "german", f"move 16 -> 15: {german[0]}")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    with pytest.raises(IllegalOrderError, match="cancel 1"):
        say(t, "soviet", "execute 1")
    with pytest.raises(IllegalOrderError, match="Retreat"):
        say(t, "soviet", "retreat 1")  # two units only: nothing may leave
    say(t, "soviet", "cancel 1")
    assert {zone_of(t, u) for u in mine} == {"15"}


def test_rulebook_7_3_example_withdrawal_converted_into_a_retreat() -> None:
    t, pool = planning()
    mine = pool.take("soviet-regular", 4, "3")
    t.state["control"]["3"] = "soviet"
    germans = pool.take("wehrmacht", 4, "4")
    say(t, "soviet", "plan 3 -> 9:all")
    say(t, "german", f"move 4 -> 3: {', '.join(germans)}")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    with pytest.raises(IllegalOrderError, match="7.3"):
        say(t, "soviet", "execute 1")
    ctx = say(t, "soviet", "retreat 1")
    where = sorted(zone_of(t, u) or "" for u in mine)
    assert where == ["3", "3", "9", "9"]
    assert ctx.said("converted into a Retreat")


def test_rulebook_7_3_orders_execute_in_the_order_the_soviet_chooses() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 1, "15")
    pool.take("soviet-regular", 1, "16")
    say(t, "soviet", "plan 15 -> 8:1; 16 -> 9:1")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 2")
    assert t.state["plan"]["status"] == {"1": "todo", "2": "done"}
    say(t, "soviet", "execute 1")
    say(t, "soviet", "end movement")


def test_rulebook_6_1_soviet_extra_order_planned_last_and_paid_at_execution() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 1, "15")
    pool.take("soviet-regular", 1, "16")
    say(t, "soviet", "plan 15 -> 8:1; extra 16 -> 9:1")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 1")
    hand = soviet_hand(t)
    with pytest.raises(IllegalOrderError, match="discard"):
        say(t, "soviet", "execute 2")
    with pytest.raises(IllegalOrderError, match="resolved first"):
        say(t, "soviet", "end movement")
    say(t, "soviet", f"execute 2 discard #{hand[0]}, #{hand[1]}")
    assert len(soviet_hand(t)) == len(hand) - 2


def test_rulebook_6_1_only_one_card_cancels_the_extra_order_without_discard() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 1, "15")
    pool.take("soviet-regular", 1, "16")
    say(t, "soviet", "plan 15 -> 8:1; extra 16 -> 9:1")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    for k in soviet_hand(t)[1:]:
        t.state["hands"]["soviet"]["slots"][str(k)]["status"] = "discarded"
    assert len(soviet_hand(t)) == 1
    with pytest.raises(IllegalOrderError, match="fewer than two cards"):
        say(t, "soviet", "execute 2")
    say(t, "soviet", "cancel 2")
    assert len(soviet_hand(t)) == 1


def test_rulebook_6_1_illegal_extra_order_still_discards_two_cards() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 1, "15")
    germans = pool.take("wehrmacht", 1, "17")
    pool.take("soviet-regular", 1, "16")
    say(t, "soviet", "plan 15 -> 8:1; extra 16 -> 9:1")
    say(t, "german", f"move 17 -> 16: {germans[0]}")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    hand = soviet_hand(t)
    with pytest.raises(IllegalOrderError, match="cannot be executed"):
        say(t, "soviet", f"execute 2 discard #{hand[0]}, #{hand[1]}")
    with pytest.raises(IllegalOrderError, match="discard"):
        say(t, "soviet", "cancel 2")
    say(t, "soviet", f"cancel 2 discard #{hand[0]}, #{hand[1]}")
    assert len(soviet_hand(t)) == len(hand) - 2


def test_rulebook_6_soviet_rebuild_order_in_a_controlled_zone() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 1, "15")
    t.state["control"]["15"] = "soviet"
    lost = pool.take("soviet-regular", 1, "A")[0]
    remove(t.state, lost)
    with pytest.raises(IllegalOrderError, match="does not control"):
        say(t, "soviet", "plan rebuild in 16")
    say(t, "soviet", "plan rebuild in 15")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    hand = soviet_hand(t)
    say(t, "soviet", f"execute 1 with {lost} discard #{hand[0]}, #{hand[1]}")
    assert zone_of(t, lost) == "15"


def test_rulebook_6_guards_cannot_be_rebuilt() -> None:
    t, pool = planning()
    t.state["control"]["15"] = "soviet"
    pool.take("soviet-regular", 1, "15")
    guard = pool.take("soviet-guards", 1, "A")[0]
    remove(t.state, guard)
    with pytest.raises(IllegalOrderError, match="can be rebuilt"):
        say(t, "soviet", "plan rebuild in 15")


def test_rulebook_5_4_zhukov_gives_two_more_planned_orders_and_no_additional_order() -> None:
    t = find_seed("soviet", 13)
    clear(t.state)
    pool = Pool(t.state)
    for z in ("15", "16", "17", "18", "12"):
        pool.take("soviet-regular", 1, z)
    with pytest.raises(IllegalOrderError, match="at most 3"):
        say(t, "soviet", "plan 15 -> 8:1; 16 -> 9:1; 17 -> 10:1; 18 -> 11:1")
    with pytest.raises(IllegalOrderError, match="excludes the additional order"):
        say(t, "soviet", "plan 15 -> 8:1; extra 16 -> 9:1; card 13")
    if 22 not in cards(t, "soviet"):
        with pytest.raises(IllegalOrderError, match="not in your hand"):
            say(t, "soviet", "plan 15 -> 8:1; card 22")
    say(t, "soviet", "plan 15 -> 8:1; 16 -> 9:1; 17 -> 10:1; 18 -> 11:1; 12 -> 6:1; card 13")
    say(t, "german", "end movement")
    ctx = say(t, "soviet", "open")
    assert any(lb.startswith("hand/soviet/") and v == 13 for lb, v in ctx.opened_now().items())
    assert 13 in t.state["played"]["soviet"]
    for i in range(1, 6):
        say(t, "soviet", f"execute {i}")
