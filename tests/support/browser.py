"""The turn page's verifier (pbem/render/verifier.js, issue 18) run in headless Chromium,
Debian's package, on many texts at once: one page load for a whole batch.

`browser_verdicts({name: save text})` writes a page that holds the verifier and the texts,
lets Chromium (the session's one: tests/support/headless.py) run it with a virtual-time
budget (so it returns once the page is idle, all Web Crypto promises settled) and reads
the verdicts back from the DOM it dumps.
`page_verdicts({name: turn page})` opens whole turn pages, each in a frame of one page
(`srcdoc`: each under its own Content-Security-Policy, as when opened alone), and reads
back the verdict each page wrote: one page load for them all.
"""

from __future__ import annotations

import html
import json
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.render.png import chromium
from pbem.render.verifier import verifier_script
from tests.support.headless import open_page

CHROMIUM = chromium()
_OUT = re.compile(r'<pre id="out">(.*?)</pre>', re.S)

# A script that runs before the verifier in a test: `{prelude}` may replace browser
# features (e.g. take Ed25519 away from Web Crypto) to see what the verifier says then.
_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<pre id="out">running</pre>
<script type="application/json" id="inputs">{inputs}</script>
<script>{prelude}</script>
<script>{verifier}</script>
<script>
(async () => {{
  const inputs = JSON.parse(document.getElementById("inputs").textContent);
  const results = {{}};
  for (const [name, text] of Object.entries(inputs)) {{
    const started = performance.now();
    results[name] = await pbemVerify(text);
    results[name].ms = performance.now() - started;
    results[name].text = pbemVerdictText(results[name]);
  }}
  document.getElementById("out").textContent = JSON.stringify(results);
}})();
</script></body></html>"""


def script_json(value: Any) -> str:
    """JSON safe inside a <script> element (no `</script`, no `<!--`)."""
    return json.dumps(value).replace("<", "\\u003c")


def run_page(page: str, budget_ms: int = 120_000, timeout: float = 300) -> str:
    """The DOM of `page` after headless Chromium ran it until idle (or `budget_ms`)."""
    assert CHROMIUM is not None, "chromium is not installed (Debian package chromium)"
    with tempfile.TemporaryDirectory(prefix="pbem-browser-") as folder:
        path = Path(folder) / "page.html"
        path.write_text(page, encoding="utf-8")
        _shot, dom = open_page(
            path, width=1200, height=900, dump_dom=True, idle_ms=budget_ms, timeout=timeout
        )
        return dom


def browser_verdicts(texts: Mapping[str, str], prelude: str = "") -> dict[str, dict[str, Any]]:
    """name -> the verifier's verdict on that text (status, entries, dice, seq, by, why...)."""
    page = _PAGE.format(
        inputs=script_json(dict(texts)), prelude=prelude, verifier=verifier_script()
    )
    found = _OUT.search(run_page(page))
    assert found is not None, "the browser wrote no results"
    results: dict[str, dict[str, Any]] = json.loads(html.unescape(found.group(1)))
    return results


# Each turn page in a frame of its own; once every frame's verdict element has left its
# "pending" state (a MutationObserver, not a timer: virtual time would run a timer's
# polls out before the Web Crypto work settles), their verdicts are written out.
_FRAMES = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<pre id="out">running</pre>
<script type="application/json" id="pages">{pages}</script>
<script>
(async () => {{
  const pages = JSON.parse(document.getElementById("pages").textContent);
  const verdict = (frame) => new Promise((done) => {{
    frame.addEventListener("load", () => {{
      const doc = frame.contentDocument;
      const out = doc.getElementById("pbem-verdict");
      if (!out) return done({{ status: "no verdict element" }});
      const read = () => ({{ text: out.textContent, className: out.className, ...out.dataset }});
      if (!/\\bpending\\b/.test(out.className)) return done(read());
      new MutationObserver((_, observer) => {{
        if (/\\bpending\\b/.test(out.className)) return;
        observer.disconnect();
        done(read());
      }}).observe(out, {{ attributes: true, childList: true, characterData: true, subtree: true }});
    }});
  }});
  const waiting = {{}};
  for (const [name, page] of Object.entries(pages)) {{
    const frame = document.createElement("iframe");
    waiting[name] = verdict(frame);
    frame.srcdoc = page;
    document.body.appendChild(frame);
  }}
  const results = {{}};
  for (const [name, found] of Object.entries(waiting)) results[name] = await found;
  document.getElementById("out").textContent = JSON.stringify(results);
}})();
</script></body></html>"""


def page_verdicts(pages: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """name -> what that turn page's verdict element says once its script ran: `text`,
    `className` and its data attributes (`status`, `headSeq`, `headId`, ...)."""
    found = _OUT.search(run_page(_FRAMES.format(pages=script_json(dict(pages)))))
    assert found is not None, "the browser wrote no results"
    results: dict[str, dict[str, Any]] = json.loads(html.unescape(found.group(1)))
    return results
