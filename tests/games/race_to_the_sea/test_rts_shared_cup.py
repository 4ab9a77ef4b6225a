"""Race to the Sea's one shared casualty cup (rulebook 4.2) in a double-blind game (issue
17; option `shared_cup`, docs/race-to-the-sea.md "The shared cup with a referee").

Without a referee each side draws from its own copy of the mix; with a referee who holds
every sealed stack, the referee draws each hit unit's markers from the one cup, commits
them for the owner and seals them to it (`deal`), and its disclose at the end lets anyone
recompute every draw from the cup of its time."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pbem.core.blind import DEAL, deal_context
from pbem.core.log import MOVE
from pbem.core.referee import DOUBLE_BLIND, REFEREE
from pbem.crypto.escrow import EscrowError, open_sealed
from pbem.errors import PbemError
from pbem.games.race_to_the_sea import casualties, hits
from pbem.testing import leaks, other_secrets
from pbem.transport.savefile import move_file
from pbem.verify import verify_text
from tests.support.drawn_once import page_leaks
from tests.support.players import Table, assert_refused

ROLES = ("allies", "germans", REFEREE)
SHARED = {DOUBLE_BLIND: True, "shared_cup": True}


def _table(nonce: str = "cup") -> Table:
    table = Table("race-to-the-sea", ROLES, options=SHARED, nonce=nonce)
    table.join_all()
    return table


def _every_stack(table: Table) -> list[list[list[str]]]:
    """Every unit's markers, as the referee knows them (it holds every escrow)."""
    state = table.engine.with_secrets(table.game.state, REFEREE, table.known(REFEREE))
    stacks = [hits.stack_of(state, counter) for counter in state["counters"]]
    assert all(stack is not None for stack in stacks)
    return [stack for stack in stacks if stack]


def test_the_shared_cup_needs_a_double_blind_game() -> None:
    with pytest.raises(PbemError, match="shared_cup needs a referee who holds every secret"):
        Table("race-to-the-sea", ROLES, options={"shared_cup": True})
    # (the engine reads its options when play starts, at the last join)
    for options, why in (({"shared_cup": False}, "true or absent"), ({"cup": True}, "no option")):
        table = Table("race-to-the-sea", ROLES, options={DOUBLE_BLIND: True, **options})
        with pytest.raises(PbemError, match=why):
            table.join_all()


def test_a_whole_game_draws_every_marker_from_the_one_cup_and_verifies() -> None:
    """4.2: one cup for both sides. At every deal no marker is under two units of either
    side (with a copy per side, one id can be under an Allied and a German unit), the deal
    opens for its owner only, and after the referee's disclose every draw is recomputed."""
    table = _table()
    rng = random.Random(1)
    deals = 0
    while table.game.outcome() is None:
        entry = table.step(rng)
        if DEAL not in entry.body:
            continue
        deals += 1
        casualties.shared_cup(table.game.state["markers"], _every_stack(table))  # no twice
        (side,) = entry.body[DEAL]  # type: ignore[union-attr]
        other = next(role for role in ("allies", "germans") if role != side)
        sealed = bytes.fromhex(str(entry.body[DEAL][side]))  # type: ignore[index]
        where = deal_context(table.game.id, entry.seq, side)
        with pytest.raises(EscrowError):
            open_sealed(table.keys[other], sealed, where)
        dealt = json.loads(open_sealed(table.keys[side], sealed, where))["open"]
        # The owner's own state knows its deal; what the other side, the referee's page and
        # the public see is byte-identical whatever the owner's secrets, its deal included.
        known = table.known(side)
        mine = table.engine.with_secrets(table.game.state, side, known)
        assert all(mine["restack"]["deals"].values())
        changed = table.engine.with_secrets(table.game.state, side, other_secrets(known))
        assert changed["restack"]["deals"] != mine["restack"]["deals"]  # (the test tests)
        viewers = [other, REFEREE, None]
        assert leaks(table.engine, table.game.state, side, known, viewers) == []
        if deals == 1:  # (the pages too, once: a page costs a tenth of a second)
            assert page_leaks(table.game, side, known, viewers) == []
        assert [o["label"] for o in dealt] == sorted(entry.body["commit"])  # type: ignore[arg-type]
        # The next entry is the owner's restack of exactly what it was dealt.
        restack = table.step(rng)
        assert (restack.by, restack.body["decision"]) == (side, "restack")
        assert table.game.state["pieces"]  # (the stacks are the owner's pieces)
        for opening in dealt:
            label = str(opening["label"]).split("/", 2)[2]
            assert table.secrets[label][1] == opening["value"]
    assert deals >= 3
    unopened = table.game.unopened()
    assert unopened and {s.role for s in unopened} == {REFEREE}  # the deals wait for it
    table.apply(table.disclose_entry())
    assert table.game.unchecked() == []
    report = verify_text(move_file(table.game.entries))
    assert report.ok, report.failure


