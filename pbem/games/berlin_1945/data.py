"""Berlin 1945 data: reading and validating `map.toml`, `counters.toml` and `cards.toml`.

`map.toml` holds the board: the zones (Areas A-F, Districts 1-18, Mitte Sectors I-V)
with their rings, names and stacking limits, the borders (once per pair), the pairs
the rulebook says are not adjacent, and the rule flags that go with the map.
`counters.toml` holds the unit types, every unit with where it comes from (the
Initial display, a Soviet reinforcement group or a German card), the reinforcement
groups and the markers. `cards.toml` holds the hand, the cost of the additional
order and both decks, each card's effects built from a few named primitives
(`EFFECTS`). Every item carries a `provenance`: "rulebook <section>" or "stand-in".

`load_map`, `load_counters` and `load_cards` parse TOML bytes and return plain JSON
data (dicts, lists, strings, ints, bools); the counters are checked against the
map and the cards against both. `load_data` combines the three (the shipped file
for one not given). Checking a file collects every problem of a stage into one
DataError, each naming the file, the item and what is wrong.

Zone ids are strings everywhere ("A", "5", "V"). The helpers at the end
(`zone`, `ring`, `ring_depth`, `neighbours`, `adjacent`, `may_enter`, `stack_limit`,
`direction`, `card`) are pure functions over the loaded data for the rules engine.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from pbem.games.datacheck import (
    DataChecker,
    check_pairs,
    given_or_shipped,
    parse_toml,
    reachable,
    read_pairs,
    shipped_files,
)

MAP_FILE = "map.toml"
COUNTERS_FILE = "counters.toml"
CARDS_FILE = "cards.toml"
DATA_FILES = (MAP_FILE, COUNTERS_FILE, CARDS_FILE)

# --- What the rulebook fixes -------------------------------------------------------------------

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


def _order(zone_id: str) -> int:
    """Areas, then districts by number, then sectors I..V."""
    return ZONE_IDS.index(zone_id) if zone_id in ZONE_IDS else len(ZONE_IDS)


def _names(ids: Iterable[str]) -> str:
    return ", ".join(sorted(ids, key=_order)) or "none"


def _pair(a: str, b: str) -> tuple[str, str]:
    first, second = sorted((a, b), key=_order)
    return (first, second)


def _rulebook_ring(zone_id: str) -> str:
    """rulebook 1: Areas the outer edge, 12-18 outer, 6-11 middle, 1-5 inner, I-V the Mitte."""
    if zone_id in AREAS:
        return "edge"
    if zone_id in SECTORS:
        return "mitte"
    number = int(zone_id)
    return "outer" if number >= 12 else "middle" if number >= 6 else "inner"


def _label(zone_id: str, name: str) -> str:
    kind = {"area": "Area", "district": "District", "sector": "Sector"}
    text = f"{kind[RING_KIND[_rulebook_ring(zone_id)]]} {zone_id}"
    return f"{text} ({name})" if name else text


# --- The map -------------------------------------------------------------------------------------

ZONE_FIELDS = (
    "id",
    "name",
    "name_provenance",
    "ring",
    "stack",
    "stack_soviet",
    "stack_provenance",
    "provenance",
)
PAIR_FIELDS = ("between", "provenance")
RULE_FIELDS = ("id", "value", "text", "provenance")


def load_map(raw: bytes, file_name: str = MAP_FILE) -> dict[str, Any]:
    """Parse and validate the map; the result is plain JSON data."""
    doc = parse_toml(raw, file_name)
    check = DataChecker(file_name)
    check.sections(doc, ("map", "rule", "zone", "border", "not_adjacent"))

    # Stage 1: every item on its own.
    header = _read_map_header(check, doc)
    rules = _read_rules(check, doc)
    zones = _read_zones(check, doc)
    borders = read_pairs(
        check, doc, "border", noun="zone", example='["7", "1"]', fields=PAIR_FIELDS
    )
    apart = read_pairs(
        check, doc, "not_adjacent", noun="zone", example='["7", "1"]', fields=PAIR_FIELDS
    )
    check.stop_if_any()

    # Stage 2: items against each other.
    missing = [z for z in ZONE_IDS if z not in zones]
    if missing:
        check.add(
            "zone",
            f"missing zone(s) {_names(missing)} (rulebook 2.1: Areas A-F, Districts 1-18, "
            "Sectors I-V)",
        )
    border_at = _sound_pairs(check, zones, borders)
    apart_at = _sound_pairs(check, zones, apart)
    check.stop_if_any()

    # Stage 3: the graph.
    adjacent: dict[str, set[str]] = {z: set() for z in ZONE_IDS}
    for a, b in border_at:
        adjacent[a].add(b)
        adjacent[b].add(a)
    _check_graph(check, zones, adjacent, border_at, apart_at)
    check.stop_if_any()

    return {
        **header,
        "rules": rules,
        "zone_ids": list(ZONE_IDS),
        "zones": {z: {**zones[z], "neighbours": sorted(adjacent[z], key=_order)} for z in ZONE_IDS},
        "rings": {r: [z for z in ZONE_IDS if zones[z]["ring"] == r] for r in RINGS},
        "borders": [list(p) for p in sorted(border_at, key=_pair_order)],
        "not_adjacent": [list(p) for p in sorted(apart_at, key=_pair_order)],
    }


def _pair_order(pair: tuple[str, str]) -> tuple[int, int]:
    return (_order(pair[0]), _order(pair[1]))


def _read_map_header(check: DataChecker, doc: dict[str, Any]) -> dict[str, Any]:
    header = check.table(doc, "map")
    if header is None:
        return {}
    check.keys(header, "map", ("title", "turns", "spaces", "provenance"))
    check.provenance(header, "map")
    title = check.text(header, "title", "map")
    turns = check.integer(header, "turns", "map", 1)
    if turns is not None:
        check.exact(turns, TURNS, "map.turns", "rulebook 7")
    spaces = header.get("spaces")
    if not isinstance(spaces, list) or sorted(map(str, spaces)) != sorted(MAP_SPACES):
        check.add(
            "map.spaces",
            f"expected {', '.join(MAP_SPACES)} (rulebook 2.1), found {spaces!r}",
        )
    return {"title": title or "", "turns": turns or 0, "spaces": list(MAP_SPACES)}


def _read_rules(check: DataChecker, doc: dict[str, Any]) -> dict[str, bool]:
    rules: dict[str, bool] = {}
    for i, item in enumerate(check.tables(doc, "rule"), start=1):
        where = f"rule #{i}"
        if not check.is_table(item, where):
            continue
        rule_id = check.text(item, "id", where)
        if rule_id is not None:
            where = f"rule[{rule_id}]"
        check.keys(item, where, RULE_FIELDS)
        check.provenance(item, where)
        check.text(item, "text", where)
        if rule_id is None:
            continue
        if rule_id not in RULE_FLAGS:
            check.add(where, f"unknown rule (known: {', '.join(RULE_FLAGS)})")
            continue
        if rule_id in rules:
            check.add(where, "given twice")
            continue
        value = item.get("value")
        if value is not True:
            check.add(
                f"{where}.value",
                f"the rulebook fixes this rule (rulebook {RULE_FLAGS[rule_id]}): write "
                f"value = true, found {value!r}",
            )
            continue
        rules[rule_id] = True
    # A "rule" that is not an array of tables was reported by check.tables.
    if isinstance(doc.get("rule"), list):
        for rule_id, section in RULE_FLAGS.items():
            if rule_id not in rules and not any(
                isinstance(r, dict) and r.get("id") == rule_id for r in doc["rule"]
            ):
                check.add("rule", f"missing rule {rule_id!r} (rulebook {section})")
    return {r: rules[r] for r in RULE_FLAGS if r in rules}


def _read_zones(check: DataChecker, doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    zones: dict[str, dict[str, Any]] = {}
    for i, item in enumerate(check.tables(doc, "zone"), start=1):
        where = f"zone #{i}"
        if not check.is_table(item, where):
            continue
        zone_id = _zone_id(check, item, where)
        if zone_id is not None:
            where = f"zone[{zone_id}]"
            if zone_id in zones:
                check.add(where, f"duplicate id {zone_id!r}")
                zone_id = None
        check.keys(item, where, ZONE_FIELDS)
        check.provenance(item, where)
        check.provenance(item, where, "stack_provenance")
        name = ""
        if "name" in item:
            name = check.text(item, "name", where) or ""
            check.provenance(item, where, "name_provenance")
        elif "name_provenance" in item:
            check.add(where, "'name_provenance' without a 'name'")
        ring = check.choice(item, "ring", where, RINGS)
        stack = _stack(check, item, "stack", where, required=True)
        stack_soviet = _stack(check, item, "stack_soviet", where, required=False)
        if zone_id is None or ring is None or stack is None or stack_soviet is None:
            continue
        zone = {
            "id": zone_id,
            "name": name,
            "label": _label(zone_id, name),
            "kind": RING_KIND[ring],
            "ring": ring,
            "depth": RING_DEPTH[ring],
        }
        if _check_zone(check, item, zone, stack, stack_soviet, where):
            german: int | str = 0 if ring == "edge" else stack  # rulebook 2.1, 5.2
            zone["stack"] = {"german": german, "soviet": stack_soviet or stack}
            zones[zone_id] = zone
    return zones


def _zone_id(check: DataChecker, item: dict[str, Any], where: str) -> str | None:
    if "id" in item and not isinstance(item["id"], str):
        check.add(
            f"{where}.id", f'zone ids are strings: write id = "{item["id"]}", not {item["id"]!r}'
        )
        return None
    value = check.text(item, "id", where)
    if value is not None and value not in ZONE_IDS:
        check.add(
            f"{where}.id",
            f"{value!r} is not a zone: Areas A-F, Districts 1-18, Sectors I-V (rulebook 2.1)",
        )
        return None
    return value


def _stack(
    check: DataChecker, item: dict[str, Any], key: str, where: str, required: bool
) -> int | str | None:
    """A stacking limit: a positive integer or "unlimited" ("" when optional and absent)."""
    if key not in item:
        if required:
            check.add(where, f"missing field {key!r}")
            return None
        return ""
    value = item[key]
    if value == UNLIMITED:
        return UNLIMITED
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        check.add(f"{where}.{key}", f'expected a positive integer or "unlimited", found {value!r}')
        return None
    return value


def _check_zone(
    check: DataChecker,
    item: dict[str, Any],
    zone: dict[str, Any],
    stack: int | str,
    stack_soviet: int | str,
    where: str,
) -> bool:
    """What one zone must satisfy on its own (rulebook 1, 5.3 and the named districts)."""
    zone_id, ring = zone["id"], zone["ring"]
    before = len(check.problems)
    wanted_ring = _rulebook_ring(zone_id)
    if ring != wanted_ring:
        check.add(
            f"{where}.ring",
            f"{zone['label']} is in the {RING_NAMES[wanted_ring]} (rulebook 1), found {ring!r}",
        )
        return False
    if zone_id in RULEBOOK_NAMES:
        wanted, section = RULEBOOK_NAMES[zone_id]
        if zone["name"] != wanted:
            check.add(
                f"{where}.name",
                f"the rulebook names it {wanted!r} (rulebook {section}), found "
                f"{zone['name'] or 'no name'!r}",
            )
        elif not str(item.get("name_provenance", "")).startswith("rulebook "):
            check.add(
                f"{where}.name_provenance",
                f"the name comes from the rulebook: write 'rulebook {section}'",
            )
    if stack_soviet and zone_id != REICHSTAG:
        check.add(
            f"{where}.stack_soviet", "only Sector V has a separate Soviet limit (rulebook 5.3)"
        )
    if ring in ("edge", "outer"):
        if stack != UNLIMITED:
            check.add(
                f"{where}.stack",
                "stacking is unlimited in Areas A-F and Districts 12-18 (rulebook 5.3), "
                f"found {stack!r}",
            )
    elif ring in ("middle", "inner"):
        if stack == UNLIMITED:
            check.add(
                f"{where}.stack",
                "Districts 1-11 have the limit printed next to the district number "
                "(rulebook 5.3), found 'unlimited'",
            )
        elif zone_id in PRINTED_STACKS and stack != PRINTED_STACKS[zone_id][0]:
            wanted_stack, section = PRINTED_STACKS[zone_id]
            check.add(
                f"{where}.stack",
                f"{zone['label']} has a stacking limit of {wanted_stack} (rulebook {section}), "
                f"found {stack}",
            )
        elif zone_id in EXAMPLE_STACKS and isinstance(stack, int):
            least, section = EXAMPLE_STACKS[zone_id]
            if stack < least:
                check.add(
                    f"{where}.stack",
                    f"the example of rulebook {section} has {least} units of a side in "
                    f"{zone['label']}, found a limit of {stack}",
                )
    elif zone_id != REICHSTAG:
        if stack != MITTE_STACK:
            check.add(
                f"{where}.stack",
                f"Sectors I-IV hold {MITTE_STACK} units per side (rulebook 5.3), found {stack!r}",
            )
    else:
        if stack != MITTE_STACK:
            check.add(
                f"{where}.stack",
                f"Sector V holds {MITTE_STACK} German units (rulebook 5.3), found {stack!r}",
            )
        if stack_soviet != UNLIMITED:
            check.add(
                f"{where}.stack_soviet",
                f"Sector V holds unlimited Soviet units (rulebook 5.3): write stack_soviet = "
                f'"unlimited", found {stack_soviet or "nothing"!r}',
            )
    return len(check.problems) == before


def _sound_pairs(
    check: DataChecker, zones: dict[str, dict[str, Any]], pairs: list[dict[str, Any]]
) -> dict[tuple[str, str], str]:
    """Each sound pair (in map order) -> where it was given; problems recorded."""
    sound = check_pairs(check, zones, pairs, noun="zone", plural="pairs", twice="given twice")
    return {_pair(*sorted(pair)): where for pair, where in sound.items()}


def _check_graph(
    check: DataChecker,
    zones: dict[str, dict[str, Any]],
    adjacent: dict[str, set[str]],
    border_at: dict[tuple[str, str], str],
    apart_at: dict[tuple[str, str], str],
) -> None:
    for a, b, section in RULEBOOK_ADJACENT:
        if _pair(a, b) not in border_at:
            check.add(
                "border",
                f"{zones[a]['label']} and {zones[b]['label']} are adjacent (rulebook {section}), "
                "but no border joins them",
            )
    for a, b, section in RULEBOOK_NOT_ADJACENT:
        if _pair(a, b) not in apart_at:
            check.add(
                "not_adjacent",
                f"{a}-{b} is missing: {zones[a]['label']} and {zones[b]['label']} are not "
                f"adjacent (rulebook {section})",
            )
    for pair, where in apart_at.items():
        if pair in border_at:
            check.add(
                border_at[pair],
                f"{pair[0]} and {pair[1]} are listed as not adjacent ({where}, rulebook 5.1)",
            )
    for (a, b), where in border_at.items():
        ra, rb = zones[a]["ring"], zones[b]["ring"]
        if abs(RING_DEPTH[ra] - RING_DEPTH[rb]) > 1:
            check.add(
                where,
                f"joins the {RING_NAMES[ra]} and the {RING_NAMES[rb]}: the rings are concentric, "
                "a border joins zones of one ring or of neighbouring rings (rulebook 1)",
            )
    for area in AREAS:
        if not any(zones[z]["ring"] == "outer" for z in adjacent[area]):
            check.add(
                f"zone[{area}]",
                "touches no district of the outer ring: the Soviets enter Berlin from the "
                "areas (rulebook 2.1, 4)",
            )
    reached = reachable({REICHSTAG}, adjacent, set(ZONE_IDS))
    if len(reached) != len(ZONE_IDS):
        check.add(
            "border",
            f"the map is not connected: {_names(set(ZONE_IDS) - reached)} cut off from Sector V",
        )


# --- The counters --------------------------------------------------------------------------------

UNIT_TYPE_FIELDS = ("id", *UNIT_TYPES["ss"], "provenance")
UNIT_FIELDS = (
    "id",
    "type",
    "name",
    "name_provenance",
    "start",
    "reinforcement",
    "card",
    "yellow_dot",
    "never_withdraws",
    "provenance",
)
SOURCES = ("start", "reinforcement", "card")


def load_counters(
    raw: bytes, board: Mapping[str, Any], file_name: str = COUNTERS_FILE
) -> dict[str, Any]:
    """Parse and validate the counters against the loaded map; the result is plain JSON data."""
    doc = parse_toml(raw, file_name)
    check = DataChecker(file_name)
    check.sections(doc, ("counters", "unit_type", "unit", "reinforcement", "marker"))

    # Stage 1: every item on its own.
    header = check.table(doc, "counters")
    if header is not None:
        check.keys(header, "counters", ("total", "provenance"))
        check.provenance(header, "counters")
        total = check.integer(header, "total", "counters", 1)
        if total is not None:
            check.exact(total, COUNTERS_TOTAL, "counters.total", "rulebook 2, 2.2")
    _read_unit_types(check, doc)
    units = _read_units(check, doc)
    groups = _read_reinforcements(check, doc)
    markers = _read_markers(check, doc)
    check.stop_if_any()

    # Stage 2: items against each other and against the map.
    _check_units(check, units, board)
    _check_reinforcements(check, units, groups)
    _check_markers(check, markers, units, board)
    check.stop_if_any()

    display: dict[str, list[str]] = {}
    for zone_id in board["zone_ids"]:
        here = [u["id"] for u in units if u["start"] == zone_id]
        if here:
            display[zone_id] = here
    return {
        "unit_types": {t: {"id": t, **UNIT_TYPES[t]} for t in UNIT_TYPES},
        "units": units,
        "initial_display": display,
        # rulebook 5.2: these may not move until Soviet troops enter the Mitte
        "frozen_at_start": list(display.get(REICHSTAG, [])),
        "reinforcements": [
            {
                **groups[g],
                "units": [u["id"] for u in units if u["reinforcement"] == g],
            }
            for g in sorted(groups)
        ],
        "markers": {k: markers[k] for k in MARKER_KINDS},
        "counters_total": COUNTERS_TOTAL,
    }


def _read_unit_types(check: DataChecker, doc: dict[str, Any]) -> None:
    seen: set[str] = set()
    for i, item in enumerate(check.tables(doc, "unit_type"), start=1):
        where = f"unit_type #{i}"
        if not check.is_table(item, where):
            continue
        type_id = check.text(item, "id", where)
        if type_id is not None:
            where = f"unit_type[{type_id}]"
        check.keys(item, where, UNIT_TYPE_FIELDS)
        check.provenance(item, where)
        if type_id is None:
            continue
        if type_id not in UNIT_TYPES:
            check.add(
                where,
                f"unknown unit type (rulebook 2.2 has four: {', '.join(UNIT_TYPES)})",
            )
            continue
        if type_id in seen:
            check.add(where, "given twice")
            continue
        seen.add(type_id)
        for key, wanted in UNIT_TYPES[type_id].items():
            if key not in item:
                check.add(where, f"missing field {key!r}")
            elif item[key] != wanted or type(item[key]) is not type(wanted):
                check.add(
                    f"{where}.{key}",
                    f"expected {wanted!r} (rulebook {TYPE_FIELD_RULES[key]}), found {item[key]!r}",
                )
    # A "unit_type" that is not an array of tables was reported by check.tables.
    if isinstance(doc.get("unit_type"), list):
        for type_id in UNIT_TYPES:
            if type_id not in seen and not any(
                isinstance(t, dict) and t.get("id") == type_id for t in doc["unit_type"]
            ):
                check.add("unit_type", f"missing unit type {type_id!r} (rulebook 2.2)")


def _read_units(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, Any]]:
    units = []
    for i, item in enumerate(check.tables(doc, "unit"), start=1):
        where = f"unit #{i}"
        if not check.is_table(item, where):
            continue
        unit_id = check.ident(item, where)
        if unit_id is not None:
            where = f"unit[{unit_id}]"
        check.keys(item, where, UNIT_FIELDS)
        check.provenance(item, where)
        check.provenance(item, where, "name_provenance")
        name = check.text(item, "name", where)
        type_id = check.choice(item, "type", where, UNIT_TYPES)
        given = [s for s in SOURCES if s in item]
        if len(given) != 1:
            check.add(
                where,
                "give exactly one of start (a zone), reinforcement (a group) or card (a card "
                f"number), found {', '.join(given) or 'none'}",
            )
            continue
        start: str | None = ""
        group: int | None = 0
        card: int | None = 0
        if given == ["start"]:
            start = check.text(item, "start", where)
        elif given == ["reinforcement"]:
            group = check.integer(item, "reinforcement", where, 1, len(REINFORCEMENT_ZONES))
        else:
            card = check.integer(item, "card", where, 1, CARDS_PER_SIDE)
        yellow = check.flag(item, "yellow_dot", where)
        steady = check.flag(item, "never_withdraws", where)
        values = (unit_id, name, type_id, start, group, card, yellow, steady)
        if any(v is None for v in values):
            continue
        assert type_id is not None
        units.append(
            {
                "id": unit_id,
                "type": type_id,
                "side": UNIT_TYPES[type_id]["side"],
                "strength": UNIT_TYPES[type_id]["strength"],
                "name": name,
                "start": start,
                "reinforcement": group,
                "card": card,
                "yellow_dot": yellow,
                "never_withdraws": steady,
            }
        )
    return units


def _read_reinforcements(check: DataChecker, doc: dict[str, Any]) -> dict[int, dict[str, Any]]:
    groups: dict[int, dict[str, Any]] = {}
    for i, item in enumerate(check.tables(doc, "reinforcement"), start=1):
        where = f"reinforcement #{i}"
        if not check.is_table(item, where):
            continue
        group = check.integer(item, "group", where, 1, len(REINFORCEMENT_ZONES))
        if group is not None:
            where = f"reinforcement[{group}]"
        check.keys(item, where, ("group", "turn", "zones", "provenance"))
        check.provenance(item, where)
        turn = check.integer(item, "turn", where, 1, TURNS)
        if turn is not None:
            check.exact(turn, REINFORCEMENT_TURN, f"{where}.turn", "rulebook 8.1")
        if group is None:
            continue
        wanted = list(REINFORCEMENT_ZONES[group])
        zones = item.get("zones")
        if zones != wanted:
            check.add(
                f"{where}.zones",
                f"group {group} arrives in Area {', '.join(wanted[:-1])} or {wanted[-1]} "
                f"(rulebook 8.1), found {zones!r}",
            )
        if group in groups:
            check.add(where, "given twice")
        groups[group] = {"group": group, "turn": REINFORCEMENT_TURN, "zones": wanted}
    if "reinforcement" in doc:
        for group in REINFORCEMENT_ZONES:
            if group not in groups:
                check.add("reinforcement", f"missing group {group} (rulebook 8.1: two groups)")
    return groups


def _read_markers(check: DataChecker, doc: dict[str, Any]) -> dict[str, int]:
    markers: dict[str, int] = {}
    for i, item in enumerate(check.tables(doc, "marker"), start=1):
        where = f"marker #{i}"
        if not check.is_table(item, where):
            continue
        kind = check.choice(item, "kind", where, MARKER_KINDS)
        if kind is not None:
            where = f"marker[{kind}]"
        check.keys(item, where, ("kind", "count", "provenance"))
        check.provenance(item, where)
        count = check.integer(item, "count", where, 1)
        if kind is None or count is None:
            continue
        if kind in markers:
            check.add(where, "given twice")
            continue
        markers[kind] = count
    if "marker" in doc:
        missing = [k for k in MARKER_KINDS if k not in markers]
        if missing and not check.problems:
            check.add(
                "marker",
                f"missing marker kind(s) {', '.join(missing)} (rulebook "
                f"{', '.join(sorted({MARKER_KINDS[k] for k in missing}))})",
            )
    return markers


def _check_units(check: DataChecker, units: list[dict[str, Any]], board: Mapping[str, Any]) -> None:
    ids = Counter(u["id"] for u in units)
    for unit_id, n in ids.items():
        if n > 1:
            check.add(f"unit[{unit_id}]", f"duplicate id {unit_id!r} ({n} times)")
    counts = Counter(u["type"] for u in units)
    for type_id, spec in UNIT_TYPES.items():
        if counts[type_id] != spec["count"]:
            check.add(
                "unit",
                f"expected {spec['count']} {type_id} units (rulebook 2.2), found {counts[type_id]}",
            )
    zones = board["zones"]
    stacks: dict[tuple[str, str], list[str]] = {}
    for unit in units:
        where = f"unit[{unit['id']}]"
        side = unit["side"]
        if unit["reinforcement"] and side != "soviet":
            check.add(
                f"{where}.reinforcement",
                "only Soviet units arrive as reinforcement groups (rulebook 8.1)",
            )
        if unit["card"] and side != "german":
            check.add(
                f"{where}.card",
                "only German units are deployed by Event cards (rulebook 8.1, 8.2)",
            )
        if unit["yellow_dot"] != bool(unit["card"]):
            check.add(
                f"{where}.yellow_dot",
                "the five units deployed by Event cards, and only they, have the yellow dot "
                "(rulebook 5.5.4)",
            )
        if unit["never_withdraws"] and not unit["card"]:
            check.add(
                f"{where}.never_withdraws",
                "only the Steiner unit deployed by card 23 is never withdrawing (rulebook 8.2)",
            )
        start = unit["start"]
        if not start:
            continue
        if start not in zones:
            check.add(f"{where}.start", f"unknown zone {start!r}")
            continue
        ring = zones[start]["ring"]
        if side == "soviet" and ring != "edge":
            check.add(
                f"{where}.start",
                f"the Soviets start in Areas A-F (rulebook 2.1, 4), found {zones[start]['label']}",
            )
            continue
        if side == "german" and ring == "edge":
            check.add(
                f"{where}.start",
                f"German units cannot enter Areas A-F (rulebook 2.1, 5.2), found {start}",
            )
            continue
        if side == "german" and start in REICHSTAG_APPROACHES:
            check.add(
                f"{where}.start",
                "the Germans start in Districts 1-18 and Sector V (rulebook 2.1, 5.2), "
                f"found {zones[start]['label']}",
            )
            continue
        stacks.setdefault((start, side), []).append(unit["id"])
    by_card = [u["id"] for u in units if u["card"]]
    if len(by_card) != CARD_UNITS:
        check.add(
            "unit",
            f"expected {CARD_UNITS} German units deployed by Event cards (rulebook 5.5.4), "
            f"found {len(by_card)}: {', '.join(by_card) or 'none'}",
        )
    garrison = sorted(u["type"] for u in units if u["start"] == REICHSTAG and u["side"] == "german")
    if garrison != ["ss", "wehrmacht"]:
        check.add(
            f"zone[{REICHSTAG}]",
            "two German units start in Sector V, one Wehrmacht and one SS (rulebook 5.2), "
            f"found {', '.join(garrison) or 'none'}",
        )
    for (zone_id, side), stack in sorted(stacks.items(), key=lambda s: _order(s[0][0])):
        limit = stack_limit(board, zone_id, side, soviets_in_mitte=False)
        if limit is not None and len(stack) > limit:
            check.add(
                f"zone[{zone_id}]",
                f"{len(stack)} {SIDE_NAMES[side]} units at start ({', '.join(stack)}); at most "
                f"{limit} (rulebook 5.3)",
            )


def _check_reinforcements(
    check: DataChecker, units: list[dict[str, Any]], groups: dict[int, dict[str, Any]]
) -> None:
    wanted = ", ".join(f"{n} {t}" for t, n in REINFORCEMENT_GROUP.items())
    for group in groups:
        found = Counter(u["type"] for u in units if u["reinforcement"] == group)
        if dict(found) != REINFORCEMENT_GROUP:
            listed = ", ".join(f"{n} {t}" for t, n in sorted(found.items())) or "none"
            check.add(
                f"reinforcement[{group}]",
                f"a group is {wanted} (rulebook 8.1), found {listed}",
            )
    for unit in units:
        if unit["reinforcement"] and unit["reinforcement"] not in groups:
            check.add(
                f"unit[{unit['id']}].reinforcement",
                f"unknown group {unit['reinforcement']}",
            )


def _check_markers(
    check: DataChecker,
    markers: dict[str, int],
    units: list[dict[str, Any]],
    board: Mapping[str, Any],
) -> None:
    if "game-turn" in markers:
        check.exact(
            markers["game-turn"], GAME_TURN_MARKERS, "marker[game-turn].count", "rulebook 7"
        )
    if "control" in markers:
        city = [z for z in board["zone_ids"] if board["zones"][z]["ring"] != "edge"]
        if markers["control"] != len(city):
            check.add(
                "marker[control].count",
                f"every district and sector starts with a German Control marker (rulebook 5.5): "
                f"expected {len(city)}, found {markers['control']}",
            )
    total = len(units) + sum(markers.values())
    if total != COUNTERS_TOTAL:
        check.add(
            "marker",
            f"{len(units)} units and {sum(markers.values())} markers make {total} counters, "
            f"expected {COUNTERS_TOTAL} (rulebook 2.2)",
        )


# --- The cards -----------------------------------------------------------------------------------

CARD_FIELDS = (
    "deck",
    "number",
    "name",
    "symbols",
    "timing",
    "text",
    "provenance",
    "text_provenance",
    "effect",
)
EFFECT_BASE_FIELDS = ("mode", "when", "effect")


def load_cards(
    raw: bytes,
    board: Mapping[str, Any],
    counters: Mapping[str, Any],
    file_name: str = CARDS_FILE,
) -> dict[str, Any]:
    """Parse and validate both decks against the map and the counters; plain JSON data."""
    doc = parse_toml(raw, file_name)
    check = DataChecker(file_name)
    check.sections(doc, ("hand", "decks", "additional_order", "card"))

    # Stage 1: every item on its own.
    _read_fixed_table(check, doc, "hand", HAND, "rulebook 2.3, 7.1")
    _read_fixed_table(check, doc, "decks", {"cards_per_side": CARDS_PER_SIDE}, "rulebook 2.3")
    _read_fixed_table(check, doc, "additional_order", ADDITIONAL_ORDER, "rulebook 2.3, 5.4, 6")
    cards = _read_cards(check, doc)
    check.stop_if_any()

    # Stage 2: the decks, references into the map and the counters, what the rulebook says.
    _check_decks(check, cards)
    check.stop_if_any()
    _check_references(check, cards, board, counters)
    check.stop_if_any()
    _check_rulebook_cards(check, cards, counters)
    _check_order_maximums(check, cards)
    check.stop_if_any()

    return {
        "hand": dict(HAND),
        "cards_per_side": CARDS_PER_SIDE,
        "additional_order": dict(ADDITIONAL_ORDER),
        "decks": {
            side: [
                {k: v for k, v in c.items() if k != "where"}
                for c in sorted(cards, key=lambda c: c["number"])
                if c["deck"] == side
            ]
            for side in SIDES
        },
    }


def _read_fixed_table(
    check: DataChecker, doc: dict[str, Any], key: str, wanted: Mapping[str, int], rule: str
) -> None:
    table = check.table(doc, key)
    if table is None:
        return
    check.keys(table, key, (*wanted, "provenance"))
    check.provenance(table, key)
    for field, value in wanted.items():
        found = check.integer(table, field, key, 0)
        if found is not None:
            check.exact(found, value, f"{key}.{field}", rule)


def _read_cards(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, Any]]:
    cards = []
    for i, item in enumerate(check.tables(doc, "card"), start=1):
        where = f"card #{i}"
        if not check.is_table(item, where):
            continue
        deck = check.choice(item, "deck", where, SIDES)
        number = check.integer(item, "number", where, 1, CARDS_PER_SIDE)
        if deck is not None and number is not None:
            where = f"card[{deck}-{number}]"
        check.keys(item, where, CARD_FIELDS)
        check.provenance(item, where)
        _text_provenance(check, item, where)
        name = check.text(item, "name", where)
        timing = check.text(item, "timing", where)
        text = check.text(item, "text", where)
        symbols = _symbols(check, item, "symbols", where, most=2)
        effects = _read_effects(check, item, where, deck, symbols or [])
        if symbols is not None and effects is not None:
            for symbol in symbols:
                if not any(e["mode"] == symbol for e in effects):
                    check.add(f"{where}.symbols", f"no effect for mode {symbol!r}")
        values = (deck, number, name, timing, text, symbols, effects)
        if any(v is None for v in values):
            continue
        cards.append(
            {
                "id": f"{deck}-{number}",
                "deck": deck,
                "number": number,
                "name": name,
                "symbols": symbols,
                "timing": timing,
                "text": text,
                "effects": effects,
                "where": where,
            }
        )
    return cards


def _text_provenance(check: DataChecker, item: dict[str, Any], where: str) -> None:
    """Required for a rulebook card; a stand-in card's text can only be a stand-in."""
    card_from_rulebook = str(item.get("provenance", "")).startswith("rulebook ")
    if card_from_rulebook:
        check.provenance(item, where, "text_provenance")
    elif "text_provenance" in item and item["text_provenance"] != "stand-in":
        check.add(
            f"{where}.text_provenance",
            f"a stand-in card has stand-in text, found {item['text_provenance']!r}",
        )


