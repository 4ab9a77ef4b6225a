"""Equivocation (protocol section 1): two valid signatures over different entries at one seq."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.log import Entry
from pbem.errors import EquivocationError, PbemError
from pbem.ledger import find_equivocation, fingerprint
from pbem.transport.armor import armor
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text
from tests.support.players import Duo, Table, call_refused, entry_count, sign_entry


@pytest.fixture
def table() -> Table:
    t = Table()
    t.join_all()
    return t


def twin(table: Table, role: str = "a") -> tuple[Entry, Entry]:
    """Two different entries by `role` for the same game and seq, both validly signed."""
    first = table.move_entry(role, "roll")
    second = table.move_entry(role, "roll twice")
    assert (first.game, first.seq) == (second.game, second.seq) and first.id != second.id
    return first, second


def test_find_equivocation_returns_a_self_contained_proof(table: Table) -> None:
    first, second = twin(table)
    proof = find_equivocation(table.genesis, [first, second])
    assert proof is not None
    assert proof.role == "a"
    assert proof.fingerprint == table.keys["a"].public.fingerprint()
    assert (proof.first, proof.second) == (first, second)
    text = proof.proof()
    assert text.startswith("EQUIVOCATION")
    assert "role a" in text and "seq 3" in text and str(table.game.id) in text
    assert proof.fingerprint in text
    assert first.id in text and second.id in text
    assert armor(first.canonical, first.signature).rstrip() in text
    assert armor(second.canonical, second.signature).rstrip() in text
    # the proof's own text carries both signed entries, so anyone can re-check it
    assert parse_entries(text) == [first, second]
    again = find_equivocation(table.genesis, parse_entries(text))
    assert again is not None and again.role == "a"


def test_not_an_equivocation(table: Table) -> None:
    first, _second = twin(table)
    assert find_equivocation(table.genesis, [first, first]) is None
    # same seq, different roles: a stale head, not a double signature
    b_entry = table.move_entry("b", "roll")
    assert find_equivocation(table.genesis, [first, b_entry]) is None
    # a second entry whose signature does not verify proves nothing
    fake = table.move_entry("a", "roll twice", key=table.keys["b"])
    assert find_equivocation(table.genesis, [first, fake]) is None
    # different seqs
    table.apply(first)
    later = table.move_entry("b", "roll")
    assert find_equivocation(table.genesis, [first, later]) is None


def test_equivocation_across_games_is_not_mixed_up() -> None:
    one = Table(nonce="one")
    two = Table(keys=one.keys, nonce="two")
    for t in (one, two):
        t.join_all()
    a1 = one.move_entry("a", "roll")
    a2 = two.move_entry("a", "roll twice")
    assert find_equivocation(one.genesis, [a1, a2]) is None


def test_client_apply_entries_reports_equivocation(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    first = duo.a.move(duo.game_id, "roll")
    duo.send([first], duo.b)
    fields = dict(first.data)
    fields["body"] = {"decision": "roll twice"}
    second = sign_entry(duo.key("a"), fields)
    count = entry_count(duo.b.store, duo.game_id)
    error = call_refused(duo.b.store, lambda: duo.send([second], duo.b), "role a", "seq 3")
    assert isinstance(error, EquivocationError)
    assert str(error).startswith("EQUIVOCATION")
    assert armor(second.canonical, second.signature).rstrip() in error.proof
    assert armor(first.canonical, first.signature).rstrip() in error.proof
    assert entry_count(duo.b.store, duo.game_id) == count
    assert duo.b.game(duo.game_id).head == first


def test_client_sees_both_in_one_file(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    first = duo.a.move(duo.game_id, "roll")  # b has not seen it
    fields = dict(first.data)
    fields["body"] = {"decision": "roll twice"}
    second = sign_entry(duo.key("a"), fields)
    with pytest.raises(PbemError) as caught:
        duo.b.apply_entries(parse_entries(move_file([first, second])))
    assert str(caught.value).startswith("EQUIVOCATION")
    assert "role a" in str(caught.value) and "seq 3" in str(caught.value)


def test_verify_text_fails_with_the_proof(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    duo.finish()
    save = duo.save()
    game = duo.a.game(duo.game_id)
    original = game.entries[5]
    fields = dict(original.data)
    fields["body"] = {"decision": "roll twice"}
    role = original.by
    double = sign_entry(duo.key(role), fields)
    report = verify_text(save + "\n" + move_file([double]))
    assert not report.ok
    assert report.failure is not None
    assert report.failure.startswith("EQUIVOCATION")
    assert f"role {role}" in report.failure and "seq 5" in report.failure
    assert fingerprint(game.roles[role]) in report.failure
    assert armor(original.canonical, original.signature).rstrip() in report.failure
    assert armor(double.canonical, double.signature).rstrip() in report.failure
    assert "EQUIVOCATION" in report.text()
    assert verify_text(save).ok  # the save alone is fine
