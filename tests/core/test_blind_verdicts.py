"""A double-blind game's verdict never says more than was proven (issue 27, items 2-5;
pbem.core.blind, pbem.verdicts, protocol section 8).

* A void on the referee's word reads as what it is: NOT CHECKED, not rated in the
  standings, no evidence; the escrow's author answers it with its own message key (`unseal`),
  and the log then proves the referee's void false.
* A game over whose referee has not disclosed the values it holds is NOT CHECKED: the
  sealed values are listed, the standings leave it out, and evidence says why.
* A sealed message whose ephemeral key no recipient can open (all zeros, small order) is
  refused in an escrow and in a deal.
* The referee may void a false escrow of the last moves after the game is over.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem import evidence, verdicts
from pbem.core.blind import DEAL, FALSE_ESCROW, FALSE_VOID, UNSEAL, VOID
from pbem.core.canonical import JSON
from pbem.core.log import MOVE
from pbem.core.referee import REFEREE
from pbem.crypto.escrow import EscrowError, check_ephemeral, seal
from pbem.errors import PbemError
from pbem.standings import result_of
from pbem.transport.savefile import move_file
from pbem.verify import verify_text
from tests.core.test_double_blind import (
    _committing_entry,
    _escrowed_move,
    _key_of,
    _table,
    _to_commit,
)
from tests.support.players import Table, assert_refused

# The u coordinates of Curve25519's points of small order, as X25519 reads a public key
# (RFC 7748; libsodium's blocklist): every shared secret with them is zero.
SMALL_ORDER = [
    0,
    1,
    325606250916557431795983626356110631294008115727848805560023387167927233504,
    39382357235489614581723060781553021112529911719440698176882885853963445705823,
    2**255 - 19 - 1,
    2**255 - 19,
    2**255 - 19 + 1,
]


def _verdict(table: Table) -> Any:
    return verify_text(move_file(table.game.entries))


def _voided_on_word(rng_seed: int = 7) -> tuple[Table, int, str]:
    """A game whose referee voided a true escrow, saying its key does not open it."""
    table = _table()
    _escrowed_move(table, random.Random(rng_seed))
    seq, author = table.game.head.seq, table.game.head.by
    table.apply(table.make(REFEREE, VOID, {"escrow_of": seq, "key": "22" * 32}))
    return table, seq, author


def test_a_void_on_the_referees_word_is_not_checked_nor_rated_nor_evidence() -> None:
    table, seq, author = _voided_on_word()
    ended = table.game.outcome()
    assert ended is not None and ended.level == VOID and ended.winner not in (None, author)
    report = _verdict(table)
    assert report.verdict == "not-checked" and not report.ok and report.cheat is None
    assert report.tail().startswith("NOT CHECKED: the result rests on the referee's word")
    assert "which nothing in the log proves" in report.tail()
    assert f"pbem unseal GAME {seq}" in report.tail()  # who can answer, and how
    assert "ended by agreement" not in report.text() and "OK: every check" not in report.text()
    result, why = result_of("void.pbem", report)
    assert result is None and "not rated" in why and "referee's word" in why
    with pytest.raises(evidence.NotProven, match="referee's word"):
        evidence.find(table.game.entries)


def test_the_author_answers_a_void_with_its_own_key_and_the_referees_lie_is_proven() -> None:
    """Item 4: the wronged player publishes its escrow's message key (its own side of the
    exchange); the key opens the escrow, it is true, so the referee's void was false."""
    table, seq, author = _voided_on_word()
    void_seq = table.game.head.seq
    key = table.sender_key(seq)
    assert key == _key_of(table, seq)  # (the referee's side of the exchange gives the same key)
    other = next(side for side in table.game.sides if side != author)
    assert_refused(table.game, table.make(other, UNSEAL, {"escrow_of": seq, "key": key}), author)
    wrong = table.make(author, UNSEAL, {"escrow_of": seq, "key": "33" * 32})
    assert_refused(table.game, wrong, "does not open")
    assert_refused(table.game, table.make(author, UNSEAL, {"escrow_of": seq}), "exactly")
    table.apply(table.make(author, UNSEAL, {"escrow_of": seq, "key": key}))
    ended = table.game.outcome()
    assert ended is not None and ended.level == FALSE_VOID and ended.winner is None
    assert table.game.blind_end is not None and table.game.blind_end.culprit == REFEREE
    report = _verdict(table)
    assert report.verdict == "proven" and report.cheat == "false-claim"
    assert report.bad is not None and (report.bad.seq, report.bad.by) == (void_seq, REFEREE)
    assert report.tail().startswith(f"PROVEN: false void by the referee in entry {void_seq}")
    result, why = result_of("void.pbem", report)
    assert result is None and "referee is proven to have lied" in why
    proof = evidence.find(table.game.entries)
    assert (proof.role, proof.claim) == (REFEREE, "false-claim")
    assert [e.seq for e in proof.accused] == [void_seq]
    assert evidence.check(evidence.render(proof)).role == REFEREE  # the bundle proves itself
    # Nothing follows: the game is over, and its end is proven.
    assert_refused(table.game, table.make(author, UNSEAL, {"escrow_of": seq, "key": key}), "")