def _symbols(
    check: DataChecker, item: dict[str, Any], key: str, where: str, most: int
) -> list[str] | None:
    value = item.get(key)
    if (
        not isinstance(value, list)
        or not value
        or len(value) > most
        or not all(isinstance(s, str) and s in SYMBOLS for s in value)
        or len(set(value)) != len(value)
    ):
        check.add(
            f"{where}.{key}",
            f"expected 1 to {most} different symbols of {', '.join(SYMBOLS)} (rulebook 2.3), "
            f"found {value!r}",
        )
        return None
    return list(value)


def _read_effects(
    check: DataChecker,
    item: dict[str, Any],
    where: str,
    deck: str | None,
    symbols: list[str],
) -> list[dict[str, Any]] | None:
    raw = check.tables(item, "effect", f"{where}.effect")
    if not raw:
        if "effect" not in item:
            check.add(where, "no [[card.effect]]: every card has at least one effect")
        return None
    effects: list[dict[str, Any]] | None = []
    for j, entry in enumerate(raw, start=1):
        here = f"{where}.effect #{j}"
        effect = _read_effect(check, entry, here, deck, symbols)
        if effect is None or effects is None:
            effects = None
        else:
            effects.append(effect)
    return effects


def _read_effect(
    check: DataChecker, entry: Any, where: str, deck: str | None, symbols: list[str]
) -> dict[str, Any] | None:
    if not check.is_table(entry, where):
        return None
    before = len(check.problems)
    mode = check.choice(entry, "mode", where, SYMBOLS)
    when = check.choice(entry, "when", where, WHEN)
    primitive = check.choice(entry, "effect", where, EFFECTS)
    if mode is not None and symbols and mode not in symbols:
        check.add(f"{where}.mode", f"{mode!r} is not a symbol of this card ({', '.join(symbols)})")
    if mode is not None and when is not None and when not in MODE_WHEN[mode]:
        check.add(
            f"{where}.when",
            f"a {mode} effect is played {' or '.join(MODE_WHEN[mode])} (rulebook 2.3), "
            f"found {when!r}",
        )
    if when == "planning" and deck == "german":
        check.add(f"{where}.when", "only the Soviet player has a Planning phase (rulebook 7.2)")
    if primitive is None:
        return None
    required, optional = EFFECTS[primitive]
    known = (*EFFECT_BASE_FIELDS, *required, *optional)
    for key in entry:
        if key not in known:
            listed = ", ".join((*required, *optional)) or "none"
            check.add(where, f"unknown parameter {key!r} for {primitive} (known: {listed})")
    for key in required:
        if key not in entry:
            check.add(where, f"{primitive} needs {key!r}")
    one_of = EFFECT_ONE_OF.get(primitive)
    if one_of and not any(k in entry for k in one_of):
        check.add(where, f"{primitive} needs {' or '.join(repr(k) for k in one_of)}")
    params: dict[str, Any] = {
        k: list(v) if isinstance(v, list) else v
        for k, v in EFFECT_DEFAULTS.get(primitive, {}).items()
    }
    for key, kind in {**required, **optional}.items():
        if key in entry:
            value = _param(check, entry[key], kind, f"{where}.{key}")
            if value is not None:
                params[key] = value
    if len(check.problems) != before:
        return None
    return {"mode": mode, "when": when, "effect": primitive, **params}


