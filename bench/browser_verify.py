"""The turn page's verifier in headless Chromium vs `pbem verify`, save by save.

Issue 18's figure: in one run, headless Chromium (Debian's package) verifying each demo
save in saves/ with pbem/render/verifier.js (`pbemVerify(text)`: protocol section 7, the
rules not re-run), against `pbem verify` of the same save (section 7 and the rules); the
browser should reach at least half of pbem's entries per second. Printed, per save and
in total, from figures measured in this run:

(a) browser: `pbemVerify` timed inside the page with performance.now(), given each save
    as a turn page carries it (issue 29: {"gzip-raw": base64}, the save's text with its
    entries raw, inflated by the page's DecompressionStream and rebuilt, so its time
    counts), one Chromium start for all saves; one warm-up pass over every save, then
    `--runs` timed passes,
    the best kept (the page's JIT warm, as pbem's interpreter is in (b)).
(b) pbem in-process: `pbem.verify.verify_path` of the save, after one warm-up, best of
    `--runs`.
(c) pbem cold: `python -m pbem verify FILE` as a subprocess, wall time, median of
    `--runs` (pbem's cache in a temporary folder, filled by a first run).

The ratio is browser entries/s / pbem entries/s, against (b) and against (c); the line
is 0.5. For information, the browser's cold wall time: one more Chromium start that
verifies every save once (browser start, page load, JIT cold), against the sum of (c).

Run: python bench/browser_verify.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.render.page import packed_save  # noqa: E402
from pbem.render.png import chromium  # noqa: E402
from pbem.render.verifier import verifier_script  # noqa: E402
from pbem.verify import parse_entries, verify_path  # noqa: E402
from tests.support.headless import Headless  # noqa: E402

SAVES = sorted((ROOT / "saves").glob("*.pbem"))
CHROMIUM = chromium()

# Every save `warm` times untimed, then `runs` times timed; the verdict of the last kept.
# The results: the value of the promise window.benchDone.
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<script type="application/json" id="inputs">{inputs}</script>
<script>{verifier}</script>
<script>
window.benchDone = (async () => {{
  const {{texts, warm, runs}} = JSON.parse(document.getElementById("inputs").textContent);
  const results = {{}};
  const names = Object.keys(texts);
  for (let pass = 0; pass < warm; pass++)
    for (const name of names) await pbemVerify(texts[name]);
  for (let pass = 0; pass < runs; pass++) {{
    for (const name of names) {{
      const started = performance.now();
      const verdict = await pbemVerify(texts[name]);
      const ms = performance.now() - started;
      results[name] = results[name] || {{ms: []}};
      results[name].ms.push(ms);
      results[name].status = verdict.status;
      results[name].entries = verdict.entries;
      results[name].dice = verdict.dice;
      results[name].why = verdict.why || null;
    }}
  }}
  return JSON.stringify(results);
}})();
</script></body></html>"""


def script_json(value: Any) -> str:
    """JSON safe inside a <script> element (no `</script`, no `<!--`)."""
    return json.dumps(value).replace("<", "\\u003c")


def in_browser(texts: dict[str, Any], warm: int, runs: int) -> tuple[dict[str, Any], float]:
    """Each save's results from one Chromium start, and that start's wall time (s).

    The page runs in real time, driven over DevTools (tests/support/headless.py): under
    `--virtual-time-budget` (run_headless's `idle_ms`) performance.now() is virtual and
    stands still while Web Crypto works, so every pass timed 0 ms."""
    if CHROMIUM is None:
        raise SystemExit("chromium is not installed (Debian package chromium)")
    page = PAGE.format(
        inputs=script_json({"texts": texts, "warm": warm, "runs": runs}),
        verifier=verifier_script(),
    )
    with tempfile.TemporaryDirectory(prefix="pbem-bench-browser-") as folder:
        path = Path(folder) / "verify.html"
        path.write_text(page, encoding="utf-8")
        started = time.perf_counter()
        browser = Headless(CHROMIUM)
        try:
            browser.open(path, width=1200, height=900)
            found = browser.evaluate("window.benchDone")
        finally:
            browser.close()
        wall = time.perf_counter() - started
    if not isinstance(found, str):
        raise SystemExit("the browser wrote no results")
    results: dict[str, Any] = json.loads(found)
    return results, wall


