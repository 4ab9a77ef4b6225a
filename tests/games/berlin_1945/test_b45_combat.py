"""Combat (rulebook 7.4), the Reichstag presence check (7.5), reinforcements (8.1) and
victory (9)."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945 import flow
from tests.games.berlin_1945.b45_support import FakeCtx, Game, Pool, clear


def to_combat(g: Game) -> None:
    g.text("soviet", "plan none")
    g.text("german", "end movement")
    g.text("soviet", "open")
    g.text("soviet", "end movement")


def setup(seed: int = 0) -> tuple[Game, Pool]:
    g = Game(seed)
    g.until("plan")
    clear(g.state)
    return g, Pool(g.state)


def test_rulebook_7_4_example_7_against_4_soviet_loses_one_and_no_german_roll() -> None:
    g, pool = setup()
    pool.take("wehrmacht", 3, "6")
    pool.take("ss", 1, "6")
    pool.take("soviet-regular", 3, "6")
    state = g.state
    state["combat"] = {
        "zone": "6",
        "played": {"german": [8], "soviet": [5]},
        "left": [],
        "queue": [],
    }
    ctx = FakeCtx(g, 1, [], {})
    result = flow.resolve_strengths(state, ctx)  # German #8 Counterattack +2, Soviet #5 +1
    assert result["strength"] == {"german": 7, "soviet": 4}
    assert result["winner"] == "german"
    assert result["losses"] == {"soviet": 1, "german": 0}
    flow.roll_winner_losses(state, result, ctx)
    assert ctx.rolls == []
    assert any("+2 (card German #8" in e for e in ctx.events)
    assert any("less than double" in e for e in ctx.events)


def test_rulebook_7_4_4_double_strength_loser_removes_two_winner_rolls_one_d10() -> None:
    g, pool = setup()
    germans = pool.take("wehrmacht", 2, "8")
    soviets = pool.take("soviet-regular", 4, "8")
    to_combat(g)
    assert g.state["combat"]["zone"] == "8"
    ctx = g.text("german", "no cards")
    assert ctx.rolls == []  # no dice before the last card decision
    g.script = [3]
    ctx = g.text("soviet", "no cards")
    assert [p for p, _v in ctx.rolls] == ["combat in 8: Soviet casualty check 1 of 1"]
    assert all(g.state["units"][u]["status"] == "removed" for u in germans)
    assert sum(g.state["units"][u]["status"] == "removed" for u in soviets) == 1
    assert g.state["control"]["8"] == "soviet"


def test_rulebook_7_4_4_triple_strength_three_losses_two_dice() -> None:
    g, pool = setup()
    pool.take("wehrmacht", 3, "8")
    soviets = pool.take("soviet-regular", 9, "8")
    to_combat(g)
    g.text("german", "no cards")
    g.script = [1, 5]
    ctx = g.text("soviet", "no cards")
    assert len(ctx.rolls) == 2
    assert sum(g.state["units"][u]["status"] == "removed" for u in soviets) == 1


def test_rulebook_7_4_4_tie_both_remove_one() -> None:
    g, pool = setup()
    germans = pool.take("wehrmacht", 2, "8")
    soviets = pool.take("soviet-regular", 2, "8")
    to_combat(g)
    g.text("german", "no cards")
    ctx = g.text("soviet", "no cards")
    assert ctx.rolls == []
    assert sum(g.state["units"][u]["status"] == "removed" for u in germans) == 1
    assert sum(g.state["units"][u]["status"] == "removed" for u in soviets) == 1


def test_rulebook_7_4_4_owner_chooses_casualties() -> None:
    g, pool = setup()
    w = pool.take("wehrmacht", 1, "8")
    ss = pool.take("ss", 1, "8")
    pool.take("soviet-regular", 4, "8")
    to_combat(g)
    g.text("german", "no cards")
    g.text("soviet", "no cards")  # 4 vs 3: German loses 1
    assert g.state["combat"]["sub"] == "casualties" and g.asked() == "german"
    with pytest.raises(IllegalOrderError, match="exactly 1"):
        g.text("german", f"casualties {w[0]}, {ss[0]}")
    g.text("german", f"casualties {w[0]}")
    assert g.state["units"][ss[0]]["status"] == "on"


def test_rulebook_7_4_german_chooses_the_order_of_combats() -> None:
    g, pool = setup()
    for z in ("8", "9"):
        pool.take("wehrmacht", 2, z)
        pool.take("soviet-regular", 1, z)
    to_combat(g)
    assert g.state["combat"]["sub"] == "pick"
    assert g.engine.choices(g.state, "german")
    g.text("german", "fight 9")
    assert g.state["combat"]["zone"] == "9"


def test_rulebook_7_4_1_one_c_card_per_side() -> None:
    g, pool = setup()
    pool.take("wehrmacht", 1, "8")
    pool.take("soviet-regular", 1, "8")
    to_combat(g)
    with pytest.raises(IllegalOrderError, match="one C card"):
        g.engine.apply(
            g.state,
            "german",
            g.engine.parse("cards play 6, 8", g.state, "german"),
            FakeCtx(g, 99, [], {}),
        )


def test_rulebook_7_5_soviet_alone_in_the_reichstag_removes_a_non_ss_unit() -> None:
    g, pool = setup()
    pool.take("soviet-regular", 1, "V")
    w = pool.take("wehrmacht", 1, "12")
    ss = pool.take("ss", 1, "13")
    pool.take("soviet-regular", 3, "A")
    to_combat(g)
    assert g.state["step"] == "reichstag"
    with pytest.raises(IllegalOrderError, match="7.5"):
        g.text("soviet", f"remove {ss[0]}")
    g.text("soviet", f"remove {w[0]}")
    assert g.state["units"][w[0]]["status"] == "removed"
    assert g.state["turn"] == 2


def test_rulebook_9_2_automatic_german_victory_after_a_combat_from_turn_5() -> None:
    g, pool = setup()
    g.state["turn"] = 5
    g.state["plan"] = None
    pool.take("wehrmacht", 6, "8")
    pool.take("soviet-regular", 3, "8")
    g.text("soviet", "plan none")
    g.text("german", "end movement")
    g.text("soviet", "open")
    g.text("soviet", "end movement")
    g.text("german", "no cards")
    g.script = [9]
    g.text("soviet", "no cards")
    assert g.state["result"]["winner"] == "german" and g.state["result"]["level"] == "automatic"
    assert g.state["step"] == "reveal"
    g.text("german", "open")
    g.text("soviet", "open")
    outcome = g.engine.outcome(g.state)
    assert outcome is not None and outcome.winner == "german"


def test_rulebook_9_2_no_automatic_victory_before_the_end_of_turn_4() -> None:
    g, pool = setup()
    pool.take("wehrmacht", 3, "12")
    pool.take("soviet-regular", 1, "A")
    to_combat(g)
    assert g.state["result"] is None and g.state["turn"] == 2


def test_rulebook_9_1_soviet_victory_at_the_end_of_turn_12() -> None:
    g, pool = setup()
    g.state["turn"] = 12
    pool.take("soviet-regular", 4, "V")
    pool.take("wehrmacht", 1, "V")
    g.state["units"]["de-mohnke"].update(status="off")
    to_combat(g)
    # the combat in V: 4 against 1 -> German removed, then the end of turn 12 (no 7.5 check)
    g.text("german", "no cards")
    g.script = [7]
    g.text("soviet", "no cards")
    assert g.state["result"]["winner"] == "soviet", g.state["result"]


def test_rulebook_9_german_standard_victory_when_the_soviet_falls_short() -> None:
    g, pool = setup()
    g.state["turn"] = 12
    pool.take("soviet-regular", 1, "I")
    to_combat(g)
    assert g.state["result"]["winner"] == "german" and g.state["result"]["level"] == "standard"


def test_rulebook_8_1_soviet_reinforcements_after_the_draw_of_turn_4() -> None:
    g = Game(5)
    g.until("reinforce")
    assert g.state["turn"] == 4
    assert all(len(s["draws"]) == 5 + 4 for s in g.state["hands"].values())
    with pytest.raises(IllegalOrderError, match="8.1"):
        g.text("soviet", "reinforce d, b")
    g.text("soviet", "reinforce b, e")
    group1 = {u["zone"] for u in g.state["units"].values() if u["group"] == 1}
    group2 = {u["zone"] for u in g.state["units"].values() if u["group"] == 2}
    assert group1 == {"B"} and group2 == {"E"}
    assert g.state["step"] == "plan"


def test_rulebook_7_4_1_after_combat_card_removes_a_unit_once_the_combat_is_over() -> None:
    from pbem.games.berlin_1945.cards import after_combat

    g, pool = setup()
    soviets = pool.take("soviet-regular", 2, "8")
    pool.take("wehrmacht", 1, "8")
    g.state["combat"] = {"zone": "8", "played": {"german": [13], "soviet": []}, "left": []}
    ctx = FakeCtx(g, 1, [], {})
    removed = after_combat(g.state, ctx)  # German #13 Sniper
    assert len(removed) == 1 and removed[0] in soviets


def test_rulebook_7_4_1_air_superiority_cancels_the_german_c_card() -> None:
    g, pool = setup()
    pool.take("wehrmacht", 2, "8")
    pool.take("soviet-regular", 2, "8")
    g.state["combat"] = {"zone": "8", "played": {"german": [8], "soviet": [10]}, "left": []}
    ctx = FakeCtx(g, 1, [], {})
    result = flow.resolve_strengths(g.state, ctx)
    assert result["strength"] == {"german": 2, "soviet": 2}
    assert any("cancelled" in e for e in ctx.events)


def test_rulebook_7_4_2_markers_add_to_the_placing_side() -> None:
    g, pool = setup()
    pool.take("wehrmacht", 2, "8")
    pool.take("soviet-regular", 3, "8")
    g.state["markers"]["8"] = [{"kind": "flak-tower", "side": "german", "amount": 2}]
    g.state["combat"] = {"zone": "8", "played": {"german": [], "soviet": []}, "left": []}
    ctx = FakeCtx(g, 1, [], {})
    result = flow.resolve_strengths(g.state, ctx)
    assert result["strength"] == {"german": 4, "soviet": 3}
    assert any("flak-tower marker" in e for e in ctx.events)


# --- Panzerfaust's two modes (2.3, 7.4.1) -----------------------------------------------------


def panzerfaust(soviets: int = 2) -> tuple[Game, list[str], list[str]]:
    """Seed 3 deals the German #1 Panzerfaust (and the C cards #18, #19, #22)."""
    g, pool = setup(3)
    germans = pool.take("wehrmacht", 2, "8")
    regulars = pool.take("soviet-regular", soviets, "8")
    pool.take("soviet-regular", 3, "A")
    to_combat(g)
    assert g.state["combat"]["zone"] == "8" and g.state["combat"]["sub"] == "cards"
    return g, germans, regulars