def _param(check: DataChecker, value: Any, kind: str, where: str) -> Any:
    """One effect parameter of the given kind; None (and a problem) when it is wrong."""
    problem = ""
    if kind == "bool":
        if not isinstance(value, bool):
            problem = f"expected true or false, found {value!r}"
    elif kind in ("amount", "count"):
        lo, hi = (-MAX_AMOUNT, MAX_AMOUNT) if kind == "amount" else (1, MAX_COUNT)
        if isinstance(value, bool) or not isinstance(value, int):
            problem = f"expected an integer, found {value!r}"
        elif value < lo or value > hi or (kind == "amount" and value == 0):
            zero = ", not 0" if kind == "amount" else ""
            problem = f"{value} is not in {lo}..{hi}{zero}"
    elif kind in ("target", "order", "cancel-order", "filter", "marker"):
        options = {
            "target": ("own", "enemy"),
            "order": ORDER_KINDS,
            "cancel-order": CANCEL_ORDER_KINDS,
            "filter": ZONE_FILTERS,
        }.get(kind)
        if not isinstance(value, str) or not value:
            problem = f"expected a string, found {value!r}"
        elif options is not None and value not in options:
            problem = f"{value!r} is not one of {', '.join(options)}"
    else:  # lists
        allowed = {
            "rings": RINGS,
            "symbols": SYMBOLS,
            "types": tuple(UNIT_TYPES),
            "zones": ZONE_IDS,
        }.get(kind)
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, str) and v for v in value)
        ):
            problem = f"expected a non-empty array of strings, found {value!r}"
        elif len(set(value)) != len(value):
            problem = f"{value!r} names something twice"
        elif allowed is not None and not set(value) <= set(allowed):
            wrong = [v for v in value if v not in allowed]
            problem = f"unknown {', '.join(repr(v) for v in wrong)} (known: {', '.join(allowed)})"
        elif kind == "cards" and not all(CARD_ID.match(v) for v in value):
            problem = f'expected card ids such as "soviet-22", found {value!r}'
    if problem:
        check.add(where, problem)
        return None
    return list(value) if isinstance(value, list) else value


