"""A reveal is never signed twice, whatever happened to the store (protocol section 8).

The attack (issue 11, item 1): A's store is restored from a copy taken before A's last
entry, which already went to B with A's next chain element s_k in it. B, who has seen
s_k, re-sends a different earlier entry of its own, ground until the dice A's s_k will
produce for it are the ones B wants; A's restored store, not knowing it signed s_k
already, would sign a new entry with s_k on top of B's choice, and the final log would
verify. The journal of A's key (pbem/store/journal.py, in the user's state folder, apart
from the store) knows s_k was used: A's client refuses to sign and says how to recover.
"""

from __future__ import annotations

import json
import sqlite3
import stat
from pathlib import Path

import pytest

from pbem.client import Client
from pbem.core.canonical import JSON
from pbem.core.log import Entry
from pbem.crypto.keys import PublicKey
from pbem.store import Store
from pbem.store.journal import Journal, JournalConflict, default_state, journal_name
from pbem.testing import sign_entry
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text
from tests.support.players import Duo, call_refused, dice


def journal_file(home: Path, name: str) -> Path:
    """The signing journal of the key `name` made in the store at `home`: in the state
    folder (conftest points it at the test's own folder), named by the key's fingerprint."""
    public = PublicKey.parse_line((home / "keys" / f"{name}.pub").read_text())
    return default_state() / "journals" / journal_name(public)


def copy_store(home: Path) -> Path:
    """A consistent copy of a store's database (what a backup tool would keep)."""
    kept = home.with_name(home.name + "-backup.db")
    kept.unlink(missing_ok=True)
    source, target = sqlite3.connect(home / "store.db"), sqlite3.connect(kept)
    source.backup(target)
    source.close()
    target.close()
    return kept


def restore_store(home: Path, kept: Path) -> Client:
    """Put the copy back over the store, as restoring a backup does (the keys stay)."""
    source, target = sqlite3.connect(kept), sqlite3.connect(home / "store.db")
    source.backup(target)
    source.close()
    target.close()
    return Client(Store(home))


def b_equivocates(duo: Duo, game_id: str, honest: Entry) -> Entry:
    """B signs a different entry for the seq of `honest`. In toy dice B can only choose
    `roll` or `roll twice`; in a real game a salt or a private-draw secret is 32 free bytes
    to grind until A's known next reveal gives the dice B wants. B's own client would
    refuse (its journal), so B signs by hand, as a cheater would."""
    fields: dict[str, JSON] = {
        "v": 1,
        "kind": honest.kind,
        "game": game_id,
        "seq": honest.seq,
        "prev": honest.prev,
        "by": "b",
        "reveal": honest.reveal,
    }
    for text in ("roll twice", "roll"):
        entry = sign_entry(duo.key("b"), {**fields, "body": {"decision": text}})
        if entry.id != honest.id:
            return entry
    raise AssertionError("no different entry")


@pytest.mark.parametrize("signing", ["move", "ack"])
def test_a_restored_store_refuses_to_sign_a_reveal_it_already_sent(
    tmp_path: Path, signing: str
) -> None:
    duo = Duo(tmp_path)
    game_id = duo.game_id
    duo.step()  # a rolls
    backup = copy_store(tmp_path / "a")  # before b's entry and a's answer to it
    honest_b = duo.step()  # b: its reveal rolls a's die, and b rolls
    assert honest_b.by == "b"
    sent_a = duo.step()  # a: its reveal s_k rolls b's die; b now knows s_k
    assert sent_a.by == "a" and sent_a.reveal is not None

    a = restore_store(tmp_path / "a", backup)
    assert len(a.game(game_id).entries) == honest_b.seq
    forged_b = b_equivocates(duo, game_id, honest_b)
    a.apply_entries(parse_entries(move_file([forged_b])))
    # Without the journal, a's next entry would carry s_k again (shown below); with it:
    error = call_refused(
        a.store,
        (lambda: a.move(game_id, "roll")) if signing == "move" else (lambda: a.ack(game_id)),
        "already signed",
        "behind its signing journal",
        f"pbem recover {game_id[:12]}",
    )
    assert f"seq {sent_a.seq}" in str(error)
    assert len(a.game(game_id).entries) == sent_a.seq  # nothing signed, nothing stored

    # The attack, for the record: the journal gone, the restored store signs s_k again on
    # top of b's chosen entry, whose dice (b's own roll) come from s_k, known to b first.
    journal_file(tmp_path / "a", "a").unlink()
    reused = a.move(game_id, "roll") if signing == "move" else a.ack(game_id)
    assert reused.reveal == sent_a.reveal and reused.id != sent_a.id
    rolled = dice(game_id, forged_b.id, str(reused.reveal), 2)
    assert rolled == dice(game_id, forged_b.id, str(sent_a.reveal), 2)  # b knew them first
    log = [*duo.b.game(game_id).entries[: forged_b.seq], forged_b, reused]
    assert verify_text(move_file(log)).ok  # the cheat would not show in the log


