"""Berlin 1945 data: the three files and loading them together.

`map.toml` (the board: `map_file`), `counters.toml` (units, reinforcements, markers:
`counters_file`) and `cards.toml` (both decks, each card's effects: `cards_file`). Every
item carries a `provenance`: "rulebook <section>" or "stand-in". The counters are checked
against the map and the cards against both; checking a file collects every problem of a
stage into one DataError, each naming the file, the item and what is wrong. Zone ids are
strings everywhere ("A", "5", "V"); `board` answers questions about the loaded data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.berlin_1945.cards_file import CARDS_FILE, load_cards
from pbem.games.berlin_1945.counters_file import COUNTERS_FILE, load_counters
from pbem.games.berlin_1945.map_file import MAP_FILE, load_map
from pbem.games.datacheck import given_or_shipped, shipped_files

DATA_FILES = (MAP_FILE, COUNTERS_FILE, CARDS_FILE)
PACKAGE = "pbem.games.berlin_1945"


def default_data() -> dict[str, bytes]:
    """The shipped data files by name (bytes exactly as shipped)."""
    return shipped_files(PACKAGE, DATA_FILES)


def load_data(files: Mapping[str, bytes]) -> dict[str, Any]:
    """Load map.toml, counters.toml and cards.toml (the shipped file for one not given)."""
    return read_files(given_or_shipped(files, DATA_FILES, "berlin_1945", PACKAGE))


def read_files(raw: Mapping[str, bytes]) -> dict[str, Any]:
    """The three files' bytes loaded and checked together."""
    board = load_map(raw[MAP_FILE])
    counters = load_counters(raw[COUNTERS_FILE], board)
    cards = load_cards(raw[CARDS_FILE], board, counters)
    return {**board, **counters, **cards}
