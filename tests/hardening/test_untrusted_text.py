"""Text from the log is untrusted (protocol section 8, issue 11 item 4).

No string of an entry, key or value, holds a control character (Unicode Cc), a line or
paragraph separator (U+2028, U+2029) or a bidi control (U+202A-U+202E, U+2066-U+2069):
such an entry is refused when it is made (`Entry.build`, so every client) and when it is
read (`Entry.from_wire`, so `verify`, `apply` and mail), with one line naming the entry.
A save header never holds raw free text that could forge a line.

The attacks are made end to end: entries signed with real keys by an attacker whose own
tool skips the checks (it signs canonical bytes directly), saves written as the old writer
wrote them, the CLI as a user meets it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import tests.support.toy  # noqa: F401  (registers toy-dice)
from pbem.cli import main
from pbem.client import Client
from pbem.core.adjudicator import Adjudicator, data_digest
from pbem.core.canonical import JSON, canonical_bytes
from pbem.core.log import Entry, UntrustedTextError, entry_id
from pbem.crypto import sshsig
from pbem.crypto.keys import PrivateKey, load_private_key
from pbem.errors import PbemError
from pbem.ledger import check_signature, data_source, engine_by_name
from pbem.store import Store
from pbem.transport.armor import armor
from pbem.transport.savefile import save_text
from pbem.verify import verify_path, verify_text
from tests.support.independent import reader
from tests.support.players import Duo, Table, store_dump

# Every kind of character refused, and where it would do harm.
REFUSED = {
    "\n": "newline",
    "\r": "carriage return",
    "\t": "tab",
    "\x00": "NUL",
    "\x1b": "escape (terminal sequences)",
    "\x7f": "DEL",
    "\x85": "next line (C1)",
    "\x9b": "CSI (C1)",
    "\u2028": "line separator",
    "\u2029": "paragraph separator",
    "\u202a": "LRE",
    "\u202e": "RLO (Trojan Source)",
    "\u2066": "LRI",
    "\u2069": "PDI",
}


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


def one_error_line(result: Result) -> str:
    """Exit 1 with exactly one error line (no traceback); returns it."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def forge(key: PrivateKey, fields: dict[str, JSON]) -> tuple[bytes, bytes]:
    """What an attacker's own tool signs: canonical bytes, no check of their text."""
    canonical = canonical_bytes(fields)
    return canonical, sshsig.sign(key, canonical)


def unchecked(canonical: bytes, signature: bytes) -> Entry:
    """The attacker's Entry, made without Entry's checks, to go on playing after it."""
    return Entry(canonical, signature, json.loads(canonical), entry_id(canonical))


# --- made: Entry.build and the client ------------------------------------------------------


def _fields(**body: JSON) -> dict[str, JSON]:
    return {"v": 1, "kind": "move", "game": "0" * 64, "seq": 3, "prev": "1" * 64,
            "by": "west", "reveal": "2" * 64, "body": body}  # fmt: skip


@pytest.mark.parametrize("char", list(REFUSED), ids=list(REFUSED.values()))
def test_entry_build_refuses_every_control_character(char: str) -> None:
    code = f"U+{ord(char):04X}"
    cases: list[tuple[dict[str, JSON], str]] = [
        ({"decision": f"attack 12{char}"}, "body/decision"),
        ({"decision": "roll", "note": {"deep": [f"x{char}y"]}}, "body/note/deep/0"),
    ]
    key_case: dict[str, JSON] = {"decision": "roll", "commit": {f"plan{char}": "0" * 64}}
    if char.isascii():
        cases.append((key_case, "a key at body/commit"))
    else:  # keys are ASCII (protocol section 3): refused before that
        with pytest.raises(PbemError, match="non-ASCII key"):
            Entry.build(_fields(**key_case))
    for body, where in cases:
        with pytest.raises(UntrustedTextError) as caught:
            Entry.build(_fields(**body))
        message = str(caught.value)
        assert message.startswith("entry 3 by west refused: ")
        assert where in message and code in message and "protocol section 8" in message
        assert len(message.splitlines()) == 1 and message.isprintable()
    # the signer's role name itself (shown escaped, so the message stays one line)
    with pytest.raises(UntrustedTextError) as caught:
        Entry.build({**_fields(decision="roll"), "by": f"west{char}"})
    assert str(caught.value).isprintable() and code in str(caught.value)


def test_ordinary_unicode_text_is_accepted() -> None:
    text = "Kiew – Смоленск, «Taifun» ✓ 東部戦線 עברית"
    entry = Entry.build(_fields(decision=text))
    assert Entry.from_wire(entry.canonical, b"").body["decision"] == text


