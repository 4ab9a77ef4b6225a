"""OpenSSH SSHSIG signatures (PROTOCOL.sshsig), the signature format of every entry.

Using SSHSIG rather than bare Ed25519 is what lets anyone check an entry without
our tool: `ssh-keygen -Y verify -f allowed_signers -I <id> -n pbem-entry -s entry.sig`.
The namespace keeps a pbem signature from being replayed as, say, a git or file
signature by the same key, and the reverse.

One encoding (protocol section 8): only the blob `sign` writes is accepted, byte for
byte: version 1, the signer's Ed25519 key blob, namespace `pbem-entry`, an empty
`reserved` field, hash `sha512`, and a signature field of exactly `ssh-ed25519` and 64
bytes, with nothing after any field. OpenSSH signs an empty `reserved` whatever the
blob holds (`ssh-keygen -Y verify` ignores the field), so anyone could otherwise rewrap
a signature into a second copy of an entry with other bytes.
"""

from __future__ import annotations

import base64
import binascii

from pbem import digests
from pbem.crypto.publickey import KEY_TYPE, PublicKey, Signer, invalid_signature
from pbem.crypto.wire import Reader, WireError, string, u32
from pbem.errors import KeyError_, SignatureError
from pbem.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

NAMESPACE = "pbem-entry"
HASH_ALG = "sha512"  # the only one we emit or accept (protocol section 2)
MAGIC = b"SSHSIG"
VERSION = 1
BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"
_WRAP = 70  # ssh-keygen -Y sign wraps at 70 columns


def _signed_data(message: bytes, namespace: str) -> bytes:
    # The bytes the Ed25519 signature covers: the message is only present as its hash.
    return (
        MAGIC
        + string(namespace)
        + string(b"")
        + string(HASH_ALG)
        + string(digests.sha512(message).digest())
    )


def sign(key: Signer, message: bytes, namespace: str = NAMESPACE) -> bytes:
    """The binary SSHSIG blob signing `message` (what ssh-keygen base64-encodes in its armor).

    `key` signs the "signed data" blob, as `ssh-keygen -Y sign` has its key or its agent
    do: a key file and ssh-agent (pbem.crypto.agent) give the same bytes (Ed25519 is
    deterministic), so an entry is the same whichever holds the key."""
    signature = string(KEY_TYPE) + string(key.sign_raw(_signed_data(message, namespace)))
    return (
        MAGIC
        + u32(VERSION)
        + string(key.public.blob())
        + string(namespace)
        + string(b"")
        + string(HASH_ALG)
        + string(signature)
    )


class _Parsed:
    """The fields of an SSHSIG blob, checked for shape but not for validity."""

    def __init__(self, blob: bytes) -> None:
        try:
            r = Reader(blob)
            if r.raw(len(MAGIC), "magic") != MAGIC:
                raise SignatureError("not an SSH signature: bad magic")
            version = r.u32("version")
            if version != VERSION:
                raise SignatureError(f"SSH signature version {version} is not supported")
            public_blob = r.string("public key")
            self.namespace = r.text("namespace")
            # Reserved for extensions, and NOT covered by the signature: OpenSSH signs an
            # empty field whatever the blob holds. `verify` accepts only an empty one.
            self.reserved = r.string("reserved")
            self.hash_alg = r.text("hash algorithm")
            sig = Reader(r.string("signature"))
            r.end("signature")
            self.sig_type = sig.text("signature type")
            self.sig = sig.string("signature bytes")
            sig.end("signature bytes")
        except WireError as exc:
            raise SignatureError(f"SSH signature is malformed: {exc}") from None
        try:
            self.public = PublicKey.from_blob(public_blob)
        except KeyError_ as exc:
            raise SignatureError(f"SSH signature key: {exc}") from None


def signer(blob: bytes) -> PublicKey:
    """The public key a signature blob claims to be made by (not yet verified)."""
    return _Parsed(blob).public


def _layout(public: PublicKey, namespace: str) -> tuple[bytes, bytes]:
    """(blob head, signed-data head): every byte of a well-formed signature by `public` in
    `namespace` but the 64 signature bytes, and of its signed data but the message hash."""
    key = (public.raw, namespace)
    found = _LAYOUTS.get(key)
    if found is None:
        head = (
            MAGIC
            + u32(VERSION)
            + string(public.blob())
            + string(namespace)
            + string(b"")
            + string(HASH_ALG)
            + u32(4 + len(KEY_TYPE) + 4 + 64)
            + string(KEY_TYPE)
            + u32(64)
        )
        signed = MAGIC + string(namespace) + string(b"") + string(HASH_ALG) + u32(64)
        if len(_LAYOUTS) >= 256:
            _LAYOUTS.clear()
        found = _LAYOUTS[key] = (head, signed)
    return found


