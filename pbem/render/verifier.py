"""The turn page's own verifier (issue 18): `verifier.js`, a second implementation of
protocol section 7 in JavaScript, inlined into every turn page with the save text of the
game it shows, so that any browser checks that game when the page opens, offline.

The page's Content-Security-Policy allows that one script by its SHA-256 (`csp_source`)
and nothing else: no other script, no fetch, no connection. docs/page-verifier.md says
what it checks and what it leaves to pbem (the rules).
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from pathlib import Path

_SCRIPT = Path(__file__).with_name("verifier.js")


@cache
def verifier_script() -> str:
    """The verifier's source, as the page inlines it."""
    return _SCRIPT.read_text(encoding="utf-8")


def csp_source() -> str:
    """The CSP source that allows exactly the inlined verifier: 'sha256-...'."""
    digest = hashlib.sha256(verifier_script().encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
