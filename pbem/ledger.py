"""Glue between the protocol core and the outside: signatures, data files, replays.

The core adjudicator knows no cryptography and no files; this module gives it
an SSHSIG signature check, finds the data files a genesis names (shipped with
pbem, kept in a store, or given by the user), and replays a list of entries.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from functools import lru_cache

from pbem import cache
from pbem.core.adjudicator import Adjudicator, data_digest
from pbem.core.engine import Engine, get_engine, is_loaded, registered_facts
from pbem.core.log import Entry
from pbem.errors import DataError, PbemError
from pbem.hints import Any, cast
from pbem.record import Record


@lru_cache(maxsize=64)
def _public_key(line: str):  # type: ignore[no-untyped-def]
    from pbem.crypto.publickey import PublicKey

    return PublicKey.parse_line(line)


@lru_cache(maxsize=64)
def _checker(line: str) -> Callable[[bytes, bytes], None]:
    # The key parsed once per line and bound to the check: a log is thousands of
    # signatures by the same few keys. (A line that does not parse raises, uncached.)
    from pbem.crypto import sshsig

    return sshsig.checker(_public_key(line))


def check_signature(public_line: str, message: bytes, signature: bytes) -> None:
    """Raise SignatureError unless `signature` is a valid pbem-entry SSHSIG by that key."""
    _checker(public_line)(message, signature)


def fingerprint(public_line: str) -> str:
    return str(_public_key(public_line).fingerprint())


def engine_by_name(name: str) -> Engine:
    import pbem.games  # noqa: F401  (registers the games)

    return get_engine(name)


# --- what the next process need not compute again (pbem.cache) --------------------------------


class DiskTables:
    """The parsed data tables of pbem's own games, also kept in the user's cache (see
    pbem.cache): the next process loads them instead of parsing and checking the TOML files
    again (most of a one-file `pbem verify`'s own work for berlin-1945). An entry depends
    on every pbem module loaded when it was made, as a .pyc depends on its source. Before
    the user's first run, the tables of the shipped data files are those pbem ships
    (pbem.prebuilt), under the same condition."""

    def get(self, engine: Engine, key: Hashable) -> bytes | None:
        if not _ours(engine):
            return None
        found = cache.get("tables", key)
        if not isinstance(found, bytes) and engine.name.replace("-", "").isalnum():
            found = cache.prebuilt("tables", prebuilt_name(engine), key)
        return found if isinstance(found, bytes) else None

    def put(self, engine: Engine, key: Hashable, snapshot: bytes) -> None:
        if _ours(engine):
            cache.put("tables", key, cache.deps_of(cache.module_files("pbem")), snapshot)


DISK_TABLES = DiskTables()


def prebuilt_name(engine: Engine) -> str:
    """Under which name pbem ships the tables of an engine's own data files (as
    pbem.prebuilt names them)."""
    return f"{engine.name}-{engine.version}"


def _ours(engine: Engine) -> bool:
    # Only the games shipped in pbem: the cache's dependencies are pbem's own files.
    # (A CachedEngine stands only for one of them.)
    return isinstance(engine, CachedEngine) or type(engine).__module__.startswith("pbem.")


class CachedEngine:
    """A registered engine as the facts it was registered with (pbem.games), for a process
    that has not imported it.

    Verifying a move file that holds only a genesis needs an engine's name, title,
    version (and the versions it still plays), roles, options refused outside a
    double-blind game and shipped data files, and its parsed tables (DiskTables): not its
    rules. This stands for the engine of one version of the rules with those facts, and
    imports the game the first time anything else is asked of it; from then on every such
    attribute is the engine's own (kept in this object's __dict__, so a later use costs
    what it costs on the engine itself). The facts are declared beside the registration,
    not derived: tests/games/test_registered_facts.py holds them equal to the engine's.
    """

    def __init__(self, registered: str, facts: Mapping[str, Any], version: str | None = None):
        self._registered = registered
        self._current: str = facts["version"]  # the version the engine itself plays
        self.name: str = registered
        self.title: str = facts["title"]
        self.version: str = self._current if version is None else version
        self.earlier_versions: tuple[str, ...] = tuple(facts["earlier_versions"])
        self.roles: tuple[str, ...] = tuple(facts["roles"])
        self.required_roles: tuple[str, ...] = tuple(facts["required_roles"])
        self.data_files: tuple[str, ...] = tuple(facts["data_files"])
        self.double_blind_options: frozenset[str] = frozenset(facts["double_blind_options"])
        self._folder: str = facts["data"]
        self._versions: dict[str, CachedEngine] = {self.version: self}

    def _engine(self) -> Engine:
        """The engine this stands for (imported now if it was not)."""
        engine = engine_by_name(self._registered)
        return engine if self.version == self._current else engine.for_version(self.version)

    def for_version(self, version: str) -> Engine:
        """As Engine.for_version: one object per version (so that two games of one version
        have the same engine), standing for the engine of that version."""
        if version in self._versions:
            return cast(Engine, self._versions[version])
        if version != self._current and version not in self.earlier_versions:
            return self._engine().for_version(version)  # (its own refusal)
        facts = registered_facts(self._registered)
        if facts is None:
            return self._engine().for_version(version)
        other = CachedEngine(self._registered, facts, version)
        other._versions = self._versions
        self._versions[version] = other
        return cast(Engine, other)

    def default_data(self) -> dict[str, bytes]:
        """The shipped data files, read where the engine's own default_data reads them."""
        files = {}
        try:
            for name in self.data_files:
                with open(os.path.join(self._folder, name), "rb") as stream:
                    files[name] = stream.read()
        except OSError:  # (not installed as files: the engine finds them its own way)
            return self._engine().default_data()
        return files

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        value = getattr(self._engine(), attribute)
        self.__dict__[attribute] = value
        return value