def in_process(path: Path, runs: int) -> float:
    """Best of `runs` verify_path times (s), after one warm-up."""
    if not verify_path(path).ok:
        raise SystemExit(f"pbem does not verify {path.name}")
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        verify_path(path)
        times.append(time.perf_counter() - started)
    return min(times)


def cold(path: Path, runs: int, env: dict[str, str]) -> float:
    """Median wall time (s) of `python -m pbem verify FILE` processes."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pbem", "verify", str(path)], capture_output=True, env=env
        )
        times.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise SystemExit(f"pbem verify {path.name} failed:\n{done.stderr.decode()}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each measure")
    args = parser.parse_args()

    # What a turn page carries of each save (its JSON data element, parsed as the page does).
    texts = {save.name: json.loads(packed_save(save.read_text(encoding="utf-8"))) for save in SAVES}
    entries = {save.name: len(parse_entries(save.read_bytes())) for save in SAVES}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as tmp:
        env["PBEM_CACHE"] = str(Path(tmp) / "pbem-cache")  # this run's cache, not the user's
        cold(SAVES[0], 1, env)  # fills the cache, as a first run does
        pbem_cold = {save.name: cold(save, args.runs, env) for save in SAVES}
    pbem_warm = {save.name: in_process(save, args.runs) for save in SAVES}
    browser, _ = in_browser(texts, warm=1, runs=args.runs)
    first, browser_cold = in_browser(texts, warm=0, runs=1)

    for name, result in {**browser, **first}.items():
        if result["status"] != "verified" or result["entries"] != entries[name]:
            raise SystemExit(f"the browser says of {name}: {result['status']} {result['why']}")

    print(f"{len(SAVES)} demo saves; {os.cpu_count()} CPUs; chromium: {CHROMIUM}")
    print(
        f"browser: best of {args.runs} in the page (after a warm-up pass); pbem in-process: "
        f"best of {args.runs} (after a warm-up); pbem cold: median of {args.runs} processes"
    )
    header = (
        f"{'save':28} {'entries':>7} {'browser ms':>10} {'pbem ms':>8} {'cold ms':>8}"
        f" {'browser e/s':>11} {'pbem e/s':>9} {'cold e/s':>9} {'÷pbem':>6} {'÷cold':>6}"
    )
    print(header)
    totals = [0, 0.0, 0.0, 0.0]
    rows = []
    for save in SAVES:
        name = save.name
        count = entries[name]
        seconds = (min(browser[name]["ms"]) / 1000, pbem_warm[name], pbem_cold[name])
        rows.append((name, count, *seconds))
        totals[0] += count
        for at, value in enumerate(seconds, 1):
            totals[at] += value
    rows.append(("total", *totals))
    for name, count, web, warm, start in rows:
        rates = [count / web, count / warm, count / start]
        print(
            f"{name:28} {count:7d} {web * 1000:10.1f} {warm * 1000:8.1f} {start * 1000:8.1f}"
            f" {rates[0]:11.0f} {rates[1]:9.0f} {rates[2]:9.0f}"
            f" {rates[0] / rates[1]:6.2f} {rates[0] / rates[2]:6.2f}"
        )
    name, count, web, warm, start = rows[-1]
    ratio = warm / web
    print(
        f"browser entries/s / pbem's (in-process), all saves: {ratio:.2f}: "
        f"{'reaches' if ratio >= 0.5 else 'does NOT reach'} half (0.5)"
    )
    print(
        f"browser entries/s / pbem's (cold processes), all saves: {start / web:.2f}: "
        f"{'reaches' if start / web >= 0.5 else 'does NOT reach'} half (0.5)"
    )
    in_page = sum(min(result["ms"]) for result in first.values()) / 1000
    print(
        f"browser cold, for information: one Chromium start verifying all {len(SAVES)} saves "
        f"once: {browser_cold:.2f} s wall ({in_page:.2f} s of it in pbemVerify, JIT cold); "
        f"{count / browser_cold:.0f} entries/s; the {len(SAVES)} `pbem verify FILE` "
        f"processes: {start:.2f} s, x{start / browser_cold:.2f}"
    )


if __name__ == "__main__":
    main()
