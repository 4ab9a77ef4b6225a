"""CLI cold start: `pbem --help` and `pbem verify <genesis move file>` of every title, CPU
time against `python -c pass` in the same run, with pbem's cache warm, empty and off.

The move file holds one entry: the genesis of a shipped demo save (the first file a
player receives), so `pbem verify` checks exactly one SSHSIG signature, plus the genesis
itself (its rules, data files and roles). Each figure is the CPU time (user + system) of
the whole child process, the operating system's own count; the commands run in turn,
round after round (pass, then every command), and each ratio is the median over the
rounds of the command's CPU over that round's `python -c pass`: pairing keeps the
ratio meaningful when a shared machine's speed drifts. Issue 29's targets: verify <= 5,
--help <= 3, in every cache state.

Cache states (pbem.cache): "warm" is the user's cache filled by an earlier run; "empty"
is a new, empty cache folder for every run (what a user's first command finds); "off" is
PBEM_CACHE set empty (no cache at all). Python runs with its bytecode cache (in a
temporary PYTHONPYCACHEPREFIX, so the tree gets no __pycache__), as an installed pbem
does; `--no-pyc` keeps the environment as it is. `--against TREE` runs another checkout's
pbem (e.g. /work/main) in the same rounds, beside this one's, for a before/after. Also
checks that `--help` imported neither jinja2 nor sqlite-utils, and prints `ssh-keygen -Y
verify` of the same signature (the floor for a one-signature check by a separate process).
Run: python bench/startup.py [--runs N] [--titles barbarossa,...] [--against TREE] [--no-pyc]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TITLES = ("barbarossa", "race-to-berlin", "berlin-1945", "race-to-the-sea", "gotterdammerung")
STATES = ("warm", "empty", "off")


PHASES = """
import sys, time, json
started = time.process_time()
import pbem.cli
cli = time.process_time()
import pbem.crypto.sshsig
from pbem.ledger import cold_engine_by_name
from pbem.verify import verify_path
imported = time.process_time()
assert verify_path(sys.argv[1], {}, cold_engine_by_name).ok  # what `pbem verify FILE` does
first = time.process_time()
print(json.dumps([cli - started, imported - cli, first - imported]))
"""


class Runner:
    """Runs commands as child processes and counts each one's CPU seconds."""

    def __init__(self, env: dict[str, str], scratch: str) -> None:
        self.env = env
        self.scratch = scratch
        self.fresh = 0

    def cpu(
        self,
        command: list[str],
        env: dict[str, str],
        stdin: bytes | None = None,
        cwd: Path | None = None,
    ) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        # (cwd: `python -m` puts it first on the module path, before PYTHONPATH)
        subprocess.run(command, check=True, capture_output=True, input=stdin, env=env, cwd=cwd)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    def env_for(self, tree: Path, state: str) -> dict[str, str]:
        env = dict(self.env)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), self.env.get("PYTHONPATH")]))
        if state == "warm":
            env["PBEM_CACHE"] = os.path.join(self.scratch, f"cache-{abs(hash(str(tree)))}")
        elif state == "empty":
            self.fresh += 1
            env["PBEM_CACHE"] = os.path.join(self.scratch, f"empty-{self.fresh}")
        else:
            env["PBEM_CACHE"] = ""
        return env


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
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--titles", default=",".join(TITLES), help="comma-separated")
    parser.add_argument("--against", type=Path, help="another checkout, run in the same rounds")
    parser.add_argument("--no-pyc", action="store_true", help="no bytecode cache set up")
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory()
    env = dict(os.environ)
    if not args.no_pyc:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(scratch.name, "pyc")
    env.pop("COLUMNS", None)
    runner = Runner(env, scratch.name)
    titles = [t for t in args.titles.split(",") if t]
    trees = {"this": ROOT} if args.against is None else {"this": ROOT, "other": args.against}
    pbem = [sys.executable, "-m", "pbem"]

    folder = Path(scratch.name) / "files"
    folder.mkdir()
    files = {title: genesis_files(title, folder) for title in titles}
    # (what, tree, state) -> command
    commands: dict[tuple[str, str, str], list[str]] = {}
    for tree in trees:
        for state in STATES:
            commands[("--help", tree, state)] = [*pbem, "--help"]
            for title in titles:
                commands[(title, tree, state)] = [*pbem, "verify", str(files[title][0])]
    ssh_keygen = shutil.which("ssh-keygen")

    def run(key: tuple[str, str, str]) -> float:
        what, tree, state = key
        return runner.cpu(commands[key], runner.env_for(trees[tree], state), cwd=trees[tree])

    for key in commands:  # warm-up: bytecode compiled, warm caches filled
        run(key)
        run(key)
    baseline: list[float] = []
    ratios: dict[tuple[str, str, str], list[float]] = {key: [] for key in commands}
    cpu: dict[tuple[str, str, str], list[float]] = {key: [] for key in commands}
    ssh: dict[str, list[float]] = {title: [] for title in titles}
    for _ in range(args.runs):
        base = runner.cpu([sys.executable, "-c", "pass"], env)
        baseline.append(base)
        for key in commands:
            seconds = run(key)
            cpu[key].append(seconds)
            ratios[key].append(seconds / base)
        if ssh_keygen is not None:
            for title in titles:
                _moves, ssh_args, message = files[title]
                ssh[title].append(runner.cpu([ssh_keygen, *ssh_args], env, stdin=message))

    pyc = "no bytecode cache (environment as is)" if args.no_pyc else "bytecode cached"
    print(f"CPU (user+system) of each process, median of {args.runs} rounds; {pyc}")
    print(f"python -c pass: {statistics.median(baseline) * 1000:.1f} ms CPU\n")
    header = f"{'command':<34}" + "".join(f"{state:>16}" for state in STATES)
    for tree, where in trees.items():
        print(f"{where}: CPU ms and x python -c pass (median ratio of pairs)")
        print(header)
        for what in ("--help", *titles):
            name = "pbem --help" if what == "--help" else f"pbem verify {what} genesis"
            line = f"{name:<34}"
            for state in STATES:
                key = (what, tree, state)
                ms = statistics.median(cpu[key]) * 1000
                line += f"{ms:>8.1f} x{statistics.median(ratios[key]):>5.2f}"
            print(line)
        print()
    if ssh_keygen is not None:
        print(
            "ssh-keygen -Y verify of the same signature, CPU ms: "
            + ", ".join(f"{title} {statistics.median(ssh[title]) * 1000:.1f}" for title in titles)
        )
    if "other" in trees:
        print(f"\nthis tree over {args.against} (median of the rounds' ratios):")
        for what in ("--help", *titles):
            line = f"{what:<34}"
            for state in STATES:
                pairs = zip(cpu[(what, "this", state)], cpu[(what, "other", state)], strict=True)
                line += f"{statistics.median(a / b for a, b in pairs):>16.2f}"
            print(line)
    print(
        "\nwhere a warm `pbem verify` start goes, CPU inside the process (median; "
        "before it, the interpreter's own start: python -c pass)"
    )
    print(f"{'':<20}{'import cli':>12}{'import verify':>15}{'verify':>10}")
    for title in titles:
        samples = []
        for _ in range(args.runs):
            done = subprocess.run(
                [sys.executable, "-c", PHASES, str(files[title][0])],
                check=True,
                capture_output=True,
                text=True,
                env=runner.env_for(ROOT, "warm"),
                cwd=ROOT,
            )
            samples.append(json.loads(done.stdout))
        columns = zip(*samples, strict=True)
        cli, imported, first = (statistics.median(column) * 1000 for column in columns)
        print(f"{title:<20}{cli:>10.1f}ms{imported:>13.1f}ms{first:>8.1f}ms")
    modules = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pbem", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env=runner.env_for(ROOT, "off"),
        cwd=ROOT,
    ).stderr
    heavy = [name for name in ("jinja2", "sqlite_utils") if f" {name}\n" in modules]
    print(f"\nheavy imports of --help: {', '.join(heavy) or 'none'}")
    scratch.cleanup()


if __name__ == "__main__":
    main()
