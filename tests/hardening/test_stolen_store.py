"""A copy of store.db alone predicts no roll and opens no commitment (protocol section 8).

The attack (issue 11, item 2): somebody copies a player's store.db (a backup, a shared
folder, a stolen laptop without the key's passphrase) and reads from it the hash-chain
seed (every future reveal, so every future roll), the salts and the sealed values. The
store now keeps nothing of the kind in the clear (pbem/store/vault.py): chain seeds, salts
and private-draw secrets are derived from the private key, sealed values are encrypted
under it. Without the key the copy is useless; with the key and the log a player who
lost the store can go on playing.
"""

from __future__ import annotations

import base64
import sqlite3
from pathlib import Path

import pytest

import tests.support.bid  # noqa: F401  (registers toy-bid)
import tests.support.peek  # noqa: F401  (registers toy-peek)
from pbem.client import CHAIN, SEALED, Client
from pbem.core import chain
from pbem.errors import PbemError, StoreError
from pbem.store import Store
from pbem.store.vault import Vault
from tests.support.players import Duo


def store_bytes(home: Path) -> bytes:
    """Every byte a thief copying the store gets: the database and SQLite's side files."""
    return b"".join(
        (home / name).read_bytes()
        for name in ("store.db", "store.db-wal", "store.db-shm")
        if (home / name).exists()
    )


def forms(secret: bytes) -> list[bytes]:
    """A 32-byte secret as a store could hold it: raw, hex either case, base64."""
    return [
        secret,
        secret.hex().encode(),
        secret.hex().upper().encode(),
        base64.b64encode(secret),
        base64.b64encode(secret).rstrip(b"="),
    ]


def future_reveals(client: Client, game_id: str, role: str, count: int) -> list[bytes]:
    """The next `count` chain elements of `role`: what would predict its rolls."""
    game = client.game(game_id)
    seed = client.chain_seed(game_id, role)
    index = game.next_reveal_index(role)
    return [chain.element(seed, chain.MIN_LENGTH, index + k) for k in range(count)]


def thief(tmp_path: Path, home: Path) -> Client:
    """A store made of the copied database only: no key file comes with it."""
    stolen = tmp_path / "thief"
    stolen.mkdir()
    source, target = sqlite3.connect(home / "store.db"), sqlite3.connect(stolen / "store.db")
    source.backup(target)
    source.close()
    target.close()
    return Client(Store(stolen))


def test_a_copied_store_holds_no_future_reveal_no_salt_and_no_secret_x(tmp_path: Path) -> None:
    duo = Duo(tmp_path, "toy-peek")
    peek = duo.a.move(duo.game_id, "peek")  # commits a fresh x: the die only a may see
    duo.send([peek], duo.b)
    label = next(iter(dict(peek.body["commit"])))
    opening = duo.a.sealed_opening(duo.game_id, "a", label)
    secrets = {
        "a's chain seed": duo.a.chain_seed(duo.game_id, "a"),
        "the salt of x": bytes.fromhex(opening.salt),
        "x": bytes.fromhex(str(opening.value)),
    }
    for number, value in enumerate(future_reveals(duo.a, duo.game_id, "a", 8)):
        secrets[f"a's reveal +{number}"] = value
    raw = store_bytes(tmp_path / "a")
    for what, secret in secrets.items():
        for form in forms(secret):
            assert form not in raw, f"{what} is in the store in the clear"
    # What the store keeps of the commitment is sealed, and opens only with a's key.
    rows = dict(
        duo.a.store.db.execute(
            "SELECT kind, value FROM secrets WHERE role = 'a' AND game = ?", [duo.game_id]
        ).fetchall()
    )
    assert set(rows) == {SEALED + label}  # no chain seed stored: it is derived
    assert rows[SEALED + label].startswith("vault1:")


def test_a_copied_store_without_the_key_predicts_nothing(tmp_path: Path) -> None:
    duo = Duo(tmp_path, "toy-bid")
    duo.send([duo.a.move(duo.game_id, "bid 7 odd")], duo.b)
    stolen = thief(tmp_path, tmp_path / "a")
    game = stolen.game(duo.game_id)  # the log itself is public: it replays
    assert game.head.seq == 3
    # The key file is not at hand for the thief's store: nothing derives, nothing opens.
    (tmp_path / "a" / "keys" / "a").rename(tmp_path / "a-key-elsewhere")
    for attempt in (
        lambda: stolen.known(duo.game_id, "a"),
        lambda: stolen.chain_seed(duo.game_id, "a"),
        lambda: stolen.move(duo.game_id, "reveal", "a"),
    ):
        with pytest.raises(PbemError):
            attempt()


