"""Issue 14: a decision typed unquoted on a shell command line reaches pbem word for word.

`pbem move G move 28 -> 29: su-3bf` made bash write a file `29:` (`>` redirects); from
Race to Berlin rules 1.1 the decision is `move 28 to 29 with su-3bf`, and this test types
it through a real `bash -c` into a real store and checks what was signed."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.verify import parse_entries


def ok(home: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result


def bash(cwd: Path, home: Path, words: str) -> subprocess.CompletedProcess[str]:
    """`pbem --home HOME <words>` as typed on a bash command line: `words` unquoted."""
    line = f"{shlex.quote(sys.executable)} -m pbem --home {shlex.quote(str(home))} {words}"
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_an_unquoted_move_through_bash_is_signed_word_for_word(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ok(home, "key", "new", "a")
    ok(home, "key", "new", "b")
    made = ok(home, "new", "race-to-berlin", "--key", "west=a", "--key", "soviet=b")
    game = made.stdout.strip()[:8]
    for n in range(16):  # the Logistics Phase of turn 1: 8 blocks each, the first listed
        ok(home, "move", game, "1", "-o", str(tmp_path / f"place{n}.txt"))
    shell = tmp_path / "shell"
    shell.mkdir()

    # The old syntax, quoted as `pbem move --help` says, reads alike (checked, not signed).
    checked = bash(shell, home, f"move --dry-run {game} 'move 28 -> 29: su-3bf'")
    assert checked.returncode == 0, checked.stderr
    assert "would sign entry 19 by soviet: move 28 to 29 with su-3bf" in checked.stdout

    moved = bash(shell, home, f"move {game} move 28 to 29 with su-3bf -o moved.txt")
    assert moved.returncode == 0, moved.stderr
    assert "signed entry 19 by soviet: move 28 to 29 with su-3bf" in moved.stdout
    # nothing but the move file: no file named by a redirection
    assert sorted(p.name for p in shell.iterdir()) == ["moved.txt"]
    (entry,) = parse_entries((shell / "moved.txt").read_bytes())
    assert entry.by == "soviet" and entry.body["decision"] == "move 28 to 29 with su-3bf"

    # The words of the issue, without `with`, read as the same move (checked, not signed).
    west = bash(shell, home, f"move --dry-run {game} move 1 to 2 us-9")
    assert west.returncode == 0, west.stderr
    assert "would sign entry 20 by west: move 1 to 2 with us-9" in west.stdout


def test_move_help_says_to_quote_shell_characters(tmp_path: Path) -> None:
    helped = ok(tmp_path / "home", "move", "--help")
    text = " ".join(helped.stdout.split())
    assert "unquoted: `pbem move GAME move 28 to 29 with su-3bf`" in text
    assert "Quote a decision that holds characters your shell treats specially" in text
