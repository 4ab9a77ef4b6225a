"""Bot self-play: whole games per second per title, against baselines of the same run.

Bots play whole games in memory through the real adjudicator, as the conformance
test does (pbem.testing.SignedTable: every role's keys and hash chains, every
entry signed with SSHSIG and checked by the adjudicator, dice, sealed secrets), with
no disk and no store. In the same run, interleaved with the titles round by round so
that the machine's noise falls on all of them alike:

* baseline 1: the toy-dice game of tests/support (trivial rules, the same protocol
  work per entry), with `--toy-rounds` rolls (default 100: about as long as a title);
* baseline 2: raw Ed25519 sign + verify of SSHSIG signed-data, once per entry (the
  cryptographic floor of self-play: each entry is signed once and checked once).

Prints games/s and entries/s per title and each title's entries/s as a share of the
two baselines. Run: python bench/selfplay.py [--rounds N] [--toy-rounds N] [--titles T ...]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pbem.games  # noqa: E402,F401  (registers the titles)
import tests.support.toy  # noqa: E402,F401  (registers the toy-dice baseline)
from pbem.core import chain  # noqa: E402
from pbem.core.engine import get_engine  # noqa: E402
from pbem.testing import SignedTable as Table  # noqa: E402

TITLES = ("barbarossa", "race-to-berlin", "berlin-1945", "race-to-the-sea", "gotterdammerung")
TOY = "toy-dice"


def play(title: str, seed: int, toy_rounds: int) -> int:
    """One whole bot game of `title`; returns its number of entries."""
    if title == TOY:
        data = {"toy.toml": f"rounds = {toy_rounds}\n".encode()}
        length = max(chain.MIN_LENGTH, toy_rounds * 2)
        table = Table(TOY, ("a", "b"), nonce=f"{seed}", data=data, length=length)
    else:
        table = Table(title, get_engine(title).roles, nonce=f"{seed}")
    table.join_all()
    table.play(random.Random(seed))
    return len(table.game.entries)


def raw_sign_verify(count: int) -> float:
    """Seconds for `count` Ed25519 sign + verify pairs over SSHSIG-sized signed data."""
    import hashlib

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    public = key.public_key()
    messages = [
        b"SSHSIG" + b"pbem-entry" + b"sha512" + hashlib.sha512(str(i).encode()).digest()
        for i in range(count)
    ]
    started = time.perf_counter()
    for message in messages:
        public.verify(key.sign(message), message)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="games per title (seeds 0..N-1)")
    parser.add_argument("--toy-rounds", type=int, default=100, help="rolls in a toy-dice game")
    parser.add_argument(
        "--titles", nargs="*", choices=TITLES, default=TITLES, help="titles to play (default: all)"
    )
    args = parser.parse_args()

    names = (TOY, *args.titles)
    seconds = dict.fromkeys(names, 0.0)
    entries = dict.fromkeys(names, 0)
    raw_seconds, raw_count = 0.0, 0
    for seed in range(args.rounds):
        for name in names:
            started = time.perf_counter()
            entries[name] += play(name, seed, args.toy_rounds)
            seconds[name] += time.perf_counter() - started
        raw_seconds += raw_sign_verify(200)
        raw_count += 200

    raw_rate = raw_count / raw_seconds
    toy_rate = entries[TOY] / seconds[TOY]
    print(f"{args.rounds} games per title, interleaved; toy-dice: {args.toy_rounds} rolls\n")
    print(
        f"{'game':<15}{'games/s':>9}{'entries/game':>14}{'entries/s':>11}{'vs toy':>8}{'vs raw':>8}"
    )
    for name in names:
        rate = entries[name] / seconds[name]
        print(
            f"{name:<15}{args.rounds / seconds[name]:>9.1f}{entries[name] / args.rounds:>14.0f}"
            f"{rate:>11,.0f}{rate / toy_rate:>8.3f}{rate / raw_rate:>8.3f}"
        )
    print(
        f"{'raw sign+verify':<15}{'':>9}{'':>14}{raw_rate:>11,.0f}"
        f"{raw_rate / toy_rate:>8.3f}{1:>8.3f}"
    )
    print(
        "\nvs toy: entries/s as a share of the toy game's (the rules' own cost); vs raw: as a "
        "share of one Ed25519 sign + verify per entry (the floor)."
    )


if __name__ == "__main__":
    main()
