"""Rules fixes of version 1.1 (issue 13): the automatic German victory at any time (9.2),
the "at the end of your Movement phase" cards (2.3, 8.2), the owner's casualty choice
between units that differ in play (7.4.4). A 1.0 game keeps the old rules."""

from __future__ import annotations

import pytest

from pbem.core.canonical import copy_json
from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945.rules import ENGINE
from pbem.testing import Table
from tests.games.berlin_1945.b45_support import (
    START,
    Pool,
    clear,
    give,
    held,
    put,
    remove,
    say,
    status,
    to_plan,
    units_in,
    zone_of,
)

OLD = ENGINE.for_version("1.0")


def old_table(seed: int = 0) -> Table:
    """A game of version 1.0: its state has no "rules"."""
    state = copy_json(START)
    del state["rules"]
    t = Table(OLD, state, seed=seed)
    t.until("plan")
    return t


def german_turn(t: Table, turn: int = 1) -> Pool:
    """The German movement of `turn` on a cleared map."""
    clear(t.state)
    t.state["turn"] = turn
    say(t, "soviet", "plan none")
    assert t.state["step"] == "german"
    return Pool(t.state)


def test_version_1_1_records_its_rules_and_1_0_is_still_played() -> None:
    # 1.2 (issue 14) is 1.1's rules with shell-safe decision texts: both record "rules"
    assert ENGINE.version == "1.2" and ENGINE.earlier_versions == ("1.0", "1.1")
    assert START["rules"] == "1.2"
    assert ENGINE.for_version("1.1").setup(None, {})["rules"] == "1.1"
    assert OLD.version == "1.0" and "rules" not in OLD.setup(None, {})


# --- 9.2: the automatic German victory at any time -------------------------------------------


def rebuild_position(t: Table) -> str:
    """Turn 5: German 2 against Soviet 2 in Berlin, a Wehrmacht unit to rebuild."""
    pool = german_turn(t, 5)
    pool.take("wehrmacht", 2, "12")
    pool.take("soviet-regular", 2, "A")
    lost = pool.take("wehrmacht", 1, "12")[0]
    remove(t.state, lost)
    return lost


def test_rulebook_9_2_automatic_victory_after_a_german_rebuild() -> None:
    t = to_plan(11)
    lost = rebuild_position(t)
    hand = held(t, "german")
    ctx = say(t, "german", f"rebuild {lost} in 12 discard #{hand[0]}, #{hand[1]}")
    assert t.state["result"]["level"] == "automatic" and t.state["step"] == "reveal"
    assert ctx.said("German strength 3 exceeds Soviet 2 (rulebook 9.2)")


def test_rulebook_9_2_version_1_0_checked_only_at_its_old_moments() -> None:
    t = old_table(11)
    lost = rebuild_position(t)
    hand = held(t, "german")
    say(t, "german", f"rebuild {lost} in 12 discard #{hand[0]}, #{hand[1]}")
    assert t.state["result"] is None and t.state["step"] == "german"


def test_rulebook_9_2_automatic_victory_after_a_reinforcement_card() -> None:
    t = to_plan(3)
    give(t, "german", 2)
    pool = german_turn(t, 6)
    pool.take("wehrmacht", 1, "8")
    pool.take("soviet-regular", 2, "A")
    ctx = say(t, "german", "play 2 in 12")
    assert ctx.said("German strength 3 exceeds Soviet 2 (rulebook 9.2)")


def test_rulebook_9_2_no_automatic_victory_in_turn_4_before_its_end() -> None:
    t = to_plan(3)
    give(t, "german", 2)
    pool = german_turn(t, 4)
    pool.take("wehrmacht", 1, "8")
    pool.take("soviet-regular", 2, "A")
    say(t, "german", "play 2 in 12")
    assert t.state["result"] is None


