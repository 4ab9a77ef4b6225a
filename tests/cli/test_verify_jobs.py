"""`pbem verify --jobs N SOURCE...`: an archive of games verified in worker processes.

One line per file in the order given (a folder: its *.pbem files, sorted), the same
lines whatever N is, and exit 1 when any file fails.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.verify import verify_text

SAVES = sorted((Path(__file__).resolve().parents[2] / "saves").glob("*.pbem"))
BARBAROSSA = next(p for p in SAVES if p.name.startswith("barbarossa"))


def verify(*args: str, input: bytes | None = None) -> Result:
    return CliRunner().invoke(main, ["verify", *args], input=input, catch_exceptions=False)


def damaged_signature(text: str) -> str:
    """One base32 character changed inside the Ed25519 signature of the first entry."""
    lines = text.split("\n")
    end = lines.index("-----END PBEM ENTRY-----")
    line = lines[end - 2]  # the last full payload line: the signature's own bytes
    assert re.fullmatch(r"[A-Z2-7]{64}", line)
    lines[end - 2] = line[:7] + ("A" if line[7] != "A" else "B") + line[8:]
    return "\n".join(lines)


def wrong_rng_log(text: str) -> str:
    tampered = text.replace("rng 3 4 1..6 4 event die", "rng 3 4 1..6 5 event die", 1)
    assert tampered != text
    return tampered


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """Copies of the shipped saves, one with a damaged signature, one with a false RNG log."""
    folder = tmp_path / "archive"
    folder.mkdir()
    for save in SAVES:
        shutil.copy(save, folder / save.name)
    text = BARBAROSSA.read_text()
    (folder / "damaged.pbem").write_text(damaged_signature(text))
    (folder / "rng.pbem").write_text(wrong_rng_log(text))
    (folder / "notes.txt").write_text("not a save: a folder stands for its *.pbem files only")
    return folder


def test_jobs_1_and_jobs_2_print_the_same_lines_in_order_and_fail(archive: Path) -> None:
    one = verify("--jobs", "1", str(archive))
    two = verify("--jobs", "2", str(archive))
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout
    lines = two.stdout.splitlines()
    names = sorted(p.name for p in archive.glob("*.pbem"))
    assert [line.split(": ", 1)[0] for line in lines] == [str(archive / n) for n in names]
    by_name = dict(zip(names, lines, strict=True))
    assert "FAILED" in by_name["damaged.pbem"]
    assert "bad signature" in by_name["damaged.pbem"]
    assert "FAILED" in by_name["rng.pbem"]
    assert "RNG log line 1 differs" in by_name["rng.pbem"]
    for save in SAVES:
        line = by_name[save.name]
        count = save.read_text().count("-----BEGIN PBEM ENTRY-----")
        assert f": OK: {save.name.removesuffix('-demo.pbem')}, {count} entries, result: " in line
    assert f"2 of {len(SAVES) + 2} files failed verification" in two.stderr


def test_all_good_files_exit_0_in_the_order_given(archive: Path) -> None:
    given = [str(archive / s.name) for s in reversed(SAVES)]
    result = verify("-j", "2", *given)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == given
    assert all(": OK: " in line for line in lines)
    assert result.stderr == ""


def test_one_bad_file_among_good_ones_fails_the_run(archive: Path) -> None:
    good = str(archive / BARBAROSSA.name)
    result = verify("--jobs", "2", good, str(archive / "rng.pbem"), good)
    assert result.exit_code == 1
    assert [line.split(": ", 2)[1] for line in result.stdout.splitlines()] == [
        "OK",
        "FAILED",
        "OK",
    ]


def test_an_unreadable_file_is_a_failed_line_and_the_rest_is_still_verified(
    archive: Path,
) -> None:
    missing = str(archive / "missing.pbem")
    result = verify("--jobs", "2", missing, str(archive / BARBAROSSA.name))
    assert result.exit_code == 1
    first, second = result.stdout.splitlines()
    assert first.startswith(f"{missing}: FAILED: cannot read it")
    assert ": OK: barbarossa, " in second


def test_stdin_among_several_sources(archive: Path) -> None:
    result = verify(
        "--jobs", "2", "-", str(archive / "damaged.pbem"), input=BARBAROSSA.read_bytes()
    )
    assert result.exit_code == 1
    first, second = result.stdout.splitlines()
    assert first.startswith("-: OK: barbarossa, ")
    assert second.startswith(f"{archive / 'damaged.pbem'}: FAILED: ")


def test_a_folder_without_saves_is_an_error(tmp_path: Path) -> None:
    result = verify("--jobs", "2", str(tmp_path))
    assert result.exit_code == 1
    assert "no *.pbem files in folder" in result.stderr


def test_jobs_must_be_at_least_1(archive: Path) -> None:
    result = verify("--jobs", "0", str(archive))
    assert result.exit_code != 0
    assert "OK" not in result.stdout


def test_one_file_without_jobs_keeps_the_full_report() -> None:
    result = verify(str(BARBAROSSA))
    assert result.exit_code == 0
    report = verify_text(BARBAROSSA.read_bytes())
    assert result.stdout == "\n".join([*report.lines, "OK: every check holds"]) + "\n"


def test_one_file_with_jobs_gives_one_line() -> None:
    result = verify("--jobs", "1", str(BARBAROSSA))
    assert result.exit_code == 0
    assert result.stdout.startswith(f"{BARBAROSSA}: OK: barbarossa, ")
    assert len(result.stdout.splitlines()) == 1
