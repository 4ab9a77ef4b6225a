"""A real OpenSSH ssh-agent for the tests, started by the test and killed after it.

`running_agent()` starts `ssh-agent -D -a SOCKET` (foreground, so the test holds its
process and kills that process alone), and `Agent.add` / `Agent.remove` run the real
`ssh-add` on it. The socket lives in a short private folder: a unix socket's path is
limited to about 100 bytes, which a pytest tmp_path can exceed.
"""

from __future__ import annotations

import os
import shutil
import socket as sockets
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

needs_ssh_agent = pytest.mark.skipif(
    not (shutil.which("ssh-agent") and shutil.which("ssh-add")), reason="no ssh-agent/ssh-add"
)


class Agent:
    def __init__(self, socket: Path) -> None:
        self.socket = socket

    @property
    def env(self) -> dict[str, str]:
        """The environment of a process that uses this agent (and no other)."""
        return {**os.environ, "SSH_AUTH_SOCK": str(self.socket)}

    def add(self, key_file: Path) -> None:
        """`ssh-add KEY_FILE` (a key file without a passphrase)."""
        subprocess.run(["ssh-add", "-q", str(key_file)], env=self.env, check=True, timeout=30)

    def remove(self, public_file: Path) -> None:
        """`ssh-add -d`: the agent forgets the key (given by its .pub file)."""
        subprocess.run(
            ["ssh-add", "-q", "-d", str(public_file)],
            env=self.env,
            check=True,
            timeout=30,
            capture_output=True,
        )


def _listening(path: Path) -> bool:
    with sockets.socket(sockets.AF_UNIX, sockets.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


@contextmanager
def running_agent() -> Iterator[Agent]:
    folder = Path(tempfile.mkdtemp(prefix="pbem-agent-", dir="/tmp"))
    socket = folder / "agent.sock"
    process = subprocess.Popen(
        ["ssh-agent", "-D", "-a", str(socket)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not _listening(socket):  # the socket file exists a moment before it listens
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("ssh-agent did not start")
            time.sleep(0.01)
        yield Agent(socket)
    finally:
        process.kill()
        process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