def _check_decks(check: DataChecker, cards: list[dict[str, Any]]) -> None:
    seen: dict[str, str] = {}
    for card in cards:
        if card["id"] in seen:
            check.add(
                card["where"], f"duplicate card number {card['number']} in the {card['deck']} deck"
            )
        seen[card["id"]] = card["where"]
    for side in SIDES:
        numbers = sorted({c["number"] for c in cards if c["deck"] == side})
        found = sum(1 for c in cards if c["deck"] == side)
        if found != CARDS_PER_SIDE:
            missing = sorted(set(range(1, CARDS_PER_SIDE + 1)) - set(numbers))
            check.add(
                "card",
                f"the {side} deck has {found} cards, expected {CARDS_PER_SIDE} (rulebook 2.3: 50 "
                f"Event cards, 25 for each side); missing numbers {missing or 'none'}",
            )


def _check_references(
    check: DataChecker,
    cards: list[dict[str, Any]],
    board: Mapping[str, Any],
    counters: Mapping[str, Any],
) -> None:
    zones = board["zones"]
    units = {u["id"]: u for u in counters["units"]}
    markers = counters["markers"]
    ids = {c["id"]: c for c in cards}
    deployed: dict[str, list[str]] = {}
    for card in cards:
        side, opponent = card["deck"], _other(card["deck"])
        for j, effect in enumerate(card["effects"], start=1):
            where = f"{card['where']}.effect #{j}"
            for zone_id in effect.get("zones", []):
                if zone_id not in zones:
                    check.add(f"{where}.zones", f"unknown zone {zone_id!r}")
            primitive = effect["effect"]
            if primitive == "reinforce":
                if side != "german":
                    check.add(
                        where,
                        "the Soviets receive reinforcements only once, at turn 4 (rulebook 8.1); "
                        "cards bring German reinforcements (rulebook 8.2)",
                    )
                areas = [
                    z for z in effect.get("zones", []) if zones.get(z, {}).get("ring") == "edge"
                ]
                if areas:
                    check.add(
                        f"{where}.zones",
                        "German units cannot enter Areas A-F (rulebook 5.2), found "
                        f"{_names(areas)}",
                    )
                for unit_id in effect["units"]:
                    unit = units.get(unit_id)
                    if unit is None:
                        check.add(f"{where}.units", f"unknown unit {unit_id!r} (counters.toml)")
                    elif unit["card"] != card["number"] or unit["side"] != side:
                        check.add(
                            f"{where}.units",
                            f"{unit_id} is not a unit of card {card['id']} in counters.toml",
                        )
                    deployed.setdefault(unit_id, []).append(card["id"])
            elif primitive == "place_marker":
                kind = effect["marker"]
                if kind not in markers:
                    check.add(f"{where}.marker", f"unknown marker kind {kind!r} (counters.toml)")
                elif effect["count"] > markers[kind]:
                    check.add(
                        f"{where}.count",
                        f"places {effect['count']} {kind} markers, counters.toml has "
                        f"{markers[kind]}",
                    )
            elif primitive == "remove_unit":
                own = [t for t in effect.get("types", []) if UNIT_TYPES[t]["side"] != opponent]
                if own:
                    check.add(
                        f"{where}.types",
                        f"a card removes the opponent's units (rulebook 6), "
                        f"{', '.join(own)} {'is' if len(own) == 1 else 'are'} {side}",
                    )
            elif primitive == "extra_orders":
                for other_id in effect["exclusive_with"]:
                    other = ids.get(other_id)
                    if other is None or other["deck"] != side or other_id == card["id"]:
                        check.add(
                            f"{where}.exclusive_with",
                            f"{other_id!r} is not another card of the {side} deck",
                        )
                    elif not any(
                        card["id"] in e.get("exclusive_with", []) for e in other["effects"]
                    ):
                        check.add(
                            f"{where}.exclusive_with",
                            f"{other_id} does not exclude {card['id']} in turn: exclusion is "
                            "mutual",
                        )
    for unit in counters["units"]:
        if not unit["card"]:
            continue
        by = deployed.get(unit["id"], [])
        if len(by) != 1:
            check.add(
                "card",
                f"{unit['id']} (card {unit['card']} in counters.toml) must be deployed by "
                f"exactly one card effect, found {', '.join(by) or 'none'} (rulebook 8.2)",
            )


