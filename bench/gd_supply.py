"""Götterdämmerung: a full bot game's time, the share of it spent tracing supply, and the
time of `pbem show`'s work on a game's busiest position, against baselines of the same run.

1. Bot games in memory (pbem.testing.Table, seeds 1..N, the tests' way of playing a
   whole game): CPU seconds per game and per entry, and the share spent inside
   supply.py's functions (every function of the module is wrapped; only the outermost
   call of a chain is timed, so nested calls are not counted twice). The share covers
   the Soviet status of 8.1 (supply_status) and the German traces that 8.3, 9.x and 11
   ask (arrivals.py, victory.py).
2. `pbem show`'s work (pbem.render.show.show_text: the role's view, the text board with
   the game's summary, what is asked with its numbered choices; and the SVG map that
   `pbem show --svg` and the turn page draw) on the busiest position (most units on the
   maps) of a seed-1 bot game through the signed pipeline (SignedTable: the demo's kind
   of game), against the same work on Race to the Sea's busiest position (baseline).
   Issue 16 asks for `pbem show` under 0.5 s there.

Run: python bench/gd_supply.py [--games N] [--repeat N]
"""

from __future__ import annotations

import argparse
import functools
import inspect
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pbem.games  # noqa: E402,F401  (registers the titles)
from pbem.core.engine import get_engine  # noqa: E402
from pbem.games.gotterdammerung import supply  # noqa: E402
from pbem.render.page import render_svg, role_view, state_text  # noqa: E402
from pbem.testing import SignedTable, Table  # noqa: E402

GD = "gotterdammerung"
BASELINE = "race-to-the-sea"


class SupplyClock:
    """Wraps every function of supply.py; `seconds` is the CPU time inside the outermost."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.depth = 0
        self.saved: dict[str, Callable[..., Any]] = {}

    def __enter__(self) -> SupplyClock:
        for name, fn in vars(supply).items():
            if inspect.isfunction(fn) and fn.__module__ == supply.__name__:
                self.saved[name] = fn
                setattr(supply, name, self._wrap(fn))
        return self

    def __exit__(self, *exc: object) -> None:
        for name, fn in self.saved.items():
            setattr(supply, name, fn)

    def _wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            started = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += time.process_time() - started
                self.depth -= 1

        return timed


def bot_games(seeds: range) -> None:
    engine = get_engine(GD)
    total = supplied = 0.0
    entries = 0
    print(f"{'seed':>4}{'entries':>9}{'CPU s':>8}{'ms/entry':>10}{'supply s':>10}{'share':>7}")
    for seed in seeds:
        table = Table(engine, seed=seed)
        with SupplyClock() as clock:
            started = time.process_time()
            table.play()
            seconds = time.process_time() - started
        count = len(table.history)
        total, supplied, entries = total + seconds, supplied + clock.seconds, entries + count
        print(
            f"{seed:>4}{count:>9}{seconds:>8.2f}{1000 * seconds / count:>10.2f}"
            f"{clock.seconds:>10.2f}{clock.seconds / seconds:>7.1%}"
        )
    print(
        f"{'all':>4}{entries:>9}{total:>8.2f}{1000 * total / entries:>10.2f}"
        f"{supplied:>10.2f}{supplied / total:>7.1%}"
    )
    print(f"mean game {total / len(seeds):.2f} s CPU; {entries / total:,.0f} entries/s\n")


def busiest(title: str, seed: int = 1) -> SignedTable:
    """The signed bot game of `title`, stopped at its busiest position (most units on the
    maps; the first such position), as a table whose `game` is there."""

    def table() -> SignedTable:
        t = SignedTable(title, get_engine(title).roles, nonce=f"{seed}")
        t.join_all()
        return t

    first = table()
    rng = random.Random(seed)
    best, at = -1, 0
    while first.game.outcome() is None:
        first.step(rng)
        count = units_on_maps(first.game.state)
        if count > best:
            best, at = count, len(first.game.entries)
    again = table()
    rng = random.Random(seed)
    while len(again.game.entries) < at:
        again.step(rng)
    return again


def units_on_maps(state: Any) -> int:
    """Units on the maps: Götterdämmerung's `units` (not in the North German Plain Box),
    Race to the Sea's `counters` with a hex."""
    if not isinstance(state, dict):
        return 0
    units = state.get("units") if state.keys() >= GD_KEYS else state.get("counters")
    if not isinstance(units, dict):
        return 0
    return sum(1 for u in units.values() if isinstance(u, dict) and u.get("hex") not in OFF)


GD_KEYS = {"units", "waiting"}
OFF = (None, "ngp")


def show_work(t: SignedTable, repeat: int) -> tuple[float, float, int]:
    """Best CPU seconds of (the text of `pbem show` for the asked role, its SVG map)."""
    game = t.game
    engine = game.engine
    role = game.prompts()[0].role if game.prompts() else next(iter(game.roles))
    text_best = svg_best = float("inf")
    choices = 0
    for _ in range(repeat):
        started = time.process_time()
        view = role_view(game, role, None)
        state_text(game, view, role)
        state = engine.with_secrets(game.state, role, t.known(role))
        if any(p.role == role for p in engine.prompts(state)):
            choices = len([engine.format(d) for d in engine.choices(state, role)])
        text_best = min(text_best, time.process_time() - started)
        started = time.process_time()
        render_svg(game, role)
        svg_best = min(svg_best, time.process_time() - started)
    return text_best, svg_best, choices


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="bot games (seeds 1..N)")
    parser.add_argument("--repeat", type=int, default=5, help="`pbem show` runs (best kept)")
    args = parser.parse_args()

    print(f"Götterdämmerung bot games in pbem.testing.Table, seeds 1..{args.games}:")
    bot_games(range(1, args.games + 1))

    print(
        "`pbem show` work on the busiest position of a seed-1 signed bot game"
        f" (best of {args.repeat}):"
    )
    print(
        f"{'game':<18}{'units':>6}{'entry':>7}{'choices':>8}{'text s':>8}{'svg s':>8}{'both s':>8}"
    )
    figures = {}
    for title in (BASELINE, GD):
        t = busiest(title)
        text, svg, choices = show_work(t, args.repeat)
        figures[title] = text + svg
        print(
            f"{title:<18}{units_on_maps(t.game.state):>6}{len(t.game.entries):>7}{choices:>8}"
            f"{text:>8.3f}{svg:>8.3f}{text + svg:>8.3f}"
        )
    print(
        f"\n{GD} / {BASELINE}: x{figures[GD] / figures[BASELINE]:.2f}"
        f" (issue 16: `pbem show` under 0.5 s: {figures[GD]:.3f} s)"
    )


if __name__ == "__main__":
    main()