def test_rulebook_9_2_not_checked_while_a_combat_s_casualties_are_chosen() -> None:
    """9.2's example: "after a combat": the loser's choice is not yet the combat's end, the
    winner's own losses are still to come."""
    t = to_plan(0)
    clear(t.state)
    t.state["turn"] = 5
    pool = Pool(t.state)
    wehrmacht = pool.take("wehrmacht", 2, "8")
    pool.take("ss", 3, "8")  # German 8 in 8
    regulars = pool.take("soviet-regular", 2, "8")
    pool.take("soviet-guards", 1, "8")  # Soviet 4 in 8
    pool.take("soviet-regular", 5, "A")  # 8 to 9 in Berlin
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "end movement")
    say(t, "german", "no cards")
    say(t, "soviet", "no cards", rolls=[1])  # double: the Soviet removes 2, the German 1
    assert t.state["combat"]["sub"] == "casualties" and t.asked() == "soviet"
    say(t, "soviet", f"casualties {regulars[0]}, {regulars[1]}")  # 8 to 7 for a moment
    assert t.state["result"] is None and t.asked() == "german"
    say(t, "german", f"casualties {wehrmacht[0]}")  # 7 to 7 once the combat is over
    assert t.state["result"] is None


# --- 2.3 / 8.2: "At the end of your Movement phase" -------------------------------------------


def test_rulebook_8_2_card_2_wenck_deploys_two_units_in_12_13_or_18_and_ends_the_moves() -> None:
    t = to_plan(3)
    give(t, "german", 2)
    pool = german_turn(t)
    mover = pool.take("wehrmacht", 1, "14")[0]
    with pytest.raises(IllegalOrderError, match="only in 12, 13, 18"):
        say(t, "german", "play 2 in 14")
    say(t, "german", "play 2 in 13")
    assert sorted(units_in(t, "13", "german")) == ["de-wenck-1", "de-wenck-2"]
    with pytest.raises(IllegalOrderError, match=r"ends the Movement phase \(rulebook 6, 8\.2\)"):
        say(t, "german", f"move 14 -> 15: {mover}")


def test_rulebook_8_2_card_3_charlemagne_in_a_zone_under_german_control() -> None:
    t = to_plan(3)
    give(t, "german", 3)
    german_turn(t)
    t.state["control"]["8"] = "soviet"
    with pytest.raises(IllegalOrderError, match="controlled"):
        say(t, "german", "play 3 in 8")
    say(t, "german", "play 3 in 9")
    assert zone_of(t, "de-charlemagne") == "9"


def test_rulebook_8_2_card_10_volkssturm_in_a_zone_without_soviet_units() -> None:
    t = to_plan(3)
    give(t, "german", 10)
    pool = german_turn(t)
    pool.take("soviet-regular", 1, "8")
    with pytest.raises(IllegalOrderError, match="no-enemy"):
        say(t, "german", "play 10 in 8")
    say(t, "german", "play 10 in V")
    assert zone_of(t, "de-volkssturm") == "V"


def test_rulebook_8_2_card_23_steiner_in_13_or_16() -> None:
    t = to_plan(3)
    give(t, "german", 23)
    german_turn(t)
    with pytest.raises(IllegalOrderError, match="only in 13, 16"):
        say(t, "german", "play 23 in 12")
    say(t, "german", "play 23 in 16")
    assert zone_of(t, "de-steiner") == "16"


def test_rulebook_2_3_version_1_0_lets_an_end_card_be_played_mid_phase() -> None:
    t = old_table(3)
    give(t, "german", 2)
    pool = german_turn(t)
    mover = pool.take("wehrmacht", 1, "14")[0]
    say(t, "german", "play 2 in 13")
    say(t, "german", f"move 14 -> 15: {mover}")
    assert zone_of(t, mover) == "15"


def test_rulebook_2_3_soviet_end_card_waits_for_the_planned_orders() -> None:
    t = to_plan(3)
    give(t, "soviet", 8)  # Red Army Replacements: a Rebuild order at the end of the phase
    clear(t.state)
    pool = Pool(t.state)
    group = pool.take("soviet-regular", 2, "A")
    lost = pool.take("soviet-regular", 1, "15")[0]
    remove(t.state, lost)
    say(t, "soviet", "plan a -> 15:all")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    with pytest.raises(IllegalOrderError, match=r"execute, convert or cancel order 1 first"):
        say(t, "soviet", "play 8")
    say(t, "soviet", "execute 1")
    say(t, "soviet", "play 8")
    say(t, "soviet", f"rebuild {lost} in 15")
    assert all(zone_of(t, u) == "15" for u in [*group, lost])


