"""What the shipped data files say about the items a state names only by id: zone and unit
names, card texts and timing, and which of them are stand-ins, for the views and the card
list.

The state's static tables (`tables`) hold what the rules read, not names, texts or
provenance, so they are read here from the shipped files (raw TOML for the provenance,
which loading drops). They belong to a game only when its tables are the shipped data's
tables (`for_state`); a game on its own data files gets none from here, since its texts are
in its own files (`pbem cards` reads them from the game's loaded data).

An item is a stand-in when its provenance mentions "stand-in" anywhere ("rulebook 2.3
(number stand-in)" too): for a card, its `provenance` (deck, number, name) or its
`text_provenance` (symbols, timing, text, effects; a card without one is a stand-in card,
whose text can only be a stand-in: cards_file.py); for a unit, its `provenance` or its
`name_provenance`; for a zone, its `name_provenance` (the zones themselves are the
rulebook's); for a border, its `provenance`. The shipped files' labels are derived once per
process, and kept (pbem.cache.derived: in the user's cache, or shipped prebuilt) for the
next one, keyed by the files' digests: a cold `pbem show` need not parse the TOML again
(issue 29).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pbem import cache
from pbem.core.engine import State
from pbem.core.hashing import sha256
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.cards_file import CARDS_FILE
from pbem.games.berlin_1945.counters_file import COUNTERS_FILE
from pbem.games.berlin_1945.data import DATA_FILES, default_data, load_data
from pbem.games.berlin_1945.map_file import MAP_FILE
from pbem.games.datacheck import parse_toml
from pbem.record import Record

STAND_IN = "stand-in"


def stand_in(item: dict[str, Any], *keys: str) -> bool:
    return any(STAND_IN in str(item.get(key, "")) for key in keys)


_LABELS_FIELDS = ("title", "tables_text", "zones", "borders", "units", "markers", "cards")


class Labels(Record, fields=_LABELS_FIELDS):
    """Names, texts and stand-in marks of the shipped data, by id. (A record, not a
    dataclass: making a dataclass is a hundredth of a cold `pbem show`.)"""

    title: str
    tables_text: str  # the shipped data's tables (`tables.build`): which games they fit
    zones: dict[str, dict[str, Any]]  # id -> {name, stand_in}
    borders: frozenset[frozenset[str]]  # the stand-in borders, as unordered pairs
    units: dict[str, dict[str, Any]]  # id -> {name, stand_in}
    markers: frozenset[str]  # the marker kinds whose data is a stand-in
    cards: dict[str, dict[str, Any]]  # "german-1" -> the loaded card + stand_in, text_stand_in

    def __init__(
        self,
        title: str,
        tables_text: str,
        zones: dict[str, dict[str, Any]],
        borders: frozenset[frozenset[str]],
        units: dict[str, dict[str, Any]],
        markers: frozenset[str],
        cards: dict[str, dict[str, Any]],
    ) -> None:
        fields = self.__dict__
        fields["title"] = title
        fields["tables_text"] = tables_text
        fields["zones"] = zones
        fields["borders"] = borders
        fields["units"] = units
        fields["markers"] = markers
        fields["cards"] = cards


def card_marks(item: dict[str, Any]) -> dict[str, bool]:
    """A cards.toml item's stand-in marks: the card (deck, number, name) and its text."""
    text_stand_in = stand_in(item, "text_provenance") or "text_provenance" not in item
    return {
        "stand_in": stand_in(item, "provenance") or text_stand_in,
        "text_stand_in": text_stand_in,
    }


KIND = "labels"  # the cache's kind
PREBUILT_NAME = "berlin-1945"  # pbem/prebuilt/labels-berlin-1945.marshal


def labels_key(files: dict[str, bytes]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """What the labels depend on besides pbem's code: the shipped files, by digest."""
    return PREBUILT_NAME, tuple(sorted((n, sha256(raw).hex()) for n, raw in files.items()))


def _fields(labels: Labels) -> tuple[Any, ...]:
    return tuple(labels.__dict__[name] for name in _LABELS_FIELDS)


def made() -> tuple[Any, tuple[Any, ...]]:
    """(key, value) of the shipped files' labels, parsed now (what pbem.prebuilt ships)."""
    files = default_data()
    return labels_key(files), _fields(labels_of(files))


@lru_cache(maxsize=1)
def shipped() -> Labels:
    files = default_data()
    kept = cache.derived(KIND, PREBUILT_NAME, labels_key(files), lambda: _fields(labels_of(files)))
    return Labels(*kept)


def labels_of(files: dict[str, bytes]) -> Labels:
    """The labels of these data files, parsed (what the cache keeps, as a tuple of the
    fields)."""
    raw_map = parse_toml(files[MAP_FILE], MAP_FILE)
    raw_counters = parse_toml(files[COUNTERS_FILE], COUNTERS_FILE)
    raw_cards = parse_toml(files[CARDS_FILE], CARDS_FILE)
    loaded = load_data(dict(zip(DATA_FILES, (files[name] for name in DATA_FILES), strict=True)))
    marks = {f"{c['deck']}-{c['number']}": card_marks(c) for c in raw_cards["card"]}
    return Labels(
        title=str(raw_map["map"]["title"]),
        tables_text=tables.build(loaded),
        zones={
            z["id"]: {"name": z.get("name") or None, "stand_in": stand_in(z, "name_provenance")}
            for z in raw_map["zone"]
        },
        borders=frozenset(
            frozenset(b["between"]) for b in raw_map["border"] if stand_in(b, "provenance")
        ),
        units={
            u["id"]: {"name": u["name"], "stand_in": stand_in(u, "provenance", "name_provenance")}
            for u in raw_counters["unit"]
        },
        markers=frozenset(m["kind"] for m in raw_counters["marker"] if stand_in(m, "provenance")),
        cards={
            f"{side}-{c['number']}": {**c, **marks[f"{side}-{c['number']}"]}
            for side, deck in loaded["decks"].items()
            for c in deck
        },
    )


def for_state(state: State) -> Labels | None:
    """The shipped labels when `state` plays on the shipped data (its tables are the
    shipped tables), else None."""
    labels = shipped()
    return labels if state["tables"] == labels.tables_text else None
