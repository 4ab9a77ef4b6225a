"""Combat (rulebook 7.4), the Reichstag presence check (7.5), reinforcements (8.1) and
victory (9)."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945 import position, tables
from pbem.games.berlin_1945.cards import after_combat
from pbem.games.berlin_1945.combat import resolve_strengths, roll_winner_losses
from pbem.testing import ScriptedContext, Table
from tests.games.berlin_1945.b45_support import (
    Pool,
    clear,
    find_seed,
    give,
    say,
    status,
    table,
    to_plan,
    with_card_effects,
    zone_of,
)


def to_combat(t: Table) -> None:
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "end movement")


def setup(seed: int = 0) -> tuple[Table, Pool]:
    t = to_plan(seed)
    clear(t.state)
    return t, Pool(t.state)


def pass_after(t: Table) -> None:
    """7.4.1: once the combat is over, each side asked passes its after-combat ! cards."""
    while t.state["step"] == "combat" and t.state["combat"]["sub"] == "after":
        say(t, t.asked(), "no cards")


def removed(t: Table, uids: list[str]) -> int:
    return sum(status(t, u) == "removed" for u in uids)


def test_rulebook_7_4_example_7_against_4_soviet_loses_one_and_no_german_roll() -> None:
    t, pool = setup()
    pool.take("wehrmacht", 3, "6")
    pool.take("ss", 1, "6")
    pool.take("soviet-regular", 3, "6")
    state = t.state
    state["combat"] = {
        "zone": "6",
        "played": {"german": [8], "soviet": [5]},
        "left": [],
        "queue": [],
    }
    ctx = ScriptedContext(seq=1)
    result = resolve_strengths(state, ctx)  # German #8 Counterattack +2, Soviet #5 +1
    assert result["strength"] == {"german": 7, "soviet": 4}
    assert result["winner"] == "german"
    assert result["losses"] == {"soviet": 1, "german": 0}
    roll_winner_losses(state, result, ctx)
    assert ctx.rolls == []
    assert ctx.said("+2 (card German #8")
    assert ctx.said("less than double")


def test_rulebook_7_4_4_double_strength_loser_removes_two_winner_rolls_one_d10() -> None:
    t, pool = setup()
    germans = pool.take("wehrmacht", 2, "8")
    soviets = pool.take("soviet-regular", 4, "8")
    to_combat(t)
    assert t.state["combat"]["zone"] == "8"
    ctx = say(t, "german", "no cards")
    assert ctx.rolls == []  # no dice before the last card decision
    ctx = say(t, "soviet", "no cards", rolls=[3])
    assert [p for p, _v in ctx.rolls] == ["combat in 8: Soviet casualty check 1 of 1"]
    assert removed(t, germans) == len(germans)
    assert removed(t, soviets) == 1
    assert t.state["control"]["8"] == "soviet"


def test_rulebook_7_4_4_triple_strength_three_losses_two_dice() -> None:
    t, pool = setup()
    pool.take("wehrmacht", 3, "8")
    soviets = pool.take("soviet-regular", 9, "8")
    to_combat(t)
    say(t, "german", "no cards")
    ctx = say(t, "soviet", "no cards", rolls=[1, 5])
    assert len(ctx.rolls) == 2
    assert removed(t, soviets) == 1


def test_rulebook_7_4_4_tie_both_remove_one() -> None:
    t, pool = setup()
    germans = pool.take("wehrmacht", 2, "8")
    soviets = pool.take("soviet-regular", 2, "8")
    to_combat(t)
    say(t, "german", "no cards")
    ctx = say(t, "soviet", "no cards")
    assert ctx.rolls == []
    assert removed(t, germans) == 1
    assert removed(t, soviets) == 1


def test_rulebook_7_4_4_owner_chooses_casualties() -> None:
    t, pool = setup()
    w = pool.take("wehrmacht", 1, "8")
    ss = pool.take("ss", 1, "8")
    pool.take("soviet-regular", 4, "8")
    to_combat(t)
    say(t, "german", "no cards")
    say(t, "soviet", "no cards")  # 4 vs 3: German loses 1
    assert t.state["combat"]["sub"] == "casualties" and t.asked() == "german"
    with pytest.raises(IllegalOrderError, match="exactly 1"):
        say(t, "german", f"casualties {w[0]}, {ss[0]}")
    say(t, "german", f"casualties {w[0]}")
    assert status(t, ss[0]) == "on"


def test_rulebook_7_4_german_chooses_the_order_of_combats() -> None:
    t, pool = setup()
    for z in ("8", "9"):
        pool.take("wehrmacht", 2, z)
        pool.take("soviet-regular", 1, z)
    to_combat(t)
    assert t.state["combat"]["sub"] == "pick"
    assert t.engine.choices(t.state, "german")
    say(t, "german", "fight 9")
    assert t.state["combat"]["zone"] == "9"


def test_rulebook_7_4_1_one_c_card_per_side() -> None:
    t, pool = setup()
    pool.take("wehrmacht", 1, "8")
    pool.take("soviet-regular", 1, "8")
    to_combat(t)
    with pytest.raises(IllegalOrderError, match="one C card"):
        t.engine.apply(
            t.state,
            "german",
            t.engine.parse("cards play 6, 8", t.state, "german"),
            ScriptedContext(seq=99),
        )


def test_rulebook_7_5_soviet_alone_in_the_reichstag_removes_a_non_ss_unit() -> None:
    t, pool = setup()
    pool.take("soviet-regular", 1, "V")
    w = pool.take("wehrmacht", 1, "12")
    ss = pool.take("ss", 1, "13")
    pool.take("soviet-regular", 3, "A")
    to_combat(t)
    assert t.state["step"] == "reichstag"
    with pytest.raises(IllegalOrderError, match="7.5"):
        say(t, "soviet", f"remove {ss[0]}")
    say(t, "soviet", f"remove {w[0]}")
    assert status(t, w[0]) == "removed"
    assert t.state["turn"] == 2


def test_rulebook_9_2_automatic_german_victory_after_a_combat_from_turn_5() -> None:
    t, pool = setup()
    t.state["turn"] = 5
    t.state["plan"] = None
    pool.take("wehrmacht", 6, "8")
    pool.take("soviet-regular", 3, "8")
    pool.take("soviet-regular", 4, "A")  # 6 to 7 before the combat (9.2 holds at any time)
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "end movement")
    say(t, "german", "no cards")
    say(t, "soviet", "no cards", rolls=[9])
    pass_after(t)
    assert t.state["result"]["winner"] == "german" and t.state["result"]["level"] == "automatic"
    assert t.state["step"] == "reveal"
    say(t, "german", "open")
    say(t, "soviet", "open")
    outcome = t.engine.outcome(t.state)
    assert outcome is not None and outcome.winner == "german"


def test_rulebook_9_2_no_automatic_victory_before_the_end_of_turn_4() -> None:
    t, pool = setup()
    pool.take("wehrmacht", 3, "12")
    pool.take("soviet-regular", 1, "A")
    to_combat(t)
    assert t.state["result"] is None and t.state["turn"] == 2


def test_rulebook_9_1_soviet_victory_at_the_end_of_turn_12() -> None:
    t, pool = setup()
    t.state["turn"] = 12
    pool.take("soviet-regular", 4, "V")
    pool.take("wehrmacht", 1, "V")
    assert status(t, "de-mohnke") == "off"  # the garrison of V is off the map
    to_combat(t)
    # the combat in V: 4 against 1 -> German removed, then the end of turn 12 (no 7.5 check)
    say(t, "german", "no cards")
    say(t, "soviet", "no cards", rolls=[7])
    pass_after(t)
    assert t.state["result"]["winner"] == "soviet", t.state["result"]


def test_rulebook_9_german_standard_victory_when_the_soviet_falls_short() -> None:
    t, pool = setup()
    t.state["turn"] = 12
    pool.take("soviet-regular", 1, "I")
    to_combat(t)
    assert t.state["result"]["winner"] == "german" and t.state["result"]["level"] == "standard"


def test_rulebook_8_1_soviet_reinforcements_after_the_draw_of_turn_4() -> None:
    t = table(5)
    t.until("reinforce")
    assert t.state["turn"] == 4
    assert all(len(d["private"]) == 5 + 4 for d in t.state["decks"].values())
    with pytest.raises(IllegalOrderError, match="8.1"):
        say(t, "soviet", "reinforce d, b")
    say(t, "soviet", "reinforce b, e")
    units = tables.of(t.state).units
    group1 = {zone_of(t, u) for u, unit in units.items() if unit.group == 1}
    group2 = {zone_of(t, u) for u, unit in units.items() if unit.group == 2}
    assert group1 == {"B"} and group2 == {"E"}
    assert t.state["step"] == "plan"


def test_rulebook_7_4_1_after_combat_card_removes_a_unit_once_the_combat_is_over() -> None:
    t, pool = setup()
    soviets = pool.take("soviet-regular", 2, "8")
    pool.take("wehrmacht", 1, "8")
    t.state["combat"] = {"zone": "8", "played": {"german": [13], "soviet": []}, "left": []}
    removed = after_combat(t.state, ScriptedContext(seq=1))  # German #13 Sniper
    assert len(removed) == 1 and removed[0] in soviets


def test_rulebook_7_4_1_air_superiority_cancels_the_german_c_card() -> None:
    t, pool = setup()
    pool.take("wehrmacht", 2, "8")
    pool.take("soviet-regular", 2, "8")
    t.state["combat"] = {"zone": "8", "played": {"german": [8], "soviet": [10]}, "left": []}
    ctx = ScriptedContext(seq=1)
    result = resolve_strengths(t.state, ctx)
    assert result["strength"] == {"german": 2, "soviet": 2}
    assert ctx.said("cancelled")


def test_rulebook_7_4_2_markers_add_to_the_placing_side() -> None:
    t, pool = setup()
    pool.take("wehrmacht", 2, "8")
    pool.take("soviet-regular", 3, "8")
    t.state["markers"]["8"] = [{"kind": "flak-tower", "side": "german", "amount": 2}]
    t.state["combat"] = {"zone": "8", "played": {"german": [], "soviet": []}, "left": []}
    ctx = ScriptedContext(seq=1)
    result = resolve_strengths(t.state, ctx)
    assert result["strength"] == {"german": 4, "soviet": 3}
    assert ctx.said("flak-tower marker")


# --- Panzerfaust's two modes (2.3, 7.4.1) -----------------------------------------------------


def panzerfaust(soviets: int = 2) -> tuple[Table, list[str], list[str]]:
    """The German holds #1 Panzerfaust and the C card #18."""
    t, pool = setup(3)
    give(t, "german", 1, 18)
    germans = pool.take("wehrmacht", 2, "8")
    regulars = pool.take("soviet-regular", soviets, "8")
    pool.take("soviet-regular", 3, "A")
    to_combat(t)
    assert t.state["combat"]["zone"] == "8" and t.state["combat"]["sub"] == "cards"
    return t, germans, regulars