# --- 7.4.4: the owner chooses casualties whenever the choice matters --------------------------


def casualty_fight(t: Table, germans: list[str]) -> None:
    """A combat in 8: `germans` (strength 2) against three Soviet regulars: the German loses
    one unit."""
    clear(t.state)
    pool = Pool(t.state)
    put(t.state, "8", germans)
    pool.take("soviet-regular", 3, "8")
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "end movement")
    say(t, "german", "no cards")
    say(t, "soviet", "no cards")


def test_rulebook_7_4_4_a_wenck_unit_and_a_plain_wehrmacht_unit_differ() -> None:
    t = to_plan(0)
    plain = Pool(t.state).take("wehrmacht", 1, "8")[0]
    casualty_fight(t, [plain, "de-wenck-1"])
    assert t.state["combat"]["sub"] == "casualties" and t.asked() == "german"
    say(t, "german", f"casualties {plain}")
    assert status(t, plain) == "removed" and status(t, "de-wenck-1") == "on"


def test_rulebook_7_4_4_no_question_when_the_choice_does_not_matter() -> None:
    t = to_plan(0)
    casualty_fight(t, ["de-wenck-1", "de-wenck-2"])
    assert t.state["step"] != "combat" or t.state["combat"]["sub"] != "casualties"
    assert status(t, "de-wenck-1") == "removed"


def test_rulebook_7_4_4_version_1_0_picks_between_units_of_one_type() -> None:
    t = old_table(0)
    plain = Pool(t.state).take("wehrmacht", 1, "8")[0]
    casualty_fight(t, [plain, "de-wenck-1"])
    assert t.state["step"] != "combat" or t.state["combat"]["sub"] != "casualties"


# --- 5 / 7.3: two destination zones a starting zone, for both sides ----------------------------


def test_rulebook_7_3_german_units_of_one_zone_reach_at_most_two_destinations() -> None:
    t = to_plan(0)
    pool = german_turn(t)
    a, b, c = pool.take("wehrmacht", 3, "9")
    say(t, "german", f"move 9 -> 8: {a}")
    say(t, "german", f"move 9 -> 10: {b}")
    with pytest.raises(IllegalOrderError, match=r"at most two destination zones.*5, 7\.3"):
        say(t, "german", f"move 9 -> 16: {c}")
    say(t, "german", f"move 9 -> 8: {c}")  # a second order to a zone already reached
    assert set(units_in(t, "8", "german")) == {a, c}


def test_rulebook_7_3_soviet_may_give_two_orders_from_one_zone_within_two_destinations() -> None:
    t = to_plan(0)
    clear(t.state)
    pool = Pool(t.state)
    pool.take("soviet-regular", 3, "15")
    say(t, "soviet", "plan 15 -> 8:1; 15 -> 16:1")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "execute 1")
    say(t, "soviet", "execute 2")
    assert len(units_in(t, "8")) == 1 and len(units_in(t, "16")) == 1


def test_rulebook_7_3_version_1_0_keeps_one_soviet_order_a_zone_and_german_freedom() -> None:
    t = old_table(0)
    clear(t.state)
    pool = Pool(t.state)
    pool.take("soviet-regular", 2, "15")
    with pytest.raises(IllegalOrderError, match="two orders from 15"):
        say(t, "soviet", "plan 15 -> 8:1; 15 -> 16:1")
    say(t, "soviet", "plan none")
    a, b, c = Pool(t.state).take("wehrmacht", 3, "9")
    for uid, to in ((a, "8"), (b, "10"), (c, "16")):
        say(t, "german", f"move 9 -> {to}: {uid}")
    assert zone_of(t, c) == "16"


# --- 7.4.1: ! cards acting once the combat is over are declared then ---------------------------


def sniper_combat(t: Table) -> list[str]:
    """A combat in 8: three Wehrmacht against two Soviet regulars, the German holding #13
    Sniper (a ! card: "once the combat is over", removes a Soviet regular)."""
    give(t, "german", 13)
    clear(t.state)
    pool = Pool(t.state)
    pool.take("wehrmacht", 3, "8")
    regulars = pool.take("soviet-regular", 3, "8")
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "end movement")
    return regulars