def _until_deal(table: Table, rng: random.Random) -> None:
    while True:
        state = table.game.state
        if table.game.next_signer() == REFEREE and state["step"] == "deal":
            return
        table.step(rng)


def _resign_and_disclose(table: Table, rng: random.Random) -> Any:
    table.step(rng)  # the owner's restack
    signer = table.game.next_signer()
    assert signer in ("allies", "germans")
    table.apply(table.make(signer, MOVE, {"resign": True}))
    return table.disclose_entry()


def _proven(table: Table, disclose: Any) -> Any:
    """Apply the referee's disclose (accepted whatever it shows) and verify the whole log:
    the report, PROVEN."""
    table.apply(disclose)
    assert table.game.unopened() == []
    report = verify_text(move_file(table.game.entries))
    assert report.verdict == "proven" and not report.ok, report.text()
    return report


def test_a_deal_that_is_not_the_draw_is_the_referees_false_claim(monkeypatch: Any) -> None:
    """4.2: the referee's disclose shows its own deal was not the draw from the cup. The
    disclose is accepted: the log now proves the referee lied, blames its deal entry, and
    no side wins."""
    table = _table("false-deal")
    rng = random.Random(2)
    _until_deal(table, rng)
    honest = hits.deal_values

    def false_deal(state: Any) -> Any:
        values = honest(state)
        label = sorted(values)[0]
        stack = [list(m) for m in values[label]]
        if stack:
            stack[-1][0] = next(m for m in state["markers"] if m != stack[-1][0])
        else:
            stack = [[sorted(state["markers"])[0], "light"]]
        return {**values, label: stack}

    monkeypatch.setattr(hits, "deal_values", false_deal)
    deal = table.step(rng)  # the referee's deal
    monkeypatch.setattr(hits, "deal_values", honest)
    report = _proven(table, _resign_and_disclose(table, rng))
    ended = table.game.outcome()
    assert ended is not None and ended.level == "false-deal" and ended.winner is None
    assert "the referee dealt" in ended.text and "(rulebook 4.2)" in ended.text
    assert report.bad is not None and (report.bad.seq, report.bad.by) == (deal.seq, REFEREE)
    assert table.game.blind_end is not None and table.game.blind_end.culprit == REFEREE
    # Evidence against the referee (issue 27, item 2): its own deal, shown false.
    from pbem import evidence

    proof = evidence.check(evidence.render(evidence.find(table.game.entries)))
    disclosed = table.game.head.seq  # (the referee's own disclose shows it: accused too)
    assert proof.role == REFEREE and [e.seq for e in proof.accused] == [deal.seq, disclosed]


def test_a_stack_that_is_not_the_deal_is_its_owners_false_claim(monkeypatch: Any) -> None:
    """The owner restacks one marker more than it was dealt (4.2, 5.2): the referee's
    disclose shows it, the owner loses, and its restack is the entry blamed."""
    table = _table("false-restack")
    rng = random.Random(2)
    _until_deal(table, rng)
    table.step(rng)  # the referee's honest deal
    owner = str(table.game.next_signer())
    honest = hits.restack_values

    def false_restack(state: Any, role: str, known: Any) -> Any:
        values = honest(state, role, known)
        label = sorted(values)[0]
        return {**values, label: [*values[label], [sorted(state["markers"])[-1], "light"]]}

    monkeypatch.setattr(hits, "restack_values", false_restack)
    restack_seq = table.game.head.seq + 1
    disclose = _resign_and_disclose(table, rng)
    monkeypatch.setattr(hits, "restack_values", honest)
    report = _proven(table, disclose)
    ended = table.game.outcome()
    assert ended is not None and ended.level == "false-claim"
    assert ended.winner not in (None, owner) and "but the referee dealt" in ended.text
    assert report.bad is not None and (report.bad.seq, report.bad.by) == (restack_seq, owner)


# --- a deal its owner cannot act on (issue 27, item 3: pbem.core.blind.check_unseal) ----------


def _dealt_by(table: Table, rng: random.Random, sealing: Any = None) -> tuple[int, str]:
    """The referee's deal (sealed by `sealing(table, seq, openings)` instead of honestly,
    when given); returns its seq and the side it was dealt to (asked next, to restack)."""
    _until_deal(table, rng)
    real = table.deal
    if sealing is not None:
        table.deal = lambda seq, openings: sealing(table, real, seq, openings)  # type: ignore[method-assign]
    try:
        entry = table.step(rng)
    finally:
        table.deal = real  # type: ignore[method-assign]
    (side,) = entry.body[DEAL]  # type: ignore[union-attr]
    assert table.game.next_signer() == side
    return entry.seq, side


