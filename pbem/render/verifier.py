"""The turn page's scripts. Its own verifier (issue 18): `verifier.js`, a second implementation of
protocol section 7 in JavaScript, inlined into every turn page with the save text of the
game it shows, so that any browser checks that game when the page opens, offline.

And, on a page whose map is large, `mapdraw.js`, which draws the map from the gzip the
page carries (issue 29: pbem.render.page.packed_map).

The page's Content-Security-Policy allows these scripts by their SHA-256 (`csp_source`)
and nothing else: no other script, no fetch, no connection. docs/page-verifier.md says
what the verifier checks and what it leaves to pbem (the rules).
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from pathlib import Path

_SCRIPT = Path(__file__).with_name("verifier.js")
_MAP_SCRIPT = Path(__file__).with_name("mapdraw.js")


@cache
def verifier_script() -> str:
    """The verifier's source, as the page inlines it."""
    return _SCRIPT.read_text(encoding="utf-8")


@cache
def map_script() -> str:
    """The script that draws a packed map, as the page inlines it."""
    return _MAP_SCRIPT.read_text(encoding="utf-8")


def _source(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def csp_source() -> str:
    """The CSP sources that allow exactly the inlined verifier and the map's script:
    'sha256-...' 'sha256-...'."""
    return f"{_source(verifier_script())} {_source(map_script())}"
