"""`pbem verify SAVE` per entry in instructions, against raw Ed25519: a count, not a time.

bench/verify_saves.py times the CLI, which a shared machine makes noisy. This counts the
instructions the same runs execute, under valgrind's cachegrind (deterministic for a given
tree, with PYTHONHASHSEED fixed): `python -m pbem verify` on each title's demo save and on
a save of its first three entries (bench/verify_saves.short_save); their difference, per
entry beyond the third, against the instructions of a raw Ed25519 verify of the same
signatures (bench/verify_saves.raw_seconds_per_entry run once and three times, per entry).

Instructions are not time: Ed25519 runs more of them per cycle than the interpreter does,
so the instruction ratio reads higher than verify_saves.py's (about 0.5 there is 0.7 here).
Use it to compare two trees, change by change, when the machine is too busy to time.
Run: python bench/verify_instructions.py [TITLE ...]   (needs valgrind)
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import verify_saves  # noqa: E402

RAW = """
import sys
sys.path.insert(0, {bench!r}); sys.path.insert(0, {root!r})
import verify_saves
from pathlib import Path
from pbem.verify import parse_entries
verify_saves.raw_seconds_per_entry(parse_entries(Path({save!r}).read_bytes()), int(sys.argv[1]))
"""


def _environment() -> dict[str, str]:
    """The measured runs' environment: bytecode written (a warm-up that wrote no .pyc would
    leave the measured run compiling every module) and hashes fixed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONHASHSEED"] = "0"
    return env


def instructions(argv: list[str]) -> int:
    """The instructions cachegrind counts for one run of `argv`."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
        + argv,
        capture_output=True,
        text=True,
        env=_environment(),
        cwd=ROOT,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(argv)} failed under valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    titles = sys.argv[1:] or list(verify_saves.TITLES)
    python = sys.executable
    print("instructions per entry beyond the first 3 (thousands)")
    print(f"{'title':16} {'entries':>7} {'pbem':>8} {'raw':>6} {'raw/pbem':>8}")
    for title in titles:
        save = ROOT / "saves" / f"{title}-demo.pbem"
        with tempfile.TemporaryDirectory() as folder:
            short, entries = verify_saves.short_save(save, Path(folder))
            for path in (save, short):  # caches and bytecode warm, as a user's second run
                subprocess.run(
                    [python, "-m", "pbem", "verify", str(path)],
                    capture_output=True,
                    env=_environment(),
                    cwd=ROOT,
                )
            full = instructions([python, "-m", "pbem", "verify", str(save)])
            first = instructions([python, "-m", "pbem", "verify", str(short)])
        code = RAW.format(bench=str(ROOT / "bench"), root=str(ROOT), save=str(save))
        once = instructions([python, "-c", code, "1"])
        thrice = instructions([python, "-c", code, "3"])
        per_entry = (full - first) / (len(entries) - verify_saves.PREFIX)
        raw = (thrice - once) / 2 / len(entries)
        print(
            f"{title:16} {len(entries):7} {per_entry / 1e3:8.0f} {raw / 1e3:6.0f} "
            f"{raw / per_entry:8.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