def _owners_key(table: Table, seq: int, side: str) -> str:
    from pbem.crypto.escrow import message_key

    sealed = bytes.fromhex(str(table.game.entries[seq].body[DEAL][side]))  # type: ignore[index]
    return message_key(table.keys[side], sealed, deal_context(table.game.id, seq, side)).hex()


def _garbage(table: Table, real: Any, seq: int, openings: list[Any]) -> Any:
    from pbem.crypto.escrow import seal

    sides = real(seq, openings)
    return {s: seal(table.keys[s].public.raw, b"garbage", b"elsewhere").hex() for s in sides}


def _wrong_salts(table: Table, real: Any, seq: int, openings: list[Any]) -> Any:
    return real(seq, [dict(o, salt="66" * 32) for o in openings])


def test_a_deal_that_does_not_open_stops_the_game_on_the_owners_word() -> None:
    """The referee deals bytes its owner cannot open: the owner publishes the key it
    derives; it does not open the deal, so the game stops on the owner's word (NOT
    CHECKED, not rated), and the referee, holding no key that opens it, cannot answer."""
    from pbem import evidence
    from pbem.core.blind import DISPUTED, UNSEAL
    from pbem.standings import result_of

    table = _table("garbage-deal")
    seq, side = _dealt_by(table, random.Random(2), _garbage)
    other = next(role for role in ("allies", "germans") if role != side)
    body = {"deal_of": seq, "to": side, "key": _owners_key(table, seq, side)}
    assert_refused(table.game, table.make(other, UNSEAL, dict(body, to=other)), "out of turn")
    table.apply(table.make(side, UNSEAL, body))
    ended = table.game.outcome()
    assert ended is not None and ended.level == DISPUTED and ended.winner is None
    report = verify_text(move_file(table.game.entries))
    assert report.verdict == "not-checked" and f"on {side}'s word" in report.tail()
    assert "pbem referee disclose" in report.tail()
    result, why = result_of("stalled.pbem", report)
    assert result is None and "not rated" in why
    with pytest.raises(evidence.NotProven, match="word"):
        evidence.find(table.game.entries)
    answer = {"deal_of": seq, "to": side, "key": "44" * 32}
    assert_refused(table.game, table.make(REFEREE, UNSEAL, answer), "does not open")


def test_a_false_dispute_of_a_true_deal_is_answered_by_the_referees_key() -> None:
    """An owner who says an honest deal does not open (a key that opens nothing) is
    answered by the referee's own key for the deal, which opens it true: the owner's
    dispute is proven false and it loses; its true key alone is refused."""
    from pbem import evidence
    from pbem.core.blind import FALSE_DISPUTE, UNSEAL

    table = _table("false-dispute")
    seq, side = _dealt_by(table, random.Random(2))
    true = {"deal_of": seq, "to": side, "key": _owners_key(table, seq, side)}
    assert_refused(table.game, table.make(side, UNSEAL, true), "matches the referee's commit")
    dispute = table.apply(table.make(side, UNSEAL, dict(true, key="22" * 32)))
    table.apply(table.make(REFEREE, UNSEAL, dict(true, key=table.sender_key(seq, side))))
    ended = table.game.outcome()
    assert ended is not None and ended.level == FALSE_DISPUTE and ended.winner not in (None, side)
    report = verify_text(move_file(table.game.entries))
    assert report.verdict == "proven" and report.bad is not None
    assert (report.bad.seq, report.bad.by) == (dispute.seq, side)
    proof = evidence.find(table.game.entries)
    assert proof.role == side and [e.seq for e in proof.accused] == [dispute.seq]


def test_a_deal_that_opens_false_is_the_referees_proven_lie() -> None:
    from pbem.core.blind import FALSE_DEAL, UNSEAL

    table = _table("lying-deal")
    seq, side = _dealt_by(table, random.Random(2), _wrong_salts)
    body = {"deal_of": seq, "to": side, "key": _owners_key(table, seq, side)}
    table.apply(table.make(side, UNSEAL, body))
    ended = table.game.outcome()
    assert ended is not None and ended.level == FALSE_DEAL and ended.winner is None
    report = verify_text(move_file(table.game.entries))
    assert report.verdict == "proven" and report.bad is not None
    assert (report.bad.seq, report.bad.by) == (seq, REFEREE)
