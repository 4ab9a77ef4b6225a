"""`pbem mail fetch` over Maildir and mbox mailboxes written by Python's `mailbox` module.

The game is real: a toy-dice game between two Client stores (tests.support.players.Duo).
The fetching store is player a's second store ("the laptop"): it holds a copy of a's
private key, starts empty, and learns the game only from mail, so any sequence of
the game's entries can arrive in any order. Messages are real RFC 5322 messages with
the move-file text as body, some quoted-printable, one base64, one a quoting reply.
"""

from __future__ import annotations

import mailbox
import re
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.cli import main
from pbem.client import Client
from pbem.core.canonical import JSON, canonical_bytes
from pbem.core.log import MOVE, Entry
from pbem.crypto.keys import PrivateKey
from pbem.ledger import replay
from pbem.mail.fetch import APPLIED, NO_ENTRIES, REFUSED, WAITING, Fetcher, fetch_messages
from pbem.store import Store
from pbem.transport.armor import armor
from pbem.transport.savefile import move_file
from tests.support.players import Duo, sign_entry, store_dump

# --- a game, a reader store, and messages -----------------------------------------------------


@dataclass
class World:
    duo: Duo
    home: Path  # the fetching store's home
    reader: Client
    entries: list[Entry]  # every entry of the game, seq order

    @property
    def game(self) -> str:
        return self.duo.game_id

    @property
    def short(self) -> str:
        return self.duo.game_id[:12]

    def seqs(self) -> list[int]:
        return [int(r["seq"]) for r in self.reader.store.entries(self.game)]

    def inbox(self) -> list[int]:
        return [int(r["seq"]) for r in self.reader.store.buffered(self.game)]


@pytest.fixture
def world(tmp_path: Path) -> World:
    duo = Duo(tmp_path / "players")
    for _ in range(4):  # entries 3..6
        duo.step()
    home = tmp_path / "laptop"
    reader = Client(Store(home))
    reader.import_key("a", tmp_path / "players" / "a" / "keys" / "a")
    entries = list(duo.a.game(duo.game_id).entries)
    assert [e.seq for e in entries] == list(range(7))
    return World(duo, home, reader, entries)


_counter = iter(range(10**6))


def message(
    entries: list[Entry],
    subject: str = "my move",
    cte: str | None = None,
    preface: str = "Hi, here is my move.\n\n",
    body: str | None = None,
) -> EmailMessage:
    mail = EmailMessage()
    number = next(_counter)
    mail["From"] = "b@example.org"
    mail["To"] = "a@example.org"
    mail["Subject"] = f"[pbem] {subject}"
    mail["Message-ID"] = f"<move-{number}@example.org>"
    text = body if body is not None else preface + move_file(entries)
    if cte:
        mail.set_content(text, cte=cte)
    else:
        mail.set_content(text)
    return mail


def write_maildir(path: Path, messages: list[EmailMessage]) -> list[str]:
    """Deliver the messages into new/, in order; their keys."""
    box = mailbox.Maildir(str(path), create=True)
    return [box.add(mail) for mail in messages]


def write_mbox(path: Path, messages: list[EmailMessage]) -> None:
    box = mailbox.mbox(str(path), create=True)
    box.lock()
    for mail in messages:
        box.add(mail)
    box.flush()
    box.unlock()
    box.close()


def maildir_snapshot(path: Path) -> dict[str, bytes]:
    """Every file of the Maildir (new/, cur/, tmp/) by relative path: bytes and place."""
    return {
        str(f.relative_to(path)): f.read_bytes() for f in sorted(path.rglob("*")) if f.is_file()
    }


def fetch(home: Path, *args: str) -> Result:
    return CliRunner().invoke(
        main, ["--home", str(home), "mail", "fetch", *args], catch_exceptions=False
    )


def lines(result: Result) -> list[str]:
    return result.stdout.splitlines()


def tampered(entry: Entry) -> str:
    """The entry's armor with its decision changed and its old signature kept."""
    data = dict(entry.data)
    data["body"] = {"decision": "roll twice"}
    return armor(canonical_bytes(data), entry.signature)


def resigned(entry: Entry, key: PrivateKey, **changes: JSON) -> Entry:
    """The entry with some fields changed, signed by `key`."""
    return sign_entry(key, {**entry.data, **changes})


# --- in order, out of order, across runs ------------------------------------------------------


