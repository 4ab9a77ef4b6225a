"""A module whose code runs only when it is first used, named at the top of its importer.
A ground module (it imports nothing of pbem): transport and crypto both use it.

The decoders a move file may need are the standard library's heaviest parts on a `pbem
verify` path: the email package (pbem.transport.mime, a sixth of a cold verify) and
html.parser (pbem.transport.htmltext). A plain move file or save needs neither, and
which one a file needs is known only once it is read. `lazy_module` gives the module at
import time, as any import does, and runs its code at the first attribute read
(importlib's LazyLoader): no import hides inside a function, and nothing is paid
before it is needed.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module `name`, loaded now but run at its first attribute read (already
    imported: the module itself)."""
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