def test_the_journal_is_written_in_the_state_folder_before_the_entry_leaves(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    entry = duo.step()
    path = journal_file(tmp_path / "a", "a")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert f"{duo.game_id} a reveal-1 {entry.id}" in text
    # The journal holds the armored entries: `pbem apply` reads it like a move file.
    assert entry in parse_entries(text)
    journal = Journal(path)
    assert journal.signed(duo.game_id, "a", "reveal 1") == entry.id
    assert journal.signed(duo.game_id, "a", "join") is not None
    assert journal.signed(duo.game_id, "a", "reveal 2") is None


def test_a_restored_joiner_signs_the_same_join_again_and_no_other(tmp_path: Path) -> None:
    """Joins carry the anchor of a chain derived from the key: a restored store that joins
    again signs byte for byte the same join, so no game is joined twice differently; a
    different join for the same game and role is refused by the journal."""
    a = Client(Store(tmp_path / "a"))
    b = Client(Store(tmp_path / "b"))
    a.new_key("a")
    b.new_key("b")
    a.import_key("b", tmp_path / "b" / "keys" / "b.pub")
    game_id, made = a.new_game("toy-dice", "a", {"a": "a", "b": "b"})
    b.apply_entries(parse_entries(move_file(made)))
    backup = copy_store(tmp_path / "b")
    first = b.join(game_id)
    b = restore_store(tmp_path / "b", backup)
    again = b.join(game_id)
    assert [e.canonical for e in again] == [e.canonical for e in first]
    assert [e.signature for e in again] == [e.signature for e in first]

    other = sign_entry(
        b._private_key_for(b.game(game_id).roles["b"]),
        {**_fields(first[0]), "body": {"anchor": "00" * 32, "length": 4096}},
    )
    journal = Journal(journal_file(tmp_path / "b", "b"))
    with pytest.raises(JournalConflict, match="already signed a join"):
        journal.record(other, "join")


def test_two_programs_cannot_both_take_one_slot(tmp_path: Path) -> None:
    """The journal checks and writes under a lock: the second of two entries for a slot
    is refused even when written by a second Journal object on the same file."""
    duo = Duo(tmp_path)
    entry = duo.step()
    path = journal_file(tmp_path / "a", "a")
    forged = sign_entry(duo.key("a"), {**_fields(entry), "body": {"decision": "roll twice"}})
    with pytest.raises(JournalConflict):
        Journal(path).record(forged, "reveal 1")
    Journal(path).record(entry, "reveal 1")  # the same entry again is no conflict
    assert path.read_text().count(entry.id) == 1


def _fields(entry: Entry) -> dict[str, JSON]:
    data = json.loads(entry.canonical)
    assert isinstance(data, dict)
    return data


def test_an_entry_the_store_lost_comes_back_from_the_journal(tmp_path: Path) -> None:
    """A store that lost the entry it had just signed (restored, or a crash between the
    journal and the store) refuses to sign over it; the game's entries from the journal
    (`pbem recover GAME`: Client.journal_entries) bring it back and the game goes on."""
    duo = Duo(tmp_path)
    duo.step()
    duo.step()
    backup = copy_store(tmp_path / "a")
    lost = duo.step()
    assert lost.by == "a"
    a = restore_store(tmp_path / "a", backup)
    other = "roll twice" if lost.body.get("decision") == "roll" else "roll"
    call_refused(a.store, lambda: a.move(duo.game_id, other), "already signed")
    game_id, entries = a.journal_entries(duo.game_id[:8])
    assert game_id == duo.game_id
    statuses = [applied.status for applied in a.apply_entries(entries)]
    assert statuses.count("applied") == 1 and set(statuses) == {"applied", "already had"}
    assert a.game(duo.game_id).head.id == lost.id
    duo.a = a
    duo.finish()
    assert verify_text(duo.save()).ok