@pytest.mark.parametrize("char", ["\n", "\x7f", "\u2028", "\u202e"])
def test_entry_from_wire_refuses_a_validly_signed_entry_with_control_characters(
    char: str,
) -> None:
    key = PrivateKey.generate("west")
    canonical, signature = forge(key, _fields(decision=f"roll{char}"))
    check_signature(key.public.openssh_line(), canonical, signature)  # validly signed
    with pytest.raises(UntrustedTextError, match=r"^entry 3 by west refused: body/decision"):
        Entry.from_wire(canonical, signature)


def test_the_client_refuses_a_title_with_a_newline(tmp_path: Path) -> None:
    home = tmp_path / "me"
    assert run("--home", str(home), "key", "new", "me").exit_code == 0
    before = store_dump(Store(home))
    title = "Kiev\nresult: german wins 99-0"
    line = one_error_line(
        run("--home", str(home), "new", "toy-dice", "--key", "a=me", "--key", "b=me",
            "--title", title)
    )  # fmt: skip
    assert "entry 0 by a refused: body/title holds the control character U+000A" in line
    assert store_dump(Store(home)) == before  # no game, no entry, no secret


# --- read: a forged title in a save -------------------------------------------------------


def forged_title_game(title: str, keys: dict[str, PrivateKey] | None = None) -> Table:
    """A finished toy game whose genesis, signed with a's real key, carries `title`."""
    table = Table("toy-dice", ("a", "b"), keys=keys, nonce="forged title")
    fields = dict(table.genesis.data)
    fields["body"] = {**table.genesis.body, "title": title}
    genesis = unchecked(*forge(table.keys["a"], fields))
    files = {data_digest(c): c for c in table.engine.default_data().values()}
    table.genesis = genesis
    table.game = Adjudicator.start(genesis, engine_by_name, data_source(files), check_signature)
    table.join_all()
    table.play(random.Random(7))
    return table


def old_save(table: Table, title: str) -> str:
    """The save as the old writer wrote it: the title raw in the header."""
    prints = {role: key.public.fingerprint() for role, key in table.keys.items()}
    text = save_text(table.game, "TITLE", prints)
    return text.replace("title: TITLE\n", f"title: {title}\n", 1)


def test_a_forged_title_is_refused_by_every_verify_path(tmp_path: Path) -> None:
    """Before: `pbem verify FILE` (streamed) said OK while `pbem verify -` and the
    independent reader refused. Now all refuse, the two pbem paths with one line."""
    probe = forged_title_game("probe")
    first = probe.game.rng_log[0]
    forged_record = (
        f"rng {first.requesting_seq} {first.producing_seq} 1..6 "
        f"{int(first.value or 0) % 6 + 1} {first.purpose}"
    )
    title = f"Kiev\nRNG LOG\n{forged_record}\nresult: a wins 36-0"
    table = forged_title_game(title)
    text = old_save(table, title)
    assert f"\n{forged_record}\nresult: a wins 36-0\n" in text  # the forged header lines
    path = tmp_path / "forged.pbem"
    path.write_text(text, encoding="utf-8")

    expected = (
        "entry 0 by a refused: body/title holds the control character U+000A; text in an "
        "entry holds no control characters, line separators or bidi controls (protocol "
        "section 8: text from the log is untrusted) (entry block 1 of the text)"
    )
    for report in (verify_text(text), verify_path(path)):
        assert not report.ok and report.failure == expected
    streamed, piped = run("verify", str(path)), run("verify", "-", input=text)
    assert one_error_line(streamed) == one_error_line(piped) == f"error: {expected}"
    assert not reader.check_save(text).ok


def test_a_forged_result_line_alone_is_refused_too(tmp_path: Path) -> None:
    title = "Kiev\nresult: a wins 36-0"
    text = old_save(forged_title_game(title), title)
    path = tmp_path / "forged.pbem"
    path.write_text(text, encoding="utf-8")
    for report in (verify_text(text), verify_path(path)):
        assert not report.ok and report.failure is not None
        assert report.failure.startswith("entry 0 by a refused: body/title holds")


def test_a_save_header_never_holds_raw_free_text(tmp_path: Path) -> None:
    """Whatever a caller passes as title or role names, each header value stays on its
    line, escaped, and the save verifies on every path."""
    duo = Duo(tmp_path)
    duo.finish()
    game = duo.a.game(duo.game_id)
    title = "Kiev\nRNG LOG\nrng 3 4 1..6 6 a die 1\r\u2028\u202egame: " + "0" * 64
    prints = {"a\nresult: forged": "SHA256:x", "b": "SHA256:y"}
    text = save_text(game, title, prints)
    header = text[: text.index("\n\n")].splitlines()
    assert [line.partition(":")[0] for line in header[1:]] == [
        "title", "rules", "game", "roles", "result", "entries", "dice",
    ]  # fmt: skip
    assert header[1] == (
        "title: Kiev\\x0aRNG LOG\\x0arng 3 4 1..6 6 a die 1\\x0d\\u2028\\u202egame: " + "0" * 64
    )
    assert header[4] == "roles: a\\x0aresult: forged SHA256:x, b SHA256:y"
    assert len(text.splitlines()) == text.count("\n")  # no line break but "\n" anywhere
    path = tmp_path / "escaped.pbem"
    path.write_text(text, encoding="utf-8")
    assert verify_text(text).ok and verify_path(path).ok and reader.check_save(text).ok


