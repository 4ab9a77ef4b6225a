"""Notes, resignations and draws by agreement (issue 14; docs/protocol-notes.md, "Notes,
resignations and draws"): body fields the adjudicator handles for every game, before and
after the engine, under protocol section 8 (one signer at a time, text from the log
untrusted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.meta import NONE, NOTE_MAX
from pbem.errors import PbemError
from pbem.transport.savefile import move_file
from pbem.verify import verify_text
from tests.support.bid import Bid
from tests.support.players import Table, assert_refused

SAVES = Path(__file__).resolve().parents[2] / "saves"


@pytest.fixture
def table() -> Table:
    t = Table("toy-dice", ("a", "b"))
    t.join_all()
    return t


def _said(table: Table) -> list[tuple[int, str, str]]:
    return [(a.seq, a.by, a.text) for a in table.game.actions if a.text.split()[0] != "joined"]


# --- notes -----------------------------------------------------------------------------------


def test_a_note_rides_on_a_move_and_is_shown_as_said_by_its_role(table: Table) -> None:
    left = table.game.state["left"]
    entry = table.apply(table.make("a", "move", {"decision": "roll", "note": "good luck"}))
    assert (entry.seq, "a", "says: good luck") in _said(table)
    table.move("b", "roll")  # rolls a's dice: the note changed nothing else
    assert table.game.state["left"] == left - 1
    assert verify_text(move_file(table.game.entries)).ok


def test_a_note_is_capped_and_must_say_something(table: Table) -> None:
    longest = "x" * NOTE_MAX
    assert_refused(
        table.game,
        table.make("a", "move", {"decision": "roll", "note": longest + "y"}),
        f"a note is at most {NOTE_MAX} characters, this one has {NOTE_MAX + 1}",
    )
    assert_refused(table.game, table.make("a", "move", {"decision": "roll", "note": " "}), "empty")
    assert_refused(table.game, table.make("a", "move", {"decision": "roll", "note": 7}), "text")
    table.apply(table.make("a", "move", {"decision": "roll", "note": longest}))  # 500: fine


def test_a_note_with_a_control_character_is_never_signed(table: Table) -> None:
    """Protocol 8 (text from the log is untrusted): Entry.build refuses it, so no client
    signs it (the hardening tests show `verify` refusing a hand-made one)."""
    with pytest.raises(PbemError, match="body/note holds the control character U[+]001B"):
        table.make("a", "move", {"decision": "roll", "note": "hi \x1b[2J"})


def test_a_note_alone_is_no_entry(table: Table) -> None:
    assert_refused(table.game, table.make("a", "move", {"note": "hello"}), "needs a decision")


def test_an_ack_may_carry_a_note(table: Table) -> None:
    table.move("a", "roll")
    entry = table.apply(table.make("b", "ack", {"note": "rolling"}))
    assert (entry.seq, "b", "says: rolling") in _said(table)
    table.move("b", "roll")
    assert_refused(table.game, table.make("a", "ack", {"resign": True}), "a move of its own")


# --- resignation -----------------------------------------------------------------------------


def test_only_the_next_signer_resigns(table: Table) -> None:
    """One signer at a time (protocol 8): a resignation is an entry like any other."""
    assert_refused(table.game, table.make("b", "move", {"resign": True}), "out of turn")
    table.apply(table.make("a", "move", {"resign": True, "note": "well played"}))
    outcome = table.game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.level, outcome.text) == (
        "b",
        "resignation",
        "a resigned: b wins",
    )
    assert outcome.score == {"a": 0, "b": 1}
    assert table.game.next_signer() is None and table.game.prompts() == []
    assert table.game.ended_by_agreement
    assert_refused(table.game, table.move_entry("b", "roll"), "the game is over")
    report = verify_text(move_file(table.game.entries))
    assert report.ok and "result: a resigned: b wins" in report.lines


def test_a_resignation_rolls_the_dice_waiting_for_its_signer(table: Table) -> None:
    table.move("a", "roll")  # a's dice wait for b's next entry
    assert_refused(table.game, table.make("a", "move", {"resign": True}), "waiting for entropy")
    before = len(table.game.rng_log)
    table.apply(table.make("b", "move", {"resign": True}))
    assert len(table.game.rng_log) == before + 1  # b's reveal rolled a's die, as an ack would
    assert not table.game.waiting_for_entropy
    outcome = table.game.outcome()
    assert outcome is not None and outcome.winner == "a"
    assert verify_text(move_file(table.game.entries)).ok


def test_a_resignation_is_exactly_resign_true_with_no_decision(table: Table) -> None:
    for body, fragment in [
        ({"resign": 1}, "resign must be true"),
        ({"resign": "yes"}, "resign must be true"),
        ({"resign": True, "decision": "roll"}, "carries only a note"),
        ({"resign": True, "draw": "offer"}, "carries only a note"),
    ]:
        assert_refused(table.game, table.make("a", "move", body), fragment)


def test_a_role_that_is_no_side_cannot_resign() -> None:
    """The sides are the engine's required roles: a one-role game resigns to nobody."""
    solo = Table("toy-solo", ("solo",))
    solo.join_all()
    assert_refused(solo.game, solo.make("solo", "move", {"draw": "offer"}), "two sides")
    solo.apply(solo.make("solo", "move", {"resign": True}))
    outcome = solo.game.outcome()
    assert outcome is not None and (outcome.winner, outcome.text) == (None, "solo resigned")


