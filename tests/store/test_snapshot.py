"""The replay snapshot (pbem.snapshot): a game loaded from it is the game a replay gives,
and a stale, tampered or foreign snapshot is never used (it is ignored, never an error)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem import cache, snapshot
from pbem.client import Client
from pbem.core.adjudicator import Adjudicator
from pbem.demo import run_demo
from pbem.ledger import replay
from pbem.signing import _REPLAYS
from pbem.store import Store


def _new_process() -> None:
    """Forget the replays this process keeps (what a new `pbem` command starts without)."""
    _REPLAYS._games.clear()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("snap") / "demo"
    result = run_demo("toy-dice", folder)
    return folder, result.game_id


@pytest.fixture
def home(demo: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of one side's store, with its own (empty) cache folder."""
    import shutil

    folder, _game = demo
    side = sorted(p for p in folder.iterdir() if p.name.endswith("-home"))[0]
    copy = tmp_path / "home"
    shutil.copytree(side, copy)
    for name in ("cache",):
        shutil.rmtree(copy / name, ignore_errors=True)
    monkeypatch.setenv("PBEM_HOME", str(copy))
    monkeypatch.delenv("PBEM_CACHE", raising=False)
    _new_process()
    return copy


def _strict(client: Client, game_id: str) -> Adjudicator:
    return replay(client.stored_entries(game_id), client._stored_data(client.genesis_of(game_id)))


def _loaded(client: Client, game_id: str) -> Adjudicator | None:
    return snapshot.load(
        client.genesis_of(game_id),
        lambda seq: client.store.entry_bytes(game_id, seq),
        client._fresh_game,
    )


def _path(game_id: str) -> Path:
    where = cache.folder()
    assert where is not None
    return Path(where) / f"replay-{game_id}"


