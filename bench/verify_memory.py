"""Peak memory of verifying and applying a save against the log's length: the streamed
`pbem.verify.verify_path` and the paths that read the whole text in memory.

Builds toy-dice logs of 10k, 25k, 50k and 100k entries (tests/support's Table, as
bench/verify.py does; chain length = entries), writes each as a save to a temporary
file, and runs each path in a fresh subprocess, which reports its peak resident memory
(VmHWM of /proc/self/status, else resource.getrusage ru_maxrss) and the peak of
memory traced by tracemalloc. Prints the memory per entry and the ratio 100k / 10k: a
path that keeps every entry grows about tenfold, the streaming one only by its
32-byte-per-entry index. The paths (`--in-memory` adds all but the first):

* stream:   `verify_path` of the save (what `pbem verify SAVE` runs);
* memory:   `verify_text` of the whole save;
* movefile: `verify_path` of a move file of the same entries (no save header, no RNG
            log: read by `verify_text`, as a mail thread is);
* apply:    `pbem apply SAVE --no-auto` into an empty store, through the CLI;
* fetch:    `pbem mail fetch --mbox BOX --no-auto` into an empty store, through the
            CLI, the entries in mails of at most pbem.transport.message.MAX_ENTRIES.

Each line ends with its max RSS as a multiple of the streamed path's at the same length
(the target of issue 29: at most 2 at 100k entries).

`apply` of a plain save streams (Client.apply_stream: a lean game, one entry at a time);
`fetch` streams each plain mail the same way (pbem.mail.stream), holding one mail's bytes
at a time; these mails carry MAX_ENTRIES entries, the most a mail may: its peak is one
such mail's bytes and a constant, and each message's report keeps runs of seqs, not a
record per entry. The last lines give the growth between the smallest and the largest
length: the slope per entry that a longer run would add.

`--against CHECKOUT` also runs every path but `stream` with another checkout's code (its
.venv's Python) on the same files, in the same run: `name@CHECKOUT` lines.

Run: python bench/verify_memory.py [--entries 10000 25000 50000 100000] [--in-memory]
     [--paths stream apply ...] [--against /work/main]
"""

from __future__ import annotations

import argparse
import json
import mailbox
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = """
import json, resource, sys, tempfile, time, tracemalloc
sys.path.insert(0, {root!r})
import tests.support.toy  # registers toy-dice
from pbem.verify import verify_path, verify_text
path, mode, rounds, trace = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
data = {{"toy.toml": f"rounds = {{rounds}}\\n".encode()}}
if mode in ("apply", "fetch"):
    from pbem.cli.app import main
    home = tempfile.mkdtemp()
    toy = home + "/toy.toml"
    with open(toy, "wb") as f:
        f.write(data["toy.toml"])
    if mode == "apply":
        args = ["apply", path]
    else:
        folder = path.rsplit("/", 1)[0]
        main(["--home", home, "key", "import", "b", folder + "/b.key"], standalone_mode=False)
        with open(folder + "/game") as f:
            game = f.read()
        args = ["mail", "fetch", "--mbox", path, "--accept", game]
    args = ["--home", home, *args, "--data", "toy.toml=" + toy, "--no-auto"]
if trace:
    tracemalloc.start()
started = time.perf_counter()
if mode in ("stream", "movefile"):
    report = verify_path(path, data)
elif mode == "memory":
    with open(path, "rb") as f:
        report = verify_text(f.read(), data)
else:
    import contextlib, io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main(args, standalone_mode=False)
        except SystemExit as exc:
            if exc.code:
                raise SystemExit(out.getvalue()[-2000:])
    report = None
seconds = time.perf_counter() - started
peak = tracemalloc.get_traced_memory()[1] if trace else 0
if report is not None and not report.ok:
    raise SystemExit(report.failure)
lean = report is not None and report.game is not None and report.game.lean
# VmHWM: the peak resident set of this process image. ru_maxrss would do, but Linux keeps
# it across fork and exec, so a child would report its parent's peak.
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
with open("/proc/self/status") as status:
    for line in status:
        if line.startswith("VmHWM:"):
            rss = int(line.split()[1]) * 1024
print(json.dumps({{"peak": peak, "rss": rss, "seconds": seconds, "lean": lean}}))
"""

MODES = ("stream", "memory", "movefile", "apply", "fetch")


