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
from pbem.testing import leaks, other_secrets, page_leaks
from pbem.transport.savefile import move_file
from pbem.verify import verify_text
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


def test_a_deal_that_is_not_the_draw_is_the_referees_false_claim(monkeypatch: Any) -> None:
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
    table.step(rng)  # the referee's deal
    monkeypatch.setattr(hits, "deal_values", honest)
    disclose = _resign_and_disclose(table, rng)
    message = assert_refused(table.game, disclose, "the referee dealt", "(rulebook 4.2)")
    assert "by referee" in message


def test_a_stack_that_is_not_the_deal_is_its_owners_false_claim(monkeypatch: Any) -> None:
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
    disclose = _resign_and_disclose(table, rng)
    monkeypatch.setattr(hits, "restack_values", honest)
    message = assert_refused(table.game, disclose, "but the referee dealt")
    assert f"by {owner}" in message
