"""`pbem verify --jobs 1` against `--jobs N` on an archive of finished games, in one run.

The archive is `--copies` copies (default 8) of each shipped demo save in a temporary
folder (24 files by default). Each command runs as `python -m pbem verify --jobs J
FOLDER` in a fresh process, alternating 1 and N so that the machine's noise falls on
both alike; prints the median wall times, the speedup (time at 1 / time at N) and the
parallel efficiency (speedup / N). N defaults to the number of CPUs (at least 2).

Baseline, in the same run: the speedup the machine itself gives right now, from N
processes each running a fixed pure-Python loop at once against one process running it
alone (other people's work on a shared machine takes cores away from both).
Run: python bench/verify_jobs.py [--copies N] [--runs N] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(folder: Path, jobs: int, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (the command and its workers) and the output."""
    command = [sys.executable, "-m", "pbem", "verify", "--jobs", str(jobs), str(folder)]
    cpu = cpu_of_children()
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"verify --jobs {jobs} failed:\n{done.stdout}{done.stderr}")
    return seconds, cpu_of_children() - cpu, done.stdout


LOOP = "total = 0\nfor i in range(6_000_000):\n    total += i * i\n"


def machine_speedup(jobs: int) -> float:
    """N loops at once in N processes vs one alone: the parallelism available now."""
    command = [sys.executable, "-c", LOOP]
    started = time.perf_counter()
    subprocess.run(command, check=True)
    alone = time.perf_counter() - started
    started = time.perf_counter()
    running = [subprocess.Popen(command) for _ in range(jobs)]
    for process in running:
        process.wait()
    together = time.perf_counter() - started
    return jobs * alone / together


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=8, help="copies of each demo save")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, median kept")
    parser.add_argument("--jobs", type=int, default=max(2, os.cpu_count() or 1))
    args = parser.parse_args()

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    saves = sorted((ROOT / "saves").glob("*.pbem"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "archive"
        folder.mkdir()
        # pbem's cache (parsed data tables) in a folder of this run's, not the user's: the
        # first command fills it, as a user's first command fills theirs.
        env["PBEM_CACHE"] = str(Path(tmp) / "pbem-cache")
        for copy in range(args.copies):
            for save in saves:
                shutil.copy(save, folder / f"{copy:02d}-{save.name}")
        count = len(saves) * args.copies
        entries = sum(s.read_text().count("-----BEGIN PBEM ENTRY-----") for s in saves)
        entries *= args.copies
        times: dict[int, list[float]] = {1: [], args.jobs: []}
        cpus: dict[int, list[float]] = {1: [], args.jobs: []}
        outputs: dict[int, str] = {}
        machine = []
        for _ in range(args.runs):
            for jobs in times:
                seconds, cpu, outputs[jobs] = run(folder, jobs, env)
                times[jobs].append(seconds)
                cpus[jobs].append(cpu)
            machine.append(machine_speedup(args.jobs))
    if outputs[1] != outputs[args.jobs]:
        raise SystemExit("--jobs 1 and --jobs N printed different lines")
    one = statistics.median(times[1])
    many = statistics.median(times[args.jobs])
    print(f"archive: {count} saves, {entries:,} entries; {os.cpu_count()} CPUs")
    print(f"median of {args.runs} runs each, wall time of the whole command\n")
    for jobs, wall in ((1, one), (args.jobs, many)):
        cpu = statistics.median(cpus[jobs])
        print(
            f"verify --jobs {jobs}:   {wall:6.2f} s   {entries / wall:8,.0f} entries/s   "
            f"CPU {cpu:5.2f} s, {cpu / wall:4.2f} cores busy"
        )
    print(f"speedup:           {one / many:6.2f}")
    print(f"efficiency:        {one / many / args.jobs:6.2f}  (speedup / {args.jobs})")
    available = statistics.median(machine)
    print(f"machine speedup:   {available:6.2f}  ({args.jobs} pure-Python loops at once vs one)")
    print(f"verify / machine:  {one / many / available:6.2f}  (1.0: verify scales as the machine)")


if __name__ == "__main__":
    main()
