"""Stateless entropy (docs/protocol-notes.md, "Stateless entropy: an evaluation"): the cost
per entry of a unique, verifiable value over the entry each answer answers, against a raw
Ed25519 verify in the same run.

Today an answer's randomness is the next element of its signer's hash chain (protocol
section 4), which the signer must never use twice: a rollback of its records can make it
do so (issue 27, item 6). A verifiable random function gives instead one value per
(key, entry answered), that anyone can check and that nobody, the key's holder included,
can choose: signing twice over the same entry gives the same value, so a rollback costs
nothing. Measured here, per entry, on the canonical bytes of real toy entries:

* ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381, suite 0x03): prove, and verify, written on
  libsodium's edwards25519 arithmetic as PyNaCl exposes it (`nacl.bindings`), checked
  first against the RFC's test vector (Appendix B, example 16);
* BLS12-381 signatures (chia_rs `AugSchemeMPL`, over supranational's blst), which are
  unique for a key and message: sign, and verify;
* the baseline: one raw Ed25519 verify (cryptography), what a verifier already pays for
  every entry's signature.

Each is timed `--rounds` times (best kept) over `--entries` entries; it prints the rate of
each and its cost in raw Ed25519 verifies. A library that is not installed is said, with
how to install it (into a scratch environment: pbem itself depends on neither).
Run: python bench/stateless_entropy.py [--entries N] [--rounds N]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.core.log import Entry  # noqa: E402
from tests.support.players import Table  # noqa: E402

# --- ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381 section 5, suite 0x03) on libsodium ---------------

SUITE = b"\x03"
ORDER = 2**252 + 27742317777372353535851937790883648493  # L, the prime subgroup's order
RFC_SK = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
RFC_PI = (
    "8657106690b5526245a92b003bb079ccd1a92130477671f6fc01ad16f26f723f26f8a57ccaed74ee1b190b"
    "ed1f479d9727d2d0f9b005a6e456a35d4fb0daab1268a1b0db10836d9826a528ca76567805"
)
RFC_BETA = (
    "90cf1df3b703cce59e2a35b925d411164068269d7b2d29f3301c03dd757876ff66b71dda49d2de59d034"
    "50451af026798e8f81cd2e333de5cdf4f3e140fdd8ae"
)


def _scalar(n: int) -> bytes:
    return (n % ORDER).to_bytes(32, "little")


class Ecvrf:
    """RFC 9381 ECVRF-EDWARDS25519-SHA512-TAI: prove, verify (which returns beta)."""

    def __init__(self) -> None:
        from nacl import bindings

        self.nb = bindings

    def keys(self, seed: bytes) -> tuple[int, bytes, bytes]:
        """(secret scalar x, SHA-512 of the seed, public key Y) as RFC 8032 derives them."""
        digest = hashlib.sha512(seed).digest()
        clamped = bytearray(digest[:32])
        clamped[0] &= 248
        clamped[31] = (clamped[31] & 127) | 64
        x = int.from_bytes(clamped, "little")
        return x, digest, self.nb.crypto_scalarmult_ed25519_base_noclamp(_scalar(x))

    def _hash_to_curve(self, public: bytes, alpha: bytes) -> bytes:
        """encode_to_curve_try_and_increment, the cofactor cleared."""
        for counter in range(256):
            data = SUITE + b"\x01" + public + alpha + bytes([counter]) + b"\x00"
            candidate = hashlib.sha512(data).digest()[:32]
            try:
                return self.nb.crypto_scalarmult_ed25519_noclamp(_scalar(8), candidate)
            except Exception:  # not a point (or of small order): the next counter
                continue
        raise ValueError("no curve point in 256 tries")

    @staticmethod
    def _challenge(*points: bytes) -> bytes:
        return hashlib.sha512(SUITE + b"\x02" + b"".join(points) + b"\x00").digest()[:16]

    def prove(self, seed: bytes, alpha: bytes) -> bytes:
        nb = self.nb
        x, digest, public = self.keys(seed)
        h = self._hash_to_curve(public, alpha)
        gamma = nb.crypto_scalarmult_ed25519_noclamp(_scalar(x), h)
        k = int.from_bytes(hashlib.sha512(digest[32:] + h).digest(), "little") % ORDER
        u = nb.crypto_scalarmult_ed25519_base_noclamp(_scalar(k))
        v = nb.crypto_scalarmult_ed25519_noclamp(_scalar(k), h)
        c = self._challenge(public, h, gamma, u, v)
        return gamma + c + _scalar(k + int.from_bytes(c, "little") * x)

    def verify(self, public: bytes, alpha: bytes, pi: bytes) -> bytes:
        nb = self.nb
        gamma, c, s = pi[:32], pi[32:48], pi[48:]
        if int.from_bytes(s, "little") >= ORDER:
            raise ValueError("s is not reduced")
        h = self._hash_to_curve(public, alpha)
        cy = nb.crypto_scalarmult_ed25519_noclamp(c + bytes(16), public)
        u = nb.crypto_core_ed25519_sub(nb.crypto_scalarmult_ed25519_base_noclamp(s), cy)
        cg = nb.crypto_scalarmult_ed25519_noclamp(c + bytes(16), gamma)
        v = nb.crypto_core_ed25519_sub(nb.crypto_scalarmult_ed25519_noclamp(s, h), cg)
        if self._challenge(public, h, gamma, u, v) != c:
            raise ValueError("the proof does not verify")
        cleared = nb.crypto_scalarmult_ed25519_noclamp(_scalar(8), gamma)
        return hashlib.sha512(SUITE + b"\x03" + cleared + b"\x00").digest()

    def check_rfc_vector(self) -> None:
        seed = bytes.fromhex(RFC_SK)
        pi = self.prove(seed, b"")
        beta = self.verify(self.keys(seed)[2], b"", pi)
        if (pi.hex(), beta.hex()) != (RFC_PI, RFC_BETA):
            raise SystemExit("ECVRF: this implementation does not give RFC 9381's vector")


# --- timing ------------------------------------------------------------------------------------


def entries(count: int) -> list[bytes]:
    """Canonical bytes of `count` signed toy-dice entries: what an answer would answer."""
    table = Table("toy-dice", ("a", "b"), data={"toy.toml": f"rounds = {count}\n".encode()})
    table.join_all()
    found: list[Entry] = []
    while len(found) < count:
        found.append(table.move(table.game.prompts()[0].role, "roll"))
    return [e.canonical for e in found]


def best(rounds: int, work: Callable[[], None]) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    messages = entries(args.entries)
    n = len(messages)

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    public = key.public_key()
    signed = [(key.sign(m), m) for m in messages]

    def ed25519() -> None:
        for signature, message in signed:
            public.verify(signature, message)

    base = best(args.rounds, ed25519) / n
    print(f"raw Ed25519 verify: {1 / base:,.0f} entries/s ({base * 1e6:.0f} us an entry)")

    # name -> (seconds for n proofs, seconds for n verifications)
    measured: list[tuple[str, float, float]] = []
    try:
        vrf = Ecvrf()
    except ImportError:
        print("ECVRF: PyNaCl is not installed (pip install pynacl, in a scratch venv)")
    else:
        vrf.check_rfc_vector()
        seed = bytes(range(32))
        vrf_public = vrf.keys(seed)[2]
        proofs = [vrf.prove(seed, m) for m in messages]

        def ecvrf_prove() -> None:
            for message in messages:
                vrf.prove(seed, message)

        def ecvrf_verify() -> None:
            for message, pi in zip(messages, proofs, strict=True):
                vrf.verify(vrf_public, message, pi)

        name = "ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381, on libsodium)"
        measured.append((name, best(args.rounds, ecvrf_prove), best(args.rounds, ecvrf_verify)))
    try:
        from chia_rs import AugSchemeMPL
    except ImportError:
        print("BLS: chia_rs is not installed (pip install chia-rs, in a scratch venv)")
    else:
        secret = AugSchemeMPL.key_gen(bytes(range(32)))
        bls_public = secret.get_g1()
        signatures = [AugSchemeMPL.sign(secret, m) for m in messages]

        def bls_sign() -> None:
            for message in messages:
                AugSchemeMPL.sign(secret, message)

        def bls_verify() -> None:
            for message, signature in zip(messages, signatures, strict=True):
                if not AugSchemeMPL.verify(bls_public, message, signature):
                    raise SystemExit("BLS: a signature did not verify")

        name = "BLS12-381 unique signature (chia_rs, on blst)"
        measured.append((name, best(args.rounds, bls_sign), best(args.rounds, bls_verify)))
    for name, proving, verifying in measured:
        prove, check = proving / n, verifying / n
        print(
            f"{name}: prove {prove * 1e3:.2f} ms, verify {check * 1e3:.2f} ms an entry "
            f"({1 / check:,.0f} entries/s) = {prove / base:.1f} and {check / base:.1f} raw "
            "Ed25519 verifies"
        )


if __name__ == "__main__":
    main()
