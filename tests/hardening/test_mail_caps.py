"""A hostile mailbox costs no more to fetch than its size: caps, refused message by message.

Issue 11, item 7. Each attack is a real message in a real Maildir (or on the IMAP server
of tests/mail when dovecot is installed), fetched by `pbem mail fetch` into a real store
between good messages of a real game: the hostile message is refused with one line that
names it, the good ones are applied, and the work done on the hostile one is counted
(MIME parts and header fields the mail parser made, entries decoded), never timed.
bench/hostile_mail.py prints the times.
"""

from __future__ import annotations

import email.feedparser
import email.message
import mailbox
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.client import Client
from pbem.core.log import Entry
from pbem.mail import MAX_MESSAGE_BYTES
from pbem.store import Store
from pbem.transport.message import MAX_ENTRIES
from pbem.transport.mime import MAX_FIELD_CHARS, MAX_HEADER_FIELDS, MAX_PARTS
from pbem.transport.savefile import move_file
from tests.support.players import Duo


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, Duo, list[Entry]]:
    """A toy-dice game between a and b, and a's second store (empty, a's key) to fetch into."""
    duo = Duo(tmp_path / "players")
    duo.step()
    home = tmp_path / "laptop"
    Client(Store(home)).import_key("a", tmp_path / "players" / "a" / "keys" / "a")
    return home, duo, list(duo.a.game(duo.game_id).entries)


def good(number: int, entries: list[Entry]) -> bytes:
    return mail(number, "text/plain; charset=utf-8", move_file(entries))


def mail(number: int, content_type: str, body: str, extra: str = "") -> bytes:
    head = (
        "From: b@example.org\r\nTo: a@example.org\r\n"
        f"Subject: message {number}\r\nMessage-ID: <cap-{number}@example.org>\r\n"
        f"MIME-Version: 1.0\r\n{extra}Content-Type: {content_type}\r\n\r\n"
    )
    return (head + body.replace("\r\n", "\n").replace("\n", "\r\n")).encode()


def many_parts(number: int, parts: int) -> bytes:
    body = "".join(f"--b\nContent-Type: text/plain\n\npart {i}\n" for i in range(parts))
    return mail(number, "multipart/mixed; boundary=b", body + "--b--\n")


def deliver(path: Path, messages: list[bytes]) -> None:
    box = mailbox.Maildir(str(path), create=True)
    for raw in messages:
        box.add(raw)


def fetch(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), "mail", "fetch", *args])


