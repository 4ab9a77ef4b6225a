"""Where the time of the slowest title goes: a cProfile of `verify_text` or of bot self-play,
grouped into the parts the benchmarks name, plus two what-if measurements.

The groups are cumulative times of single functions, so they overlap where one calls
another (the state copy is inside the rules' apply); each is given as a share of the
whole. The what-ifs (berlin-1945 only) patch this process alone, never a file: the
static map and card texts shared between states instead of copied on every apply, and
the parsed data files kept between games (as a cache keyed by the files would), each
timed against the code as it is, round robin, best of 3 x `--runs`, in one run.
Run: python bench/hotspots.py [--title berlin-1945] [--runs 5] [--selfplay] [--top 0]
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
from pbem.verify import verify_text  # noqa: E402

# (label, file suffix or None for builtins, function name part)
GROUPS = (
    ("the whole verification", "pbem/verify.py", "verify_text"),
    ("the whole game, played", "tests/support/players.py", "play"),
    ("bots choosing (pbem.bots.choose)", "pbem/bots.py", "choose"),
    ("entries parsed (Entry.from_wire)", "pbem/core/log.py", "from_wire"),
    ("genesis: data files parsed, setup", "pbem/core/adjudicator.py", "start"),
    ("SSHSIG checks (ledger.check_signature)", "pbem/ledger.py", "check_signature"),
    ("  of which Ed25519 verify (the floor)", None, "Ed25519PublicKey"),
    ("SSHSIG signing (sshsig.sign)", "pbem/crypto/sshsig.py", "sign"),
    ("rules: engine apply", "/rules.py", "apply"),
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
    print(f"{'part':<42}{'seconds':>9}{'share':>8}")
    for label, suffix, name in GROUPS:
        seconds = cumulative(stats, suffix, name)
        if seconds:
            print(f"{label:<42}{seconds:>9.3f}{seconds / whole:>8.1%}")
    if top:
        print()
        stats.sort_stats("tottime").print_stats(top)


def what_if_berlin(text: bytes, entries: int, runs: int) -> None:
    """berlin-1945 verified as is, with static state shared, with data files kept, both."""
    import importlib
    import pkgutil

    import pbem.games.berlin_1945 as package
    from pbem.core.canonical import copy_json
    from pbem.games.berlin_1945 import state as berlin_state

    modules = [
        importlib.import_module(f"{package.__name__}.{m.name}")
        for m in pkgutil.iter_modules(package.__path__)
    ]
    original_clone = berlin_state.clone
    static = ("map", "cards")

    def shared_clone(state: dict[str, Any]) -> dict[str, Any]:
        new = copy_json({k: v for k, v in state.items() if k not in static})
        assert isinstance(new, dict)
        new.update({k: state[k] for k in static if k in state})
        return new

    def use_clone(clone: Callable[..., Any]) -> None:
        for module in modules:
            if getattr(module, "clone", None) in (original_clone, shared_clone):
                module.clone = clone  # type: ignore[attr-defined]

    engine_class = type(get_engine("berlin-1945"))
    original_load = engine_class.load_data
    kept: dict[Any, Any] = {}

    def kept_load(self: Any, files: Any) -> Any:
        key = tuple(sorted((name, bytes(content)) for name, content in files.items()))
        if key not in kept:
            kept[key] = original_load(self, files)
        return kept[key]

    def verify() -> None:
        if not verify_text(text).ok:
            raise SystemExit("what-if broke verification")

    variants = (
        ("as is", original_clone, original_load),
        ("map and cards shared, not copied", shared_clone, original_load),
        ("parsed data files kept", original_clone, kept_load),
        ("both", shared_clone, kept_load),
    )
    times = [float("inf")] * len(variants)
    try:
        for _ in range(runs):  # round robin: the machine's noise falls on all alike
            for number, (_label, clone, load) in enumerate(variants):
                use_clone(clone)
                engine_class.load_data = load  # type: ignore[method-assign]
                verify()  # warm this variant (fills the kept data files)
                started = time.perf_counter()
                verify()
                times[number] = min(times[number], time.perf_counter() - started)
    finally:
        use_clone(original_clone)
        engine_class.load_data = original_load  # type: ignore[method-assign]
    results = [(label, seconds) for (label, _c, _l), seconds in zip(variants, times, strict=True)]
    base = results[0][1]
    print(f"\nwhat if (berlin-1945 save, best of {runs}; this process only):")
    for label, seconds in results:
        print(
            f"  {label:<34}{seconds * 1000:7.1f} ms {entries / seconds:8,.0f} entries/s"
            f"  x{base / seconds:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", default="berlin-1945")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--selfplay", action="store_true", help="profile bot self-play")
    parser.add_argument("--top", type=int, default=0, help="also the N top functions")
    args = parser.parse_args()

    if args.selfplay:
        from tests.support.players import Table

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
    if args.title == "berlin-1945":
        what_if_berlin(text, entries, max(args.runs * 3, 15))


if __name__ == "__main__":
    main()
