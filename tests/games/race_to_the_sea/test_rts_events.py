"""Race to the Sea 1914: Event results (13.0, pbem.games.race_to_the_sea.events) after a
Firepower Combat whose two flipped cards are both EVENT! cards (#1-#6): the sum picks the
entry of the Event table (cards.toml, stand-ins but for 13.0's 9); "higher"/"lower" is
the side of the higher/lower card, the Strategic Momentum side on equal cards. Positions
and decks are arranged as in test_rts_firepower.py."""

from __future__ import annotations

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.race_to_the_sea import hits
from pbem.games.race_to_the_sea.decisions import Absorb, Pick
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.state import piece_label
from pbem.testing import Table
from tests.games.race_to_the_sea.test_rts_firepower import (
    HIGH,
    LOW,
    arrange,
    at_german_action,
    card,
    markers_of,
)

RIGHT = LOW + 1  # 713: Low clear, next to 712


def test_13_0_a_one_event_card_is_no_event() -> None:
    t = at_german_action()
    ii, _iv = arrange(t, ("germans", "de-ii", HIGH, "face up"), ("allies", "fr-iv", LOW, "face up"))
    t.decide("germans", f"fire {ii} {HIGH:04d} to {LOW:04d}", rolls=[card(4), card(7)])
    ctx = t.decide("allies", "reply")
    assert not any(text.startswith("13.0") for text in ctx.texts)
    assert t.state["event"] is None and t.state["absorbing"] is None


@pytest.mark.parametrize(
    ("german", "allied", "title"),
    [(4, 6, "Event 10, Strategic Momentum, to the Allies"), (4, 1, "Event 5, Change of Plans")],
)
def test_13_0_momentum_passes_by_event_4_1_1_c(german: int, allied: int, title: str) -> None:
    """4.1.1.C: only an Event changes the Strategic Momentum before Foch. #4 + #6 = 10 to
    the higher card (the Allies); #4 + #1 = 5 to the lower (the Allies). German #4 reads
    ART 4 and HA, which the II Corps lacks: no hits."""
    t = at_german_action()
    ii, _iv = arrange(t, ("germans", "de-ii", HIGH, "face up"), ("allies", "fr-iv", LOW, "hidden"))
    assert t.state["momentum"] == "germans"  # 4.1.1.B
    t.decide("germans", f"fire {ii} {HIGH:04d} to {LOW:04d}", rolls=[card(german), card(allied)])
    ctx = t.decide("allies", "reply")
    assert ctx.said(f"13.0: {title}")
    assert ctx.said("4.1.1.C: the Allies take the Strategic Momentum")
    assert t.state["momentum"] == "allies"
    assert t.state["step"] == "act" and t.asked() == "allies"  # nothing to pick or absorb


def test_13_0_planned_operations_award_equal_cards_go_to_the_momentum_side() -> None:
    """#4 + #4 = 8, Planned Operations to the higher card; equal cards: the Strategic
    Momentum side (the Germans) counts as higher (4.1.4)."""
    t = at_german_action()
    ii, _iv = arrange(t, ("germans", "de-ii", HIGH, "face up"), ("allies", "fr-iv", LOW, "hidden"))
    t.decide("germans", f"fire {ii} {HIGH:04d} to {LOW:04d}", rolls=[card(4), card(4)])
    ctx = t.decide("allies", "reply")
    assert ctx.said("13.0: Event 8, Planned Operations, to the Germans")
    assert t.state["planned_ops"] == {"holder": "germans", "hex": None}


def test_13_0_reveal_the_picked_hidden_unit_opens_in_its_owners_next_entry() -> None:
    """#1 + #2 = 3, Spies Report, to the higher card (the Allies): they pick one hidden
    German unit next to one of theirs; the Germans open it in their next entry (10.4.C).
    German #1 gives one hit (ART 3), French #2 takes it off with MET A/B: the IV Corps'
    MET use reveals it (11.2.I), no hit."""
    t = at_german_action()
    ii, iv, hidden = arrange(
        t,
        ("germans", "de-ii", HIGH, "face up"),
        ("allies", "fr-iv", LOW, "hidden"),
        ("germans", "de-iv", RIGHT, "hidden"),
    )
    t.decide("germans", f"fire {ii} {HIGH:04d} to {LOW:04d}", rolls=[card(1), card(2)])
    ctx = t.decide("allies", "reply met")
    assert ctx.said("13.0: Event 3, Spies Report, to the Allies")
    assert t.state["step"] == "event_pick" and t.asked() == "allies"
    assert ENGINE.choices(t.private("allies"), "allies") == [Pick((hidden,))]
    with pytest.raises(IllegalOrderError, match=r"13\.0"):
        t.decide("allies", f"pick {ii}")  # face up already
    t.decide("allies", f"pick {hidden}")
    assert t.state["pieces"][piece_label(hidden)]["due"]
    assert t.state["counters"][hidden]["unit"] is None
    assert t.asked() == "germans" and t.state["step"] == "show"
    _public, _values, due = t.prepare("germans", "show")
    assert due == [piece_label(hidden)]  # the identity only: no markers are read
    t.decide("germans", "show")
    assert t.state["counters"][hidden]["unit"] == "de-iv"
    assert t.state["step"] == "act" and t.asked() == "allies"
    assert iv in t.state["counters"]


