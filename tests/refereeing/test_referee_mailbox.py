"""What an unattended referee does with bad mail (issue 17, docs/referee.md): a garbled
message and a message for a game it does not referee are each refused in one line,
and nothing of the good mail beside them is lost."""

from __future__ import annotations

import mailbox
from pathlib import Path

from pbem.client import Client
from pbem.core.referee import REFEREE
from pbem.mail.compose import compose
from pbem.store import Store
from pbem.transport.armor import BEGIN
from tests.refereeing.league import PLAYERS, RULES, desks, hand, new_game


def _garbled(raw: bytes) -> bytes:
    """The message with one character of its first armored entry changed."""
    text = raw.decode("ascii")
    start = text.index(BEGIN)
    line_start = text.index("\n", start) + 1
    spot = text.index("\n", line_start) - 5  # inside the first payload line
    swapped = "A" if text[spot] != "A" else "B"
    return (text[:spot] + swapped + text[spot + 1 :]).encode("ascii")


def test_bad_mail_is_one_line_and_loses_nothing(tmp_path: Path) -> None:
    made = desks(tmp_path)
    referee = made[REFEREE]
    first, second = (made[role] for role in PLAYERS)
    game = new_game(made)
    hand(first.client, referee.client, game)
    hand(first.client, second.client, game)
    join = second.client.join(game)

    def join_mail(message_id: str) -> bytes:
        return compose(
            second.client.game(game),
            join,
            sender=second.address,
            to=referee.address,
            message_id=message_id,
        ).as_bytes()

    good, garbled = join_mail("<good@example.org>"), _garbled(join_mail("<bad@example.org>"))
    # a game between two strangers, mailed to the referee by mistake
    stranger = Client(Store(tmp_path / "stranger"))
    for name in PLAYERS:
        stranger.new_key(name)
    other, entries = stranger.new_game(RULES, PLAYERS[0], {r: r for r in PLAYERS}, title="x")
    wrong = compose(
        stranger.game(other), entries, sender="someone@example.org", to=referee.address
    ).as_bytes()
    box = mailbox.Maildir(referee.maildir, create=False)
    for raw in (garbled, wrong, good):
        box.add(raw)

    said = referee.cli("referee", "run", "--once", "--maildir", str(referee.maildir), code=1)
    lines = said.splitlines()
    refused = [line for line in lines if "refused:" in line]
    assert len(refused) == 2, said
    assert any("entry block 1 is damaged" in line for line in refused)
    assert any(f"unknown game {other[:12]}" in line for line in refused)
    assert all("Traceback" not in line and "Error(" not in line for line in lines)
    # the good message beside them: applied, and the referee joined after it
    assert any(f"applied game {game[:12]} seqs 2" in line for line in lines)
    stored = referee.client.game(game)
    assert [e.by for e in stored.entries[1:]] == [PLAYERS[0], PLAYERS[1], REFEREE]
    assert not referee.client.store.has_game(other)
    # a second run says the same two lines again and changes nothing
    again = referee.cli("referee", "run", "--once", "--maildir", str(referee.maildir), code=1)
    assert len([line for line in again.splitlines() if "refused:" in line]) == 2
