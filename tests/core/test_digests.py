"""pbem.digests gives hashlib's digests, with the built-in implementations and then with
OpenSSL's; pbem.core.tables.data_digest's memo never gives another content's digest."""

from __future__ import annotations

import hashlib
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from pbem import digests
from pbem.core import tables


@given(st.binary(max_size=4096))
def test_the_same_digests(data: bytes) -> None:
    for ours, theirs in ((digests.sha256, hashlib.sha256), (digests.sha512, hashlib.sha512)):
        made = ours(data)
        assert made.digest() == theirs(data).digest()
        made.update(b"more")
        assert made.hexdigest() == theirs(data + b"more").hexdigest()
    assert digests.sha256().digest() == hashlib.sha256().digest()


SWITCH = """
import sys
from pbem import digests
assert "_hashlib" not in sys.modules
assert digests.sha256 is not None and digests.sha256.__module__ == "pbem.digests"
small = digests.sha256(b"x" * 1000)
assert "_hashlib" not in sys.modules, "hashed little: no OpenSSL"
big = b"y" * digests.BUILTIN_BYTES
first = digests.sha512(big)  # (still built-in: the budget was not spent yet)
assert "_hashlib" not in sys.modules
after = digests.sha256(b"z")
assert "_hashlib" in sys.modules
import hashlib
assert digests.sha256 is hashlib.sha256 and digests.sha512 is hashlib.sha512
assert small.digest() == hashlib.sha256(b"x" * 1000).digest()
assert first.digest() == hashlib.sha512(big).digest()
assert after.digest() == hashlib.sha256(b"z").digest()
"""


def test_openssl_once_much_is_hashed() -> None:
    subprocess.run([sys.executable, "-c", SWITCH], check=True)


def test_without_the_built_in_modules() -> None:
    probe = "import sys\n" + "".join(
        f"sys.modules[{name!r}] = None\n" for name in ("_sha256", "_sha512", "_sha2")
    )
    probe += (
        "from pbem import digests\nimport hashlib\n"
        "assert digests.sha256(b'a').digest() == hashlib.sha256(b'a').digest()\n"
        "assert digests.sha256 is hashlib.sha256\n"
    )
    subprocess.run([sys.executable, "-c", probe], check=True)


def test_a_data_digest_is_of_its_own_content() -> None:
    first = b"a" * 100
    assert tables.data_digest(first) == hashlib.sha256(first).hexdigest()
    assert tables.data_digest(first) == hashlib.sha256(first).hexdigest()  # (memo)
    for n in range(3 * tables._DIGESTS_SIZE):  # new objects, some at a freed one's id
        content = bytes([n % 256]) * (n + 1)
        assert tables.data_digest(content) == hashlib.sha256(content).hexdigest()
        del content
    changing = bytearray(b"abc")
    assert tables.data_digest(bytes(changing)) == hashlib.sha256(b"abc").hexdigest()
    before = tables.data_digest(changing)  # type: ignore[arg-type]
    changing[0] = ord("x")
    assert tables.data_digest(changing) != before  # type: ignore[arg-type]
    assert len(tables._DIGESTS) <= tables._DIGESTS_SIZE
