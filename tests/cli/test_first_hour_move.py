"""`pbem move` in the first hour: what was signed, --dry-run, -o that would lose an
unsent entry, and an entry applied before the ones it follows (issue 14)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.store.journal import default_state
from pbem.verify import parse_entries


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> Result:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result


def entry_count(home: Path) -> int:
    with sqlite3.connect(home / "store.db") as db:
        return int(db.execute("select count(*) from entries").fetchone()[0])


def journals(home: Path) -> dict[str, bytes]:
    """The signing journals (kept in the state folder, not in the store: conftest points
    it at the test's own folder)."""
    folder = default_state() / "journals"
    return {p.name: p.read_bytes() for p in folder.glob("*.pbem-journal")}


def hotseat(tmp_path: Path, rules: str, first: str, second: str) -> tuple[Path, str]:
    """One store holding both roles' keys: a game of `rules`, joined by both."""
    home = tmp_path / "home"
    ok(home, "key", "new", "a")
    ok(home, "key", "new", "b")
    start = tmp_path / "start.txt"
    made = ok(home, "new", rules, "--key", f"{first}=a", "--key", f"{second}=b", "-o", str(start))
    return home, made.stdout.strip()


def rtb(tmp_path: Path) -> tuple[Path, str]:
    """Race to Berlin: the soviet places a block first."""
    return hotseat(tmp_path, "race-to-berlin", "west", "soviet")


def test_move_echoes_the_entry_with_the_owners_sealed_value(tmp_path: Path) -> None:
    home, game = rtb(tmp_path)
    moved = ok(home, "move", game[:8], "place", "4", "in", "29", "-o", str(tmp_path / "m.txt"))
    assert "wrote 1 entry to" in moved.stdout
    assert (
        "signed entry 3 by soviet: place block in 29 (sealed: only you see 'place 4 in 29')"
        in moved.stdout
    )
    # Without -o the move file is standard output, alone; the echo goes to stderr.
    moved = ok(home, "move", game[:8], "place", "2", "in", "1")
    assert [e.seq for e in parse_entries(moved.stdout)] == [4]
    assert "signed entry 4 by west: place block in 1 (sealed: only you see" in moved.stderr
    assert "signed" not in moved.stdout


def test_move_says_still_your_turn(tmp_path: Path) -> None:
    """Berlin 1945: after some entries the game asks the same role again."""
    home, game = hotseat(tmp_path, "berlin-1945", "soviet", "german")
    lines = []
    for _ in range(20):
        result = run(
            home, "move", game[:8], "1", "--no-auto", "--force", "-o", str(tmp_path / "m.txt")
        )
        if result.exit_code != 0:
            ok(home, "ack", game[:8], "--no-auto", "-o", str(tmp_path / "a.txt"))
            continue
        lines.append(result.stdout)
        if "still your turn" in result.stdout:
            break
    said = [line for line in lines if "still your turn" in line]
    assert said, lines
    assert "waits for dice" in lines[0]  # the first draw: the dice wait for the other role


def test_dry_run_signs_stores_and_writes_nothing(tmp_path: Path) -> None:
    home, game = rtb(tmp_path)
    count, kept = entry_count(home), journals(home)
    out = tmp_path / "dry.txt"
    checked = ok(home, "move", "--dry-run", game[:8], "place", "4", "in", "29", "-o", str(out))
    assert checked.stdout.splitlines() == [
        "would sign entry 3 by soviet: place block in 29 (sealed: only you see 'place 4 in 29')",
        "nothing signed, stored or written (--dry-run)",
    ]
    assert entry_count(home) == count
    assert journals(home) == kept and kept  # the journals exist, and are unchanged
    assert not out.exists()
    # The same move, for real, signs what the dry run said.
    moved = ok(home, "move", game[:8], "place", "4", "in", "29", "-o", str(tmp_path / "m.txt"))
    assert "signed entry 3 by soviet: place block in 29" in moved.stdout
    assert entry_count(home) == count + 1


def test_dry_run_refuses_an_illegal_move_in_one_line(tmp_path: Path) -> None:
    home, game = rtb(tmp_path)
    count = entry_count(home)
    refused = run(home, "move", "--dry-run", game[:8], "place", "9", "in", "29")
    assert refused.exit_code == 1
    assert refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("error: illegal: ") and "9-block" in refused.stderr
    assert refused.stdout == ""
    assert entry_count(home) == count


def test_dry_run_of_a_move_that_waits_for_dice(tmp_path: Path) -> None:
    home, game = hotseat(tmp_path, "berlin-1945", "soviet", "german")
    count = entry_count(home)
    checked = ok(home, "move", "--dry-run", game[:8], "1")
    assert "would sign entry 3 by german: draw" in checked.stdout
    assert "waits for dice" in checked.stdout
    assert entry_count(home) == count


def test_o_overwrites_an_answered_entry(tmp_path: Path) -> None:
    home, game = rtb(tmp_path)
    move_file = tmp_path / "m.txt"
    ok(home, "move", game[:8], "place", "4", "in", "29", "-o", str(move_file))
    sent = move_file.read_bytes()
    ok(home, "move", game[:8], "place", "2", "in", "1", "-o", str(tmp_path / "w.txt"))
    # The soviet's entry 3 in m.txt is answered (entry 4 by west): m.txt may be reused.
    ok(home, "move", game[:8], "place", "2", "in", "4", "-o", str(move_file))
    assert move_file.read_bytes() != sent
    # West's next move answers the soviet's entry 5 in m.txt: allowed there too.
    ok(home, "move", game[:8], "place", "2", "in", "2", "-o", str(move_file))
    assert [e.seq for e in parse_entries(move_file.read_bytes())] == [6]


def test_o_refuses_to_overwrite_an_unsent_entry(tmp_path: Path) -> None:
    """Still your turn: a second move to the same file would lose the first."""
    home, game = hotseat(tmp_path, "berlin-1945", "soviet", "german")
    move_file = tmp_path / "m.txt"
    for _ in range(20):
        result = run(home, "move", game[:8], "1", "--no-auto", "--force", "-o", str(move_file))
        if result.exit_code != 0:
            ok(home, "ack", game[:8], "--no-auto", "-o", str(tmp_path / "a.txt"))
        elif "still your turn" in result.stdout:
            break
    else:
        raise AssertionError("never asked the same role twice")
    held = move_file.read_bytes()
    (unsent,) = parse_entries(held)
    count = entry_count(home)
    refused = run(home, "move", game[:8], "1", "--no-auto", "-o", str(move_file))
    assert refused.exit_code == 1
    assert refused.stderr.count("\n") == 1
    assert f"holds {unsent.describe()}, which the other side may not have yet" in refused.stderr
    assert "--force" in refused.stderr
    assert entry_count(home) == count  # the refused move signed nothing
    assert move_file.read_bytes() == held
    forced = ok(home, "move", game[:8], "1", "--no-auto", "-o", str(move_file), "--force")
    assert "wrote 1 entry" in forced.stdout
    assert [e.seq for e in parse_entries(move_file.read_bytes())] == [unsent.seq + 1]


def test_o_overwrites_a_file_without_unsent_entries_of_this_game(tmp_path: Path) -> None:
    home, game = rtb(tmp_path)
    other, other_game = rtb(tmp_path / "other")
    theirs = tmp_path / "theirs.txt"
    ok(other, "move", other_game[:8], "place", "4", "in", "29", "-o", str(theirs))
    notes = tmp_path / "notes.txt"
    notes.write_text("not a move file\n")
    # Another game's entry, or no entry at all: nothing of this game to lose.
    ok(home, "move", game[:8], "place", "4", "in", "29", "-o", str(theirs))
    ok(home, "move", game[:8], "place", "2", "in", "1", "-o", str(notes))
    assert [e.seq for e in parse_entries(notes.read_bytes())] == [4]
    assert "--force" in run(home, "move", "--help").stdout


def test_apply_says_which_entries_are_missing(tmp_path: Path) -> None:
    home, game = rtb(tmp_path)
    opponent = tmp_path / "opponent"
    ok(opponent, "apply", str(tmp_path / "start.txt"))
    for n, words in enumerate(["place 4 in 29", "place 2 in 1", "place 2 in 4"], start=3):
        ok(home, "move", game[:8], *words.split(), "-o", str(tmp_path / f"m{n}.txt"))
    refused = run(opponent, "apply", str(tmp_path / "m5.txt"))
    assert refused.exit_code == 1
    assert refused.stderr.count("\n") == 1
    assert "entry 5 by soviet does not follow the head" in refused.stderr
    assert "ends at entry 2, so entries 3 to 4 are missing" in refused.stderr
    assert f"pbem export {game[:12]} --since 3" in refused.stderr
    refused = run(opponent, "apply", str(tmp_path / "m4.txt"))
    assert "so entry 3 is missing" in refused.stderr
    for n in (3, 4, 5):
        ok(opponent, "apply", str(tmp_path / f"m{n}.txt"))
    assert entry_count(opponent) == 6
