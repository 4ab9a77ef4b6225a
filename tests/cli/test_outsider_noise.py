"""An outsider's noise never fails an honest game (issue 27, item 9; protocol section 8).

Anyone can post into a thread or a league's mailbox a copy of a real entry with one
signature byte flipped, or the same bytes re-signed with their own key. Beside a copy
that verifies with its author's key, such a copy proves nothing against anyone: it is
set aside and named as noise ("set aside: 1 damaged copy of entry 3"), in the verdict's
lines and in `--json` (`set_aside`). A seq with only damaged copies still fails as
damage; two valid different entries for one seq are still an equivocation; a save,
read strictly, is still refused for a second copy of an entry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import pbem.verify
from pbem.cli import main
from pbem.core.log import Entry
from pbem.ledger import fingerprint
from pbem.testing import SignedTable
from pbem.transport.armor import armor
from pbem.transport.savefile import move_file, save_text
from pbem.verify import verify_text
from tests.cli.test_archive_verify import mbox_of, thread
from tests.cli.test_archive_verify import played as archive_game

NOISE_LINE = (
    "set aside: 1 damaged copy of entry 3 (an outsider's noise; it proves nothing against anyone)"
)


def played(nonce: str = "noise", steps: int = 5) -> SignedTable:
    return archive_game(nonce, steps)


def flipped(entry: Entry, at: int = -1) -> Entry:
    """A copy of `entry` with one byte of its signature flipped (the same canonical bytes)."""
    signature = bytearray(entry.signature)
    signature[at] ^= 0x01
    return Entry.from_wire(entry.canonical, bytes(signature))


def resigned(table: SignedTable, entry: Entry) -> Entry:
    """The same canonical bytes signed by an outsider's key."""
    stranger = SignedTable(nonce="a stranger").keys["a"]
    copy = table.sign(entry.by, dict(entry.data), key=stranger)
    assert copy.id == entry.id and copy.signature != entry.signature
    return copy


def verify(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["verify", *args], input=stdin, catch_exceptions=False)