def test_rulebook_2_3_panzerfaust_c_mode_is_plus_two() -> None:
    g, _germans, _regulars = panzerfaust()
    g.text("german", "cards play 1")
    ctx = g.text("soviet", "no cards")
    assert any("German +2 (card German #1 Panzerfaust)" in e for e in ctx.events)
    assert not any("! mode" in e for e in ctx.events)  # no removal: one mode only
    assert any("German wins 4 to 2" in e for e in ctx.events)


def test_rulebook_2_3_panzerfaust_bang_mode_removes_a_regular_before_the_strengths() -> None:
    g, _germans, regulars = panzerfaust()
    g.text("german", "cards play 1!")
    ctx = g.text("soviet", "no cards")
    removal = next(i for i, e in enumerate(ctx.events) if "in its ! mode" in e)
    strengths = next(i for i, e in enumerate(ctx.events) if "units in 8: strength" in e)
    assert removal < strengths  # 7.4.1: the card's `when` is "combat", before strengths
    assert any("Soviet units in 8: strength 1" in e for e in ctx.events)
    assert not any("Panzerfaust)" in e and "+2" in e for e in ctx.events)  # one mode only
    assert sum(g.state["units"][u]["status"] == "removed" for u in regulars) == 2


def test_rulebook_7_4_1_panzerfaust_bang_mode_leaves_the_c_card_free() -> None:
    g, _germans, _regulars = panzerfaust()
    with pytest.raises(IllegalOrderError, match=r"one C card.*rulebook 7\.4\.1"):
        g.text("german", "cards play 1, 18")  # two C cards
    g.text("german", "cards play 1!, 18")
    assert g.state["combat"]["bang"]["german"] == [1]
    ctx = g.text("soviet", "no cards")
    assert any("(card German #18" in e for e in ctx.events)
    assert any("in its ! mode" in e for e in ctx.events)


