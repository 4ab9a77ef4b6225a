"""Take-back by agreement (pbem.core.meta, issue 14): a signed pair of entries. The side
that signs next proposes taking back the other side's latest entries; that side's next
entry accepts (the game returns to the state before them) or declines. Only entries that
rolled no dice and sealed, opened or drew nothing can go: undoing them changes nothing
but the board. Every entry stays in the log, and a replay reaches the same state."""

from __future__ import annotations

import random

import pytest

from pbem.core.adjudicator import Adjudicator
from pbem.core.log import MOVE
from pbem.errors import PbemError
from pbem.testing import SignedTable
from pbem.transport.savefile import move_file
from pbem.verify import verify_text


def at_a_reversible_entry(seed: int = 3) -> SignedTable:
    """Race to Berlin between bots until the other side's latest entry may be taken back."""
    table = SignedTable("race-to-berlin", ("west", "soviet"), signed=True, nonce=f"tb{seed}")
    table.join_all()
    rng, game = random.Random(seed), table.game
    for _ in range(2000):
        table.step(rng)
        undo = game.meta.undo
        if undo and game.next_signer() != undo[-1][1] and not game.waiting_for_entropy:
            return table  # (the latest entry is the other side's)
    raise AssertionError("no reversible entry in 2000 entries")


def refused(table: SignedTable, role: str, body: dict, *fragments: str) -> None:  # type: ignore[type-arg]
    count = len(table.game.entries)
    with pytest.raises(PbemError) as caught:
        table.apply(table.make(role, MOVE, body))
    for fragment in fragments:
        assert fragment in str(caught.value)
    assert len(table.game.entries) == count


def test_an_accepted_take_back_returns_to_the_state_before_the_entry() -> None:
    table = at_a_reversible_entry()
    game = table.game
    seq, whose, before = game.meta.undo[-1]
    proposer = game.next_signer()
    assert proposer is not None and proposer != whose
    table.apply(table.make(proposer, MOVE, {"takeback": seq, "note": "misclick?"}))
    assert game.next_signer() == whose  # the proposal asks the side whose entries go
    assert "taking back your entries from" in game.prompts()[0].text
    refused(table, proposer, {"decision": "no support"}, "accepts or declines it first")
    refused(table, proposer, {"takeback": "accept"}, f"only {whose} answers")
    table.apply(table.make(whose, MOVE, {"takeback": "accept"}))
    assert game.state == before
    assert game.next_signer() == whose  # it is its turn again, as before the entry
    assert "accepts the take-back" in game.actions[-1].text
    # the whole log verifies, and a replay reaches the same state
    report = verify_text(move_file(game.entries))
    assert report.ok, report.failure
    assert report.game is not None and report.game.state == game.state


def test_a_declined_take_back_keeps_the_board() -> None:
    table = at_a_reversible_entry(5)
    game = table.game
    seq, whose, _before = game.meta.undo[-1]
    proposer = game.next_signer()
    assert proposer is not None
    after = game.state
    table.apply(table.make(proposer, MOVE, {"takeback": seq}))
    table.apply(table.make(whose, MOVE, {"takeback": "decline"}))
    assert game.state == after and game.next_signer() == proposer
    refused(table, proposer, {"takeback": seq}, "nothing to take back")  # undo is spent


def test_only_the_other_sides_latest_reversible_entries_can_go() -> None:
    table = at_a_reversible_entry(7)
    game = table.game
    seq, whose, _before = game.meta.undo[-1]
    proposer = game.next_signer()
    assert proposer is not None
    earlier = min(s for s, _by, _state in game.meta.undo) - 1  # sealed, rolled or drew
    refused(table, proposer, {"takeback": earlier}, f"entry {earlier} cannot be taken back")
    refused(table, proposer, {"takeback": "accept"}, "no take-back proposal to answer")
    refused(table, proposer, {"takeback": seq, "decision": "x"}, "a move of its own")
    refused(table, proposer, {"takeback": 0}, "takeback must be")
    refused(table, whose, {"takeback": seq}, "out of turn")  # not its turn to sign


def test_placements_seal_a_value_and_cannot_be_taken_back() -> None:
    """Race to Berlin 4.1.1: a placement commits the block's value; undoing it would leave
    a commitment with no piece, so it is not reversible."""
    table = SignedTable("race-to-berlin", ("west", "soviet"), signed=False, nonce="tb-place")
    table.join_all()
    rng = random.Random(1)
    table.step(rng)  # the soviet places a block (sealed)
    game = table.game
    assert game.meta.undo == ()
    refused(table, "west", {"takeback": game.head.seq}, "nothing to take back")


def test_a_forged_answer_in_a_save_fails_verification() -> None:
    table = at_a_reversible_entry(11)
    game = table.game
    whose = game.meta.undo[-1][1]
    forged = table.make(whose, MOVE, {"takeback": "accept"})
    text = move_file([*game.entries, forged])
    report = verify_text(text)
    assert not report.ok and "no take-back proposal to answer" in str(report.failure)


def test_a_fork_keeps_its_own_take_back_state() -> None:
    table = at_a_reversible_entry(13)
    game: Adjudicator = table.game
    seq, _whose, _before = game.meta.undo[-1]
    twin = game.fork()
    proposer = game.next_signer()
    assert proposer is not None
    table.apply(table.make(proposer, MOVE, {"takeback": seq}))
    assert twin.meta.takeback is None and game.meta.takeback is not None
