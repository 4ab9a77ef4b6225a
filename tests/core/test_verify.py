"""verify_text on whole saves (protocol sections 6 and 7): what passes, what is refused, and how."""

from __future__ import annotations

import re

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.core.log import Entry
from pbem.crypto import sshsig
from pbem.transport.armor import BEGIN, END, LINE_WIDTH, armor, encode_payload
from pbem.verify import Report, parse_entries, verify_text
from tests.support.players import Duo

B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Duo, str]:
    duo = Duo(tmp_path_factory.mktemp("verify"))
    duo.finish()
    return duo, duo.save()


def entries_of(duo: Duo) -> list[Entry]:
    return list(duo.a.game(duo.game_id).entries)


def test_a_whole_game_verifies(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    report = verify_text(save)
    assert report.ok, report.text()
    assert report.failure is None
    game = duo.a.game(duo.game_id)
    assert report.game is not None and report.game.id == game.id
    assert [e.id for e in report.game.entries] == [e.id for e in game.entries]
    text = report.text()
    assert text.endswith("OK: every check holds")
    assert f"game {game.id}" in text
    assert "RNG log: 6 lines match the recomputed dice" in text
    outcome = game.outcome()
    assert outcome is not None and f"result: {outcome.text}" in text
    assert f"result: {outcome.text}" in save  # the header says the same, untrusted


def test_the_save_survives_mail(finished: tuple[Duo, str]) -> None:
    _duo, save = finished
    quoted = "\n".join("> " + line for line in save.splitlines())
    assert verify_text(quoted).ok
    assert verify_text(save.replace("\n", "\r\n")).ok
    assert verify_text(save.encode()).ok


def test_human_lines_are_not_trusted(finished: tuple[Duo, str]) -> None:
    _duo, save = finished
    lying = re.sub(r"(seq 3 by a): roll", r"\1: roll twice and win", save)
    lying = lying.replace("result: ", "result: a wins 99-0, really: ")
    assert lying != save
    assert verify_text(lying).ok


def _rng_section(save: str) -> tuple[str, list[str]]:
    head, _, tail = save.partition("RNG LOG\n")
    return head, tail.splitlines()


def test_altered_rng_line_is_refused(finished: tuple[Duo, str]) -> None:
    _duo, save = finished
    head, lines = _rng_section(save)
    first = lines[0].split(" ")
    first[4] = str(int(first[4]) % 6 + 1)  # another die value
    altered = head + "RNG LOG\n" + "\n".join([" ".join(first), *lines[1:]]) + "\n"
    report = verify_text(altered)
    assert not report.ok
    assert report.failure is not None and "RNG log line 1" in report.failure
    assert "FAILED" in report.text()


def test_altered_rng_purpose_is_refused(finished: tuple[Duo, str]) -> None:
    _duo, save = finished
    head, lines = _rng_section(save)
    lines[2] = lines[2].replace("die 1", "die 2")
    report = verify_text(head + "RNG LOG\n" + "\n".join(lines) + "\n")
    assert not report.ok and report.failure is not None
    assert "RNG log line 3" in report.failure


@pytest.mark.parametrize("change", ["drop", "extra"])
def test_rng_log_of_the_wrong_length_is_refused(finished: tuple[Duo, str], change: str) -> None:
    _duo, save = finished
    head, lines = _rng_section(save)
    lines = lines[:-1] if change == "drop" else [*lines, "rng 9 10 1..6 6 a die 1"]
    report = verify_text(head + "RNG LOG\n" + "\n".join(lines) + "\n")
    assert not report.ok and report.failure is not None
    assert "RNG log has" in report.failure


def test_a_second_rng_section_cannot_hide_a_tampered_first(finished: tuple[Duo, str]) -> None:
    _duo, save = finished
    head, lines = _rng_section(save)
    first = lines[0].split(" ")
    first[4] = str(int(first[4]) % 6 + 1)
    tampered = "\n".join([" ".join(first), *lines[1:]])
    text = head + "RNG LOG\n" + tampered + "\n\nRNG LOG\n" + "\n".join(lines) + "\n"
    assert not verify_text(text).ok


def test_removed_entry_names_the_first_bad_entry(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    entries = entries_of(duo)
    removed, following = entries[5], entries[6]
    block = armor(removed.canonical, removed.signature)
    assert block in save
    report = verify_text(save.replace(block, ""))
    assert not report.ok and report.failure is not None
    assert report.failure.startswith(f"entry {following.seq} by {following.by} refused")
    assert "does not follow the head" in report.failure


def test_entries_out_of_order_refuse_a_save_but_not_a_mail(finished: tuple[Duo, str]) -> None:
    """A save promises every entry once, in order; a mail's entries may come in any order."""
    duo, save = finished
    entries = entries_of(duo)
    a, b = entries[4], entries[7]
    block_a, block_b = armor(a.canonical, a.signature), armor(b.canonical, b.signature)
    swapped = save.replace(block_a, "@@A@@").replace(block_b, block_a).replace("@@A@@", block_b)
    assert swapped != save
    report = verify_text(swapped)
    assert not report.ok and "out of order" in str(report.failure)
    mail = swapped.replace("PBEM SAVE v1\n", "", 1)
    assert verify_text(mail).ok


# --- damage --------------------------------------------------------------------------------


def _armor_with(payload: str) -> str:
    lines = [payload[i : i + LINE_WIDTH] for i in range(0, len(payload), LINE_WIDTH)]
    return "\n".join([BEGIN, *lines, END, ""])


def _flip_reports(save: str, entry: Entry, chars: list[int]) -> list[Report]:
    payload = encode_payload(entry.canonical, entry.signature)
    block = armor(entry.canonical, entry.signature)
    assert block in save
    reports = []
    for i in chars:
        for new in B32:
            if new == payload[i]:
                continue
            damaged = _armor_with(payload[:i] + new + payload[i + 1 :])
            reports.append(verify_text(save.replace(block, damaged)))
    return reports


def _chars_inside(entry: Entry, needle: bytes, length: int) -> list[int]:
    """Payload characters whose 5 bits all lie in the `length` bytes after `needle` in C."""
    start = 4 + entry.canonical.index(needle) + len(needle)
    first = -(-8 * start // 5)
    last = (8 * (start + length)) // 5 - 1
    return list(range(first, last + 1))


def _looks_like_damage(failure: str) -> bool:
    lowered = failure.lower()
    return any(word in lowered for word in ("damage", "signature", "signed by", "armored entry"))


def _assert_all_damage(reports: list[Report]) -> None:
    assert reports
    for report in reports:
        assert not report.ok
        assert report.failure is not None
        assert _looks_like_damage(report.failure), report.failure


def test_flip_in_the_json_structure_is_damage(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    entry = entries_of(duo)[5]
    reports = _flip_reports(save, entry, [0, 1, 2, 3, 7, 8, 9])
    _assert_all_damage(reports)
    assert any("is damaged" in (r.failure or "") for r in reports)


def test_flip_in_the_decision_or_reveal_is_damage(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    entry = entries_of(duo)[5]
    chars = _chars_inside(entry, b'"decision":"', 4)[:3]
    chars += _chars_inside(entry, b'"reveal":"', 64)[10:14]
    reports = _flip_reports(save, entry, chars)
    _assert_all_damage(reports)
    # some flips leave well-formed JSON: the signature is what catches them
    assert any("bad signature" in (r.failure or "") for r in reports)


def test_flip_in_the_signature_is_damage(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    entry = entries_of(duo)[5]
    payload = encode_payload(entry.canonical, entry.signature)
    _assert_all_damage(_flip_reports(save, entry, [len(payload) - 20, len(payload) - 40]))


def test_last_character_flip_is_damage(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    entry = entries_of(duo)[5]
    payload = encode_payload(entry.canonical, entry.signature)
    _assert_all_damage(_flip_reports(save, entry, [len(payload) - 1]))


@pytest.mark.parametrize("field", ["game", "prev"])
def test_flip_in_game_or_prev_is_damage(finished: tuple[Duo, str], field: str) -> None:
    duo, save = finished
    entry = entries_of(duo)[5]
    chars = _chars_inside(entry, f'"{field}":"'.encode(), 64)[20:24]
    _assert_all_damage(_flip_reports(save, entry, chars))


@pytest.mark.parametrize("bad", ["1", "!", "=", "0", "8", "é"])
def test_foreign_character_in_the_armor_is_damage(finished: tuple[Duo, str], bad: str) -> None:
    duo, save = finished
    entry = entries_of(duo)[3]
    block = armor(entry.canonical, entry.signature)
    lines = block.split("\n")
    lines[2] = lines[2][:10] + bad + lines[2][11:]
    report = verify_text(save.replace(block, "\n".join(lines)))
    assert not report.ok and report.failure is not None
    assert "damage" in report.failure
    assert repr(bad) in report.failure


def test_missing_end_marker(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    entry = entries_of(duo)[3]
    block = armor(entry.canonical, entry.signature)
    report = verify_text(save.replace(block, block.replace(END, "")))
    assert not report.ok and report.failure is not None
    assert "missing END" in report.failure


def test_text_without_entries() -> None:
    report = verify_text("hello, no game here\n")
    assert not report.ok and report.failure == "no PBEM entries found"


def test_save_without_its_genesis(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    genesis = entries_of(duo)[0]
    report = verify_text(save.replace(armor(genesis.canonical, genesis.signature), ""))
    assert not report.ok and report.failure is not None
    assert "genesis" in report.failure


def test_lone_surrogate_entry_is_reported_not_crashed(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    game = duo.a.game(duo.game_id)
    last = game.entries[-1]
    fields = {
        "v": 1,
        "kind": "move",
        "game": game.id,
        "seq": last.seq + 1,
        "prev": last.id,
        "by": "a",
        "reveal": "00" * 32,
        "body": {"decision": "PLACEHOLDER"},
    }
    data = canonical_bytes(fields).replace(b"PLACEHOLDER", b"\\ud800")
    signature = sshsig.sign(duo.key("a"), data)
    report = verify_text(save + "\n" + armor(data, signature))
    assert not report.ok


def test_chain_seeds_never_leave_the_store(finished: tuple[Duo, str]) -> None:
    duo, save = finished
    inside = [e.canonical.decode() for e in parse_entries(save)]
    game_id = parse_entries(save)[0].id
    seeds = [duo.a.chain_seed(game_id, "a").hex(), duo.b.chain_seed(game_id, "b").hex()]
    assert len(set(seeds)) == 2
    for seed in seeds:
        assert seed not in save and seed.upper() not in save
        assert not any(seed in text for text in inside)
