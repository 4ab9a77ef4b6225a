"""Private draws (protocol sections 5 and 7) through the adjudicator and the client store.

Uses the peek toy game (tests/support/peek.py): `a` commits a fresh secret x,
the die is seeded by SHA256("pbem-private/v1" || game || id(E) || x || reveal(F)),
only `a` can compute it until x is opened, and then everyone can.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.client import Client
from pbem.core.rng import Stream, private_seed
from pbem.store import Store
from pbem.transport.savefile import move_file, save_text
from pbem.verify import parse_entries, verify_text
from tests.support.peek import Call, Peek
from tests.support.players import Table, assert_refused


@pytest.fixture
def table() -> Table:
    t = Table("toy-peek", ("a", "b"))
    t.join_all()
    return t


def _peek(table: Table) -> str:
    peek = table.decide("a", Peek())
    table.ack("b")
    secret = next(iter(peek.body["commit"]))
    assert table.game.state["draw"]["secret"] == secret
    return str(table.game.state["draw"]["key"])


def test_only_the_owner_can_compute_a_private_draw(table: Table) -> None:
    key = _peek(table)
    record = table.game.rng_log[-1]
    assert record.line() == "rng 3 4 private round 1: a peeks"
    assert table.game.private_values == {}
    assert key not in table.known("b")
    seen = table.known("a")[key]
    assert 1 <= seen <= 6
    # the value is exactly section 7's private derivation
    x = table.secrets["x/a/1"][1]
    peek, ack = table.game.entries[3], table.game.entries[4]
    expected = Stream(private_seed(table.game.id, peek.id, str(x), str(ack.reveal))).between(1, 6)
    assert seen == expected
    own = table.engine.with_secrets(table.game.state, "a", table.known("a"))
    assert own["draw"]["seen"] == seen
    other = table.engine.with_secrets(table.game.state, "b", table.known("b"))
    assert "seen" not in other["draw"]


def test_opening_the_secret_shows_the_draw_to_everyone(table: Table) -> None:
    key = _peek(table)
    seen = table.known("a")[key]
    table.decide("a", Call(seen))
    assert table.game.private_values == {key: seen}
    assert table.game.rng_log[0].line() == f"rng 3 4 1..6 {seen} round 1: a peeks"


def test_a_false_call_is_refused_when_the_secret_opens(table: Table) -> None:
    key = _peek(table)
    seen = table.known("a")[key]
    wrong = seen % 6 + 1
    opening = table.secrets["x/a/1"]
    body = {
        "decision": f"call {wrong}",
        "open": [{"label": "x/a/1", "salt": opening[0], "value": opening[1]}],
    }
    message = assert_refused(table.game, table.make("a", "move", body), "false claim")
    assert f"called {wrong}, but the private die was {seen}" in message


def test_a_secret_that_seeds_draws_must_be_32_bytes(table: Table) -> None:
    # commit a non-hex "secret" by hand: the draw happens, the opening is refused
    from pbem.core.commit import commitment
    from tests.support.players import hex_of

    salt = hex_of(b"s")
    body = {"decision": "peek", "commit": {"x/a/1": commitment(table.game.id, "x/a/1", salt, 7)}}
    table.apply(table.make("a", "move", body))
    table.ack("b")
    opening = {"decision": "call 1", "open": [{"label": "x/a/1", "salt": salt, "value": 7}]}
    assert_refused(table.game, table.make("a", "move", opening), "must open as 64 hex digits")


def test_saves_with_private_draws_verify_before_and_after_opening(table: Table) -> None:
    _peek(table)
    prints = {"a": "SHA256:a", "b": "SHA256:b"}
    sealed = save_text(table.game, "peek", prints)
    assert "rng 3 4 private round 1: a peeks" in sealed
    assert verify_text(sealed).ok
    table.play(random.Random(2))
    opened = save_text(table.game, "peek", prints)
    assert "private" not in opened.split("RNG LOG")[1]
    report = verify_text(opened)
    assert report.ok, report.failure
    tampered = opened.replace("1..6", "1..7", 1)
    assert not verify_text(tampered).ok


def test_through_client_stores_the_secret_is_fresh_and_kept(tmp_path: Path) -> None:
    a, b = Client(Store(tmp_path / "a")), Client(Store(tmp_path / "b"))
    a.new_key("a")
    b.new_key("b")
    a.import_key("b", tmp_path / "b" / "keys" / "b.pub")
    game_id, made = a.new_game("toy-peek", "a", {"a": "a", "b": "b"})
    b.apply_entries(parse_entries(move_file(made)))
    a.apply_entries(parse_entries(move_file(b.join(game_id))))
    peek = a.move(game_id, "peek")
    b.apply_entries(parse_entries(move_file([peek])))
    a.apply_entries(parse_entries(move_file([b.ack(game_id)])))
    known = a.known(game_id, "a")
    x = known["x/a/1"]
    assert isinstance(x, str) and len(x) == 64 and x not in move_file([peek])
    key = a.game(game_id).state["draw"]["key"]
    assert 1 <= known[key] <= 6
    assert key not in b.known(game_id, "b")
    call = a.move(game_id, "1")  # the menu offers exactly the call of the die it saw
    assert call.body["decision"] == f"call {known[key]}"
    b.apply_entries(parse_entries(move_file([call])))
    assert b.game(game_id).private_values[key] == known[key]


def test_the_independent_reader_checks_opened_private_draws(table: Table) -> None:
    from tests.independent import section7_reader

    table.play(random.Random(3))
    save = save_text(table.game, "peek", {"a": "SHA256:a", "b": "SHA256:b"})
    report = section7_reader.check_save(save)
    assert report.ok, str(report)
    assert report.rng_checked == len(table.game.rng_log) >= 2
    line = next(r.line() for r in table.game.rng_log)
    words = line.split(" ")
    words[4] = str(int(words[4]) % 6 + 1)
    assert not section7_reader.check_save(save.replace(line, " ".join(words))).ok


def test_an_entry_cannot_mix_public_and_private_draws() -> None:
    from pbem.core.adjudicator import ApplyContext, Sealed

    sealed = {"x": Sealed("x", "0" * 64, "a", 3)}
    ctx = ApplyContext(Stream(b"\x01" * 32), 3, 4, sealed)
    ctx.roll(1, 6, "public")
    with pytest.raises(Exception, match="one secret, alone"):
        ctx.private_roll("x", 1, 6, "private")
    ctx = ApplyContext(Stream(b"\x01" * 32), 3, 4, sealed)
    ctx.private_roll("x", 1, 6, "private")
    with pytest.raises(Exception, match="all public or all private"):
        ctx.roll(1, 6, "public")