def test_a_sealed_value_opens_only_under_its_own_key_game_and_name(tmp_path: Path) -> None:
    duo = Duo(tmp_path, "toy-bid")
    duo.a.move(duo.game_id, "bid 7 odd")
    stored = duo.a.store.secret(duo.game_id, "a", SEALED + "bid/a/1")
    assert stored is not None and stored.startswith("vault1:") and "value" not in stored
    mine = Vault(duo.key("a"), duo.game_id, "a")
    assert '"value": 7' in mine.open(SEALED + "bid/a/1", stored)
    for other in (
        Vault(duo.key("b"), duo.game_id, "a"),  # another key
        Vault(duo.key("a"), "00" * 32, "a"),  # another game
        Vault(duo.key("a"), duo.game_id, "b"),  # another role
    ):
        with pytest.raises(StoreError, match="does not open"):
            other.open(SEALED + "bid/a/1", stored)
    with pytest.raises(StoreError, match="does not open"):  # moved to another row
        mine.open(SEALED + "bid/a/2", stored)


def test_a_lost_store_is_rebuilt_from_the_key_and_the_log(tmp_path: Path) -> None:
    """The chain is derived from the key: import the key into a new store, apply the game
    (a save, or the opponent's mails), and play on with the same reveals."""
    duo = Duo(tmp_path)
    duo.step()
    duo.step()
    save = duo.b.export(duo.game_id)
    fresh = Client(Store(tmp_path / "a-again"))
    fresh.import_key("a", tmp_path / "a" / "keys" / "a")
    from pbem.verify import parse_entries

    fresh.apply_entries(parse_entries(save))
    expected = duo.a._reveal(duo.a.game(duo.game_id), "a")
    entry = fresh.move(duo.game_id, "roll")
    assert entry.reveal == expected.hex()
    duo.send([entry], duo.b)  # b accepts it: the game goes on


def test_an_earlier_stores_plain_secrets_are_sealed_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store written by an earlier pbem kept a random chain seed and sealed values in
    plain JSON. They still work, and are sealed under the key the first time it is used."""
    import json

    duo = Duo(tmp_path, "toy-bid")
    duo.a.move(duo.game_id, "bid 7 odd")
    game = duo.a.game(duo.game_id)
    # Make the store look old: the sealed bid in plain JSON, as the earlier version kept it.
    kind = SEALED + "bid/a/1"
    plain = duo.a.sealed_opening(duo.game_id, "a", "bid/a/1")
    with duo.a.store.transaction():
        duo.a.store.put_secret(
            game.id, "a", kind, json.dumps({"salt": plain.salt, "value": plain.value})
        )
        duo.a.store.put_secret(game.id, "a", CHAIN, json.dumps({"seed": "11" * 32}))
    old = Client(Store(tmp_path / "a"))
    assert old.known(duo.game_id, "a") == {"bid/a/1": 7}
    rows = old.store.secrets(duo.game_id, "a", "")
    assert rows and all(value.startswith("vault1:") for _kind, value in rows)
    assert "11" * 32 not in str(rows)


def test_a_game_joined_with_a_random_seed_by_an_earlier_pbem_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before seeds were derived, a join's chain came from a random seed kept in the store:
    such a game still plays (the seed is read, then sealed under the key)."""
    import json

    from pbem.core.log import JOIN
    from pbem.verify import parse_entries

    old_seed = bytes(range(32))
    derived = Vault.chain_seed
    monkeypatch.setattr(
        Vault, "chain_seed", lambda self: old_seed if self._name.endswith("/b") else derived(self)
    )
    duo = Duo(tmp_path)
    monkeypatch.undo()
    game = duo.b.game(duo.game_id)
    with duo.b.store.transaction():
        kept = json.dumps({"seed": old_seed.hex(), "length": chain.MIN_LENGTH})
        duo.b.store.put_secret(game.id, "b", CHAIN, kept)
    join = next(e for e in game.entries if e.kind == JOIN and e.by == "b")
    assert join.body["anchor"] == chain.anchor(old_seed, chain.MIN_LENGTH).hex()
    duo.finish()
    assert duo.b.chain_seed(duo.game_id, "b") == old_seed
    assert old_seed.hex() not in str(duo.b.store.secrets(duo.game_id, "b", ""))
    assert parse_entries(duo.save())


def test_a_damaged_sealed_value_is_refused_by_what_the_role_knows(tmp_path: Path) -> None:
    """known() opens every sealed value it read with one vault: a damaged one among them
    is refused, as opening it alone is, and nothing is returned half-read."""
    duo = Duo(tmp_path, "toy-bid")
    duo.a.move(duo.game_id, "bid 7 odd")
    assert duo.a.known(duo.game_id, "a") == {"bid/a/1": 7}
    kind = SEALED + "bid/a/1"
    game = duo.a.game(duo.game_id)
    value = duo.a.store.secret(game.id, "a", kind)
    assert value is not None and value.startswith("vault1:")
    # Flip one bit of the ciphertext itself: a changed base64 character can fall in the
    # padding bits a decoder drops, and then nothing was damaged at all.
    raw = bytearray(base64.b64decode(value[len("vault1:") :]))
    raw[20] ^= 0x01
    damaged = "vault1:" + base64.b64encode(bytes(raw)).decode("ascii")
    with duo.a.store.transaction():
        duo.a.store.put_secret(game.id, "a", kind, damaged)
    with pytest.raises(StoreError, match="bid/a/1 does not open with this key"):
        Client(Store(tmp_path / "a")).known(duo.game_id, "a")
