"""Ed25519 keys in OpenSSH formats, checked against the real ssh-keygen where it exists."""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.crypto.keys import (
    PassphraseNeeded,
    PrivateKey,
    PublicKey,
    generate,
    load_private_key,
    write_private_key,
)
from pbem.errors import KeyError_, PbemError

needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="no ssh-keygen")


def ssh_keygen(*args: str, stdin: bytes | None = None) -> str:
    done = subprocess.run(
        ["ssh-keygen", *args], input=stdin, capture_output=True, check=True, timeout=60
    )
    return done.stdout.decode()


def make_ssh_key(tmp_path: Path, name: str, *extra: str) -> Path:
    path = tmp_path / name
    ssh_keygen("-q", "-t", "ed25519", "-f", str(path), *extra)
    return path


def one_line(exc: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(exc.value)
    assert message and "\n" not in message
    return message


# --- generation, files and round trips ---------------------------------------------------


def test_generate_signs_and_verifies() -> None:
    key = generate("alice")
    sig = key.sign_raw(b"data")
    assert len(sig) == 64
    assert key.public.verify_raw(sig, b"data")
    assert not key.public.verify_raw(sig, b"other")
    assert not key.public.verify_raw(b"\0" * 64, b"data")
    assert not generate().public.verify_raw(sig, b"data")


def test_repr_shows_no_secret() -> None:
    key = generate("alice")
    seed = key.to_openssh(None)
    assert "alice" in repr(key)
    assert key.public.fingerprint() in repr(key)
    assert seed.decode() not in repr(key)


def test_write_private_key_mode_and_pub(tmp_path: Path) -> None:
    key = generate("alice@example")
    path = tmp_path / "id_ed25519"
    write_private_key(path, key)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_bytes().startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----\n")
    pub = tmp_path / "id_ed25519.pub"
    assert pub.read_text() == key.public.openssh_line() + "\n"
    assert PublicKey.parse_line(pub.read_text()) == key.public
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp left


def test_write_private_key_refuses_to_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "key"
    write_private_key(path, generate())
    with pytest.raises(KeyError_) as exc:
        write_private_key(path, generate())
    assert "already exists" in one_line(exc)
    other = generate("new")
    write_private_key(path, other, overwrite=True)
    assert load_private_key(path.read_bytes()).public == other.public


@pytest.mark.parametrize("passphrase", [None, b"correct horse"])
def test_round_trip(tmp_path: Path, passphrase: bytes | None) -> None:
    key = generate("bob's key")
    path = tmp_path / "key"
    write_private_key(path, key, passphrase)
    loaded = load_private_key(path.read_bytes(), passphrase)
    assert loaded.public == key.public
    assert loaded.comment == "bob's key"
    assert loaded.public.verify_raw(key.sign_raw(b"x"), b"x")
    assert key.public.verify_raw(loaded.sign_raw(b"x"), b"x")


def test_encrypted_file_really_is_encrypted() -> None:
    key = generate("secret-comment")
    assert b"aes256-ctr" in _body(key.to_openssh(b"pw"))
    assert b"secret-comment" not in _body(key.to_openssh(b"pw"))
    assert b"secret-comment" in _body(key.to_openssh(None))


def _body(pem: bytes) -> bytes:
    import base64

    return base64.b64decode(b"".join(pem.splitlines()[1:-1]))


def test_passphrase_needed() -> None:
    data = generate().to_openssh(b"pw")
    for empty in (None, b""):
        with pytest.raises(PassphraseNeeded) as exc:
            load_private_key(data, empty)
        assert isinstance(exc.value, KeyError_)
        assert "passphrase" in one_line(exc)


def test_wrong_passphrase() -> None:
    data = generate().to_openssh(b"pw")
    with pytest.raises(KeyError_) as exc:
        load_private_key(data, b"wrong")
    assert not isinstance(exc.value, PassphraseNeeded)
    assert "wrong passphrase" in one_line(exc)


def test_passphrase_for_unencrypted_key_is_ignored() -> None:
    key = generate()
    assert load_private_key(key.to_openssh(None), b"pw").public == key.public


def test_damaged_private_key() -> None:
    data = bytearray(generate().to_openssh(None))
    data[60] = ord("!")
    with pytest.raises(KeyError_) as exc:
        load_private_key(bytes(data))
    one_line(exc)
    with pytest.raises(KeyError_) as exc:
        load_private_key(b"hello")
    one_line(exc)
    truncated = generate().to_openssh(None).splitlines()
    with pytest.raises(KeyError_) as exc:
        load_private_key(b"\n".join(truncated[:2] + truncated[-1:]))
    one_line(exc)


def test_pkcs8_pem_keys() -> None:
    raw = Ed25519PrivateKey.generate()
    plain = raw.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    assert load_private_key(plain).public.raw == raw.public_key().public_bytes_raw()
    locked = raw.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"pw"),
    )
    with pytest.raises(PassphraseNeeded):
        load_private_key(locked)
    with pytest.raises(KeyError_):
        load_private_key(locked, b"nope")
    assert isinstance(load_private_key(locked, b"pw"), PrivateKey)


