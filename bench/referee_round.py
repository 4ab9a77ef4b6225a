"""A league referee's round with nothing new: `pbem referee run --once` over a store of
N refereed games (default 200) vs over a store of one of them, cold, CPU as a ratio.

It builds a referee's store the way a league fills one (three stores in a temporary
folder, a player's each and the referee's, keys made there): N games of Berlin 1945
with a 72-hour deadline, each created and joined by its players, joined and its dice
rolled by the referee (pbem.refereeing.settle, in process), then played by the bots for
`--moves` decisions (the referee settling after each), every player's mail recorded as
sent and an address given (a league in its steady state: nothing waits in the mail).
A copy of the store keeps only the first game. Then, each a fresh process, interleaved:

* `pbem referee run --once --maildir EMPTY --now T` over the N games, and over the one
  (an empty Maildir: no mail arrives; no mail configuration: nothing is sent);
* with `--baseline PYTHON` (another checkout's venv) the same two runs by that pbem.

The clock `T` is an hour after the games' clocks started, so no reminder is due. Each
command runs once before the timed rounds (a first round records what the next need).
The issue's line: N games at most x3 the one game. Prints the medians and the ratios.
Run: python bench/referee_round.py [--games N] [--moves N] [--runs N] [--baseline PYTHON]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RULES = "berlin-1945"
PLAYERS = ("german", "soviet")
CREATED = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
START = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)  # the referee's clock while building
ROUND = "2026-12-01T11:00:00Z"  # the timed rounds' clock: an hour on, nothing due


def build(where: Path, games: int, moves: int) -> Path:
    """The referee's store of `games` refereed games (see the module's docstring)."""
    os.environ["PBEM_STATE"] = str(where / "state")
    from pbem.bots import choose
    from pbem.client import Client
    from pbem.core.referee import DEADLINE, REFEREE
    from pbem.refereeing import settle
    from pbem.store import Store

    clients = {}
    for role in (*PLAYERS, REFEREE):
        clients[role] = Client(Store(where / role, state=where / "state" / role))
        clients[role].new_key(role)
    creator, other, referee = clients["german"], clients["soviet"], clients[REFEREE]
    for role in ("soviet", REFEREE):
        creator.import_key(role, where / role / "keys" / f"{role}.pub")
    referee.clock = lambda: START

    def hand(source: Client, target: Client, game: str) -> None:
        target.apply_entries(list(source.game(game).entries))

    rng = random.Random(1)
    keys = {role: role for role in clients}
    for number in range(games):
        game, _entries = creator.new_game(
            RULES,
            "german",
            keys,
            title=f"league {number}",
            options={DEADLINE: 72},
            created=CREATED,
        )
        hand(creator, other, game)
        other.join(game)
        hand(other, referee, game)
        settle.settle(referee, game)
        for _ in range(moves):
            adjudicator = referee.game(game)
            role = adjudicator.next_signer()
            if adjudicator.outcome() is not None or role not in clients or role == REFEREE:
                break
            player = clients[str(role)]
            hand(referee, player, game)
            state = player.state_for(player.game(game), str(role))
            engine = adjudicator.engine
            state = engine.with_secrets(state, str(role), player.known(game, str(role)))
            if any(p.role == role for p in engine.prompts(state)):
                decision = choose(engine, state, str(role), rng)
                player.move(game, engine.format(decision), str(role))
            else:
                player.ack(game, str(role))
            hand(player, referee, game)
            settle.settle(referee, game)
        head = referee.game(game).head.seq
        for role in PLAYERS:
            referee.set_player_address(game, role, f"{role}@example.org")
            referee.set_referee_mailed(game, role, head)
        if (number + 1) % 20 == 0:
            print(f"  built {number + 1} games", flush=True)
    return where / REFEREE


def only_first(store: Path, target: Path) -> None:
    """A copy of the referee's store that keeps its first game only."""
    shutil.copytree(store, target)
    with sqlite3.connect(target / "store.db") as db:
        (first,) = db.execute("SELECT id FROM games ORDER BY rowid LIMIT 1").fetchone()
        for table in ("games",):
            db.execute(f"DELETE FROM {table} WHERE id != ?", [first])
        for table in ("entries", "referee_players", "referee_clock", "referee_mailed", "mail"):
            db.execute(f"DELETE FROM {table} WHERE game != ?", [first])
        db.execute("DELETE FROM referee_quiet WHERE game != ?", [first])


def cpu_run(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _pid, status, usage = os.wait4(child.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            out.seek(0)
            raise SystemExit(f"{' '.join(argv)} failed ({code}):\n{out.read().decode()}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=8, help="bot decisions per game")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", help="another pbem's python (its own checkout)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        print(f"building a referee's store of {args.games} {RULES} games ...", flush=True)
        many = build(where / "league", args.games, args.moves)
        one = where / "one"
        only_first(many, one)
        maildir = where / "maildir"
        for sub in ("cur", "new", "tmp"):
            (maildir / sub).mkdir(parents=True)
        with sqlite3.connect(many / "store.db") as db:
            (entries,) = db.execute("SELECT count(*) FROM entries").fetchone()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PBEM_STATE"] = str(where / "state" / "referee")
        pythons = {"this": (sys.executable, ROOT)}
        if args.baseline:
            pythons["baseline"] = (args.baseline, Path(args.baseline).resolve().parents[2])
        runs: dict[tuple[str, str], list[float]] = {}

        def round_of(who: str, store: Path) -> float:
            python, cwd = pythons[who]
            argv = [python, "-m", "pbem", "--home", str(store), "referee", "run", "--once"]
            argv += ["--maildir", str(maildir), "--now", ROUND]
            return cpu_run(argv, env, cwd)

        stores = {"one": one, "many": many}
        for who in pythons:
            for store in stores.values():
                round_of(who, store)  # the first round, untimed
        for _ in range(args.runs):
            for who in pythons:
                for name, store in stores.items():
                    runs.setdefault((who, name), []).append(round_of(who, store))
        print(
            f"{args.games} games, {entries} entries; `pbem referee run --once`, CPU s "
            f"(median of {args.runs})"
        )
        for who in pythons:
            single = statistics.median(runs[(who, "one")])
            whole = statistics.median(runs[(who, "many")])
            print(
                f"  {who:9} one game {single:6.3f}  {args.games} games {whole:7.3f}  "
                f"ratio x{whole / single:.2f}"
            )
        print("(the line: x3)")


if __name__ == "__main__":
    main()
