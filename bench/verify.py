"""Verification throughput: entries verified per second vs raw Ed25519 verifications per second.

Builds a long two-role log (default 10,000 entries) of the toy dice game from
tests/support, signs it, writes it as a save, then times, in the same run:

* `pbem.verify.verify_text` on the save (armor, canonical JSON, SSHSIG, chain,
  reveals, rules, every roll, the RNG log comparison), and
* `pbem.verify.verify_path` on the same save written to a file: the streamed path that
  `pbem verify FILE` runs (one entry at a time, the RNG log compared through a digest),
* raw Ed25519 `verify` of the same number of 64-byte signatures over the same
  canonical bytes (cryptography, no SSHSIG wrapping).

Each is timed `--rounds` times (default 3), alternately, and the least CPU time of each is
kept (CPU of this process, not wall time: on a shared machine a run waits for a core as
long as others keep it busy, which scatters wall times by several times).
It prints the three rates and each path's ratio to raw; the machine's noise cancels in the ratio.
Run: python bench/verify.py [--entries N] [--rounds N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.core import chain  # noqa: E402
from pbem.core.log import Entry  # noqa: E402
from pbem.transport.savefile import save_text  # noqa: E402
from pbem.verify import verify_path, verify_text  # noqa: E402
from tests.support.players import Table  # noqa: E402


def build_table(count: int) -> Table:
    """A toy-dice game of `count` entries between roles a and b, built and signed in memory."""
    data = {"toy.toml": f"rounds = {count}\n".encode()}  # still running at the end
    table = Table("toy-dice", ("a", "b"), length=max(count, chain.MIN_LENGTH), data=data)
    table.join_all()
    while len(table.game.entries) < count:
        table.move(table.game.prompts()[0].role, "roll")
    return table


def build_log(count: int) -> tuple[str, list[Entry]]:
    """A toy-dice game of `count` entries as a save, and its entries."""
    table = build_table(count)
    prints = {role: str(key.public.fingerprint()) for role, key in table.keys.items()}
    return save_text(table.game, "bench", prints), table.game.entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    started = time.perf_counter()
    save, entries = build_log(args.entries)
    print(f"built a {len(entries)}-entry log in {time.perf_counter() - started:.1f} s")

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    raw_key = Ed25519PrivateKey.generate()
    raw_public = raw_key.public_key()
    raw = [(raw_key.sign(e.canonical), e.canonical) for e in entries]

    # Keep data files out of the timing: the save names the toy data by digest.
    data = {"toy.toml": f"rounds = {args.entries}\n".encode()}
    raw_seconds = text_seconds = path_seconds = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "toy.pbem"
        path.write_text(save, encoding="utf-8")
        for _ in range(args.rounds):
            started = time.process_time()
            for signature, message in raw:
                raw_public.verify(signature, message)
            raw_seconds = min(raw_seconds, time.process_time() - started)

            started = time.process_time()
            report = verify_text(save, data)
            text_seconds = min(text_seconds, time.process_time() - started)
            if not report.ok:
                raise SystemExit(f"verification failed: {report.failure}")
            del report  # (the replayed game: not kept alive into the next round)

            started = time.process_time()
            report = verify_path(path, data)
            path_seconds = min(path_seconds, time.process_time() - started)
            if not report.ok:
                raise SystemExit(f"verification failed: {report.failure}")
            if report.game is None or not report.game.lean:
                raise SystemExit("verify_path did not stream the save")
            del report

    raw_rate = len(raw) / raw_seconds
    text_rate = len(entries) / text_seconds
    path_rate = len(entries) / path_seconds
    print(f"best of {args.rounds} rounds each, alternately")
    print(f"raw Ed25519 verify:          {raw_rate:10,.0f} signatures/s")
    print(f"pbem verify_text (in memory):{text_rate:10,.0f} entries/s")
    print(f"pbem verify_path (streamed): {path_rate:10,.0f} entries/s")
    print(f"ratio verify_text / raw:     {text_rate / raw_rate:10.3f}")
    print(f"ratio verify_path / raw:     {path_rate / raw_rate:10.3f}")


if __name__ == "__main__":
    main()
