"""Shared fixtures: isolated stores and the toy engine."""

from __future__ import annotations

import functools
import importlib
import itertools
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tests.support.bid  # noqa: E402,F401  (registers the toy engines)
import tests.support.peek  # noqa: E402,F401
import tests.support.skeleton  # noqa: E402,F401
import tests.support.toy  # noqa: E402,F401

# --- collection: parse each shipped data file once per process ------------------------------
# Dozens of test modules load a game's shipped map and counters at import (BOARD =
# default_map()), and pytest imports every module to collect it: parsing and checking
# Götterdämmerung's TOML files again in each was a quarter of the suite's collection.
# These loaders are pure (bytes in, plain data out), so one parse per process serves
# every module, each call getting its own copy (a marshal snapshot, as pbem.core.tables
# keeps parsed tables); a failure is never kept, and other bytes are parsed anew.

_PURE_LOADERS = (
    ("pbem.games.gotterdammerung.map_data", "load_map"),
    ("pbem.games.gotterdammerung.counters", "load_counters"),
    ("pbem.games.gotterdammerung.tables", "load_tables"),
    ("pbem.games.race_to_the_sea.map_data", "load_map"),
)


def _parsed_once(loader: Callable[..., Any]) -> Callable[..., Any]:
    kept: dict[bytes, bytes] = {}

    @functools.wraps(loader)
    def load(*args: Any, **kwargs: Any) -> Any:
        try:
            key = marshal.dumps((args, sorted(kwargs.items())))
        except ValueError:
            return loader(*args, **kwargs)
        if key in kept:
            return marshal.loads(kept[key])
        result = loader(*args, **kwargs)
        try:
            snapshot = marshal.dumps(result)
        except ValueError:
            return result
        if marshal.loads(snapshot) == result:
            kept[key] = snapshot
        return result

    return load


def _parse_shipped_data_once() -> None:
    for module_name, name in _PURE_LOADERS:
        module = importlib.import_module(module_name)
        setattr(module, name, _parsed_once(getattr(module, name)))


_parse_shipped_data_once()


# The stores fsync every commit and the signing journal every record (crash safety); on
# a disk under a loaded CI machine the suite spent a fifth of its wall time waiting on
# them. A memory file system makes fsync free without changing the code under test (the
# crash tests kill processes, which the page cache survives either way). A TMPDIR the
# user set is kept.
MEMORY_TEMP = Path("/dev/shm")
MEMORY_TEMP_NEEDS = 2 << 30  # bytes free (the suite writes tens of MB)


def _temporary_files_in_memory() -> None:
    if os.environ.get("TMPDIR") or not MEMORY_TEMP.is_dir():
        return
    try:
        stats = os.statvfs(MEMORY_TEMP)
        if stats.f_bavail * stats.f_frsize < MEMORY_TEMP_NEEDS:
            return
        folder = MEMORY_TEMP / f"pbem-tests-{os.getuid()}"
        folder.mkdir(exist_ok=True)
        if folder.stat().st_uid != os.getuid() or not os.access(folder, os.W_OK):
            return  # (someone else's folder of that name: stay on disk)
        # Others may pass through but not list it: run as root, the IMAP tests' dovecot
        # keeps its mail in a folder of its own user in here (tests/mail/imap_server.py).
        folder.chmod(0o711)
    except OSError:
        return
    os.environ["TMPDIR"] = str(folder)  # inherited by xdist's workers and subprocesses
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again


def pytest_configure(config: pytest.Config) -> None:
    _temporary_files_in_memory()
    _compile_pbem_once(config)


def _compile_pbem_once(config: pytest.Config) -> None:
    """With bytecode caching on, compile pbem once before any test: the tests that SIGKILL
    a `python -m pbem` mid-work time a first run to spread their kills, and a first run
    that also compiles every module would make the later ones finish before the kill.
    Done here, before collection, by the one process that starts the run (xdist's
    controller, or the only process with -n 0): the workers then import compiled modules,
    where each worker compiled what it imported and then, at its first test, the rest of
    pbem (both workers at once, the same files, on a fresh clone)."""
    if hasattr(config, "workerinput") or sys.flags.dont_write_bytecode:
        return  # a worker (its controller compiled), or nothing is cached: all run alike
    import compileall

    compileall.compile_dir(ROOT / "pbem", quiet=1, workers=2)


@pytest.fixture(scope="session")
def _homes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder per test process holding the tests' default homes (made on first use)."""
    return tmp_path_factory.mktemp("homes")


_HOME_NUMBERS = itertools.count()


@pytest.fixture(autouse=True)
def _isolated_home(_homes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test ever touches a real user's store, nor the user's state folder (the signing
    journals: pbem.store.journal), which is kept apart from the store folder. Each test's
    folders are its own, numbered in a folder of the test process (as they were in its
    tmp_path, where asking every test for a tmp_path made some 4,000 folders nothing
    used: a millisecond each, pytest listing the folder of those made before every time);
    like them, each folder is made by whatever first writes there."""
    n = next(_HOME_NUMBERS)
    monkeypatch.setenv("PBEM_HOME", str(_homes / f"{n}-default-home"))
    monkeypatch.setenv("PBEM_STATE", str(_homes / f"{n}-default-state"))
    # (a subprocess given an environment without PBEM_STATE still stays in that folder)
    monkeypatch.setenv("XDG_STATE_HOME", str(_homes / f"{n}-xdg-state"))
    monkeypatch.delenv("PBEM_PASSPHRASE", raising=False)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The tamper matrix's counts (tests/hardening/test_tamper_matrix.py records them)."""
    from collections import Counter

    counts: Counter[str] = Counter()
    seen = failed = 0
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            if getattr(report, "when", None) != "call":
                continue
            for name, value in getattr(report, "user_properties", ()):
                if name == "tamper" and isinstance(value, dict):
                    counts.update(value)
                    seen += 1
                    failed += outcome == "failed"
    if not seen:
        return
    human = sum(n for kind, n in counts.items() if "human text" in kind)
    detected = sum(counts.values()) - human
    verdict = "all detected" if not failed else f"{failed} tamper test(s) FAILED"
    kinds = ", ".join(f"{kind}: {n:,}" for kind, n in sorted(counts.items()))
    terminalreporter.write_line(
        f"tamper matrix: {detected:,} mutations tried, {verdict} "
        f"(and {human:,} changes of human text that still verify); {kinds}"
    )
