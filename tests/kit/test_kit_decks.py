"""Decks, cups and seats (pbem/kit/decks.py, seats.py), and the testing context's checks."""

from __future__ import annotations

import pytest

from pbem.core.rng import Stream
from pbem.errors import EntropyPending, IllegalOrderError, PbemError
from pbem.kit import decks, seats
from pbem.testing import ScriptedContext


def test_a_public_draw_takes_index_int_len_of_the_canonical_pile() -> None:
    deck = decks.new_deck([5, 3, 9, 1])
    assert deck["pile"] == [1, 3, 5, 9]
    ctx = ScriptedContext([2])
    assert decks.draw(deck, ctx, "card") == 5
    assert deck["pile"] == [1, 3, 9]
    assert [(r.lo, r.hi, r.value) for r in ctx.records] == [(0, 3, 2)]


def test_an_empty_pile_takes_back_the_discards() -> None:
    deck = decks.new_deck([1])
    ctx = ScriptedContext([0, 1])
    decks.discard(deck, decks.draw(deck, ctx, "first"))
    decks.discard(deck, 7)
    assert decks.draw(deck, ctx, "second") == 7
    assert ctx.said("the discard pile is shuffled back into the deck (second)")
    with pytest.raises(IllegalOrderError, match="deck and its discard pile are empty"):
        decks.draw({"pile": [], "discard": [], "private": []}, ctx, "third")


def test_a_draw_before_entropy_waits_and_changes_nothing_visible() -> None:
    deck = decks.new_deck([1, 2])
    with pytest.raises(EntropyPending):
        decks.draw(deck, ScriptedContext(pending=True), "card")
    assert deck["pile"] == [1, 2]


def test_a_shuffle_is_section_7_fisher_yates() -> None:
    seed = bytes(32)
    pile = list(range(10))
    stream = Stream(seed)
    ctx = ScriptedContext()
    ctx._stream = stream  # the protocol's generator itself
    ctx.shuffle(pile, "cup")
    assert pile == Stream(seed).shuffle(range(10))
    assert len(ctx.records) == 9 and ctx.records[0].purpose == "cup: place 10"


def test_private_draws_are_indices_only_the_owner_can_read() -> None:
    deck = decks.new_deck([10, 20, 30, 40])
    ctx = ScriptedContext(committed=["x/a/1"], by="a")
    keys = decks.draw_private(deck, ctx, "x/a/1", 2, lambda i, n: f"a draws card {i} of {n}")
    assert keys == ["draw/1/0", "draw/1/1"]
    assert [r.line() for r in ctx.records] == [
        "rng 1 2 private a draws card 1 of 2",
        "rng 1 2 private a draws card 2 of 2",
    ]
    assert [(r.lo, r.hi) for r in ctx.records] == [(0, 3), (0, 2)]
    assert decks.left(deck) == 2
    assert decks.private_cards(deck, {"draw/1/0": 3, "draw/1/1": 0}) == [40, 10]
    assert decks.private_cards(deck, {}) == []  # nobody else knows
    with pytest.raises(IllegalOrderError, match="drawn only by its owner"):
        decks.draw(deck, ScriptedContext([0]), "public")


def test_the_testing_context_makes_the_adjudicators_checks() -> None:
    ctx = ScriptedContext([1, 2], committed=["x/a/1"], by="a")
    with pytest.raises(PbemError, match="one line"):
        ctx.roll(1, 6, "two\nlines")
    ctx.roll(1, 6, "public")
    with pytest.raises(PbemError, match="all come from one secret, alone"):
        ctx.private_roll("x/a/1", 1, 6, "private")
    with pytest.raises(AssertionError, match="outside 1..2"):
        ScriptedContext([5]).roll(1, 2, "d2")


def test_seats_take_the_sides_decided_in_play() -> None:
    state: dict[str, object] = {}
    seats.seat(state, ("first", "second"))
    assert not seats.decided(state)
    with pytest.raises(IllegalOrderError, match="nobody commands german yet"):
        seats.role_of(state, "german")
    seats.assign(state, "second", "german")
    with pytest.raises(IllegalOrderError, match="already commanded"):
        seats.assign(state, "first", "german")
    seats.assign(state, "first", "soviet")
    assert seats.role_of(state, "german") == "second"
    assert seats.side_of(state, "first") == "soviet" and seats.decided(state)
