"""Hidden information (protocol section 5) through the adjudicator and the client store.

Uses the sealed-bid toy game (tests/support/bid.py), a sealed round (protocol section
8): a's bid is committed in one entry and opened in a later one, b bids in the clear in
between; a public parity claim made while a bid is sealed is checked when it opens.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pbem.client import Client
from pbem.core.canonical import canonical_bytes
from pbem.core.commit import Opening, commitment
from pbem.ledger import replay
from pbem.store import Store
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text
from tests.support.bid import Bid, Reveal
from tests.support.players import Table, assert_refused, hex_of


@pytest.fixture
def table() -> Table:
    t = Table("toy-bid", ("a", "b"))
    t.join_all()
    return t


def test_a_sealed_round_asks_one_role_at_a_time(table: Table) -> None:
    """Protocol 8: a commits, b (facing a bound bid) bids in the clear, a opens."""
    assert [p.role for p in table.game.prompts()] == ["a"]
    assert_refused(table.game, table.make("b", "move", {"decision": "bid 3"}), "out of turn")
    table.decide("a", Bid(3))
    assert [p.role for p in table.game.prompts()] == ["b"]
    entry = table.decide("b", Bid(4))
    assert entry.body == {"decision": "bid 4"}  # the last bid is in the clear
    assert [p.role for p in table.game.prompts()] == ["a"]
    assert table.engine.choices(table.game.state, "a") == [Reveal()]
    table.decide("a", Reveal())
    assert table.game.state["score"] == {"a": 0, "b": 1}


def test_the_committed_role_must_open_in_its_next_entry(table: Table) -> None:
    table.decide("a", Bid(3))
    table.decide("b", Bid(4))
    message = assert_refused(table.game, table.make("a", "move", {"decision": "reveal"}))
    assert "must open bid/a/1 (every choice of the round is made: open yours)" in message


def test_a_bid_travels_as_a_commitment_only(table: Table) -> None:
    entry = table.decide("a", Bid(7, "odd"))
    assert entry.body["decision"] == "bid odd"
    (label, digest), *_ = entry.body["commit"].items()
    assert label == "bid/a/1"
    salt, value = table.secrets[label]
    assert digest == commitment(table.game.id, label, salt, 7)
    assert salt not in entry.canonical.decode() and b'"value"' not in entry.canonical
    assert table.game.state["pieces"]["bid/a/1"] == {
        "label": "bid/a/1",
        "owner": "a",
        "value": None,
        "revealed": False,
        "placed_at": 3,
        "claims": [{"seq": 3, "by": "a", "parity": "odd"}],
        "due": None,
    }


def test_openings_are_checked_and_fill_in_the_values(table: Table) -> None:
    table.decide("a", Bid(7))
    table.decide("b", Bid(2))
    table.decide("a", table.engine.parse("reveal", table.game.state, "a"))
    assert table.game.sealed["bid/a/1"].opened and table.game.sealed["bid/a/1"].value == 7
    assert table.game.state["pieces"]["bid/a/1"]["value"] == 7
    assert table.game.state["score"] == {"a": 1, "b": 0}
    assert table.game.unopened() == []


def _opening_body(table: Table, label: str, salt: str, value: object) -> dict[str, object]:
    return {"decision": "reveal", "open": [Opening(label, salt, value).to_json()]}


def test_a_wrong_opening_is_refused(table: Table) -> None:
    table.decide("a", Bid(7))
    table.decide("b", Bid(2))
    salt, _value = table.secrets["bid/a/1"]
    cases = [
        (_opening_body(table, "bid/a/1", salt, 8), "does not match its commitment"),
        (_opening_body(table, "bid/a/1", hex_of(b"other salt"), 7), "does not match"),
        (_opening_body(table, "bid/a/9", salt, 7), "never committed"),
        ({"decision": "reveal", "open": [{"label": "bid/a/1"}]}, "exactly label, salt and value"),
    ]
    for body, fragment in cases:
        assert_refused(table.game, table.make("a", "move", body), fragment)


def test_a_label_is_committed_once_and_opened_once(table: Table) -> None:
    table.decide("a", Bid(7))
    again = {"decision": "bid 2", "commit": {"bid/a/1": hex_of(b"x")}}
    assert_refused(table.game, table.make("b", "move", again), "already committed")
    table.decide("b", Bid(2))
    table.decide("a", table.engine.parse("reveal", table.game.state, "a"))
    salt, value = table.secrets["bid/a/1"]
    body = {"decision": "bid", "open": [Opening("bid/a/1", salt, value).to_json()]}
    assert_refused(table.game, table.make("a", "move", body), "already opened")
    table.decide("a", Bid(5))
    body = {"decision": "bid 2", "open": [Opening("bid/a/1", salt, value).to_json()]}
    assert_refused(table.game, table.make("b", "move", body), "committed by a")


def test_a_false_claim_is_caught_when_the_bid_opens(table: Table) -> None:
    """Protocol 5: every claim made while hidden is checked with full information."""
    liar = {
        "decision": "bid odd",
        "commit": {"bid/a/1": commitment(table.game.id, "bid/a/1", hex_of(b"salt"), 4)},
    }
    table.apply(table.make("a", "move", liar))
    table.decide("b", Bid(2))
    body = _opening_body(table, "bid/a/1", hex_of(b"salt"), 4)
    message = assert_refused(table.game, table.make("a", "move", body), "false claim")
    assert message.startswith("entry 5 by a refused: false claim in entry 3 by a")
    assert "bid/a/1 claimed odd, but it opens as 4" in message


def test_verify_names_the_first_false_claim_in_a_log(table: Table) -> None:
    liar = {
        "decision": "bid even",
        "commit": {"bid/a/1": commitment(table.game.id, "bid/a/1", hex_of(b"salt"), 5)},
    }
    table.apply(table.make("a", "move", liar))
    table.decide("b", Bid(2))
    opening = table.make("a", "move", _opening_body(table, "bid/a/1", hex_of(b"salt"), 5))
    text = move_file([*table.game.entries, opening])
    report = verify_text(text)
    assert not report.ok
    assert report.failure is not None
    assert report.failure.startswith("entry 5 by a refused: false claim in entry 3 by a")


def test_a_finished_game_with_a_sealed_commitment_fails_verification() -> None:
    t = Table("toy-dice", ("a", "b"))
    t.join_all()
    t.apply(t.make("a", "move", {"decision": "roll", "commit": {"note/a": hex_of(b"n")}}))
    t.play(random.Random(1))
    report = verify_text(move_file(t.game.entries))
    assert not report.ok and report.failure is not None
    assert "entry 3 by a: commitment note/a was never opened" in report.failure


def test_sealed_commitments_are_counted_in_an_unfinished_game(table: Table) -> None:
    table.decide("a", Bid(7))
    report = verify_text(move_file(table.game.entries))
    assert report.ok
    assert "commitments: 1 made, 0 opened" in report.text()


def test_random_games_replay_identically(table: Table) -> None:
    table.play(random.Random(5))
    again = replay(table.game.entries, {})
    assert canonical_bytes(again.state) == canonical_bytes(table.game.state)
    assert again.sealed == table.game.sealed


# --- through two client stores and move files ---------------------------------------------


def _duo(tmp_path: Path) -> tuple[Client, Client, str]:
    a, b = Client(Store(tmp_path / "a")), Client(Store(tmp_path / "b"))
    a.new_key("a")
    b.new_key("b")
    a.import_key("b", tmp_path / "b" / "keys" / "b.pub")
    game_id, made = a.new_game("toy-bid", "a", {"a": "a", "b": "b"})
    b.apply_entries(parse_entries(move_file(made)))
    a.apply_entries(parse_entries(move_file(b.join(game_id))))
    return a, b, game_id


def test_the_owner_keeps_salt_and_value_and_only_the_owner_sees_them(tmp_path: Path) -> None:
    a, b, game_id = _duo(tmp_path)
    entry = a.move(game_id, "bid 8 even")
    text = move_file([entry])
    b.apply_entries(parse_entries(text))
    kept = a.sealed_opening(game_id, "a", "bid/a/1")
    assert kept.value == 8 and kept.salt not in text
    assert b.store.secret(game_id, "a", "sealed:bid/a/1") is None
    assert a.known(game_id, "a") == {"bid/a/1": 8}
    assert b.known(game_id, "b") == {}

    engine = a.game(game_id).engine
    own = engine.view_known(a.game(game_id).state, "a", a.known(game_id, "a"))
    assert own["pieces"]["bid/a/1"]["value"] == 8 and own["pieces"]["bid/a/1"]["known"]
    theirs = engine.view_known(b.game(game_id).state, "b", b.known(game_id, "b"))
    assert theirs["pieces"]["bid/a/1"]["value"] is None
    assert "known" not in theirs["pieces"]["bid/a/1"]
    assert "8" not in json.dumps(theirs["pieces"]["bid/a/1"])
    # a view for b never shows a's value, even computed from a state that holds it
    assert engine.view(own, "b") == engine.view(b.game(game_id).state, "b")

    a.apply_entries(parse_entries(move_file([b.move(game_id, "bid 3")])))
    opening = a.move(game_id, "reveal")
    assert opening.body["open"][0]["value"] == 8
    b.apply_entries(parse_entries(move_file([opening])))
    assert b.game(game_id).state["pieces"]["bid/a/1"]["value"] == 8


def test_a_store_without_the_secret_cannot_open(tmp_path: Path) -> None:
    a, b, game_id = _duo(tmp_path)
    b.apply_entries(parse_entries(move_file([a.move(game_id, "bid 4")])))
    a.apply_entries(parse_entries(move_file([b.move(game_id, "bid 3")])))
    with a.store.transaction():
        a.store.db.execute("DELETE FROM secrets WHERE kind LIKE 'sealed:%'")
    with pytest.raises(Exception, match="does not hold the value sealed as bid/a/1"):
        a.move(game_id, "reveal")