def _check_rulebook_cards(
    check: DataChecker, cards: list[dict[str, Any]], counters: Mapping[str, Any]
) -> None:
    by_id = {c["id"]: c for c in cards}
    units = {u["id"]: u for u in counters["units"]}
    for (deck, number), spec in RULEBOOK_CARDS.items():
        card = by_id.get(f"{deck}-{number}")
        rule = f"rulebook {spec['section']}"
        if card is None:
            check.add("card", f"missing {deck} card #{number} {spec['name']!r} ({rule})")
            continue
        where = card["where"]
        if card["name"] != spec["name"]:
            check.add(
                f"{where}.name",
                f"card #{number} is {spec['name']!r} ({rule}), found {card['name']!r}",
            )
        if "symbols" in spec and card["symbols"] != spec["symbols"]:
            check.add(
                f"{where}.symbols",
                f"expected {spec['symbols']!r} ({rule}), found {card['symbols']!r}",
            )
        matching = [
            e
            for e in card["effects"]
            if e["effect"] == spec["effect"]
            and all(e.get(k) == v for k, v in spec["params"].items())
            and e["when"] == spec.get("when", e["when"])
        ]
        if not matching:
            wanted = ", ".join(f"{k} = {v!r}" for k, v in spec["params"].items())
            when = f" at {spec['when']}" if "when" in spec else ""
            check.add(
                where,
                f"{spec['name']} is {spec['effect']}{when}"
                f"{' with ' + wanted if wanted else ''} ({rule})",
            )
            continue
        wanted_units = spec.get("units")
        if wanted_units:
            deployed = [units[u] for u in matching[0]["units"] if u in units]
            problem = len(deployed) != wanted_units["count"] or any(
                u["name"] != wanted_units["name"]
                or u["type"] != wanted_units.get("type", u["type"])
                or u["never_withdraws"] != wanted_units.get("never_withdraws", False)
                for u in deployed
            )
            if problem:
                described = f"{wanted_units['count']} {wanted_units['name']!r} unit(s)"
                if "type" in wanted_units:
                    described += f" of type {wanted_units['type']}"
                if wanted_units.get("never_withdraws"):
                    described += " with never_withdraws = true"
                check.add(f"{where}.effect", f"deploys {described} ({rule})")
    german = [c for c in cards if c["deck"] == "german"]
    panzerfaust = [c for c in german if c["name"] == PANZERFAUST]
    if len(panzerfaust) != 1 or len(panzerfaust[0]["symbols"]) != 2:
        check.add(
            "card",
            f"the German deck needs one {PANZERFAUST!r} card with two symbols: it offers two "
            "alternative effects (rulebook 2.3)",
        )
    flak = [c for c in german if c["name"] == FLAK_CARD]
    if len(flak) != 1 or not any(
        e["effect"] == "place_marker" and e["marker"] == "flak-tower" and e["amount"]
        for e in flak[0]["effects"]
    ):
        check.add(
            "card",
            f"the German deck needs one {FLAK_CARD!r} card placing a flak-tower marker with an "
            "amount: it modifies combat strength in its district (rulebook 7.4.2)",
        )


