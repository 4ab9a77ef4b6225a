"""Known answers for the vault (pbem/store/vault.py, docs/protocol-notes.md "No secret in
the store alone"): a fixed key, game and role give pinned secrets, and a pinned sealed
text opens.

A role's chain seed, salts and private-draw secrets are derived from its key: were a
domain string, a purpose or the role in the root's label to change, every store made
before would derive other secrets and could neither go on with its chain nor open its
own commitments. These pins make any such change fail here first. The recomputation
follows the documented formula byte for byte, so the note and the code cannot part.
"""

from __future__ import annotations

import hashlib
import hmac

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.crypto.keys import PrivateKey
from pbem.errors import StoreError
from pbem.store.vault import Vault

GAME = "ab" * 32
ROLE = "west"
# Ed25519 from the seed 00 01 02 ... 1f (RFC 8032 signatures are deterministic).
KEY = PrivateKey(Ed25519PrivateKey.from_private_bytes(bytes(range(32))), "kat")
KEY_LINE = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4 kat"

CHAIN_SEED = "e578d28235aff354789f0863c758400be2bd4fd1b7e9690445fc0bd550493d58"
SALT = "1b5bf0cb671f3ebabe3fded550f528280109b70e8fcc6524432ae2937047d0a5"  # plan/turn-1
FRESH = "fa833664809c80aa73e724be812a5dc32fd98a3e3d7914950b15c232c4ed0fdc"  # hand/west/1
ESCROW = "72a6b32b6b7ac8b752d0b9c1de0596778be6d12c6cc109a62d44b2782a4c46c2"
SOVIET_CHAIN_SEED = "eb876fd2fbc72c901385b093103ab68c7315356e42ad81b862dd184d368589b1"
# Sealed by this vault under "sealed:plan/turn-1" (a random nonce: any later seal differs).
SEALED_NAME = "sealed:plan/turn-1"
SEALED_PLAIN = '{"salt": "00", "value": "attack 12"}'
SEALED_TEXT = (
    "vault1:Ei1oV9uItpVZLAeYHrGe5OYT9Tajo0lVoxwBZRvHSPncA1ZuaA8qhtFqf95+"
    "KzIp5tL3AQRVih4UQfdnwXhj6w=="
)


def test_the_fixed_key_is_the_one_pinned() -> None:
    assert KEY.public.openssh_line() == KEY_LINE


def test_a_fixed_key_game_and_role_give_the_pinned_secrets() -> None:
    vault = Vault(KEY, GAME, ROLE)
    assert vault.chain_seed().hex() == CHAIN_SEED
    assert vault.salt("plan/turn-1") == SALT
    assert vault.fresh("hand/west/1") == FRESH
    assert vault.escrow_secret().hex() == ESCROW


def test_the_role_is_part_of_the_root() -> None:
    assert Vault(KEY, GAME, "soviet").chain_seed().hex() == SOVIET_CHAIN_SEED
    assert SOVIET_CHAIN_SEED != CHAIN_SEED


def test_the_documented_derivation_gives_the_same_secrets() -> None:
    """docs/protocol-notes.md: root = SHA256("pbem-vault/v1" || Ed25519-sign(key,
    "pbem-vault/v1 root\\0" || game-id-hex || "\\0" || role)); each secret is
    HMAC-SHA256(root, purpose || "\\0" || label)."""
    label = b"pbem-vault/v1 root\0" + GAME.encode() + b"\0" + ROLE.encode()
    root = hashlib.sha256(b"pbem-vault/v1" + KEY.sign_raw(label)).digest()

    def derive(purpose: str, name: str = "") -> str:
        message = purpose.encode() + b"\0" + name.encode()
        return hmac.new(root, message, hashlib.sha256).hexdigest()

    assert derive("chain-seed") == CHAIN_SEED
    assert derive("salt", "plan/turn-1") == SALT
    assert derive("fresh", "hand/west/1") == FRESH
    assert derive("escrow") == ESCROW


def test_a_pinned_sealed_text_opens_and_only_where_it_was_sealed() -> None:
    assert Vault(KEY, GAME, ROLE).open(SEALED_NAME, SEALED_TEXT) == SEALED_PLAIN
    # Bound to the game, the role and the row: moved anywhere else it does not open.
    for vault, name in [
        (Vault(KEY, GAME, "soviet"), SEALED_NAME),
        (Vault(KEY, "cd" * 32, ROLE), SEALED_NAME),
        (Vault(KEY, GAME, ROLE), "sealed:plan/turn-2"),
    ]:
        with pytest.raises(StoreError, match="does not open with this key"):
            vault.open(name, SEALED_TEXT)


def test_sealing_one_value_twice_stores_two_different_texts() -> None:
    """A fresh nonce per seal: with a constant one, two values sealed under one key would
    give away their XOR (ChaCha20 is a stream cipher), and one value sealed twice would
    show that it did not change."""
    vault = Vault(KEY, GAME, ROLE)
    first, second = (vault.seal(SEALED_NAME, SEALED_PLAIN) for _ in range(2))
    assert first != second
    nonce = slice(len("vault1:"), len("vault1:") + 16)  # 12 bytes, base64
    assert first[nonce] != second[nonce]
    assert vault.open(SEALED_NAME, first) == vault.open(SEALED_NAME, second) == SEALED_PLAIN
