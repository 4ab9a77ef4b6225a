"""Which items of a game come from stand-in data, for the summaries' stand-in markers.

The rulebook prints no board, so most of the shipped map is a stand-in (`data/map.toml`
says why, item by item, in its `provenance`). The state keeps names and ids but not the
provenance, so the view asks here: an item is marked stand-in when it is the shipped item
(same id and name, or for a special token the same player, force and kind) and the
shipped file calls it a stand-in (its provenance mentions "stand-in" anywhere, also "name,
terrain stand-in"). A game on its own data files (another map title) gets no marker: its
provenance is in its own files, which the state does not keep.

The shipped files' facts are derived once per process, and kept (pbem.cache.derived: in
the user's cache, or shipped prebuilt) for the next one, keyed by the files' digests: a
cold `pbem show` need not parse the TOML again (issue 29).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pbem import cache
from pbem.core.hashing import sha256
from pbem.games.datacheck import parse_toml, shipped_files
from pbem.games.race_to_berlin.data import MAP_FILE, TOKENS_FILE
from pbem.record import Record

PACKAGE = "pbem.games.race_to_berlin"
STAND_IN = "stand-in"


def _stand_in(item: dict[str, Any], key: str = "provenance") -> bool:
    return STAND_IN in str(item.get(key, ""))


_SHIPPED_FIELDS = ("title", "map_stand_in", "areas", "eagles", "units", "fortifications", "tokens")


class Shipped(Record, fields=_SHIPPED_FIELDS):
    """The shipped items whose provenance says stand-in, by identity. (A record, not a
    dataclass: making a dataclass is a hundredth of a cold `pbem show`.)"""

    title: str
    map_stand_in: bool
    areas: frozenset[tuple[str, str]]  # (id, name)
    eagles: frozenset[str]  # area ids whose eagle placement is a stand-in
    units: frozenset[tuple[str, str]]  # (id, name)
    fortifications: frozenset[tuple[str, str]]  # (id, name)
    tokens: frozenset[tuple[str, str, str]]  # (player, force, kind)

    def __init__(
        self,
        title: str,
        map_stand_in: bool,
        areas: frozenset[tuple[str, str]],
        eagles: frozenset[str],
        units: frozenset[tuple[str, str]],
        fortifications: frozenset[tuple[str, str]],
        tokens: frozenset[tuple[str, str, str]],
    ) -> None:
        fields = self.__dict__
        fields["title"] = title
        fields["map_stand_in"] = map_stand_in
        fields["areas"] = areas
        fields["eagles"] = eagles
        fields["units"] = units
        fields["fortifications"] = fortifications
        fields["tokens"] = tokens


FACTS = "provenance"  # the cache's kind
PREBUILT_NAME = "race-to-berlin"  # pbem/prebuilt/provenance-race-to-berlin.marshal


def facts_key(files: dict[str, bytes]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """What the facts depend on besides pbem's code: the shipped files, by digest."""
    return PREBUILT_NAME, tuple(sorted((n, sha256(raw).hex()) for n, raw in files.items()))


def shipped_facts(files: dict[str, bytes]) -> Shipped:
    """The facts of these files, parsed (what the cache keeps, as a tuple of the fields)."""
    board = parse_toml(files[MAP_FILE], MAP_FILE)
    tokens = parse_toml(files[TOKENS_FILE], TOKENS_FILE)
    return Shipped(
        title=str(board["map"]["title"]),
        map_stand_in=_stand_in(board["map"]),
        areas=frozenset((a["id"], a["name"]) for a in board["area"] if _stand_in(a)),
        eagles=frozenset(
            a["id"] for a in board["area"] if "eagle" in a and _stand_in(a, "eagle_provenance")
        ),
        units=frozenset((u["id"], u["name"]) for u in board["unit"] if _stand_in(u)),
        fortifications=frozenset(
            (f["id"], f["name"]) for f in board["fortification"] if _stand_in(f)
        ),
        tokens=frozenset(
            (t["player"], t["force"], t["kind"]) for t in tokens["special"] if _stand_in(t)
        ),
    )


def _fields(facts: Shipped) -> tuple[Any, ...]:
    return tuple(facts.__dict__[name] for name in _SHIPPED_FIELDS)


def made() -> tuple[Any, tuple[Any, ...]]:
    """(key, value) of the facts of the shipped files, parsed now (what pbem.prebuilt ships)."""
    files = shipped_files(PACKAGE, (MAP_FILE, TOKENS_FILE))
    return facts_key(files), _fields(shipped_facts(files))


@lru_cache(maxsize=1)
def shipped() -> Shipped:
    files = shipped_files(PACKAGE, (MAP_FILE, TOKENS_FILE))
    kept = cache.derived(
        FACTS, PREBUILT_NAME, facts_key(files), lambda: _fields(shipped_facts(files))
    )
    return Shipped(*kept)


class Marks:
    """Stand-in questions about the items of one game (by its map title: the shipped map,
    or the game's own data, which gets no marker)."""

    def __init__(self, title: str) -> None:
        self.facts = shipped()
        self.shipped = title == self.facts.title

    @property
    def map(self) -> bool:
        return self.shipped and self.facts.map_stand_in

    def area(self, area: str, name: str) -> bool:
        return self.shipped and (area, name) in self.facts.areas

    def eagle(self, area: str) -> bool:
        return self.shipped and area in self.facts.eagles

    def unit(self, unit: str, name: str) -> bool:
        return self.shipped and (unit, name) in self.facts.units

    def fortification(self, fort: str, name: str) -> bool:
        return self.shipped and (fort, name) in self.facts.fortifications

    def token(self, player: str, force: str, kind: str) -> bool:
        return self.shipped and (player, force, kind) in self.facts.tokens
