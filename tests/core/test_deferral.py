"""The deferral rule (protocol section 4) through the Adjudicator.

Dice requested while entry E is applied are produced only by the next entry F of
another role, from SHA256("pbem-rng/v1" || game || id(E) || reveal(F)).
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem.core.engine import Prompt
from pbem.core.rng import RngRecord
from pbem.ledger import fingerprint, replay
from pbem.transport.savefile import save_text
from pbem.verify import verify_text
from tests.support.players import Duo, Table, assert_refused, dice, hex_of, snapshot


@pytest.fixture
def table() -> Table:
    t = Table()
    t.join_all()
    return t


def test_a_roll_waits_for_entropy(table: Table) -> None:
    before = copy.deepcopy(table.game.state)
    actions_before = list(table.game.actions)
    e = table.move("a", "roll")
    game = table.game
    assert game.waiting_for_entropy
    assert game.head == e
    assert game.state == before  # nothing happened yet
    assert game.rng_log == []
    assert game.actions == actions_before
    assert game.prompts() == [Prompt("b", "acknowledge entry 3 to roll its dice")]
    assert game.asked("b") and not game.asked("a")


def test_the_result_is_not_computable_from_e_alone(table: Table) -> None:
    table.move("a", "roll")
    game = table.game
    before = snapshot(game)
    results = set()
    for i in range(40):
        state = game.preview("b", hex_of(b"candidate reveal", bytes([i])))
        assert state is not None
        results.add(state["score"]["a"])
    assert len(results) >= 2  # different reveals of F give different dice
    assert results <= {1, 2, 3, 4, 5, 6}
    assert snapshot(game) == before  # previews change nothing
    # E's author cannot roll its own dice: its preview is the unchanged state
    assert game.preview("a", hex_of(b"anything")) == before["state"]


def test_the_value_comes_from_fs_reveal(table: Table) -> None:
    e = table.move("a", "roll")
    f = table.move_entry("b", "roll")
    expected = dice(table.game.id, e.id, str(f.reveal))[0]
    preview = table.game.preview("b", str(f.reveal))
    assert preview is not None and preview["score"]["a"] == expected
    table.apply(f)
    game = table.game
    assert game.rng_log == [RngRecord(3, 4, 1, 6, expected, "a die 1")]
    assert game.rng_log[0].line() == f"rng 3 4 1..6 {expected} a die 1"
    assert game.state is not None and game.state["score"]["a"] == expected
    rolled = [a for a in game.actions if a.seq == 3]
    assert len(rolled) == 1
    assert rolled[0].resolved_at == 4 and rolled[0].rng == (game.rng_log[0],)
    assert rolled[0].text == "roll"
    # F's own roll now waits for a
    assert game.waiting_for_entropy
    assert game.prompts() == [Prompt("a", "acknowledge entry 4 to roll its dice")]


def test_two_dice_come_from_one_stream_in_order(table: Table) -> None:
    e = table.move("a", "roll twice")
    f = table.ack("b")
    expected = dice(table.game.id, e.id, str(f.reveal), 2)
    assert [(r.value, r.purpose) for r in table.game.rng_log] == [
        (expected[0], "a die 1"),
        (expected[1], "a die 2"),
    ]
    assert all((r.requesting_seq, r.producing_seq) == (3, 4) for r in table.game.rng_log)
    assert table.game.state is not None and table.game.state["score"]["a"] == sum(expected)


def test_fs_content_does_not_change_the_dice(table: Table) -> None:
    e = table.move("a", "roll")
    as_move = table.move_entry("b", "roll")
    as_ack = table.ack_entry("b")
    assert as_move.reveal == as_ack.reveal and as_move.id != as_ack.id
    table.apply(as_move)
    other = replay(table.game.entries[:-1])  # the same log up to E
    other.apply(as_ack)
    assert other.rng_log == table.game.rng_log
    assert other.rng_log[0].value == dice(table.game.id, e.id, str(as_ack.reveal))[0]


def test_same_author_while_its_dice_wait_is_refused(table: Table) -> None:
    table.move("a", "roll")
    message = assert_refused(
        table.game, table.move_entry("a", "roll"), "entry 4 by a refused", "waiting for entropy"
    )
    assert "entry 3" in message and "b" in message
    assert_refused(table.game, table.ack_entry("a"), "waiting for entropy")


def test_ack_when_no_dice_wait_is_out_of_turn(table: Table) -> None:
    assert_refused(table.game, table.ack_entry("a"), "out of turn", "no dice waiting")
    assert_refused(table.game, table.ack_entry("b"), "out of turn", "no dice waiting")
    table.move("a", "roll")
    table.ack("b")  # rolls a's die; now b must decide, and no dice wait
    assert not table.game.waiting_for_entropy
    assert_refused(table.game, table.ack_entry("b"), "out of turn")


def test_an_ack_carries_no_body(table: Table) -> None:
    table.move("a", "roll")
    assert_refused(table.game, table.make("b", "ack", {"memo": 1}), "an ack carries no body")


def test_the_ack_rolls_and_then_the_acker_is_asked(table: Table) -> None:
    table.move("a", "roll")
    table.ack("b")
    assert not table.game.waiting_for_entropy
    assert table.game.prompts() == [Prompt("b", "roll")]
    assert len(table.game.rng_log) == 1


def test_a_whole_game_rng_log(table: Table) -> None:
    moves = []
    for _ in range(3):
        moves.append(table.move("a", "roll"))
        moves.append(table.move("b", "roll"))
    last = table.ack("a")
    producers = [*moves[1:], last]
    expected = [
        RngRecord(e.seq, f.seq, 1, 6, dice(table.game.id, e.id, str(f.reveal))[0], purpose)
        for e, f, purpose in zip(moves, producers, ["a die 1", "b die 1"] * 3, strict=True)
    ]
    assert table.game.rng_log == expected
    score = table.game.state
    assert score is not None
    assert score["score"]["a"] == sum(r.value or 0 for r in expected if r.purpose[0] == "a")
    assert table.game.outcome() is not None


def test_client_shows_the_result_before_asking(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    e = duo.a.move(duo.game_id, "roll")
    duo.send([e], duo.b)
    game = duo.b.game(duo.game_id)
    assert game.waiting_for_entropy
    shown = duo.b.state_for(game, "b")
    f = duo.b.move(duo.game_id, "roll")
    assert shown["score"]["a"] == dice(game.id, e.id, str(f.reveal))[0]
    assert duo.b.game(duo.game_id).state == shown  # what b saw is what b played on


# --- one role: self-witnessed dice ---------------------------------------------------------


@pytest.fixture
def solo() -> Table:
    t = Table("toy-solo", ("solo",))
    t.join_all()
    return t


def test_single_role_rolls_with_its_own_next_entry(solo: Table) -> None:
    game = solo.game
    assert game.self_witnessed
    e = solo.move("solo", "roll")
    assert game.waiting_for_entropy
    assert game.prompts() == [Prompt("solo", "acknowledge entry 2 to roll its dice")]
    f = solo.move("solo", "roll")  # rolls E's die, then waits itself
    first = dice(game.id, e.id, str(f.reveal))[0]
    assert game.rng_log == [RngRecord(2, 3, 1, 6, first, "solo die")]
    assert game.waiting_for_entropy
    g = solo.ack("solo")
    second = dice(game.id, f.id, str(g.reveal))[0]
    assert game.rng_log[1] == RngRecord(3, 4, 1, 6, second, "solo die")
    assert game.outcome() is not None and game.state is not None
    assert game.state["score"] == first + second


def test_single_role_report_says_self_witnessed(solo: Table) -> None:
    solo.move("solo", "roll")
    solo.move("solo", "roll")
    solo.ack("solo")
    game = solo.game
    prints = {role: fingerprint(line) for role, line in game.roles.items()}
    save = save_text(game, "solo test", prints)
    assert "dice: self-witnessed" in save
    report = verify_text(save)
    assert report.ok, report.text()
    assert "SELF-WITNESSED" in report.text()


def test_two_role_report_is_not_self_witnessed(table: Table) -> None:
    assert not table.game.self_witnessed
    table.move("a", "roll")
    table.ack("b")
    prints = {role: fingerprint(line) for role, line in table.game.roles.items()}
    report = verify_text(save_text(table.game, "t", prints))
    assert report.ok, report.text()
    assert "SELF-WITNESSED" not in report.text()
    assert "another role" in report.text()


def test_two_roles_with_one_key_are_self_witnessed() -> None:
    table = Table()
    same = Table(keys={"a": table.keys["a"], "b": table.keys["a"]})
    same.join_all()
    same.move("a", "roll")
    same.ack("b")
    assert same.game.self_witnessed
