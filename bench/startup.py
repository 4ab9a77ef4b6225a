"""CLI cold start: `pbem --help` against `python -c pass`, measured in the same run.

Prints the median wall time of each over several runs and their ratio, and
checks that `--help` imported neither jinja2 nor sqlite-utils.
Run: python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def median_seconds(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    baseline = median_seconds([sys.executable, "-c", "pass"], args.runs)
    help_time = median_seconds([sys.executable, "-m", "pbem", "--help"], args.runs)
    modules = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pbem", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    heavy = [name for name in ("jinja2", "sqlite_utils") if f" {name}\n" in modules]
    print(f"python -c pass:   {baseline * 1000:7.1f} ms (median of {args.runs})")
    print(f"pbem --help:      {help_time * 1000:7.1f} ms (median of {args.runs})")
    print(f"ratio:            {help_time / baseline:7.2f}")
    print(f"heavy imports:    {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()
