"""A league's archive (issue 17): 200 games, 10 of them with a cheat of a different kind
planted (tests/support/league.py), checked by one `pbem verify --json --jobs 2 FOLDER`.
Every cheat is found, named (`cheat`) and pinned on the entry that holds it
(`bad_entry`), and no honest game is blamed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from tests.support.league import CHEATS, Planted, honest_game

GAMES = 200
Archive = tuple[Path, dict[str, tuple[str, Planted]]]  # folder, file -> (what, cheat)


@pytest.fixture(scope="module")
def archive(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, tuple[str, Planted]]]:
    folder = tmp_path_factory.mktemp("league")
    planted: dict[str, tuple[str, Planted]] = {}  # file name -> (what was planted, its Planted)
    slots = {(i * GAMES) // len(CHEATS) + 7: name for i, name in enumerate(CHEATS)}
    for index in range(GAMES):
        name = f"game-{index:03d}.pbem"
        if index in slots:
            cheat = CHEATS[slots[index]]()
            planted[name] = (slots[index], cheat)
            text = cheat.text
        else:
            text = honest_game(index)
        (folder / name).write_text(text, encoding="utf-8")
    return folder, planted


def test_every_planted_cheat_is_found_and_named_and_no_honest_game_blamed(
    archive: Archive,
) -> None:
    folder, planted = archive
    result = CliRunner().invoke(main, ["verify", "--json", "--jobs", "2", str(folder)])
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    records = {Path(record["file"]).name: record for record in document["files"]}
    assert len(records) == GAMES
    failed = {name for name, record in records.items() if not record["ok"]}
    assert failed == set(planted), "an honest game blamed, or a cheat missed"
    kinds = set()
    for name, (what, cheat) in planted.items():
        record = records[name]
        assert record["cheat"] == cheat.cheat, f"{what}: {record['error']}"
        seq = cheat.seq
        if seq is not None:
            assert record["bad_entry"] is not None, what
            assert record["bad_entry"]["seq"] == seq, f"{what}: {record['error']}"
        kinds.add(what)
    assert len(kinds) == len(CHEATS) == 10
    for name, record in records.items():
        if name not in planted:
            assert record["cheat"] is None and record["bad_entry"] is None
    assert f"10 of {GAMES} files failed verification" in result.stderr


def test_the_plain_report_names_each_cheat_on_its_line(
    archive: Archive,
) -> None:
    folder, planted = archive
    result = CliRunner().invoke(main, ["verify", "--jobs", "2", str(folder)])
    assert result.exit_code == 1
    lines = [line for line in result.stdout.splitlines() if "FAILED" in line]
    assert len(lines) == len(planted)
    for line in lines:
        name = Path(line.split(":", 1)[0]).name
        assert f"[{planted[name][1].cheat}" in line