def test_rulebook_7_4_1_after_combat_card_is_declared_with_the_outcome_known() -> None:
    t = to_plan(0)
    regulars = sniper_combat(t)
    with pytest.raises(IllegalOrderError, match=r"declared then, with the outcome known"):
        say(t, "german", "cards play 13")
    say(t, "german", "no cards")
    say(t, "soviet", "no cards")  # 3 to 3: a tie, both remove one
    assert t.state["combat"]["sub"] == "after" and t.asked() == "german"
    assert sum(status(t, u) == "removed" for u in regulars) == 1
    ctx = say(t, "german", "cards play 13")
    assert ctx.said("once the combat in 8 is over")
    if t.state["step"] == "combat" and t.state["combat"]["sub"] == "after":
        say(t, "soviet", "no cards")
    assert sum(status(t, u) == "removed" for u in regulars) == 2


def test_rulebook_7_4_1_version_1_0_declares_after_combat_cards_in_the_card_step() -> None:
    t = old_table(0)
    regulars = sniper_combat(t)
    say(t, "german", "cards play 13")
    say(t, "soviet", "no cards")
    assert t.state["step"] != "combat" or t.state["combat"]["sub"] != "after"
    assert sum(status(t, u) == "removed" for u in regulars) == 2


# --- 7.4.1: the German answers the Soviet's combat cards with ! cards -------------------------


def answer_combat(t: Table) -> list[str]:
    """A combat in 8, two Wehrmacht against two Soviet regulars; the German holds #8
    Counterattack (C +2), #21 Intercepted Radio Traffic (! cancels a ! card) and #1
    Panzerfaust, the Soviet #10 Air Superiority (! cancels the German C card)."""
    give(t, "german", 8, 21, 1)
    give(t, "soviet", 10)
    clear(t.state)
    pool = Pool(t.state)
    pool.take("wehrmacht", 2, "8")
    regulars = pool.take("soviet-regular", 2, "8")
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "end movement")
    return regulars


def test_rulebook_7_4_1_german_cancels_air_superiority_in_answer() -> None:
    t = to_plan(0)
    answer_combat(t)
    with pytest.raises(IllegalOrderError, match="played in the German's answer"):
        say(t, "german", "cards play 21")
    say(t, "german", "cards play 8")
    say(t, "soviet", "cards play 10")
    assert t.state["combat"]["sub"] == "answer" and t.asked() == "german"
    choices = {t.engine.format(c) for c in t.engine.choices(t.private("german"), "german")}
    assert {"no cards", "cards play 21", "cards play 1 bang"} <= choices
    ctx = say(t, "german", "cards play 21", rolls=[9])
    assert ctx.said("Air Superiority cancelled")
    assert ctx.said("German wins 4 to 2")


def test_rulebook_7_4_1_german_answers_with_panzerfaust_after_seeing_the_soviet_cards() -> None:
    t = to_plan(0)
    regulars = answer_combat(t)
    say(t, "german", "no cards")
    say(t, "soviet", "cards play 10")
    with pytest.raises(IllegalOrderError, match="answers with ! cards only"):
        say(t, "german", "cards play 8")
    ctx = say(t, "german", "cards play 1!")
    assert ctx.said("in its ! mode before the strengths")
    assert sum(status(t, u) == "removed" for u in regulars) >= 1


def test_rulebook_7_4_1_no_answer_when_the_soviet_plays_no_card() -> None:
    t = to_plan(0)
    answer_combat(t)
    say(t, "german", "cards play 8")
    say(t, "soviet", "no cards", rolls=[9])
    assert t.state["step"] != "combat" or t.state["combat"]["sub"] != "answer"


def test_rulebook_7_4_1_version_1_0_has_no_answer() -> None:
    t = old_table(0)
    answer_combat(t)
    say(t, "german", "cards play 8")
    ctx = say(t, "soviet", "cards play 10", rolls=[9])
    assert ctx.said("Counterattack cancelled")
