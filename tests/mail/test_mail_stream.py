"""The streamed reading of a mail of moves (pbem.mail.stream) and its use by `pbem mail
fetch`: the same entries as the whole-mail reader, or a fall back to it; the same
report lines; nothing kept of a mail refused half way through.

Receipts keep their seqs as runs (pbem.inbox.Seqs): it behaves as the list it replaces.
"""

from __future__ import annotations

import random
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.inbox import Inbox, Seqs, by_game, seq_ranges
from pbem.mail import stream
from pbem.transport.message import one_line, parse_message, parse_message_wire
from pbem.transport.savefile import move_file
from tests.mail import test_mail_fetch as fetch_tests
from tests.mail.test_mail_fetch import World, fetch, lines, message, tampered, write_mbox
from tests.support.players import store_dump

world = fetch_tests.world  # (the fixture: a game, and the store that fetches its mail)

# --- the reader: the whole-mail reader's entries, or Unstreamable -----------------------------


def _streamed_or_none(raw: bytes) -> list[bytes] | None:
    try:
        return [entry.canonical for entry in stream.entries(raw)]
    except stream.Unstreamable:
        return None


def _mails(world: World) -> dict[str, bytes]:
    """Mails of many shapes, by name, as raw bytes."""
    e = world.entries
    text = move_file(e[0:4])
    mails: dict[str, bytes] = {
        "plain": bytes(message(e[0:4])),
        "qp": bytes(message(e[0:4], cte="quoted-printable")),
        "base64": bytes(message(e[0:4], cte="base64")),
        "8bit utf-8 preface": bytes(message(e[0:4], preface="Voilà mon coup.\n\n", cte="8bit")),
        "quoted reply": bytes(message([], body="> " + text.replace("\n", "\n> "))),
        "no entries": bytes(message([], body="Shall we meet on Friday?\n")),
        "out of order": bytes(message([], body=move_file(e[2:4]) + move_file(e[0:2]))),
        "a copy twice": bytes(message([], body=move_file(e[0:3]) + move_file(e[2:4]))),
        "a body that starts as a mail": bytes(
            message([], body="From: b@example.org\nSubject: fwd\n\n" + text)
        ),
        "a body that starts as a page": bytes(message([], body="<div>\n" + text)),
    }
    crlf = mails["plain"].replace(b"\n", b"\r\n")
    mails["crlf"] = crlf
    head, _, body = mails["plain"].partition(b"\n\n")
    mails["bom before the body"] = head + b"\n\n\xef\xbb\xbf" + body
    mails["bom before the headers"] = b"\xef\xbb\xbf" + mails["plain"]
    mails["latin-1"] = head.replace(b"utf-8", b"latin-1") + b"\n\n" + body
    mails["no header block"] = body
    mails["folded content type"] = (
        head.replace(b'Content-Type: text/plain; charset="utf-8"', b"Content-Type:\n text/plain")
        + b"\n\n"
        + body
    )
    html = EmailMessage()
    html["Subject"] = "html"
    html.set_content(text)
    html.add_alternative("<p>" + text.replace("\n", "<br>") + "</p>", subtype="html")
    mails["multipart"] = bytes(html)
    damaged = text.splitlines()
    line = damaged[3]
    damaged[3] = line[:10] + ("A" if line[10] != "A" else "B") + line[11:]
    mails["damaged"] = bytes(message([], body="\n".join(damaged) + "\n"))
    mails["tampered"] = bytes(message([], body=move_file(e[0:2]) + tampered(e[2])))
    return mails


def test_a_streamed_mail_gives_the_whole_mail_readers_entries(world: World) -> None:
    taken = set()
    for name, raw in _mails(world).items():
        found = _streamed_or_none(raw)
        try:
            whole = [entry.canonical for entry in parse_message(raw)]
        except PbemError:
            assert found is None, name  # (a mail refused whole is never streamed)
            continue
        if found is not None:
            taken.add(name)
            assert found == whole, name
    # The mails pbem writes are streamed (and a few others as simple).
    assert {"plain", "8bit utf-8 preface", "no entries", "a copy twice", "tampered"} <= taken
    # What the stream does not vouch for is read whole.
    assert not taken & {"qp", "base64", "multipart", "out of order", "latin-1", "quoted reply"}
    assert not taken & {"bom before the body", "bom before the headers", "no header block"}
    assert not taken & {"a body that starts as a mail", "a body that starts as a page"}


