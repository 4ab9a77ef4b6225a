"""Peak memory of `pbem.verify.verify_path` (a streamed save) against the log's length.

Builds toy-dice logs of 10k, 25k, 50k and 100k entries (tests/support's Table, as
bench/verify.py does; chain length = entries), writes each as a save to a temporary
file, and verifies each in a fresh subprocess, which reports its peak resident memory
(VmHWM of /proc/self/status, else resource.getrusage ru_maxrss) and the peak of
memory traced by tracemalloc. Prints the
memory per entry and the ratio 100k / 10k: a verifier that keeps every entry grows
about tenfold, the streaming one only by its 32-byte-per-entry index.

Run: python bench/verify_memory.py [--entries 10000 25000 50000 100000] [--in-memory]
(`--in-memory` also measures verify_text on the whole text, for comparison.)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = """
import json, resource, sys, time, tracemalloc
sys.path.insert(0, {root!r})
import tests.support.toy  # registers toy-dice
from pbem.verify import verify_path, verify_text
path, mode, rounds, trace = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
data = {{"toy.toml": f"rounds = {{rounds}}\\n".encode()}}
if trace:
    tracemalloc.start()
started = time.perf_counter()
if mode == "stream":
    report = verify_path(path, data)
else:
    with open(path, "rb") as f:
        report = verify_text(f.read(), data)
seconds = time.perf_counter() - started
peak = tracemalloc.get_traced_memory()[1] if trace else 0
if not report.ok:
    raise SystemExit(report.failure)
lean = report.game is not None and report.game.lean
# VmHWM: the peak resident set of this process image. ru_maxrss would do, but Linux keeps
# it across fork and exec, so a child would report its parent's peak.
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
with open("/proc/self/status") as status:
    for line in status:
        if line.startswith("VmHWM:"):
            rss = int(line.split()[1]) * 1024
print(json.dumps({{"peak": peak, "rss": rss, "seconds": seconds, "lean": lean}}))
"""


def build(count: int, directory: Path) -> Path:
    from bench.verify import build_log

    save, _entries = build_log(count)
    path = directory / f"toy-{count}.pbem"
    path.write_text(save, encoding="utf-8")
    return path


def run(path: Path, mode: str, rounds: int, trace: bool) -> dict[str, float]:
    code = CHILD.format(root=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code, str(path), mode, str(rounds), "1" if trace else "0"],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout)
    return result


def measure(path: Path, mode: str, rounds: int) -> dict[str, float]:
    """Max RSS and speed from a plain run, peak traced memory from a tracemalloc run."""
    plain = run(path, mode, rounds, trace=False)
    plain["peak"] = run(path, mode, rounds, trace=True)["peak"]
    return plain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, nargs="+", default=[10_000, 25_000, 50_000, 100_000])
    parser.add_argument("--in-memory", action="store_true", help="also measure verify_text")
    args = parser.parse_args()
    modes = ["stream", "memory"] if args.in_memory else ["stream"]
    results: dict[tuple[str, int], dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count in args.entries:
            started = time.perf_counter()
            path = build(count, Path(tmp))
            size = path.stat().st_size
            took = time.perf_counter() - started
            print(f"built {count:,} entries ({size / 1e6:.1f} MB) in {took:.1f} s")
            for mode in modes:
                result = measure(path, mode, count)
                results[(mode, count)] = result
                print(
                    f"  {mode:6}  traced peak {result['peak'] / 1e6:8.2f} MB "
                    f"({result['peak'] / count:7.1f} B/entry)  "
                    f"max RSS {result['rss'] / 1e6:8.1f} MB  "
                    f"{count / result['seconds']:7,.0f} entries/s"
                    + ("" if mode != "stream" or result["lean"] else "  (NOT streamed)")
                )
            path.unlink()
    low, high = min(args.entries), max(args.entries)
    for mode in modes:
        a, b = results[(mode, low)], results[(mode, high)]
        print(
            f"{mode}: {high:,} / {low:,} entries: traced peak x{b['peak'] / a['peak']:.2f}, "
            f"max RSS x{b['rss'] / a['rss']:.2f} (entries x{high / low:.0f}); "
            f"extra traced bytes per extra entry: {(b['peak'] - a['peak']) / (high - low):.1f}"
        )


if __name__ == "__main__":
    main()
