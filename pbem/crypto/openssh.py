"""The OpenSSH private-key file format ("openssh-key-v1", see PROTOCOL.key in OpenSSH).

We read and write it ourselves instead of using `cryptography`'s serializer because
`cryptography` drops the key comment on both load and save, and the comment is what
`ssh-keygen -l` shows a player to tell their keys apart. Only Ed25519 keys are handled.

A passphrase-protected key needs bcrypt and `cryptography`'s ciphers: a signature check
never imports this module (pbem.crypto.publickey).
"""

from __future__ import annotations

import base64
import binascii
import os

from cryptography.exceptions import InvalidTag

from pbem.crypto.wire import Reader, WireError, string, u32
from pbem.errors import KeyError_
from pbem.record import Record

BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"
END = "-----END OPENSSH PRIVATE KEY-----"
MAGIC = b"openssh-key-v1\x00"
KEY_TYPE = "ssh-ed25519"
# ssh-keygen's defaults (OpenSSH 9): aes256-ctr keyed by bcrypt_pbkdf with 16 rounds.
DEFAULT_CIPHER = "aes256-ctr"
DEFAULT_ROUNDS = 16
_WRAP = 70  # ssh-keygen wraps the base64 body at 70 columns


class _CipherSpec(Record, fields=("key_len", "iv_len", "block", "mode")):
    # A frozen record (pbem.record): a @dataclass costs the compiling of its methods.
    key_len: int
    iv_len: int
    block: int
    mode: str  # "ctr", "cbc" or "gcm"

    def __init__(self, key_len: int, iv_len: int, block: int, mode: str) -> None:
        fields = self.__dict__
        fields["key_len"] = key_len
        fields["iv_len"] = iv_len
        fields["block"] = block
        fields["mode"] = mode


_CIPHERS = {
    "aes128-ctr": _CipherSpec(16, 16, 16, "ctr"),
    "aes192-ctr": _CipherSpec(24, 16, 16, "ctr"),
    "aes256-ctr": _CipherSpec(32, 16, 16, "ctr"),
    "aes128-cbc": _CipherSpec(16, 16, 16, "cbc"),
    "aes192-cbc": _CipherSpec(24, 16, 16, "cbc"),
    "aes256-cbc": _CipherSpec(32, 16, 16, "cbc"),
    "aes128-gcm@openssh.com": _CipherSpec(16, 12, 16, "gcm"),
    "aes256-gcm@openssh.com": _CipherSpec(32, 12, 16, "gcm"),
}
_GCM_TAG = 16


class PassphraseNeeded(KeyError_):
    """The private key is encrypted and no passphrase was given: ask the user for one."""


class Ed25519Secret(Record, fields=("seed", "public", "comment")):
    """What an OpenSSH Ed25519 key file holds: the 32-byte seed, the public key and the comment.

    A frozen record (pbem.record)."""

    seed: bytes
    public: bytes
    comment: str

    def __init__(self, seed: bytes, public: bytes, comment: str) -> None:
        fields = self.__dict__
        fields["seed"] = seed
        fields["public"] = public
        fields["comment"] = comment


def public_blob(public: bytes) -> bytes:
    return string(KEY_TYPE) + string(public)


# bcrypt and the ciphers are imported only for a passphrase-protected key: reading an
# unencrypted one (a `pbem show` of a double-blind game opens its vault) does not load them.
# (Imported in the functions, not with pbem.lazy: cryptography's serialization, imported
# later, imports the same cipher modules, which a lazy module's loading refuses.)


def _bcrypt_kdf(passphrase: bytes, salt: bytes, rounds: int, length: int) -> bytes:
    import bcrypt

    return bcrypt.kdf(passphrase, salt, length, rounds, ignore_few_rounds=True)


def _crypt(spec: _CipherSpec, key: bytes, iv: bytes, data: bytes, encrypt: bool) -> bytes:
    if spec.mode == "gcm":
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        aead = AESGCM(key)
        return aead.encrypt(iv, data, None) if encrypt else aead.decrypt(iv, data, None)
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    mode = modes.CTR(iv) if spec.mode == "ctr" else modes.CBC(iv)
    ctx = Cipher(algorithms.AES(key), mode)
    op = ctx.encryptor() if encrypt else ctx.decryptor()
    return op.update(data) + op.finalize()


def encode(secret: Ed25519Secret, passphrase: bytes | None, rounds: int = DEFAULT_ROUNDS) -> bytes:
    """The PEM text of an OpenSSH private-key file, encrypted when the passphrase is not empty."""
    check = os.urandom(4)  # the repeated check integer is how readers detect a wrong passphrase
    section = (
        check
        + check
        + string(KEY_TYPE)
        + string(secret.public)
        + string(secret.seed + secret.public)
        + string(secret.comment)
    )
    if passphrase:
        spec = _CIPHERS[DEFAULT_CIPHER]
        salt = os.urandom(16)
        cipher, kdf, kdf_options, block = DEFAULT_CIPHER, "bcrypt", string(salt) + u32(rounds), 16
    else:
        cipher, kdf, kdf_options, block = "none", "none", b"", 8
    section += bytes(range(1, 1 + (-len(section)) % block))
    if passphrase:
        material = _bcrypt_kdf(passphrase, salt, rounds, spec.key_len + spec.iv_len)
        section = _crypt(spec, material[: spec.key_len], material[spec.key_len :], section, True)
    body = (
        MAGIC
        + string(cipher)
        + string(kdf)
        + string(kdf_options)
        + u32(1)
        + string(public_blob(secret.public))
        + string(section)
    )
    b64 = base64.b64encode(body).decode("ascii")
    lines = [b64[i : i + _WRAP] for i in range(0, len(b64), _WRAP)]
    return "\n".join([BEGIN, *lines, END, ""]).encode("ascii")


