"""The local store: one SQLite file (through sqlite-utils) plus key files, under PBEM_HOME."""

from pbem.store.store import Store, default_home

__all__ = ["Store", "default_home"]