@pytest.mark.parametrize("how", ["flipped", "resigned"])
def test_a_damaged_copy_posted_into_a_thread_is_set_aside(tmp_path: Path, how: str) -> None:
    table = played()
    entries = list(table.game.entries)
    real = entries[3]
    noise = flipped(real) if how == "flipped" else resigned(table, real)
    # the outsider's post comes first in the thread, then the honest game
    posted = f"Look what I found:\n{move_file([noise])}\n\n{move_file(entries)}\n"
    path = tmp_path / "thread.txt"
    path.write_text(posted, encoding="utf-8")
    result = verify(str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert NOISE_LINE in lines and lines[-1] == "OK: every check holds"
    record = json.loads(verify("--json", str(path)).stdout)["files"][0]
    assert record["ok"] and record["cheat"] is None and record["bad_entry"] is None
    assert record["set_aside"] == [{"seq": 3, "copies": 1}]
    # Among several files, the noise is named on the game's one line too.
    honest = tmp_path / "honest.txt"
    honest.write_text(move_file(entries), encoding="utf-8")
    both = verify(str(path), str(honest))
    assert both.exit_code == 0, both.output
    assert "; set aside 1 damaged copy (noise)" in both.stdout.splitlines()[0]
    assert "set aside" not in both.stdout.splitlines()[1]
    assert record["entries"] == len(entries)
    # after the honest copy too; and two kinds of noise for one entry are counted together
    both = verify_text(
        move_file(entries) + "\n" + move_file([flipped(real), resigned(table, real)])
    )
    assert both.ok, both.failure
    assert both.set_aside == {3: 2}
    assert any(line.startswith("set aside: 2 damaged copies of entry 3 (") for line in both.lines)


def test_a_copy_with_other_bytes_and_a_bad_signature_is_noise_too() -> None:
    """A copy of entry 3 whose signed bytes were changed (so another entry id), beside the
    real one: its signature fails, so it is noise, not an equivocation nor a cheat."""
    table = played()
    entries = list(table.game.entries)
    real = entries[3]
    assert b'"seq":3' in real.canonical
    changed = real.canonical.replace(b'"by":"', b'"by":"x', 1)  # a `by` that names no role
    noise = Entry.from_wire(changed, real.signature)
    report = verify_text(move_file([*entries[:3], noise, *entries[3:]]))
    assert report.ok, report.failure
    assert report.set_aside == {3: 1}


def test_a_damaged_copy_of_the_genesis_is_set_aside() -> None:
    table = played()
    entries = list(table.game.entries)
    report = verify_text(move_file([flipped(entries[0]), *entries]))
    assert report.ok, report.failure
    assert report.set_aside == {0: 1}


def test_a_damaged_copy_in_an_archive_mailbox_fails_no_game(tmp_path: Path) -> None:
    one, two = played("one"), played("two")
    real = list(one.game.entries)[3]
    box = tmp_path / "league.mbox"
    messages = [*thread(list(one.game.entries), "one"), *thread(list(two.game.entries), "two")]
    box.write_bytes(mbox_of([*messages, *thread([flipped(real)], "noise")]))
    result = verify("--json", str(box))
    assert result.exit_code == 0, result.output
    found = {r["game"]: r for r in json.loads(result.stdout)["files"]}
    assert set(found) == {one.game.id, two.game.id}
    assert found[one.game.id]["ok"] and found[one.game.id]["set_aside"] == [{"seq": 3, "copies": 1}]
    assert found[two.game.id]["ok"] and found[two.game.id]["set_aside"] == []
    # a mailbox of that one game alone: its full report says it
    alone = tmp_path / "one.mbox"
    alone.write_bytes(
        mbox_of([*thread([flipped(real)], "noise"), *thread(list(one.game.entries), "o")])
    )
    plain = verify(str(alone))
    assert plain.exit_code == 0, plain.output
    assert NOISE_LINE in plain.stdout.splitlines()


def test_a_game_with_only_a_damaged_copy_still_fails() -> None:
    table = played()
    entries = list(table.game.entries)
    damaged = flipped(entries[3])
    report = verify_text(move_file([*entries[:3], damaged, *entries[4:]]))
    assert not report.ok and report.cheat == "signature"
    assert report.bad is not None and report.bad.seq == 3
    assert report.set_aside == {}
    # two damaged copies and no good one: still damage
    twice = [*entries[:3], damaged, resigned(table, entries[3]), *entries[4:]]
    report = verify_text(move_file(twice))
    assert not report.ok and report.cheat == "signature" and report.set_aside == {}


def test_noise_hides_no_equivocation() -> None:
    table = played("equivocation", steps=3)
    entries = list(table.game.entries)
    signer = table.game.next_signer()
    assert signer is not None
    first, second = table.move_entry(signer, "roll"), table.move_entry(signer, "roll twice")
    report = verify_text(move_file([*entries, first, flipped(first), second]))
    assert not report.ok and report.cheat == "equivocation"
    assert report.bad == second


def test_a_save_holding_a_damaged_second_copy_is_still_refused(tmp_path: Path) -> None:
    table = played()
    prints = {role: fingerprint(line) for role, line in table.game.roles.items()}
    text = save_text(table.game, "strict", prints)
    real = list(table.game.entries)[3]
    block = armor(real.canonical, real.signature)
    doubled = text.replace(block, block + "\n" + armor(real.canonical, flipped(real).signature))
    assert doubled != text
    report = verify_text(doubled)
    assert not report.ok and report.set_aside == {}
    path = tmp_path / "doubled.pbem"
    path.write_text(doubled, encoding="utf-8")
    assert verify(str(path)).exit_code == 1


def test_an_intact_log_pays_no_extra_signature_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The set-aside check runs only where a seq has several copies."""
    table = played()
    text = move_file(list(table.game.entries))
    calls: list[bytes] = []
    real_check = pbem.verify.check_signature

    def counted(line: str, message: bytes, signature: bytes) -> None:
        calls.append(message)
        real_check(line, message, signature)

    monkeypatch.setattr(pbem.verify, "check_signature", counted)
    assert verify_text(text + "\n" + text).ok  # (identical quoted copies: dropped first)
    assert calls == []
    real = table.game.entries[3]
    assert verify_text(text + "\n" + move_file([flipped(real)])).ok
    assert calls and set(calls) == {real.canonical}  # only the copies of entry 3


def test_a_store_meets_noise_one_mail_at_a_time(tmp_path: Path) -> None:
    """What docs/protocol-notes.md says a store does with such a copy: a copy of an entry
    it holds is "already had" (the stored copy kept); a mail whose only copy of a new
    entry is damaged is refused alone, and the honest mail after it applies."""
    from pbem.client import NOISE, Client
    from pbem.errors import PbemError
    from pbem.mail.fetch import Fetcher
    from pbem.store import Store
    from pbem.verify import parse_entries

    table = played()
    entries = list(table.game.entries)
    client = Client(Store(tmp_path / "store"))
    client.apply_entries(entries[:3])
    fetcher = Fetcher(client)
    noise = fetcher.process("noise", move_file([flipped(entries[3])]).encode())
    assert noise.refusal is not None and "signature" in noise.refusal
    late = fetcher.process("late", move_file([resigned(table, entries[1])]).encode())
    assert late.refusal is None and late.had
    honest = fetcher.process("honest", move_file(entries[3:]).encode())
    assert honest.refusal is None
    stored = client.game(table.game.id).entries
    assert [e.signature for e in stored] == [e.signature for e in entries]
    # `pbem apply` of one file with the damaged copy first sets it aside and applies the
    # honest entries; a file whose only copy of an entry is damaged is refused, and
    # changes nothing
    other = Client(Store(tmp_path / "other"))
    other.apply_entries(entries[:3])
    with pytest.raises(PbemError, match="signature"):
        other.apply_entries(parse_entries(move_file([flipped(entries[3]), *entries[4:]])))
    assert len(other.game(table.game.id).entries) == 3
    results = other.apply_entries(parse_entries(move_file([flipped(entries[3]), *entries[3:]])))
    assert [r.status for r in results].count(NOISE) == 1
    assert [e.signature for e in other.game(table.game.id).entries] == [
        e.signature for e in entries
    ]
