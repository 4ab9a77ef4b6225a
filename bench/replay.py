"""Replay speed and peak memory of a long game per title, against baselines of the same run.

For each title (barbarossa, race-to-berlin, berlin-1945) it takes a long game: the
shipped demo save in saves/ (default), or with `--source bots` the longest of
`--seeds` bot games built in memory and written to a temporary save. Each title is
measured in a fresh subprocess, which prints:

* `verify_text` on the whole save (what `pbem verify` does: armor, canonical JSON,
  SSHSIG, chain, reveals, rules, dice, RNG log), in entries/s;
* `verify_path` on the save file (what `pbem verify FILE` runs: a save in the plain
  layout streams, one entry at a time, its RNG log compared through a digest), in
  entries/s;
* `ledger.replay` of the already parsed entries (signatures, chain, rules, dice; no
  armor, no RNG log), in entries/s;
* baseline 1: raw Ed25519 verifies/s of the same entries' signatures over the same
  SSHSIG signed-data (the cryptographic floor of any verifier);
* baseline 2: `json.loads` of the same entries' canonical bytes, in entries/s;
* peak memory: the subprocess's peak RSS (VmHWM, else ru_maxrss) after the timings,
  and the tracemalloc peak of one more `verify_text` (the Python allocations of a
  verification itself). A subprocess that only imports pbem and reads the save gives
  the floor.

The times are the least CPU time of `--repeat` runs; compare the ratios, not the rates.
Run: python bench/replay.py [--source saves|bots] [--seeds N] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TITLES = ("barbarossa", "race-to-berlin", "berlin-1945", "race-to-the-sea", "gotterdammerung")


def best_seconds(action: Any, repeat: int) -> float:
    """The least CPU time of this process over `repeat` runs of `action`.

    CPU time, not wall time: on a machine shared by several people a run waits for a core
    for as long as others keep it busy, and wall times then scatter by several times
    (ratios from 0.1 to 1.2 for one save in one afternoon), while the CPU a run uses moves
    little. The issue's figures are CPU per entry too."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        action()
        best = min(best, time.process_time() - started)
    return best


