"""SSHSIG signatures, checked both ways against the real `ssh-keygen -Y`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from pbem.crypto import sshsig
from pbem.crypto.keys import PrivateKey, generate, load_private_key, write_private_key
from pbem.crypto.wire import Reader, string, u32
from pbem.errors import SignatureError

needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="no ssh-keygen")

MESSAGE = b'{"by":"west","kind":"move","seq":17,"v":1}'


@pytest.fixture(scope="module")
def alice() -> PrivateKey:
    return generate("alice@example")


def refused(public_key: PrivateKey, message: bytes, blob: bytes, **kw: str) -> str:
    with pytest.raises(SignatureError) as exc:
        sshsig.verify(public_key.public, message, blob, **kw)
    text = str(exc.value)
    assert text and "\n" not in text
    return text


def test_round_trip(alice: PrivateKey) -> None:
    blob = sshsig.sign(alice, MESSAGE)
    sshsig.verify(alice.public, MESSAGE, blob)
    assert sshsig.signer(blob) == alice.public
    assert blob.startswith(b"SSHSIG\x00\x00\x00\x01")


def test_signature_is_deterministic(alice: PrivateKey) -> None:
    assert sshsig.sign(alice, MESSAGE) == sshsig.sign(alice, MESSAGE)


def test_tampered_message(alice: PrivateKey) -> None:
    blob = sshsig.sign(alice, MESSAGE)
    assert "bad signature" in refused(alice, MESSAGE + b" ", blob)


def test_tampered_signature(alice: PrivateKey) -> None:
    blob = bytearray(sshsig.sign(alice, MESSAGE))
    blob[-1] ^= 1
    assert "bad signature" in refused(alice, MESSAGE, bytes(blob))


def test_wrong_namespace(alice: PrivateKey) -> None:
    blob = sshsig.sign(alice, MESSAGE, namespace="file")
    assert "namespace" in refused(alice, MESSAGE, blob)
    sshsig.verify(alice.public, MESSAGE, blob, namespace="file")
    blob = sshsig.sign(alice, MESSAGE)
    assert "namespace" in refused(alice, MESSAGE, blob, namespace="git")


def test_wrong_key(alice: PrivateKey) -> None:
    blob = sshsig.sign(generate("mallory"), MESSAGE)
    assert alice.public.fingerprint() in refused(alice, MESSAGE, blob)


def test_key_swapped_inside_blob(alice: PrivateKey) -> None:
    # Mallory's signature relabelled with Alice's key must fail on the signature itself.
    mallory = generate()
    blob = sshsig.sign(mallory, MESSAGE)
    forged = blob.replace(mallory.public.raw, alice.public.raw)
    assert "bad signature" in refused(alice, MESSAGE, forged)


def _blob(alice: PrivateKey, *, hash_alg: str = "sha512", sig_type: str = "ssh-ed25519") -> bytes:
    sig = string(sig_type) + string(b"\0" * 64)
    return (
        b"SSHSIG"
        + u32(1)
        + string(alice.public.blob())
        + string("pbem-entry")
        + string(b"")
        + string(hash_alg)
        + string(sig)
    )


def test_wrong_hash_algorithm(alice: PrivateKey) -> None:
    assert "sha256" in refused(alice, MESSAGE, _blob(alice, hash_alg="sha256"))


def test_wrong_signature_type(alice: PrivateKey) -> None:
    assert "Ed25519" in refused(alice, MESSAGE, _blob(alice, sig_type="ssh-rsa"))


def test_malformed_blobs(alice: PrivateKey) -> None:
    blob = sshsig.sign(alice, MESSAGE)
    for cut in (0, 3, 6, 10, 30, len(blob) // 2, len(blob) - 1):
        assert "malformed" in refused(alice, MESSAGE, blob[:cut])
    assert "trailing" in refused(alice, MESSAGE, blob + b"\0")
    assert "magic" in refused(alice, MESSAGE, b"SSHSIX" + blob[6:])
    assert "version" in refused(alice, MESSAGE, blob[:6] + u32(2) + blob[10:])
    with pytest.raises(SignatureError):
        sshsig.signer(blob[:20])


def _fields(blob: bytes) -> list[bytes]:
    """The six fields after magic and version: key, namespace, reserved, hash, signature."""
    r = Reader(blob[10:])
    return [r.string(str(i)) for i in range(5)] + [r.rest()]


def _join(version: bytes, fields: list[bytes]) -> bytes:
    *strings, rest = fields
    return b"SSHSIG" + version + b"".join(string(f) for f in strings) + rest


def test_only_the_one_encoding_of_a_signature_is_accepted(alice: PrivateKey) -> None:
    # Protocol section 8: every other encoding of a valid signature is refused, however
    # it was made, so that one entry never has two sets of bytes (tests/hardening/
    # test_signature_encoding.py plays the attack).
    blob = sshsig.sign(alice, MESSAGE)
    key, namespace, reserved, hash_alg, inner, rest = _fields(blob)
    assert (reserved, rest) == (b"", b"")
    version = u32(1)
    for extra in (b"x", b"\0", b"\0" * 4, b"SSHSIG"):
        variant = _join(version, [key, namespace, extra, hash_alg, inner, b""])
        assert "reserved" in refused(alice, MESSAGE, variant)
    sig = Reader(inner)
    sig_type, raw = sig.string("type"), sig.string("raw")
    variants = [
        _join(version, [key, namespace, reserved, hash_alg, inner, b"\0"]),  # trailing
        _join(version, [key + b"\0", namespace, reserved, hash_alg, inner, b""]),
        _join(version, [key, namespace, reserved, hash_alg, inner + b"\0", b""]),
        _join(version, [key, namespace, reserved, hash_alg, string(sig_type) + raw, b""]),
        _join(
            version,
            [key, namespace, reserved, hash_alg, string(sig_type) + string(raw + b"\0"), b""],
        ),
        _join(version, [key, namespace + b"\0", reserved, hash_alg, inner, b""]),
        _join(version, [key, namespace, reserved, b"SHA512", inner, b""]),
        _join(u32(0), [key, namespace, reserved, hash_alg, inner, b""]),
    ]
    for variant in variants:
        assert variant != blob
        refused(alice, MESSAGE, variant)
    sshsig.verify(
        alice.public, MESSAGE, _join(version, [key, namespace, reserved, hash_alg, inner, b""])
    )


def test_the_other_ed25519_encoding_of_s_is_refused(alice: PrivateKey) -> None:
    # S + L is the same scalar: the underlying Ed25519 check refuses S >= L (RFC 8032).
    order = 2**252 + 27742317777372353535851937790883648493
    blob = sshsig.sign(alice, MESSAGE)
    s = int.from_bytes(blob[-32:], "little") + order  # (S < L < 2**253: fits in 32 bytes)
    assert "bad signature" in refused(alice, MESSAGE, blob[:-32] + s.to_bytes(32, "little"))


def test_armor_round_trip(alice: PrivateKey) -> None:
    blob = sshsig.sign(alice, MESSAGE)
    text = sshsig.to_armored(blob)
    lines = text.splitlines()
    assert lines[0] == "-----BEGIN SSH SIGNATURE-----"
    assert lines[-1] == "-----END SSH SIGNATURE-----"
    assert all(len(line) <= 70 for line in lines[1:-1])
    assert len(lines[1]) == 70
    assert text.endswith("\n")
    assert sshsig.from_armored(text) == blob
    assert sshsig.from_armored("junk\r\n" + text.replace("\n", "\r\n")) == blob
    with pytest.raises(SignatureError):
        sshsig.from_armored(text.replace("U1NI", "U1N*"))
    with pytest.raises(SignatureError):
        sshsig.from_armored(text.split("-----END")[0])


# --- interoperability with ssh-keygen -Y ------------------------------------------------------


def _allowed_signers(tmp_path: Path, key: PrivateKey) -> Path:
    path = tmp_path / "allowed_signers"
    path.write_text(f"alice {key.public.openssh_line()}\n")
    return path


def _ssh_verify(tmp_path: Path, key: PrivateKey, message: bytes, sig_text: str) -> int:
    (tmp_path / "msg.sig").write_text(sig_text)
    done = subprocess.run(
        ["ssh-keygen", "-Y", "verify", "-f", str(_allowed_signers(tmp_path, key))]
        + ["-I", "alice", "-n", "pbem-entry", "-s", str(tmp_path / "msg.sig")],
        input=message,
        capture_output=True,
        timeout=60,
    )
    return done.returncode


@needs_ssh_keygen
def test_ssh_keygen_verifies_our_signature(tmp_path: Path, alice: PrivateKey) -> None:
    armored = sshsig.to_armored(sshsig.sign(alice, MESSAGE))
    assert _ssh_verify(tmp_path, alice, MESSAGE, armored) == 0
    assert _ssh_verify(tmp_path, alice, MESSAGE + b"x", armored) != 0
    other_ns = sshsig.to_armored(sshsig.sign(alice, MESSAGE, namespace="file"))
    assert _ssh_verify(tmp_path, alice, MESSAGE, other_ns) != 0


@needs_ssh_keygen
@pytest.mark.parametrize("passphrase", [None, "pass"])
def test_we_verify_ssh_keygen_signature(tmp_path: Path, passphrase: str | None) -> None:
    key_path = tmp_path / "key"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase or "", "-C", "alice"]
        + ["-f", str(key_path)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    msg = tmp_path / "msg"
    msg.write_bytes(MESSAGE)
    if passphrase:
        # ssh-keygen -Y sign asks for a passphrase on the terminal only, so sign with an
        # unencrypted copy made by ssh-keygen itself (-p), which keeps the same key.
        subprocess.run(
            ["ssh-keygen", "-p", "-P", passphrase, "-N", "", "-f", str(key_path)],
            check=True,
            capture_output=True,
            timeout=60,
        )
    subprocess.run(
        ["ssh-keygen", "-Y", "sign", "-f", str(key_path), "-n", "pbem-entry", str(msg)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    sig_text = (tmp_path / "msg.sig").read_text()
    key = load_private_key(key_path.read_bytes())
    blob = sshsig.from_armored(sig_text)
    sshsig.verify(key.public, MESSAGE, blob)
    assert sshsig.signer(blob) == key.public
    # Ed25519 is deterministic: our signature and armor are byte for byte the same.
    assert sshsig.to_armored(sshsig.sign(key, MESSAGE)) == sig_text
    with pytest.raises(SignatureError):
        sshsig.verify(key.public, MESSAGE + b"!", blob)


@needs_ssh_keygen
def test_signing_with_written_key_file(tmp_path: Path, alice: PrivateKey) -> None:
    # A key we wrote is usable by ssh-keygen -Y sign, and the result verifies with us.
    key_path = tmp_path / "ours"
    write_private_key(key_path, alice)
    msg = tmp_path / "m"
    msg.write_bytes(MESSAGE)
    subprocess.run(
        ["ssh-keygen", "-Y", "sign", "-f", str(key_path), "-n", "pbem-entry", str(msg)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    sshsig.verify(alice.public, MESSAGE, sshsig.from_armored((tmp_path / "m.sig").read_text()))