def test_messages_in_order_are_applied_and_the_maildir_is_untouched(
    world: World, tmp_path: Path
) -> None:
    e = world.entries
    path = tmp_path / "Maildir"
    write_maildir(
        path,
        [
            message(e[0:3], "new game", cte="quoted-printable"),
            message(e[3:4], cte="quoted-printable"),
            message(e[4:5], cte="base64"),
            # A reply quoting the previous move (already had) above the new one.
            message(
                [],
                body="> "
                + move_file(e[4:5]).replace("\n", "\n> ")
                + "\n\nmine:\n"
                + move_file(e[5:6]),
            ),
            message(e[6:7]),
        ],
    )
    before = maildir_snapshot(path)

    result = fetch(world.home, "--maildir", str(path))

    assert result.exit_code == 0, result.output
    out = lines(result)
    assert len(out) == 5
    assert re.fullmatch(
        rf'<move-\d+@example\.org> "\[pbem\] new game": applied game {world.short} seqs 0-2',
        out[0],
    )
    assert out[1].endswith(f"applied game {world.short} seqs 3")
    assert out[2].endswith(f"applied game {world.short} seqs 4")
    assert out[3].endswith(
        f"applied game {world.short} seqs 5; already had game {world.short} seqs 4"
    )
    assert out[4].endswith(f"applied game {world.short} seqs 6")
    assert world.seqs() == list(range(7))
    # The reader's store now replays the same game as the players'.
    assert world.reader.game(world.game).head.id == world.entries[-1].id
    # Nothing moved from new/ to cur/, no flag added, no byte changed.
    assert maildir_snapshot(path) == before
    thread = world.reader.store.mail_thread(world.game)
    assert [(r["direction"], r["first_seq"], r["last_seq"]) for r in thread] == [
        ("in", 0, 2),
        ("in", 3, 3),
        ("in", 4, 4),
        ("in", 4, 5),
        ("in", 6, 6),
    ]


def test_out_of_order_messages_wait_in_the_store_until_the_gap_arrives(
    world: World, tmp_path: Path
) -> None:
    e = world.entries
    path = tmp_path / "in.mbox"
    write_mbox(
        path,
        [message(e[0:3]), message(e[5:6]), message(e[4:5]), message(e[3:4]), message(e[6:7])],
    )
    before = path.read_bytes()

    reports = []
    box = mailbox.mbox(str(path), create=False)
    fetcher = Fetcher(world.reader)
    for key in box.iterkeys():
        report = fetcher.process(str(key), box.get_bytes(key))
        reports.append((report.status, report.outcome()))
        if report.status == WAITING:
            assert world.inbox(), "a waiting entry is kept in the store"
    box.close()

    # As they were processed: 5 and 4 wait for 3; 3 brings 4 and 5 along; 6 follows.
    assert reports[1] == (WAITING, f"waiting for entry 3 of game {world.short} (holding 5)")
    assert reports[2] == (WAITING, f"waiting for entry 3 of game {world.short} (holding 4)")
    assert reports[3] == (
        APPLIED,
        f"applied game {world.short} seqs 3; and held entries 4-5 of game {world.short} "
        "from earlier mail",
    )
    assert reports[4][0] == APPLIED
    # In the end every message is used: the waiting ones are now applied too.
    assert [r.status for r in fetcher.reports] == [APPLIED] * 5
    assert all(r.fully_used for r in fetcher.reports)
    assert fetcher.reports[1].outcome() == f"applied game {world.short} seqs 5"
    assert not fetcher.refused
    assert world.seqs() == list(range(7))
    assert world.inbox() == []
    assert path.read_bytes() == before
    recorded = {r["message_id"] for r in world.reader.store.mail_thread(world.game)}
    assert recorded == {r.message_id for r in fetcher.reports}


def test_a_gap_filled_in_a_later_fetch(world: World, tmp_path: Path) -> None:
    e = world.entries
    first, second = tmp_path / "first", tmp_path / "second"
    write_maildir(first, [message(e[0:3]), message(e[4:5]), message(e[5:7])])
    write_maildir(second, [message(e[3:4], "the lost one")])

    result = fetch(world.home, "--maildir", str(first))
    assert result.exit_code == 0, result.output
    out = lines(result)
    assert out[1].endswith(f"waiting for entry 3 of game {world.short} (holding 4)")
    assert out[2].endswith(f"waiting for entry 3 of game {world.short} (holding 5-6)")
    assert world.seqs() == [0, 1, 2]
    assert world.inbox() == [4, 5, 6]

    result = fetch(world.home, "--maildir", str(second))
    assert result.exit_code == 0, result.output
    assert lines(result)[0].endswith(
        f"applied game {world.short} seqs 3; and held entries 4-6 of game {world.short} "
        "from earlier mail"
    )
    assert world.seqs() == list(range(7))
    assert world.inbox() == []

    # Fetching the first mailbox again: everything is already had.
    result = fetch(world.home, "--maildir", str(first))
    assert result.exit_code == 0, result.output
    assert [line.split(": ", 1)[1] for line in lines(result)] == [
        f"already had (game {world.short} seqs 0-2)",
        f"already had (game {world.short} seqs 4)",
        f"already had (game {world.short} seqs 5-6)",
    ]


