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


def clicks_help(program: str, monkeypatch: pytest.MonkeyPatch, columns: int = 80) -> str:
    """`pbem --help` as click renders it, for `program` on a terminal `columns` wide."""
    import click

    from pbem.cli.app import main as group

    monkeypatch.setenv("COLUMNS", str(columns))
    return group.get_help(click.Context(group, info_name=program)) + "\n"


def test_help_is_clicks_text_shipped_or_cached(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = clicks_help("pbem", monkeypatch)
    assert "Usage: pbem [OPTIONS] COMMAND [ARGS]..." in expected
    for environ in (env, {**env, "PBEM_CACHE": ""}, {**env, "COLUMNS": "200"}):
        shipped = run(environ, "--help")  # the text pbem ships (pbem.prebuilt)
        assert not clicked(shipped) and shipped.returncode == 0
        assert shipped.stdout == expected
    narrow = {**env, "COLUMNS": "60"}  # another width: rendered by click, then cached
    first, second = run(narrow, "--help"), run(narrow, "--help")
    assert clicked(first) and not clicked(second)
    assert first.stdout == second.stdout == clicks_help("pbem", monkeypatch, 60) != expected
    off = run({**narrow, "PBEM_CACHE": ""}, "--help")
    assert clicked(off) and off.stdout == first.stdout


def test_the_kept_help_depends_on_every_command_module(env: dict[str, str], tmp_path: Path) -> None:
    """The cached help, and the shipped one, is used only while no module of pbem/cli has
    changed: every one is among the files it depends on (pbem.cache), so a changed
    command is rendered by click again."""
    from pbem import cache

    assert clicked(run({**env, "COLUMNS": "60"}, "--help"))
    modules = {path.resolve() for path in (ROOT / "pbem" / "cli").glob("*.py")}
    assert modules
    deps = set()
    for entry in (tmp_path / "cache").glob("help-*"):
        _format, _key, files, _text = marshal.loads(entry.read_bytes())
        deps |= {Path(file[0]).resolve() for file in files}
    assert modules <= deps, sorted(str(path) for path in modules - deps)
    for program in ("pbem", "python_-m_pbem"):
        with open(cache.prebuilt_path("help", program), "rb") as stream:
            _format, _key, sources, _text = marshal.loads(stream.read())
        shipped = {(ROOT / "pbem" / path).resolve() for name, path, _ in sources if name == "pbem"}
        assert modules <= shipped, sorted(str(path) for path in modules - shipped)


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


GAMES_PROBE = """
import atexit, sys
atexit.register(lambda: print("GAMES", *sorted(
    name for name in sys.modules if name.startswith("pbem.games.")), file=sys.stderr))
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
main()
"""

TITLES = ("barbarossa", "race-to-berlin", "berlin-1945", "race-to-the-sea", "gotterdammerung")


def genesis_file(title: str, tmp_path: Path) -> Path:
    """A move file holding the genesis of `title`'s demo save: the first file a player gets."""
    save = ROOT / "saves" / f"{title}-demo.pbem"
    genesis = tmp_path / "genesis.txt"
    genesis.write_text(move_file(parse_entries(save.read_bytes())[:1]))
    return genesis


def game_modules(env: dict[str, str], *args: str) -> list[str]:
    """The game modules (pbem.games.*) `pbem ARGS` imported, in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-c", GAMES_PROBE, *args], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stderr.splitlines() if line.startswith("GAMES")]
    return line.split()[1:]


@pytest.mark.parametrize("title", TITLES)
def test_verifying_a_genesis_imports_no_game_module(
    title: str, env: dict[str, str], tmp_path: Path
) -> None:
    """A genesis needs the engine's facts (pbem.games registers them) and its parsed
    tables (shipped, then cached): no rules. With the cache as a first run finds it
    (empty), as the next run does, and with none."""
    genesis = genesis_file(title, tmp_path)
    for environ in (env, env, {**env, "PBEM_CACHE": ""}):
        assert game_modules(environ, "verify", str(genesis)) == []
    # (the probe sees a game's modules when they are imported: the whole save plays it)
    package = title.replace("-", "_")
    save = ROOT / "saves" / f"{title}-demo.pbem"
    assert f"pbem.games.{package}.rules" in game_modules(env, "verify", str(save))


def test_the_shipped_help_is_only_for_what_click_would_render_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import pbem.cli as entry

    monkeypatch.setenv("PBEM_CACHE", "")
    monkeypatch.setattr(entry, "_program_name", lambda: "pbem")
    monkeypatch.setattr(sys, "base_prefix", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    assert entry._shipped_help() == clicks_help("pbem", monkeypatch)[:-1]
    monkeypatch.setenv("COLUMNS", "79")  # narrower: click wraps otherwise
    assert entry._shipped_help() is None
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setattr(entry, "_program_name", lambda: "pbem-dev")  # another name
    assert entry._shipped_help() is None
    monkeypatch.setattr(entry, "_program_name", lambda: "pbem")
    assert entry._shipped_help() is not None
    translations = tmp_path / "share" / "locale" / "de" / "LC_MESSAGES"
    translations.mkdir(parents=True)
    (translations / "other.mo").write_bytes(b"")
    assert entry._shipped_help() is not None  # (another domain's)
    (translations / "messages.mo").write_bytes(b"")  # click's messages could be translated
    assert entry._shipped_help() is None


CIPHERS_PROBE = """
import atexit, sys
atexit.register(lambda: print("CIPHERS", *sorted(
    name for name in sys.modules if name.startswith("cryptography.hazmat.primitives.ciphers.")
    and type(sys.modules[name]).__name__ != "_LazyModule"), file=sys.stderr))
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
main()
"""


def test_verifying_a_genesis_runs_no_cipher_module(env: dict[str, str], tmp_path: Path) -> None:
    """The escrow check's ciphers (pbem.crypto.sealcheck) and their package stay unrun
    (pbem.lazy): a genesis seals nothing."""
    genesis = _files(tmp_path)["genesis"]
    done = subprocess.run(
        [sys.executable, "-c", CIPHERS_PROBE, "verify", str(genesis)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stderr.splitlines() if line.startswith("CIPHERS")]
    assert line.split()[1:] == []


COMPILES_PROBE = """
import atexit, builtins, re, sys
compiled, patterns = [], set()
atexit.register(lambda: print("COMPILES", len(compiled), file=sys.stderr))
atexit.register(lambda: print("PATTERNS", *sorted(patterns), file=sys.stderr))
compile_ = builtins.compile
def counting(*args, **kwargs):
    compiled.append(args[0])
    return compile_(*args, **kwargs)
builtins.compile = counting
re_compile = re._compile
def seen(pattern, flags):
    caller = sys._getframe(1)
    while caller.f_code.co_filename.endswith(("re/__init__.py", "pbem/lazy.py")):
        caller = caller.f_back
    name = caller.f_globals.get("__name__", "")
    if name.startswith("pbem."):
        patterns.add(name)
    return re_compile(pattern, flags)
re._compile = seen
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
main()
"""


@pytest.mark.parametrize("title", TITLES)
def test_verifying_a_genesis_compiles_little(
    title: str, env: dict[str, str], tmp_path: Path
) -> None:
    """No source is compiled (typing.NamedTuple compiles each annotation, and a process's
    first compile() sets up the whole syntax tree: pbem.record.NamedTuple), and of pbem's
    regular expressions only those a plain move file is read with (pbem.lazy.lazy_pattern;
    a save's RNG LOG header is looked for where the armored text holds "rng"): the text
    escapes (pbem.escape) compile none for printable text."""
    genesis = genesis_file(title, tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", COMPILES_PROBE, "verify", str(genesis)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert "COMPILES 0" in lines
    (line,) = [line for line in lines if line.startswith("PATTERNS")]
    reading = {"pbem.transport.armor", "pbem.transport.movefile", "pbem.transport.savefile"}
    assert set(line.split()[1:]) <= reading


STDLIB_PROBE = """
import atexit, sys
def ran():
    names = ("typing", "copy", "weakref", "hashlib", "_hashlib", "cryptography.exceptions")
    print("RAN", *sorted(name for name in names if name in sys.modules
        and type(sys.modules[name]).__name__ != "_LazyModule"), file=sys.stderr)
atexit.register(ran)
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
main()
"""


@pytest.mark.parametrize("title", TITLES)
def test_verifying_a_genesis_runs_no_typing_copy_nor_openssl_hashing(
    title: str, env: dict[str, str], tmp_path: Path
) -> None:
    """typing (pbem.hints), copy and weakref (lazy in core), hashlib and its OpenSSL
    (pbem.digests) and cryptography's exceptions (lazy in crypto) stay unrun by a
    genesis's `pbem verify`: with the cache empty, warm and off."""
    genesis = genesis_file(title, tmp_path)
    for environ in (env, env, {**env, "PBEM_CACHE": ""}):
        done = subprocess.run(
            [sys.executable, "-c", STDLIB_PROBE, "verify", str(genesis)],
            capture_output=True,
            text=True,
            env=environ,
        )
        assert done.returncode == 0, done.stderr
        (line,) = [line for line in done.stderr.splitlines() if line.startswith("RAN")]
        assert line.split()[1:] == []
