"""The Client and its local Store: file modes, finding games, refused commands change nothing."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pbem.client import Client
from pbem.core.log import Entry
from pbem.crypto.keys import PublicKey, load_private_key
from pbem.errors import PbemError, StoreError
from pbem.signing import Applied, NotStreamed
from pbem.store import Store
from tests.support.players import Duo, call_refused, entry_count, store_dump


@pytest.fixture
def open_umask() -> Iterator[None]:
    """Files must be private by their own mode, not thanks to a careful umask."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_store_file_is_created_0600(tmp_path: Path, open_umask: None) -> None:
    store = Store(tmp_path / "home")
    assert mode(tmp_path / "home" / "store.db") == 0o600
    assert mode(tmp_path / "home") == 0o700
    client = Client(store)
    client.new_key("me")  # writes, so SQLite makes its journal files
    for name in ("store.db", "store.db-wal", "store.db-shm"):
        path = tmp_path / "home" / name
        if path.exists():
            assert mode(path) == 0o600, name


def test_new_key_files_are_private(tmp_path: Path, open_umask: None) -> None:
    client = Client(Store(tmp_path / "home"))
    line = client.new_key("alice")
    private = tmp_path / "home" / "keys" / "alice"
    assert mode(private) == 0o600
    assert mode(private.parent) == 0o700
    public_line = (tmp_path / "home" / "keys" / "alice.pub").read_text().strip()
    public = PublicKey.parse_line(public_line)
    assert line == f"256 {public.fingerprint()} alice (ED25519)"
    assert load_private_key(private.read_bytes()).public == public
    rows = client.store.db.execute("SELECT name, public, fingerprint FROM keys").fetchall()
    assert rows == [("alice", public.openssh_line(), public.fingerprint())]
    # the store holds a path to the private key, never the key itself
    raw = (tmp_path / "home" / "store.db").read_bytes()
    assert b"PRIVATE KEY" not in raw
    assert private.read_bytes() not in raw


def test_new_key_refuses_an_existing_name(tmp_path: Path) -> None:
    client = Client(Store(tmp_path / "home"))
    client.new_key("alice")
    private = tmp_path / "home" / "keys" / "alice"
    content = private.read_bytes()
    call_refused(client.store, lambda: client.new_key("alice"), "already exists")
    assert private.read_bytes() == content


@pytest.mark.parametrize("name", ["", "../evil", ".hidden", "a/b", "with space", "x\n"])
def test_new_key_refuses_bad_names(tmp_path: Path, name: str) -> None:
    client = Client(Store(tmp_path / "home"))
    call_refused(client.store, lambda: client.new_key(name), "key name")
    keys = tmp_path / "home" / "keys"
    assert not keys.exists() or not any(keys.iterdir())
    assert not (tmp_path / "evil").exists()


def test_import_public_key_and_refuse_a_duplicate(tmp_path: Path) -> None:
    alice = Client(Store(tmp_path / "alice"))
    bob = Client(Store(tmp_path / "bob"))
    alice.new_key("alice")
    line = bob.import_key("alice", tmp_path / "alice" / "keys" / "alice.pub")
    assert line.startswith("256 SHA256:")
    row = bob.store.db.execute("SELECT private_path FROM keys WHERE name = 'alice'").fetchone()
    assert row == ("",)  # a public key only
    call_refused(
        bob.store,
        lambda: bob.import_key("alice", tmp_path / "alice" / "keys" / "alice.pub"),
        "already exists",
    )


# --- finding games -------------------------------------------------------------------------


def _games(tmp_path: Path, count: int) -> tuple[Client, list[str]]:
    client = Client(Store(tmp_path / "home"))
    client.new_key("a")
    client.new_key("b")
    ids = [client.new_game("toy-dice", "a", {"a": "a", "b": "b"})[0] for _ in range(count)]
    return client, ids


def test_find_game_by_unique_prefix(tmp_path: Path) -> None:
    client, ids = _games(tmp_path, 3)
    for game_id in ids:
        prefix = next(
            game_id[:n]
            for n in range(1, 65)
            if sum(other.startswith(game_id[:n]) for other in ids) == 1
        )
        assert client.store.find_game(prefix) == game_id
        assert client.store.find_game(game_id) == game_id
        assert client.store.find_game(f"  {game_id[:12].upper()} ") == game_id
        assert client.game(game_id[:12]).id == game_id


