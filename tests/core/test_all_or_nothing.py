"""All or nothing: a refused entry changes neither the Adjudicator nor the Client's store."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.log import Entry
from pbem.errors import PbemError
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries
from tests.support.players import (
    Duo,
    Table,
    assert_refused,
    dice,
    entry_count,
    hex_of,
    sign_entry,
    snapshot,
    store_dump,
)

# --- the adjudicator -----------------------------------------------------------------------


def test_refusals_while_dice_wait_roll_nothing() -> None:
    """Entries that would roll the waiting dice, then fail, must leave no trace of the roll."""
    table = Table()
    table.join_all()
    e = table.move("a", "roll")
    before = snapshot(table.game)
    bad: list[tuple[Entry, str]] = [
        (table.move_entry("b", "fly"), "fly"),  # rolls a's die, then fails to parse
        (table.move_entry("b", "roll  twice"), "canonical form"),
        (table.make("b", "move", {"decision": "roll", "x": 1}), "unknown move body field"),
        (table.make("b", "ack", {"x": 1}), "carries no body"),
        (table.move_entry("b", "roll", reveal=hex_of(b"wrong")), "reveal does not hash"),
        (table.move_entry("b", "roll", key=table.keys["a"]), "signed by"),
        (table.move_entry("a", "roll"), "waiting for entropy"),
        (table.move_entry("b", "roll", seq=5), "does not follow the head"),
    ]
    for entry, fragment in bad:
        assert_refused(table.game, entry, fragment)
    assert snapshot(table.game) == before
    f = table.move("b", "roll")
    assert table.game.rng_log[0].value == dice(table.game.id, e.id, str(f.reveal))[0]
    assert table.game.rng_log[0].producing_seq == 4


def test_refusal_at_each_point_of_a_game_then_the_game_goes_on() -> None:
    table = Table()
    table.join_all()
    for _ in range(3):
        for role, other in (("a", "b"), ("b", "a")):
            assert_refused(table.game, table.move_entry(other, "roll"), "entry")
            assert_refused(table.game, table.ack_entry(role, seq=table.game.head.seq), "stale")
            table.move(role, "roll")
    table.ack("a")
    assert table.game.outcome() is not None
    assert len(table.game.rng_log) == 6


# --- the client's store --------------------------------------------------------------------


def _bad_after(duo: Duo, good: Entry) -> Entry:
    """An entry by a that does not fit after `good` (it skips a seq)."""
    fields = dict(good.data)
    fields["seq"] = good.seq + 2
    fields["prev"] = good.id
    return sign_entry(duo.key("a"), fields)


def test_a_file_holding_only_a_bad_entry_changes_nothing(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    good = duo.a.move(duo.game_id, "roll")
    fields = dict(good.data)
    fields["body"] = {"decision": "roll  twice"}
    bad = sign_entry(duo.key("a"), fields)
    before = store_dump(duo.b.store)
    with pytest.raises(PbemError, match="canonical form"):
        duo.send([bad], duo.b)
    assert store_dump(duo.b.store) == before
    duo.send([good], duo.b)  # the good one still applies afterwards
    assert duo.b.game(duo.game_id).head == good


def test_a_file_whose_last_entry_is_bad_changes_nothing(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    good = duo.a.move(duo.game_id, "roll")
    bad = _bad_after(duo, good)
    count = entry_count(duo.b.store, duo.game_id)
    with pytest.raises(PbemError, match="does not follow the head"):
        duo.b.apply_entries(parse_entries(move_file([good, bad])))
    assert entry_count(duo.b.store, duo.game_id) == count


def test_after_a_refused_file_the_client_still_agrees_with_its_store(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    good = duo.a.move(duo.game_id, "roll")
    bad = _bad_after(duo, good)
    with pytest.raises(PbemError):
        duo.b.apply_entries(parse_entries(move_file([good, bad])))
    stored = [r["id"] for r in duo.b.store.entries(duo.game_id)]
    assert [e.id for e in duo.b.game(duo.game_id).entries] == stored
    # whatever was kept, sending the good entry again converges on the same log
    results = duo.b.apply_entries(parse_entries(move_file([good])))
    assert [r.entry for r in results] == [good]
    assert duo.b.game(duo.game_id).head == good
    assert entry_count(duo.b.store, duo.game_id) == 4
