"""Rules fixes of version 1.1 (issue 13): the Soviet plan is binding (7.3), undoing an order
undoes its first entries (5.2-5.4), Panzergrenadiers move "twice in a row" (5.4), a card drawn
this turn may be named by the plan (2.3, 7.1, 7.2), Steiner never withdraws toward the Mitte
(8.2, 5.5.4); games of version 1.0 keep the old behaviour."""

from __future__ import annotations

import pytest

from pbem.core.canonical import copy_json
from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945.moves import is_withdrawal
from pbem.games.berlin_1945.rules import ENGINE
from pbem.testing import Table
from tests.games.berlin_1945.b45_support import (
    START,
    Pool,
    clear,
    give,
    held,
    say,
    to_plan,
    units_of,
    zone_of,
)

OLD = ENGINE.for_version("1.0")


def planning(seed: int = 0, version: str = "1.1") -> tuple[Table, Pool]:
    if version == "1.1":
        t = to_plan(seed)
    else:
        t = Table(OLD, OLD.setup(None, {}), seed=seed)
        t.until("plan")
    clear(t.state)
    return t, Pool(t.state)


def german_turn(seed: int = 0, version: str = "1.1") -> tuple[Table, Pool]:
    t, _pool = planning(seed, version)
    say(t, "soviet", "plan none")
    clear(t.state)
    return t, Pool(t.state)


# --- 7.3: the Soviet sticks to what he planned --------------------------------------------------


def test_rulebook_7_3_a_legal_planned_order_cannot_be_cancelled() -> None:
    t, pool = planning()
    mine = pool.take("soviet-regular", 2, "15")
    say(t, "soviet", "plan 15 -> 8:2")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    with pytest.raises(IllegalOrderError, match=r"order 1 of the plan is legal now.*rulebook 7\.3"):
        say(t, "soviet", "cancel 1")
    with pytest.raises(IllegalOrderError, match=r"must be executed.*rulebook 7\.3"):
        say(t, "soviet", "end movement")
    assert (
        t.engine.choices(t.state, "soviet").count(t.engine.parse("cancel 1", t.state, "soviet"))
        == 0
    )
    say(t, "soviet", "execute 1")
    assert {zone_of(t, u) for u in mine} == {"8"}
    say(t, "soviet", "end movement")


def test_rulebook_7_3_an_order_the_german_made_illegal_is_still_cancelled() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 2, "15")
    pool.take("soviet-regular", 1, "16")
    german = pool.take("wehrmacht", 1, "17")
    say(t, "soviet", "plan 15 -> 8:2; 16 -> 9:1")
    say(t, "german", f"move 17 -> 16: {german[0]}")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    # order 2 (an Advance from 16) is illegal now: it may be dropped; order 1 may not
    with pytest.raises(IllegalOrderError, match="order 1 of the plan is legal now"):
        say(t, "soviet", "end movement")
    say(t, "soviet", "cancel 2")
    say(t, "soviet", "execute 1")
    say(t, "soviet", "end movement")


def test_rulebook_7_3_the_additional_order_is_binding_too() -> None:
    t, pool = planning()
    pool.take("soviet-regular", 1, "15")
    pool.take("soviet-regular", 1, "16")
    say(t, "soviet", "plan 15 -> 8:1; extra 16 -> 9:1")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 1")
    hand = held(t, "soviet")
    with pytest.raises(IllegalOrderError, match=r"order 2 of the plan is legal now.*7\.3"):
        say(t, "soviet", f"cancel 2 discard #{hand[0]}, #{hand[1]}")
    say(t, "soviet", f"execute 2 discard #{hand[0]}, #{hand[1]}")


def test_rulebook_7_3_version_1_0_still_drops_legal_orders() -> None:
    t, pool = planning(version="1.0")
    mine = pool.take("soviet-regular", 2, "15")
    say(t, "soviet", "plan 15 -> 8:2")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "cancel 1")
    assert {zone_of(t, u) for u in mine} == {"15"}


# --- 5.2-5.4: a cancelled order's first entries are undone ---------------------------------------


def first_entry_cancelled(version: str) -> Table:
    """A Soviet order enters Sector III (the first Soviet entry into the Mitte and Sectors
    I-IV); the German cancels it with U-Bahn Tunnels (#7)."""
    t, pool = planning(version=version)
    give(t, "german", 7)
    pool.take("soviet-regular", 2, "5")
    t.state["control"]["5"] = "soviet"
    say(t, "soviet", "plan 5 -> iii:all")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 1")
    assert t.state["flags"]["sectors"] and t.state["flags"]["mitte"]
    say(t, "soviet", "end movement", react=True)
    assert t.state["step"] == "react"
    say(t, "german", "play 7 on 1", react=True)
    return t


def test_rulebook_5_2_to_5_4_undoing_the_first_entry_undoes_its_effects() -> None:
    t = first_entry_cancelled("1.1")
    assert t.state["flags"] == {
        "inner": False,
        "sectors": False,
        "reichstag": False,
        "mitte": False,
    }


