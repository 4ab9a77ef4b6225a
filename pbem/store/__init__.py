"""The local store: one SQLite file (through sqlite-utils) plus key files, under PBEM_HOME.

`Store` and `default_home` are loaded on first use, so that pbem.store.home (where the
store is) costs no more than itself."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pbem.store.store import Store, default_home

__all__ = ["Store", "default_home"]


def __getattr__(name: str) -> object:
    if name in __all__:
        from pbem.store import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
