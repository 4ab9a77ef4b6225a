"""`pbem show GAME` on each demo's final position, cold, as a ratio to `python -c pass`.

For each title it plays the demo (`python -m pbem demo TITLE --dir DIR`, once, in a
temporary folder) and times `python -m pbem show GAME` in the first side's store, each
run a fresh process, its CPU (user + system, the child's own rusage):

* first: the game's replay snapshot and its kept text (pbem.render.show_memo) absent
  (removed before the run; pbem's other caches warm), so the command replays the game
  and keeps both;
* snapshot: the snapshot is there, the kept text not (removed): what a show costs when
  its text may not be kept (a store holding a sealed secret) or its code changed;
* second: both are there, as the first run kept them (a game whose store holds a sealed
  secret keeps no text: its second is its snapshot);
* `python -c pass`, the yardstick; with `--baseline PYTHON` (another checkout's venv,
  e.g. /work/main/.venv/bin/python) the same `show` run by that pbem too, from a snapshot
  of its own (the one kept by this checkout names other code files: not used by it).

Rounds are interleaved (first, snapshot, second, pass, baseline, again) and the median of
`--runs` kept; every run's output must be byte for byte the first one's (and the
baseline's), else the script says so. The issue's line: x10 of `python -c pass`.
Run: python bench/show.py [--runs N] [--titles T ...] [--baseline PYTHON]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TITLES = ("barbarossa", "race-to-berlin", "berlin-1945", "race-to-the-sea", "gotterdammerung")


def cpu_run(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, bytes]:
    """(user + system seconds of the child, its standard output)."""
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _pid, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        output = out.read()
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({child.returncode}):\n{output.decode()}")
    return usage.ru_utime + usage.ru_stime, output


def demo_store(title: str, where: Path) -> tuple[Path, str]:
    """The first side's store of a finished demo of `title`, and its game's id."""
    folder = where / title
    subprocess.run(
        [sys.executable, "-m", "pbem", "demo", title, "--dir", str(folder)],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    home = sorted(p for p in folder.iterdir() if p.name.endswith("-home"))[0]
    with sqlite3.connect(home / "store.db") as db:
        (game_id,) = db.execute("SELECT id FROM games").fetchone()
    return home, str(game_id)


def forget_kept_texts(home: Path) -> None:
    """Remove the texts `pbem show` kept (pbem.render.show_memo) in the store's cache."""
    for kept in (home / "cache").glob("show-*"):
        kept.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--titles", nargs="+", default=list(TITLES))
    parser.add_argument("--baseline", help="another pbem's python (its own checkout)")
    args = parser.parse_args()
    unset = ("PBEM_CACHE", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    print(f"pbem show GAME, CPU as a multiple of `python -c pass` (median of {args.runs})")
    head = f"{'title':18} {'entries':>7} {'first':>7} {'snapshot':>8} {'second':>7}"
    if args.baseline:
        head += f" {'baseline':>8} {'second/baseline':>15}"
    print(head)
    with tempfile.TemporaryDirectory() as tmp:
        for title in args.titles:
            home, game_id = demo_store(title, Path(tmp))
            run_env = {**env, "PBEM_HOME": str(home)}
            show = ["-m", "pbem", "show", game_id[:12]]
            snapshot = home / "cache" / f"replay-{game_id}"
            cpu_run([sys.executable, *show], run_env, ROOT)  # warm pbem's other caches
            times: dict[str, list[float]] = {
                "first": [],
                "snapshot": [],
                "second": [],
                "pass": [],
                "base": [],
            }
            outputs: set[bytes] = set()
            for _ in range(args.runs):
                snapshot.unlink(missing_ok=True)
                forget_kept_texts(home)
                seconds, out = cpu_run([sys.executable, *show], run_env, ROOT)
                times["first"].append(seconds)
                outputs.add(out)
                forget_kept_texts(home)
                seconds, out = cpu_run([sys.executable, *show], run_env, ROOT)
                times["snapshot"].append(seconds)
                outputs.add(out)
                seconds, out = cpu_run([sys.executable, *show], run_env, ROOT)
                times["second"].append(seconds)
                outputs.add(out)
                times["pass"].append(cpu_run([sys.executable, "-c", "pass"], env, ROOT)[0])
                if args.baseline:
                    # Its own snapshot first: the one this checkout kept names other code
                    # files, so the baseline would replay the game (its `first`) and keep its
                    # own; the run timed is the one that starts from it (its `second`).
                    base_root = Path(args.baseline).resolve().parents[2]
                    cpu_run([args.baseline, *show], run_env, base_root)
                    seconds, out = cpu_run([args.baseline, *show], run_env, base_root)
                    times["base"].append(seconds)
                    outputs.add(out)
            with sqlite3.connect(home / "store.db") as db:
                (count,) = db.execute("SELECT count(*) FROM entries").fetchone()
            floor = statistics.median(times["pass"])
            first = statistics.median(times["first"]) / floor
            kept = statistics.median(times["snapshot"]) / floor
            second = statistics.median(times["second"]) / floor
            line = f"{title:18} {count:>7} {first:>7.1f} {kept:>8.1f} {second:>7.1f}"
            if args.baseline:
                base = statistics.median(times["base"]) / floor
                line += f" {base:>8.1f} {second / base:>15.2f}"
            if len(outputs) != 1:
                line += "  OUTPUTS DIFFER"
            print(line, flush=True)
    print("(the line: x10)")


if __name__ == "__main__":
    main()