def _check_order_maximums(check: DataChecker, cards: list[dict[str, Any]]) -> None:
    """rulebook 5.4: at most 6 German Movement orders a turn (4 + 1 by discarding + 1 by #24),
    at most 5 Soviet ones (3 + 2 by #13, which rules out the order bought by discarding)."""
    for side in SIDES:
        adders = [
            (c["id"], e)
            for c in cards
            if c["deck"] == side
            for e in c["effects"]
            if e["effect"] == "extra_orders" and e["order"] in ("movement", "any")
        ]
        doubles = [
            c["id"]
            for c in cards
            if c["deck"] == side
            for e in c["effects"]
            if e["effect"] == "double_move"
        ]
        exclusive = all(
            other in e["exclusive_with"]
            for card_id, e in adders
            for other, _ in adders
            if other != card_id
        )
        if exclusive:  # at most one of them a turn
            options = [e["count"] + (0 if e["blocks_additional_order"] else 1) for _, e in adders]
            extra = max([1, *options])
        else:  # some can be played together: count them all
            blocks = any(e["blocks_additional_order"] for _, e in adders)
            extra = sum(e["count"] for _, e in adders) + (0 if blocks else 1)
        most = BASE_ORDERS[side] + extra + len(doubles)
        if most > MAX_ORDERS[side]:
            adding = [card_id for card_id, _ in adders] + doubles
            check.add(
                "card",
                f"the {side} cards allow {most} Movement orders in a turn "
                f"({', '.join(adding)}); the most is {MAX_ORDERS[side]} (rulebook 5.4)",
            )


