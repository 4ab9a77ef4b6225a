"""What cannot be checked is said (protocol section 8; issue 11, item 9).

A player who plays a card from a hand he never opens, or who goes silent on a roll, is
not caught by the log until the values open. `verify` of an unfinished or abandoned game
lists every such claim by entry and role, so a referee knows what the verdict does not
cover; a finished game with an unopened commitment fails (tests/core/test_verify.py).

The logs here are real: demo games played between two stores (pbem.demo), cut where a
player stopped answering. What must be listed is computed from the entries themselves
(what they commit and open), not from the adjudicator that makes the list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.core.log import Entry
from pbem.demo import run_demo
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text
from tests.support.signatures_once import accepted_once


@pytest.fixture(scope="module", autouse=True)
def _signatures_checked_once() -> Iterator[None]:
    """The same logs are verified cut after cut (every prefix verifies all the entries
    before it again): each accepted signature is checked by Ed25519 once for the module;
    refusals and any other bytes are checked every time (tests/support/signatures_once.py)."""
    with accepted_once():
        yield


@pytest.fixture(scope="module")
def berlin(tmp_path_factory: pytest.TempPathFactory) -> list[Entry]:
    folder = tmp_path_factory.mktemp("b45")
    run_demo("berlin-1945", folder, seed=5)
    return parse_entries((folder / "berlin-1945-demo.pbem").read_text())


SAVES = Path(__file__).resolve().parents[2] / "saves"


def still_sealed(entries: list[Entry]) -> dict[str, Entry]:
    """label -> the entry that committed it, for every commitment not opened in `entries`."""
    committed: dict[str, Entry] = {}
    for entry in entries:
        for label in dict(entry.body.get("commit") or {}):
            committed[label] = entry
        for opening in list(entry.body.get("open") or []):
            assert isinstance(opening, dict)
            committed.pop(str(opening["label"]), None)
    return committed


def cut_points(entries: list[Entry]) -> list[int]:
    """Places to abandon the game where something is sealed, early and late."""
    points = [n for n in range(3, len(entries)) if still_sealed(entries[:n])]
    return sorted({points[0], points[len(points) // 2], points[-1]})


def test_an_abandoned_game_lists_every_sealed_value_by_entry_and_role(
    berlin: list[Entry],
) -> None:
    for n in cut_points(berlin):
        log = berlin[:n]
        report = verify_text(move_file(log))
        assert report.ok, report.failure
        text = report.text()
        sealed = still_sealed(log)
        assert f"cannot be checked yet ({len(report.game.unchecked())})" in text  # type: ignore[union-attr]
        for label, entry in sealed.items():
            assert f"entry {entry.seq} by {entry.by}: commitment {label} is not opened" in text


def test_cards_played_from_an_unopened_hand_are_listed(berlin: list[Entry]) -> None:
    """Cards drawn into a hand are private draws from a sealed secret: while it is sealed,
    no card played from that hand can be checked against the draw, and verify says so."""
    save_lines = []
    for n in cut_points(berlin):
        report = verify_text(move_file(berlin[:n]))
        assert report.game is not None
        draws = [line for line in report.lines if "private draw" in line]
        secrets = {
            label
            for label in still_sealed(berlin[:n])
            if any(f"its secret {label} is not opened" in line for line in draws)
        }
        save_lines += draws
        for line in draws:
            found = re.search(r"entry (\d+) by (\w+): private draw", line)
            assert found is not None, line
            author = berlin[int(found.group(1))].by
            assert found.group(2) == author  # the drawing role, who must open its secret
        assert secrets <= set(still_sealed(berlin[:n]))
    assert save_lines, "the demo draws cards into hands: some draws must be listed"


def test_a_finished_game_says_nothing_is_left_unchecked(berlin: list[Entry]) -> None:
    report = verify_text(move_file(berlin))
    assert report.ok
    assert "cannot be checked yet" not in report.text()
    assert report.game is not None and report.game.unchecked() == []


def test_dice_a_player_went_silent_on_are_listed(tmp_path: Path) -> None:
    from tests.support.players import Duo

    duo = Duo(tmp_path)
    rolled = duo.step()  # a rolls: the die waits for b's next entry, which never comes
    report = verify_text(duo.save())
    assert report.ok
    line = f"entry {rolled.seq} by a: its dice are not rolled: they wait for the next entry of b"
    assert line in report.text()


def test_the_cli_prints_the_list_for_a_save_and_for_a_mail(
    berlin: list[Entry], tmp_path: Path
) -> None:
    n = cut_points(berlin)[1]
    thread = tmp_path / "thread.txt"
    thread.write_text("quoted:\n" + move_file(berlin[:n]))
    result = CliRunner().invoke(main, ["verify", str(thread)], env={"PBEM_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    for label, entry in still_sealed(berlin[:n]).items():
        assert f"entry {entry.seq} by {entry.by}: commitment {label} is not opened" in result.output


def test_claims_about_sealed_blocks_are_listed(tmp_path: Path) -> None:
    """Race to Berlin: cubes taken from a logistics block claim whether they exhaust it;
    the claim is checked when the block opens, and listed until then."""
    entries = parse_entries((SAVES / "race-to-berlin-demo.pbem").read_text())
    listed = 0
    # Every 7th prefix (a prime step, so the cut falls on every kind of entry in turn).
    for n in range(10, len(entries), 7):
        report = verify_text(move_file(entries[:n]))
        assert report.ok, report.failure
        for line in report.lines:
            found = re.search(r"entry (\d+) by (\w+): a claim about (\S+) \(cubes", line)
            if found is None:
                continue
            listed += 1
            seq, role, label = int(found.group(1)), found.group(2), found.group(3)
            assert entries[seq].by == role
            # Listed only while sealed, or opened by an entry whose dice (and so its own
            # application, claim checks included) still wait for the other side.
            applied = entries[:n]
            if report.game is not None and report.game.waiting_for_entropy:
                applied = entries[: n - 1]
                assert f"entry {n - 1} by {entries[n - 1].by}: its dice are not rolled" in (
                    report.text()
                )
            assert label in still_sealed(applied)
    assert listed, "the demo's players take cubes from sealed blocks: claims must be listed"