def test_rulebook_2_3_panzerfaust_c_mode_is_plus_two() -> None:
    t, _germans, _regulars = panzerfaust()
    say(t, "german", "cards play 1")
    ctx = say(t, "soviet", "no cards")
    assert ctx.said("German +2 (card German #1 Panzerfaust)")
    assert not ctx.said("! mode")  # no removal: one mode only
    assert ctx.said("German wins 4 to 2")


def test_rulebook_2_3_panzerfaust_bang_mode_removes_a_regular_before_the_strengths() -> None:
    t, _germans, regulars = panzerfaust()
    say(t, "german", "cards play 1!")
    ctx = say(t, "soviet", "no cards")
    removal = next(i for i, e in enumerate(ctx.texts) if "in its ! mode" in e)
    strengths = next(i for i, e in enumerate(ctx.texts) if "units in 8: strength" in e)
    assert removal < strengths  # 7.4.1: the card's `when` is "combat", before strengths
    assert ctx.said("Soviet units in 8: strength 1")
    assert not any("Panzerfaust)" in e and "+2" in e for e in ctx.texts)  # one mode only
    assert removed(t, regulars) == 2


def test_rulebook_7_4_1_panzerfaust_bang_mode_leaves_the_c_card_free() -> None:
    t, _germans, _regulars = panzerfaust()
    with pytest.raises(IllegalOrderError, match=r"one C card.*rulebook 7\.4\.1"):
        say(t, "german", "cards play 1, 18")  # two C cards
    say(t, "german", "cards play 1!, 18")
    assert t.state["combat"]["bang"]["german"] == [1]
    ctx = say(t, "soviet", "no cards")
    assert ctx.said("(card German #18")
    assert ctx.said("in its ! mode")


