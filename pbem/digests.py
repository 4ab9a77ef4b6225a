"""SHA-256 and SHA-512 as hashlib gives them, without loading OpenSSL for a short job.

`import hashlib` loads OpenSSL's libcrypto and lists every digest it provides: about a
twentieth of a genesis's `pbem verify`, which hashes a few kilobytes. The interpreter's
own implementations (the modules hashlib falls back to) give the same digests at no load
cost, but hash long inputs about five times slower. So `sha256` and `sha512` here are the
built-in ones until the process has hashed BUILTIN_BYTES with them, and OpenSSL's (hashlib's)
from then on: `digests.sha256` and `digests.sha512` are then hashlib's own functions, so a
long job pays nothing per call. A Python without the built-in modules uses hashlib from
the start. Call them as `digests.sha256(data)` (an attribute read at each call), so that
the switch reaches every caller. tests/core/test_digests.py checks the two give the same
digests.
"""

from __future__ import annotations

# (mypy reads the block below; Python never runs it)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from hashlib import _Hash
    from types import ModuleType

# What a process hashes with the built-in implementations before it loads OpenSSL: past
# this, OpenSSL's load (about 3 ms) costs less than the built-in's slower hashing would.
# (A genesis of every shipped title, its data files included, stays below.)
BUILTIN_BYTES = 192 * 1024

_builtin_sha256: Callable[..., _Hash] | None
_builtin_sha512: Callable[..., _Hash] | None
try:
    from _sha256 import sha256 as _builtin_sha256  # type: ignore[no-redef]
    from _sha512 import sha512 as _builtin_sha512  # type: ignore[no-redef]
except ImportError:
    try:  # (Python 3.12 and later)
        from _sha2 import sha256 as _builtin_sha256  # type: ignore[no-redef]
        from _sha2 import sha512 as _builtin_sha512  # type: ignore[no-redef]
    except ImportError:
        _builtin_sha256 = _builtin_sha512 = None

_left = BUILTIN_BYTES if _builtin_sha256 is not None and _builtin_sha512 is not None else 0


def sha256(data: bytes = b"") -> _Hash:
    """hashlib.sha256(data)."""
    global _left
    if _left > 0 and _builtin_sha256 is not None:
        _left -= len(data)
        return _builtin_sha256(data)
    return _openssl().sha256(data)


def sha512(data: bytes = b"") -> _Hash:
    """hashlib.sha512(data)."""
    global _left
    if _left > 0 and _builtin_sha512 is not None:
        _left -= len(data)
        return _builtin_sha512(data)
    return _openssl().sha512(data)


def _openssl() -> ModuleType:
    """hashlib, its functions made this module's own from now on."""
    global sha256, sha512, _left
    import hashlib  # (only once there is much to hash)

    _left = 0
    sha256, sha512 = hashlib.sha256, hashlib.sha512  # type: ignore[assignment]
    return hashlib


def use_openssl() -> None:
    """hashlib's functions from now on: for a job that has loaded OpenSSL anyway (a
    streamed save's running digest of RNG records), whose every hash then costs less."""
    _openssl()
