"""Two branches of a log (issue 27, item 6): an equivocation is two entries of one role with
one seq *and one prev*; a role's two entries that answer different earlier entries prove
nothing against it on their own.

The shape of the attack on a restored backup: a signs E at seq 3; b answers F with its
reveal r; both restore their stores; a signs a different E' for seq 3 (the same prev: the
proof); b's restored client, had it not refused, would answer E' with F' carrying r again.
Signed by hand on a Table here; tests/hardening/test_restored_backup.py performs it with
two real stores through the CLI.
"""

from __future__ import annotations

import random

import pytest

from pbem import evidence
from pbem.core.log import Entry
from pbem.ledger import find_equivocation, find_fork
from pbem.transport.savefile import move_file
from pbem.verify import verify_text
from tests.support.players import Table


def branches() -> tuple[Table, list[Entry], dict[str, Entry]]:
    """The log up to the fork, and E, F (on E), E' and F' (on E', with F's reveal)."""
    table = Table()
    table.join_all()
    start = list(table.game.entries)
    e = table.move_entry("a", "roll")
    e2 = table.move_entry("a", "roll twice")
    table.apply(e)
    f = table.move_entry("b", "roll")
    f2 = table.move_entry("b", "roll", prev=e2.id)
    assert (f.seq, f.reveal) == (f2.seq, f2.reveal) and f.prev != f2.prev
    return table, start, {"E": e, "F": f, "E2": e2, "F2": f2}


@pytest.mark.parametrize("seed", range(4))
def test_the_proof_is_where_the_branches_part_whatever_the_order(seed: int) -> None:
    table, start, b = branches()
    later = [b["F"], b["F2"], b["E"], b["E2"]]
    random.Random(seed).shuffle(later)
    proof = find_equivocation(table.genesis, [*start, *later])
    assert proof is not None and proof.role == "a"
    assert {proof.first.id, proof.second.id} == {b["E"].id, b["E2"].id}
    assert find_fork(table.genesis, [*start, *later]) is None  # the proof comes first
    found = evidence.find([*start, *later])
    assert (found.claim, found.role) == ("equivocation", "a")


def test_two_entries_on_different_prevs_are_a_fork_not_a_proof() -> None:
    table, start, b = branches()
    log = [*start, b["E"], b["F"], b["F2"]]  # E' is not in this text
    assert find_equivocation(table.genesis, log) is None
    fork = find_fork(table.genesis, log)
    assert fork is not None and fork.role == "b" and fork.after == ("a", None)
    text = fork.text()
    assert text.startswith(
        f"entries 4 follow different entries 3 ({b['E'].id[:12]} by a, "
        f"{b['E2'].id[:12]} by a role not in this log): b signed"
    )
    assert "proves no cheat by b on its own" in text

    report = verify_text(move_file(log))
    assert not report.ok and report.cheat == "chain" and report.bad is None
    assert report.failure == text and "EQUIVOCATION" not in report.text()

    with pytest.raises(evidence.NotProven) as why:
        evidence.find(log)
    assert str(why.value) == text


def test_a_bundle_of_a_forks_two_entries_proves_nothing() -> None:
    table, _start, b = branches()
    with pytest.raises(evidence.NotProven) as why:
        evidence.judge([table.genesis, b["F"], b["F2"]])
    assert str(why.value).startswith(
        f"entries 4 follow different entries 3 ({b['E'].id[:12]} and {b['E2'].id[:12]}): "
        "b signed one on each of two branches of the log, which proves no cheat by b"
    )
    # The same role's two entries on one prev are the proof, as before.
    proof = evidence.judge([table.genesis, b["E"], b["E2"]])
    assert (proof.claim, proof.role) == ("equivocation", "a")
