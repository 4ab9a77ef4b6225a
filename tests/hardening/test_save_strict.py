"""A save is read strictly, mail and move files leniently (docs/protocol-notes.md, Files).

A save (a text whose line reads `PBEM SAVE v1`, quoting undone) holds each entry of its
game exactly once, in seq order, between that line and its `RNG LOG` line, and its
header's `game:` and `entries:` lines say the recomputed values. The same entries in a
move file or a mail thread may come in any order and any number of identical copies.
`verify_path` streams a save from disk and agrees with `verify_text` on everything.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from pbem.core.log import Entry
from pbem.errors import PbemError
from pbem.transport.armor import BEGIN, END, armor
from pbem.transport.savefile import move_file, save_sections
from pbem.verify import Report, parse_entries, verify_path, verify_text

SAVES = Path(__file__).resolve().parents[2] / "saves"
SAVE = SAVES / "barbarossa-demo.pbem"


@cache
def text() -> str:
    return SAVE.read_text(encoding="utf-8")


@cache
def entries() -> tuple[Entry, ...]:
    return tuple(parse_entries(text()))


def block(entry: Entry) -> str:
    return armor(entry.canonical, entry.signature)


def refused(report: Report, *words: str) -> str:
    assert not report.ok and report.failure is not None
    for word in words:
        assert word in report.failure, report.failure
    assert "\n" not in report.failure
    return report.failure


def quoted(body: str) -> str:
    return "\n".join("> " + line for line in body.rstrip("\n").split("\n"))


# --- a save file ------------------------------------------------------------------------------


def test_a_duplicated_entry_in_a_save_is_refused_and_named() -> None:
    five = entries()[5]
    doubled = text().replace(block(five), block(five) + "\n" + block(five))
    refused(verify_text(doubled), f"entry 5 by {five.by} refused", "a copy of it", "block 7")
    # The same copy in a move file is a quoted mail's: dropped.
    assert verify_text(doubled.replace("PBEM SAVE v1\n", "")).ok


def test_reordered_entries_in_a_save_are_refused_and_named() -> None:
    a, b = entries()[4], entries()[7]
    swapped = (
        text().replace(block(a), "@@A@@").replace(block(b), block(a)).replace("@@A@@", block(b))
    )
    refused(verify_text(swapped), f"entry 7 by {b.by} refused: out of order", "before entry 4")
    assert verify_text(swapped.replace("PBEM SAVE v1\n", "")).ok


@pytest.mark.parametrize("seq", [0, 5, 171])
def test_a_missing_entry_in_a_save_is_named(seq: int) -> None:
    gone = entries()[seq]
    failure = refused(verify_text(text().replace(block(gone), "")))
    if seq == 171:  # the last one: only the header's count tells
        assert "entry 171 is missing" in failure and "entries: 172" in failure
    else:
        after = entries()[seq + 1]
        assert failure.startswith(f"entry {seq + 1} by {after.by} refused: does not follow")
        assert ("genesis entry (entry 0)" if seq == 0 else f"no entry {seq} ") in failure


def test_the_header_must_name_the_game_and_its_length() -> None:
    game = entries()[0].id
    other = "0" * 64
    refused(
        verify_text(text().replace(f"game: {game}", f"game: {other}")),
        f"entry 0 by {entries()[0].by}",
        "header names game 0000000000000000",
    )
    refused(verify_text(text().replace("entries: 172", "entries: 173")), "entry 172 is missing")
    refused(verify_text(text().replace("entries: 172", "entries: 171")), "holds no entry 171")
    refused(verify_text(text().replace("entries: 172", "entries: many")), "not a number")
    refused(verify_text(text().replace(f"game: {game}\n", "")), "no 'game:' line")
    refused(verify_text(text().replace("entries: 172\n", "")), "no 'entries:' line")
    doubled = text().replace("entries: 172\n", "entries: 172\nentries: 172\n")
    refused(verify_text(doubled), "2 'entries:' lines")
    # The rest of the header is human text: never read, never trusted.
    assert verify_text(text().replace("result: German victory", "result: Soviet victory")).ok


def test_a_save_needs_its_rng_log_line() -> None:
    log = text().index("\nRNG LOG\n")
    # Without its header line the records could never be compared: refused, not skipped.
    refused(verify_text(text()[:log] + "\nRNG L0G\n" + text()[log + 9 :]), "no RNG LOG line")


# --- saves in mail ----------------------------------------------------------------------------


def test_a_save_quoted_twice_in_a_mail_with_loose_move_files_verifies() -> None:
    moves = move_file(list(entries()[150:]) + list(entries()[:3]))  # any order, copies
    thread = (
        text()
        + "\n-- \nBob\n\nmy moves again:\n"
        + moves
        + "\nOn Monday you wrote:\n"
        + quoted(text())
    )
    first, second = save_sections(thread)
    loose = len(entries()) - 150 + 3
    assert (first.first, first.count, second.first, second.count) == (0, 172, 172 + loose, 172)
    report = verify_text(thread)
    assert report.ok, report.failure


def test_strictness_holds_inside_each_quoted_save() -> None:
    five = entries()[5]
    bad = text().replace(block(five) + "\n", "")
    thread = text() + "\nOn Monday you wrote:\n" + quoted(bad)
    # The first copy holds entry 5, so the game replays; the second save lacks it.
    refused(verify_text(thread), "save 2 (line ", "has no entry 5 before it")


def test_save_sections_read_a_rewrapped_header() -> None:
    game = entries()[0].id
    wrapped = text().replace(f"game: {game}", f"game:\n{game[:30]}\n{game[30:]}")
    (section,) = save_sections(quoted(wrapped))
    assert section.header.value("game") == game
    assert section.header.value("entries") == "172"
    assert (section.first, section.count, section.has_log) == (0, 172, True)


def test_save_sections_count_entries_whatever_their_marker_lines() -> None:
    """Lower-case, quoted or decorated marker lines: every entry is still counted."""
    mixed = text().replace(BEGIN, BEGIN.lower(), 3).replace(END, END.lower(), 2)
    mixed = mixed.replace(END, "> " + END + " [/code]", 5)
    (section,) = save_sections(mixed)
    assert (section.first, section.count, section.has_log) == (0, 172, True)
    assert verify_text(mixed).ok


# --- streaming --------------------------------------------------------------------------------


@pytest.mark.parametrize("save", sorted(SAVES.glob("*.pbem")), ids=lambda p: p.name)
def test_a_save_file_streams_and_agrees_with_the_in_memory_path(save: Path) -> None:
    streamed = verify_path(save)
    whole = verify_text(save.read_bytes())
    assert streamed.ok and whole.ok
    assert streamed.text() == whole.text()
    game, full = streamed.game, whole.game
    assert game is not None and full is not None and game.lean and not full.lean
    assert game.entries == [] and game.actions == []  # nothing kept but the index
    assert game.entry_count == len(full.entries) and game.rng_count == len(full.rng_log)
    assert [game.entry_id(seq) for seq in range(game.entry_count)] == [e.id for e in full.entries]
    assert game.state == full.state and game.head == full.head


def test_anything_else_goes_the_in_memory_way(tmp_path: Path) -> None:
    mail = tmp_path / "thread.txt"
    mail.write_text("Hello,\n\n" + text(), encoding="utf-8")
    report = verify_path(mail)
    assert report.ok and report.game is not None and not report.game.lean
    tampered = tmp_path / "tampered.pbem"
    changed = text().replace("rng 3 4 1..6 4 event die", "rng 3 4 1..6 5 event die")
    tampered.write_text(changed, encoding="utf-8")
    refused(verify_path(tampered), "RNG log line 1 differs")
    assert verify_path(tampered).failure == verify_text(changed).failure
    wrapped = tmp_path / "wrapped.pbem"
    wrapped.write_text(text().replace("rng 3 4 1..6 4 event die", "rng 3 4 1..6 4\nevent die"))
    report = verify_path(wrapped)  # a re-wrapped record: compared the in-memory way
    assert report.ok and report.game is not None and not report.game.lean


def test_an_unreadable_file_is_a_pbem_error(tmp_path: Path) -> None:
    with pytest.raises(PbemError, match="cannot read"):
        verify_path(tmp_path / "no-such-save.pbem")


def test_streaming_refuses_nothing_the_in_memory_path_accepts(tmp_path: Path) -> None:
    """CRLF, trailing text, BOM: the stream reads them or hands over, the verdict is one."""
    variants = {
        "crlf": text().replace("\n", "\r\n"),
        "bom": "\ufeff" + text(),
        "trailing": text() + "\nThanks for the game!\n",
        "glued": text().rstrip("\n") + " and a free reroll\n",
    }
    for name, body in variants.items():
        path = tmp_path / f"{name}.pbem"
        path.write_bytes(body.encode("utf-8"))
        streamed, whole = verify_path(path), verify_text(body)
        assert streamed.ok == whole.ok and streamed.text() == whole.text(), name
    assert not verify_text(variants["glued"]).ok


def test_a_genesis_damaged_past_its_roles_reads_as_damage_not_a_header_mismatch() -> None:
    """One armor character of the race-to-berlin genesis changed so that its roles no
    longer read as keys (found by the transport property test): the failure is the
    damaged entry, not the save header's game id that no longer matches it."""
    from pbem.transport.armor import LINE_WIDTH, encode_payload
    from pbem.transport.movefile import read_entries

    text = (Path(__file__).parents[2] / "saves" / "race-to-berlin-demo.pbem").read_text()
    canonical, signature = read_entries(text)[0]
    payload = encode_payload(canonical, signature)
    b32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    changed = payload[:383] + b32[(b32.index(payload[383]) + 1) % 32] + payload[384:]
    lines = [changed[k : k + LINE_WIDTH] for k in range(0, len(changed), LINE_WIDTH)]
    damaged = text.replace(armor(canonical, signature), "\n".join([BEGIN, *lines, END, ""]), 1)
    report = verify_text(damaged)
    assert not report.ok
    assert "entry 0" in str(report.failure) and "signature does not verify" in str(report.failure)