@pytest.fixture
def parts_made(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many MIME parts (messages, nested or not) the mail parser starts."""
    count = [0]
    original = email.feedparser.FeedParser._new_message

    def counting(self: email.feedparser.FeedParser) -> None:
        count[0] += 1
        original(self)

    monkeypatch.setattr(email.feedparser.FeedParser, "_new_message", counting)
    yield count


@pytest.fixture
def fields_read(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many header fields the mail parser adds to the messages it makes."""
    count = [0]
    original = email.message.Message.set_raw

    def counting(self: email.message.Message, name: str, value: str) -> None:
        count[0] += 1
        original(self, name, value)

    monkeypatch.setattr(email.message.Message, "set_raw", counting)
    yield count


def test_a_mail_with_tens_of_thousands_of_parts_is_refused_after_the_cap(
    game: tuple[Path, Duo, list[Entry]], tmp_path: Path, parts_made: list[int]
) -> None:
    home, duo, entries = game
    path = tmp_path / "Maildir"
    deliver(path, [good(1, entries[:3]), many_parts(2, 30_000), good(3, entries[3:])])

    result = fetch(home, "--maildir", str(path))

    assert result.exit_code == 1
    first, hostile, last = result.stdout.splitlines()
    assert first.endswith(f"applied game {duo.game_id[:12]} seqs 0-2")
    assert hostile == (
        f'<cap-2@example.org> "message 2": refused: cannot read this mail: more than '
        f"{MAX_PARTS} MIME parts"
    )
    assert last.endswith(f"applied game {duo.game_id[:12]} seqs 3")
    # Work done: one header-only parse per message (for its report line), the good
    # messages' one part each, and the hostile one's parts up to the cap.
    assert parts_made[0] <= 3 + 2 + MAX_PARTS + 1


def test_parts_nested_deep_are_refused_at_the_same_cap(
    game: tuple[Path, Duo, list[Entry]], tmp_path: Path, parts_made: list[int]
) -> None:
    home, _duo, _entries = game
    body = "x\n"
    for level in range(5_000):
        body = (
            f"Content-Type: multipart/mixed; boundary=n{level}\n\n--n{level}\n{body}--n{level}--\n"
        )
    path = tmp_path / "Maildir"
    deliver(path, [b"From: b@example.org\r\nMessage-ID: <deep@example.org>\r\n" + body.encode()])

    result = fetch(home, "--maildir", str(path))

    assert result.exit_code == 1
    assert result.stdout.strip() == (
        f"<deep@example.org>: refused: cannot read this mail: more than {MAX_PARTS} MIME parts"
    )
    assert parts_made[0] <= 1 + MAX_PARTS + 1


def test_a_mail_with_tens_of_thousands_of_header_fields_is_refused(
    game: tuple[Path, Duo, list[Entry]], tmp_path: Path, fields_read: list[int]
) -> None:
    home, duo, entries = game
    # (A header block must fit in the first 256 KiB for the text to be read as a mail.)
    fields = "".join(f"X-Filler-{i}: y\r\n" for i in range(10_000))
    hostile = mail(2, "text/plain", move_file(entries[:3]), extra=fields)
    path = tmp_path / "Maildir"
    deliver(path, [hostile, good(3, entries[:3])])

    result = fetch(home, "--maildir", str(path))

    assert result.exit_code == 1
    hostile_line, last = result.stdout.splitlines()
    assert hostile_line == (
        f'<cap-2@example.org> "message 2": refused: cannot read this mail: more than '
        f"{MAX_HEADER_FIELDS} header fields"
    )
    assert last.endswith(f"applied game {duo.game_id[:12]} seqs 0-2")
    # The report line reads a bounded prefix of the headers; the parser stops at the cap.
    assert fields_read[0] < 10_000 // 2


def test_a_content_type_of_tens_of_thousands_of_parameters_is_refused_unread(
    game: tuple[Path, Duo, list[Entry]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a header's parameters costs more than in proportion to its length: no field
    longer than MAX_FIELD_CHARS is ever read for them."""
    home, _duo, _entries = game
    read: list[int] = []
    original = email.message._parseparam  # type: ignore[attr-defined]

    def counting(value: str) -> list[str]:
        read.append(len(value))
        return original(value)  # type: ignore[no-any-return]

    monkeypatch.setattr(email.message, "_parseparam", counting)
    params = "; p=v" * 40_000
    path = tmp_path / "Maildir"
    deliver(path, [mail(2, f"text/plain{params}", "hello\n")])

    result = fetch(home, "--maildir", str(path))

    assert result.exit_code == 1
    assert result.stdout.strip() == (
        f'<cap-2@example.org> "message 2": refused: cannot read this mail: a header field is '
        f"longer than {MAX_FIELD_CHARS} characters"
    )
    assert all(length <= MAX_FIELD_CHARS for length in read)


def test_a_subject_of_thousands_of_encoded_words_is_read_in_proportion(
    game: tuple[Path, Duo, list[Entry]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The header parser of the `default` policy decodes encoded words at a cost that grows
    with the square of their number: only a bounded prefix of a header is decoded."""
    import email.headerregistry

    home, _duo, _entries = game
    decoded: list[int] = []
    original = email.headerregistry.UnstructuredHeader.parse.__func__  # type: ignore[attr-defined]

    def counting(cls: type, value: str, kwds: dict[str, object]) -> None:
        decoded.append(len(value))
        original(cls, value, kwds)

    monkeypatch.setattr(email.headerregistry.UnstructuredHeader, "parse", classmethod(counting))
    words = " ".join(["=?utf-8?q?a?="] * 50_000)
    path = tmp_path / "Maildir"
    deliver(path, [mail(2, "text/plain", "hello\n").replace(b"message 2", words.encode())])

    result = fetch(home, "--maildir", str(path))

    assert result.exit_code == 0
    assert result.stdout.strip().endswith(": no pbem entries")
    assert decoded and max(decoded) <= 4096


def test_a_message_over_the_size_cap_is_refused_unread(
    game: tuple[Path, Duo, list[Entry]], tmp_path: Path, parts_made: list[int]
) -> None:
    home, duo, entries = game
    padding = ("pad " * 25 + "\n") * (MAX_MESSAGE_BYTES // 100 + 1)
    path = tmp_path / "Maildir"
    deliver(path, [mail(2, "text/plain", move_file(entries[:3]) + "\n" + padding)])
    deliver(path, [good(3, entries[:3])])

    result = fetch(home, "--maildir", str(path))

    assert result.exit_code == 1
    hostile, last = sorted(result.stdout.splitlines())
    assert hostile == (
        f'<cap-2@example.org> "message 2": refused: the message is over '
        f"{MAX_MESSAGE_BYTES // 2**20} MiB, more than a mail of moves may have (save it and "
        "use `pbem apply FILE`)"
    )
    assert last.endswith(f"applied game {duo.game_id[:12]} seqs 0-2")
    assert parts_made[0] <= 3  # the good message, and the big one's headers only


def test_a_message_with_too_many_entries_is_refused_before_any_is_checked(
    game: tuple[Path, Duo, list[Entry]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, duo, entries = game
    decoded = [0]
    original = Entry.from_wire

    def counting(canonical: bytes, signature: bytes) -> Entry:
        decoded[0] += 1
        return original(canonical, signature)

    monkeypatch.setattr(Entry, "from_wire", staticmethod(counting))
    flood = "\n".join([move_file(entries[:1])] * (MAX_ENTRIES + 1))
    assert len(flood) < MAX_MESSAGE_BYTES
    path = tmp_path / "Maildir"
    deliver(path, [mail(2, "text/plain", flood)])

    result = fetch(home, "--maildir", str(path))

    assert result.exit_code == 1
    assert result.stdout.strip() == (
        f'<cap-2@example.org> "message 2": refused: the message holds {MAX_ENTRIES + 1} '
        f"entries, more than the {MAX_ENTRIES} a mail may carry (save it and use "
        "`pbem apply FILE`)"
    )
    assert decoded[0] == 0
    assert not Client(Store(home)).store.has_game(duo.game_id)


def test_imap_fetches_no_more_than_the_cap_of_a_big_message(
    game: tuple[Path, Duo, list[Entry]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.mail.imap_server import PASSWORD, Dovecot, require_dovecot
    from tests.mail.test_mail_imap import deliver as imap_deliver
    from tests.mail.test_mail_imap import write_config

    home, duo, entries = game
    binary = require_dovecot()
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    padding = ("pad " * 25 + "\n") * (3 * MAX_MESSAGE_BYTES // 100)
    big = mail(2, "text/plain", move_file(entries[:3]) + "\n" + padding)
    with Dovecot(tmp_path / "dovecot", binary) as server:
        imap_deliver(server, good(1, entries[:3]), big, good(3, entries[3:]))
        write_config(home, server)
        fetched: list[int] = []
        from pbem.mail.sources import ImapSource

        fetch_one = ImapSource._fetch

        def measured(self: ImapSource, uid: str) -> bytes | None:
            raw = fetch_one(self, uid)
            fetched.append(len(raw or b""))
            return raw

        monkeypatch.setattr(ImapSource, "_fetch", measured)
        result = fetch(home, "--imap")

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].endswith(f"applied game {duo.game_id[:12]} seqs 0-2")
    assert lines[1].startswith('<cap-2@example.org> "message 2": refused: the message is over ')
    assert lines[2].endswith(f"applied game {duo.game_id[:12]} seqs 3")
    assert len(big) > 3 * MAX_MESSAGE_BYTES - 1000
    assert max(fetched) == MAX_MESSAGE_BYTES + 1  # the rest was never sent
