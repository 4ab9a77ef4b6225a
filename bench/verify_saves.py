"""`pbem verify SAVE` as a user runs it, per title: CPU per entry against raw Ed25519.

For each title's demo save in saves/ this runs the real command line, `python -m pbem
verify FILE`, in a fresh process, on the whole save and on a save of its first three
entries (written by `save_text`, as pbem writes saves), and takes the children's CPU
time (user + system) of each. The difference, divided by the entries beyond the third,
is what verifying one more entry costs through the CLI: start-up, imports and the
genesis are paid by both runs and drop out. The baseline, measured in this process
between the runs: a raw Ed25519 verify (cryptography) of the same entries' signatures
over the same SSHSIG signed-data, per entry.

The figure is raw per entry / pbem per entry: the share of the cryptographic floor that
the CLI's verification reaches (1.0 = nothing but Ed25519; issue 29's line is 0.5).
Each run is repeated `--runs` times, alternately, and the least CPU of each kept. A short
save is repeated more (`runs_for`): its per-entry figure divides the same noise of a CPU
time by fewer entries, so it gets as many repeats as make up STEADY_ENTRIES entries (at
most `--runs` x MAX_SCALE); what is measured is the same, only the best-of-N has a larger N.
Run: python bench/verify_saves.py [--runs N] [--titles T ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TITLES = ("barbarossa", "race-to-berlin", "berlin-1945", "race-to-the-sea", "gotterdammerung")
PREFIX = 3  # entries in the short save: the genesis and the first moves
STEADY_ENTRIES = 400  # a save shorter than this is verified more often (`runs_for`)
MAX_SCALE = 3


def runs_for(runs: int, entries: int) -> int:
    """How many runs of each kind a save of `entries` entries gets: `runs`, scaled up for
    a short save so that its best-of-N sees about as many entries as a long one's."""
    scale = min(MAX_SCALE, max(1.0, STEADY_ENTRIES / max(entries - PREFIX, 1)))
    return max(runs, round(runs * scale))


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli_cpu(path: Path, env: dict[str, str]) -> float:
    """CPU seconds of one `python -m pbem verify PATH` (it must say OK)."""
    before = children_cpu()
    done = subprocess.run(
        [sys.executable, "-m", "pbem", "verify", str(path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    spent = children_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"{path}: pbem verify failed: {done.stdout}{done.stderr}")
    return spent


def short_save(path: Path, folder: Path) -> tuple[Path, list[Any]]:
    """A save of the first PREFIX entries of `path`, and all of its entries."""
    from pbem.ledger import fingerprint, replay
    from pbem.transport.savefile import save_text
    from pbem.verify import parse_entries

    entries = parse_entries(path.read_bytes())
    game = replay(entries[:PREFIX])
    roles = entries[0].body["roles"]
    assert isinstance(roles, dict)
    title = str(entries[0].body.get("title") or game.engine.title)
    fingerprints = {role: fingerprint(str(line)) for role, line in roles.items()}
    short = folder / f"{path.stem}-first{PREFIX}.pbem"
    short.write_text(save_text(game, title, fingerprints))
    return short, entries


def raw_seconds_per_entry(entries: list[Any], rounds: int) -> float:
    """Best time of a raw Ed25519 verify of every entry's signature, per entry."""
    from pbem.crypto import sshsig
    from pbem.ledger import _public_key

    roles = entries[0].body["roles"]
    raw = []
    for entry in entries:
        parsed = sshsig._Parsed(entry.signature)  # the bench may look inside the blob
        raw.append(
            (
                _public_key(roles[entry.by]),
                parsed.sig,
                sshsig._signed_data(entry.canonical, sshsig.NAMESPACE),
            )
        )
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for public, signature, data in raw:
            if not public.verify_raw(signature, data):
                raise SystemExit("raw verify failed")
        best = min(best, time.process_time() - started)
    return best / len(raw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--titles", nargs="*", default=list(TITLES))
    args = parser.parse_args()
    import pbem.games  # noqa: F401  (registers the titles)

    print(f"`python -m pbem verify SAVE`, least CPU of {args.runs} runs (more: short saves)")
    print(
        f"{'title':<16} {'entries':>7} {'runs':>5} {'full s':>8} {f'first {PREFIX} s':>10} "
        f"{'ms/entry':>9} {'raw ms':>7} {'raw/pbem':>9}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        env = {**os.environ, "PBEM_CACHE": str(folder / "cache")}
        for title in args.titles:
            save = ROOT / "saves" / f"{title}-demo.pbem"
            short, entries = short_save(save, folder)
            cli_cpu(short, env)  # fills the cache: the figure is a warm user's
            full = prefix = float("inf")
            raw = float("inf")
            runs = runs_for(args.runs, len(entries))
            for _ in range(runs):
                full = min(full, cli_cpu(save, env))
                prefix = min(prefix, cli_cpu(short, env))
                raw = min(raw, raw_seconds_per_entry(entries, 3))
            per_entry = (full - prefix) / (len(entries) - PREFIX)
            print(
                f"{title:<16} {len(entries):>7} {runs:>5} {full:>8.3f} {prefix:>10.3f} "
                f"{per_entry * 1000:>9.3f} {raw * 1000:>7.3f} {raw / per_entry:>9.3f}"
            )
    print("raw/pbem: the share of the Ed25519 floor the CLI's verification reaches (line: 0.5)")


if __name__ == "__main__":
    main()