def _other(side: str) -> str:
    return "soviet" if side == "german" else "german"


# --- All three files -----------------------------------------------------------------------------


def default_data() -> dict[str, bytes]:
    """The shipped data files by name (bytes exactly as shipped)."""
    return shipped_files("pbem.games.berlin_1945", DATA_FILES)


def load_data(files: Mapping[str, bytes]) -> dict[str, Any]:
    """Load map.toml, counters.toml and cards.toml (the shipped file for one not given)."""
    raw = given_or_shipped(files, DATA_FILES, "berlin_1945", "pbem.games.berlin_1945")
    board = load_map(raw[MAP_FILE])
    counters = load_counters(raw[COUNTERS_FILE], board)
    cards = load_cards(raw[CARDS_FILE], board, counters)
    return {**board, **counters, **cards}


# --- Helpers for the rules engine ----------------------------------------------------------------


def _side(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r} (expected {', '.join(SIDES)})")
    return side


def zone(data: Mapping[str, Any], zone_id: str) -> dict[str, Any]:
    """The zone record: id, name, label, kind, ring, depth, stack, neighbours."""
    try:
        record: dict[str, Any] = data["zones"][zone_id]
    except KeyError:
        raise KeyError(f"unknown zone {zone_id!r}") from None
    return record


def ring(data: Mapping[str, Any], zone_id: str) -> str:
    """ "edge" (Areas A-F), "outer" (12-18), "middle" (6-11), "inner" (1-5) or "mitte" (I-V)."""
    return str(zone(data, zone_id)["ring"])


