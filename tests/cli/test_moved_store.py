"""A store folder moved whole still signs (issue 14): `mv ~/.local/share/pbem /elsewhere`
and `PBEM_HOME=/elsewhere` (here `--home`) keep a game going.

A key made by `pbem key new` is recorded relative to the store (`keys/NAME`); a row left
by an earlier version holds the old absolute path, and the file of that name under the
moved store's keys/ folder is used when it holds the same key. The signing journal lives
in the user's state folder, named by the key's fingerprint (pbem/store/journal.py), so
moving the store changes nothing for it and it still refuses a second, different entry
for a reveal already signed (protocol section 8). A key imported from outside the store
stays where it is and is recorded by its absolute path.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.crypto.keys import PublicKey, generate, load_private_key, write_private_key
from pbem.store.journal import default_state, journal_name


def public_of(private_key_file: Path) -> PublicKey:
    return load_private_key(private_key_file.read_bytes()).public


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def ok(home: Path, *args: str) -> Result:
    result = run(home, *args)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result


def key_rows(home: Path) -> dict[str, str]:
    with sqlite3.connect(home / "store.db") as db:
        return dict(db.execute("SELECT name, private_path FROM keys"))


def set_private_path(home: Path, name: str, path: str) -> None:
    """What an earlier version recorded: the key file's absolute path."""
    with sqlite3.connect(home / "store.db") as db:
        db.execute("UPDATE keys SET private_path = ? WHERE name = ?", (path, name))


def copy_db(db: Path, to: Path) -> None:
    """A consistent copy of a store's database (a backup, or restoring one)."""
    source, target = sqlite3.connect(db), sqlite3.connect(to)
    source.backup(target)
    source.close()
    target.close()


def listed(home: Path) -> dict[str, list[str]]:
    rows = ok(home, "key", "list").stdout.splitlines()
    return {line.split("\t")[0]: line.split("\t")[1:] for line in rows}


class Race:
    """A Race to Berlin game between two stores: `west` starts it, `soviet` joins.

    `west_key` is the west's own key file when it was imported instead of made."""

    def __init__(self, tmp_path: Path, west_key: Path | None = None) -> None:
        self.dir = tmp_path
        self.west, self.soviet = tmp_path / "west", tmp_path / "soviet"
        if west_key is None:
            ok(self.west, "key", "new", "w")
        else:
            ok(self.west, "key", "import", "w", str(west_key))
        ok(self.soviet, "key", "new", "s")
        west_file = west_key or self.west / "keys" / "w"
        west_pub = west_file.with_name(west_file.name + ".pub")
        ok(self.west, "key", "import", "s", str(self.soviet / "keys" / "s.pub"))
        ok(self.soviet, "key", "import", "w", str(west_pub))
        start = self.file("start")
        made = ok(self.west, "new", "race-to-berlin", "--key", "west=w", "--key", "soviet=s")
        self.game = made.stdout.strip()
        start.write_text(ok(self.west, "export", self.game[:8]).stdout)
        ok(self.soviet, "apply", str(start))
        ok(self.soviet, "join", self.game[:8], "-o", str(self.file("join")))
        ok(self.west, "apply", str(self.file("join")))
        # The soviet places a block first (entry 3), then the west (entry 4).
        self.play(self.soviet, "place 4 in 29", self.west)

    def file(self, name: str) -> Path:
        return self.dir / f"{name}.txt"

    def play(self, home: Path, words: str, to: Path) -> Path:
        out = self.file(words.replace(" ", "-"))
        ok(home, "move", self.game[:8], *words.split(), "-o", str(out))
        ok(to, "apply", str(out))
        return out

    def move_west(self) -> Path:
        """`mv` the west's whole store folder elsewhere; the old place is gone."""
        moved = self.dir / "elsewhere" / "pbem"
        moved.parent.mkdir()
        shutil.move(str(self.west), str(moved))
        assert not self.west.exists()
        self.west = moved
        return moved

    def verifies(self) -> None:
        """Both stores' logs are the same and the whole game verifies."""
        saved = self.dir / "game.pbem"
        saved.write_text(ok(self.west, "export", self.game[:8]).stdout)
        assert saved.read_text() == ok(self.soviet, "export", self.game[:8]).stdout
        checked = run(self.dir / "checker", "verify", str(saved))
        assert checked.exit_code == 0, checked.output


