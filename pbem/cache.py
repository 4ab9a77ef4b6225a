"""A small on-disk cache of pure, derived results, to make a command's cold start cheaper.

What it keeps is only ever what pbem would compute again from the same inputs: a game's
parsed data tables, the help text click renders. (The facts an engine declares about
itself are declared beside its registration: pbem.games.) Each entry records the files its
result was derived from, with their modification time and size, exactly what Python
checks before it uses a `.pyc`; an entry whose files changed, moved or vanished is
ignored and computed again. So a cache entry is never trusted beyond what a bytecode
file is, and a result read from it is always the one computing would give.

Where: `$PBEM_CACHE` if set (an empty value turns the cache off), else `cache` in
`$PBEM_HOME` (the store folder) if that is set, else `$XDG_CACHE_HOME/pbem`, else
`~/.cache/pbem`. The folder is made owner-only (0700), every entry is written atomically
and owner-only (0600), and a file that is not the user's own, or that others may write,
is never read. Nothing secret is ever cached. Failing to read or write the cache is
never an error: the result is computed instead.
"""

from __future__ import annotations

import marshal
import os
import sys

# Reading an entry (`pbem --help` from the cache) imports nothing the interpreter has not
# loaded already: not even typing (mypy reads the block below; Python never runs it).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

# One entry: (format, (install, key), deps, value), marshalled. deps: ((path, mtime_ns,
# size), ...)
_FORMAT = 3
# Which pbem wrote an entry: its package folder. Two installs (two checkouts, two virtual
# environments) may share one user cache, and an entry's deps are the files of the
# install that wrote it; without this, one install would read what another's code made
# as long as the other's files stayed unchanged.
_INSTALL = os.path.dirname(os.path.abspath(__file__))
# A shipped entry (pbem.prebuilt): (format, key, sources, value), its sources checked by
# content wherever pbem is installed, so it names no install.
_PREBUILT_FORMAT = 2
_MAX_SIZE = 8 * 1024 * 1024  # an entry bigger than this is not ours


def folder() -> str | None:
    """The cache folder, or None when caching is off (PBEM_CACHE set empty, or a system
    without POSIX file ownership and modes to keep entries private with)."""
    if os.name != "posix":
        return None
    explicit = os.environ.get("PBEM_CACHE")
    if explicit is not None:
        return explicit or None
    home = os.environ.get("PBEM_HOME")
    if home:  # everything pbem keeps for this user, together (and tests stay isolated)
        return os.path.join(home, "cache")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pbem")


def file_state(path: str) -> tuple[str, int, int] | None:
    """(path, mtime_ns, size) of a file, as a dependency; None if it cannot be read."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return path, status.st_mtime_ns, status.st_size


def deps_of(paths: Iterable[str]) -> tuple[tuple[str, int, int], ...] | None:
    """The dependency records of `paths` (None if any cannot be read)."""
    deps = []
    for path in sorted(set(paths)):
        state = file_state(path)
        if state is None:
            return None
        deps.append(state)
    return tuple(deps)


def module_files(prefix: str) -> list[str]:
    """The source files of every loaded module named `prefix` or `prefix.*`."""
    found = []
    for name, module in list(sys.modules.items()):
        if name == prefix or name.startswith(prefix + "."):
            path = getattr(module, "__file__", None)
            if isinstance(path, str):
                found.append(path)
    return found


def _path(kind: str, key: Any) -> str | None:
    where = folder()
    if where is None:
        return None
    # The key names the entry; the interpreter's version is part of it, since marshal's
    # format (and what a module means) may change between versions. repr, not marshal:
    # marshal's bytes for equal values differ with how the values are shared in memory.
    # So is the install: each keeps its own entry, not one overwriting the other's.
    name = repr((_FORMAT, sys.version, _INSTALL, kind, key)).encode("utf-8", "backslashreplace")
    return os.path.join(where, f"{kind}-{_fnv1a(name):016x}")


def _fnv1a(data: bytes) -> int:
    """64-bit FNV-1a: an entry's file name from its key without importing hashlib (its
    OpenSSL load is a tenth of a fast start). A collision costs nothing but a miss: an
    entry holds its whole key, compared before it is used."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def get(kind: str, key: Any) -> Any:
    """The value cached for (kind, key) if every file it depends on is unchanged, else None."""
    path = _path(kind, key)
    if path is None:
        return None
    data = read_private(path, _MAX_SIZE)
    if data is None:
        return None
    try:
        fmt, stored_key, deps, value = marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
    if fmt != _FORMAT or stored_key != (_INSTALL, key):
        return None
    for dep in deps:
        if file_state(dep[0]) != tuple(dep):
            return None
    return value


def put(kind: str, key: Any, deps: tuple[tuple[str, int, int], ...] | None, value: Any) -> None:
    """Cache `value` for (kind, key), valid while the files of `deps` stay unchanged.

    `value` must be plain data (what marshal writes); nothing is cached without deps.
    """
    path = _path(kind, key)
    if path is None or deps is None:
        return
    try:
        data = marshal.dumps((_FORMAT, (_INSTALL, key), deps, value))
    except ValueError:
        return
    write_private(path, data)