def test_rulebook_2_3_choices_offer_both_panzerfaust_modes() -> None:
    g, _germans, _regulars = panzerfaust()
    options = g.engine.choices(g.private("german"), "german")
    texts = {g.engine.format(o) for o in options}
    assert {"cards play 1", "cards play 1!", "cards play 1!, 18"} <= texts
    assert "cards play 1, 18" not in texts
    for o in options:
        assert g.engine.parse(g.engine.format(o), {}, "german") == o


def test_rulebook_2_3_panzerfaust_bang_mode_needs_a_soviet_regular() -> None:
    g, pool = setup(3)
    pool.take("wehrmacht", 1, "8")
    pool.take("soviet-guards", 1, "8")
    pool.take("soviet-regular", 3, "A")
    to_combat(g)
    with pytest.raises(IllegalOrderError, match=r"there is none there.*rulebook 2\.3, 7\.4\.1"):
        g.text("german", "cards play 1!")
    assert g.state["combat"]["asked"] == "german"  # refused whole, before any roll
    texts = {g.engine.format(o) for o in g.engine.choices(g.private("german"), "german")}
    assert "cards play 1!" not in texts and "cards play 1" in texts


def test_rulebook_7_4_1_only_two_mode_cards_have_a_bang_mode() -> None:
    g, _germans, _regulars = panzerfaust()
    with pytest.raises(IllegalOrderError, match=r"no ! mode.*rulebook 2\.3, 7\.4\.1"):
        g.text("german", "cards play 18!")