def test_rulebook_2_3_choices_offer_both_panzerfaust_modes() -> None:
    t, _germans, _regulars = panzerfaust()
    options = t.engine.choices(t.private("german"), "german")
    texts = {t.engine.format(o) for o in options}
    assert {"cards play 1", "cards play 1 bang", "cards play 1 bang, 18"} <= texts
    assert "cards play 1, 18" not in texts
    for o in options:
        assert t.engine.parse(t.engine.format(o), {}, "german") == o


def test_rulebook_2_3_panzerfaust_bang_mode_needs_a_soviet_regular() -> None:
    t, pool = setup(3)
    give(t, "german", 1)
    pool.take("wehrmacht", 1, "8")
    pool.take("soviet-guards", 1, "8")
    pool.take("soviet-regular", 3, "A")
    to_combat(t)
    with pytest.raises(IllegalOrderError, match=r"there is none there.*rulebook 2\.3, 7\.4\.1"):
        say(t, "german", "cards play 1!")
    assert t.state["combat"]["asked"] == "german"  # refused whole, before any roll
    texts = {t.engine.format(o) for o in t.engine.choices(t.private("german"), "german")}
    assert "cards play 1!" not in texts and "cards play 1" in texts


def test_rulebook_7_4_1_only_two_mode_cards_have_a_bang_mode() -> None:
    t, _germans, _regulars = panzerfaust()
    with pytest.raises(IllegalOrderError, match=r"no ! mode.*rulebook 2\.3, 7\.4\.1"):
        say(t, "german", "cards play 18!")