def derived(kind: str, name: str, key: Any, make: Callable[[], Any]) -> Any:
    """`make()`, a pure function of pbem's code and of what `key` names (say the digests of
    the data files it reads), from the user's cache (valid while every pbem module loaded
    when it was kept is unchanged), else from what pbem ships for (kind, `name`, `key`)
    (pbem.prebuilt; valid while its sources have their content), else made and kept.
    `make` must give plain data that marshal writes and reads back equal, never None."""
    found = get(kind, key)
    if found is None:
        found = prebuilt(kind, name, key)
    if found is None:
        found = make()
        try:
            same = marshal.loads(marshal.dumps(found)) == found
        except ValueError:  # not plain data: never kept
            same = False
        if same:
            put(kind, key, deps_of(module_files("pbem")), found)
    return found


def read_private(path: str, max_size: int) -> bytes | None:
    """The bytes of `path` if it is this user's own file, that nobody else may have
    written, of at most `max_size` bytes; else (or unreadable) None."""
    try:
        with open(path, "rb") as stream:
            status = os.fstat(stream.fileno())
            if status.st_uid != os.getuid() or status.st_mode & 0o022:
                return None
            if status.st_size > max_size:
                return None
            return stream.read()
    except OSError:
        return None


def write_private(path: str, data: bytes) -> None:
    """Write `data` to `path` whole or not at all, readable by this user alone; a cache
    that cannot be written is only a cache not kept (an OSError is passed over)."""
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        # O_EXCL: never write through a file (or a link) someone else put there.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as stream:
                stream.write(data)
            os.replace(tmp, path)  # whole or not at all
        except BaseException:
            import contextlib  # (only when writing failed)

            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError:
        return


# --- shipped with pbem: what a first run would otherwise build ------------------------------
# The same kind of results, made when pbem is built (`python -m pbem.prebuilt`) and shipped
# in pbem/prebuilt/, so that a first run (an empty cache, or none) need not build them.
# Mtimes do not survive an install, so an entry records the content (`source_digest`) of
# every source file it was derived from, by package and path inside it, and is used only
# while each of them still has that content: a result read from it is always the one computing
# would give, as with the entries above. tests/core/test_prebuilt.py holds the shipped
# entries equal to what `python -m pbem.prebuilt` would write.

_PREBUILT = os.path.join(os.path.dirname(__file__), "prebuilt")


def prebuilt_path(kind: str, name: str) -> str:
    return os.path.join(_PREBUILT, f"{kind}-{name}.marshal")


def prebuilt(kind: str, name: str, key: Any, cache_key: Any = None) -> Any:
    """The value shipped for (kind, key) under `name`, if every source file it was derived
    from is unchanged, else None. A value found is also kept in the user's cache, under
    (kind, `cache_key` or `key`), depending on those files as any entry does (by time
    and size): the next process reads it there without reading its sources."""
    try:
        with open(prebuilt_path(kind, name), "rb") as stream:
            data = stream.read(_MAX_SIZE + 1)
        if len(data) > _MAX_SIZE:
            return None
        fmt, stored_key, sources, value = marshal.loads(data)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if fmt != _PREBUILT_FORMAT or stored_key != key:
        return None
    roots: dict[str, str | None] = {}
    deps = []
    for package, relative, digest in sources:
        if package not in roots:
            roots[package] = _package_root(package)
        root = roots[package]
        if root is None:
            return None
        path = os.path.join(root, relative)
        try:
            with open(path, "rb") as stream:
                status = os.fstat(stream.fileno())
                content = stream.read()
        except OSError:
            return None
        if source_digest(content) != digest:
            return None
        deps.append((path, status.st_mtime_ns, status.st_size))
    put(kind, key if cache_key is None else cache_key, tuple(sorted(deps)), value)
    return value


def source_digest(content: bytes) -> str:
    """The digest a shipped entry records of a source file: BLAKE2b (256 bits), built into
    the interpreter. hashlib's sha256 would load OpenSSL, about a twentieth of a first
    run's `pbem verify`, and hash the half megabyte of sources a game's tables come from
    more slowly."""
    return content_digest(content).hex()


def content_digest(content: bytes) -> bytes:
    """BLAKE2b (256 bits) of `content`: what the cache's files check themselves by, with
    the interpreter's own BLAKE2 (no OpenSSL loaded, fast on a megabyte)."""
    try:  # (only when a shipped entry or a kept file is read or made: not for `pbem --help`)
        from _blake2 import blake2b
    except ImportError:  # (a Python without its built-in BLAKE2: hashlib's, from OpenSSL)
        from hashlib import blake2b
    return blake2b(content, digest_size=32).digest()


def _package_root(package: str) -> str | None:
    """The folder of a top-level package, found as an import would find it but without
    importing it (None: not found, or not a folder of files)."""
    loaded = sys.modules.get(package)
    paths = getattr(loaded, "__path__", None)
    if paths is None:
        from importlib.machinery import PathFinder

        spec = PathFinder.find_spec(package)
        paths = None if spec is None else spec.submodule_search_locations
    for path in paths or ():
        return str(path)
    return None


def sources_of(packages: Iterable[str]) -> tuple[tuple[str, str, str], ...]:
    """(package, path inside it, source_digest) of every loaded module's source file of the
    top-level `packages`: what an entry made now is derived from."""
    found = set()
    for package in packages:
        root = _package_root(package)
        if root is None:
            continue
        for path in module_files(package):
            relative = os.path.relpath(path, root)
            with open(path, "rb") as stream:
                found.add((package, relative, source_digest(stream.read())))
    return tuple(sorted(found))


def prebuild(key: Any, sources: tuple[tuple[str, str, str], ...], value: Any) -> bytes:
    """The bytes of a shipped entry (what pbem.prebuilt writes)."""
    return marshal.dumps((_PREBUILT_FORMAT, key, sources, value))
