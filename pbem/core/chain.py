"""Hash chains (protocol section 4): each role's stream of unpredictable, pre-committed reveals.

A role draws a secret s_N, publishes s_0 in its join entry, and reveals s_1, s_2, ...
in its later entries. Anyone checks a reveal by hashing it once against the one before.
"""

from __future__ import annotations

import os

from pbem import digests
from pbem.errors import ChainError

CHAIN_DOMAIN = b"pbem-chain/v1"
MIN_LENGTH = 4096


def step_down(value: bytes) -> bytes:
    """s_{i-1} from s_i."""
    return digests.sha256(CHAIN_DOMAIN + value).digest()  # = sha256(CHAIN_DOMAIN, value)


def new_seed() -> bytes:
    return os.urandom(32)  # what secrets.token_bytes(32) returns, without its imports


def element(seed: bytes, length: int, index: int) -> bytes:
    """s_index of the chain whose top s_length is `seed`."""
    if not 0 <= index <= length:
        raise ChainError(f"hash chain has no element {index} (length {length}); re-anchor")
    value = seed
    for _ in range(length - index):
        value = step_down(value)
    return value


def anchor(seed: bytes, length: int) -> bytes:
    return element(seed, length, 0)


def check_reveal(previous: bytes, reveal: bytes) -> bool:
    """True when `reveal` is the chain element that follows `previous`."""
    return digests.sha256(CHAIN_DOMAIN + reveal).digest() == previous  # step_down, inlined