def test_the_stream_refuses_a_mail_of_more_entries_than_a_mail_may_carry(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = bytes(message(world.entries[0:4]))
    monkeypatch.setattr(stream, "MAX_ENTRIES", 3)
    with pytest.raises(stream.Unstreamable):
        list(stream.entries(raw))


# --- fetch: the streamed path ------------------------------------------------------------------


def test_the_mails_pbem_sends_are_fetched_without_the_whole_mail_reader(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def whole(raw: bytes) -> None:
        raise AssertionError("read whole")

    monkeypatch.setattr("pbem.mail.fetch.parse_message_wire", whole)
    e = world.entries
    path = tmp_path / "in.mbox"
    write_mbox(path, [message(e[0:4]), message(e[2:7])])

    result = fetch(world.home, "--mbox", str(path), "--no-auto")

    assert result.exit_code == 0, result.output
    out = lines(result)
    assert out[0].endswith(f"applied game {world.short} seqs 0-3")
    assert out[1].endswith(
        f"applied game {world.short} seqs 4-6; already had game {world.short} seqs 2-3"
    )
    assert world.seqs() == list(range(7))


def test_a_mail_damaged_in_the_middle_is_refused_whole_with_one_line(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    e = world.entries
    start = tmp_path / "start.mbox"
    write_mbox(start, [message(e[0:2])])
    assert fetch(world.home, "--mbox", str(start), "--no-auto").exit_code == 0
    before = store_dump(world.reader.store)
    # Entries 0-6 in one plain mail, the sixth block damaged: the stream reads, checks and
    # applies 2-4 (0 and 1 already had) before it meets the damage.
    text = move_file(e[0:7]).splitlines(keepends=True)
    begins = [n for n, line in enumerate(text) if line.startswith("-----BEGIN")]
    line = text[begins[5] + 2]
    text[begins[5] + 2] = line[:10] + ("A" if line[10] != "A" else "B") + line[11:]
    damaged = message([], "damaged", body="".join(text))
    raw = bytes(damaged)
    with pytest.raises(PbemError) as whole_error:
        parse_message_wire(raw)
    applied: list[int] = []
    taken = Inbox._one

    def spy(self: Inbox, receipt, game, entry) -> None:  # type: ignore[no-untyped-def]
        applied.append(entry.seq)
        taken(self, receipt, game, entry)

    monkeypatch.setattr(Inbox, "_one", spy)
    path = tmp_path / "damaged.mbox"
    write_mbox(path, [damaged])

    result = fetch(world.home, "--mbox", str(path), "--no-auto")

    assert result.exit_code == 1
    assert applied[:4] == [1, 2, 3, 4]  # (the stream got that far; 0 is the genesis)
    assert lines(result) == [
        f'{damaged["Message-ID"]} "[pbem] damaged": refused: {one_line(str(whole_error.value))}'
    ]
    assert store_dump(world.reader.store) == before
    # The next fetch of a good mail goes on from the same store.
    good = tmp_path / "good.mbox"
    write_mbox(good, [message(e[2:7])])
    assert fetch(world.home, "--mbox", str(good), "--no-auto").exit_code == 0
    assert world.seqs() == list(range(7))


def test_a_refused_streamed_mail_gives_the_whole_mail_readers_line(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tampered entry (a bad signature) after good ones: refused with the line the
    whole-mail reader gives, and nothing of the mail kept."""
    e = world.entries
    bad = message([], "tampered", body=move_file(e[0:3]) + tampered(e[3]))
    later = message(e[0:2], "good")
    path = tmp_path / "in.mbox"
    write_mbox(path, [bad, later])
    before = store_dump(world.reader.store)

    result = fetch(world.home, "--mbox", str(path), "--no-auto")

    monkeypatch.setattr(stream, "body_start", _unstreamable)
    whole_home = tmp_path / "whole"
    from pbem.client import Client
    from pbem.store import Store

    other = Client(Store(whole_home))
    other.import_key("a", tmp_path / "players" / "a" / "keys" / "a")
    whole_result = fetch(whole_home, "--mbox", str(path), "--no-auto")
    assert result.exit_code == whole_result.exit_code == 1
    assert lines(result) == lines(whole_result)
    assert ": refused: entry 3 by " in lines(result)[0]
    assert lines(result)[1].endswith(f"applied game {world.short} seqs 0-1")
    assert before != store_dump(world.reader.store)  # (the good mail was applied)
    assert world.seqs() == [0, 1]


def _unstreamable(raw: bytes) -> None:
    raise stream.Unstreamable("off")


# --- Seqs: a list of (game, seq) kept as runs ----------------------------------------------------


def test_seqs_behave_as_the_list_they_replace() -> None:
    rng = random.Random(29)
    for _round in range(300):
        items: list[tuple[str, int]] = []
        seqs = Seqs()
        for _op in range(rng.randrange(1, 40)):
            item = (rng.choice("gh"), rng.randrange(0, 12))
            action = rng.random()
            if action < 0.6:
                items.append(item)
                seqs.append(item)
            elif action < 0.85:
                if item in items:
                    items.remove(item)
                    seqs.remove(item)
                else:
                    assert item not in seqs
                    with pytest.raises(ValueError):
                        seqs.remove(item)
            else:
                assert (item in seqs) == (item in items)
            assert list(seqs) == items and seqs == items and len(seqs) == len(items)
            assert bool(seqs) == bool(items)
            assert seqs + [("x", 1)] == [*items, ("x", 1)]
            assert [("x", 1)] + seqs == [("x", 1), *items]
            assert seqs.ranges_by_game() == {g: seq_ranges(s) for g, s in by_game(items).items()}
            assert seqs.games() == list(by_game(items))
            for game_id, found in by_game(items).items():
                assert seqs.bounds(game_id) == (min(found), max(found))
            assert seqs.bounds("x") is None
            both = Seqs(items)
            both.extend(seqs)
            both.extend(list(items))
            assert both == items * 3
        seqs.clear()
        assert list(seqs) == [] and not seqs


def test_seqs_of_a_long_mail_are_a_few_runs() -> None:
    seqs = Seqs(("g", seq) for seq in range(100_000))
    assert len(seqs._runs) == 1 and len(seqs) == 100_000
    seqs.remove(("g", 500))
    assert len(seqs._runs) == 2 and ("g", 500) not in seqs and ("g", 501) in seqs
