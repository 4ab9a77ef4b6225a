"""What a view derives from a game's shipped data files (Race to Berlin's stand-in marks,
Berlin 1945's labels) is kept between processes (pbem.cache.derived: the user's cache, or
the entry pbem ships): what is read back is always what parsing the files gives, and a
kept value whose code, files or shipped sources changed is never used."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem import cache, prebuilt
from pbem.games.berlin_1945 import labels
from pbem.games.race_to_berlin import provenance

# (module, what parsing the shipped files gives now, as the cache keeps it)
GAMES: list[tuple[Any, Callable[[], tuple[Any, Any]]]] = [
    (provenance, provenance.made),
    (labels, labels.made),
]


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    provenance.shipped.cache_clear()
    labels.shipped.cache_clear()
    yield
    provenance.shipped.cache_clear()
    labels.shipped.cache_clear()


def kind_of(module: Any) -> str:
    return provenance.FACTS if module is provenance else labels.KIND


@pytest.mark.parametrize(("module", "made"), GAMES)
def test_the_shipped_entry_is_what_parsing_gives(module: Any, made: Any) -> None:
    key, value = made()
    found = cache.prebuilt(kind_of(module), module.PREBUILT_NAME, key)
    assert found is not None, "stale or missing: run python -m pbem.prebuilt"
    assert found == value


@pytest.mark.parametrize(("module", "made"), GAMES)
def test_kept_or_not_the_facts_are_the_parsed_ones(
    module: Any, made: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _key, value = made()
    monkeypatch.setenv("PBEM_CACHE", "")  # no user cache: the shipped entry
    assert module.shipped() == type(module.shipped())(*value)
    module.shipped.cache_clear()
    monkeypatch.setenv("PBEM_CACHE", str(tmp_path / "cache"))  # kept there, then read
    first = module.shipped()
    assert any(p.name.startswith(kind_of(module)) for p in (tmp_path / "cache").iterdir())
    module.shipped.cache_clear()
    assert module.shipped() == first == type(first)(*value)


@pytest.mark.parametrize(("module", "made"), GAMES)
def test_a_stale_kept_value_is_never_used(
    module: Any, made: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key, value = made()
    kind = kind_of(module)
    # The user's cache holds a wrong value for the key, depending on a file that then
    # changes (as a pbem module would): it is not used.
    monkeypatch.setenv("PBEM_CACHE", str(tmp_path / "cache"))
    code = tmp_path / "code.py"
    code.write_text("A = 1\n")
    wrong = (*value[:-1], "wrong")
    cache.put(kind, key, cache.deps_of([str(code)]), wrong)
    assert cache.get(kind, key) == wrong
    assert module.shipped() == type(module.shipped())(*wrong)  # (while the file is as it was)
    module.shipped.cache_clear()
    code.write_text("A = 22\n")
    assert module.shipped() == type(module.shipped())(*value)
    module.shipped.cache_clear()
    # A shipped entry whose sources changed is not used either: nothing kept, and the
    # entry pbem ships names a source whose content is not what it was.
    for kept in (tmp_path / "cache").iterdir():
        kept.unlink()
    folder = tmp_path / "prebuilt"
    folder.mkdir()
    monkeypatch.setattr(cache, "_PREBUILT", str(folder))
    sources = (("pbem", "cache.py", "0" * 64),)
    Path(cache.prebuilt_path(kind, module.PREBUILT_NAME)).write_bytes(
        cache.prebuild(key, sources, wrong)
    )
    assert cache.prebuilt(kind, module.PREBUILT_NAME, key) is None
    assert module.shipped() == type(module.shipped())(*value)


@pytest.mark.parametrize(("module", "made"), GAMES)
def test_other_files_have_another_key(module: Any, made: Any) -> None:
    """The key names the files by digest: a changed data file is another key."""
    key, _value = made()
    files = dict(
        provenance.shipped_files(provenance.PACKAGE, (provenance.MAP_FILE, provenance.TOKENS_FILE))
        if module is provenance
        else labels.default_data()
    )
    assert (provenance.facts_key if module is provenance else labels.labels_key)(files) == key
    name = sorted(files)[0]
    files[name] += b"\n# changed\n"
    assert (provenance.facts_key if module is provenance else labels.labels_key)(files) != key


def test_derived_keeps_only_plain_data_that_reads_back_equal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_CACHE", str(tmp_path / "cache"))
    made: list[Any] = []

    def make(value: Any) -> Callable[[], Any]:
        def run() -> Any:
            made.append(value)
            return value

        return run

    assert cache.derived("test", "none", ("plain",), make((1, frozenset({"a"})))) == (
        1,
        frozenset({"a"}),
    )
    assert cache.derived("test", "none", ("plain",), make("other")) == (1, frozenset({"a"}))
    assert made == [(1, frozenset({"a"}))]  # (the second was read back)
    nan = float("nan")  # never equal to itself: never kept
    cache.derived("test", "none", ("nan",), make((nan,)))
    cache.derived("test", "none", ("nan",), make((nan,)))
    assert len(made) == 3


def test_prebuilt_ships_every_derived_kind() -> None:
    entries = prebuilt.entries()
    for kind in prebuilt.DERIVED:
        assert (kind,) in entries
