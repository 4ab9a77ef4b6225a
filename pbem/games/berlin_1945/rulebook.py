"""What the Berlin 1945 rulebook fixes: zones, rings, stacking, unit types, markers, the
hand and the cards it describes, and the effect primitives the card file may use.

The data files are checked against these (`map_file`, `counters_file`, `cards_file`), and
the rules engine takes its constants from here. Each value names the section it comes from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

SIDES = ("german", "soviet")
SIDE_NAMES = {"german": "German", "soviet": "Soviet"}

# rulebook 1, 2.1: the zones
AREAS = ("A", "B", "C", "D", "E", "F")
DISTRICTS = tuple(str(n) for n in range(1, 19))
SECTORS = ("I", "II", "III", "IV", "V")
ZONE_IDS = AREAS + DISTRICTS + SECTORS
REICHSTAG = "V"  # rulebook 5.3
REICHSTAG_APPROACHES = ("I", "II", "III", "IV")  # rulebook 5.3: entering these lifts the limit

# rulebook 1: the concentric rings, from the outer edge in; depth counts rings from the Mitte
RINGS = ("edge", "outer", "middle", "inner", "mitte")
RING_DEPTH = {"edge": 4, "outer": 3, "middle": 2, "inner": 1, "mitte": 0}
RING_KIND = {
    "edge": "area",
    "outer": "district",
    "middle": "district",
    "inner": "district",
    "mitte": "sector",
}
RING_NAMES = {
    "edge": "outer edge (Areas A-F)",
    "outer": "outer ring (Districts 12-18)",
    "middle": "middle ring (Districts 6-11)",
    "inner": "inner ring (Districts 1-5)",
    "mitte": "Mitte (Sectors I-V)",
}

# The district names the rulebook gives, with the section that gives them.
RULEBOOK_NAMES = {
    "1": ("Tiergarten", "5.1"),
    "2": ("Moabit", "5.1"),
    "3": ("Prenzlauer", "7.3"),
    "5": ("Kreuzberg", "5.3"),
    "7": ("Charlottenburg", "5.1"),
    "8": ("Wedding", "5"),
    "9": ("Weissensee", "7.3"),
    "13": ("Zehlendorf", "5.5.1"),
    "14": ("Spandau", "5.1"),
    "15": ("Reinickendorf", "5"),
    "16": ("Pankow", "5"),
    "V": ("Reichstag", "5.3"),
}

UNLIMITED = "unlimited"
PRINTED_STACKS = {"5": (7, "5.3"), "8": (8, "5.5.1")}  # the printed numbers the text gives
# The examples move or fight with this many units of one side in a zone, so it must fit.
EXAMPLE_STACKS = {"3": (4, "7.3"), "4": (4, "7.3"), "6": (4, "7.4.4")}
MITTE_STACK = 4  # rulebook 5.3: Sectors I-IV per side, Sector V German

# rulebook 5.1 and the examples: pairs that are adjacent, with the sections saying so
RULEBOOK_ADJACENT = (
    ("7", "1", "5.1"),
    ("7", "2", "5.1"),
    ("14", "15", "5.1"),
    ("14", "7", "5.1"),
    ("8", "15", "5, 5.1"),
    ("8", "16", "5.1"),
    ("8", "2", "5.1, 5.5.1"),
    ("8", "3", "5.1, 5.5.1"),
    ("8", "7", "5.1"),
    ("15", "16", "5, 7.2"),
    ("F", "14", "5.5.1"),
    ("F", "13", "5.5.1"),
    ("E", "13", "5.5.1"),
    ("8", "9", "5.5.1"),
    ("3", "9", "7.3"),
    ("3", "4", "7.3"),
)
RULEBOOK_NOT_ADJACENT = (
    ("14", "8", "5.1"),
    ("3", "I", "5.1"),
    ("15", "7", "5.1"),
    ("2", "II", "5.1"),
    ("1", "I", "5.1"),
)

# The rule flags map.toml must carry (all true), with their sections.
RULE_FLAGS = {
    "german-mitte-all-adjacent": "5.1",
    "germans-may-not-enter-areas": "2.1, 5.2",
    "areas-exit-only": "7.2",
    "reichstag-garrison-frozen": "5.2",
    "reichstag-german-unlimited-after-mitte-entry": "5.3",
    "no-rebuild-in-areas": "6, 6.1",
}

# rulebook 2.2 (colour, count), 7.4.2 (strength), 7.4.4 (elite), 6 (no rebuilding SS or Guards)
UNIT_TYPES: dict[str, dict[str, Any]] = {
    "soviet-regular": {
        "side": "soviet",
        "colour": "orange",
        "elite": False,
        "strength": 1,
        "count": 33,
        "rebuild": True,
    },
    "soviet-guards": {
        "side": "soviet",
        "colour": "red",
        "elite": True,
        "strength": 2,
        "count": 2,
        "rebuild": False,
    },
    "wehrmacht": {
        "side": "german",
        "colour": "gray",
        "elite": False,
        "strength": 1,
        "count": 22,
        "rebuild": True,
    },
    "ss": {
        "side": "german",
        "colour": "black",
        "elite": True,
        "strength": 2,
        "count": 5,
        "rebuild": False,
    },
}
TYPE_FIELD_RULES = {
    "side": "2.2",
    "colour": "2.2",
    "elite": "2.2, 7.4.4",
    "strength": "7.4.2",
    "count": "2.2",
    "rebuild": "6",
}
COUNTERS_TOTAL = 127  # rulebook 2, 2.2: units and markers
# rulebook 8.1: two groups of 3 regular + 1 elite, after the card draw of turn 4
REINFORCEMENT_TURN = 4
REINFORCEMENT_GROUP = {"soviet-regular": 3, "soviet-guards": 1}
REINFORCEMENT_ZONES = {1: ("A", "B", "C"), 2: ("D", "E", "F")}
CARD_UNITS = 5  # rulebook 5.5.4: five German units come into play by Event cards (yellow dot)
# rulebook 2.2: the 8 marker types; rulebook 2.1, 5.5: Control markers
MARKER_KINDS = {
    "barricade": "2.2",
    "game-turn": "2.2, 7",
    "moltke-bridge": "2.2",
    "flak-tower": "2.2, 7.4.2",
    "shock-army": "2.2",
    "wave-attack": "2.2",
    "order": "2.2",
    "planning": "2.2, 7.2",
    "control": "2.1, 5.5",
}
GAME_TURN_MARKERS = 1  # rulebook 7: "the Game Turn marker"
MAP_SPACES = ("flak-control", "control", "turn-track", "removed-units")  # rulebook 2.1
TURNS = 12  # rulebook 7

# rulebook 2.3, 7.1
CARDS_PER_SIDE = 25
HAND = {"start": 5, "draw": 1, "limit": 6}
ADDITIONAL_ORDER = {"german_movement": 1, "soviet_movement": 2, "rebuild": 2, "per_turn": 1}
SYMBOLS = ("M", "C", "!")  # rulebook 2.3
WHEN = ("planning", "movement", "movement-end", "combat", "after-combat", "reaction")
# rulebook 2.3: M in the own Movement phase, C in the card use step of a combat, ! when the
# text says
MODE_WHEN = {"M": ("movement", "movement-end"), "C": ("combat",), "!": WHEN}
ZONE_FILTERS = ("controlled", "no-enemy", "own-units", "disputed", "combat", "any")
# rulebook 5.4: the most Movement orders in one turn
BASE_ORDERS = {"german": 4, "soviet": 3}
MAX_ORDERS = {"german": 6, "soviet": 5}

# The effect primitives: (required parameters, optional parameters), each name -> kind.
EFFECTS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "combat_modifier": ({"amount": "amount"}, {"target": "target", "rings": "rings"}),
    "extra_orders": (
        {"count": "count"},
        {"order": "order", "exclusive_with": "cards", "blocks_additional_order": "bool"},
    ),
    "double_move": ({}, {"max_units": "count"}),
    "reinforce": (
        {"units": "units"},
        {"zones": "zones", "zone_filter": "filter", "together": "bool"},
    ),
    "place_marker": (
        {"marker": "marker"},
        {"zones": "zones", "zone_filter": "filter", "count": "count", "amount": "amount"},
    ),
    "cancel_card": ({}, {"symbols": "symbols"}),
    "cancel_order": ({}, {"order": "cancel-order", "count": "count"}),
    "remove_unit": ({"count": "count"}, {"types": "types", "zone_filter": "filter"}),
    "discard_cards": ({"count": "count"}, {"random": "bool"}),
}
# At least one of these parameters is needed (both: the zone must be listed and pass the filter).
EFFECT_ONE_OF = {"reinforce": ("zones", "zone_filter"), "place_marker": ("zones", "zone_filter")}
EFFECT_DEFAULTS: dict[str, dict[str, Any]] = {
    "combat_modifier": {"target": "own", "rings": []},
    "extra_orders": {"order": "movement", "exclusive_with": [], "blocks_additional_order": False},
    "reinforce": {"together": False},
    "place_marker": {"count": 1, "amount": 0},
    "cancel_card": {"symbols": list(SYMBOLS)},
    "cancel_order": {"order": "any", "count": 1},
    "remove_unit": {"zone_filter": "any"},
    "discard_cards": {"random": True},
}
ORDER_KINDS = ("movement", "rebuild", "any")
CANCEL_ORDER_KINDS = ("movement", "rebuild", "additional", "any")
MAX_AMOUNT = 5
MAX_COUNT = 5

# The cards the rulebook describes. Numbered ones: (deck, number) -> what must hold.
RULEBOOK_CARDS: dict[tuple[str, int], dict[str, Any]] = {
    ("german", 2): {
        "name": "Wenck's 12th Army",
        "section": "8.2",
        "symbols": ["M"],
        "when": "movement-end",
        "effect": "reinforce",
        "params": {"zones": ["12", "13", "18"], "together": True},
        "units": {"count": 2, "name": "Wenck's 12th Army"},
    },
    ("german", 3): {
        "name": "Charlemagne Battalion",
        "section": "8.2",
        "symbols": ["M"],
        "when": "movement-end",
        "effect": "reinforce",
        "params": {"zone_filter": "controlled"},
        "units": {"count": 1, "name": "Charlemagne", "type": "ss"},
    },
    ("german", 10): {
        "name": "Volkssturm and Feldgendarmerie",
        "section": "8.2",
        "symbols": ["M"],
        "when": "movement-end",
        "effect": "reinforce",
        "params": {"zone_filter": "no-enemy"},
        "units": {"count": 1, "name": "Volkssturm"},
    },
    ("german", 23): {
        "name": "Steiner!",
        "section": "8.2",
        "symbols": ["M"],
        "when": "movement-end",
        "effect": "reinforce",
        "params": {"zones": ["13", "16"]},
        "units": {"count": 1, "name": "Steiner", "type": "ss", "never_withdraws": True},
    },
    ("german", 24): {
        "name": "Panzergrenadiers",
        "section": "5.4",
        "effect": "double_move",
        "params": {},
    },
    ("soviet", 13): {
        "name": "Georgi Zhukov",
        "section": "5.4",
        "symbols": ["!"],
        "effect": "extra_orders",
        "params": {
            "count": 2,
            "order": "movement",
            "exclusive_with": ["soviet-22"],
            "blocks_additional_order": True,
        },
    },
    ("soviet", 22): {
        "name": "Ivan Konev",
        "section": "5.4",
        "symbols": ["!"],
        "effect": "extra_orders",
        "params": {
            "count": 1,
            "order": "movement",
            "exclusive_with": ["soviet-13"],
            "blocks_additional_order": True,
        },
    },
}
PANZERFAUST = "Panzerfaust"  # rulebook 2.3: a German card with two alternative effects
FLAK_CARD = "Flak Anti-Aircraft Towers"  # rulebook 7.4.2: places a strength marker

CARD_ID = re.compile(r"^(german|soviet)-([1-9][0-9]*)\Z")

# --- What the rules engine takes from the above -----------------------------------------------

ROLES = SIDES  # the roles that sign are the two sides
NAMES = SIDE_NAMES
# rulebook 1: the rings as numbers, 0 the outer edge .. 4 the Mitte (an advance goes up)
RING_INDEX = {ring: len(RINGS) - 1 - RING_DEPTH[ring] for ring in RINGS}
MITTE = RING_INDEX["mitte"]
INNER = RING_INDEX["inner"]
COVER = {"german": 1, "soviet": 2}  # rulebook 5.5.3: units a Retreat leaves behind
HAND_LIMIT = HAND["limit"]  # rulebook 2.3, 7.1
INITIAL_HAND = HAND["start"]
BASIC_SOVIET = BASE_ORDERS["soviet"]  # rulebook 5.4


def zone_order(zone_id: str) -> int:
    """Areas, then districts by number, then sectors I..V."""
    return ZONE_IDS.index(zone_id) if zone_id in ZONE_IDS else len(ZONE_IDS)


def zone_names(ids: Iterable[str]) -> str:
    return ", ".join(sorted(ids, key=zone_order)) or "none"


def zone_pair(a: str, b: str) -> tuple[str, str]:
    first, second = sorted((a, b), key=zone_order)
    return (first, second)


def rulebook_ring(zone_id: str) -> str:
    """rulebook 1: Areas the outer edge, 12-18 outer, 6-11 middle, 1-5 inner, I-V the Mitte."""
    if zone_id in AREAS:
        return "edge"
    if zone_id in SECTORS:
        return "mitte"
    number = int(zone_id)
    return "outer" if number >= 12 else "middle" if number >= 6 else "inner"


def zone_label(zone_id: str, name: str) -> str:
    kind = {"area": "Area", "district": "District", "sector": "Sector"}
    text = f"{kind[RING_KIND[rulebook_ring(zone_id)]]} {zone_id}"
    return f"{text} ({name})" if name else text
