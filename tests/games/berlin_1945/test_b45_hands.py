"""Hidden hands (rulebook 2.3, 7.1) with private draws: initial hands of 5, one draw a turn,
hand limit 6, cards played by opening their slot, discards unseen, every draw recomputed
and every slot checked at the end (false claims caught)."""

from __future__ import annotations

import json

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.berlin_1945.hands import slot_label
from pbem.testing import Table
from tests.games.berlin_1945.b45_support import (
    find_seed,
    held,
    say,
    table,
    to_plan,
    units_of,
)


def test_rulebook_2_3_initial_hands_of_five_by_private_draws() -> None:
    t = table(1)
    ctx = say(t, "german", "draw")
    assert ctx.committed_now() == ["x/german/1"]
    assert len(t.state["decks"]["german"]["private"]) == 5
    assert ctx.purposes == [f"initial hand: German draws card {i} of 5" for i in range(1, 6)]
    say(t, "soviet", "draw")
    # the German's next decision commits the five drawn cards to slots
    ctx = say(t, "german", "draw")
    assert sorted(ctx.committed_now()) == sorted(
        [f"hand/german/{k}" for k in range(1, 6)] + ["x/german/2"]
    )
    assert len(held(t, "german")) == 6


def test_rulebook_2_3_a_drawn_card_is_committed_by_the_next_decision() -> None:
    t = table(1)
    say(t, "german", "draw")
    say(t, "soviet", "draw")
    with pytest.raises(IllegalOrderError, match="must commit the drawn card as hand/german/1"):
        t.raw("german", "draw", {"x/german/2": "<fresh 32-byte secret>"})
    with pytest.raises(IllegalOrderError, match="hand/soviet/1 may not be committed"):
        t.raw("german", "draw", {"x/german/2": 1, "hand/soviet/1": 3})


def test_rulebook_2_3_opponent_sees_the_count_never_the_cards() -> None:
    t = to_plan(2)
    german_view = t.engine.view_known(t.state, "german", t.known("german"))
    soviet_view = t.engine.view_known(t.state, "soviet", t.known("soviet"))
    soviet_cards = [s["card"] for s in soviet_view["hands"]["soviet"]["slots"].values()]
    assert soviet_cards and all(isinstance(c, int) for c in soviet_cards)
    german_view = json.loads(json.dumps(german_view))
    assert all(s["card"] is None for s in german_view["hands"]["soviet"]["slots"].values())
    assert german_view["hands"]["soviet"]["in_hand"] == len(soviet_cards)
    public = t.engine.view(t.state, None)
    assert all(s["card"] is None for s in public["hands"]["german"]["slots"].values())


def test_rulebook_7_1_hand_limit_six_discard_after_the_draw() -> None:
    t = to_plan(4)  # turn 1: 6 cards each
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    say(t, "soviet", "end movement")
    t.until("draw")
    say(t, "german", "draw")
    say(t, "soviet", "draw")
    assert t.state["step"] == "limit"
    hand = held(t, "german")
    with pytest.raises(IllegalOrderError, match="7.1"):
        say(t, "german", f"discard #{hand[0]}, #{hand[1]}")
    ctx = say(t, "german", f"discard #{hand[-1]}")  # the card just drawn may go
    assert ctx.said("unseen")
    assert len(held(t, "german")) == 6


def desertion_zone(t: Table) -> str:
    """A zone with a Wehrmacht unit and no Soviet one."""
    wehrmacht = set(units_of(t.state, "german", "wehrmacht"))
    return next(
        z
        for z, uids in t.state["at"]["german"].items()
        if z not in t.state["at"]["soviet"] and wehrmacht & set(uids)
    )


def test_rulebook_2_3_a_played_card_opens_its_slot() -> None:
    # German Desertions: remove a Wehrmacht unit from a zone without Soviets
    t = find_seed("soviet", 17, range(100))
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    zone = desertion_zone(t)
    ctx = say(t, "soviet", f"play 17 in {zone}")
    assert list(ctx.opened_now().values()) == [17]
    assert 17 in t.state["played"]["soviet"]


def test_rulebook_2_3_a_card_play_opens_the_slot_holding_that_card_and_no_other() -> None:
    t = find_seed("soviet", 17, range(100))
    say(t, "soviet", "plan none")
    say(t, "german", "end movement")
    say(t, "soviet", "open")
    zone = desertion_zone(t)
    slots = t.private("soviet")["hands"]["soviet"]["slots"]
    other = next(p["label"] for p in slots.values() if p["value"] != 17)
    with pytest.raises(IllegalOrderError, match="opens the hand slot that holds it"):
        t.raw("soviet", f"play 17 in {zone}", opens=[])
    with pytest.raises(IllegalOrderError, match=f"{other} opens as"):
        t.raw("soviet", f"play 17 in {zone}", opens=[other])
    with pytest.raises(IllegalOrderError, match="hand/german/1 may not be opened"):
        t.raw("soviet", f"play 17 in {zone}", opens={"hand/german/1": 17})


def test_rulebook_2_3_a_false_slot_is_caught_at_the_end() -> None:
    t = table(6)
    say(t, "german", "draw")
    say(t, "soviet", "draw")
    public, values, due = t.prepare("german", "draw")
    real = values[slot_label("german", 1)]
    values[slot_label("german", 1)] = 26 if real != 26 else 25  # a card never drawn
    ctx = t.raw("german", public, values, due)
    claimed = ctx.seq
    t.until("reveal")
    with pytest.raises(IllegalOrderError, match=rf"false claim in entry {claimed} by german"):
        say(t, "german", "open")


def test_rulebook_2_3_every_secret_is_opened_at_the_end() -> None:
    t = table(7)
    t.play()
    assert all(t.opened(label) for label in t.sealed)
    for role in ("german", "soviet"):
        assert all(p["revealed"] for p in t.state["hands"][role]["slots"].values())
