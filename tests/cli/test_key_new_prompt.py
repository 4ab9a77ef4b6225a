"""`pbem key new` at a terminal offers a passphrase (issue 27, item 10).

Run on a real pseudo-terminal: `python -m pbem key new` with the pty as its standard
streams and controlling terminal, a person typing the answers. The passphrase is asked
twice and never echoed; an empty one (twice) keeps the key unencrypted, as a run that is
not at a terminal does, without asking.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.crypto.keys import PassphraseNeeded, load_private_key

# The child makes the pty its controlling terminal (getpass reads /dev/tty), then is pbem.
AT_A_TERMINAL = (
    "import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "os.execv(sys.executable, [sys.executable, '-m', 'pbem', *sys.argv[1:]])"
)
NOTE = "without one, anyone who copies it (a backup of the store folder) can sign as you"


def _read_until(fd: int, marker: bytes, seen: bytearray, start: int, timeout: float = 30) -> None:
    """Read into `seen` until `marker` shows after offset `start` (a prompt was shown)."""
    deadline = time.monotonic() + timeout
    while marker not in seen[start:]:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise AssertionError(f"no {marker!r} from pbem; it wrote {bytes(seen)!r}")
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the program closed the terminal
            chunk = b""
        if not chunk:
            raise AssertionError(f"pbem ended before {marker!r}; it wrote {bytes(seen)!r}")
        seen += chunk


def key_new_at_a_terminal(home: Path, typed: list[str], *extra: str) -> tuple[int, bytes]:
    """Run `pbem key new me` on a pty, typing each of `typed` at a prompt; (exit code,
    everything the terminal showed)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PBEM_PASSPHRASE", "SSH_AUTH_SOCK")}
    primary, secondary = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-c", AT_A_TERMINAL, "--home", str(home), "key", "new", "me", *extra],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        start_new_session=True,
        env=env,
    )
    os.close(secondary)
    seen = bytearray()
    try:
        for answer in typed:
            _read_until(primary, b": ", seen, len(seen))
            os.write(primary, answer.encode() + b"\n")
        while True:  # the rest, until the program closes the terminal
            if not select.select([primary], [], [], 30)[0]:
                break
            try:
                chunk = os.read(primary, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        return process.wait(timeout=30), bytes(seen)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(primary)


def test_key_new_at_a_terminal_asks_a_passphrase_twice_and_encrypts_the_key(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    code, shown = key_new_at_a_terminal(home, ["tr0ub4dor&3", "tr0ub4dor&3"])
    assert code == 0, shown
    assert NOTE.encode() in shown
    assert b"passphrase for key me" in shown and b"Repeat for confirmation" in shown
    assert b"tr0ub4dor" not in shown  # never echoed
    data = (home / "keys" / "me").read_bytes()
    with pytest.raises(PassphraseNeeded):
        load_private_key(data)
    assert load_private_key(data, b"tr0ub4dor&3").comment == "me"


def test_an_empty_passphrase_at_a_terminal_keeps_the_key_unencrypted(tmp_path: Path) -> None:
    home = tmp_path / "home"
    code, shown = key_new_at_a_terminal(home, ["", ""])
    assert code == 0, shown
    assert NOTE.encode() in shown
    assert load_private_key((home / "keys" / "me").read_bytes()).comment == "me"


def test_key_new_not_at_a_terminal_asks_nothing(tmp_path: Path) -> None:
    """A script (no terminal) keeps what it always had: no prompt, no passphrase unless
    --passphrase (from PBEM_PASSPHRASE); --no-passphrase never asks anywhere."""
    home = tmp_path / "home"
    result = CliRunner().invoke(main, ["--home", str(home), "key", "new", "me"], input="x\nx\n")
    assert result.exit_code == 0 and "passphrase" not in result.output
    assert load_private_key((home / "keys" / "me").read_bytes()).comment == "me"
    code, shown = key_new_at_a_terminal(tmp_path / "other", [], "--no-passphrase")
    assert code == 0 and b"passphrase" not in shown
    assert load_private_key((tmp_path / "other" / "keys" / "me").read_bytes()).comment == "me"