def max_rss_mb() -> float:
    """This process's peak resident memory since its exec, in MB.

    VmHWM where /proc exists: ru_maxrss is not reset by exec, so a child forked from a
    bigger parent would report the parent's size.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux


def child(path: Path, repeat: int) -> dict[str, Any]:
    """Measure one save in this (fresh) process; returns the figures."""
    import gc
    import tracemalloc

    from pbem.crypto import sshsig
    from pbem.ledger import _public_key, replay
    from pbem.verify import parse_entries, verify_path, verify_text

    text = path.read_bytes()
    entries = parse_entries(text)
    count = len(entries)
    report = verify_text(text)  # warm: imports, data files, engine tables
    if not report.ok:
        raise SystemExit(f"{path}: verification failed: {report.failure}")
    del report

    verify_s = best_seconds(lambda: verify_text(text), repeat)
    path_s = best_seconds(lambda: verify_path(path), repeat)
    replay_s = best_seconds(lambda: replay(entries), repeat)

    # Baseline 1: the Ed25519 verifications inside those SSHSIGs, nothing else.
    roles = entries[0].body["roles"]
    assert isinstance(roles, dict)
    raw = []
    for entry in entries:
        parsed = sshsig._Parsed(entry.signature)  # the bench may look inside the blob
        public = _public_key(roles[entry.by])
        raw.append((public, parsed.sig, sshsig._signed_data(entry.canonical, sshsig.NAMESPACE)))

    def raw_verify() -> None:
        for public, signature, data in raw:
            if not public.verify_raw(signature, data):
                raise SystemExit("raw verify failed")

    raw_s = best_seconds(raw_verify, repeat)

    # Baseline 2: parsing the same canonical JSON with the standard library.
    canonicals = [entry.canonical for entry in entries]
    json_s = best_seconds(lambda: [json.loads(c) for c in canonicals], repeat)

    rss = max_rss_mb()
    gc.collect()
    tracemalloc.start()
    verify_text(text)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "entries": count,
        "bytes": len(text),
        "verify": count / verify_s,
        "path": count / path_s,
        "replay": count / replay_s,
        "raw": count / raw_s,
        "json": count / json_s,
        "rss_mb": rss,
        "traced_mb": peak / 2**20,
    }


def floor(path: Path) -> dict[str, Any]:
    """The memory floor: pbem, its games and the save text, but no verification."""
    import pbem.games  # noqa: F401
    import pbem.verify  # noqa: F401

    path.read_bytes()
    return {"rss_mb": max_rss_mb()}


def run_child(mode: str, path: Path, repeat: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, f"--{mode}", str(path), "--repeat", str(repeat)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def bot_saves(folder: Path, seeds: int) -> dict[str, Path]:
    """The longest of `seeds` bot games per title, played in memory, saved to `folder`."""
    import random

    import pbem.games  # noqa: F401  (registers the titles)
    from pbem.core.engine import get_engine
    from pbem.testing import SignedTable as Table
    from pbem.transport.savefile import save_text

    paths = {}
    for title in TITLES:
        longest: Table | None = None
        for seed in range(seeds):
            table = Table(title, get_engine(title).roles, nonce=f"bench{seed}")
            table.join_all()
            table.play(random.Random(seed))
            if longest is None or len(table.game.entries) > len(longest.game.entries):
                longest = table
        assert longest is not None
        prints = {r: str(k.public.fingerprint()) for r, k in longest.keys.items()}
        paths[title] = folder / f"{title}-bots.pbem"
        paths[title].write_text(save_text(longest.game, "bench", prints), encoding="utf-8")
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", choices=["saves", "bots"], default="saves")
    parser.add_argument("--seeds", type=int, default=8, help="bot games per title (bots)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs, best kept")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--floor", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.repeat)))
        return
    if args.floor:
        print(json.dumps(floor(args.floor)))
        return

    with tempfile.TemporaryDirectory() as tmp:
        if args.source == "bots":
            paths = bot_saves(Path(tmp), args.seeds)
        else:
            paths = {t: ROOT / "saves" / f"{t}-demo.pbem" for t in TITLES}
        base = run_child("floor", paths[TITLES[0]], 1)["rss_mb"]
        print(f"source: {args.source}; best of {args.repeat}; each title in a fresh process")
        print(f"memory floor (import pbem + games, read a save): {base:.1f} MB max RSS\n")
        header = (
            f"{'title':<15}{'entries':>8}{'verify/s':>10}{'replay/s':>10}{'ed25519/s':>11}"
            f"{'json/s':>10}{'verify/raw':>11}{'path/raw':>9}{'replay/raw':>11}{'RSS MB':>8}"
            f"{'+floor':>7}"
            f"{'traced MB':>10}"
        )
        print(header)
        for title in TITLES:
            r = run_child("child", paths[title], args.repeat)
            print(
                f"{title:<15}{r['entries']:>8}{r['verify']:>10,.0f}{r['replay']:>10,.0f}"
                f"{r['raw']:>11,.0f}{r['json']:>10,.0f}{r['verify'] / r['raw']:>11.3f}"
                f"{r['path'] / r['raw']:>9.3f}"
                f"{r['replay'] / r['raw']:>11.3f}{r['rss_mb']:>8.1f}{r['rss_mb'] - base:>7.1f}"
                f"{r['traced_mb']:>10.2f}"
            )
    print(
        "\nverify/raw: share of the cryptographic floor that a full verification reaches "
        "(1.0 = nothing but Ed25519); verify/raw: verify_text of the text in memory, "
        "path/raw: verify_path of the file, as `pbem verify FILE`. "
        "+floor: RSS above the import floor."
    )


if __name__ == "__main__":
    main()