def test_find_game_ambiguous_unknown_and_empty(tmp_path: Path) -> None:
    client, ids = _games(tmp_path, 17)  # 17 ids, 16 hex digits: two share a first digit
    firsts = [game_id[0] for game_id in ids]
    shared = next(c for c in firsts if firsts.count(c) > 1)
    with pytest.raises(StoreError, match="ambiguous") as caught:
        client.store.find_game(shared)
    assert f"{firsts.count(shared)} games match" in str(caught.value)
    unused = [c for c in "0123456789abcdef" if c not in firsts]
    if unused:
        with pytest.raises(StoreError, match="no game"):
            client.store.find_game(unused[0])
    with pytest.raises(StoreError, match="not a game id"):
        client.store.find_game("g")  # not even hex
    with pytest.raises(StoreError, match="no game id given"):
        client.store.find_game("   ")


@pytest.mark.parametrize("prefix", ["%", "_"])
def test_find_game_treats_wildcards_literally(tmp_path: Path, prefix: str) -> None:
    client, _ids = _games(tmp_path, 1)
    with pytest.raises(StoreError):
        client.store.find_game(prefix)


# --- every refused command leaves the store unchanged --------------------------------------


def _refusals(duo: Duo, tmp_path: Path) -> list[tuple[Client, Callable[[], object], str]]:
    gid = duo.game_id
    a, b = duo.a, duo.b
    return [
        (b, lambda: b.move(gid, "roll"), "not your turn"),
        (b, lambda: b.move(gid, "roll", "a"), "no key for role 'a'"),
        (b, lambda: b.ack(gid), "not your turn"),
        (a, lambda: a.move(gid, "fly"), "'fly'"),
        (a, lambda: a.move(gid, "9"), "no choice 9"),
        (a, lambda: a.move(gid, "0"), "no choice 0"),
        (a, lambda: a.ack(gid), "out of turn"),
        (a, lambda: a.join(gid), "nothing to join"),
        (a, lambda: a.move("f" * 64, "roll"), "no game"),
        (a, lambda: a.new_game("no-such-rules", "a", {"a": "a", "b": "b"}), "unknown game"),
        (a, lambda: a.new_game("toy-dice", "c", {"a": "a", "b": "b"}), "creating role"),
        (a, lambda: a.new_game("toy-dice", "a", {"a": "a", "b": "nobody"}), "no key named"),
        (a, lambda: a.new_game("toy-dice", "a", {"a": "a", "c": "b"}), "no role 'c'"),
        (a, lambda: a.new_game("toy-dice", "a", {"a": "a"}), "needs a 'b' role"),
        (
            a,
            lambda: a.new_game("toy-dice", "a", {"a": "a", "b": "b"}, data_files={"x": b""}),
            "no data file",
        ),
        (a, lambda: a.new_key("a"), "already exists"),
        (a, lambda: a.import_key("b", tmp_path / "b" / "keys" / "b.pub"), "already exists"),
    ]