# --- 9.2 at any time: card removals during movement --------------------------------------------


def test_rulebook_9_2_automatic_victory_after_a_card_removal_in_movement() -> None:
    g, pool = setup(3)
    pool.take("wehrmacht", 2, "8")
    pool.take("soviet-regular", 1, "8")
    pool.take("soviet-regular", 1, "A")
    g.state["turn"] = 5
    # a German M card removing a Soviet regular (the stand-in deck has none; the Soviet
    # cards that remove units in movement take German units, which cannot trigger 9.2)
    g.state["cards"]["german-3"]["effects"] = [
        {
            "mode": "M",
            "when": "movement",
            "effect": "remove_unit",
            "count": 1,
            "types": ["soviet-regular"],
            "zone_filter": "any",
        }
    ]
    g.text("soviet", "plan none")
    assert g.state["step"] == "german"
    ctx = g.text("german", "play 3 in 8")
    assert g.state["result"]["winner"] == "german"
    assert g.state["result"]["level"] == "automatic"
    assert any("German strength 2 exceeds Soviet 1 (rulebook 9.2)" in e for e in ctx.events)


def test_rulebook_9_2_no_automatic_victory_in_movement_before_the_end_of_turn_4() -> None:
    g, pool = setup(3)
    pool.take("wehrmacht", 2, "8")
    pool.take("soviet-regular", 1, "8")
    pool.take("soviet-regular", 1, "A")
    g.state["turn"] = 4
    g.state["cards"]["german-3"]["effects"] = [
        {
            "mode": "M",
            "when": "movement",
            "effect": "remove_unit",
            "count": 1,
            "types": ["soviet-regular"],
            "zone_filter": "any",
        }
    ]
    g.text("soviet", "plan none")
    g.text("german", "play 3 in 8")
    assert g.state.get("result") is None and g.state["step"] == "german"


def test_rulebook_7_4_panzerfaust_clearing_the_zone_leaves_no_combat() -> None:
    g, _germans, regulars = panzerfaust(soviets=1)
    g.text("german", "cards play 1!")
    ctx = g.text("soviet", "no cards")
    assert g.state["units"][regulars[0]]["status"] == "removed"
    assert any("no combat in 8" in e for e in ctx.events)
    assert not any("units in 8: strength" in e for e in ctx.events) and ctx.rolls == []
    assert g.state["control"]["8"] == "german"
