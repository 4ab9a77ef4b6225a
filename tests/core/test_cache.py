"""What is kept to start faster gives what computing again would give (pbem.cache and the
replays a process shares): stale, foreign or damaged entries are never used."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem import cache, ledger
from pbem.core import tables
from pbem.core.tables import load_data_cached
from pbem.signing import _REPLAYS
from pbem.verify import parse_entries, verify_path

ROOT = Path(__file__).resolve().parents[2]
TITLES = ("barbarossa", "race-to-berlin", "berlin-1945", "race-to-the-sea", "gotterdammerung")


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PBEM_CACHE", str(folder))
    return folder


def test_an_entry_is_used_only_while_its_files_are_unchanged(
    cache_dir: Path, tmp_path: Path
) -> None:
    source = tmp_path / "source.txt"
    source.write_text("one")
    cache.put("test", ("key", 1), cache.deps_of([str(source)]), {"value": [1, 2]})
    assert cache.get("test", ("key", 1)) == {"value": [1, 2]}
    assert cache.get("test", ("key", 2)) is None  # another key
    source.write_text("two!")  # changed: another size (and time)
    assert cache.get("test", ("key", 1)) is None
    os.utime(source, ns=(1, 1))
    assert cache.get("test", ("key", 1)) is None
    source.unlink()
    assert cache.get("test", ("key", 1)) is None
    assert cache.deps_of([str(source)]) is None  # nothing is cached without its deps


def test_an_entry_another_install_wrote_is_never_read(
    cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two installs of pbem (two checkouts, two virtual environments) may share one user
    cache. An entry depends on the files of the install that wrote it, so the other one,
    whose code may differ, must make its own, and neither overwrites the other's."""
    source = tmp_path / "source.txt"
    source.write_text("one")
    deps = cache.deps_of([str(source)])
    monkeypatch.setattr(cache, "_INSTALL", str(tmp_path / "first" / "pbem"))
    cache.put("test", "key", deps, "made by the first")
    monkeypatch.setattr(cache, "_INSTALL", str(tmp_path / "second" / "pbem"))
    assert cache.get("test", "key") is None  # the first's files are unchanged: still not used
    cache.put("test", "key", deps, "made by the second")
    assert cache.get("test", "key") == "made by the second"
    monkeypatch.setattr(cache, "_INSTALL", str(tmp_path / "first" / "pbem"))
    assert cache.get("test", "key") == "made by the first"


def test_entries_are_private_and_others_are_never_read(cache_dir: Path, tmp_path: Path) -> None:
    source = tmp_path / "source.txt"
    source.write_text("x")
    cache.put("test", "k", cache.deps_of([str(source)]), "value")
    (entry,) = list(cache_dir.iterdir())
    assert cache_dir.stat().st_mode & 0o777 == 0o700
    assert entry.stat().st_mode & 0o777 == 0o600
    entry.chmod(0o620)  # writable by the group: not ours alone any more
    assert cache.get("test", "k") is None
    entry.chmod(0o600)
    assert cache.get("test", "k") == "value"
    entry.write_bytes(b"\x00garbage")
    assert cache.get("test", "k") is None


def test_an_empty_pbem_cache_turns_it_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_CACHE", "")
    cache.put("test", "k", (), "value")
    assert cache.get("test", "k") is None
    monkeypatch.delenv("PBEM_CACHE")
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    assert cache.folder() == str(tmp_path / "home" / "cache")


