"""The deferral-rule generator (protocol sections 4 and 7).

Draws requested while the engine applies entry E are produced only when the
next entry F by another role arrives; their seed mixes E's id with F's reveal,
which E's author cannot know and F's author cannot change. The stream is
HMAC-SHA256 blocks; integers come from rejection sampling, never `% n` alone.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence

from pbem.core.hashing import hex_bytes, sha256
from pbem.errors import PbemError
from pbem.hints import TypeVar
from pbem.record import Record

RNG_DOMAIN = b"pbem-rng/v1"
PRIVATE_DOMAIN = b"pbem-private/v1"
_TWO_64 = 1 << 64
_U64 = struct.Struct(">Q").pack  # = hashing.u64, without a Python call per block


# The one-shot C function hmac.digest calls, without hmac.digest's Python frame: bound at the
# first draw, since loading it loads OpenSSL (pbem.digests), which a genesis never needs.
_hmac_digest: Callable[[bytes, bytes, str], bytes]


def _bind_hmac_digest(key: bytes, message: bytes, digest: str) -> bytes:
    global _hmac_digest
    found: Callable[[bytes, bytes, str], bytes]
    try:
        from _hashlib import hmac_digest as found
    except ImportError:  # a Python built without OpenSSL
        import hmac

        found = hmac.digest
    _hmac_digest = found
    return found(key, message, digest)


_hmac_digest = _bind_hmac_digest

T = TypeVar("T")


def public_seed(game: str, requesting_id: str, reveal: str) -> bytes:
    """seed = SHA256("pbem-rng/v1" || game || id(E) || reveal(F))."""
    return sha256(
        RNG_DOMAIN,
        hex_bytes(game, "game id"),
        hex_bytes(requesting_id, "entry id"),
        hex_bytes(reveal, "reveal"),
    )


def private_seed(game: str, requesting_id: str, secret: str, reveal: str) -> bytes:
    """seed = SHA256("pbem-private/v1" || game || id(E) || x || reveal(F))."""
    return sha256(
        PRIVATE_DOMAIN,
        hex_bytes(game, "game id"),
        hex_bytes(requesting_id, "entry id"),
        hex_bytes(secret, "private secret"),
        hex_bytes(reveal, "reveal"),
    )


class Stream:
    """The byte stream HMAC-SHA256(seed, u64(k)) for k = 0, 1, 2, ... and draws from it."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._block = 0
        self._buffer = b""

    def read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            # HMAC-SHA256(seed, u64(k)): the bytes of hmac.new(seed, u64(k), sha256).digest()
            self._buffer += _hmac_digest(self._seed, _U64(self._block), "sha256")
            self._block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, n: int) -> int:
        """`int(n)`: an unbiased integer in [0, n)."""
        if not 1 <= n <= _TWO_64:
            raise PbemError(f"cannot draw from a range of size {n}")
        limit = _TWO_64 - (_TWO_64 % n)
        while True:
            x = int.from_bytes(self.read(8), "big")
            if x < limit:
                return x % n

    def between(self, lo: int, hi: int) -> int:
        """An integer in [lo, hi]; a d6 is between(1, 6)."""
        if hi < lo:
            raise PbemError(f"empty range {lo}..{hi}")
        return lo + self.below(hi - lo + 1)

    def pick(self, pile: Sequence[T]) -> T:
        return pile[self.below(len(pile))]

    def shuffle(self, pile: Sequence[T]) -> list[T]:
        """Fisher-Yates from the top index down: j = int(i + 1) for i = n-1 ... 1."""
        items = list(pile)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


class RngRecord(
    Record,
    fields=("requesting_seq", "producing_seq", "lo", "hi", "value", "purpose", "secret"),
):
    """One line of the RNG log: which entry asked, which entry produced, range, value, purpose."""

    requesting_seq: int
    producing_seq: int
    lo: int | None
    hi: int | None
    value: int | None
    purpose: str
    secret: str | None  # private draws: the label of the owner's committed secret x

    def __init__(
        self,
        requesting_seq: int,
        producing_seq: int,
        lo: int | None,
        hi: int | None,
        value: int | None,
        purpose: str,
        secret: str | None = None,
    ) -> None:
        fields = self.__dict__
        fields["requesting_seq"] = requesting_seq
        fields["producing_seq"] = producing_seq
        fields["lo"] = lo
        fields["hi"] = hi
        fields["value"] = value
        fields["purpose"] = purpose
        fields["secret"] = secret

    @property
    def private(self) -> bool:
        """A private draw whose secret is still sealed: nobody but its owner knows it."""
        return self.value is None

    def line(self) -> str:
        """The exact save-file line of protocol section 7."""
        if self.lo is None or self.hi is None or self.value is None:
            return f"rng {self.requesting_seq} {self.producing_seq} private {self.purpose}"
        return (
            f"rng {self.requesting_seq} {self.producing_seq} "
            f"{self.lo}..{self.hi} {self.value} {self.purpose}"
        )
