"""What pbem ships prebuilt, so that a first run (an empty cache, or none) need not build it:
the parsed tables of each game's shipped data files, for every version of its rules, what
a view derives from them (DERIVED), and the text of `pbem --help` (pbem/prebuilt/, read by
pbem.cache.prebuilt).

Each entry is made in a process of its own, so that it records as its sources exactly the
files that making it loaded (pbem.cache.sources_of); it is used only while each of them
has the content it had. tests/core/test_prebuilt.py holds the shipped entries equal to
what this would write.

Run: python -m pbem.prebuilt          (writes every entry)
     python -m pbem.prebuilt --check  (exit 1 if any entry shipped differs)
"""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from typing import Any

from pbem import cache

# The program names whose `--help` is shipped: the script's and `python -m pbem`'s.
HELP_NAMES = ("pbem", "python -m pbem")
# The width click wraps help to on any terminal at least 80 columns wide (or none).
HELP_WIDTH = 78


# What a game derives from its shipped data files for its views (pbem.cache.derived), by
# the cache's kind: the module that derives it, whose `PREBUILT_NAME` names the entry and
# whose `made()` gives its (key, value).
DERIVED = {
    "provenance": "pbem.games.race_to_berlin.provenance",
    "labels": "pbem.games.berlin_1945.labels",
}


def help_key(program: str) -> tuple[str, int]:
    return program, HELP_WIDTH


def help_file_name(program: str) -> str:
    return program.replace(" ", "_")


def entries() -> list[tuple[str, ...]]:
    """The arguments of `_make` for every shipped entry."""
    import pbem.games  # noqa: F401  (registers the games)
    from pbem.core.engine import registered, registered_facts

    found: list[tuple[str, ...]] = []
    for name in registered():
        facts = registered_facts(name)
        if facts is not None:
            for version in (facts["version"], *facts["earlier_versions"]):
                found.append(("tables", name, version))
    found.extend((kind,) for kind in DERIVED)
    found.extend(("help", program) for program in HELP_NAMES)
    return found


def _make(kind: str, *args: str) -> tuple[str, Any, tuple[tuple[str, str, str], ...], Any]:
    """(file, key, sources, value) of one entry, made in this process."""
    if kind == "tables":
        # (Only what the tables come from is imported, so that they depend on no more.)
        import pbem.games  # noqa: F401  (registers the games)
        from pbem.core.engine import get_engine
        from pbem.core.tables import data_key

        name, version = args
        engine = get_engine(name).for_version(version)
        files = engine.default_data()
        snapshot = marshal.dumps(engine.load_data(files))
        if marshal.loads(snapshot) != engine.load_data(files):
            raise SystemExit(f"{name} {version}: tables are not plain data")
        path = cache.prebuilt_path("tables", f"{engine.name}-{engine.version}")
        return path, data_key(engine, files), cache.sources_of(["pbem"]), snapshot
    if kind in DERIVED:
        import importlib

        module = importlib.import_module(DERIVED[kind])
        key, value = module.made()
        if marshal.loads(marshal.dumps(value)) != value:
            raise SystemExit(f"{kind}: not plain data")
        path = cache.prebuilt_path(kind, module.PREBUILT_NAME)
        return path, key, cache.sources_of(["pbem"]), value
    if kind == "help":
        import click

        from pbem.cli.app import main as group

        (program,) = args
        os.environ["COLUMNS"] = "80"  # (any width of 80 or more gives this text)
        text = group.get_help(click.Context(group, info_name=program))
        path = cache.prebuilt_path("help", help_file_name(program))
        return path, help_key(program), cache.sources_of(["pbem", "click"]), text
    raise SystemExit(f"unknown kind {kind!r}")


def _made(entry: tuple[str, ...]) -> tuple[str, bytes]:
    """(file, bytes) of one entry, made by a fresh process."""
    done = subprocess.run(
        [sys.executable, "-m", "pbem.prebuilt", "--one", *entry],
        capture_output=True,
        check=True,
        env={**os.environ, "PBEM_CACHE": ""},
    )
    path, _, data = done.stdout.partition(b"\n")
    return path.decode(), data


def same(shipped: bytes, made: bytes) -> bool:
    """Whether two entries hold the same key, sources and value (their marshal bytes may
    differ, with how the values were shared in memory)."""
    (fmt_a, key_a, sources_a, value_a), (fmt_b, key_b, sources_b, value_b) = (
        marshal.loads(shipped),
        marshal.loads(made),
    )
    if isinstance(value_a, bytes) and isinstance(value_b, bytes):
        value_a, value_b = marshal.loads(value_a), marshal.loads(value_b)
    return (fmt_a, key_a, sources_a, value_a) == (fmt_b, key_b, sources_b, value_b)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--one"]:
        path, key, sources, value = _make(*argv[1:])
        out = sys.stdout.buffer
        out.write(path.encode() + b"\n" + cache.prebuild(key, sources, value))
        out.flush()
        return 0
    check = argv[:1] == ["--check"]
    stale = 0
    for entry in entries():
        path, data = _made(entry)
        try:
            with open(path, "rb") as stream:
                shipped = stream.read()
        except OSError:
            shipped = b""
        if shipped and same(shipped, data):
            continue
        stale += 1
        if check:
            print(f"stale: {path}")
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as stream:
                stream.write(data)
            print(f"wrote {path}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