def test_a_command_keeps_a_snapshot_and_the_next_starts_from_it(
    home: Path, demo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _folder, game_id = demo
    client = Client(Store(home))
    first = client.game(game_id)
    assert first.head.seq + 1 >= snapshot.SAVE_AFTER
    assert _path(game_id).exists()
    _new_process()
    applied: list[int] = []
    original = Adjudicator.apply

    def counting(self: Adjudicator, entry, then=None):  # type: ignore[no-untyped-def]
        applied.append(entry.seq)
        return original(self, entry, then)

    monkeypatch.setattr(Adjudicator, "apply", counting)
    again = Client(Store(home)).game(game_id)
    assert applied == []  # nothing replayed
    monkeypatch.setattr(Adjudicator, "apply", original)
    strict = _strict(client, game_id)
    assert again == strict
    assert again.outcome() == strict.outcome()
    assert again.prompts() == strict.prompts()


def test_entries_stored_after_the_snapshot_are_applied_on_it(
    home: Path, demo: tuple[Path, str]
) -> None:
    _folder, game_id = demo
    client = Client(Store(home))
    full = client.game(game_id)
    cut = full.head.seq - 3
    # A snapshot of the game as it was at `cut` (its first entries replayed)
    early = replay(full.entries[: cut + 1], client._stored_data(full.genesis))
    snapshot.save(early)
    _new_process()
    loaded = _loaded(client, game_id)
    assert loaded is not None and loaded.head.seq == cut
    _new_process()
    assert Client(Store(home)).game(game_id) == _strict(client, game_id)


def _saved(home: Path, game_id: str) -> Client:
    client = Client(Store(home))
    snapshot.save(client.game(game_id))
    _new_process()
    assert _loaded(client, game_id) is not None
    return client


def test_a_snapshot_of_another_head_is_ignored(home: Path, demo: tuple[Path, str]) -> None:
    _folder, game_id = demo
    client = _saved(home, game_id)
    head = client.store.head_of(game_id)
    assert head is not None
    seq = head[0]
    # The store now holds other bytes at the snapshot's head (a different log)
    with client.store.transaction():
        client.store._write(
            "UPDATE entries SET canonical = CAST(canonical || X'20' AS BLOB)"
            " WHERE game = ? AND seq = ?",
            game_id,
            seq,
        )
    assert _loaded(client, game_id) is None
    # ... or fewer entries than the snapshot's head
    with client.store.transaction():
        client.store._write("DELETE FROM entries WHERE game = ? AND seq = ?", game_id, seq)
    assert _loaded(client, game_id) is None


@pytest.mark.parametrize("where", ["payload", "header", "magic", "truncated", "garbage"])
def test_a_changed_snapshot_is_ignored(home: Path, demo: tuple[Path, str], where: str) -> None:
    _folder, game_id = demo
    client = _saved(home, game_id)
    path = _path(game_id)
    data = bytearray(path.read_bytes())
    if where == "payload":  # a byte of an entry in the middle: it still unpickles
        middle = client.stored_entries(game_id)[len(client.stored_entries(game_id)) // 2]
        at = bytes(data).rindex(middle.canonical)
        data[at + len(middle.canonical) // 2] ^= 1
    elif where == "header":
        data[30] ^= 1
    elif where == "magic":
        data[0] ^= 1
    elif where == "truncated":
        data = data[: len(data) // 2]
    else:
        data = bytearray(os.urandom(len(data)))
    path.write_bytes(bytes(data))
    assert _loaded(client, game_id) is None
    # and a command that meets it replays instead (no error), and writes a good one again
    assert Client(Store(home)).game(game_id) == _strict(client, game_id)
    _new_process()
    assert _loaded(client, game_id) is not None


def test_a_snapshot_of_another_code_version_is_ignored(
    home: Path, demo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _folder, game_id = demo
    client = _saved(home, game_id)
    original = snapshot.PBEM_VERSION
    monkeypatch.setattr(snapshot, "PBEM_VERSION", "0.0.0-other")
    assert _loaded(client, game_id) is None
    monkeypatch.setattr(snapshot, "PBEM_VERSION", original)
    assert _loaded(client, game_id) is not None
    monkeypatch.setattr(snapshot, "FORMAT", snapshot.FORMAT + 1)
    assert _loaded(client, game_id) is None


def test_a_snapshot_made_by_changed_code_is_ignored(
    home: Path, demo: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files of the code that made it are its dependencies, as for a `.pyc`."""
    _folder, game_id = demo
    module = tmp_path / "module.py"
    module.write_text("X = 1\n")
    monkeypatch.setattr(cache, "module_files", lambda _prefix: [str(module)])
    client = _saved(home, game_id)
    module.write_text("X = 22\n")
    assert _loaded(client, game_id) is None


def test_a_snapshot_others_may_write_is_ignored(home: Path, demo: tuple[Path, str]) -> None:
    _folder, game_id = demo
    client = _saved(home, game_id)
    os.chmod(_path(game_id), 0o666)
    assert _loaded(client, game_id) is None


def test_a_snapshot_of_another_game_is_ignored(home: Path, demo: tuple[Path, str]) -> None:
    _folder, game_id = demo
    client = _saved(home, game_id)
    other = "0" * 64
    os.replace(_path(game_id), _path(game_id).with_name(f"replay-{other}"))
    assert _loaded(client, game_id) is None


def test_no_snapshot_when_the_cache_is_off(
    home: Path, demo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _folder, game_id = demo
    monkeypatch.setenv("PBEM_CACHE", "")
    Client(Store(home)).game(game_id)
    assert not (home / "cache").exists() or not list((home / "cache").glob("replay-*"))


def test_verify_never_reads_a_snapshot() -> None:
    """`pbem verify` replays what it is given: nothing on its path imports pbem.snapshot."""
    import subprocess
    import sys

    code = (
        "import sys, pbem.verify, pbem.verify_many, pbem.cli.verify\n"
        "assert 'pbem.snapshot' not in sys.modules, 'verify imports the snapshot'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


SAVES = sorted((Path(__file__).resolve().parents[2] / "saves").glob("*.pbem"))


@pytest.mark.parametrize("save", SAVES, ids=[p.stem for p in SAVES])
def test_every_title_loads_from_its_snapshot_as_replayed(tmp_path: Path, save: Path) -> None:
    """Each shipped save stored, its snapshot kept, and the game it gives is the strict
    replay's, and so is what `pbem show` prints of it."""
    from pbem.render.show import show_text
    from pbem.verify import parse_entries

    _new_process()
    client = Client(Store(tmp_path / "home"))
    entries = parse_entries(save.read_bytes())
    client.apply_entries(entries)
    game_id = entries[0].id
    _new_process()
    strict = Client(Store(tmp_path / "home")).game(game_id)  # (replays, keeps a snapshot)
    text = show_text(client, strict, None, False)
    _new_process()
    loaded = _loaded(client, game_id)
    assert loaded is not None
    assert loaded == strict
    assert loaded.outcome() == strict.outcome()
    assert show_text(client, loaded, None, False) == text


def test_a_second_show_replays_nothing(home: Path, demo: tuple[Path, str]) -> None:
    """The CLI's path: `pbem show GAME` run twice, each a new process; the second starts
    from the snapshot the first kept, so it applies no entry, and prints the same."""
    import subprocess
    import sys

    _folder, game_id = demo
    root = Path(__file__).resolve().parents[2]
    code = (
        f"import sys; sys.path.insert(0, {str(root)!r})\n"
        "import tests.support.toy  # (registers toy-dice)\n"
        "from pbem.core.adjudicator import Adjudicator\n"
        "applied = []\n"
        "original = Adjudicator.apply\n"
        "def counting(self, entry, then=None):\n"
        "    applied.append(entry.seq)\n"
        "    return original(self, entry, then)\n"
        "Adjudicator.apply = counting\n"
        "from pbem.cli import main\n"
        "try:\n"
        f"    main(['show', '{game_id[:12]}'])\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print('APPLIED', len(applied))\n"
    )
    env = {**os.environ, "PBEM_HOME": str(home)}
    runs = [
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        for _ in range(2)
    ]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    first, second = (run.stdout.splitlines() for run in runs)
    assert int(first[-1].split()[1]) > 0 and second[-1] == "APPLIED 0"
    assert first[:-1] == second[:-1]