def test_a_moved_store_signs_the_next_move_and_keeps_its_journal(tmp_path: Path) -> None:
    race = Race(tmp_path)
    assert key_rows(race.west)["w"] == "keys/w"  # relative to the store
    before = tmp_path / "before-entry-4.db"
    copy_db(race.west / "store.db", before)
    race.play(race.west, "place 2 in 1", race.soviet)  # entry 4, signed at the old place
    old = race.west

    moved = race.move_west()
    assert listed(moved)["w"][1:] == ["private", str(moved / "keys" / "w")]
    race.play(race.soviet, "place 2 in 4", moved)  # entry 5
    race.play(moved, "place 2 in 2", race.soviet)  # entry 6, signed at the new place
    race.verifies()
    assert not old.exists()

    # The journal is not in the store folder, so the move left it where it was: the store
    # put back as it was before entry 4 (a backup of store.db) refuses to sign a different
    # entry 4 with the same reveal, and says how to get entry 4 back.
    assert not list(moved.rglob("*.pbem-journal"))
    copy_db(before, moved / "store.db")
    refused = run(moved, "move", race.game[:8], "place", "2", "in", "3")
    assert refused.exit_code == 1
    assert "already signed" in refused.stderr
    assert f"pbem recover {race.game[:12]}" in refused.stderr


def test_an_absolute_row_of_an_earlier_version_still_signs_after_the_move(
    tmp_path: Path,
) -> None:
    race = Race(tmp_path)
    old_file = race.west / "keys" / "w"
    set_private_path(race.west, "w", str(old_file.resolve()))
    race.play(race.west, "place 2 in 1", race.soviet)  # the absolute row works in place

    moved = race.move_west()
    assert not old_file.exists()
    assert listed(moved)["w"][1:] == ["private", str(moved / "keys" / "w")]
    race.play(race.soviet, "place 2 in 4", moved)
    race.play(moved, "place 2 in 2", race.soviet)  # signed with keys/w of the moved store
    race.verifies()
    # Found after the move, the key is recorded relative to the store again.
    assert key_rows(moved)["w"] == "keys/w"


def test_an_absolute_row_is_not_redirected_to_a_different_key_of_that_name(
    tmp_path: Path,
) -> None:
    race = Race(tmp_path)
    set_private_path(race.west, "w", str((race.west / "keys" / "w").resolve()))
    moved = race.move_west()
    # Another key now sits under that name in the moved store's keys/ folder.
    for name in ("w", "w.pub"):
        (moved / "keys" / name).unlink()
    write_private_key(moved / "keys" / "w", generate("w"))
    refused = run(moved, "move", race.game[:8], "place", "2", "in", "1")
    assert refused.exit_code == 1
    assert refused.stderr.count("\n") == 1
    assert f"cannot read the private key {(tmp_path / 'west' / 'keys' / 'w').resolve()}" in (
        refused.stderr
    )


def test_a_key_imported_from_outside_stays_absolute(tmp_path: Path) -> None:
    own = tmp_path / "ssh" / "id_ed25519"
    own.parent.mkdir()
    write_private_key(own, generate("me@laptop"))
    race = Race(tmp_path, west_key=own)
    assert key_rows(race.west)["w"] == str(own.resolve())
    race.play(race.west, "place 2 in 1", race.soviet)

    moved = race.move_west()
    assert key_rows(moved)["w"] == str(own.resolve())
    assert listed(moved)["w"][1:] == ["private", str(own.resolve())]
    race.play(race.soviet, "place 2 in 4", moved)
    race.play(moved, "place 2 in 2", race.soviet)
    race.verifies()
    # Its journal is in the state folder, neither beside the key nor in the store.
    assert (default_state() / "journals" / journal_name(public_of(own))).is_file()
    assert not (own.parent / "id_ed25519.pbem-journal").exists()
    assert not list(moved.rglob("*.pbem-journal"))