def test_rulebook_5_4_a_first_entry_made_by_another_order_stays() -> None:
    t, pool = planning()
    give(t, "german", 7)
    pool.take("soviet-regular", 1, "12")
    pool.take("soviet-regular", 1, "7")
    t.state["control"]["7"] = "soviet"
    say(t, "soviet", "plan 7 -> 1:1; 12 -> 6:1")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 1")
    say(t, "soviet", "execute 2")
    say(t, "soviet", "end movement", react=True)
    say(t, "german", "play 7 on 2", react=True)
    assert t.state["flags"]["inner"]  # order 1 entered the inner ring and stands
    t2, pool2 = planning()
    give(t2, "german", 7)
    pool2.take("soviet-regular", 1, "7")
    t2.state["control"]["7"] = "soviet"
    say(t2, "soviet", "plan 7 -> 1:1")
    say(t2, "german", "end movement")
    say(t2, "soviet", "open")
    say(t2, "soviet", "execute 1")
    say(t2, "soviet", "end movement", react=True)
    say(t2, "german", "play 7 on 1", react=True)
    assert not t2.state["flags"]["inner"]


def test_rulebook_5_4_version_1_0_keeps_the_flags_of_a_cancelled_entry() -> None:
    t = first_entry_cancelled("1.0")
    assert t.state["flags"]["sectors"] and t.state["flags"]["mitte"]


# --- 5.4: Panzergrenadiers, twice in a row -------------------------------------------------------


def test_rulebook_5_4_panzergrenadiers_second_move_must_follow_at_once() -> None:
    t, pool = german_turn()
    give(t, "german", 24)
    unit = pool.take("wehrmacht", 1, "12")[0]
    other = pool.take("wehrmacht", 1, "16")[0]
    say(t, "german", f"move 12 -> 13: {unit}")
    say(t, "german", "play 24")
    ctx = say(t, "german", f"move 16 -> 17: {other}")  # an order in between
    assert ctx.said("did not move again at once")
    with pytest.raises(IllegalOrderError, match="already moved"):
        say(t, "german", f"move 13 -> 14: {unit}")
    # the order the card gave is gone with it: 4 orders in all
    assert t.state["move"]["bonus"] == 0 and t.state["move"]["orders"] == 2


def test_rulebook_5_4_panzergrenadiers_in_a_row_still_works() -> None:
    t, pool = german_turn()
    give(t, "german", 24)
    unit = pool.take("wehrmacht", 1, "12")[0]
    say(t, "german", f"move 12 -> 13: {unit}")
    say(t, "german", "play 24")
    say(t, "german", f"move 13 -> 14: {unit}")
    assert zone_of(t, unit) == "14"
    assert t.state["move"]["double"] is None and t.state["move"]["bonus"] == 1


def test_rulebook_5_4_version_1_0_allows_the_second_move_later() -> None:
    t, pool = german_turn(version="1.0")
    give(t, "german", 24)
    unit = pool.take("wehrmacht", 1, "12")[0]
    other = pool.take("wehrmacht", 1, "16")[0]
    say(t, "german", f"move 12 -> 13: {unit}")
    say(t, "german", "play 24")
    say(t, "german", f"move 16 -> 17: {other}")
    say(t, "german", f"move 13 -> 14: {unit}")
    assert zone_of(t, unit) == "14"


# --- 2.3, 7.1, 7.2: a card drawn this turn may be named by the plan ------------------------------


def test_rulebook_7_2_the_plan_may_use_a_card_drawn_this_turn() -> None:
    for seed in range(200):
        t = Table(ENGINE, copy_json(START), seed=seed)
        t.until("plan")
        say(t, "soviet", "plan none")
        t.until("plan")  # turn 2: the Soviet has just drawn a card, not yet committed
        drawn = t.private("soviet")["hands"]["soviet"].get("drawn", {})
        if 13 in drawn.values() or 22 in drawn.values():
            break
    else:
        pytest.skip("no seed draws Zhukov or Konev on turn 2")
    card = 13 if 13 in drawn.values() else 22
    clear(t.state)
    Pool(t.state).take("soviet-regular", 1, "15")
    say(t, "soviet", f"plan 15 -> 8:1; card {card}")
    say(t, "german", "end movement")
    ctx = say(t, "soviet", "open")
    assert card in ctx.opened_now().values()
    assert card in t.state["played"]["soviet"]


# --- 8.2, 5.5.4: Steiner is not considered to withdraw toward the Mitte ---------------------------


def test_rulebook_8_2_steiner_never_withdraws_toward_the_mitte() -> None:
    t, _pool = german_turn()
    state = t.state
    assert not is_withdrawal(state, ["withdraw"], [("1", ["de-steiner"])])
    # with other yellow-dot units neither withdraws; with other German units they do (5.5.4)
    assert not is_withdrawal(state, ["withdraw"], [("1", ["de-steiner", "de-wenck-1"])])
    regular = units_of(state, "german", "wehrmacht")[0]
    assert is_withdrawal(state, ["withdraw"], [("1", ["de-steiner", regular])])
