"""A role's own secrets, useless without its private key (protocol section 8).

Everything secret that a store holds for a role in a game is either derived from the
role's private key or encrypted under a key derived from it, so a copy of store.db
alone predicts no roll and opens no commitment:

- the root of a (game, role) is SHA-256 over the role key's Ed25519 signature of a
  domain-separated label naming the game and the role. Ed25519 signatures are
  deterministic (RFC 8032), so the same key always gives the same root, and nobody
  without the key can compute it; the label starts with `pbem-vault/v1`, which no
  entry signature can (SSHSIG signs bytes starting with `SSHSIG`);
- the hash-chain seed, each commitment's salt and each private-draw secret x are
  HMAC-SHA256 of the root with their purpose and label: a player who lost the store
  rebuilds the chain (and so can go on playing) from the key and the log;
- a sealed value (a plan, a bid) is a choice, not derivable: it is stored encrypted
  with ChaCha20-Poly1305 under a key derived from the root, bound to its name.
"""

from __future__ import annotations

import base64
import os
from typing import TYPE_CHECKING

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.hmac import HMAC

from pbem import digests
from pbem.errors import StoreError

if TYPE_CHECKING:
    from pbem.crypto.publickey import Signer

VAULT_DOMAIN = b"pbem-vault/v1"
SEALED_PREFIX = "vault1:"  # a stored value sealed by this module (earlier stores: plain JSON)


class Vault:
    """The derivations and the sealing of one role's secrets in one game."""

    def __init__(self, key: Signer, game_id: str, role: str) -> None:
        # `key` is the key file's PrivateKey or ssh-agent's AgentKey: the same deterministic
        # signature, so the same root, whichever holds the key (tests/crypto/test_agent.py).
        label = VAULT_DOMAIN + b" root\0" + game_id.encode("ascii") + b"\0" + role.encode()
        self._root = digests.sha256(VAULT_DOMAIN + key.sign_raw(label)).digest()
        self._name = f"{game_id}/{role}"
        self._box: ChaCha20Poly1305 | None = None  # made at the first seal or open

    def _sealing_box(self) -> ChaCha20Poly1305:
        # One key for every value of the role's game: a store's show opens hundreds.
        if self._box is None:
            self._box = ChaCha20Poly1305(self._derive("seal-key"))
        return self._box

    def _derive(self, purpose: str, label: str = "") -> bytes:
        message = purpose.encode() + b"\0" + label.encode("utf-8")
        # HMAC-SHA256 by cryptography, loaded already for the cipher: the standard library's
        # hmac would load a second OpenSSL (hashlib's), a share of a cold `pbem show`.
        mac = HMAC(self._root, SHA256())
        mac.update(message)
        return mac.finalize()

    def chain_seed(self) -> bytes:
        """s_N of the role's hash chain in this game."""
        return self._derive("chain-seed")

    def salt(self, label: str) -> str:
        """The salt of the commitment under `label` (hex, 32 bytes)."""
        return self._derive("salt", label).hex()

    def fresh(self, label: str) -> str:
        """The secret x of the private draws committed under `label` (hex, 32 bytes)."""
        return self._derive("fresh", label).hex()

    def escrow_secret(self) -> bytes:
        """What the ephemeral keys of the role's escrows derive from (double-blind games:
        pbem.crypto.escrow.seal_derived), so an entry signed again is the same bytes."""
        return self._derive("escrow")

    def seal(self, name: str, plain: str) -> str:
        """`plain` encrypted and bound to `name` (a store row's kind), as stored text."""
        nonce = os.urandom(12)
        sealed = self._sealing_box().encrypt(nonce, plain.encode("utf-8"), self._bound(name))
        return SEALED_PREFIX + base64.b64encode(nonce + sealed).decode("ascii")

    def open(self, name: str, stored: str) -> str:
        """The plain text of a value sealed under `name`."""
        if not is_sealed(stored):
            raise StoreError(f"the store's secret {name} is not sealed")
        raw = base64.b64decode(stored[len(SEALED_PREFIX) :])
        box = self._sealing_box()
        try:
            return box.decrypt(raw[:12], raw[12:], self._bound(name)).decode("utf-8")
        except InvalidTag:
            raise StoreError(
                f"the store's secret {name} does not open with this key "
                "(damaged, or sealed under another key)"
            ) from None

    def _bound(self, name: str) -> bytes:
        return f"{self._name}/{name}".encode()


def is_sealed(stored: str) -> bool:
    return stored.startswith(SEALED_PREFIX)
