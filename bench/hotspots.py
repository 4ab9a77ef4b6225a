"""Where the time of the slowest title goes: a cProfile of `verify_text` or of bot self-play,
grouped into the parts the benchmarks name.

The groups are cumulative times of single functions, so they overlap where one calls
another (the state copy is inside the rules' apply); each is given as a share of the
whole. (The two what-ifs this script used to time, berlin-1945's static tables shared
between states and parsed data files kept between games, are both in the code now.)
Run: python bench/hotspots.py [--title berlin-1945] [--runs 5] [--selfplay] [--top 0]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pbem.games  # noqa: E402,F401
from pbem.core.engine import get_engine  # noqa: E402
from pbem.verify import verify_text  # noqa: E402

# (label, file suffix or None for builtins, function name part)
GROUPS = (
    ("the whole verification", "pbem/verify.py", "verify_text"),
    ("the whole game, played", "pbem/testing.py", "play"),
    ("bots choosing (pbem.bots.choose)", "pbem/bots.py", "choose"),
    ("entries parsed (Entry.from_wire)", "pbem/core/log.py", "from_wire"),
    ("genesis: data files parsed, setup", "pbem/core/adjudicator.py", "start"),
    ("SSHSIG checks (ledger.check_signature)", "pbem/ledger.py", "check_signature"),
    ("  of which Ed25519 verify (the floor)", None, "Ed25519PublicKey"),
    ("SSHSIG signing (sshsig.sign)", "pbem/crypto/sshsig.py", "sign"),
    ("rules: engine apply (the kit's shared apply)", "pbem/kit/steps.py", "apply"),
    ("rules: engine apply (a game's own)", "/rules.py", "apply"),
    ("state copies (the kit's or a game's clone)", "pbem/kit/steps.py", "clone"),
    ("state copies (a game's own clone)", "/rules.py", "clone"),
    ("state copies (canonical.copy_json)", "pbem/core/canonical.py", "copy_json"),
    ("RNG log compared (check_rng_log)", "pbem/transport/savefile.py", "check_rng_log"),
)


def cumulative(stats: pstats.Stats, suffix: str | None, name: str) -> float:
    total = 0.0
    table: dict[tuple[str, int, str], Any] = stats.stats  # type: ignore[attr-defined]
    for (filename, _line, function), (_cc, _nc, _tt, ct, _callers) in table.items():
        if suffix is None:
            if filename == "~" and name in function:
                total += ct
        elif filename.endswith(suffix) and function == name:
            total += ct
    return total


def profile(action: Callable[[], object], runs: int, top: int) -> None:
    action()  # warm: imports, first data files
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(runs):
        action()
    profiler.disable()
    stats = pstats.Stats(profiler)
    whole = max(cumulative(stats, *GROUPS[0][1:]), cumulative(stats, *GROUPS[1][1:]))
    print(f"{'part':<46}{'seconds':>9}{'share':>8}")
    for label, suffix, name in GROUPS:
        seconds = cumulative(stats, suffix, name)
        if seconds:
            print(f"{label:<46}{seconds:>9.3f}{seconds / whole:>8.1%}")
    if top:
        print()
        stats.sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", default="berlin-1945")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--selfplay", action="store_true", help="profile bot self-play")
    parser.add_argument("--top", type=int, default=0, help="also the N top functions")
    args = parser.parse_args()

    if args.selfplay:
        from pbem.testing import SignedTable as Table

        seeds = iter(range(1_000_000))

        def play() -> None:
            seed = next(seeds)
            table = Table(args.title, get_engine(args.title).roles, nonce=f"{seed}")
            table.join_all()
            table.play(random.Random(seed))

        print(f"cProfile of {args.runs} bot games of {args.title}\n")
        profile(play, args.runs, args.top)
        return
    save = ROOT / "saves" / f"{args.title}-demo.pbem"
    text = save.read_bytes()
    entries = text.count(b"-----BEGIN PBEM ENTRY-----")
    print(f"cProfile of {args.runs} verifications of {save.name} ({entries} entries)\n")
    profile(lambda: verify_text(text), args.runs, args.top)


if __name__ == "__main__":
    main()
