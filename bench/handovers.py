"""Handovers that need a person, per game turn, with automatic answers on and off.

For each title, 20 seeded bot games are played twice in memory (bench/handover_counts.py):
once as two clients with automatic answers (dice acknowledgements, only choices and the
bots' standing orders, `STANDING_ORDERS` in each game's bot module), once with every
entry made by a person. Both runs of a seed start from the same seed; the games differ
where a standing order decides otherwise than the bot would.

Prints, per title: mails needing a person per turn (mean and worst game), changes of
the deciding person per turn, and the reduction (off / on, from the means).
Run: python bench/handovers.py [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pbem.games  # noqa: E402,F401  (registers the titles)
from bench.handover_counts import Count, play_counted  # noqa: E402

TITLES = ("race-to-berlin", "berlin-1945", "barbarossa", "race-to-the-sea", "gotterdammerung")


def measure(title: str, games: int, auto: bool) -> list[Count]:
    return [play_counted(title, seed, auto)[0] for seed in range(1, games + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print(f"{args.games} seeded bot games per title; figures per game turn")
    print(
        f"{'title':16} {'mode':4} {'entries':>8} {'mails':>6} {'person':>7} {'worst':>6} "
        f"{'changes':>8}"
    )
    for title in TITLES:
        means = {}
        for auto in (False, True):
            counts = measure(title, args.games, auto)
            per_turn = [c.per_turn for c in counts]
            means[auto] = statistics.mean(per_turn)
            print(
                f"{title:16} {'on' if auto else 'off':4} "
                f"{statistics.mean(c.entries for c in counts):8.1f} "
                f"{statistics.mean(c.mails / max(c.turns, 1) for c in counts):6.1f} "
                f"{means[auto]:7.1f} {max(per_turn):6.1f} "
                f"{statistics.mean(c.changes_per_turn for c in counts):8.1f}"
            )
        print(
            f"{title:16} reduction of person handovers per turn: {means[False] / means[True]:.1f}x"
        )
    print(
        "person: mails whose answer needs a person; worst: the game with most; changes: "
        "times the deciding person changes side; mails: all mails, automatic ones included"
    )


if __name__ == "__main__":
    main()