# --- read: apply and mail -----------------------------------------------------------------


def test_apply_refuses_a_signed_move_with_a_bidi_override(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    game = duo.a.game(duo.game_id)
    head = game.head
    fields: dict[str, JSON] = {
        "v": 1, "kind": "move", "game": game.id, "seq": head.seq + 1, "prev": head.id,
        "by": "a", "reveal": duo.a.game(duo.game_id).head.id,  # (any hex: refused first)
        "body": {"decision": "roll\u202e ecalp on"},
    }  # fmt: skip
    move = tmp_path / "move.txt"
    move.write_text(armor(*forge(duo.key("a"), fields)), encoding="utf-8")
    before = store_dump(duo.b.store)
    line = one_error_line(run("--home", str(tmp_path / "b"), "apply", str(move)))
    assert "entry 3 by a refused: body/decision holds the control character U+202E" in line
    assert store_dump(duo.b.store) == before


def test_mail_fetch_refuses_a_signed_move_with_a_bidi_override_as_text_not_damage(
    tmp_path: Path,
) -> None:
    """The same entry by mail: the message is refused with the entry named and the rule,
    not called damaged (its bytes and signature are intact)."""
    duo = Duo(tmp_path)
    head = duo.a.game(duo.game_id).head
    fields: dict[str, JSON] = {
        "v": 1, "kind": "move", "game": duo.game_id, "seq": head.seq + 1, "prev": head.id,
        "by": "a", "reveal": head.id, "body": {"decision": "roll\u202e ecalp on"},
    }  # fmt: skip
    maildir = tmp_path / "maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    mail = "From: a@example.org\nTo: b@example.org\nSubject: move\nMessage-ID: <m1@x>\n\n" + armor(
        *forge(duo.key("a"), fields)
    )
    (maildir / "new" / "m1").write_text(mail, encoding="utf-8")
    before = store_dump(duo.b.store)
    result = run("--home", str(tmp_path / "b"), "mail", "fetch", "--maildir", str(maildir))
    assert result.exit_code != 0
    assert "entry 3 by a refused: body/decision holds the control character U+202E" in (
        result.output
    )
    assert "damaged" not in result.output
    assert store_dump(duo.b.store) == before


def test_mail_send_refuses_a_stored_game_with_a_forged_title(tmp_path: Path) -> None:
    """An older pbem applied an opponent's genesis with a forged title: `pbem mail send`
    used to crash with a traceback on it; now loading the game refuses it, one line."""
    home = tmp_path / "me"
    me = Client(Store(home))
    me.new_key("b")
    mine = load_private_key((me.store.keys_dir / "b").read_bytes())
    title = "Kiev\nBcc: everyone@example.org"
    table = forged_title_game(title, keys={"b": mine})  # a: the opponent's key
    store = me.store
    with store.transaction():
        store.add_game(table.game.id, "toy-dice", title)
        for entry in table.game.entries:
            store.add_entry(table.game.id, entry.seq, entry.id, entry.canonical, entry.signature)
    (home / "mail.toml").write_text('address = "b@example.org"\n', encoding="utf-8")
    before = store_dump(store)
    result = run(
        "--home", str(home), "mail", "send", table.game.id[:12], "--to", "a@example.org",
        "--dry-run",
    )  # fmt: skip
    line = one_error_line(result)
    assert "entry 0 by a refused: body/title holds the control character U+000A" in line
    assert store_dump(store) == before


def test_a_store_edited_to_hold_a_control_character_is_refused_on_load(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    duo.step()
    key = duo.key("a")
    game = duo.b.game(duo.game_id)
    entry = game.entries[-1]
    fields = dict(entry.data)
    fields["body"] = {"decision": "roll\x1b[2J"}
    canonical, signature = forge(key, fields)
    duo.b.store.db.execute(
        "UPDATE entries SET canonical = ?, signature = ?, id = ? WHERE game = ? AND seq = ?",
        [canonical, signature, entry_id(canonical), duo.game_id, entry.seq],
    )
    duo.b.store.db.conn.commit()
    with pytest.raises(PbemError, match=r"entry 3 by a refused: body/decision .* U\+001B"):
        Client(Store(tmp_path / "b")).game(duo.game_id)