def test_refused_commands_leave_the_store_unchanged(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    for client, call, fragment in _refusals(duo, tmp_path):
        call_refused(client.store, call, fragment)
    # and the game goes on normally afterwards
    duo.step()
    assert entry_count(duo.a.store, duo.game_id) == 4


def test_refused_commands_while_dice_wait(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    duo.step()  # a rolls; its die waits for b
    gid = duo.game_id
    call_refused(duo.a.store, lambda: duo.a.move(gid, "roll"), "not your turn")
    call_refused(duo.a.store, lambda: duo.a.move(gid, "roll", "a"), "waiting for entropy")
    call_refused(duo.a.store, lambda: duo.a.ack(gid, "a"), "waiting for entropy")
    assert duo.b.game(gid).waiting_for_entropy


def test_apply_entries_of_an_unknown_game_changes_nothing(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    stranger = Client(Store(tmp_path / "c"))
    stranger.new_key("a")
    stranger.new_key("b")
    other_id, made = stranger.new_game("toy-dice", "a", {"a": "a", "b": "b"})
    join = made[-1]
    before = store_dump(duo.b.store)
    with pytest.raises(PbemError, match="unknown here"):
        duo.b.apply_entries([join])
    assert store_dump(duo.b.store) == before
    assert not duo.b.store.has_game(other_id)


def test_applying_the_same_entries_twice_is_harmless(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    entry = duo.a.move(duo.game_id, "roll")
    first = duo.b.apply_entries([entry])
    before = store_dump(duo.b.store)
    again = duo.b.apply_entries([entry])
    assert [r.status for r in first] == ["applied"]
    assert [r.status for r in again] == ["already had"]
    assert store_dump(duo.b.store) == before


def test_a_game_played_through_two_stores(tmp_path: Path) -> None:
    duo = Duo(tmp_path)
    duo.finish()
    game_a = duo.a.game(duo.game_id)
    game_b = duo.b.game(duo.game_id)
    assert [e.id for e in game_a.entries] == [e.id for e in game_b.entries]
    assert game_a.rng_log == game_b.rng_log and len(game_a.rng_log) == 6
    assert game_a.outcome() == game_b.outcome() is not None
    assert duo.a.my_roles(game_a) == ["a"] and duo.b.my_roles(game_b) == ["b"]
    # a fresh client on the same store replays to the same place
    again = Client(Store(tmp_path / "a")).game(duo.game_id[:10])
    assert again.head == game_a.head and again.state == game_a.state


# --- apply_stream: one game's entries applied as they come, in a lean game ------------------


def _finished_log(tmp_path: Path) -> list[Entry]:
    duo = Duo(tmp_path / "duo")
    duo.finish()
    return list(duo.a.game(duo.game_id).entries)


def test_apply_stream_stores_what_apply_entries_stores(tmp_path: Path) -> None:
    log = _finished_log(tmp_path)
    listed, streamed = Client(Store(tmp_path / "l")), Client(Store(tmp_path / "s"))
    told: list[Applied] = []
    results = listed.apply_entries(list(log))
    game = streamed.apply_stream(iter(log), each=told.append)
    assert game.lean and game.entry_count == len(log) and game.head.id == log[-1].id
    assert [(r.status, r.entry.id) for r in told] == [(r.status, r.entry.id) for r in results]
    assert store_dump(streamed.store) == store_dump(listed.store)
    # a stored game: what it has is "already had", the rest applied, as apply_entries says
    again: list[Applied] = []
    streamed.apply_stream(iter(log[3:]), each=again.append)
    assert {r.status for r in again} == {"already had"}
    assert streamed.game(game.id).state == listed.game(game.id).state


@pytest.mark.parametrize("case", ["out of order", "a gap", "two games", "a refusal", "none"])
def test_apply_stream_stores_nothing_it_cannot_vouch_for(tmp_path: Path, case: str) -> None:
    log = _finished_log(tmp_path)
    client = Client(Store(tmp_path / "s"))
    other = _finished_log(tmp_path / "other")
    found = {
        "out of order": [log[0], log[2], log[1], *log[3:]],
        "a gap": [log[0], log[1], *log[3:]],
        "two games": [*log, other[0]],
        "a refusal": [*log[:-1], Entry.from_wire(log[-1].canonical, bytes(len(log[-1].signature)))],
        "none": [],
    }[case]
    before = store_dump(client.store)
    told: list[Applied] = []
    with pytest.raises(NotStreamed):
        client.apply_stream(iter(found), each=told.append)
    assert store_dump(client.store) == before
    if case != "none":  # the in-memory path: stores all of it, or says what is wrong
        try:
            client.apply_entries(found)
        except PbemError:
            assert store_dump(client.store) == before


def test_draining_held_entries_reads_only_the_seqs_it_settles(tmp_path: Path) -> None:
    """Accepting an invitation whose n entries wait in the inbox looks up n + 1 seqs: never
    every held entry per entry applied (a drain that did was quadratic)."""
    from pbem.inbox import Inbox, Receipt

    duo = Duo(tmp_path / "duo")
    duo.finish()
    log = list(duo.a.game(duo.game_id).entries)
    guest = Client(Store(tmp_path / "guest"))
    key = tmp_path / "b.key"
    key.write_bytes(duo.key("b").to_openssh())
    key.chmod(0o600)
    guest.import_key("b", key)
    inbox = Inbox(guest)
    with inbox.batch():
        inbox.receive(Receipt(), log)
    assert not guest.has_game(duo.game_id)
    reads: list[str] = []
    store = guest.store
    for name in ("buffered", "buffered_at", "buffered_below"):
        real = getattr(store, name)

        def counted(
            *args: object, _real: Callable[..., object] = real, _name: str = name
        ) -> object:
            reads.append(_name)
            return _real(*args)

        setattr(store, name, counted)
    Inbox(guest).accept(duo.game_id)
    assert guest.stored_count(duo.game_id) == len(log)
    assert "buffered" not in reads and reads.count("buffered_at") <= len(log) + 1
