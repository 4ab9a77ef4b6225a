"""Where the store lives, without loading the store (pbem.cli's fast paths ask it)."""

from __future__ import annotations

import os


def home_folder() -> str:
    """PBEM_HOME, else $XDG_DATA_HOME/pbem, else ~/.local/share/pbem."""
    if os.environ.get("PBEM_HOME"):
        return os.environ["PBEM_HOME"]
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(xdg, "pbem")
