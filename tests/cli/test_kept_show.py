"""`pbem show GAME` answered from its kept text (pbem.render.show_memo, pbem.cli's fast
path) prints exactly what the click command prints, and a kept text is never used once
anything it depends on changed: the game's head, the store's keys, a sealed secret."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.render import show_memo

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
try:
    main()
finally:
    print("LONG", "pbem.client" in sys.modules, file=sys.stderr)  # (a replay)
    print("CLICK", "click" in sys.modules or "sqlite_utils" in sys.modules, file=sys.stderr)
"""


def ok(home: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result.stdout + result.stderr


@pytest.fixture
def store(tmp_path: Path) -> tuple[Path, str]:
    """A store holding both roles of a new Götterdämmerung, and the game's id."""
    home = tmp_path / "home"
    ok(home, "key", "new", "a")
    ok(home, "key", "new", "b")
    made = ok(home, "new", "gotterdammerung", "--key", "soviet=a", "--key", "german=b")
    found = re.search(r"game ([0-9a-f]{64})", made)
    assert found is not None
    return home, found.group(1)


def show(home: Path, cache: str, *args: str) -> tuple[str, bool]:
    """(stdout, whether it was shown the long way) of `pbem show ARGS`, cold."""
    env = {
        **os.environ,
        "PBEM_HOME": str(home),
        "PBEM_CACHE": cache,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "show", *args], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "CLICK False" in done.stderr  # (neither click nor sqlite-utils, either way)
    return done.stdout, "LONG True" in done.stderr


def test_a_kept_show_is_the_click_commands_text(store: tuple[Path, str], tmp_path: Path) -> None:
    home, game = store
    cache = str(tmp_path / "cache")
    uncached, slow = show(home, "", game[:10])  # no cache folder: the click command
    assert slow and "view of german" in uncached
    first, slow = show(home, cache, game[:10])
    assert slow and first == uncached  # shown the long way, and kept
    second, slow = show(home, cache, game[:10])
    assert not slow and second == uncached  # the kept text: no replay
    again, slow = show(home, cache, game[:10].upper() + " ")  # the same game, as find_game
    assert not slow and again == uncached


def test_a_new_head_is_never_given_the_kept_text(store: tuple[Path, str], tmp_path: Path) -> None:
    home, game = store
    cache = str(tmp_path / "cache")
    before, _ = show(home, cache, game[:10])
    assert not show(home, cache, game[:10])[1]
    ok(home, "move", game[:10], "1")  # a new entry: a new head
    after, slow = show(home, cache, game[:10])
    assert slow and after != before
    assert after == show(home, "", game[:10])[0]


def test_changed_keys_are_never_given_the_kept_text(
    store: tuple[Path, str], tmp_path: Path
) -> None:
    home, game = store
    cache = str(tmp_path / "cache")
    show(home, cache, game[:10])
    ok(home, "key", "new", "c")  # the keys decide which roles are this store's
    assert show(home, cache, game[:10])[1]


def test_a_sealed_secret_is_never_kept_nor_answered(
    store: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.client import Client
    from pbem.store import Store

    home, game = store
    cache = tmp_path / "cache"
    monkeypatch.setenv("PBEM_CACHE", str(cache))
    shown, _ = show(home, str(cache), game[:10])
    assert show_memo.kept(str(home), game[:10]) == shown[:-1]  # (say adds a newline)
    with sqlite3.connect(home / "store.db") as db:  # what only the role's key opens
        db.execute("INSERT INTO secrets VALUES (?, 'soviet', 'sealed:x', 'opaque')", (game,))
    assert show_memo.kept(str(home), game[:10]) is None
    for kept in cache.glob("show-*"):
        kept.unlink()
    client = Client(Store(home))
    show_memo.keep(client, client.game(game), None, "a text")
    assert not list(cache.glob("show-*"))  # never written either


def test_only_a_game_of_this_store_is_answered(store: tuple[Path, str], tmp_path: Path) -> None:
    home, game = store
    cache = str(tmp_path / "cache")
    show(home, cache, game[:10])
    assert show_memo.kept(str(home), "") is None
    assert show_memo.kept(str(home), "zz") is None
    assert show_memo.kept(str(tmp_path / "elsewhere"), game[:10]) is None


CLICK_APP = """
import sys
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli.app import main
main()
"""


def both(home: Path, cache: str, *args: str) -> tuple[subprocess.CompletedProcess[str], ...]:
    """`pbem ARGS` by pbem.cli (its fast paths) and by the click application itself."""
    env = {
        **os.environ,
        "PBEM_HOME": str(home),
        "PBEM_CACHE": cache,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    return tuple(
        subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
        for code in (PROBE, CLICK_APP)
    )


def probed(stderr: str) -> str:
    return "".join(line for line in stderr.splitlines(keepends=True) if line[:5] not in PROBED)


PROBED = ("LONG ", "CLICK")


def test_a_show_not_kept_is_the_click_commands_text_and_errors(
    store: tuple[Path, str], tmp_path: Path
) -> None:
    home, game = store
    with sqlite3.connect(home / "store.db") as db:  # a sealed secret: never kept
        db.execute("INSERT INTO secrets VALUES (?, 'nobody', 'sealed:x', 'opaque')", (game,))
    cache = str(tmp_path / "cache")
    for args in ([game[:10]], ["zz"], ["0"], [""], ["ffff"], [game[:10], "--role", "soviet"]):
        fast, slow = both(home, cache, "show", *args)
        assert fast.returncode == slow.returncode, args
        assert fast.stdout == slow.stdout, args
        assert probed(fast.stderr) == slow.stderr
    fast, _ = both(home, cache, "show", game[:10])
    assert "CLICK False" in fast.stderr  # neither click nor sqlite-utils
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "store.db").write_bytes(b"not a database" * 100)
    fast, slow = both(broken, cache, "show", "ab")
    assert fast.returncode == slow.returncode == 1
    assert "error: the local store cannot be used" in slow.stderr
    assert probed(fast.stderr) == slow.stderr


def test_a_kept_text_depends_on_the_code_templates_and_rules_files(
    store: tuple[Path, str], tmp_path: Path
) -> None:
    import marshal

    home, game = store
    cache = tmp_path / "cache"
    show(home, str(cache), game[:10])
    (kept,) = cache.glob("show-*")
    deps = {path for path, _mtime, _size in marshal.loads(kept.read_bytes())[2]}
    package = ROOT / "pbem"
    assert str(package / "render" / "show.py") in deps  # the code that wrote it
    assert str(package / "cli" / "__init__.py") in deps  # and the code that reads it
    assert any(path.startswith(str(ROOT / "templates")) for path in deps)
    rules = package / "games" / "gotterdammerung"
    assert {str(path) for path in rules.glob("*.py")} <= deps