# --- public keys --------------------------------------------------------------------------


def test_public_key_equality_ignores_comment() -> None:
    key = generate("one")
    other = PublicKey(key.public.raw, "two")
    assert other == key.public
    assert hash(other) == hash(key.public)
    assert other.same_key(key.public)
    assert other != generate("one").public


def test_parse_line_forms() -> None:
    public = generate().public
    b64 = public.openssh_line().split()[1]
    assert PublicKey.parse_line(f"  ssh-ed25519 {b64}  \n").comment == ""
    assert PublicKey.parse_line(f"ssh-ed25519 {b64} ").comment == ""
    parsed = PublicKey.parse_line(f"\tssh-ed25519 {b64}   alice at home \r\n")
    assert parsed == public
    assert parsed.comment == "alice at home"
    assert parsed.openssh_line() == f"ssh-ed25519 {b64} alice at home"
    assert PublicKey(public.raw).openssh_line() == f"ssh-ed25519 {b64}"


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("", "ssh-ed25519"),
        ("ssh-ed25519", "ssh-ed25519"),
        ("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ== me", "ssh-rsa"),
        ("ecdsa-sha2-nistp256 AAAA me", "ecdsa"),
        ("ssh-ed25519 not*base64", "base64"),
        # the label says ed25519 but the blob says rsa
        ("ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQABAAABAQ==", "ssh-rsa"),
        # a 31-byte key
        ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAHwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "32"),
    ],
)
def test_parse_line_refuses(line: str, words: str) -> None:
    with pytest.raises(KeyError_) as exc:
        PublicKey.parse_line(line)
    assert words in one_line(exc)


def test_parse_line_refuses_trailing_bytes_in_blob() -> None:
    import base64

    blob = generate().public.blob() + b"\0"
    with pytest.raises(KeyError_) as exc:
        PublicKey.parse_line("ssh-ed25519 " + base64.b64encode(blob).decode())
    assert "trailing" in one_line(exc)


def test_parse_line_accepts_only_the_canonical_base64() -> None:
    # One key, one text (up to the comment): protocol section 8, keys compared as keys.
    public = generate("me").public
    kind, b64, comment = public.openssh_line().split()
    for other in (b64 + "=", b64 + "==", b64 + "====", b64[:-4] + "=" + b64[-4:]):
        with pytest.raises(KeyError_) as exc:
            PublicKey.parse_line(f"{kind} {other} {comment}")
        assert "base64" in one_line(exc)
    assert PublicKey.parse_line(f"{kind}  {b64}\t{comment}") == public


def test_fingerprint_format() -> None:
    public = generate("me").public
    fp = public.fingerprint()
    assert fp.startswith("SHA256:") and len(fp) == 7 + 43 and "=" not in fp
    assert public.fingerprint_line() == f"256 {fp} me (ED25519)"
    assert PublicKey(public.raw).fingerprint_line() == f"256 {fp} no comment (ED25519)"


