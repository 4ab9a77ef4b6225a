"""Compiled templates kept in the cache folder (pbem.render.summary._CompiledTemplates):
used only for the very source they were compiled from, and what they render is what
compiling gives."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from pbem.render import summary


def _env(templates: dict[str, str], ext: str = "txt") -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.DictLoader(templates),
        bytecode_cache=summary._CompiledTemplates(ext),
        finalize=summary._finalizer(ext),
    )


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PBEM_CACHE", str(folder))
    return folder


def test_a_kept_template_is_used_and_renders_the_same(cache_dir: Path) -> None:
    first = _env({"t.j2": "A {{ x }}"}).get_template("t.j2").render(x=1)
    kept = list(cache_dir.glob("template-*"))
    assert len(kept) == 1
    env = _env({"t.j2": "A {{ x }}"})
    compiled: list[str] = []
    real = env._compile

    def spy(source: str, filename: str) -> object:
        compiled.append(filename)
        return real(source, filename)

    env._compile = spy  # type: ignore[method-assign]
    assert env.get_template("t.j2").render(x=1) == first == "A 1"
    assert compiled == []  # from the cache, not compiled again


def test_a_changed_source_is_never_served_the_old_code(cache_dir: Path) -> None:
    assert _env({"t.j2": "old {{ x }}"}).get_template("t.j2").render(x=2) == "old 2"
    assert _env({"t.j2": "new {{ x }}"}).get_template("t.j2").render(x=2) == "new 2"


def test_another_format_compiles_its_own(cache_dir: Path) -> None:
    # The environment's settings change the code: each format keys its own entry.
    _env({"t.j2": "{{ x }}"}, "txt").get_template("t.j2").render(x="a")
    _env({"t.j2": "{{ x }}"}, "md").get_template("t.j2").render(x="a")
    assert len(list(cache_dir.glob("template-*"))) == 2


def test_a_damaged_entry_is_compiled_again(cache_dir: Path) -> None:
    _env({"t.j2": "A {{ x }}"}).get_template("t.j2").render(x=1)
    (entry,) = cache_dir.glob("template-*")
    entry.write_bytes(entry.read_bytes()[:-7] + b"garbage")
    assert _env({"t.j2": "A {{ x }}"}).get_template("t.j2").render(x=3) == "A 3"


def test_a_changed_environment_module_is_not_trusted(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The entry depends on summary.py (the environment's settings): once that file is not
    # as it was, the entry is ignored and the template compiled again.
    _env({"t.j2": "A {{ x }}"}).get_template("t.j2").render(x=1)
    from pbem import cache

    real = cache.file_state
    monkeypatch.setattr(
        cache, "file_state", lambda path: None if path == summary.__file__ else real(path)
    )
    env = _env({"t.j2": "A {{ x }}"})
    compiled: list[str] = []
    real_compile = env._compile

    def spy(source: str, filename: str) -> object:
        compiled.append(filename)
        return real_compile(source, filename)

    env._compile = spy  # type: ignore[method-assign]
    assert env.get_template("t.j2").render(x=1) == "A 1"
    assert compiled != []
