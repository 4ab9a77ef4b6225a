"""Signing through ssh-agent, so that no plain private key file is needed (issue 27, item 10).

A small client of the ssh-agent protocol (draft-miller-ssh-agent, what OpenSSH's
`ssh-agent` speaks on the unix socket named by `SSH_AUTH_SOCK`): it lists the agent's
keys (SSH_AGENTC_REQUEST_IDENTITIES) and asks it to sign (SSH_AGENTC_SIGN_REQUEST).
That is all pbem needs, so it is written here on the socket module rather than taken
from a library (docs/dependencies.md).

An agent holds the key and signs whatever its socket is asked to sign; it never gives
the key out, and it has no operation that decrypts. So an `AgentKey` signs exactly as
the key file would (Ed25519 is deterministic, RFC 8032: same bytes), which covers every
entry signature and the vault's roots (pbem.store.vault), but it cannot derive the
X25519 key that opens what was sealed to the key (pbem.crypto.escrow needs the seed):
`AgentKey.seed_needed` says so in one line.

Every signature the agent returns is checked against the public key before it is
used: a wrong or hostile agent cannot make pbem write a bad entry.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from pbem.crypto.publickey import KEY_TYPE, NEEDS_FILE, PublicKey
from pbem.crypto.wire import Reader, WireError, string, u32
from pbem.errors import KeyError_

if TYPE_CHECKING:
    import socket

# Message numbers of the agent protocol.
SSH_AGENT_FAILURE = 5
SSH_AGENTC_REQUEST_IDENTITIES = 11
SSH_AGENT_IDENTITIES_ANSWER = 12
SSH_AGENTC_SIGN_REQUEST = 13
SSH_AGENT_SIGN_RESPONSE = 14

# An answer larger than this is no answer from an agent (OpenSSH's own limit is 256 KiB).
MAX_ANSWER = 256 * 1024
TIMEOUT = 30.0  # seconds: an agent that asks for confirmation (ssh-add -c) waits for a human


class AgentError(KeyError_):
    """The agent could not be reached, refused, or answered something that is not an answer."""


def socket_path() -> str | None:
    """The agent's socket (SSH_AUTH_SOCK), or None when no agent is configured."""
    return os.environ.get("SSH_AUTH_SOCK") or None


def _request(message: bytes) -> bytes:
    """Send one request to the agent; its answer (type byte and contents)."""
    path = socket_path()
    if path is None:
        raise AgentError("no ssh-agent: SSH_AUTH_SOCK is not set")
    import socket  # (here: a show or verify that never asks the agent loads no socket module)

    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(TIMEOUT)
            conn.connect(path)
            conn.sendall(u32(len(message)) + message)
            length = int.from_bytes(_receive(conn, 4), "big")
            if not 0 < length <= MAX_ANSWER:
                raise AgentError(f"ssh-agent at {path} answered {length} bytes: not an answer")
            return _receive(conn, length)
    except OSError as exc:
        raise AgentError(f"cannot reach ssh-agent at {path}: {exc.strerror or exc}") from None


def _receive(conn: socket.socket, count: int) -> bytes:
    chunks, left = [], count
    while left:
        chunk = conn.recv(min(left, 65536))
        if not chunk:
            raise AgentError("ssh-agent closed the connection in the middle of an answer")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def identities() -> list[PublicKey]:
    """The Ed25519 keys the agent holds, each with the agent's comment (other types are
    left out: pbem signs with Ed25519 only)."""
    answer = _request(bytes([SSH_AGENTC_REQUEST_IDENTITIES]))
    if answer[0] != SSH_AGENT_IDENTITIES_ANSWER:
        raise AgentError(f"ssh-agent refused to list its keys (answer {answer[0]})")
    found = []
    try:
        r = Reader(answer[1:])
        for _ in range(r.u32("key count")):
            blob, comment = r.string("key blob"), r.string("comment")
            if Reader(blob).text("key type") != KEY_TYPE:
                continue
            text = comment.decode("utf-8", errors="replace").splitlines()
            found.append(PublicKey.from_blob(blob, text[0] if text else ""))
        r.end("key list")
    except (WireError, KeyError_) as exc:
        raise AgentError(f"ssh-agent's key list is malformed: {exc}") from None
    return found


def find(public: PublicKey) -> AgentKey | None:
    """The agent's copy of `public`, or None: no agent configured, none listening, or it
    does not hold that key. Never raises: callers fall back to the key file."""
    if socket_path() is None:
        return None
    try:
        held = identities()
    except AgentError:
        return None
    for key in held:
        if key.raw == public.raw:
            return AgentKey(PublicKey(public.raw, key.comment))
    return None


class AgentKey:
    """A key that ssh-agent holds: signs like a PrivateKey (same bytes), never decrypts."""

    def __init__(self, public: PublicKey) -> None:
        self.public = public
        self.comment = public.comment

    def __repr__(self) -> str:
        return f"AgentKey({self.public.fingerprint()} {self.comment!r})"

    def sign_raw(self, data: bytes) -> bytes:
        """The plain 64-byte Ed25519 signature of `data`, made by the agent (flags 0: for
        ssh-ed25519 there is nothing to choose) and checked before it is returned."""
        request = (
            bytes([SSH_AGENTC_SIGN_REQUEST]) + string(self.public.blob()) + string(data) + u32(0)
        )
        answer = _request(request)
        if answer[0] == SSH_AGENT_FAILURE:
            raise AgentError(
                f"ssh-agent refused to sign with {self.public.fingerprint()} "
                "(removed from the agent, locked, or the confirmation was refused)"
            )
        if answer[0] != SSH_AGENT_SIGN_RESPONSE:
            raise AgentError(f"ssh-agent answered a signature request with message {answer[0]}")
        try:
            r = Reader(answer[1:])
            inner = Reader(r.string("signature"))
            r.end("signature")
            kind, signature = inner.text("signature type"), inner.string("signature bytes")
            inner.end("signature bytes")
        except WireError as exc:
            raise AgentError(f"ssh-agent's signature is malformed: {exc}") from None
        if kind != KEY_TYPE or not self.public.verify_raw(signature, data):
            raise AgentError(
                f"ssh-agent returned a signature that is not {self.public.fingerprint()}'s "
                "of the data asked: refused"
            )
        return signature

    def seed_needed(self, what: str) -> KeyError_:
        """The one-line error for an operation that needs the key's seed (the X25519 key
        of pbem.crypto.escrow): `what` names it."""
        return KeyError_(f"{what} {NEEDS_FILE}; import the key file of {self.public.fingerprint()}")
