"""A user's data file has a size cap (issue 27, item 13; pbem.games.datacheck).

The attack: `--data map.toml=HUGE` (a 60 MB map.toml was read and parsed: 4.7 s, 218
MB). A data file is a small table, so one over the cap is refused in one line that
says the limit and why, before it is read: by every command that takes `--data`, and
by the loader whatever gave it the bytes. The files are sparse (truncate): free to make.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.errors import DataError
from pbem.games.barbarossa.rules import ENGINE
from pbem.games.datacheck import MAX_DATA_FILE_BYTES

SAVE = Path(__file__).resolve().parents[2] / "saves" / "barbarossa-demo.pbem"
SHEET = "gamesheet.toml"
WHY = "a data file is at most 2 MiB (a data file is a small table"


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def sparse(path: Path, size: int) -> Path:
    with path.open("wb") as out:
        out.truncate(size)
    return path


def refused_line(result: Result) -> str:
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_every_command_with_data_refuses_a_huge_file_in_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run(home, "key", "new", "me").exit_code == 0
    huge = sparse(tmp_path / "map.toml", 60_000_000)
    data = f"{SHEET}={huge}"
    for args in (
        ("new", "barbarossa", "--key", "german=me", "--data", data),
        ("verify", str(SAVE), "--data", data),
        ("apply", str(SAVE), "--data", data),
        ("replay", str(SAVE), "--data", data),
        ("evidence", str(SAVE), "--data", data),
    ):
        line = refused_line(run(home, *args))
        assert line == (
            f"error: {huge} is 60,000,000 bytes: {WHY}; one this large could only be a "
            "denial of service)"
        ), args
    assert run(home, "list").stdout.strip() == ""  # nothing was stored


def test_the_cap_is_checked_before_the_file_is_read(tmp_path: Path) -> None:
    """The 60 MB file is never read whole (memory stays far below its size), and a file
    whose size the system does not tell (/dev/zero: endless) is read one byte past the cap
    at most."""
    home = tmp_path / "home"
    huge = sparse(tmp_path / "map.toml", 60_000_000)
    tracemalloc.start()
    try:
        result = run(home, "verify", str(SAVE), "--data", f"{SHEET}={huge}")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "60,000,000 bytes" in refused_line(result)
    assert peak < 10_000_000, peak
    endless = run(home, "verify", str(SAVE), "--data", f"{SHEET}=/dev/zero")
    assert f"/dev/zero is {MAX_DATA_FILE_BYTES + 1:,} bytes: {WHY}" in refused_line(endless)


def test_a_file_at_the_cap_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run(home, "key", "new", "me").exit_code == 0
    at_cap = tmp_path / "at-cap.toml"
    at_cap.write_bytes(b"#" * (MAX_DATA_FILE_BYTES - 1) + b"\n")  # a TOML comment
    line = refused_line(
        run(home, "new", "barbarossa", "--key", "german=me", "--data", f"{SHEET}={at_cap}")
    )
    assert "missing section" in line  # read and parsed: only its contents fail
    over = sparse(tmp_path / "over.toml", MAX_DATA_FILE_BYTES + 1)
    line = refused_line(
        run(home, "new", "barbarossa", "--key", "german=me", "--data", f"{SHEET}={over}")
    )
    assert f"is {MAX_DATA_FILE_BYTES + 1:,} bytes: {WHY}" in line


def test_the_loader_holds_given_bytes_to_the_same_cap() -> None:
    """Bytes that did not come from a file the CLI read (the library API, a store's
    copy) meet the same cap before they are parsed."""
    with pytest.raises(DataError) as refused:
        ENGINE.load_data({SHEET: b" " * (MAX_DATA_FILE_BYTES + 1)})
    assert f"{SHEET} is {MAX_DATA_FILE_BYTES + 1:,} bytes: {WHY}" in str(refused.value)
