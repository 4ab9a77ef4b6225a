"""A referee in any game, deadlines and signed forfeits (issue 17; pbem.core.referee,
docs/referee.md): the referee witnesses every player's dice; a forfeit is accepted only
from the referee, only in a game with a deadline, only against the player the game waits
for, and only once the deadline has passed by the referee's own signed clock."""

from __future__ import annotations

import pytest

from pbem.core.referee import DEADLINE, FORFEIT, REFEREE
from pbem.errors import PbemError
from pbem.transport.savefile import move_file
from pbem.verify import verify_text
from tests.support.players import (
    FORFEIT_DUE,
    FORFEIT_SEEN,
    FORFEIT_SINCE,
    Table,
    assert_refused,
    forfeit_entry,
)

SINCE, DUE, LATE = FORFEIT_SINCE, FORFEIT_DUE, FORFEIT_SEEN


def _table(options: dict[str, object] | None = None) -> Table:
    table = Table("toy-dice", ("a", "b", REFEREE), options={DEADLINE: 72, **(options or {})})
    table.join_all()
    return table


def _a_rolls(table: Table) -> None:
    """a rolls; the referee's acknowledgement rolls its die; b is asked."""
    table.move("a", "roll")
    table.apply(table.ack_entry(REFEREE))


def test_the_referee_rolls_every_players_dice_in_any_title() -> None:
    """Protocol 4's "next entry by a different role" is the referee's, for both players:
    the opponent's next entry cannot roll them, so one referee mail round trip does."""
    table = _table()
    assert table.game.witnesses() == [("a", REFEREE), ("b", REFEREE), (REFEREE, "a")]
    assert table.game.sides == ("a", "b")  # the referee plays no side
    table.move("a", "roll")
    assert table.game.next_signer() == REFEREE
    assert_refused(table.game, table.move_entry("b", "roll"), "waiting for entropy")
    table.apply(table.ack_entry(REFEREE))
    assert table.game.next_signer() == "b"
    assert not table.game.self_witnessed


def test_a_game_without_a_referee_keeps_its_witnesses() -> None:
    table = Table("toy-dice", ("a", "b"))
    table.join_all()
    assert table.game.witnesses() == [("a", "b"), ("b", "a")]


def test_the_referee_never_plays_a_side() -> None:
    table = _table()
    table.move("a", "roll")  # the referee is asked, for the dice only
    assert_refused(table.game, table.move_entry(REFEREE, "roll"), "asks b, not referee")
    assert_refused(table.game, table.make(REFEREE, "move", {"resign": True}), "not a side")


def test_a_deadline_needs_a_referee_and_a_whole_number_of_hours() -> None:
    with pytest.raises(PbemError, match="deadline_hours needs a referee"):
        Table("toy-dice", ("a", "b"), options={DEADLINE: 72})
    for bad in (0, -1, "72", True, 24 * 367):
        with pytest.raises(PbemError, match="whole number of hours"):
            Table("toy-dice", ("a", "b", REFEREE), options={DEADLINE: bad})


def test_a_forfeit_ends_the_game_against_the_late_player() -> None:
    table = _table()
    _a_rolls(table)
    table.apply(forfeit_entry(table))
    outcome = table.game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.level) == ("a", FORFEIT)
    assert "b forfeited" in outcome.text and DUE in outcome.text
    assert table.game.next_signer() is None
    assert_refused(table.game, table.move_entry("b", "roll"), "the game is over")
    report = verify_text(move_file(table.game.entries))
    assert report.ok, report.failure


def test_only_the_referee_signs_a_forfeit() -> None:
    table = _table()
    _a_rolls(table)
    assert_refused(table.game, forfeit_entry(table, by="a"), "signed by the referee only")


def test_no_forfeit_where_the_genesis_sets_no_deadline() -> None:
    table = Table("toy-dice", ("a", "b", REFEREE))
    table.join_all()
    _a_rolls(table)
    assert_refused(table.game, forfeit_entry(table), "sets no deadline")


def test_a_forfeit_names_the_player_asked_and_the_head() -> None:
    table = _table()
    _a_rolls(table)
    assert_refused(table.game, forfeit_entry(table, role="a"), "waits for b, not a")
    assert_refused(
        table.game, forfeit_entry(table, waited_on={"seq": 3, "id": "00" * 32}), "names the entry"
    )


