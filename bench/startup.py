"""CLI cold start: `pbem --help` and `pbem verify <move file>` against `python -c pass` and
`ssh-keygen -Y verify` on the same signature, all measured in the same run.

The move file holds one entry: the genesis of a shipped demo save (the first file a
player receives), so `pbem verify` checks exactly one SSHSIG signature, plus the
genesis itself (its rules, data files and roles). `ssh-keygen -Y verify` checks that
same signature from an allowed_signers file and the armored .sig made from the entry
(namespace pbem-entry, the message on stdin): the floor for a one-signature check by
a separate process. Prints the median wall time of each over several runs, the ratios,
where a `pbem verify` start spends its time (phases timed inside a fresh process), and
checks that `--help` imported neither jinja2 nor sqlite-utils.

Python runs with its bytecode cache (in a temporary PYTHONPYCACHEPREFIX, so the tree
gets no __pycache__), as an installed pbem does; `--no-pyc` keeps the environment as
it is (with PYTHONDONTWRITEBYTECODE=1 every start compiles pbem from source). In the
same way pbem's own cache (pbem.cache: the help text, engines' facts, parsed data
tables) lives in a temporary PBEM_CACHE, filled by the first run as a user's first
command fills theirs; the "no cache" column is every start without it (PBEM_CACHE
empty), what a first run costs.
Run: python bench/startup.py [--runs N] [--titles barbarossa,berlin-1945,...] [--no-pyc]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TITLES = ("barbarossa", "race-to-berlin", "berlin-1945")


ENV = dict(os.environ)

PHASES = """
import sys, time, json
started = time.perf_counter()
import pbem.cli
cli = time.perf_counter()
import pbem.crypto.sshsig
from pbem.ledger import cold_engine_by_name
from pbem.verify import verify_path
imported = time.perf_counter()
assert verify_path(sys.argv[1], {}, cold_engine_by_name).ok  # what `pbem verify FILE` does
first = time.perf_counter()
assert verify_path(sys.argv[1], {}, cold_engine_by_name).ok
warm = time.perf_counter()
print(json.dumps([cli - started, imported - cli, first - imported, warm - first]))
"""


def median_seconds(
    command: list[str], runs: int, stdin: bytes | None = None, cache: bool = True
) -> float:
    env = ENV if cache else {**ENV, "PBEM_CACHE": ""}
    subprocess.run(command, check=True, capture_output=True, input=stdin, env=env)  # warm
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, input=stdin, env=env)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def phases(moves: Path, runs: int) -> list[float]:
    """Median seconds of: import pbem.cli, import pbem.verify, first verify, warm verify."""
    command = [sys.executable, "-c", PHASES, str(moves)]
    samples = []
    for _ in range(runs):
        done = subprocess.run(command, check=True, capture_output=True, text=True, env=ENV)
        samples.append(json.loads(done.stdout))
    return [statistics.median(column) for column in zip(*samples, strict=True)]


def genesis_files(title: str, folder: Path) -> tuple[Path, list[str], bytes]:
    """From the demo save of `title`: a move file holding its genesis, and the arguments
    and stdin of `ssh-keygen -Y verify` for the genesis signature."""
    from pbem.crypto import sshsig
    from pbem.transport.savefile import move_file
    from pbem.verify import parse_entries

    genesis = parse_entries((ROOT / "saves" / f"{title}-demo.pbem").read_bytes())[0]
    roles = genesis.body["roles"]
    assert isinstance(roles, dict)
    moves = folder / f"{title}-genesis.txt"
    moves.write_text(move_file([genesis]), encoding="utf-8")
    allowed = folder / f"{title}.allowed_signers"
    allowed.write_text(f"{genesis.by} {roles[genesis.by]}\n", encoding="utf-8")
    signature = folder / f"{title}.sig"
    signature.write_text(sshsig.to_armored(genesis.signature), encoding="ascii")
    ssh_args = ["-Y", "verify", "-f", str(allowed), "-I", genesis.by, "-n", sshsig.NAMESPACE]
    return moves, [*ssh_args, "-s", str(signature)], genesis.canonical


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--titles", default=",".join(TITLES), help="comma-separated")
    parser.add_argument("--no-pyc", action="store_true", help="no bytecode cache set up")
    args = parser.parse_args()
    cache = tempfile.TemporaryDirectory()
    if not args.no_pyc:
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        ENV["PYTHONPYCACHEPREFIX"] = cache.name
    ENV["PBEM_CACHE"] = os.path.join(cache.name, "pbem-cache")
    ENV["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), ENV.get("PYTHONPATH")]))
    titles = [t for t in args.titles.split(",") if t]
    pbem = [sys.executable, "-m", "pbem"]

    baseline = median_seconds([sys.executable, "-c", "pass"], args.runs)
    help_time = median_seconds([*pbem, "--help"], args.runs)
    help_uncached = median_seconds([*pbem, "--help"], args.runs, cache=False)
    modules = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pbem", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env=ENV,
    ).stderr
    heavy = [name for name in ("jinja2", "sqlite_utils") if f" {name}\n" in modules]
    pyc = "no bytecode cache (environment as is)" if args.no_pyc else "bytecode cached"
    print(f"median of {args.runs} runs each; {pyc}\n")
    print(f"python -c pass:           {baseline * 1000:7.1f} ms")
    ratio = help_time / baseline
    print(f"pbem --help:              {help_time * 1000:7.1f} ms   x{ratio:.2f} pass")
    ratio = help_uncached / baseline
    print(f"pbem --help, no cache:    {help_uncached * 1000:7.1f} ms   x{ratio:.2f} pass")
    print(f"heavy imports of --help:  {', '.join(heavy) or 'none'}\n")

    ssh_keygen = shutil.which("ssh-keygen")
    if ssh_keygen is None:
        print("ssh-keygen not found: its column is skipped")
    columns = f"{'pbem':>9}{'no cache':>10}{'ssh-keygen':>12}{'x pass':>8}{'x ssh':>8}"
    print(f"{'verify a genesis move file':<28}{columns}")
    breakdown = []
    with tempfile.TemporaryDirectory() as tmp:
        for title in titles:
            moves, ssh_args, message = genesis_files(title, Path(tmp))
            verify_time = median_seconds([*pbem, "verify", str(moves)], args.runs)
            uncached = median_seconds([*pbem, "verify", str(moves)], args.runs, cache=False)
            line = f"{title:<28}{verify_time * 1000:>7.1f}ms{uncached * 1000:>8.1f}ms"
            if ssh_keygen is not None:
                ssh_time = median_seconds([ssh_keygen, *ssh_args], args.runs, stdin=message)
                line += f"{ssh_time * 1000:>10.1f}ms{verify_time / baseline:>8.2f}"
                line += f"{verify_time / ssh_time:>8.1f}"
            else:
                line += f"{'':>12}{verify_time / baseline:>8.2f}"  # (no ssh-keygen)
            print(line)
            breakdown.append((title, phases(moves, args.runs)))
    print(
        "x pass: pbem's time over `python -c pass` (the interpreter's own start); "
        "x ssh: over ssh-keygen -Y verify of the same signature."
    )
    print(
        f"\nwhere a `pbem verify` start goes, inside the process (python -c pass: "
        f"{baseline * 1000:.0f} ms before it)"
    )
    print(f"{'':<16}{'import cli':>11}{'import verify':>14}{'1st verify':>11}{'2nd verify':>11}")
    for title, (cli, imported, first, warm) in breakdown:
        print(
            f"{title:<16}{cli * 1000:>9.1f}ms{imported * 1000:>12.1f}ms"
            f"{first * 1000:>9.1f}ms{warm * 1000:>9.1f}ms"
        )
    cache.cleanup()
    print(
        "import cli: the entry point (without click); import verify: the verifier and "
        "cryptography; 1st verify: the engine's facts and data tables from the cache, the "
        "checks; 2nd verify: the same checks, everything warm."
    )


if __name__ == "__main__":
    main()
