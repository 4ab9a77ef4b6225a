"""Shared pieces of the fuzz tests: the targets, the error property, seeds and the corpus.

Every target takes bytes (what a user or a mail could hand pbem) and must either
return or raise a PbemError whose message is one clear line. `fuzz/corpus/<target>/`
holds every input that once broke a target; `test_fuzz_corpus.py` replays each file
through every target on every run.
"""

from __future__ import annotations

import email.policy
import os
import re
from collections.abc import Callable
from email.message import EmailMessage
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import pbem.games  # noqa: F401  (registers the shipped games)
import tests.support.bid  # noqa: F401  (registers the toy games, as tests/conftest.py does)
import tests.support.peek  # noqa: F401
import tests.support.toy  # noqa: F401
from pbem.core.canonical import parse_canonical
from pbem.core.engine import Engine, get_engine, registered
from pbem.core.log import Entry
from pbem.errors import PbemError
from pbem.ledger import replay
from pbem.transport.movefile import read_entries
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text

ROOT = Path(__file__).resolve().parents[2]
SAVES = ROOT / "saves"
CORPUS = ROOT / "fuzz" / "corpus"
SHIPPED_GAMES = ("barbarossa", "race-to-berlin", "berlin-1945")
NOISE = re.compile(r"Traceback|File \"|object at 0x[0-9a-f]+>")


# --- settings ----------------------------------------------------------------------------------