def test_fetching_twice_changes_nothing_the_second_time(world: World, tmp_path: Path) -> None:
    path = tmp_path / "in.mbox"
    write_mbox(path, [message(world.entries[0:4]), message(world.entries[4:7])])
    assert fetch(world.home, "--mbox", str(path)).exit_code == 0
    store_before = store_dump(world.reader.store)

    result = fetch(world.home, "--mbox", str(path))

    assert result.exit_code == 0, result.output
    assert all(": already had (" in line for line in lines(result))
    assert store_dump(world.reader.store) == store_before


# --- refusals ---------------------------------------------------------------------------------


def test_a_tampered_entry_refuses_its_whole_message_and_nothing_else(
    world: World, tmp_path: Path
) -> None:
    e = world.entries
    good_start = message(e[0:3])
    bad = message(
        [], "tampered", body=move_file(e[3:4]) + "\n" + tampered(e[4]), cte="quoted-printable"
    )
    damaged_text = move_file(e[5:6])
    payload_line = damaged_text.splitlines()[3]
    flipped = payload_line[:10] + ("A" if payload_line[10] != "A" else "B") + payload_line[11:]
    damaged = message([], "damaged", body=damaged_text.replace(payload_line, flipped))
    later = message(e[3:4], "the same move again")
    path = tmp_path / "in.mbox"
    write_mbox(path, [good_start, bad, damaged, later])
    before = path.read_bytes()

    result = fetch(world.home, "--mbox", str(path))

    assert result.exit_code == 1
    out = lines(result)
    assert out[0].endswith("applied game " + world.short + " seqs 0-2")
    assert ": refused: entry 4 by b refused: " in out[1]
    assert "signature" in out[1]
    assert ": refused: " in out[2]
    # The good entry 3 of the refused message was not kept: the next message brings it.
    assert out[3].endswith(f"applied game {world.short} seqs 3")
    assert world.seqs() == [0, 1, 2, 3]
    assert path.read_bytes() == before
    recorded = [r["message_id"] for r in world.reader.store.mail_thread(world.game)]
    assert str(bad["Message-ID"]) not in recorded and str(damaged["Message-ID"]) not in recorded


def test_a_refused_message_leaves_the_store_exactly_as_it_was(world: World, tmp_path: Path) -> None:
    e = world.entries
    start = tmp_path / "start.mbox"
    write_mbox(start, [message(e[0:3])])
    assert fetch(world.home, "--mbox", str(start)).exit_code == 0
    before = store_dump(world.reader.store)
    bad = tmp_path / "bad.mbox"
    write_mbox(bad, [message([], body=move_file(e[3:4]) + "\n" + tampered(e[4]))])

    result = fetch(world.home, "--mbox", str(bad))

    assert result.exit_code == 1
    assert store_dump(world.reader.store) == before


def test_entries_of_an_unknown_game(world: World, tmp_path: Path) -> None:
    other = Duo(tmp_path / "others")  # a game between strangers: none of our keys
    move = other.step()
    genesis = other.a.game(other.game_id).entries[0]
    path = tmp_path / "Maildir"
    write_maildir(path, [message([move]), message([genesis]), message(world.entries[0:3])])
    before = maildir_snapshot(path)

    result = fetch(world.home, "--maildir", str(path))

    assert result.exit_code == 1
    out = lines(result)
    assert out[0].endswith(
        f"refused: entry 3 by a belongs to game {other.game_id[:12]}, unknown here"
    )
    assert out[1].endswith(
        f"refused: unknown game {other.game_id[:12]}: its genesis names none of this store's keys"
    )
    assert out[2].endswith("applied game " + world.short + " seqs 0-2")
    assert not world.reader.store.has_game(other.game_id)
    assert maildir_snapshot(path) == before


