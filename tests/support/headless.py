"""One headless Chromium for the test session, driven over its DevTools pipe.

The browser tests opened their pages with `pbem.render.png.run_headless`, one Chromium
start per page: some forty starts, most of the browser tests' time (a start costs more
CPU than drawing a page). Here one Chromium, started on first use, opens every page the
tests ask for: each page that runs pbem's scripts in a browser context of its own (a new
profile in memory: no cache, storage, cookie or history shared with any page before it)
and a new tab, closed after; a drawing or a test's own measuring page in one tab kept for
them (`Headless.open` says why that shares nothing a page reads).
What a test reads is what `run_headless` gave it: the DOM after layout (`--dump-dom`
reads the same `outerHTML`), a PNG screenshot of a window of the size asked (a viewport
of that size, at scale 1), and for `idle_ms` the page's scripts run until it is idle or
that much virtual time has passed (`--virtual-time-budget`, the same DevTools policy).

`pbem render --format png` still starts Chromium its own way: tests/render/test_html_page.py
runs that command. A browser that stops answering or dies is killed, and the next page
starts a new one (a failure is never carried into another test's page).

The pipe (`--remote-debugging-pipe`): Chromium reads commands on fd 3 and writes answers
and events on fd 4, each a JSON message ended by a NUL byte.
"""

from __future__ import annotations

import atexit
import base64
import fcntl
import json
import os
import select
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from pbem.render.png import FLAGS, chromium


def _above_9(fd: int) -> int:
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class BrowserGone(RuntimeError):
    """Chromium died or did not answer in time."""