def build(count: int, directory: Path) -> dict[str, Path]:
    """The save of a `count`-entry toy log, and the same entries as a move file and as an
    mbox of mails: the input of each path, by path name."""
    from email.message import EmailMessage

    from bench.verify import build_table
    from pbem.transport.message import MAX_ENTRIES
    from pbem.transport.savefile import move_file, save_text

    table = build_table(count)
    entries = table.game.entries
    prints = {role: str(key.public.fingerprint()) for role, key in table.keys.items()}
    save = save_text(table.game, "bench", prints)
    # Role b's key, so that the fetching store takes the game as its own (`pbem key import`).
    key = directory / "b.key"
    key.write_bytes(table.keys["b"].to_openssh())
    key.chmod(0o600)
    (directory / "game").write_text(entries[0].id)  # (to accept its invitation)
    path = directory / f"toy-{count}.pbem"
    path.write_text(save, encoding="utf-8")
    moves = directory / f"toy-{count}.moves"
    moves.write_text(move_file(entries), encoding="utf-8")
    box_path = directory / f"toy-{count}.mbox"
    box = mailbox.mbox(str(box_path), create=True)
    for number, first in enumerate(range(0, count, MAX_ENTRIES)):
        mail = EmailMessage()
        mail["From"] = "a@example.org"
        mail["To"] = "b@example.org"
        mail["Subject"] = f"pbem moves {number}"
        mail["Message-ID"] = f"<bench-{count}-{number}@example.org>"
        mail.set_content(move_file(entries[first : first + MAX_ENTRIES]))
        box.add(mail)
    box.flush()
    box.close()
    return {
        "stream": path,
        "memory": path,
        "movefile": moves,
        "apply": path,
        "fetch": box_path,
    }


def run(path: Path, mode: str, rounds: int, trace: bool, root: Path = ROOT) -> dict[str, float]:
    """One run of a path in a fresh process, with the code of the checkout `root` (and the
    Python of its .venv, when it has one and is not this one)."""
    code = CHILD.format(root=str(root))
    python = root / ".venv" / "bin" / "python"
    executable = str(python) if root != ROOT and python.exists() else sys.executable
    out = subprocess.run(
        [executable, "-c", code, str(path), mode, str(rounds), "1" if trace else "0"],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.splitlines()[-1])
    return result


def measure(path: Path, mode: str, rounds: int, root: Path = ROOT) -> dict[str, float]:
    """Max RSS and speed from a plain run, peak traced memory from a tracemalloc run."""
    plain = run(path, mode, rounds, trace=False, root=root)
    plain["peak"] = run(path, mode, rounds, trace=True, root=root)["peak"]
    return plain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, nargs="+", default=[10_000, 25_000, 50_000, 100_000])
    parser.add_argument("--in-memory", action="store_true", help="also the in-memory paths")
    parser.add_argument("--paths", nargs="+", choices=MODES, help="the paths to measure")
    parser.add_argument(
        "--against",
        type=Path,
        metavar="CHECKOUT",
        help="also run every path but stream with another checkout's code (its .venv's "
        "Python), on the same files in the same run: e.g. --against /work/main",
    )
    args = parser.parse_args()
    modes = list(args.paths or (MODES if args.in_memory else ["stream"]))
    if "stream" not in modes:
        modes.insert(0, "stream")  # (the yardstick of every other path)
    runs = [(mode, ROOT) for mode in modes]
    if args.against is not None:
        against = args.against.resolve()
        runs += [(mode, against) for mode in modes if mode != "stream"]
    results: dict[tuple[str, int], dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count in args.entries:
            started = time.perf_counter()
            paths = build(count, Path(tmp))
            size = paths["stream"].stat().st_size
            took = time.perf_counter() - started
            print(f"built {count:,} entries ({size / 1e6:.1f} MB) in {took:.1f} s")
            for mode, root in runs:
                name = mode if root == ROOT else f"{mode}@{root.name}"
                result = measure(paths[mode], mode, count, root)
                results[(name, count)] = result
                streamed = results[("stream", count)]["rss"]
                print(
                    f"  {name:8}  traced peak {result['peak'] / 1e6:8.2f} MB "
                    f"({result['peak'] / count:7.1f} B/entry)  "
                    f"max RSS {result['rss'] / 1e6:8.1f} MB (x{result['rss'] / streamed:5.2f} "
                    f"streamed)  {count / result['seconds']:7,.0f} entries/s"
                    + ("" if mode != "stream" or result["lean"] else "  (NOT streamed)")
                )
            for made in set(paths.values()):
                made.unlink()
            (Path(tmp) / "b.key").unlink()
            (Path(tmp) / "game").unlink()
    low, high = min(args.entries), max(args.entries)
    if low == high:
        return  # (one length: no growth to show)
    for mode, root in runs:
        name = mode if root == ROOT else f"{mode}@{root.name}"
        a, b = results[(name, low)], results[(name, high)]
        print(
            f"{name}: {high:,} / {low:,} entries: traced peak x{b['peak'] / a['peak']:.2f}, "
            f"max RSS x{b['rss'] / a['rss']:.2f} (entries x{high / low:.0f}); "
            f"extra traced bytes per extra entry: {(b['peak'] - a['peak']) / (high - low):.1f}"
        )


if __name__ == "__main__":
    main()