def _artillery_barrage(target_unit: str, stack: list[list[str]] | None) -> tuple[Table, str]:
    """#2 + #2 = 4, Artillery Barrage, to the momentum side (the Germans, equal cards): one
    hit on an Allied unit next to the combat hex. German #2 gives one hit (RF 3), French
    #2 takes it off with MET A/B."""
    t = at_german_action()
    ii, _iv, other = arrange(
        t,
        ("germans", "de-ii", HIGH, "face up"),
        ("allies", "fr-iv", LOW, "hidden"),
        ("allies", target_unit, RIGHT, "hidden"),
    )
    if stack is not None:
        markers_of(t, "allies", other, stack)
    t.decide("germans", f"fire {ii} {HIGH:04d} to {LOW:04d}", rolls=[card(2), card(2)])
    ctx = t.decide("allies", "reply met")
    assert ctx.said("13.0: Event 4, Artillery Barrage, to the Germans")
    assert t.state["step"] == "event_pick" and t.asked() == "germans"
    assert Pick((other,)) in ENGINE.choices(t.private("germans"), "germans")
    t.decide("germans", f"pick {other}")
    assert t.state["absorbing"] == {"side": "allies", "hits": {other: 1}}
    assert t.state["step"] == "absorb" and t.asked() == "allies"
    return t, other


def test_13_0_hit_a_hidden_unit_stays_hidden_5_1_a() -> None:
    """5.1.A: an Event's hit on a hidden unit draws its marker privately; the unit is not
    revealed (the Event does not say so)."""
    t, other = _artillery_barrage("fr-xiii", None)
    public, values, due = t.prepare("allies", "absorb")
    assert (
        public == Absorb(False)
        and due == []
        and list(values) == [hits.draw_label(t.state, "allies")]
    )
    ctx = t.decide("allies", "absorb")
    assert ctx.said(f"{other} stays hidden")
    assert t.state["step"] == "restack" and t.asked() == "allies"
    t.decide("allies", "restack")
    assert t.state["counters"][other]["unit"] is None
    assert not t.state["pieces"][piece_label(other)]["revealed"]
    assert hits.stack_of(t.state, other) is None
    assert hits.hits_on(t.private("allies"), other) == 1
    assert t.state["step"] == "act"


def test_13_0_hit_an_eliminated_hidden_unit_opens_5_2_6() -> None:
    """The VI Reserve Corps (SZ 2) with one hit already: the Event's hit eliminates it, and
    the elimination opens it (5.1.D, 5.2.6)."""
    t, other = _artillery_barrage("fr-vi-res", [["m04", "light"]])
    public, values, due = t.prepare("allies", "absorb")
    assert public == Absorb(True) and values == {}
    assert set(due) == {piece_label(other), t.state["stacks"][other]}
    ctx = t.decide("allies", "absorb")
    assert other not in t.state["counters"] and "fr-vi-res" in t.state["eliminated"]["allies"]
    assert ctx.said(f"{other} (fr-vi-res) is eliminated")
    assert t.state["step"] == "act"


def test_13_0_the_combat_hex_is_the_fired_at_hex_even_after_a_fallback() -> None:
    """Artillery Barrage hits a unit next to the combat hex: the hex fired at, not the one
    the target fell back to (11.3.A), so the target that fell back next to it may be
    picked. German #2 (RF 4/3: one hit), French #2 (MET A/B, not used): one hit, which
    the IV Corps turns into a Fallback Move."""
    from pbem.games.race_to_the_sea import events, firepower

    t = at_german_action()
    ii, iv, other = arrange(
        t,
        ("germans", "de-ii", HIGH, "face up"),
        ("allies", "fr-iv", LOW, "hidden"),
        ("allies", "fr-xiii", RIGHT, "hidden"),
    )
    t.decide("germans", f"fire {ii} {HIGH:04d} to {LOW:04d}", rolls=[card(2), card(2)])
    back = next(h for h in firepower.fallbacks(t.private("allies"), iv) if h != RIGHT)
    t.decide("allies", f"reply back {back:04d}")
    assert t.state["counters"][iv]["hex"] == back and t.state["counters"][iv]["unit"] == "fr-iv"
    assert t.state["event"]["hex"] == LOW
    assert set(events.candidates(t.state)) == {iv, other}