def test_a_false_escrow_is_proven_evidence_against_its_author() -> None:
    table = _table()

    def wrong_salt(who: str, seq: int, openings: list[JSON], real: Any) -> str:
        bad = [dict(o, salt="11" * 32) for o in openings]  # type: ignore[arg-type]
        return str(real(who, seq, bad))

    entry = _committing_entry(table, random.Random(6), wrong_salt)
    table.apply(
        table.make(REFEREE, VOID, {"escrow_of": entry.seq, "key": _key_of(table, entry.seq)})
    )
    report = _verdict(table)
    assert report.verdict == "proven" and report.bad is not None
    assert (report.bad.seq, report.bad.by) == (entry.seq, entry.by)
    result, _why = result_of("cheat.pbem", report)
    ended = table.game.outcome()
    assert result is not None and ended is not None and result.winner == ended.winner
    assert result.proven == entry.by
    proof = evidence.find(table.game.entries)
    assert (proof.role, [e.seq for e in proof.accused]) == (entry.by, [entry.seq])


def _over_with_sealed_claims(seed: int = 10) -> Table:
    """Race to Berlin, double-blind: a side resigns with blocks still sealed and claims
    made on them (rulebook 4.1-4.3)."""
    table = _table()
    rng = random.Random(seed)
    for _ in range(300):
        state = table.game.state
        if table.game.engine.unchecked_claims(state) and not table.game.waiting_for_entropy:
            break
        table.step(rng)
    signer = table.game.next_signer()
    assert signer in table.game.sides
    table.apply(table.make(signer, MOVE, {"resign": True}))
    return table


def test_an_undisclosed_game_is_not_checked_until_the_referee_discloses() -> None:
    """Items 2 and 5: a finished double-blind game whose referee has not disclosed is
    said to be so by verify (its sealed values listed, never a plain OK), standings (not
    rated) and evidence; after the disclose everything is checked."""
    table = _over_with_sealed_claims()
    report = _verdict(table)
    assert report.verdict == "not-checked" and not report.ok
    assert "referee has not disclosed" in report.tail()
    assert "OK: every check holds" not in report.text()
    assert "which has not disclosed them yet" in report.text()
    assert any("is not opened" in line for line in report.lines)  # each sealed value, listed
    result, why = result_of("undisclosed.pbem", report)
    assert result is None and "not rated" in why and "not disclosed" in why
    with pytest.raises(evidence.NotProven, match="has not disclosed"):
        evidence.find(table.game.entries)
    table.apply(table.disclose_entry())
    report = _verdict(table)
    assert report.ok and report.verdict == "ok", report.text()
    assert f"which disclosed them in entry {table.game.head.seq}" in report.text()
    assert result_of("disclosed.pbem", report)[0] is not None


def test_a_false_escrow_of_the_last_moves_is_voided_after_the_game_is_over() -> None:
    """The game ends (a resignation) before the referee could attest a false escrow: its
    void still comes, and it replaces the result, since the disclose could not open it."""
    for seed in range(6, 30):
        table = _table()

        def wrong_salt(who: str, seq: int, openings: list[JSON], real: Any) -> str:
            bad = [dict(o, salt="55" * 32) for o in openings]  # type: ignore[arg-type]
            return str(real(who, seq, bad))

        entry = _committing_entry(table, random.Random(seed), wrong_salt)
        signer = table.game.next_signer()
        if signer in table.game.sides:
            break
    else:
        raise AssertionError("no seed leaves a player to sign after the false escrow")
    table.apply(table.make(signer, MOVE, {"resign": True}))
    assert table.game.outcome() is not None
    # (the referee cannot disclose what the escrow does not open: it voids it instead)
    table.apply(
        table.make(REFEREE, VOID, {"escrow_of": entry.seq, "key": _key_of(table, entry.seq)})
    )
    ended = table.game.outcome()
    assert ended is not None and ended.level == FALSE_ESCROW and ended.winner != entry.by
    assert_refused(table.game, table.disclose_entry(), "nothing to disclose")


@pytest.mark.parametrize("u", SMALL_ORDER)
def test_check_ephemeral_refuses_every_small_order_key(u: int) -> None:
    sealed = (u % 2**256).to_bytes(32, "little") + bytes(16)
    with pytest.raises(EscrowError, match="small order"):
        check_ephemeral(sealed)


def test_an_escrow_or_a_deal_no_key_can_open_is_refused() -> None:
    """Item 3: an all-zero (or other small-order) ephemeral key is refused where the entry
    is read, in a player's escrow and in a referee's deal, so no owner is left unable to
    move; an honest seal passes."""
    table = _table()
    check_ephemeral(seal(table.keys[REFEREE].public.raw, b"text", b"context"))
    role, decision, private = _to_commit(table, random.Random(4))
    real = table.escrow

    def zero_key(who: str, seq: int, openings: list[JSON]) -> str:
        return (bytes(32) + bytes.fromhex(str(real(who, seq, openings)))[32:]).hex()

    table.escrow = zero_key  # type: ignore[method-assign]
    with pytest.raises(PbemError, match="no key can ever open it"):
        table.decide(role, decision, private)
    table.escrow = real  # type: ignore[method-assign]
    assert not table.game.waiting_for_entropy
    # A deal: the referee's commitment for a side, sealed to it with a zero ephemeral key.
    body: dict[str, JSON] = {
        "decision": "pass",
        "commit": {"for/west/x": "00" * 32},
        DEAL: {"west": bytes(72).hex()},
    }
    assert_refused(table.game, table.make(REFEREE, MOVE, body), "no key can ever open it")


def test_verdicts_basis_names_each_end() -> None:
    table, _seq, _author = _voided_on_word()
    assert verdicts.basis(table.game) == "blind"
    resigned = _over_with_sealed_claims()
    assert verdicts.basis(resigned.game) == "agreement" and verdicts.undisclosed(resigned.game)
