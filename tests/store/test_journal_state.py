"""The signing journal (pbem/store/journal.py): where it lives, that it is on disk before an
entry is stored, that one slot is taken once under a lock, and that a journal of an earlier
version (beside the key file) still protects.

The attack it answers (issue 27, item 6) is performed end to end in
tests/hardening/test_restored_backup.py; these tests pin the journal's own promises.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.client import Client
from pbem.core.canonical import JSON
from pbem.core.log import Entry
from pbem.crypto.keys import PublicKey
from pbem.errors import PbemError
from pbem.store import Store
from pbem.store import journal as journal_module
from pbem.store.journal import (
    STATE_ENV,
    Journal,
    JournalConflict,
    default_state,
    journal_name,
    legacy_path,
)
from pbem.testing import sign_entry
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries
from tests.support.players import Duo, call_refused


def journal_file(home: Path, name: str) -> Path:
    public = PublicKey.parse_line((home / "keys" / f"{name}.pub").read_text())
    return default_state() / "journals" / journal_name(public)


def entry_count(home: Path) -> int:
    with sqlite3.connect(home / "store.db") as db:
        return int(db.execute("SELECT count(*) FROM entries").fetchone()[0])


def other_entry(duo: Duo, entry: Entry) -> Entry:
    """A different entry of the same role for the same slot (what a second copy of the
    store would sign), signed with the role's key."""
    fields = json.loads(entry.canonical)
    assert isinstance(fields, dict)
    decision = "roll twice" if entry.body.get("decision") == "roll" else "roll"
    body: JSON = {"decision": decision}
    return sign_entry(duo.key(entry.by), {**fields, "body": body})


# --- where it lives ---------------------------------------------------------------------------


def test_the_state_folder_is_pbem_state_else_xdg_state_home_else_local_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STATE_ENV, str(tmp_path / "given"))
    assert default_state() == tmp_path / "given"
    monkeypatch.delenv(STATE_ENV)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_state() == tmp_path / "xdg" / "pbem"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert default_state() == tmp_path / "user" / ".local" / "state" / "pbem"