def is_openssh(data: bytes) -> bool:
    return BEGIN.encode() in data


def _unarmor(data: bytes) -> bytes:
    text = data.decode("ascii", errors="replace")
    start = text.find(BEGIN)
    stop = text.find(END, start)
    if start < 0 or stop < 0:
        raise KeyError_("not an OpenSSH private key: missing BEGIN/END lines")
    b64 = "".join(text[start + len(BEGIN) : stop].split())
    try:
        return base64.b64decode(b64, validate=True)
    except binascii.Error:
        raise KeyError_("OpenSSH private key is damaged: bad base64") from None


def decode(data: bytes, passphrase: bytes | None) -> Ed25519Secret:
    """Read an OpenSSH private-key file holding one Ed25519 key.

    Raises PassphraseNeeded when the key is encrypted and no passphrase was given, and
    KeyError_ for a wrong passphrase, another key type or a damaged file.
    """
    try:
        return _decode(_unarmor(data), passphrase)
    except WireError as exc:
        raise KeyError_(f"OpenSSH private key is damaged: {exc}") from None


def public_of(data: bytes) -> bytes:
    """The raw Ed25519 public key in the file's unencrypted header (no passphrase needed)."""
    try:
        _cipher, _kdf, _options, public, r = _header(Reader(_unarmor(data)))
    except WireError as exc:
        raise KeyError_(f"OpenSSH private key is damaged: {exc}") from None
    if len(public) != 32:
        raise KeyError_("private key is damaged: bad Ed25519 key lengths")
    return public


def _header(r: Reader) -> tuple[str, str, bytes, bytes, Reader]:
    """A key file's unencrypted header: cipher, kdf and its options, the one key's public
    key (its Ed25519 bytes), and the reader, at the private section."""
    if r.raw(len(MAGIC), "magic") != MAGIC:
        raise KeyError_("not an OpenSSH private key: bad magic")
    cipher, kdf, kdf_options = r.text("cipher name"), r.text("kdf name"), r.string("kdf options")
    if r.u32("key count") != 1:
        raise KeyError_("OpenSSH private key file must hold exactly one key")
    outer = Reader(r.string("public key"))
    key_type = outer.text("key type")
    if key_type != KEY_TYPE:
        raise KeyError_(f"key type {key_type} is not supported: pbem needs an Ed25519 key")
    return cipher, kdf, kdf_options, outer.string("public key"), r


def _decode(body: bytes, passphrase: bytes | None) -> Ed25519Secret:
    cipher, kdf, kdf_options, outer_public, r = _header(Reader(body))
    section = r.string("private section")
    tail = r.rest()
    if cipher != "none":
        section = _decrypt(cipher, kdf, kdf_options, section, tail, passphrase)
    elif tail:
        raise KeyError_("OpenSSH private key is damaged: trailing bytes")
    secret = _parse_section(section, encrypted=cipher != "none")
    if secret.public != outer_public:
        raise KeyError_("private key is damaged: its two copies of the public key differ")
    return secret


def _decrypt(
    cipher: str, kdf: str, kdf_options: bytes, section: bytes, tail: bytes, passphrase: bytes | None
) -> bytes:
    spec = _CIPHERS.get(cipher)
    if spec is None:
        raise KeyError_(
            f"private key cipher {cipher} is not supported; re-encrypt with ssh-keygen -p"
        )
    if kdf != "bcrypt":
        raise KeyError_(f"private key kdf {kdf} is not supported")
    if not passphrase:
        raise PassphraseNeeded("private key is encrypted: a passphrase is needed")
    opts = Reader(kdf_options)
    salt, rounds = opts.string("bcrypt salt"), opts.u32("bcrypt rounds")
    opts.end("bcrypt options")
    expected_tail = _GCM_TAG if spec.mode == "gcm" else 0
    if len(tail) != expected_tail or len(section) % spec.block:
        raise KeyError_("OpenSSH private key is damaged: bad encrypted length")
    material = _bcrypt_kdf(passphrase, salt, rounds, spec.key_len + spec.iv_len)
    try:
        return _crypt(
            spec, material[: spec.key_len], material[spec.key_len :], section + tail, False
        )
    except InvalidTag:
        raise KeyError_("wrong passphrase for private key") from None


def _parse_section(section: bytes, encrypted: bool) -> Ed25519Secret:
    r = Reader(section)
    if r.u32("check") != r.u32("check"):
        # With a wrong passphrase the decrypted check integers differ (2^-32 false accept).
        raise KeyError_(
            "wrong passphrase for private key" if encrypted else "private key is damaged"
        )
    if r.text("key type") != KEY_TYPE:
        raise KeyError_("private key is damaged: key type differs from the public key")
    public, private = r.string("public key"), r.string("private key")
    comment = r.text("comment")
    padding = r.rest()
    if len(public) != 32 or len(private) != 64 or private[32:] != public:
        raise KeyError_("private key is damaged: bad Ed25519 key lengths")
    if padding != bytes(range(1, 1 + len(padding))):
        raise KeyError_("private key is damaged: bad padding")
    return Ed25519Secret(seed=private[:32], public=public, comment=comment)