# --- 9.2 at any time: card removals during movement --------------------------------------------

# a German M card removing a Soviet regular (the stand-in deck has none; the Soviet cards
# that remove units in movement take German units, which cannot trigger 9.2)
REMOVES_A_REGULAR = [
    {
        "mode": "M",
        "when": "movement",
        "effect": "remove_unit",
        "count": 1,
        "types": ["soviet-regular"],
        "zone_filter": "any",
    }
]


def test_rulebook_9_2_automatic_victory_after_a_card_removal_in_movement() -> None:
    t = find_seed("german", 3)  # dealt, not given: the game goes on to the end
    clear(t.state)
    pool = Pool(t.state)
    pool.take("wehrmacht", 2, "8")
    pool.take("soviet-regular", 1, "8")
    pool.take("soviet-regular", 1, "A")
    t.state["turn"] = 5
    with_card_effects(t.state, "german-3", REMOVES_A_REGULAR)
    say(t, "soviet", "plan none")
    assert t.state["step"] == "german"
    ctx = say(t, "german", "play 3 in 8")
    assert t.state["result"]["winner"] == "german"
    assert t.state["result"]["level"] == "automatic"
    assert ctx.said("German strength 2 exceeds Soviet 1 (rulebook 9.2)")
    # the plan, still sealed, opens with every other secret at the end (and is checked)
    say(t, "german", "open")
    ctx = say(t, "soviet", "open")
    assert "plan/turn-5" in ctx.opened_now() and t.state["plan"]["revealed"]


def test_rulebook_9_2_no_automatic_victory_in_movement_before_the_end_of_turn_4() -> None:
    t, pool = setup(3)
    give(t, "german", 3)
    pool.take("wehrmacht", 2, "8")
    pool.take("soviet-regular", 1, "8")
    pool.take("soviet-regular", 1, "A")
    t.state["turn"] = 4
    with_card_effects(t.state, "german-3", REMOVES_A_REGULAR)
    say(t, "soviet", "plan none")
    say(t, "german", "play 3 in 8")
    assert t.state.get("result") is None and t.state["step"] == "german"


def test_rulebook_7_4_panzerfaust_clearing_the_zone_leaves_no_combat() -> None:
    t, _germans, regulars = panzerfaust(soviets=1)
    say(t, "german", "cards play 1!")
    ctx = say(t, "soviet", "no cards")
    assert status(t, regulars[0]) == "removed"
    assert ctx.said("no combat in 8")
    assert not ctx.said("units in 8: strength") and ctx.rolls == []
    assert t.state["control"]["8"] == "german"
    assert position.units_at(t.state, "8", "soviet") == []
