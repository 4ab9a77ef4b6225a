"""`pbem verify` over a league's archive: games per second, and memory that stays flat.

The archive is `--games` N copies of the shipped demo saves (cycled, each under its own
name) in a folder, plus one mbox holding the five demo games as mail threads (a few
entries a message, each reply quoting the last): N + 5 games. Printed, in one run:

(a) games per second of `pbem verify --jobs 2 DIR MBOX` and `--jobs 1`, each against
    the baseline measured in the same run: one `pbem verify FILE` process per game (the
    save, or the game's move file), run one after the other, their times summed. The
    ratio is baseline time / archive time (above 1: the archive form is faster).
(b) peak RSS (resource.getrusage of children: the largest process, workers included)
    of `pbem verify --json --jobs 2` over the archive of N and of 4N saves (the same
    mbox); the ratio 4N / N is about 1.0 when memory stays flat. (The engines keep the
    derived tables of the last 8 maps of a title they loaded, by design: a process grows
    over its first 40 demo saves, then stays flat; hence N = 40 by default.)

Run: python bench/archive_verify.py [--games N] [--runs N]
"""

from __future__ import annotations

import argparse
import email.policy
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.transport.savefile import move_file  # noqa: E402
from pbem.verify import parse_entries  # noqa: E402

SAVES = sorted((ROOT / "saves").glob("*.pbem"))


def pbem(*args: str) -> list[str]:
    return [sys.executable, "-m", "pbem", *args]


def timed(command: list[str], env: dict[str, str], ok: bool = True) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=env, cwd=ROOT)
    seconds = time.perf_counter() - started
    if ok and done.returncode != 0:
        raise SystemExit(f"{' '.join(command[2:])} failed:\n{done.stderr.decode()}")
    return seconds


# Runs a command and prints the peak RSS of its process tree (bytes): the wrapper's own
# children's figure, so that each measurement starts from nothing.
PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


def peak_rss(command: list[str], env: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-c", PEAK, *command], capture_output=True, text=True, env=env, cwd=ROOT
    )
    if done.returncode != 0:
        raise SystemExit(f"peak of {' '.join(command[2:])} failed:\n{done.stderr}")
    return int(done.stdout)


def mail(body: str, subject: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Player <player@example.org>"
    msg["Subject"] = subject
    msg.set_content(body, cte="quoted-printable")
    return msg.as_bytes(policy=email.policy.SMTP)


def mbox(folder: Path) -> tuple[Path, list[Path]]:
    """league.mbox with every demo game as a thread, and each game's own move file."""
    out, games = b"", []
    for save in SAVES:
        entries = parse_entries(save.read_bytes())
        whole = folder / f"{save.stem}.txt"
        whole.write_text(move_file(entries))
        games.append(whole)
        previous = ""
        for start in range(0, len(entries), 40):
            body = f"My move:\n\n{move_file(entries[start : start + 40])}\n"
            if previous:  # a reply quotes the mail before it
                body += "\n" + "\n".join("> " + line for line in previous.split("\n"))
            previous = body
            raw = mail(body, f"{save.stem} {start}").replace(b"\r\n", b"\n")
            raw = re.sub(rb"(?m)^(>*From )", rb">\1", raw)
            out += b"From player@example.org Mon Jun 22 04:00:00 1941\n" + raw + b"\n"
    path = folder / "league.mbox"
    path.write_bytes(out)
    return path, games


def archive(folder: Path, count: int) -> list[Path]:
    folder.mkdir()
    made = []
    for number in range(count):
        save = SAVES[number % len(SAVES)]
        made.append(folder / f"{number:05d}-{save.name}")
        shutil.copy(save, made[-1])
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="saves in the archive (N)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each archive verify")
    args = parser.parse_args()

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env["PBEM_CACHE"] = str(base / "pbem-cache")  # this run's cache, not the user's
        box, moves = mbox(base)
        small = archive(base / "small", args.games)
        archive(base / "large", 4 * args.games)
        games = args.games + len(moves)
        document = subprocess.run(
            pbem("verify", "--json", str(base / "small"), str(box)),
            capture_output=True,
            env=env,
            cwd=ROOT,
        )
        found = json.loads(document.stdout)["files"]
        if len(found) != games or not all(f["ok"] for f in found):
            raise SystemExit(f"the archive does not verify as {games} good games")
        timed(pbem("verify", str(small[0])), env)  # fills the cache, as a first run does
        singles = sum(timed(pbem("verify", str(path)), env) for path in [*small, *moves])
        walls: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(args.runs):
            for jobs in walls:
                command = pbem("verify", "--jobs", str(jobs), str(base / "small"), str(box))
                walls[jobs].append(timed(command, env))
        peaks = {
            count: peak_rss(pbem("verify", "--json", "--jobs", "2", str(folder), str(box)), env)
            for count, folder in ((args.games, base / "small"), (4 * args.games, base / "large"))
        }
    print(f"archive: {args.games} saves + an mbox of {len(moves)} games; {os.cpu_count()} CPUs")
    print(f"baseline: {games} x `pbem verify FILE`, one after the other: {singles:6.2f} s")
    print(f"          {games / singles:8.2f} games/s")
    for jobs, times in walls.items():
        wall = statistics.median(times)
        print(
            f"verify --jobs {jobs} DIR MBOX: {wall:6.2f} s  {games / wall:8.2f} games/s  "
            f"x{singles / wall:5.2f} the baseline  (median of {args.runs})"
        )
    small_peak, large_peak = peaks[args.games], peaks[4 * args.games]
    print(
        f"peak RSS, --json --jobs 2: {small_peak / 1e6:6.1f} MB at {args.games + 5} games, "
        f"{large_peak / 1e6:6.1f} MB at {4 * args.games + 5}: x{large_peak / small_peak:4.2f} "
        "(1.0: flat)"
    )


if __name__ == "__main__":
    main()