def test_errors_are_pbem_errors() -> None:
    assert issubclass(PassphraseNeeded, PbemError)


# --- interoperability with the real ssh-keygen ----------------------------------------------


@needs_ssh_keygen
def test_ssh_keygen_encrypted_key_loads(tmp_path: Path) -> None:
    path = make_ssh_key(tmp_path, "k", "-N", "pass", "-C", "comment")
    with pytest.raises(PassphraseNeeded):
        load_private_key(path.read_bytes())
    with pytest.raises(KeyError_):
        load_private_key(path.read_bytes(), b"wrong")
    key = load_private_key(path.read_bytes(), b"pass")
    assert key.comment == "comment"
    pub_text = (tmp_path / "k.pub").read_text()
    assert key.public == PublicKey.parse_line(pub_text)
    assert key.public.openssh_line() == pub_text.strip()
    assert key.public.fingerprint_line() == ssh_keygen("-l", "-f", f"{path}.pub").strip()


@needs_ssh_keygen
@pytest.mark.parametrize("cipher", ["aes256-cbc", "aes128-ctr", "aes256-gcm@openssh.com"])
def test_ssh_keygen_other_ciphers_load(tmp_path: Path, cipher: str) -> None:
    path = make_ssh_key(tmp_path, "k", "-N", "pass", "-C", "c", "-Z", cipher)
    key = load_private_key(path.read_bytes(), b"pass")
    assert key.public == PublicKey.parse_line((tmp_path / "k.pub").read_text())
    with pytest.raises(KeyError_) as exc:
        load_private_key(path.read_bytes(), b"wrong")
    assert "wrong passphrase" in one_line(exc)


@needs_ssh_keygen
@pytest.mark.parametrize("comment", ["alice@example", "two words", ""])
def test_fingerprint_line_matches_ssh_keygen(tmp_path: Path, comment: str) -> None:
    theirs = make_ssh_key(tmp_path, "theirs", "-N", "", "-C", comment)
    public = PublicKey.parse_line((tmp_path / "theirs.pub").read_text())
    assert public.fingerprint_line() == ssh_keygen("-l", "-f", f"{theirs}.pub").strip()
    loaded = load_private_key(theirs.read_bytes())
    assert loaded.comment == comment and loaded.public == public

    ours = tmp_path / "ours"
    write_private_key(ours, generate(comment))
    mine = PublicKey.parse_line((tmp_path / "ours.pub").read_text())
    assert mine.fingerprint_line() == ssh_keygen("-l", "-f", f"{ours}.pub").strip()


@needs_ssh_keygen
def test_ssh_keygen_reads_our_private_keys_with_comment(tmp_path: Path) -> None:
    key = generate("alice@example")
    plain = tmp_path / "plain"
    write_private_key(plain, key)
    (tmp_path / "plain.pub").unlink()  # make ssh-keygen read the private file itself
    assert ssh_keygen("-l", "-f", str(plain)).strip() == key.public.fingerprint_line()
    assert ssh_keygen("-y", "-f", str(plain)).strip() == key.public.openssh_line()

    locked = tmp_path / "locked"
    write_private_key(locked, key, b"pass phrase")
    out = ssh_keygen("-y", "-P", "pass phrase", "-f", str(locked)).strip()
    assert out == key.public.openssh_line()
    with pytest.raises(subprocess.CalledProcessError):
        ssh_keygen("-y", "-P", "wrong", "-f", str(locked))


@needs_ssh_keygen
def test_non_ed25519_keys_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "ecdsa"
    ssh_keygen("-q", "-t", "ecdsa", "-N", "", "-f", str(path))
    with pytest.raises(KeyError_) as exc:
        load_private_key(path.read_bytes())
    assert "Ed25519" in one_line(exc)
    with pytest.raises(KeyError_) as exc:
        PublicKey.parse_line((tmp_path / "ecdsa.pub").read_text())
    assert "Ed25519" in one_line(exc)
