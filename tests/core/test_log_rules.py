"""The log as one chain (protocol section 3), as the Adjudicator enforces it.

Every refusal here also checks that the adjudicator is exactly as it was before
(`assert_refused` compares state, entries, RNG log, actions, prompts and chains).
"""

from __future__ import annotations

import pytest

from pbem.core.adjudicator import Adjudicator, EntryRefused
from pbem.core.canonical import canonical_bytes
from pbem.core.log import Entry
from pbem.crypto import sshsig
from pbem.crypto.keys import generate
from pbem.errors import PbemError, SignatureError
from pbem.ledger import check_signature, data_source, engine_by_name
from tests.support.players import DROP, Table, assert_refused, hex_of


@pytest.fixture
def table() -> Table:
    t = Table()
    t.join_all()
    return t


def test_a_valid_sequence_is_accepted(table: Table) -> None:
    e = table.move("a", "roll")
    assert table.game.head == e
    assert [x.seq for x in table.game.entries] == [0, 1, 2, 3]
    assert table.game.entries[1].prev == table.genesis.id


def test_stale_head_refused(table: Table) -> None:
    table.move("a", "roll")
    # b signs on an old head: its seq is already taken
    stale = table.move_entry("b", "roll", seq=3, prev=table.game.entries[2].id)
    message = assert_refused(table.game, stale, "entry 3 by b refused", "stale head")
    assert "the head is entry 3" in message


def test_stale_head_even_with_the_current_prev(table: Table) -> None:
    table.move("a", "roll")
    entry = table.move_entry("b", "roll", seq=2)
    assert_refused(table.game, entry, "stale head")


def test_skipping_a_seq_refused(table: Table) -> None:
    skip = table.move_entry("a", "roll", seq=4)
    assert_refused(table.game, skip, "entry 4 by a refused", "does not follow the head")


def test_wrong_prev_refused(table: Table) -> None:
    wrong = table.move_entry("a", "roll", prev=table.game.entries[1].id)
    assert_refused(table.game, wrong, "entry 3 by a refused", "does not follow the head")
    made_up = table.move_entry("a", "roll", prev=hex_of(b"nothing"))
    assert_refused(table.game, made_up, "does not follow the head")


def test_entry_moved_to_another_game_refused() -> None:
    first = Table(nonce="first")
    second = Table(keys=first.keys, nonce="second")  # same players, another game
    assert first.game.id != second.game.id
    for t in (first, second):
        t.join_all()
    moved = second.move_entry("a", "roll")  # validly signed by a, for the second game
    message = assert_refused(first.game, moved, "entry 3 by a refused", "belongs to game")
    assert second.game.id[:12] in message and first.game.id[:12] in message
    second.apply(moved)  # it is fine where it belongs


def test_out_of_turn_move_refused(table: Table) -> None:
    assert_refused(table.game, table.move_entry("b", "roll"), "entry 3 by b refused", "out of turn")


def test_move_before_every_role_joined() -> None:
    table = Table()
    table.apply(table.join_entry("a"))
    assert not table.game.started
    assert [p.role for p in table.game.prompts()] == ["b"]
    early = table.move_entry("a", "roll")
    assert_refused(table.game, early, "play has not started", "waiting for b to join")
    ack = table.ack_entry("a")
    assert_refused(table.game, ack, "play has not started")


def test_move_after_the_outcome(table: Table) -> None:
    for _ in range(3):
        table.move("a", "roll")
        table.move("b", "roll")
    table.ack("a")  # rolls b's last die
    outcome = table.game.outcome()
    assert outcome is not None
    assert table.game.prompts() == []
    assert_refused(table.game, table.move_entry("b", "roll"), "the game is over")
    assert_refused(table.game, table.ack_entry("b"), "the game is over")


def test_move_after_the_last_roll_is_out_of_turn(table: Table) -> None:
    for _ in range(3):
        table.move("a", "roll")
        table.move("b", "roll")
    # a's entry rolls b's last die; then nobody is asked, so a move cannot be played
    assert_refused(table.game, table.move_entry("a", "roll"), "out of turn", "asks nobody")


def test_entry_signed_by_the_wrong_key(table: Table) -> None:
    forged = table.move_entry("a", "roll", key=table.keys["b"])
    message = assert_refused(table.game, forged, "entry 3 by a refused")
    assert f"signed by {table.keys['b'].public.fingerprint()}" in message
    assert f"expected {table.keys['a'].public.fingerprint()}" in message
    with pytest.raises(SignatureError):
        check_signature(table.keys["a"].public.openssh_line(), forged.canonical, forged.signature)


