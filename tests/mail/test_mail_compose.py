"""The message `pbem mail send` builds: headers, threading, the summary, the entries."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.client import Client
from pbem.core.log import Entry
from pbem.mail.compose import (
    ComposeError,
    body_text,
    compose,
    game_title,
    summary_lines,
    thread_headers,
)
from pbem.store import Store
from pbem.transport.movefile import read_entries
from tests.support.players import Duo, Table


def wire(entries: list[Entry]) -> list[tuple[bytes, bytes]]:
    return [(e.canonical, e.signature) for e in entries]


def parsed(message: EmailMessage) -> EmailMessage:
    """The message as a receiver sees it: serialized to bytes and parsed back."""
    back = email.message_from_bytes(message.as_bytes(), policy=email.policy.default)
    assert isinstance(back, EmailMessage)
    return back


def test_thread_headers_reply_to_the_last_and_reference_root_and_tail() -> None:
    assert thread_headers([]) == (None, None)
    assert thread_headers(["<a@x>"]) == ("<a@x>", "<a@x>")
    assert thread_headers(["a@x", "<b@x>"]) == ("<b@x>", "<a@x> <b@x>")  # brackets added
    ids = [f"<m{i}@x>" for i in range(8)]
    reply_to, references = thread_headers(ids)
    assert reply_to == "<m7@x>"
    assert references == "<m0@x> <m4@x> <m5@x> <m6@x> <m7@x>"


def test_the_message_carries_the_entries_and_its_headers(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    game = duo.a.game(duo.game_id)
    entries = [e for e in game.entries if e.by == "a"]
    when = datetime(2026, 11, 29, 14, 0, tzinfo=UTC)
    message = compose(
        game,
        entries,
        sender="alice@example.org",
        sender_name="Alice",
        to="bob@example.net",
        date=when,
    )
    back = parsed(message)
    assert back["From"] == "Alice <alice@example.org>"
    assert back["To"] == "bob@example.net"
    assert back["Subject"] == f"[pbem] Toy dice {duo.game_id[:8]} #{entries[-1].seq}"
    assert back["Date"] == "Sun, 29 Nov 2026 14:00:00 +0000"
    assert str(back["Message-ID"]).startswith("<")
    assert str(back["Message-ID"]).endswith("@example.org>")
    assert back["In-Reply-To"] is None and back["References"] is None
    assert back["X-Pbem-Game"] == duo.game_id
    assert back.get_content_type() == "text/plain"
    assert back.get_content_charset() == "utf-8"
    assert read_entries(message.as_bytes()) == wire(entries)
    # The summary comes above the armor, with the line on how to apply.
    text = back.get_content()
    assert text.index("pbem mail fetch") < text.index("-----BEGIN PBEM ENTRY-----")
    assert "pbem apply FILE" in text


def test_threading_headers_follow_the_thread(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    game = duo.a.game(duo.game_id)
    thread = ["<first@example.org>", "<reply@example.net>"]
    message = compose(
        game, game.entries[:2], sender="a@example.org", to="b@example.net", thread=thread
    )
    back = parsed(message)
    assert back["In-Reply-To"] == "<reply@example.net>"
    assert back["References"] == "<first@example.org> <reply@example.net>"
    assert back["Message-ID"] not in thread


def test_the_title_comes_from_the_genesis_else_the_engine() -> None:
    table = Table("toy-dice")  # a genesis without a title
    assert "title" not in table.genesis.body
    assert game_title(table.game) == "Toy dice"
    message = compose(table.game, [table.genesis], sender="a@example.org", to="b@example.org")
    assert message["Subject"] == f"[pbem] Toy dice {table.game.id[:8]} #0"


def test_non_ascii_titles_and_names_survive_the_trip(tmp_path: Path) -> None:
    client = Client(Store(tmp_path / "a"))
    client.new_key("a")
    client.new_key("b")
    game_id, made = client.new_game("toy-dice", "a", {"a": "a", "b": "b"}, "Götterdämmerung ⚔")
    game = client.game(game_id)
    message = compose(game, made, sender="zoe@example.org", sender_name="Zoë", to="x@example.org")
    raw = message.as_bytes()
    raw.decode("ascii")  # headers and body are encoded for any mail server
    back = parsed(message)
    assert back["Subject"] == f"[pbem] Götterdämmerung ⚔ {game_id[:8]} #{made[-1].seq}"
    assert back["From"].addresses[0].display_name == "Zoë"
    assert "Götterdämmerung ⚔ (Toy dice)" in back.get_content()
    assert read_entries(raw) == wire(made)


def test_the_summary_shows_dice_where_they_were_rolled(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    first = duo.step()  # a rolls: its dice wait for b's next entry
    second = duo.step()  # b rolls: its reveal rolls a's dice
    game = duo.a.game(duo.game_id)
    lines = summary_lines(game, [first])
    assert lines[0] == f"game {duo.game_id[:8]} seq {first.seq} by a: roll"
    assert lines[1:] == [f"    (its dice were rolled by seq {second.seq})"]
    lines = summary_lines(game, [second])
    rolled = [r.line() for r in game.rng_log if r.requesting_seq == first.seq]
    assert rolled and all(f"      {line}" in lines for line in rolled)
    assert f"    rolls the dice of seq {first.seq} by a: roll" in lines
    assert any(line.startswith("      - a rolls ") for line in lines)
    assert "    (its dice wait for the next entry of another role)" in lines
    assert "Now: waiting for a." in body_text(game, [second])


def test_the_summary_never_shows_a_sealed_value(tmp_path: Path) -> None:
    duo = Duo(tmp_path, "toy-bid")
    bid = duo.a.move(duo.game_id, "bid 7 odd")
    game = duo.a.game(duo.game_id)
    message = compose(game, [bid], sender="a@example.org", to="b@example.org")
    text = parsed(message).get_content()
    assert f"seq {bid.seq} by a: bid odd" in text
    assert "bid 7" not in text
    opening = duo.a.sealed_opening(duo.game_id, "a", "bid/a/1")
    for value in (duo.a.chain_seed(duo.game_id, "a").hex(), opening.salt):
        assert value not in text  # no seed, no salt
    assert read_entries(message.as_bytes()) == wire([bid])


def test_bad_addresses_and_no_entries_are_refused(tmp_path: Path) -> None:
    table = Table("toy-dice")
    for bad in ("nobody", "a b@example.org", "a@example.org\nBcc: x@example.org", "@x.org"):
        with pytest.raises(ComposeError):
            compose(table.game, [table.genesis], sender="a@example.org", to=bad)
    with pytest.raises(ComposeError):
        compose(table.game, [], sender="a@example.org", to="b@example.org")


def test_damaged_ids_in_the_thread_are_left_out() -> None:
    thread = ["<root@x>", "<bad\nBcc: someone@x>", "<a b@x>", "<ok@x>", ""]
    assert thread_headers(thread) == ("<ok@x>", "<root@x> <ok@x>")