# --- draws -----------------------------------------------------------------------------------


def test_an_offer_on_a_move_accepted_by_the_other_side_ends_the_game_drawn(table: Table) -> None:
    offer = table.apply(table.make("a", "move", {"decision": "roll", "draw": "offer"}))
    assert table.game.meta.offer_by == "a" and table.game.meta.offer_seq == offer.seq
    accept = table.apply(table.make("b", "move", {"draw": "accept"}))  # rolls a's die too
    outcome = table.game.outcome()
    assert outcome is not None and (outcome.winner, outcome.level) == (None, "draw")
    assert f"offered a draw in entry {offer.seq}" in outcome.text
    assert f"b accepted in entry {accept.seq}" in outcome.text
    assert (accept.seq, "b", f"accepts the draw a offered in entry {offer.seq}") in _said(table)
    assert table.game.next_signer() is None
    assert verify_text(move_file(table.game.entries)).ok


def test_any_other_entry_of_the_other_side_declines(table: Table) -> None:
    offer = table.apply(table.make("a", "move", {"decision": "roll", "draw": "offer"}))
    reply = table.move("b", "roll")
    assert (reply.seq, "b", f"declines the draw a offered in entry {offer.seq}") in _said(table)
    assert table.game.meta == NONE
    assert_refused(table.game, table.make("a", "move", {"draw": "accept"}), "no draw offer")


def test_an_offer_stays_open_over_the_offering_sides_own_entries(table: Table) -> None:
    """A standalone offer leaves the turn where it was: a still moves, then b answers."""
    offer = table.apply(table.make("a", "move", {"draw": "offer"}))
    assert table.game.next_signer() == "a"
    assert_refused(table.game, table.make("a", "move", {"draw": "offer"}), "already offered")
    table.move("a", "roll")
    assert table.game.meta.offer_seq == offer.seq
    table.apply(table.make("b", "move", {"draw": "accept"}))
    assert table.game.outcome() is not None


def test_a_forged_accept_without_an_offer_is_refused(table: Table) -> None:
    assert_refused(table.game, table.make("a", "move", {"draw": "accept"}), "no draw offer")


def test_the_offering_side_cannot_accept_its_own_offer(table: Table) -> None:
    table.apply(table.make("a", "move", {"draw": "offer"}))
    assert_refused(
        table.game,
        table.make("a", "move", {"draw": "accept"}),
        "a offered this draw",
        "only the other side accepts it",
    )


def test_an_accept_is_a_move_of_its_own_and_a_draw_field_is_offer_or_accept(table: Table) -> None:
    table.move("a", "roll")
    table.apply(table.make("b", "ack", {"draw": "offer"}))  # an offer may ride on an ack
    assert table.game.meta.offer_by == "b"
    for body, fragment in [
        ({"draw": "accept", "decision": "roll"}, "carries only a note"),
        ({"draw": "maybe"}, "draw must be 'offer' or 'accept'"),
    ]:
        assert_refused(table.game, table.make("a", "move", body), fragment)
    assert_refused(table.game, table.make("a", "ack", {"draw": "accept"}), "carries only a note")


def test_an_agreed_end_may_leave_values_sealed_and_verify_says_so() -> None:
    """A finished game with an unopened commitment fails verify (protocol notes), unless
    it ended by agreement: then nothing depends on the value, and it is listed as not
    checked."""
    table = Table("toy-bid", ("a", "b"))
    table.join_all()
    table.decide("a", Bid(3))  # sealed
    table.apply(table.make("b", "move", {"resign": True}))
    report = verify_text(move_file(table.game.entries))
    assert report.ok, report.failure
    assert any("ended by agreement" in line for line in report.lines)
    assert any("commitment bid/a/1 is not opened" in line for line in report.lines)


# --- old saves -------------------------------------------------------------------------------


@pytest.mark.parametrize("save", sorted(SAVES.glob("*.pbem")), ids=lambda p: p.name)
def test_old_saves_verify_unchanged_with_no_meta(save: Path) -> None:
    report = verify_text(save.read_bytes())
    assert report.ok, report.failure
    assert report.game is not None
    meta = report.game.meta
    assert (meta.offer_by, meta.ended, meta.takeback) == (NONE.offer_by, None, None)
    assert not report.game.ended_by_agreement