def fuzz_settings(examples: int) -> settings:
    """`examples` in a normal run; scaled up with the loaded profile (`long`: x50).

    The default profile asks for 100 examples, `long` (tests/fuzz/conftest.py) for 5000:
    a test asking for 40 here runs 40 normally and 2000 under `long`.
    """
    current = settings.default
    scale = max(1, (current.max_examples if current is not None else 100) // 100)
    return settings(
        max_examples=examples * scale,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


# --- the property ------------------------------------------------------------------------------


def check_message(exc: BaseException) -> str:
    """A PbemError's message must be one clear line: non-empty, no newline, no Python noise."""
    assert isinstance(exc, PbemError), f"{type(exc).__name__} is not a PbemError: {exc!r}"
    message = str(exc)
    assert message.strip(), f"{type(exc).__name__} with an empty message"
    assert "\n" not in message and "\r" not in message, f"message of several lines: {message!r}"
    assert not NOISE.search(message), f"Python noise in the message: {message!r}"
    return message


def outcome(target: Callable[[bytes], Any], data: bytes, keep_as: str = "") -> Any:
    """Run a target: its result, or the PbemError it raised (checked); anything else fails.

    With PBEM_FUZZ_KEEP=1 a failing input is written to fuzz/corpus/<keep_as>/new-failure
    (overwritten while hypothesis shrinks, so the smallest one stays); rename it.
    """
    try:
        try:
            return target(data)
        except PbemError as exc:
            check_message(exc)
            return exc
    except Exception:
        if keep_as and os.environ.get("PBEM_FUZZ_KEEP") == "1":
            folder = CORPUS / keep_as
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "new-failure").write_bytes(data)
        raise


# --- the demo saves and the states of their games ------------------------------------------------


@cache
def save_bytes(name: str) -> bytes:
    return (SAVES / name).read_bytes()


def save_names() -> list[str]:
    return sorted(p.name for p in SAVES.glob("*.pbem"))


@cache
def save_entries(name: str) -> tuple[Entry, ...]:
    return tuple(parse_entries(save_bytes(name)))


@cache
def game_of_save(name: str) -> str:
    return str(save_entries(name)[0].body["rules"])


@cache
def decisions_of_save(name: str) -> tuple[tuple[int, str, str], ...]:
    """(seq, role, decision text) of every move of a save that carries one."""
    return tuple(
        (e.seq, e.by, e.body["decision"])
        for e in save_entries(name)
        if isinstance(e.body.get("decision"), str)
    )


@cache
def states_of_save(name: str, points: int = 6) -> tuple[dict[str, Any], ...]:
    """The public state at several points of the game: after a prefix of its entries."""
    entries = save_entries(name)
    n = len(entries)
    states = []
    for k in sorted({3, 4, n // 4, n // 2, 3 * n // 4, n})[:points]:
        game = replay(entries[:k])
        if game.state is not None:
            states.append(game.engine.clone(game.state))  # (static parts shared, not copied)
    return tuple(states)


@cache
def states_before_each_entry(name: str) -> dict[int, dict[str, Any]]:
    """seq -> the public state just before that entry was applied (one replay, snapshots)."""
    entries = save_entries(name)
    game = replay(entries[:1])
    before: dict[int, dict[str, Any]] = {}
    for entry in entries[1:]:
        if game.state is not None:
            before[entry.seq] = game.engine.clone(game.state)  # (static parts shared)
        game.apply(entry)
    return before


@cache
def game_states(game: str) -> tuple[dict[str, Any], ...]:
    """States of a game to parse against: from its demo save, else its initial state."""
    from_saves = [
        s for name in save_names() if game_of_save(name) == game for s in states_of_save(name)
    ]
    if from_saves:
        return tuple(from_saves)
    engine = get_engine(game)
    return (engine.setup(engine.load_data(engine.default_data()), {}),)


@cache
def game_texts(game: str) -> tuple[tuple[str, str], ...]:
    """(role, text) of valid decisions of a game: from its demo save, else from its choices."""
    texts = {
        (role, text)
        for name in save_names()
        if game_of_save(name) == game
        for _seq, role, text in decisions_of_save(name)
    }
    if not texts:
        engine = get_engine(game)
        state = game_states(game)[0]
        texts = {(r, engine.format(d)) for r in engine.roles for d in engine.choices(state, r)}
    return tuple(sorted(texts))


def all_games() -> list[str]:
    return registered()


# --- targets -------------------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def target_movefile(data: bytes) -> Any:
    """read_entries on the bytes and on their text (a mail client may hand either)."""
    found = read_entries(data)
    read_entries(_decode(data))
    return found


def target_canonical(data: bytes) -> Any:
    return parse_canonical(data)


def target_entry(data: bytes) -> Any:
    return Entry.from_wire(data, b"")


def decision_target(game: str) -> Callable[[bytes], Any]:
    """engine.parse of the text at every sampled state of the game, for every role."""
    engine = get_engine(game)

    def target(data: bytes) -> Any:
        text = _decode(data)
        for state in game_states(game)[:3]:
            for role in engine.roles:
                try:
                    engine.parse(text, state, role)
                except PbemError as exc:
                    check_message(exc)
        return None

    return target


def data_target(game: str, file_name: str) -> Callable[[bytes], Any]:
    """The bytes as a user's data file `file_name`, loaded as `pbem new --data` loads it."""
    engine = get_engine(game)
    return lambda data: load_user_data(engine, file_name, data)


def load_user_data(engine: Engine, file_name: str, content: bytes) -> Any:
    """What `Client.new` does with `--data NAME=FILE` (load_data validates the file before
    anything is signed), then what Adjudicator.start does: setup from the loaded data."""
    files = {**engine.default_data(), file_name: content}
    return engine.setup(engine.load_data(files), {})


def target_verify(data: bytes) -> Any:
    report = verify_text(data)
    if not report.ok:
        assert report.failure and report.failure.strip(), "a failed report without a reason"
    return report


def targets() -> dict[str, Callable[[bytes], Any]]:
    """Every target by corpus folder name."""
    found: dict[str, Callable[[bytes], Any]] = {
        "movefile": target_movefile,
        "canonical": target_canonical,
        "entry": target_entry,
        "verify": target_verify,
    }
    for game in all_games():
        found[f"decision-{game}"] = decision_target(game)
    for game in SHIPPED_GAMES:
        for file_name in get_engine(game).data_files:
            found[f"data-{game}-{file_name.removesuffix('.toml')}"] = data_target(game, file_name)
    return found


# --- seeds: valid inputs to mutate --------------------------------------------------------------


CHARSETS = (
    "utf-8",
    "us-ascii",
    "iso-8859-1",
    "windows-1252",
    "utf-16",
    "utf-7",
    "koi8-r",
    "shift_jis",
    "iso-2022-jp",
    "x-unknown",
    "rot13",
    "base64",
    "idna",
    "",
)


@cache
def sample_pairs() -> tuple[Entry, ...]:
    """A handful of real entries of every demo save: genesis, join, moves, the last one."""
    picked: list[Entry] = []
    for name in save_names():
        entries = save_entries(name)
        picked += [entries[i] for i in sorted({0, 1, 2, 5, len(entries) - 1})]
    return tuple(picked)


def mail(body: str, cte: str | None, charset: str, html: bool, forward: bool) -> bytes:
    """A raw RFC 5322 message carrying `body`, as a mail client would send it."""
    message = EmailMessage(policy=email.policy.default)
    message["From"] = "alice@example.org"
    message["To"] = "bob@example.org"
    message["Subject"] = "my move"
    message.set_content(body, cte=cte)
    if html:
        message.add_alternative("<p>" + body.replace("\n", "<br>\n") + "</p>", subtype="html")
        message.set_boundary("=-alternative-=")  # fixed: the library would use `random`
    if forward:
        # A forward as an attached message/rfc822 part, which RFC 2046 sends unencoded.
        # (Python's add_attachment(bytes, "message", "rfc822") base64-encodes it, which
        # movefile does not decode: see fuzz/README.md, "Known limits".)
        outer = EmailMessage(policy=email.policy.default)
        outer["From"] = "bob@example.org"
        outer["Subject"] = "Fwd: my move"
        outer.set_content("see below")
        outer.add_attachment(message)
        outer.set_boundary("=-forward-=")
        message = outer
    raw = message.as_bytes()
    if charset != "utf-8":
        raw = raw.replace(b'charset="utf-8"', f'charset="{charset}"'.encode()).replace(
            b"charset=utf-8", f"charset={charset}".encode()
        )
    return raw


@st.composite
def move_files(draw: st.DrawFn) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """A valid move file, mail or mbox with 1-3 real entries, and the entries it holds."""
    entries = draw(st.lists(st.sampled_from(sample_pairs()), min_size=1, max_size=3))
    text = move_file(entries)
    wanted = [(e.canonical, e.signature) for e in entries]
    form = draw(st.sampled_from(["plain", "crlf", "mail", "mbox"]))
    if form == "plain":
        return text.encode(), wanted
    if form == "crlf":
        return text.replace("\n", "\r\n").encode(), wanted
    raw = mail(
        text,
        draw(st.sampled_from([None, "quoted-printable", "base64", "8bit"])),
        "utf-8",
        draw(st.booleans()),
        draw(st.booleans()),
    )
    if form == "mbox":
        return b"From alice@example.org Sat Jan  1 00:00:00 2026\n" + raw + b"\n", wanted
    return raw, wanted


# --- mutations ---------------------------------------------------------------------------------

MIME_NOISE = (
    b"Content-Type: multipart/mixed; boundary=zz\n",
    b"Content-Type: multipart/alternative\n",
    b"Content-Type: message/rfc822\n",
    b"Content-Type: text/html; charset=x-bogus\n",
    b"Content-Transfer-Encoding: base64\n",
    b"Content-Transfer-Encoding: quoted-printable\n",
    b"Content-Transfer-Encoding: x-uuencode\n",
    b"Content-Type: text/plain; charset*=utf-8''%ff%fe\n",
    b"Subject: =?utf-8?b?////?= =?x-bogus?q?=ff?=\n",
    b"--zz\n",
    b"--zz--\n",
    b"\n\n",
    b"From nobody Mon Jan  1 00:00:00 2026\n",
    b"<html><body><pre>",
    b"&#1114112;&#xd800;&bogus;<![CDATA[",
    b"=\n",
    b"=Z9",
)
MARKER_DAMAGE = (
    b"-----BEGIN PBEM ENTRY-----",
    b"-----END PBEM ENTRY-----",
    b"----BEGIN PBEM ENTRY-----",
    b"-----BEGIN PBEM ENTRY",
    b"> -----END PBEM ENTRY-----",
    b"[code]-----BEGIN PBEM ENTRY-----[/code]",
    "\u2014BEGIN PBEM ENTRY\u2014".encode(),
    b"-----begin pbem entry-----",
    b"-----BEGIN PBEM ENTRY-----\n-----BEGIN PBEM ENTRY-----",
)


def _lines_op(data: bytes, op: str, at: int) -> bytes:
    lines = data.split(b"\n")
    i = at % len(lines)
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[i])
    elif op == "swap" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return b"\n".join(lines)


def _marker_op(data: bytes, at: int, replacement: bytes) -> bytes:
    lines = data.split(b"\n")
    markers = [i for i, line in enumerate(lines) if b"PBEM ENTRY" in line]
    if not markers:
        return data
    lines[markers[at % len(markers)]] = replacement
    return b"\n".join(lines)


def _header_op(data: bytes, at: int, replacement: bytes) -> bytes:
    """Replace the value of one header line (before the first blank line) with junk."""
    head, sep, body = data.partition(b"\n\n")
    lines = head.split(b"\n")
    i = at % len(lines)
    name = lines[i].split(b":", 1)[0]
    lines[i] = name + b": " + replacement
    return b"\n".join(lines) + sep + body


@st.composite
def mutated(draw: st.DrawFn, data: bytes, extra: tuple[bytes, ...] = ()) -> bytes:
    """`data` after 1-6 random edits: bits flipped, bytes set, lines deleted or duplicated,
    markers damaged, MIME headers mangled, charsets changed, noise inserted."""
    ops = [
        "flip",
        "byte",
        "delete",
        "duplicate",
        "swap",
        "cut",
        "insert",
        "marker",
        "header",
        "charset",
        "truncate",
    ]
    for _ in range(draw(st.integers(1, 6))):
        if not data:
            data = b"x"
        op = draw(st.sampled_from(ops))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "flip":
            data = data[:at] + bytes([data[at] ^ (1 << draw(st.integers(0, 7)))]) + data[at + 1 :]
        elif op == "byte":
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
        elif op in ("delete", "duplicate", "swap"):
            data = _lines_op(data, op, at)
        elif op == "cut":
            data = data[:at] + data[at + draw(st.integers(1, 64)) :]
        elif op == "insert":
            noise = draw(st.sampled_from(MIME_NOISE + extra) | st.binary(min_size=1, max_size=24))
            data = data[:at] + noise + data[at:]
        elif op == "marker":
            data = _marker_op(data, at, draw(st.sampled_from(MARKER_DAMAGE)))
        elif op == "header":
            junk = draw(st.sampled_from(MIME_NOISE) | st.binary(max_size=40))
            data = _header_op(data, at, junk.replace(b"\n", b" "))
        elif op == "charset":
            charset = draw(st.sampled_from(CHARSETS)).encode()
            data = re.sub(rb"charset=\"?[^\"\s;]*\"?", b'charset="' + charset + b'"', data, count=1)
        elif op == "truncate":
            data = data[:at]
    return data


# --- corpus ----------------------------------------------------------------------------------


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*/*") if p.is_file() and p.name != "README.md")
