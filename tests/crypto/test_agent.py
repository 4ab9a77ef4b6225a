"""Signing through ssh-agent (issue 27, item 10; pbem.crypto.agent), with a real ssh-agent.

What the agent signs must be byte for byte what the key file signs: an entry's SSHSIG
(and what `ssh-keygen -Y sign` writes with the same agent), and the vault's root, from
which a role's chain seed, salts and secrets derive. What needs the key's seed (opening
what was sealed to it) cannot work through an agent and says so in one line.
"""

from __future__ import annotations

import hashlib
import hmac
import socketserver
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pbem.crypto import agent, sshsig
from pbem.crypto.escrow import open_sealed, seal
from pbem.crypto.keys import PrivateKey, generate, write_private_key
from pbem.crypto.wire import string, u32
from pbem.errors import KeyError_
from pbem.store.vault import VAULT_DOMAIN, Vault
from tests.crypto.sshagent import needs_ssh_agent, running_agent

pytestmark = needs_ssh_agent


def key_file(tmp_path: Path, comment: str = "me@laptop") -> tuple[Path, PrivateKey]:
    key = generate(comment)
    path = tmp_path / "id_ed25519"
    write_private_key(path, key)
    return path, key


def one_line(exc: pytest.ExceptionInfo[BaseException]) -> str:
    message = str(exc.value)
    assert message and "\n" not in message
    return message


def test_the_agent_signs_the_same_bytes_as_the_key_file_and_as_ssh_keygen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, key = key_file(tmp_path)
    with running_agent() as running:
        running.add(path)
        monkeypatch.setenv("SSH_AUTH_SOCK", str(running.socket))
        held = agent.find(key.public)
        assert held is not None and held.comment == "me@laptop"
        assert [k.raw for k in agent.identities()] == [key.public.raw]
        for data in (b"", b"entry", bytes(range(256)) * 40):
            assert held.sign_raw(data) == key.sign_raw(data)
        message = b'{"game":"g","seq":3}'
        blob = sshsig.sign(held, message)
        assert blob == sshsig.sign(key, message)
        sshsig.verify(key.public, message, blob)
        # ssh-keygen -Y sign, given the public key, signs with the same agent: same file.
        (tmp_path / "entry").write_bytes(message)
        subprocess.run(
            ["ssh-keygen", "-q", "-Y", "sign", "-f", f"{path}.pub", "-n", "pbem-entry"]
            + [str(tmp_path / "entry")],
            env=running.env,
            check=True,
            capture_output=True,
            timeout=30,
        )
        assert (tmp_path / "entry.sig").read_text() == sshsig.to_armored(blob)


def test_the_vault_root_through_the_agent_is_the_key_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, key = key_file(tmp_path)
    game, role = "ab" * 32, "west"
    with running_agent() as running:
        running.add(path)
        monkeypatch.setenv("SSH_AUTH_SOCK", str(running.socket))
        held = agent.find(key.public)
        assert held is not None
        by_agent, by_file = Vault(held, game, role), Vault(key, game, role)
        # The documented derivation (protocol-notes, "No secret in the store alone"): a
        # plain Ed25519 signature of the label, which the agent makes as the file does.
        label = VAULT_DOMAIN + b" root\0" + game.encode() + b"\0" + role.encode()
        root = hashlib.sha256(VAULT_DOMAIN + held.sign_raw(label)).digest()
        seed = hmac.new(root, b"chain-seed\0", hashlib.sha256).digest()
        assert by_agent.chain_seed() == by_file.chain_seed() == seed
        for name in ("commit/1", "hand/west/2"):
            assert by_agent.salt(name) == by_file.salt(name)
            assert by_agent.fresh(name) == by_file.fresh(name)
        assert by_agent.escrow_secret() == by_file.escrow_secret()
        sealed = by_agent.seal("sealed:plan", '{"value": 7}')
        assert by_file.open("sealed:plan", sealed) == '{"value": 7}'


def test_an_agent_without_the_key_or_that_forgot_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, key = key_file(tmp_path)
    with running_agent() as running:
        monkeypatch.setenv("SSH_AUTH_SOCK", str(running.socket))
        assert agent.identities() == [] and agent.find(key.public) is None
        running.add(path)
        held = agent.find(key.public)
        assert held is not None and agent.find(generate().public) is None
        running.remove(Path(f"{path}.pub"))
        with pytest.raises(agent.AgentError) as refused:
            held.sign_raw(b"entry")
        assert "ssh-agent refused to sign with " + key.public.fingerprint() in one_line(refused)


def test_no_agent_is_no_agent_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    public = generate().public
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    assert agent.find(public) is None
    monkeypatch.setenv("SSH_AUTH_SOCK", str(tmp_path / "no-such-socket"))
    assert agent.find(public) is None
    with pytest.raises(agent.AgentError, match="cannot reach ssh-agent"):
        agent.identities()


def test_what_needs_the_seed_says_it_needs_the_key_file() -> None:
    key = generate()
    sealed = seal(key.public, b"the referee's eyes only", b"context")
    assert open_sealed(key, sealed, b"context") == b"the referee's eyes only"
    with pytest.raises(KeyError_) as refused:
        open_sealed(agent.AgentKey(key.public), sealed, b"context")
    assert "needs the private key file: ssh-agent signs but cannot decrypt" in one_line(refused)


@contextmanager
def fake_agent(answer: bytes) -> Iterator[Path]:
    """An agent on a unix socket that answers every request with `answer` (framed)."""

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            length = int.from_bytes(self.request.recv(4), "big")
            while length > 0:
                length -= len(self.request.recv(length))
            self.request.sendall(answer)

    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="pbem-fake-agent-", dir="/tmp"))
    server = socketserver.UnixStreamServer(str(folder / "sock"), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield folder / "sock"
    finally:
        server.shutdown()
        server.server_close()
        (folder / "sock").unlink(missing_ok=True)
        folder.rmdir()


def test_a_lying_agent_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A signature by another key, or an answer too large to be one, is never used."""
    key, other = generate(), generate()
    forged = bytes([agent.SSH_AGENT_SIGN_RESPONSE]) + string(
        string("ssh-ed25519") + string(other.sign_raw(b"entry"))
    )
    with fake_agent(u32(len(forged)) + forged) as socket:
        monkeypatch.setenv("SSH_AUTH_SOCK", str(socket))
        with pytest.raises(agent.AgentError) as refused:
            agent.AgentKey(key.public).sign_raw(b"entry")
        assert "not " + key.public.fingerprint() + "'s" in one_line(refused)
    with fake_agent(u32(2**31)) as socket:
        monkeypatch.setenv("SSH_AUTH_SOCK", str(socket))
        with pytest.raises(agent.AgentError, match="not an answer"):
            agent.AgentKey(key.public).sign_raw(b"entry")