class Headless:
    """A running headless Chromium and the DevTools session to it."""

    def __init__(self, browser: str) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="pbem-chromium-")
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()
        # The child's ends above fd 9 (close-on-exec, as every descriptor Python makes):
        # dup2 onto 3 and 4 then never meets one of them there (dup2 of a descriptor onto
        # itself would keep it close-on-exec, and one moved first could overwrite the other).
        commands_read = _above_9(commands_read)
        answers_write = _above_9(answers_write)

        def as_fds_3_and_4() -> None:  # (in the child, before exec)
            os.dup2(commands_read, 3)
            os.dup2(answers_write, 4)

        self._process = subprocess.Popen(
            [
                browser,
                *FLAGS,
                f"--user-data-dir={self._profile.name}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=as_fds_3_and_4,
            close_fds=False,  # (Python's own descriptors are close-on-exec; 3 and 4 are not)
        )
        os.close(commands_read)
        os.close(answers_write)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        self._plain: str | None = None  # the session of the tab for pages without scripts

    # --- the pipe -----------------------------------------------------------------------------

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                raise BrowserGone("Chromium did not answer in time")
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                raise BrowserGone("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        found: dict[str, Any] = json.loads(message)
        if "id" not in found:
            self._events.append(found)
        return found

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session: str | None = None,
        timeout: float = 60,
    ) -> dict[str, Any]:
        self._next_id += 1
        sent = self._next_id
        message: dict[str, Any] = {"id": sent, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._commands, data) :]
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read(deadline)
            if answer.get("id") == sent:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result

    def _wait_for(self, event: str, session: str, deadline: float) -> None:
        while True:
            for n, seen in enumerate(self._events):
                if seen.get("method") == event and seen.get("sessionId") == session:
                    del self._events[n]
                    return
            self._read(deadline)

    # --- pages --------------------------------------------------------------------------------

    def open(
        self,
        page: Path,
        *,
        width: int,
        height: int,
        screenshot: bool = False,
        dump_dom: bool = False,
        idle_ms: int | None = None,
        timeout: float = 120,
    ) -> tuple[bytes | None, str]:
        """(PNG screenshot or None, DOM or "") of the local file `page` in a window of
        `width` x `height`, once it has loaded (and with `idle_ms`, once its scripts are
        idle or that much virtual time has passed).

        A page with `idle_ms` (a turn page, a verifier's page: pbem's own scripts at work)
        opens in a new tab of a new browser context, closed after. One without (a map
        drawn, a test's own page measuring pixels: no storage, no timer, nothing a later
        page reads) is loaded in place of the one before in one tab kept for them, whose
        virtual time is never set: a new tab and its renderer cost twice the page."""
        deadline = time.monotonic() + timeout
        if idle_ms is None:
            session = self._plain_tab()
            return self._load(page, session, width, height, screenshot, dump_dom, None, deadline)
        context = self.send("Target.createBrowserContext")["browserContextId"]
        target = self.send(
            "Target.createTarget", {"url": "about:blank", "browserContextId": context}
        )["targetId"]
        try:
            session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
                "sessionId"
            ]
            self.send("Page.enable", session=session)
            return self._load(page, session, width, height, screenshot, dump_dom, idle_ms, deadline)
        finally:
            self.send("Target.closeTarget", {"targetId": target})
            self.send("Target.disposeBrowserContext", {"browserContextId": context})

    def evaluate(self, expression: str, timeout: float = 900) -> Any:
        """The value of `expression` in the tab kept for plain pages (the page `open` last
        loaded there), a promise awaited, in real time: for a bench that times a page's
        scripts with performance.now(), which virtual time (`idle_ms`) would stop."""
        found = self.send(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
            session=self._plain_tab(),
            timeout=timeout,
        )
        if "exceptionDetails" in found:
            raise RuntimeError(f"{expression}: {found['exceptionDetails']}")
        return found["result"].get("value")

    def _plain_tab(self) -> str:
        if self._plain is None:
            context = self.send("Target.createBrowserContext")["browserContextId"]
            target = self.send(
                "Target.createTarget", {"url": "about:blank", "browserContextId": context}
            )["targetId"]
            session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
                "sessionId"
            ]
            self.send("Page.enable", session=session)
            self._plain = session
        return self._plain

    def _load(
        self,
        page: Path,
        session: str,
        width: int,
        height: int,
        screenshot: bool,
        dump_dom: bool,
        idle_ms: int | None,
        deadline: float,
    ) -> tuple[bytes | None, str]:
        self._events.clear()
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            session=session,
        )
        if idle_ms is not None:  # (virtual time starts with the navigation)
            self.send("Emulation.setVirtualTimePolicy", {"policy": "pause"}, session=session)
        self.send("Page.navigate", {"url": page.resolve().as_uri()}, session=session)
        if idle_ms is not None:
            self.send(
                "Emulation.setVirtualTimePolicy",
                {"policy": "pauseIfNetworkFetchesPending", "budget": idle_ms},
                session=session,
            )
            self._wait_for("Emulation.virtualTimeBudgetExpired", session, deadline)
        self._wait_for("Page.loadEventFired", session, deadline)
        shot = None
        if screenshot:
            # (encoded for speed: the same pixels in more bytes; what the tests read are
            # the pixels, and a person the screenshots bench/screens/ keeps)
            data = self.send(
                "Page.captureScreenshot",
                {"format": "png", "optimizeForSpeed": True},
                session=session,
            )
            shot = base64.b64decode(data["data"])
        dom = ""
        if dump_dom:
            found = self.send(
                "Runtime.evaluate",
                {"expression": "document.documentElement.outerHTML", "returnByValue": True},
                session=session,
            )
            dom = str(found["result"]["value"])
        return shot, dom

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
            self._process.wait(timeout=10)
        except (BrowserGone, RuntimeError, OSError, subprocess.TimeoutExpired):
            self._process.kill()
            self._process.wait()
        finally:
            os.close(self._commands)
            os.close(self._answers)
            self._profile.cleanup()


_shared: Headless | None = None


def open_page(
    page: Path,
    *,
    width: int,
    height: int,
    screenshot: bool = False,
    dump_dom: bool = False,
    idle_ms: int | None = None,
    timeout: float = 120,
) -> tuple[bytes | None, str]:
    """`Headless.open` in the session's one browser (started on first use). A browser
    that fails is closed: the next page gets a new one."""
    global _shared
    if _shared is None:
        found = chromium()
        assert found is not None, "chromium is not installed (Debian package chromium)"
        _shared = Headless(found)
        atexit.register(close_shared)  # (and tests/render/conftest.py, at the session's end)
    try:
        return _shared.open(
            page,
            width=width,
            height=height,
            screenshot=screenshot,
            dump_dom=dump_dom,
            idle_ms=idle_ms,
            timeout=timeout,
        )
    except BaseException:
        close_shared()
        raise


def close_shared() -> None:
    """Stop the session's browser, if one was started (tests/conftest.py, at the end)."""
    global _shared
    if _shared is not None:
        browser, _shared = _shared, None
        browser.close()