@pytest.mark.parametrize("title", TITLES)
def test_cached_tables_equal_the_parsed_ones(
    cache_dir: Path, title: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = ledger.engine_by_name(title)
    files = engine.default_data()
    parsed = engine.load_data(files)
    monkeypatch.setattr(cache, "prebuilt", lambda *_args: None)  # (as a pbem without them)
    monkeypatch.setattr(tables, "_DATA_CACHE", {})
    assert load_data_cached(engine, files, ledger.DISK_TABLES) == parsed  # parsed, kept
    assert list(cache_dir.glob("tables-*"))
    monkeypatch.setattr(tables, "_DATA_CACHE", {})

    def parse_again(_files: object) -> None:
        raise AssertionError("parsed again: the kept tables were not used")

    monkeypatch.setattr(engine, "load_data", parse_again)
    loaded = load_data_cached(engine, files, ledger.DISK_TABLES)
    assert loaded == parsed
    again = load_data_cached(engine, files, ledger.DISK_TABLES)
    assert again == parsed and again is not loaded  # every game its own copy


@pytest.mark.parametrize("title", TITLES)
def test_cached_engine_facts_are_the_engine_s(title: str, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = ledger.engine_by_name(title)
    monkeypatch.setattr(ledger, "is_loaded", lambda name: False)
    standing = ledger.cold_engine_by_name(title)
    assert isinstance(standing, ledger.CachedEngine)
    assert ledger.cold_engine_by_name(title) is standing  # one per engine, as the engine
    for version in (engine.version, *engine.earlier_versions):
        played = engine.for_version(version)
        stands = standing.for_version(version)
        assert isinstance(stands, ledger.CachedEngine)
        assert standing.for_version(version) is stands
        for name in ("name", "title", "version", "earlier_versions", "roles", "required_roles"):
            assert getattr(stands, name) == getattr(played, name), name
        assert stands.data_files == played.data_files
        assert stands.double_blind_options == played.double_blind_options
        assert stands.default_data() == played.default_data()
        # anything else is the engine's own, of that version
        assert stands.prompts == played.prompts and stands.setup == played.setup
        assert stands.for_version(engine.version) is standing
    with pytest.raises(ValueError):
        standing.for_version("0.0")  # (the engine's own refusal)


@pytest.mark.parametrize("title", TITLES)
def test_a_genesis_verifies_alike_from_the_facts(
    cache_dir: Path, title: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbem.transport.savefile import move_file

    save = (ROOT / "saves" / f"{title}-demo.pbem").read_bytes()
    moves = tmp_path / "genesis.txt"
    moves.write_text(move_file(parse_entries(save)[:1]))
    plain = verify_path(moves)
    monkeypatch.setattr(ledger, "is_loaded", lambda name: False)  # (as in a new process)
    cold = verify_path(moves, None, ledger.cold_engine_by_name)
    assert cold.game is not None
    assert isinstance(cold.game.engine, ledger.CachedEngine)  # of every version
    assert cold.game.engine.version == parse_entries(save)[0].body["rules_version"]
    assert (cold.ok, cold.lines, cold.failure) == (plain.ok, plain.lines, plain.failure)
    whole = verify_path(ROOT / "saves" / f"{title}-demo.pbem", None, ledger.cold_engine_by_name)
    assert whole.ok and whole.lines == verify_path(ROOT / "saves" / f"{title}-demo.pbem").lines


def test_a_fork_is_independent_and_equal(tmp_path: Path) -> None:
    save = (ROOT / "saves" / "berlin-1945-demo.pbem").read_bytes()
    entries = parse_entries(save)
    game = ledger.replay(entries[:60])
    twin = game.fork()
    assert twin == game
    assert twin.state is not game.state and twin.entries is not game.entries
    for entry in entries[60:]:
        twin.apply(entry)
    assert len(game.entries) == 60 and game == ledger.replay(entries[:60])
    assert twin == ledger.replay(entries)


def test_a_kept_replay_is_used_only_for_the_same_bytes() -> None:
    save = (ROOT / "saves" / "barbarossa-demo.pbem").read_bytes()
    entries = parse_entries(save)
    game_id = entries[0].id
    _REPLAYS.remember(game_id, ledger.replay(entries[:20]))
    rows = [{"canonical": e.canonical, "signature": e.signature} for e in entries[:30]]
    kept = _REPLAYS.longest_prefix(game_id, rows)
    assert kept is not None and len(kept.entries) == 20
    damaged = list(rows)
    damaged[5] = {"canonical": rows[5]["canonical"], "signature": rows[5]["signature"][:-1]}
    assert _REPLAYS.longest_prefix(game_id, damaged) is None
    assert _REPLAYS.longest_prefix(game_id, rows[:19]) is None  # shorter than any kept


@pytest.mark.parametrize("title", TITLES)
def test_a_game_s_tables_unmarshal_at_first_read(
    cache_dir: Path, title: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adjudicator.start keeps a snapshot's tables unmarshalled (tables.Unloaded) until
    its `data` is read: a genesis alone never reads it. Read, it is the parsed tables; a
    game holding it compares and shows as one holding them."""
    from pbem.core.adjudicator import Adjudicator
    from pbem.verify import parse_entries

    save = Path(__file__).resolve().parents[2] / "saves" / f"{title}-demo.pbem"
    genesis = parse_entries(save.read_bytes())[0]
    engine = ledger.engine_by_name(title)
    parsed = engine.load_data(engine.default_data())

    def start(lazy: bool) -> Adjudicator:
        monkeypatch.setattr(tables, "_DATA_CACHE", {})
        if not lazy:  # (the tables parsed from the files, as the first run of all)
            monkeypatch.setattr(ledger.DISK_TABLES, "get", lambda *_args: None)
        game = Adjudicator.start(
            genesis,
            ledger.engine_by_name,
            ledger.data_source(),
            ledger.check_signature,
            tables=ledger.DISK_TABLES,
        )
        monkeypatch.undo()
        return game

    eager = start(lazy=False)
    assert type(eager.__dict__["data"]) is not tables.Unloaded
    load_data_cached(engine, engine.default_data(), ledger.DISK_TABLES)  # (kept on disk)
    lazy = start(lazy=True)
    assert type(lazy.__dict__["data"]) is tables.Unloaded
    twin = lazy.fork()
    assert lazy == eager and repr(lazy) == repr(eager)
    assert lazy.data == parsed and type(lazy.__dict__["data"]) is not tables.Unloaded
    assert twin.data == parsed

    broken = tables.Unloaded(b"not marshal", lambda: parsed)
    assert broken.load() is parsed and broken == parsed