def test_entries_signed_by_an_unknown_key_are_refused_not_held(
    world: World, tmp_path: Path
) -> None:
    e = world.entries
    stranger = PrivateKey(Ed25519PrivateKey.generate(), "stranger")
    now = resigned(e[3], stranger)  # signed as a, by someone else: due now
    early = resigned(e[5], stranger)  # the same for an entry that would be held
    not_a_role = resigned(e[6], stranger, by="c")
    path = tmp_path / "in.mbox"
    write_mbox(
        path,
        [message(e[0:3]), message([now]), message([early]), message([not_a_role])],
    )

    reports = fetch_messages(world.reader, _mbox_items(path))

    assert [r.status for r in reports] == [APPLIED, REFUSED, REFUSED, REFUSED]
    signed_by = f"signed by {stranger.public.fingerprint()}, expected "
    assert reports[1].refusal is not None
    assert reports[1].refusal.startswith("entry 3 by a refused: " + signed_by)
    assert reports[2].refusal is not None
    assert reports[2].refusal.startswith("entry 5 by a refused: " + signed_by)
    assert reports[3].refusal == f"entry 6 by c refused: 'c' is not a role of game {world.short}"
    assert world.seqs() == [0, 1, 2]
    assert world.inbox() == []  # nothing from a stranger waits in the store


def test_a_held_entry_that_fails_when_its_turn_comes_is_refused(
    world: World, tmp_path: Path
) -> None:
    e = world.entries
    # Validly signed by a, but not on this log: it can only be checked once 4 is in.
    off_chain = resigned(e[5], world.duo.key("a"), prev="0" * 64)
    path = tmp_path / "in.mbox"
    write_mbox(path, [message(e[0:4]), message([off_chain], "early"), message(e[4:5])])

    result = fetch(world.home, "--mbox", str(path))

    assert result.exit_code == 1
    out = lines(result)
    reason = "entry 5 by a refused: does not follow the head: expected seq 5 after "
    assert f": refused: {reason}" in out[1]
    assert f"applied game {world.short} seqs 4; held {reason}" in out[2]
    assert world.seqs() == [0, 1, 2, 3, 4]
    assert world.inbox() == []
    # The true entry 5 is still welcome.
    write_mbox(tmp_path / "later.mbox", [message(e[5:7])])
    assert fetch(world.home, "--mbox", str(tmp_path / "later.mbox")).exit_code == 0
    assert world.seqs() == list(range(7))


def test_an_illegal_move_is_refused(world: World, tmp_path: Path) -> None:
    e = world.entries
    b = world.duo.b
    # b signs a move of its own at seq 3, with its true reveal, but the game asks a.
    at_seq_2 = replay(e[0:3])
    fields = b._next_fields(at_seq_2, MOVE, "b")
    fields["body"] = {"decision": "roll"}
    out_of_turn = b._sign(fields, at_seq_2.roles["b"])
    path = tmp_path / "in.mbox"
    write_mbox(path, [message(e[0:3]), message([out_of_turn])])

    reports = fetch_messages(world.reader, _mbox_items(path))

    assert reports[1].status == REFUSED
    assert reports[1].refusal == "entry 3 by b refused: out of turn: the game asks a, not b"
    assert world.seqs() == [0, 1, 2]


def test_a_replayed_old_entry_is_already_had_and_a_changed_one_is_an_equivocation(
    world: World, tmp_path: Path
) -> None:
    e = world.entries
    path = tmp_path / "in.mbox"
    changed = resigned(e[3], world.duo.key("a"), body={"decision": "roll twice"})
    write_mbox(
        path,
        [message(e[0:7]), message(e[3:4], "replayed"), message([changed], "rewritten")],
    )

    result = fetch(world.home, "--mbox", str(path))

    assert result.exit_code == 1
    out = lines(result)
    assert out[1].endswith(f"already had (game {world.short} seqs 3)")
    assert "refused: EQUIVOCATION: role a (" in out[2]
    assert f"signed two different entries for game {world.game} seq 3" in out[2]
    # The full proof follows the report, for the referee.
    assert result.stdout.count("BEGIN PBEM ENTRY") == 2
    assert world.seqs() == list(range(7))


def test_a_message_without_entries_is_left_alone(world: World, tmp_path: Path) -> None:
    path = tmp_path / "Maildir"
    plain = EmailMessage()
    plain["Subject"] = "lunch?"
    plain["Message-ID"] = "<lunch@example.org>"
    plain.set_content("Shall we meet on Friday?\n")
    write_maildir(path, [plain])
    before = maildir_snapshot(path)

    result = fetch(world.home, "--maildir", str(path), "--delete-applied")

    assert result.exit_code == 0, result.output
    assert lines(result) == ['<lunch@example.org> "lunch?": no pbem entries']
    assert maildir_snapshot(path) == before
    assert fetch_messages(world.reader, [("k", bytes(plain))])[0].status == NO_ENTRIES


# --- deleting -----------------------------------------------------------------------------------


