"""pbem.lazy: a lazy submodule leaves its packages unrun until they are used, and imports
see the same modules, bound to their packages, as eager imports would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from pbem.crypto import sealcheck

# Nothing of the cipher package has run: only its submodule's lazy placeholder exists.
assert "cryptography.hazmat.primitives.ciphers.base" not in sys.modules
assert "cryptography.hazmat.primitives.ciphers.modes" not in sys.modules

# Used: the submodule runs (and its package, if it reads it); same module for every import.
key, sealed = bytes(32), None
box = sealcheck._aead.ChaCha20Poly1305(key)
sealed = bytes(32) + box.encrypt(sealcheck.NONCE, b"text", b"ctx")
assert sealcheck.open_with_key(key, sealed, b"ctx") == b"text"
import cryptography.hazmat.primitives.ciphers.aead as aead
assert aead is sealcheck._aead
import cryptography.hazmat.primitives.ciphers as ciphers
assert ciphers.aead is aead  # bound to its package, as an import binds it
assert ciphers.Cipher.__name__ == "Cipher"  # the package runs at its first read
from cryptography.hazmat.primitives.ciphers.algorithms import AES  # another submodule
assert AES.name == "AES"
try:
    sealcheck.check_ephemeral(bytes(48))  # the all-zero key: small order
except sealcheck.EscrowError:
    pass
else:
    raise AssertionError("a small-order ephemeral key was accepted")
print("OK")
"""


def test_a_lazy_submodule_leaves_its_package_unrun_until_used() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "OK"


def test_a_missing_module_is_refused_as_an_import_is() -> None:
    from pbem.lazy import lazy_module

    for name in ("pbem.no_such_module", "pbem.errors.not_a_package", "no_such_top_module"):
        try:
            lazy_module(name)
        except ModuleNotFoundError:
            continue
        raise AssertionError(f"{name} was found")
    assert "pbem.no_such_module" not in sys.modules
