"""A snapshot of a stored game's replay, kept in the user's cache folder, so that a command
on one game (`pbem show`, `move --dry-run`, `render`, `apply` of one entry) does not check
every signature and rule of its log again.

What it holds is what replaying the store's entries gave (`pbem.core.replay.Replay`'s
fields, pickled), nothing else: the entries, the engine state and what was derived from
the public log. No secret is in it that the store does not hold in the clear (protocol
section 8): a role's own secrets are added to a state only when it is shown
(`Client.state_for`), never kept in the replay. The engine, its data tables and the
signature check are not pickled: they are made again as `Adjudicator.start` makes them.

Keyed and invalidated like pbem.cache's entries, and more:
- one file per game (`replay-GAMEID`), its header naming the game id, the rules and their
  version, pbem's version, the snapshot format and the interpreter's version: any that
  differs and the file is ignored;
- the files of the code that made it (every loaded pbem module, with mtime and size, as
  Python checks a `.pyc`): any changed, moved or gone and it is ignored;
- the head it was taken at (seq, canonical bytes, signature): used only while the store
  holds that very entry at that seq. An entry's id is the hash of its bytes, which name
  the previous entry's id, so the head fixes every entry before it; entries stored since
  are applied on top as a replay would;
- a SHA-256 of the pickled bytes, checked before they are unpickled: a file changed by
  a byte (a torn write, a bad disk) is ignored.
The file is written atomically, owner-only, and read only when it is the user's own and
nobody else may write it (like the bytecode Python runs). A snapshot that cannot be read
for any reason is absent, never an error: the game is replayed instead.

`pbem verify` never reads one: it replays what it is given (pbem.verify).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import pickle
import sys
from typing import TYPE_CHECKING, Any

from pbem import __version__ as PBEM_VERSION
from pbem import cache
from pbem.core.replay import FIELDS, MEMOS

if TYPE_CHECKING:
    from collections.abc import Callable

    from pbem.core.adjudicator import Adjudicator
    from pbem.core.log import Entry

FORMAT = 1  # of the file and of what it pickles: change it when either changes
# (2: the payload checked by BLAKE2b, not SHA-256; a snapshot of the first kind is not read)
_MAGIC = b"pbem-replay2\n"
_MAX_SIZE = 256 * 1024 * 1024  # a file bigger than this is not ours
# Rebuilt on load, never pickled: code (the engine, the signature check, a sink) and the
# data tables (derived from the data files, kept by pbem.core.tables).
_REBUILT = ("engine", "data", "check_signature", "rng_sink")
_KEPT = tuple(name for name in FIELDS if name not in _REBUILT and name not in MEMOS)

# How many entries a replay must have applied before it is worth a new snapshot: below
# this, applying them on the last snapshot costs less than writing one.
SAVE_AFTER = 8


def _path(game_id: str) -> str | None:
    where = cache.folder()
    if where is None or not game_id.isalnum():
        return None
    return os.path.join(where, f"replay-{game_id}")


def _key(genesis: Entry) -> tuple[Any, ...]:
    body = genesis.body
    return (
        FORMAT,
        sys.version,
        PBEM_VERSION,
        genesis.id,
        str(body.get("rules")),
        str(body.get("rules_version")),
    )


def save(game: Adjudicator) -> None:
    """Keep a snapshot of `game`, a replay of a store's entries (never one with an entry
    not yet stored): failing to is never an error."""
    path = _path(game.id)
    if path is None or game.lean or game.rng_sink is not None:
        return
    deps = cache.deps_of(cache.module_files("pbem"))
    if deps is None:
        return
    try:
        payload = pickle.dumps({name: game.__dict__[name] for name in _KEPT}, protocol=5)
    except Exception:  # an engine state that does not pickle: no snapshot
        return
    head = game.head
    header = marshal.dumps(
        (
            _key(game.genesis),
            deps,
            (head.seq, head.canonical, head.signature),
            cache.content_digest(payload),
        )
    )
    data = _MAGIC + len(header).to_bytes(8, "big") + header + payload
    if len(data) > _MAX_SIZE:
        return
    cache.write_private(path, data)


def load(
    genesis: Entry,
    stored_at: Callable[[int], tuple[bytes, bytes] | None],
    rebuild: Callable[[Entry], Adjudicator],
) -> Adjudicator | None:
    """The game of `genesis` as its snapshot holds it, or None (no valid snapshot).

    `stored_at(seq)`: the (canonical, signature) the store holds at `seq`, or None;
    `rebuild(genesis)`: a fresh Adjudicator of the game (its engine, data and signature
    check), whose replayed fields the snapshot's replace."""
    path = _path(genesis.id)
    if path is None:
        return None
    data = cache.read_private(path, _MAX_SIZE)  # only the user's own, nobody else's
    if data is None or not data.startswith(_MAGIC):
        return None
    try:
        start = len(_MAGIC) + 8
        size = int.from_bytes(data[len(_MAGIC) : start], "big")
        key, deps, head, digest = marshal.loads(data[start : start + size])
        payload = data[start + size :]
        seq, canonical, signature = head
    except (ValueError, EOFError, TypeError):
        return None
    if key != _key(genesis):
        return None
    for dep in deps:
        if cache.file_state(dep[0]) != tuple(dep):
            return None  # the code that made it changed
    if stored_at(seq) != (canonical, signature):
        return None  # the store's log is not (or no longer) the one it was taken of
    if cache.content_digest(payload) != digest:
        return None  # changed since it was written
    try:
        game = rebuild(genesis)
        fields = pickle.loads(payload)
        if not isinstance(fields, dict) or set(fields) != set(_KEPT):
            return None
        game.__dict__.update(fields)
        if game.genesis.canonical != genesis.canonical or game.head.seq != seq:
            return None
        if game.head.canonical != canonical:
            return None
    except Exception:  # a corrupt snapshot is absent, never an error
        return None
    return game


def forget(game_id: str) -> None:
    """Remove a game's snapshot, if any (tests, and a user clearing the cache)."""
    path = _path(game_id)
    if path is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)
