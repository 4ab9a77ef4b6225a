"""A module whose code runs only when it is first used, named at the top of its importer;
and a regular expression compiled at its first use (`lazy_pattern`). A ground module (it
imports nothing of pbem): transport, crypto and the text escapes use it.

The decoders a move file may need are the standard library's heaviest parts on a `pbem
verify` path: the email package (pbem.transport.mime, a sixth of a cold verify) and
html.parser (pbem.transport.htmltext). A plain move file or save needs neither, and
which one a file needs is known only once it is read. `lazy_module` gives the module at
import time, as any import does, and runs its code at the first attribute read
(importlib's LazyLoader): no import hides inside a function, and nothing is paid
before it is needed.

A submodule's packages are lazy too, when they are not imported yet: finding a module
the usual way (importlib.util.find_spec) runs its package's code first, and the package
of ChaCha20-Poly1305 (cryptography.hazmat.primitives.ciphers) loads every cipher and
mode cryptography has, a tenth of a genesis's `pbem verify`. Each package is bound to
its submodule as an import binds it, and runs at its own first attribute read (its
`__path__` among them, which any other import of a submodule of it reads).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType

from pbem.hints import Any, cast


def lazy_module(name: str) -> ModuleType:
    """The module `name`, loaded now but run at its first attribute read (already
    imported: the module itself)."""
    return _lazy(name)[0]


def _lazy(name: str) -> tuple[ModuleType, ModuleSpec | None]:
    """The module `name` (lazy unless already imported), and its spec when it was made
    here (a lazy module's spec is read from it only by running it)."""
    found = sys.modules.get(name)
    if found is not None:
        return found, None
    package, _, child = name.rpartition(".")
    if package:
        parent, parent_spec = _lazy(package)
        # The package's search path, without running the package to read its __path__.
        spec_of_parent = parent_spec if parent_spec is not None else parent.__spec__
        path = None if spec_of_parent is None else spec_of_parent.submodule_search_locations
        if path is None:
            raise ModuleNotFoundError(f"no module named {name!r}: not a package", name=name)
        spec = _find(name, path)
    else:
        spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    if package:
        # As an import binds a submodule to its package. (Setting an attribute does not
        # run a lazy package; the value is kept when it runs.)
        setattr(sys.modules[package], child, module)
    return module, spec


def _find(name: str, path: list[str]) -> ModuleSpec | None:
    """The spec of submodule `name` in its package's `path`, as the import system finds it
    (each finder of sys.meta_path in turn), without importing the package."""
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        if find_spec is None:
            continue
        spec = find_spec(name, path, None)
        if spec is not None:
            return spec
    return None


class _Pattern:
    """A regular expression compiled at its first use: each method or attribute read
    (`match`, `sub`, `pattern`, ...) is the compiled pattern's own, kept on the object
    once read, so a later call costs what the compiled pattern's does."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        # (only for what the object does not hold yet)
        if name == "_source":  # (an object made without __init__, as copy makes one)
            raise AttributeError(name)
        found = getattr(re.compile(*self._source), name)
        self.__dict__[name] = found
        return found

    def __repr__(self) -> str:
        return repr(re.compile(*self._source))


def lazy_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, compiled at its first use. Compiling is most of the
    cost of importing a module with many patterns, and a command uses few of them: a
    genesis's `pbem verify` reads a plain move file, never a mailbox, HTML or a save's
    decorations. Not a `re.Pattern` (not for `isinstance`, nor for `re.sub(pattern, ...)`):
    for its methods and attributes only."""
    return cast("re.Pattern[str]", _Pattern(pattern, flags))
