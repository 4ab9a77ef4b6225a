"""The map as PNG, for mail clients that show no SVG: drawn by a headless Chromium.

No Python library converts SVG faithfully without a native drawing stack of its own
(docs/dependencies.md says why we add none), while a browser is what draws the SVG for
every player anyway: so the PNG is a screenshot of the same SVG by the Chromium on this
machine, when there is one (Debian's `chromium`, or one named by $PBEM_CHROMIUM). Without
one, `pbem render --format png` refuses in one line.

The browser runs headless with a profile of its own in a private temporary folder, no
network features, and reads a page whose Content-Security-Policy forbids every fetch.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from pbem.errors import PbemError

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TIMEOUT = 60  # seconds: a first start on a cold disk can be slow

# What every headless run gets: no sandbox (it fails as root and in containers), no GPU,
# nothing that talks to the network by itself, a throwaway profile.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)


def chromium() -> str | None:
    """The headless browser to use: $PBEM_CHROMIUM, else the first found on PATH."""
    named = os.environ.get("PBEM_CHROMIUM")
    if named:
        return shutil.which(named) or (named if os.access(named, os.X_OK) else None)
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def run_headless(
    page: Path,
    *,
    width: int,
    height: int,
    screenshot: Path | None = None,
    dump_dom: bool = False,
    browser: str | None = None,
    idle_ms: int | None = None,
    timeout: float = TIMEOUT,
) -> str:
    """Open `page` (a local file) in a headless Chromium of `width` x `height` pixels;
    write a screenshot to `screenshot` and/or return the DOM after layout (`dump_dom`).
    `idle_ms`: let the page's scripts run until it is idle, for at most that much
    virtual time (the turn page's verifier: its Web Crypto promises all settle)."""
    found = browser or chromium()
    if found is None:
        raise PbemError("no Chromium found to draw a PNG (install chromium, or set PBEM_CHROMIUM)")
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as profile:
        command = [
            found,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
        ]
        if screenshot is not None:
            command.append(f"--screenshot={screenshot}")
        if dump_dom:
            command.append("--dump-dom")
        if idle_ms is not None:
            command.append(f"--virtual-time-budget={idle_ms}")
        command.append(page.resolve().as_uri())
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=timeout, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PbemError(f"Chromium could not draw the page: {exc}") from None
    if screenshot is not None and not screenshot.is_file():
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise PbemError(f"Chromium wrote no screenshot (exit {done.returncode}): {last}")
    return done.stdout


def svg_size(svg: str) -> tuple[int, int]:
    """The pixel size an SVG asks for (its root's width and height), rounded up."""
    head = svg[: svg.find(">") + 1]
    sizes = []
    for name in ("width", "height"):
        match = re.search(rf'\s{name}="([0-9.]+)"', head)
        if match is None:
            raise PbemError(f"the map has no {name} to draw it at")
        sizes.append(max(1, int(-(-float(match.group(1)) // 1))))
    return sizes[0], sizes[1]


def svg_to_png(svg: str) -> bytes:
    """The SVG drawn at its own size on white, as PNG bytes."""
    width, height = svg_size(svg)
    with tempfile.TemporaryDirectory(prefix="pbem-png-") as folder:
        page = Path(folder) / "map.html"
        page.write_text(
            '<!DOCTYPE html><html><head><meta charset="utf-8">'
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\';'
            " style-src 'unsafe-inline'\">"
            "<style>html,body{margin:0;padding:0;background:#fff;overflow:hidden}"
            "svg{display:block}</style></head><body>" + svg + "</body></html>",
            encoding="utf-8",
        )
        out = Path(folder) / "map.png"
        run_headless(page, width=width, height=height, screenshot=out)
        return out.read_bytes()
