"""OpenSSH Ed25519 public-key lines, read strictly (protocol section 8: keys are compared as keys).

A key has one line form, up to its comment: `ssh-ed25519`, a space, and the standard
base64 of its blob (string "ssh-ed25519", string of the 32-byte key), padded exactly as
base64 pads it. Python's decoder also takes extra `=` (and would take other spare bits),
so one key could be written as several texts; a line whose base64 does not re-encode
to exactly itself is refused. Whatever compares keys (roles, witnesses, self-witnessing,
a store's own keys) compares the raw 32 bytes read here, never the text of a line.

Plain encoding, no cryptography: the adjudicator (pbem.core) reads the roles' keys with
it, and pbem.crypto.publickey builds its PublicKey on it.
"""

from __future__ import annotations

import base64
import binascii

from pbem.crypto.wire import Reader, WireError
from pbem.errors import KeyError_

KEY_TYPE = "ssh-ed25519"
KEY_BYTES = 32
USAGE = "a public-key line must look like 'ssh-ed25519 AAAA... [comment]'"


def raw_from_blob(blob: bytes) -> bytes:
    """The raw key of an SSH wire-encoded Ed25519 public-key blob, nothing after it."""
    r = Reader(blob)
    try:
        key_type = r.text("key type")
        if key_type != KEY_TYPE:
            raise KeyError_(f"key type {key_type[:40]} is not supported: pbem needs an Ed25519 key")
        raw = r.string("Ed25519 key")
        r.end("public key")
    except WireError as exc:
        raise KeyError_(f"public key is damaged: {exc}") from None
    if len(raw) != KEY_BYTES:
        raise KeyError_(f"an Ed25519 public key must be exactly {KEY_BYTES} bytes")
    return raw


def parse_key_line(line: str) -> tuple[bytes, str]:
    """(raw key, comment) of 'ssh-ed25519 BASE64 [comment]'; KeyError_ for anything else.

    Whitespace around the fields is free (a .pub file, an allowed_signers entry); the
    key type and the base64 are exact."""
    parts = line.strip().split(None, 2)
    if len(parts) < 2:
        raise KeyError_(USAGE)
    if parts[0] != KEY_TYPE:
        raise KeyError_(f"key type {parts[0][:40]} is not supported: pbem needs an Ed25519 key")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except binascii.Error:
        raise KeyError_("public-key line has damaged base64") from None
    raw = raw_from_blob(blob)
    if base64.b64encode(blob).decode("ascii") != parts[1]:
        raise KeyError_(
            "public-key line is not in canonical form: its base64 is not exactly the "
            "encoding of its key (an extra '=' or other padding)"
        )
    comment = parts[2].strip() if len(parts) == 3 else ""
    return raw, comment


def key_bytes(line: str) -> bytes:
    """The raw 32-byte key of a canonical public-key line (what keys are compared by)."""
    return parse_key_line(line)[0]
