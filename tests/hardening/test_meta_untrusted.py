"""A note to the opponent is text from the log (protocol section 8; issue 14): a validly
signed entry whose note holds a control character, or is longer than the cap, made by an
attacker's own tool that skips the client's checks, is refused by `verify` (every path)
and by `apply`, with one line naming the entry."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.core.canonical import JSON, canonical_bytes
from pbem.core.meta import NOTE_MAX
from pbem.crypto import sshsig
from pbem.transport.armor import armor
from pbem.transport.savefile import move_file
from pbem.verify import verify_text
from tests.support.players import Table


def one_error_line(result: Result) -> str:
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def forged_note_log(note: str) -> str:
    """A toy game's entries, then a move by a, signed with a's real key, carrying `note`:
    canonical bytes signed directly, as an attacker's tool would."""
    table = Table("toy-dice", ("a", "b"), nonce="forged note")
    table.join_all()
    fields: dict[str, JSON] = table.fields("a", "move", {"decision": "roll", "note": note})
    canonical = canonical_bytes(fields)
    forged = armor(canonical, sshsig.sign(table.keys["a"], canonical))
    return move_file(table.game.entries) + "\n" + forged + "\n"


@pytest.mark.parametrize("char", ["\x1b", "\n", "\x9b", "\u202e"])
def test_a_signed_note_with_a_control_character_is_refused_by_verify(char: str) -> None:
    text = forged_note_log(f"gg{char}[2J")
    report = verify_text(text)
    assert not report.ok
    assert f"entry 3 by a refused: body/note holds the control character U+{ord(char):04X}" in (
        report.failure or ""
    )
    line = one_error_line(CliRunner().invoke(main, ["verify", "-"], input=text))
    assert f"body/note holds the control character U+{ord(char):04X}" in line


def test_a_signed_note_over_the_cap_is_refused_by_verify_and_apply(tmp_path: Path) -> None:
    text = forged_note_log("n" * (NOTE_MAX + 1))
    report = verify_text(text)
    assert not report.ok
    assert report.failure == (
        f"entry 3 by a refused: a note is at most {NOTE_MAX} characters, "
        f"this one has {NOTE_MAX + 1}"
    )
    (tmp_path / "log.txt").write_text(text, encoding="utf-8")
    applied = CliRunner().invoke(
        main, ["--home", str(tmp_path / "h"), "apply", str(tmp_path / "log.txt")]
    )
    assert "a note is at most 500 characters" in one_error_line(applied)
    assert verify_text(forged_note_log("n" * NOTE_MAX)).ok  # the cap itself is fine
