"""A `pbem show` of a game whose data is in the cache (pbem.cache) imports none of what it
does not use: no TOML parser, no importlib.resources, no dataclasses, no `cryptography`
serialization, no bcrypt, no `secrets` (only a new game's nonce needs it), no `hmac` and no
hashlib's OpenSSL (`_hashlib`: the vault's HMAC is cryptography's, a snapshot is checked by
BLAKE2b) (issue 29: each was a share of a cold `show`)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[2]
NOT_USED = (
    "tomllib",
    "importlib.resources",
    "dataclasses",
    "cryptography.hazmat.primitives.serialization",
    "bcrypt",
    "secrets",
    "hmac",
    "_hashlib",
)
PROBE = f"""
import sys
sys.argv = ["pbem", *sys.argv[1:]]
from pbem.cli import main
try:
    main()
finally:
    print("LONG", "pbem.client" in sys.modules, file=sys.stderr)
    print("LOADED", [n for n in {NOT_USED!r} if n in sys.modules], file=sys.stderr)
"""


def ok(home: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, f"pbem {' '.join(args)} failed: {result.output}"
    return result.stdout + result.stderr


@pytest.mark.parametrize(
    "title, first, second",
    [("race-to-berlin", "soviet", "west"), ("race-to-the-sea", "allies", "germans")],
)
def test_show_loads_only_what_it_uses(tmp_path: Path, title: str, first: str, second: str) -> None:
    home = tmp_path / "home"
    ok(home, "key", "new", "a")
    ok(home, "key", "new", "b")
    made = ok(home, "new", title, "--key", f"{first}=a", "--key", f"{second}=b")
    found = re.search(r"game ([0-9a-f]{64})", made)
    assert found is not None
    env = {
        **os.environ,
        "PBEM_HOME": str(home),
        "PBEM_CACHE": str(tmp_path / "cache"),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    outputs = []
    for _ in range(2):  # the first fills the caches; the second replays from them
        for kept in (tmp_path / "cache").glob("show-*"):
            kept.unlink()  # (no kept text: the whole show, the long way)
        done = subprocess.run(
            [sys.executable, "-c", PROBE, "show", found.group(1)[:12]],
            capture_output=True,
            text=True,
            env=env,
        )
        assert done.returncode == 0, done.stderr
        assert "LONG True" in done.stderr
        outputs.append(done.stdout)
    assert "LOADED []" in done.stderr, done.stderr
    assert outputs[0] == outputs[1]