def cold_engine_by_name(name: str) -> Engine:
    """engine_by_name for a command that may need no more than an engine's facts: the
    engine itself once imported, else what it was registered with (CachedEngine), which
    imports it when anything more is asked."""
    import pbem.games  # noqa: F401  (registers the games, imports none)

    facts = registered_facts(name)
    if facts is None or is_loaded(name):
        return engine_by_name(name)
    standing = _STANDING.get(name)
    if standing is None or standing[0] is not facts:
        standing = _STANDING[name] = (facts, CachedEngine(name, facts))
    return cast(Engine, standing[1])


# One CachedEngine per registered engine (and its facts), as there is one engine: two
# games of one title have the same engine and compare equal.
_STANDING: dict[str, tuple[Mapping[str, Any], CachedEngine]] = {}


def data_source(extra: Mapping[str, bytes] | None = None) -> Callable[..., Mapping[str, bytes]]:
    """A data source: for each file the genesis names, the shipped file or one in `extra`.

    `extra` maps SHA-256 hex digests to file contents (user data files, a store's copies).
    """
    extra = dict(extra or {})

    def lookup(engine: Engine, wanted: Mapping[str, str]) -> Mapping[str, bytes]:
        shipped = engine.default_data()
        files: dict[str, bytes] = {}
        for name, digest in wanted.items():
            if name not in engine.data_files:
                raise DataError(f"{engine.name} has no data file {name!r}")
            if name in shipped and data_digest(shipped[name]) == digest:
                files[name] = shipped[name]
            elif digest in extra:
                files[name] = extra[digest]
            else:
                raise DataError(
                    f"this game uses its own {name} (sha256 {digest[:16]}...); "
                    "get the file from your opponent and pass it with --data"
                )
        missing = set(engine.data_files) - set(files)
        if missing:
            raise DataError(f"genesis names no {', '.join(sorted(missing))}")
        return files

    return lookup


def replay(
    entries: Iterable[Entry],
    extra_data: Mapping[str, bytes] | None = None,
    engines: Callable[[str], Engine] = engine_by_name,
) -> Adjudicator:
    """Check and apply every entry in order; the first bad one raises EntryRefused."""
    iterator = iter(entries)
    try:
        genesis = next(iterator)
    except StopIteration:
        raise PbemError("no entries found") from None
    game = Adjudicator.start(
        genesis, engines, data_source(extra_data), check_signature, tables=DISK_TABLES
    )
    entry = next(iterator, None)
    while entry is not None:
        then = next(iterator, None)
        game.apply(entry, then)  # (the next entry, to roll waiting dice in one pass)
        entry = then
    return game


class Equivocation(Record, fields=("role", "fingerprint", "first", "second")):
    """Two valid signatures by one role over different entries at the same game and seq.

    A frozen record (pbem.record)."""

    role: str
    fingerprint: str
    first: Entry
    second: Entry

    def __init__(self, role: str, fingerprint: str, first: Entry, second: Entry) -> None:
        fields = self.__dict__
        fields["role"] = role
        fields["fingerprint"] = fingerprint
        fields["first"] = first
        fields["second"] = second

    def proof(self) -> str:
        from pbem.transport.armor import armor

        return "\n".join(
            [
                f"EQUIVOCATION: role {self.role} ({self.fingerprint}) signed two different "
                f"entries for game {self.first.game} seq {self.first.seq}:",
                f"  entry id {self.first.id}",
                f"  entry id {self.second.id}",
                "Both signatures verify with the key named in the game's genesis:",
                armor(self.first.canonical, self.first.signature).rstrip(),
                armor(self.second.canonical, self.second.signature).rstrip(),
            ]
        )