def test_a_journal_per_key_in_the_state_folder_never_in_the_store(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    entry = duo.step()
    path = journal_file(tmp_path / "a", "a")
    assert path.parent == default_state() / "journals"
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct(path.parent.stat().st_mode & 0o777) == "0o700"
    assert entry.id in path.read_text()
    for home in (tmp_path / "a", tmp_path / "b"):
        assert not list(home.rglob("*journal*")), "nothing of the journal in a store folder"


def test_a_state_folder_inside_the_store_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A journal restored with the store would be rolled back with it: pbem signs nothing
    with one there, and says why and what to set."""
    duo = Duo(tmp_path)
    home = tmp_path / "a"
    inside = Client(Store(home, state=home / "state"))
    error = call_refused(
        inside.store,
        lambda: inside.move(duo.game_id, "roll"),
        "would be inside the store folder",
        "restoring a backup of the store would roll it back",
        STATE_ENV,
    )
    assert isinstance(error, PbemError)
    assert not (home / "state").exists()


# --- on disk before the store keeps it ------------------------------------------------------


def test_the_journal_is_synced_before_the_store_keeps_the_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    duo = Duo(tmp_path)
    home = tmp_path / "a"
    path = journal_file(home, "a")
    before = entry_count(home)
    synced: list[tuple[str, int]] = []  # (the journal's text, entries stored) at each fsync
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        if os.readlink(f"/proc/self/fd/{fd}") == str(path):
            synced.append((path.read_text(), entry_count(home)))
        real_fsync(fd)

    monkeypatch.setattr(journal_module.os, "fsync", spy)
    entry = duo.a.move(duo.game_id, "roll")
    monkeypatch.undo()
    assert entry_count(home) == before + 1
    # Synced with the entry in it while the store did not have it yet.
    assert [count for text, count in synced if entry.id in text] == [before]


def test_two_writers_racing_for_one_slot_exactly_one_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two programs signing with one key at the same moment, each with its own Journal on
    the same file: each reads the journal and then waits for the other to have read it
    too (a barrier, where the lock lets only one in at a time), then both write. With the
    lock the second reads after the first wrote, and is refused."""
    duo = Duo(tmp_path)
    entry = duo.a.move(duo.game_id, "roll")
    path = journal_file(tmp_path / "a", "a")
    path.write_text("")  # the slot is free again: both racers may take it
    rivals = [entry, other_entry(duo, entry)]
    barrier = threading.Barrier(2, timeout=0.3)
    real_parse = journal_module.parse

    def parse_then_wait(text: str) -> list[journal_module.Record]:
        # (broken: the other racer never came, it waits for the lock)
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()
        return real_parse(text)

    monkeypatch.setattr(journal_module, "parse", parse_then_wait)
    outcomes: list[str] = []

    def sign(rival: Entry) -> None:
        try:
            Journal(path).record(rival, "reveal 1")
            outcomes.append("won")
        except JournalConflict:
            outcomes.append("refused")

    threads = [threading.Thread(target=sign, args=(rival,)) for rival in rivals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    monkeypatch.undo()
    assert sorted(outcomes) == ["refused", "won"]
    assert len(journal_module.parse(path.read_text())) == 1


# --- journals of earlier versions -------------------------------------------------------------


def test_an_earlier_versions_journal_beside_the_key_still_refuses_and_is_merged(
    tmp_path: Path,
) -> None:
    """Before issue 27 the journal was `<key file>.pbem-journal`: a store upgraded and then
    restored keeps that protection, and the records are copied into the state folder's
    journal the first time the key is about to sign (the file beside the key is left as
    it was)."""
    duo = Duo(tmp_path)
    home = tmp_path / "a"
    with sqlite3.connect(home / "store.db") as db:
        kept = sqlite3.connect(tmp_path / "backup.db")
        db.backup(kept)
        kept.close()
    sent = duo.step()  # a signs, and b has it
    # What an earlier version left: the journal beside the key, none in the state folder.
    state_file, old_file = journal_file(home, "a"), legacy_path(home / "keys" / "a")
    state_file.rename(old_file)

    with sqlite3.connect(tmp_path / "backup.db") as backup:  # the store restored
        target = sqlite3.connect(home / "store.db")
        backup.backup(target)
        target.close()
    a = Client(Store(home))
    call_refused(a.store, lambda: a.move(duo.game_id, "roll twice"), "already signed")

    records = journal_module.parse(state_file.read_text())
    assert sent.id in {r.id for r in records}  # merged, though nothing was signed

    # Back on track (the entry recovered from the old file), the game goes on.
    game_id, entries = a.journal_entries(duo.game_id[:8])
    assert game_id == duo.game_id and sent in entries
    a.apply_entries(entries)
    duo.a = a
    assert duo.step().by == "b"
    a_entry = duo.step()
    records = journal_module.parse(state_file.read_text())
    assert [r.id for r in records].count(sent.id) == 1
    assert a_entry.id in {r.id for r in records}
    assert old_file.read_text().count(sent.id) == 1  # left as it was


# --- recovery: one game's entries only --------------------------------------------------------


def run(home: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    return result.exit_code, result.stdout, result.stderr


def test_recover_writes_and_applies_only_the_asked_games_entries(tmp_path: Path) -> None:
    """Issue 27, item 14: a recovery file may go to the opponent, so it holds the asked
    game's entries and nothing of the key's other games."""
    one = Duo(tmp_path / "one")
    other = tmp_path / "one" / "a"  # the same key plays a second game, from the same store
    second, made = one.a.new_game("toy-dice", "a", {"a": "a", "b": "b"})
    one.b.apply_entries(parse_entries(move_file(made)))
    one.a.apply_entries(parse_entries(move_file(one.b.join(second))))
    one.a.move(second, "roll")
    one.step()
    one.step()
    lost = one.step()
    assert lost.by == "a"
    assert {g for j in one.a.own_journals().values() for g in j.games()} == {one.game_id, second}

    code, out, err = run(other, "recover", one.game_id[:8], "-o", str(tmp_path / "r.txt"))
    assert code == 0, err
    written = parse_entries((tmp_path / "r.txt").read_text())
    assert written and {e.game for e in written} == {one.game_id}
    assert lost in written
    assert second not in (tmp_path / "r.txt").read_text()

    # Applied to a store that lost the last entry: it comes back, nothing else changes.
    with sqlite3.connect(other / "store.db") as db:
        db.execute("DELETE FROM entries WHERE game = ? AND seq = ?", [one.game_id, lost.seq])
    code, out, err = run(other, "recover", one.game_id[:8])
    assert code == 0, err
    assert f"applied: {lost.describe()}" in out
    assert Client(Store(other)).game(one.game_id).head.id == lost.id
    assert second[:12] not in out


def test_a_demo_keeps_its_journals_in_its_own_folder(tmp_path: Path) -> None:
    """`pbem demo` plays every side on this machine: each side's state folder is beside its
    store in the demo folder, so a demo leaves nothing in the user's state folder."""
    from pbem.demo import run_demo

    run_demo("toy-dice", tmp_path / "demo")
    for role in ("a", "b"):
        assert len(list((tmp_path / "demo" / f"{role}-state" / "journals").iterdir())) == 1
    assert not default_state().exists()
