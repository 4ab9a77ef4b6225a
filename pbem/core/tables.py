"""A game's data tables, parsed once per process for every game of a title that has the
same files (and, through a `TableStore`, kept for the next process): `load_data_cached`.

The adjudicator reads the tables a genesis names by their digests (`DataSource`) and
hands each game its own copy, so no game can change another's tables.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Hashable, Mapping

from pbem.core.engine import Engine
from pbem.core.hashing import sha256
from pbem.hints import TYPE_CHECKING, Any, Protocol
from pbem.lazy import lazy_module

if TYPE_CHECKING:  # types only: a Protocol class costs import time (every `pbem verify`)

    class TableStore(Protocol):
        """A second level for the tables cache, kept outside the process (pbem.ledger's
        keeps them on disk for the next process): marshal snapshots, by engine and key."""

        def get(self, engine: Engine, key: Hashable) -> bytes | None: ...

        def put(self, engine: Engine, key: Hashable, snapshot: bytes) -> None: ...


# (copy imports weakref: both run at the first copy, which a genesis alone never makes)
copy = lazy_module("copy")

# (engine, genesis data table name -> sha256 hex) -> file name -> bytes
DataSource = Callable[[Engine, Mapping[str, str]], Mapping[str, bytes]]


# Parsed data tables per engine and data files (by content digest). Parsing and checking
# a game's TOML files is a fifth of verifying a berlin-1945 save (bench/hotspots.py);
# every game of a title with the same files gets its own copy of one parse, so no game
# can change another's tables. A pure cache: the same bytes always give the same tables.
# Tables made of plain data (dicts, lists, strings, numbers: every shipped game's) are
# kept as a marshal snapshot, which gives a fresh copy four times faster than deepcopy;
# anything else is kept as is and deep-copied, as before.
_DATA_CACHE: dict[tuple[str, str, tuple[tuple[str, str], ...]], tuple[Any, bytes | None]] = {}
_DATA_CACHE_SIZE = 16


def _snapshot(tables: Any) -> bytes | None:
    """A marshal snapshot of `tables` that loads back equal, else None."""
    try:
        snapshot = marshal.dumps(tables)
    except ValueError:  # a type marshal does not know (a dataclass, a subclass): deepcopy
        return None
    # Equal after the round trip, or no snapshot (a NaN, say, is never equal to itself).
    return snapshot if marshal.loads(snapshot) == tables else None


def data_key(
    engine: Engine, files: Mapping[str, bytes]
) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """What parsed tables depend on: the engine, its version and the files' digests."""
    digests = tuple(sorted((name, data_digest(content)) for name, content in files.items()))
    return engine.name, engine.version, digests


def load_data_cached(
    engine: Engine, files: Mapping[str, bytes], store: TableStore | None = None, lazy: bool = False
) -> Any:
    """The parsed tables of `files` (`lazy`: as Unloaded when they are a snapshot already,
    from this process's cache or `store`)."""
    key = data_key(engine, files)
    found = _DATA_CACHE.get(key)
    if found is None:
        if len(_DATA_CACHE) >= _DATA_CACHE_SIZE:
            _DATA_CACHE.pop(next(iter(_DATA_CACHE)))
        kept = store.get(engine, key) if store is not None else None
        if kept is not None and lazy:
            return Unloaded(kept, lambda: load_data_cached(engine, files, store))
        if kept is not None:
            try:
                tables = marshal.loads(kept)
            except (ValueError, EOFError, TypeError):
                pass  # not a snapshot after all: parse the files
            else:
                _DATA_CACHE[key] = (None, kept)
                return tables
        loaded = engine.load_data(files)  # a DataError is raised, never cached
        snapshot = _snapshot(loaded)
        if snapshot is not None:
            _DATA_CACHE[key] = (None, snapshot)
            if store is not None:
                store.put(engine, key, snapshot)
            return loaded  # the cache holds its own copy, the snapshot
        _DATA_CACHE[key] = (loaded, None)
        found = _DATA_CACHE[key]
    tables, snapshot = found
    if snapshot is not None:
        if lazy:
            return Unloaded(snapshot, lambda: load_data_cached(engine, files, store))
        return marshal.loads(snapshot)
    return copy.deepcopy(tables)


class Unloaded:
    """A game's tables not unmarshalled yet: a genesis alone never reads them (its engine
    sets up the game at the last join), and unmarshalling Gotterdammerung's, then freeing
    them, is a tenth of its genesis's `pbem verify`. `load()` gives what load_data_cached
    would have given (the snapshot unmarshalled, a game's own copy; a snapshot that does
    not load: the files parsed, by `fallback`), the same object every time. Equal to the
    tables it stands for, and shown as them, so that a Replay holding it compares and
    shows as one holding them (pbem.core.adjudicator's `data` loads it on first read)."""

    __slots__ = ("_snapshot", "_fallback", "_value")

    def __init__(self, snapshot: bytes, fallback: Callable[[], Any]) -> None:
        self._snapshot: bytes | None = snapshot
        self._fallback: Callable[[], Any] | None = fallback
        self._value: Any = None

    def load(self) -> Any:
        if self._snapshot is not None:
            try:
                self._value = marshal.loads(self._snapshot)
            except (ValueError, EOFError, TypeError):  # not a snapshot after all: parse
                assert self._fallback is not None
                self._value = self._fallback()
            self._snapshot = self._fallback = None
        return self._value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Unloaded):
            other = other.load()
        return bool(self.load() == other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.load())


# The digests of the last files hashed, by the very bytes object (kept here, so its id is
# never another's): a genesis's data files are hashed to be checked against the genesis
# (pbem.ledger.data_source) and again for their tables' key, the same objects both times.
# Bytes never change, so a digest found here is the one hashing would give.
_DIGESTS: dict[int, tuple[bytes, str]] = {}
_DIGESTS_SIZE = 8


def data_digest(content: bytes) -> str:
    found = _DIGESTS.get(id(content))
    if found is not None and found[0] is content:
        return found[1]
    digest = sha256(content).hex()
    if type(content) is bytes:  # (immutable: a bytearray could change)
        if len(_DIGESTS) >= _DIGESTS_SIZE:
            _DIGESTS.pop(next(iter(_DIGESTS)))
        _DIGESTS[id(content)] = (content, digest)
    return digest