# (raw key, namespace) -> _layout: a game's signatures are by the same few keys.
_LAYOUTS: dict[tuple[bytes, str], tuple[bytes, bytes]] = {}


def checker(public: PublicKey, namespace: str = NAMESPACE) -> Callable[[bytes, bytes], None]:
    """`verify` bound to one key and namespace: `checker(public)(message, blob)` raises
    exactly what `verify(public, message, blob)` raises, and accepts exactly what it accepts.

    A log is thousands of signatures by the same few keys: what `verify` works out per
    call from the key alone (the one blob layout, the signed data's head, the key's
    Ed25519 verifier) is worked out here once. A blob of that layout has only its 64
    signature bytes left to check, as in `verify`'s first path; any other blob goes to
    `verify` itself, which says what is wrong with it."""
    head, signed = _layout(public, namespace)
    size = len(head) + 64
    ed25519_verify = public.ed25519_verify()  # (raises invalid_signature() when it fails)

    def check(message: bytes, blob: bytes) -> None:
        if len(blob) == size and blob.startswith(head):
            try:
                ed25519_verify(blob[-64:], signed + digests.sha512(message).digest())
            except invalid_signature():  # (`verify_raw`'s False, told in line)
                raise SignatureError(
                    f"bad signature by {public.fingerprint()}: data or signature altered"
                ) from None
            return
        verify(public, message, blob, namespace)

    return check


def verify(public: PublicKey, message: bytes, blob: bytes, namespace: str = NAMESPACE) -> None:
    """Check that `blob` is `public`'s SSHSIG of `message` in `namespace`, else SignatureError."""
    # A blob that is byte for byte the one layout `sign` writes for this key and namespace
    # (an empty reserved field, sha512, an Ed25519 signature of 64 bytes) is the only one
    # accepted (one encoding, see the module doc): only the signature itself is left to
    # check. Any other blob is refused, after the parse below has found what to say.
    found = _LAYOUTS.get((public.raw, namespace))  # (`_layout`, its call saved when kept)
    head, signed = _layout(public, namespace) if found is None else found
    if len(blob) == len(head) + 64 and blob.startswith(head):
        if not public.verify_raw(blob[-64:], signed + digests.sha512(message).digest()):
            raise SignatureError(
                f"bad signature by {public.fingerprint()}: data or signature altered"
            )
        return
    parsed = _Parsed(blob)
    if parsed.public != public:
        raise SignatureError(
            f"signed by {parsed.public.fingerprint()}, expected {public.fingerprint()}"
        )
    if parsed.namespace != namespace:
        raise SignatureError(
            f"signature namespace is {parsed.namespace[:40]!r}, expected {namespace!r}"
        )
    if parsed.hash_alg != HASH_ALG:
        raise SignatureError(
            f"signature hash algorithm is {parsed.hash_alg[:20]!r}, expected {HASH_ALG!r}"
        )
    if parsed.sig_type != KEY_TYPE or len(parsed.sig) != 64:
        raise SignatureError("signature is not an Ed25519 signature")
    if parsed.reserved:
        raise SignatureError(
            "SSH signature altered or re-encoded: its reserved field is not empty (no "
            "signature covers that field, so only its one encoding, empty, is accepted)"
        )
    # Every field is as `sign` writes it, so the blob is `head` and 64 bytes, which took the
    # first path above; kept so that no other encoding can ever pass.
    if blob != head + parsed.sig:
        raise SignatureError("SSH signature altered or re-encoded: not its one encoding")
    if not public.verify_raw(parsed.sig, _signed_data(message, namespace)):
        raise SignatureError(f"bad signature by {public.fingerprint()}: data or signature altered")


def to_armored(blob: bytes) -> str:
    """The text `ssh-keygen -Y sign` writes to a .sig file (with a final newline)."""
    b64 = base64.b64encode(blob).decode("ascii")
    lines = [b64[i : i + _WRAP] for i in range(0, len(b64), _WRAP)]
    return "\n".join([BEGIN, *lines, END, ""])


def from_armored(text: str) -> bytes:
    """The binary blob inside an armored SSH signature."""
    start = text.find(BEGIN)
    stop = text.find(END, start + 1)
    if start < 0 or stop < 0:
        raise SignatureError("not an armored SSH signature: missing BEGIN/END lines")
    try:
        return base64.b64decode("".join(text[start + len(BEGIN) : stop].split()), validate=True)
    except binascii.Error:
        raise SignatureError("armored SSH signature has damaged base64") from None