def test_entry_signed_by_a_stranger(table: Table) -> None:
    stranger = generate("mallory")
    forged = table.move_entry("a", "roll", key=stranger)
    assert_refused(table.game, forged, "entry 3 by a", stranger.public.fingerprint())


def test_signature_over_other_bytes(table: Table) -> None:
    honest = table.move_entry("a", "roll")
    other = table.move_entry("a", "roll twice")
    swapped = Entry(other.canonical, honest.signature, other.data, other.id)
    assert_refused(table.game, swapped, "entry 3 by a", "bad signature")
    assert_refused(table.game, other.with_signature(b""), "entry 3 by a")


def test_signature_in_another_namespace(table: Table) -> None:
    entry = table.move_entry("a", "roll")
    git_sig = sshsig.sign(table.keys["a"], entry.canonical, namespace="git")
    assert_refused(table.game, entry.with_signature(git_sig), "namespace")


def test_role_not_in_the_game(table: Table) -> None:
    entry = table.move_entry("c", "roll", reveal=hex_of(b"r"), key=table.keys["a"])
    assert_refused(table.game, entry, "'c' is not a role of this game")


def test_unknown_kind(table: Table) -> None:
    entry = table.make("a", "resign", {})
    assert_refused(table.game, entry, "unknown entry kind 'resign'")


def test_unknown_entry_fields_refused_on_the_wire(table: Table) -> None:
    fields = table.fields("a", "move", {"decision": "roll"})
    data = canonical_bytes({**fields, "note": "signed, but not a protocol field"})
    signature = sshsig.sign(table.keys["a"], data)
    with pytest.raises(PbemError, match="unknown entry field"):
        Entry.from_wire(data, signature)


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({}, "needs a decision"),
        ({"decision": "roll", "memo": "x"}, "unknown move body field(s): memo"),
        ({"decision": 1}, "needs a decision"),
        ({"decision": ["roll"]}, "needs a decision"),
        ({"decision": "roll", "commit": {}}, "non-empty object"),
        ({"decision": "roll", "open": []}, "non-empty list"),
    ],
)
def test_move_body_shape(table: Table, body: dict[str, object], fragment: str) -> None:
    assert_refused(table.game, table.make("a", "move", body), fragment)


@pytest.mark.parametrize("text", ["roll  twice", " roll", "roll "])
def test_non_canonical_decision_text_refused(table: Table, text: str) -> None:
    # the toy engine parses these, but formats them differently: not the canonical text
    # ("roll\ttwice" is refused before that, as a control character: tests/hardening/
    # test_untrusted_text.py)
    assert_refused(table.game, table.move_entry("a", text), "not in canonical form")


@pytest.mark.parametrize("text", ["ROLL", "Roll", "fly", ""])
def test_unparsable_decision_refused(table: Table, text: str) -> None:
    assert_refused(table.game, table.move_entry("a", text), "entry 3 by a refused", repr(text))


def test_join_twice(table: Table) -> None:
    again = table.join_entry("a")
    assert_refused(table.game, again, "a has already joined")


def test_missing_reveal_cannot_even_be_built(table: Table) -> None:
    with pytest.raises(PbemError, match="reveal"):
        table.move_entry("a", "roll", reveal=DROP)


def test_genesis_is_checked() -> None:
    table = Table()
    for bad_by, message in [("b", "signed by"), ("z", "not one of the roles")]:
        fields = dict(table.genesis.data)
        fields["by"] = bad_by
        entry = table.sign("a", fields)
        with pytest.raises(EntryRefused, match=message):
            Adjudicator.start(entry, engine_by_name, data_source(), check_signature)
    fields = dict(table.genesis.data)
    fields["body"] = {**table.genesis.body, "rules_version": "99"}
    with pytest.raises(EntryRefused, match="version 99 is not supported"):
        Adjudicator.start(table.sign("a", fields), engine_by_name, data_source(), check_signature)
    fields["body"] = {**table.genesis.body, "data": {"toy.toml": hex_of(b"other data")}}
    with pytest.raises(EntryRefused, match="toy.toml"):
        Adjudicator.start(table.sign("a", fields), engine_by_name, data_source(), check_signature)


def test_refusals_name_entry_and_signer(table: Table) -> None:
    entry = table.move_entry("b", "roll")
    with pytest.raises(EntryRefused) as caught:
        table.apply(entry)
    assert (caught.value.seq, caught.value.by) == (3, "b")
    assert str(caught.value).startswith("entry 3 by b refused: ")
    assert caught.value.reason.startswith("out of turn")
