"""Where the time of the slowest title goes: a cProfile of verifying its demo save as
`pbem verify SAVE` does (`verify_path`: the save streamed into a lean adjudicator, each
entry applied as it is read), of `verify_text` (`--text`: the whole log in memory, dice
rolled ahead), or of bot self-play, grouped into the parts the benchmarks name.

The groups are cumulative times of single functions, so they overlap where one calls
another (the state copy is inside the rules' apply); each is given as a share of the
whole. The profile's clock is the wall clock; `--cpu` takes this process's CPU time
instead (on a machine shared by many, wall time charges other processes' turns to
whatever function was running; but a CPU clock costs a system call per event, which
weighs on the functions that make many calls). (The two what-ifs this script used to
time, berlin-1945's static tables shared between states and parsed data files kept
between games, are both in the code now.)
Run: python bench/hotspots.py [--title berlin-1945] [--runs 5] [--text] [--cpu] [--selfplay]
     [--top 0]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pbem.games  # noqa: E402,F401
from pbem.core.engine import get_engine  # noqa: E402
from pbem.ledger import cold_engine_by_name  # noqa: E402
from pbem.verify import verify_path, verify_text  # noqa: E402

# (label, file suffix or None for builtins, function name part)
GROUPS = (
    ("the whole verification", "pbem/verify.py", "verify_text"),
    ("the whole verification (streamed)", "pbem/verify.py", "verify_path"),
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


def profile(action: Callable[[], object], runs: int, top: int, cpu: bool = False) -> None:
    action()  # warm: imports, first data files
    profiler = cProfile.Profile(time.process_time) if cpu else cProfile.Profile()
    profiler.enable()
    for _ in range(runs):
        action()
    profiler.disable()
    stats = pstats.Stats(profiler)
    whole = max(cumulative(stats, *group[1:]) for group in GROUPS[:3])
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
    parser.add_argument("--text", action="store_true", help="verify_text, not the CLI's stream")
    parser.add_argument("--cpu", action="store_true", help="a CPU-time profile, not wall")
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
        profile(play, args.runs, args.top, args.cpu)
        return
    save = ROOT / "saves" / f"{args.title}-demo.pbem"
    text = save.read_bytes()
    entries = text.count(b"-----BEGIN PBEM ENTRY-----")
    how = "verify_text" if args.text else "verify_path, as `pbem verify SAVE`"
    print(f"cProfile of {args.runs} verifications of {save.name} ({entries} entries, {how})\n")
    if args.text:
        profile(lambda: verify_text(text), args.runs, args.top, args.cpu)
    else:
        profile(lambda: verify_path(save, {}, cold_engine_by_name), args.runs, args.top, args.cpu)


if __name__ == "__main__":
    main()
