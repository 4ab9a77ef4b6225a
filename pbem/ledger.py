"""Glue between the protocol core and the outside: signatures, data files, replays.

The core adjudicator knows no cryptography and no files; this module gives it
an SSHSIG signature check, finds the data files a genesis names (shipped with
pbem, kept in a store, or given by the user), and replays a list of entries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from pbem.core.adjudicator import Adjudicator, data_digest
from pbem.core.engine import Engine, get_engine
from pbem.core.log import Entry
from pbem.errors import DataError, PbemError


@lru_cache(maxsize=64)
def _public_key(line: str):  # type: ignore[no-untyped-def]
    from pbem.crypto.keys import PublicKey

    return PublicKey.parse_line(line)


def check_signature(public_line: str, message: bytes, signature: bytes) -> None:
    """Raise SignatureError unless `signature` is a valid pbem-entry SSHSIG by that key."""
    from pbem.crypto import sshsig

    sshsig.verify(_public_key(public_line), message, signature)


def fingerprint(public_line: str) -> str:
    return str(_public_key(public_line).fingerprint())


def engine_by_name(name: str) -> Engine:
    import pbem.games  # noqa: F401  (registers the games)

    return get_engine(name)


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


def replay(entries: Iterable[Entry], extra_data: Mapping[str, bytes] | None = None) -> Adjudicator:
    """Check and apply every entry in order; the first bad one raises EntryRefused."""
    iterator = iter(entries)
    try:
        genesis = next(iterator)
    except StopIteration:
        raise PbemError("no entries found") from None
    game = Adjudicator.start(genesis, engine_by_name, data_source(extra_data), check_signature)
    for entry in iterator:
        game.apply(entry)
    return game


@dataclass(frozen=True)
class Equivocation:
    """Two valid signatures by one role over different entries at the same game and seq."""

    role: str
    fingerprint: str
    first: Entry
    second: Entry

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
    """Look for two different, validly signed entries of one signer at one seq."""
    roles = genesis.body.get("roles", {})
    seen: dict[tuple[str | None, int], Entry] = {}
    for entry in entries:
        key = (entry.game, entry.seq)
        other = seen.get(key)
        if other is None:
            seen[key] = entry
            continue
        if other.id == entry.id or other.by != entry.by or entry.by not in roles:
            continue
        line = str(roles[entry.by])
        try:
            check_signature(line, other.canonical, other.signature)
            check_signature(line, entry.canonical, entry.signature)
        except PbemError:
            continue
        return Equivocation(entry.by, fingerprint(line), other, entry)
    return None