def _mixed(world: World) -> tuple[list[EmailMessage], list[bool]]:
    """Messages and whether each will be fully used (so deleted with --delete-applied)."""
    e = world.entries
    plain = EmailMessage()
    plain["Subject"] = "hello"
    plain.set_content("no moves here\n")
    messages = [
        (message(e[0:3]), True),  # applied
        (message(e[5:6]), False),  # waits for 4, which never comes
        (plain, False),  # not a pbem message
        (message(e[3:4]), True),  # applied
        (message([], body=tampered(e[4])), False),  # refused
        (message(e[2:4]), True),  # already had
    ]
    return [m for m, _ in messages], [used for _, used in messages]


def test_delete_applied_removes_only_fully_used_maildir_messages(
    world: World, tmp_path: Path
) -> None:
    path = tmp_path / "Maildir"
    messages, used = _mixed(world)
    keys = write_maildir(path, messages)
    box = mailbox.Maildir(str(path), create=False)
    kept = {k: box.get_bytes(k) for k, u in zip(keys, used, strict=True) if not u}

    result = fetch(world.home, "--maildir", str(path), "--delete-applied")

    assert result.exit_code == 1  # the tampered message
    assert lines(result)[-1] == "deleted 3 messages"
    after = mailbox.Maildir(str(path), create=False)
    assert {k: after.get_bytes(k) for k in after.iterkeys()} == kept


def test_delete_applied_removes_only_fully_used_mbox_messages(world: World, tmp_path: Path) -> None:
    path = tmp_path / "in.mbox"
    messages, used = _mixed(world)
    write_mbox(path, messages)
    box = mailbox.mbox(str(path), create=False)
    kept = [box.get_bytes(k) for k, u in zip(box.iterkeys(), used, strict=True) if not u]
    box.close()

    result = fetch(world.home, "--mbox", str(path), "--delete-applied")

    assert result.exit_code == 1
    assert lines(result)[-1] == "deleted 3 messages"
    after = mailbox.mbox(str(path), create=False)
    assert [after.get_bytes(k) for k in after.iterkeys()] == kept
    after.close()
    assert world.seqs() == [0, 1, 2, 3]
    assert world.inbox() == [5]


def test_without_delete_applied_nothing_is_deleted(world: World, tmp_path: Path) -> None:
    path = tmp_path / "in.mbox"
    messages, _used = _mixed(world)
    write_mbox(path, messages)
    before = path.read_bytes()

    result = fetch(world.home, "--mbox", str(path))

    assert result.exit_code == 1
    assert "deleted" not in result.stdout
    assert path.read_bytes() == before


# --- the command ---------------------------------------------------------------------------------


def test_the_player_fetches_the_opponents_move_from_the_configured_maildir(
    tmp_path: Path,
) -> None:
    """Player a's own store: b's move arrives by mail, then a moves on."""
    duo = Duo(tmp_path)
    duo.send([duo.a.move(duo.game_id, "roll")], duo.b)
    reply = duo.b.move(duo.game_id, "roll")
    path = tmp_path / "Maildir"
    write_maildir(path, [message([reply], cte="quoted-printable")])
    home = tmp_path / "a"
    (home / "mail.toml").write_text(f'[maildir]\npath = "{path}"\n')

    result = fetch(home, "--delete-applied")

    assert result.exit_code == 0, result.output
    assert lines(result)[0].endswith(f"applied game {duo.game_id[:12]} seqs 4")
    assert lines(result)[1] == "deleted 1 message"
    assert list(mailbox.Maildir(str(path), create=False).keys()) == []
    assert duo.a.move(duo.game_id, "roll").seq == 5


def test_usage_errors_are_one_line(world: World, tmp_path: Path) -> None:
    result = fetch(world.home, "--maildir", str(tmp_path / "nowhere"))
    assert result.exit_code == 1
    assert (
        result.stderr.strip()
        == f"error: {tmp_path / 'nowhere'} is not a Maildir (it needs cur/ and new/)"
    )
    result = fetch(world.home, "--mbox", str(tmp_path / "a.mbox"), "--maildir", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: choose one of --imap, --maildir and --mbox"
    result = fetch(world.home)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no mail configuration at ")
    assert len(result.stderr.splitlines()) == 1
    (world.home / "mail.toml").write_text('address = "a@example.org"\n')
    result = fetch(world.home, "--imap")
    assert result.stderr.strip() == f"error: {world.home / 'mail.toml'} has no [imap] server"


# --- helpers ----------------------------------------------------------------------------------


def _mbox_items(path: Path) -> Iterator[tuple[str, bytes]]:
    box = mailbox.mbox(str(path), create=False)
    try:
        for key in box.iterkeys():
            yield str(key), box.get_bytes(key)
    finally:
        box.close()
