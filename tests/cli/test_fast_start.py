"""`pbem --help` and `pbem verify FILE` answered without click (pbem.cli) say exactly what
the click application says, and the cached help is click's own text."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries

ROOT = Path(__file__).resolve().parents[2]
SAVE = ROOT / "saves" / "berlin-1945-demo.pbem"

PROBE = """
import sys
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
try:
    main()
finally:
    print("CLICK", "click" in sys.modules, file=sys.stderr)
"""


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    environ = dict(os.environ)
    environ["PBEM_CACHE"] = str(tmp_path / "cache")
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environ.get("PYTHONPATH")]))
    environ.pop("COLUMNS", None)
    return environ


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env
    )


def clicked(process: subprocess.CompletedProcess[str]) -> bool:
    return "CLICK True" in process.stderr


def without_probe(stderr: str) -> str:
    return "".join(line for line in stderr.splitlines(keepends=True) if "CLICK" not in line)


def test_help_is_clicks_text_then_comes_from_the_cache(env: dict[str, str]) -> None:
    first, second = run(env, "--help"), run(env, "--help")
    assert clicked(first) and not clicked(second)
    assert first.stdout == second.stdout and first.returncode == second.returncode == 0
    assert "Usage: pbem [OPTIONS] COMMAND [ARGS]..." in first.stdout
    off = run({**env, "PBEM_CACHE": ""}, "--help")
    assert clicked(off) and off.stdout == first.stdout
    narrow = run({**env, "COLUMNS": "60"}, "--help")  # another width: rendered by click
    assert clicked(narrow) and narrow.stdout != first.stdout


def test_the_cached_help_depends_on_every_command_module(
    env: dict[str, str], tmp_path: Path
) -> None:
    """The cached help is used only while no module of pbem/cli has changed: every one is
    among the files its cache entry depends on (pbem.cache), so a changed command is
    rendered by click again."""
    assert clicked(run(env, "--help"))
    deps = set()
    for entry in (tmp_path / "cache").glob("help-*"):
        _format, _key, files, _text = marshal.loads(entry.read_bytes())
        deps |= {Path(file[0]).resolve() for file in files}
    modules = {path.resolve() for path in (ROOT / "pbem" / "cli").glob("*.py")}
    assert modules and modules <= deps, sorted(str(path) for path in modules - deps)


def test_help_as_python_dash_m_names_itself_so(env: dict[str, str]) -> None:
    command = [sys.executable, "-m", "pbem", "--help"]
    first = subprocess.run(command, capture_output=True, text=True, env=env)
    second = subprocess.run(command, capture_output=True, text=True, env=env)
    assert first.stdout == second.stdout
    assert first.stdout.startswith("Usage: python -m pbem [OPTIONS]")


def _files(tmp_path: Path) -> dict[str, Path]:
    entries = parse_entries(SAVE.read_bytes())
    genesis = tmp_path / "genesis.txt"
    genesis.write_text(move_file(entries[:1]))
    joins = tmp_path / "joins.txt"
    joins.write_text(move_file(entries[1:3]))  # no genesis: refused
    damaged = tmp_path / "damaged.txt"
    text = move_file(entries[:1])
    damaged.write_text(text.replace(text.splitlines()[3][:8], "AAAAAAAA", 1))
    return {
        "genesis": genesis,
        "joins": joins,
        "damaged": damaged,
        "save": SAVE,
        "missing": tmp_path / "no such file",
    }


@pytest.mark.parametrize("case", ["genesis", "joins", "damaged", "save", "missing"])
def test_verify_says_what_the_click_command_says(
    case: str, env: dict[str, str], tmp_path: Path
) -> None:
    path = str(_files(tmp_path)[case])
    fast = run(env, "verify", path)
    assert not clicked(fast)
    again = run(env, "verify", path)  # (with the engine's facts and tables now cached)
    expected = CliRunner().invoke(main, ["verify", path])
    for result in (fast, again):
        assert result.returncode == expected.exit_code
        assert result.stdout == expected.stdout
        assert without_probe(result.stderr) == expected.stderr


def test_other_forms_go_to_click(env: dict[str, str], tmp_path: Path) -> None:
    genesis = str(_files(tmp_path)["genesis"])
    assert clicked(run(env, "verify", genesis, "--data", genesis))
    assert clicked(run(env, "verify", str(tmp_path)))  # a folder
    assert clicked(run(env, "--home", str(tmp_path), "verify", genesis))
    assert clicked(run({**env, "_PBEM_COMPLETE": "bash_source"}, "--help"))
