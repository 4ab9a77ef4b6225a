"""The games pbem knows. Each registers lazily so that `pbem --help` imports no rules code.

Each also declares the facts an engine states about itself (pbem.core.engine.register):
verifying a game's genesis needs no more, so it imports none of the game's modules
(tests/cli/test_fast_start.py). tests/games/test_registered_facts.py holds every fact here
equal to the engine's own, for every version of its rules.
"""

import os

from pbem.core.engine import register

_HERE = os.path.dirname(__file__)


def _data(package: str) -> str:
    """The folder of a game's shipped data files (what its `default_data` reads)."""
    return os.path.join(_HERE, package, "data")


register(
    "barbarossa",
    "pbem.games.barbarossa.rules:ENGINE",
    {
        "title": "Operation Barbarossa",
        "version": "1.1",
        "earlier_versions": ("1.0",),
        "roles": ("german", "referee"),
        "required_roles": ("german",),
        "data_files": ("gamesheet.toml",),
        "double_blind_options": (),
        "data": _data("barbarossa"),
    },
)
register(
    "race-to-berlin",
    "pbem.games.race_to_berlin.rules:ENGINE",
    {
        "title": "Race to Berlin",
        "version": "1.1",
        "earlier_versions": ("1.0",),
        "roles": ("west", "soviet"),
        "required_roles": ("west", "soviet"),
        "data_files": ("map.toml", "tokens.toml"),
        "double_blind_options": (),
        "data": _data("race_to_berlin"),
    },
)
register(
    "berlin-1945",
    "pbem.games.berlin_1945.rules:ENGINE",
    {
        "title": "Berlin 1945: The Fall of the Reichstag",
        "version": "1.2",
        "earlier_versions": ("1.0", "1.1"),
        "roles": ("german", "soviet"),
        "required_roles": ("german", "soviet"),
        "data_files": ("map.toml", "counters.toml", "cards.toml"),
        "double_blind_options": (),
        "data": _data("berlin_1945"),
    },
)
register(
    "race-to-the-sea",
    "pbem.games.race_to_the_sea.rules:ENGINE",
    {
        "title": "Race to the Sea 1914",
        "version": "1.0",
        "earlier_versions": (),
        "roles": ("allies", "germans"),
        "required_roles": ("allies", "germans"),
        "data_files": ("map.toml", "units.toml", "cards.toml", "markers.toml"),
        "double_blind_options": ("shared_cup",),
        "data": _data("race_to_the_sea"),
    },
)
register(
    "gotterdammerung",
    "pbem.games.gotterdammerung.rules:ENGINE",
    {
        "title": "Götterdämmerung: Fall of Berlin 1945",
        "version": "1.0",
        "earlier_versions": (),
        "roles": ("soviet", "german"),
        "required_roles": ("soviet", "german"),
        "data_files": ("map.toml", "tables.toml", "counters.toml"),
        "double_blind_options": (),
        "data": _data("gotterdammerung"),
    },
)