def ring_depth(data: Mapping[str, Any], zone_id: str) -> int:
    """How many rings out from the Mitte: 0 for Sectors I-V up to 4 for Areas A-F."""
    return int(zone(data, zone_id)["depth"])


def neighbours(data: Mapping[str, Any], zone_id: str, side: str | None = None) -> list[str]:
    """The zones adjacent to `zone_id`, for `side` when given (rulebook 5.1: for the German
    player every Mitte sector is adjacent to every other)."""
    found = set(zone(data, zone_id)["neighbours"])
    if (
        side is not None
        and _side(side) == "german"
        and zone_id in SECTORS
        and data["rules"].get("german-mitte-all-adjacent")
    ):
        found |= set(SECTORS) - {zone_id}
    return sorted(found, key=_order)


def adjacent(data: Mapping[str, Any], a: str, b: str, side: str) -> bool:
    """Whether a group of `side` in `a` may count `b` as adjacent (rulebook 5.1)."""
    zone(data, b)
    return b in neighbours(data, a, side)


def may_enter(data: Mapping[str, Any], zone_id: str, side: str) -> bool:
    """Whether a Movement order of `side` may end in `zone_id`: no unit enters an area by
    movement (rulebook 7.2), and German units never enter one (rulebook 2.1, 5.2)."""
    _side(side)
    return ring(data, zone_id) != "edge"


def stack_limit(
    data: Mapping[str, Any], zone_id: str, side: str, soviets_in_mitte: bool
) -> int | None:
    """The most units of `side` in `zone_id`; None when unlimited (rulebook 5.3).

    `soviets_in_mitte`: whether a Soviet unit has entered Sectors I-IV, which lifts the German
    limit in Sector V ("as soon as ... becomes unlimited"; the engine decides whether it stays
    lifted). German units may not be in Areas A-F at all: their limit there is 0.
    """
    limit = zone(data, zone_id)["stack"][_side(side)]
    if (
        zone_id == REICHSTAG
        and side == "german"
        and soviets_in_mitte
        and data["rules"].get("reichstag-german-unlimited-after-mitte-entry")
    ):
        return None
    return None if limit == UNLIMITED else int(limit)


def direction(data: Mapping[str, Any], start: str, end: str, side: str) -> str:
    """ "advance", "flank" or "rear" for a move of `side` (rulebook 5.5): the Soviets advance
    toward the Mitte, the Germans away from it; the same ring is a flank."""
    step = ring_depth(data, start) - ring_depth(data, end)  # > 0: toward the Mitte
    if step == 0:
        return "flank"
    inward = step > 0
    return "advance" if inward == (_side(side) == "soviet") else "rear"


def card(data: Mapping[str, Any], card_id: str) -> dict[str, Any]:
    """The card "german-2", "soviet-13", ..."""
    match = CARD_ID.match(card_id)
    if match:
        for record in data["decks"][match.group(1)]:
            if record["number"] == int(match.group(2)):
                return dict(record)
    raise KeyError(f"unknown card {card_id!r}")