def test_no_forfeit_while_the_referee_itself_owes_the_dice() -> None:
    table = _table()
    table.move("a", "roll")
    assert_refused(table.game, forfeit_entry(table, role="a"), "the referee's own acknowledgement")


def test_a_forfeit_before_its_deadline_is_refused() -> None:
    table = _table()
    _a_rolls(table)
    assert_refused(table.game, forfeit_entry(table, seen=SINCE), "issued before its deadline")
    early = "2026-12-04T09:59:59Z"
    assert_refused(table.game, forfeit_entry(table, seen=early), "issued before its deadline")
    # The deadline is since + deadline_hours, not what the referee says it is.
    assert_refused(
        table.game,
        forfeit_entry(table, deadline="2026-12-02T10:00:00Z", seen="2026-12-02T10:00:00Z"),
        "is not 72 h after",
    )


@pytest.mark.parametrize(
    "written", ["2026-12-04 10:00:01", "2026-12-04T10:00:01+00:00", "2026-13-04T10:00:01Z", 7]
)
def test_forfeit_times_are_written_one_way(written: object) -> None:
    table = _table()
    _a_rolls(table)
    assert_refused(table.game, forfeit_entry(table, seen=written), "seen")


def test_a_forfeit_carries_nothing_else() -> None:
    table = _table()
    _a_rolls(table)
    assert_refused(table.game, forfeit_entry(table, result="a wins"), "carries no result")


# --- the game's start: no clock runs before it (issue 27, item 11) -----------------------------


def _made_at(created: object) -> Table:
    table = Table(
        "toy-dice",
        ("a", "b", REFEREE),
        options={DEADLINE: 72},
        genesis_body={"created": created},
    )
    table.join_all()
    return table


def test_a_forfeit_whose_clock_starts_before_the_game_was_made_is_refused() -> None:
    """Today's attack: `since 2000-01-01` verified and counted. A genesis says when its
    game was made (`created`); a forfeit's `since` may not come before it."""
    table = _made_at("2026-12-01T09:00:00Z")
    _a_rolls(table)
    backdated = forfeit_entry(
        table,
        since="2000-01-01T00:00:00Z",
        deadline="2000-01-04T00:00:00Z",
        seen="2000-01-04T00:00:01Z",
    )
    assert_refused(table.game, backdated, "before the game was made (2026-12-01T09:00:00Z")
    assert_refused(
        table.game,
        forfeit_entry(table, since="2026-12-01T08:59:59Z", deadline="2026-12-04T08:59:59Z"),
        "before the game was made",
    )
    table.apply(forfeit_entry(table))  # since 2026-12-01T10:00:00Z: after the start
    assert verify_text(move_file(table.game.entries)).ok


@pytest.mark.parametrize("written", ["2026-12-01 09:00:00", 1764579600, "2026-13-01T09:00:00Z"])
def test_a_genesis_time_is_written_one_way(written: object) -> None:
    with pytest.raises(PbemError, match="genesis created"):
        _made_at(written)


def test_a_referee_joins_no_game_made_in_the_future_of_its_clock(tmp_path: object) -> None:
    """The referee's own join vouches for the time a genesis says: its client refuses a
    game made later than its clock (an hour of skew allowed), whose creator would escape
    every forfeit until then."""
    from datetime import UTC, datetime, timedelta
    from pathlib import Path

    from pbem.client import Client
    from pbem.store import Store

    root = Path(str(tmp_path))
    now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    clients = {role: Client(Store(root / role), clock=lambda: now) for role in ("a", "b", REFEREE)}
    for role, client in clients.items():
        client.new_key(role)
    for role in ("b", REFEREE):
        clients["a"].import_key(role, root / role / "keys" / f"{role}.pub")
    keys = {role: role for role in clients}
    for ahead, joins in ((timedelta(days=2), False), (timedelta(minutes=30), True)):
        game, made = clients["a"].new_game(
            "toy-dice", "a", keys, options={DEADLINE: 72}, created=now + ahead
        )
        for role in ("b", REFEREE):
            clients[role].apply_entries(made)
            if role == "b":
                made = made + clients["b"].join(game)
        if joins:
            assert clients[REFEREE].join(game)
        else:
            with pytest.raises(PbemError, match="later than this referee's clock"):
                clients[REFEREE].join(game)