def find_equivocation(genesis: Entry, entries: Iterable[Entry]) -> Equivocation | None:
    """The earliest proof that one signer signed two different entries at one seq: two
    validly signed entries of one role with the same `game`, `seq` and `prev`.

    A pair whose `prev`s differ is no such proof (find_fork): each of its entries answers
    a different earlier entry, as an honest store restored from a backup does when the
    opponent re-sends a different earlier entry. Where the two branches part, the one who
    signed both sides is proven here instead (issue 27, item 6)."""
    for first, second, line in _signed_twice(genesis, entries):
        if first.prev == second.prev:
            return Equivocation(first.by, fingerprint(line), first, second)
    return None


class Fork(Record, fields=("role", "fingerprint", "first", "second", "after")):
    """Two valid signatures by one role over entries at one seq that follow different
    entries (`prev`): two branches of the log. Not a proof against `role` on its own.

    `after` holds, for each, the role that signed the entry it follows (None when the
    entries given do not hold it). A frozen record (pbem.record)."""

    role: str
    fingerprint: str
    first: Entry
    second: Entry
    after: tuple[str | None, str | None]

    def __init__(
        self,
        role: str,
        fingerprint: str,
        first: Entry,
        second: Entry,
        after: tuple[str | None, str | None],
    ) -> None:
        fields = self.__dict__
        fields["role"] = role
        fields["fingerprint"] = fingerprint
        fields["first"] = first
        fields["second"] = second
        fields["after"] = after

    def text(self) -> str:
        """One line: which earlier entry each follows, and what that does not prove."""
        first, second, role = self.first, self.second, self.role

        def follows(entry: Entry, by: str | None) -> str:
            return f"{str(entry.prev)[:12]} by {by if by is not None else 'a role not in this log'}"

        return (
            f"entries {first.seq} follow different entries {first.seq - 1} "
            f"({follows(first, self.after[0])}, {follows(second, self.after[1])}): {role} "
            f"signed {first.id[:12]} and {second.id[:12]}, one on each of two branches of the "
            f"log, which proves no cheat by {role} on its own (a store restored from a "
            "backup answers a different earlier entry honestly); whoever signed two "
            "entries where the branches part is the one proven"
        )


def find_fork(genesis: Entry, entries: Iterable[Entry]) -> Fork | None:
    """The earliest pair of validly signed entries of one role at one seq that follow
    different entries, when no equivocation (find_equivocation) is found first."""
    given = list(entries)
    by_id = {entry.id: entry for entry in given}
    for first, second, line in _signed_twice(genesis, given):
        if first.prev == second.prev:
            return None  # an equivocation comes first: that is the proof to show
        after = tuple(
            by_id[str(e.prev)].by if str(e.prev) in by_id else None for e in (first, second)
        )
        return Fork(first.by, fingerprint(line), first, second, (after[0], after[1]))
    return None


def _signed_twice(genesis: Entry, entries: Iterable[Entry]) -> Iterator[tuple[Entry, Entry, str]]:
    """Every pair of different entries one role validly signed for one seq of the game,
    with the role's key line: by seq, then in the order given (the signatures are checked
    only for such pairs)."""
    roles = genesis.body.get("roles", {})
    if not isinstance(roles, dict):
        return
    seen: dict[tuple[str | None, int], list[Entry]] = {}
    pairs: list[tuple[Entry, Entry]] = []
    for entry in entries:
        copies = seen.setdefault((entry.game, entry.seq), [])
        for other in copies:
            if other.id != entry.id and other.by == entry.by and entry.by in roles:
                pairs.append((other, entry))
        if all(other.id != entry.id for other in copies):
            copies.append(entry)
    pairs.sort(key=lambda pair: pair[0].seq)  # (stable: the order given within a seq)
    for first, second in pairs:
        line = str(roles[first.by])
        try:
            check_signature(line, first.canonical, first.signature)
            check_signature(line, second.canonical, second.signature)
        except PbemError:
            continue
        yield first, second, line
