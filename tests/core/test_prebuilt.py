"""What pbem ships prebuilt (pbem.prebuilt, read by pbem.cache.prebuilt) is what computing
it gives, and a shipped entry whose sources changed is never used."""

from __future__ import annotations

import marshal
import subprocess
import sys
from pathlib import Path

import pytest

from pbem import cache, prebuilt
from pbem.core.tables import data_key
from pbem.ledger import engine_by_name, prebuilt_name

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package `shippedtest` of one module, and a folder of shipped entries made from it."""
    package = tmp_path / "src" / "shippedtest"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    folder = tmp_path / "prebuilt"
    folder.mkdir()
    monkeypatch.setattr(cache, "_PREBUILT", str(folder))
    sources = tuple(
        ("shippedtest", name, cache.source_digest((package / name).read_bytes()))
        for name in ("__init__.py", "rules.py")
    )
    (folder / "test-one.marshal").write_bytes(cache.prebuild(("key", 1), sources, [1, 2]))
    return package


def test_a_shipped_entry_is_used_only_while_its_sources_are_unchanged(shipped: Path) -> None:
    assert cache.prebuilt("test", "one", ("key", 1)) == [1, 2]
    assert cache.prebuilt("test", "one", ("key", 2)) is None  # another key
    assert cache.prebuilt("test", "two", ("key", 1)) is None  # nothing shipped
    (shipped / "rules.py").write_text("VALUE = 2\n")  # same size, same folder: other content
    assert cache.prebuilt("test", "one", ("key", 1)) is None
    (shipped / "rules.py").write_text("VALUE = 1\n")
    assert cache.prebuilt("test", "one", ("key", 1)) == [1, 2]
    (shipped / "rules.py").unlink()
    assert cache.prebuilt("test", "one", ("key", 1)) is None


def test_a_shipped_entry_used_is_kept_in_the_user_s_cache_alike(
    shipped: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_CACHE", str(tmp_path / "cache"))
    assert cache.get("test", ("key", 1)) is None
    assert cache.prebuilt("test", "one", ("key", 1)) == [1, 2]
    assert cache.get("test", ("key", 1)) == [1, 2]  # (read there next time)
    assert cache.prebuilt("test", "one", ("key", 1), "other key") == [1, 2]
    assert cache.get("test", "other key") == [1, 2]
    (shipped / "rules.py").write_text("VALUE = 22\n")  # changed: neither is used
    assert cache.get("test", ("key", 1)) is None and cache.get("test", "other key") is None
    assert cache.prebuilt("test", "one", ("key", 1)) is None


def test_a_damaged_shipped_entry_is_never_used(shipped: Path) -> None:
    entry = Path(cache.prebuilt_path("test", "one"))
    entry.write_bytes(entry.read_bytes()[:-3])
    assert cache.prebuilt("test", "one", ("key", 1)) is None
    entry.write_bytes(marshal.dumps((0, ("key", 1), (), [1, 2])))  # another format
    assert cache.prebuilt("test", "one", ("key", 1)) is None
    missing = (("no_such_package_here", "x.py", "0" * 64),)
    entry.write_bytes(cache.prebuild(("key", 1), missing, [1, 2]))
    assert cache.prebuilt("test", "one", ("key", 1)) is None


@pytest.mark.parametrize("entry", [e for e in prebuilt.entries() if e[0] == "tables"])
def test_the_shipped_tables_are_the_engine_s(entry: tuple[str, ...]) -> None:
    _kind, name, version = entry
    engine = engine_by_name(name).for_version(version)
    files = engine.default_data()
    key = data_key(engine, files)
    snapshot = cache.prebuilt("tables", prebuilt_name(engine), key)
    assert isinstance(snapshot, bytes), "stale or missing: run python -m pbem.prebuilt"
    assert marshal.loads(snapshot) == engine.load_data(files)


@pytest.mark.parametrize("program", prebuilt.HELP_NAMES)
def test_the_shipped_help_is_click_s(program: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import click

    from pbem.cli.app import main as group

    text = cache.prebuilt("help", prebuilt.help_file_name(program), prebuilt.help_key(program))
    assert isinstance(text, str), "stale or missing: run python -m pbem.prebuilt"
    for columns in ("80", "81", "300"):  # (the widths it is used for)
        monkeypatch.setenv("COLUMNS", columns)
        assert text == group.get_help(click.Context(group, info_name=program))


def test_the_shipped_entries_are_what_prebuilt_makes_now() -> None:
    """Every entry, made again in a process of its own, holds the same key, sources and
    value: `python -m pbem.prebuilt` was run after the last change to what it depends on."""
    done = subprocess.run(
        [sys.executable, "-m", "pbem.prebuilt", "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, f"run python -m pbem.prebuilt:\n{done.stdout}{done.stderr}"
