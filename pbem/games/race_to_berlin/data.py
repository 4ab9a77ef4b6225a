"""Race to Berlin data: reading and validating `map.toml` and `tokens.toml`.

`map.toml` holds what the board shows: the numbered areas and the Berlin sub-areas
(name, difficult terrain, controlling force at start, board edges, eagles), the
borders (once per pair, rivers marked), the fortification tokens and the unit
tokens with their start areas. `tokens.toml` holds the pieces off the map: front
line markers, action cubes, victory point tokens, logistics blocks and special
tokens. Every item carries a `provenance`: "rulebook <section>" or "stand-in".

`load_map` and `load_tokens` parse TOML bytes and return plain JSON data (dicts,
lists, strings, ints, bools); `load_data` combines both (shipped defaults for a
file not given). Checking a file collects every problem of a stage into one
DataError, each naming the file, the item and what is wrong.

Area ids are strings everywhere ("17", "B1"). The helpers at the end
(`area_graph`, `neighbours`, `is_river`, `initial_control`, `front_borders`,
`supplied_areas`) are pure functions over the loaded data for the rules engine; the
board's geometry is a `pbem.maps.areas.AreaGraph` built from the data's own neighbour
and river lists (`area_graph`, which also serves the engine's static map).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pbem.games.datacheck import (
    DataChecker,
    check_pairs,
    given_or_shipped,
    read_node,
    read_pairs,
    read_toml,
    shipped_files,
)
from pbem.maps.areas import RIVER, AreaGraph

MAP_FILE = "map.toml"
TOKENS_FILE = "tokens.toml"
DATA_FILES = (MAP_FILE, TOKENS_FILE)

# --- What the rulebook fixes -------------------------------------------------------------------

PLAYERS = ("west", "soviet")
CONTROLS = ("west", "soviet", "german")  # who holds an area
FORCES = ("west", "soviet", "german-west", "german-east")  # what a unit or token belongs to
# rulebook 1, 4.1.1: each player plays its own force and the German front facing the other one
PLAYER_FORCES = {"west": ("west", "german-east"), "soviet": ("soviet", "german-west")}
FORCE_PLAYER = {force: player for player, forces in PLAYER_FORCES.items() for force in forces}
FORCE_CONTROL = {
    "west": "west",
    "soviet": "soviet",
    "german-west": "german",
    "german-east": "german",
}
GERMAN_FRONTS = {"german-west": "west", "german-east": "east"}  # unit force -> area `front`
FORCE_NAMES = {"west": "West", "soviet": "Soviet", "german": "German"}

EDGES = ("west", "south", "east")
SUPPLY_EDGES = {"west": ("west", "south"), "soviet": ("east",)}  # rulebook 4.4
EDGE_NAMES = {"west": "the western or southern edge", "soviet": "the eastern edge"}

# rulebook 4.5: B1 the centre, B2/B3 eastern Berlin (Soviets only), B4/B5 western (West only)
BERLIN = {"B1": "center", "B2": "east", "B3": "east", "B4": "west", "B5": "west"}
BERLIN_ACCESS = ("31", "32")  # rulebook 4.5: "areas 31 and 32 which touch Berlin"
BERLIN_ALLOWED = {"west": ("B4", "B5"), "soviet": ("B2", "B3"), "german": ("B1",)}

EAGLES = ("blue", "red", "both")  # blue: West VP, red: Soviet VP, both: B1 (rulebook 5)
EAGLE_PLAYER = {"blue": "west", "red": "soviet"}

# rulebook 4.2.1.2: the printed type, its name and what it adds to the defence
FORTIFICATION_TYPES: dict[int, dict[str, Any]] = {
    1: {"kind": "improved", "defense": 1},
    2: {"kind": "regular", "defense": 2},
    3: {"kind": "major", "defense": 2},  # also adds only +2, but the defender does not retreat
}
SPECIAL_KINDS = ("logistics", "support", "counterattack", "reserves")  # rulebook: Special tokens

UNITS = 40  # rulebook 1
FORTIFICATIONS = 16  # rulebook 1
EAGLES_PER_COLOUR = 4  # rulebook 1: victory point tokens 2x4
FRONT_MARKERS = 25  # rulebook 1: front line markers 2x25
ACTION_CUBES = 20  # rulebook 1: action cubes 2x20
SPECIAL_PER_PLAYER = 8  # rulebook: Special tokens ("each player has 8")
LOGISTICS_VALUES = [2, 2, 3, 3, 4, 4, 5, 5]  # rulebook 4.1
STACK_LIMIT = 3  # rulebook 4.2.1.1: at most 3 units per area
BERLIN_STACK_LIMIT = 3  # rulebook 4.5: at most 3 units per force in all of Berlin
GERMAN_STRENGTH = 4  # rulebook 2
MAX_TERRAIN = 2  # rulebook 4.2.1.2: the printed value is 1 or 2

# \Z, not $: "$" also matches before a final newline ("17\n" is no area number).
NUMBERED = re.compile(r"^[1-9][0-9]*\Z")


def _order(area_id: str) -> tuple[int, int, str]:
    """Numbered areas by number, then B1..B5."""
    if NUMBERED.match(area_id):
        return (0, int(area_id), "")
    return (1, 0, area_id)


def _names(ids: Iterable[str]) -> str:
    return ", ".join(sorted(ids, key=_order)) or "none"


# --- The map -------------------------------------------------------------------------------------

AREA_FIELDS = (
    "id",
    "name",
    "places",
    "control",
    "front",
    "terrain",
    "edges",
    "berlin",
    "eagle",
    "eagle_provenance",
    "provenance",
)
BORDER_FIELDS = ("between", "river", "provenance")
FORTIFICATION_FIELDS = ("id", "name", "value", "area", "provenance")
UNIT_FIELDS = ("id", "name", "force", "area", "strength", "reserve", "replaces", "provenance")


def load_map(raw: bytes, file_name: str = MAP_FILE) -> dict[str, Any]:
    """Parse and validate the map; the result is plain JSON data."""
    doc, check = read_toml(raw, file_name, ("map", "area", "border", "fortification", "unit"))

    # Stage 1: every item on its own.
    title = _read_header(check, doc)
    areas = _read_areas(check, doc)
    borders = read_pairs(
        check,
        doc,
        "border",
        noun="area",
        example='["4", "7"]',
        fields=BORDER_FIELDS,
        flags=("river",),
    )
    forts = _read_fortifications(check, doc)
    units = _read_units(check, doc)
    check.stop_if_any()

    # Stage 2: items against each other.
    _check_area_set(check, areas)
    check_pairs(check, areas, borders, noun="area", plural="borders", twice="duplicate border")
    _check_fortifications(check, areas, forts)
    _check_units(check, areas, units)
    check.stop_if_any()

    # Stage 3: the graph (needs sound areas and borders), in map order.
    area_ids = sorted(areas, key=_order)
    graph = AreaGraph(
        area_ids,
        [b["between"] for b in borders],
        features={frozenset(b["between"]): [RIVER] for b in borders if b["river"]},
    )
    _check_graph(check, areas, graph)
    check.stop_if_any()

    result_areas: dict[str, Any] = {}
    for area_id in area_ids:
        around = list(graph.neighbours(area_id))
        result_areas[area_id] = {
            **areas[area_id],
            "neighbours": around,
            "rivers": [n for n in around if graph.is_river(area_id, n)],
        }
    data: dict[str, Any] = {
        "title": title,
        "area_ids": area_ids,
        "areas": result_areas,
        "borders": [{"areas": [a, b], "river": graph.is_river(a, b)} for a, b in graph.borders],
        "berlin": list(BERLIN),
        "berlin_access": list(BERLIN_ACCESS),
        "edges": {e: [a for a in area_ids if e in areas[a]["edges"]] for e in EDGES},
        "eagles": {c: [a for a in area_ids if areas[a]["eagle"] == c] for c in EAGLES},
        "supply_bases": {
            **{
                player: [a for a in area_ids if set(areas[a]["edges"]) & set(edges)]
                for player, edges in SUPPLY_EDGES.items()
            },
            # rulebook 4.4: the eagle (victory point) areas; rulebook 4.2.1.1: and B1
            "german": [a for a in area_ids if areas[a]["eagle"]],
        },
        "fortifications": forts,
        "units": units,
    }
    control = initial_control(data)
    data["initial_front"] = {
        p: [list(pair) for pair in front_borders(control, data, p)] for p in PLAYERS
    }
    _check_front(check, data["initial_front"])
    check.stop_if_any()
    return data


def _read_header(check: DataChecker, doc: dict[str, Any]) -> str:
    header = check.table(doc, "map")
    if header is None:
        return ""
    check.fields(header, "map", ("title", "provenance"))
    return check.text(header, "title", "map") or ""


def _read_areas(check: DataChecker, doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    areas: dict[str, dict[str, Any]] = {}
    for item, where in check.items(doc, "area"):
        area_id, where = read_node(check, item, where, "area", areas, _area_fault)
        check.fields(item, where, AREA_FIELDS)
        fields = {
            "name": check.text(item, "name", where),
            "places": check.texts(item, "places", where),
            "control": check.choice(item, "control", where, CONTROLS),
            "front": check.choice(item, "front", where, ("west", "east"), required=False),
            "terrain": check.integer(item, "terrain", where, 0, MAX_TERRAIN),
            "edges": _edges(check, item, where),
            "berlin": check.choice(item, "berlin", where, ("center", "east", "west"), False),
            "eagle": check.choice(item, "eagle", where, EAGLES, required=False),
        }
        if "eagle" in item:
            check.provenance(item, where, "eagle_provenance")
        elif "eagle_provenance" in item:
            check.add(where, "'eagle_provenance' without an 'eagle'")
        if area_id is None or any(v is None for v in fields.values()):
            continue
        area = {"id": area_id, **fields}
        _check_area(check, area, where)
        areas[area_id] = area
    if not areas and not check.problems:
        check.add("area", "no areas defined")
    return areas


def _area_fault(value: str) -> str | None:
    if not (NUMBERED.match(value) or value in BERLIN):
        return f'{value!r} is neither an area number ("17") nor B1..B5'
    return None


def _edges(check: DataChecker, item: dict[str, Any], where: str) -> list[str] | None:
    edges = check.texts(item, "edges", where)
    if edges is None:
        return None
    for edge in edges:
        if edge not in EDGES:
            check.add(f"{where}.edges", f"{edge!r} is not one of {', '.join(EDGES)}")
            return None
    if len(set(edges)) != len(edges):
        check.add(f"{where}.edges", f"{edges!r} names an edge twice")
        return None
    return edges


def _check_area(check: DataChecker, area: dict[str, Any], where: str) -> None:
    """What one area must satisfy on its own."""
    area_id = area["id"]
    if area_id in BERLIN:
        if area["berlin"] != BERLIN[area_id]:
            check.add(
                f"{where}.berlin",
                f"{area_id} is {BERLIN[area_id]!r} Berlin (rulebook 4.5), "
                f"found {area['berlin'] or 'nothing'!r}",
            )
        if area["control"] != "german":
            check.add(
                f"{where}.control",
                f"Berlin is German at start (rulebook 3, 4.5), not {area['control']!r}",
            )
        if area["edges"]:
            check.add(f"{where}.edges", "Berlin touches no board edge")
        if area["front"]:
            check.add(f"{where}.front", "Berlin sub-areas belong to no German front")
        wanted = "both" if area_id == "B1" else ""
        if area["eagle"] != wanted:
            problem = (
                'B1 has the two-colour eagle: eagle = "both" (rulebook 5)'
                if area_id == "B1"
                else "only B1 of Berlin has an eagle (rulebook 5)"
            )
            check.add(f"{where}.eagle", problem)
        return
    if area["berlin"]:
        check.add(f"{where}.berlin", "only B1..B5 are Berlin sub-areas (rulebook 4.5)")
    if area["eagle"] == "both":
        check.add(f"{where}.eagle", "only B1 has the two-colour eagle (rulebook 5)")
    if area["control"] == "german" and not area["front"]:
        check.add(where, 'a German area needs front = "west" or "east" (its units at start)')
    if area["control"] != "german" and area["front"]:
        check.add(
            f"{where}.front", f"only German areas have a front, this one is {area['control']!r}"
        )
    if area["eagle"] and area["control"] != "german":
        check.add(
            f"{where}.eagle",
            f"eagle areas are German at start (rulebook 4.4, 5), this one is {area['control']!r}",
        )


def _check_area_set(check: DataChecker, areas: dict[str, dict[str, Any]]) -> None:
    numbered = sorted(int(a) for a in areas if NUMBERED.match(a))
    if numbered != list(range(1, len(numbered) + 1)):
        missing = sorted(set(range(1, max(numbered, default=0) + 1)) - set(numbered))
        check.add("area", f"numbered areas must run 1..N without gaps; missing {missing}")
    for area_id in BERLIN_ACCESS:
        if area_id not in areas:
            check.add("area", f"area {area_id} is missing (rulebook 4.5: 31 and 32 touch Berlin)")
    missing_berlin = [b for b in BERLIN if b not in areas]
    if missing_berlin:
        check.add("area", f"Berlin sub-area(s) {', '.join(missing_berlin)} missing (rulebook 4.5)")
    for colour in ("blue", "red"):
        found = [a for a in areas if areas[a]["eagle"] == colour]
        if len(found) != EAGLES_PER_COLOUR:
            check.add(
                "area",
                f"expected {EAGLES_PER_COLOUR} {colour} eagle areas (rulebook 1: victory point "
                f"tokens 2x4), found {len(found)}: {_names(found)}",
            )
    for player, edges in SUPPLY_EDGES.items():
        if not any(set(a["edges"]) & set(edges) for a in areas.values()):
            check.add("area", f"no area touches {EDGE_NAMES[player]} (rulebook 4.4)")


def _named_items(
    check: DataChecker, items: list[Any], key: str, fields: Iterable[str]
) -> Iterator[tuple[Any, str | None, str]]:
    """Each table of `items` (the array of tables `key`, whose length the caller checks),
    with its id and where problems name it from then on ("unit[2a]", or "unit #3" when the
    id is wrong), its fields checked; an item that is no table is reported and passed over."""
    for i, item in enumerate(items, start=1):
        where = f"{key} #{i}"
        if check.is_table(item, where):
            ident, where = check.named(item, where, key + "[{}]", fields)
            yield item, ident, where


def _count_tokens(
    check: DataChecker, doc: dict[str, Any], key: str, items: list[Any], wanted: int
) -> None:
    """The array of tables `key`, when given, holds one table a token of the box."""
    if key in doc and len(items) != wanted:
        check.add(key, f"expected {wanted} {key} tokens (rulebook 1), found {len(items)}")


def _no_duplicates(check: DataChecker, key: str, tokens: list[dict[str, Any]]) -> None:
    """No two tokens of `[[key]]` share an id."""
    for ident, n in Counter(token["id"] for token in tokens).items():
        if n > 1:
            check.add(f"{key}[{ident}]", f"duplicate id {ident!r} ({n} times)")


def _read_fortifications(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, Any]]:
    forts = []
    items = check.tables(doc, "fortification")
    for item, fort_id, where in _named_items(check, items, "fortification", FORTIFICATION_FIELDS):
        name = check.text(item, "name", where)
        value = check.integer(item, "value", where, 1, 3)
        area = check.text(item, "area", where)
        if fort_id is None or name is None or value is None or area is None:
            continue
        forts.append(
            {
                "id": fort_id,
                "name": name,
                "value": value,
                **FORTIFICATION_TYPES[value],
                "area": area,
            }
        )
    _count_tokens(check, doc, "fortification", items, FORTIFICATIONS)
    return forts


def _check_fortifications(
    check: DataChecker, areas: dict[str, dict[str, Any]], forts: list[dict[str, Any]]
) -> None:
    _no_duplicates(check, "fortification", forts)
    held: dict[str, str] = {}
    for fort in forts:
        where = f"fortification[{fort['id']}]"
        area_id = fort["area"]
        if area_id not in areas:
            check.add(f"{where}.area", f"unknown area {area_id!r}")
            continue
        if areas[area_id]["control"] != "german":
            check.add(
                f"{where}.area",
                f"fortifications start in German areas, {area_id} is {areas[area_id]['control']!r}",
            )
        if area_id in held:
            check.add(f"{where}.area", f"area {area_id} already holds {held[area_id]!r}")
        held[area_id] = fort["id"]
    missing = [k for k in FORTIFICATION_TYPES if k not in {f["value"] for f in forts}]
    if missing:
        kinds = ", ".join(f"{k} ({FORTIFICATION_TYPES[k]['kind']})" for k in missing)
        check.add("fortification", f"no token of type {kinds}: there are 3 types (rulebook 1)")


def _read_units(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, Any]]:
    units = []
    items = check.tables(doc, "unit")
    for item, unit_id, where in _named_items(check, items, "unit", UNIT_FIELDS):
        name = check.text(item, "name", where)
        force = check.choice(item, "force", where, FORCES)
        reserve = check.flag(item, "reserve", where)
        if reserve:
            area: str | None = ""
            if "area" in item:
                check.add(where, "a reserve unit starts off the board: give no 'area'")
            replaces = check.text(item, "replaces", where)
        else:
            area = check.text(item, "area", where)
            replaces = ""
            if "replaces" in item:
                check.add(where, "only a reserve unit 'replaces' another (rulebook 4.3)")
        unit: dict[str, Any] = {
            "id": unit_id,
            "name": name,
            "force": force,
            "area": area,
            "reserve": reserve,
        }
        if force in GERMAN_FRONTS:
            unit["strength"] = check.integer(item, "strength", where, 1, GERMAN_STRENGTH)
            if unit["strength"] is not None and unit["strength"] != GERMAN_STRENGTH:
                check.add(
                    f"{where}.strength",
                    f"German units start at strength {GERMAN_STRENGTH} (rulebook 2), "
                    f"found {unit['strength']}",
                )
        elif force is not None and "strength" in item:
            check.add(f"{where}.strength", "West and Soviet units have no strength (rulebook 2)")
        if reserve:
            unit["replaces"] = replaces
        if any(v is None for v in unit.values()):
            continue
        units.append(unit)
    _count_tokens(check, doc, "unit", items, UNITS)
    return units


def _check_units(
    check: DataChecker, areas: dict[str, dict[str, Any]], units: list[dict[str, Any]]
) -> None:
    _no_duplicates(check, "unit", units)
    for force in FORCES:
        if not any(u["force"] == force for u in units):
            check.add("unit", f"no {force} unit")
    names = Counter((u["force"], u["name"]) for u in units)
    for (force, name), n in names.items():
        if n > 1:
            check.add("unit", f"{n} {force} units are called {name!r}")
    by_id = {u["id"]: u for u in units}
    stacks: dict[str, list[str]] = {}
    in_berlin: dict[str, list[str]] = {}
    for unit in units:
        where = f"unit[{unit['id']}]"
        if unit["reserve"]:
            _check_reserve(check, unit, by_id, where)
            continue
        area_id = unit["area"]
        if area_id not in areas:
            check.add(f"{where}.area", f"unknown area {area_id!r}")
            continue
        area = areas[area_id]
        control = FORCE_CONTROL[unit["force"]]
        if area["control"] != control:
            check.add(
                f"{where}.area",
                f"a {unit['force']} unit starts in a {control} area, {area_id} is "
                f"{area['control']!r}",
            )
        elif area_id in BERLIN:
            if area_id not in BERLIN_ALLOWED[control]:
                allowed = " or ".join(BERLIN_ALLOWED[control])
                check.add(
                    f"{where}.area",
                    f"{FORCE_NAMES[control]} units in Berlin only in {allowed} (rulebook 4.5)",
                )
            in_berlin.setdefault(control, []).append(unit["id"])
        elif unit["force"] in GERMAN_FRONTS and area["front"] != GERMAN_FRONTS[unit["force"]]:
            check.add(
                f"{where}.area",
                f"a {unit['force']} unit starts on the {GERMAN_FRONTS[unit['force']]}ern front, "
                f"area {area_id} is on the {area['front']}ern front",
            )
        stacks.setdefault(area_id, []).append(unit["id"])
    for area_id, stack in stacks.items():
        if len(stack) > STACK_LIMIT:
            check.add(
                f"area[{area_id}]",
                f"{len(stack)} units at start ({', '.join(stack)}); at most {STACK_LIMIT} "
                "(rulebook 4.2.1.1)",
            )
    for control, stack in in_berlin.items():
        if len(stack) > BERLIN_STACK_LIMIT:
            check.add(
                "Berlin",
                f"{len(stack)} {FORCE_NAMES[control]} units at start ({', '.join(stack)}); at most "
                f"{BERLIN_STACK_LIMIT} per force in all of Berlin (rulebook 4.5)",
            )


def _check_reserve(
    check: DataChecker, unit: dict[str, Any], by_id: dict[str, dict[str, Any]], where: str
) -> None:
    """rulebook 4.3: the Eastern Front 6th SS Panzer Army replaces the Western Front one."""
    if unit["force"] != "german-east":
        check.add(
            where, "only an Eastern Front German unit enters from off the board (rulebook 4.3)"
        )
        return
    other = by_id.get(unit["replaces"])
    if other is None:
        check.add(f"{where}.replaces", f"unknown unit {unit['replaces']!r}")
    elif other["force"] != "german-west" or other["reserve"]:
        check.add(
            f"{where}.replaces",
            f"{other['id']!r} must be a Western Front German unit on the board (rulebook 4.3)",
        )
    elif other["name"] != unit["name"]:
        check.add(
            f"{where}.replaces",
            f"{other['id']!r} is {other['name']!r}, not {unit['name']!r}: one formation changes "
            "fronts (rulebook 4.3)",
        )


def _check_graph(check: DataChecker, areas: dict[str, dict[str, Any]], graph: AreaGraph) -> None:
    # rulebook 4.5: every sub-area borders the other four and 31 and 32, and nothing else.
    for sub in BERLIN:
        wanted = (set(BERLIN) - {sub}) | set(BERLIN_ACCESS)
        around = set(graph.neighbours(sub))
        missing, extra = wanted - around, around - wanted
        if missing or extra:
            check.add(
                f"area[{sub}]",
                "a Berlin sub-area borders the other four and areas 31 and 32 only "
                f"(rulebook 4.5); missing {_names(missing)}, extra {_names(extra)}",
            )
    # The whole map is one piece.
    reached = graph.region(graph.areas[:1])
    if len(reached) != len(areas):
        check.add("border", f"the map is not connected: {_names(set(areas) - reached)} cut off")
        return
    # rulebook 4.4: at start every West area draws supply from the western or southern edge
    # through West areas, every Soviet area from the eastern edge, every German area from an
    # eagle area or B1 -- nothing starts isolated.
    control = {a: areas[a]["control"] for a in areas}
    for force in CONTROLS:
        own = {a for a in areas if control[a] == force}
        cut = own - _supplied(graph, areas, control, force)
        if not own and force != "german":
            check.add("area", f"no {FORCE_NAMES[force]} area at start")
        if cut:
            source = EDGE_NAMES.get(force, "an eagle area or B1")
            check.add(
                "area",
                f"{FORCE_NAMES[force]} area(s) {_names(cut)} not connected to {source} "
                f"through {FORCE_NAMES[force]} areas at start (rulebook 4.4)",
            )


def _check_front(check: DataChecker, front: dict[str, list[list[str]]]) -> None:
    for player in PLAYERS:
        needed = len(front[player])
        if needed > FRONT_MARKERS:
            check.add(
                "area",
                f"the {FORCE_NAMES[player]} front at start needs {needed} front line markers, "
                f"there are only {FRONT_MARKERS} (rulebook 1)",
            )


# --- The tokens ----------------------------------------------------------------------------------

COUNTS = {
    # section: (rulebook number, rulebook section)
    "front_markers": (FRONT_MARKERS, "rulebook 1"),
    "action_cubes": (ACTION_CUBES, "rulebook 1"),
    "victory_tokens": (EAGLES_PER_COLOUR, "rulebook 1"),
}


def load_tokens(raw: bytes, file_name: str = TOKENS_FILE) -> dict[str, Any]:
    """Parse and validate the tokens; the result is plain JSON data."""
    doc, check = read_toml(raw, file_name, (*COUNTS, "logistics", "special"))
    result: dict[str, Any] = {"controls": {p: list(f) for p, f in PLAYER_FORCES.items()}}

    for section, (wanted, rule) in COUNTS.items():
        table = check.table(doc, section)
        if table is None:
            continue
        check.fields(table, section, ("per_player", "provenance"))
        value = check.integer(table, "per_player", section, 0)
        if value is not None and value != wanted:
            check.add(f"{section}.per_player", f"expected {wanted} ({rule}), found {value}")
        result[section] = value

    logistics: dict[str, list[int]] = {}
    for item, where in check.items(doc, "logistics"):
        player = check.choice(item, "player", where, PLAYERS)
        if player is not None:
            where = f"logistics[{player}]"
        check.fields(item, where, ("player", "values", "provenance"))
        values = item.get("values")
        if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values
        ):
            check.add(f"{where}.values", f"expected an array of integers, found {values!r}")
            continue
        if sorted(values) != LOGISTICS_VALUES:
            check.add(
                f"{where}.values",
                f"expected {LOGISTICS_VALUES} (rulebook 4.1: 2 each of 2, 3, 4, 5), found {values}",
            )
        if player is None:
            continue
        if player in logistics:
            check.add(where, f"the {player} player's blocks are given twice")
        logistics[player] = sorted(values)
    if "logistics" in doc:
        for player in PLAYERS:
            if player not in logistics:
                check.add("logistics", f"no logistics blocks for the {player} player")
    result["logistics"] = logistics

    special: dict[str, list[dict[str, str]]] = {p: [] for p in PLAYERS}
    seen: set[tuple[str, str, str]] = set()
    for item, where in check.items(doc, "special"):
        check.fields(item, where, ("player", "force", "kind", "count", "provenance"))
        player = check.choice(item, "player", where, PLAYERS)
        force = check.choice(item, "force", where, FORCES)
        kind = check.choice(item, "kind", where, SPECIAL_KINDS)
        count = check.integer(item, "count", where, 1, SPECIAL_PER_PLAYER)
        if player is None or force is None or kind is None or count is None:
            continue
        where = f"special[{player}, {force}, {kind}]"
        if force not in PLAYER_FORCES[player]:
            check.add(
                f"{where}.force",
                f"the {player} player plays {' and '.join(PLAYER_FORCES[player])}, not {force} "
                "(rulebook 4.1.1)",
            )
            continue
        if kind == "counterattack" and force not in GERMAN_FRONTS:
            check.add(
                f"{where}.kind",
                "Counterattack is played for defending German units (rulebook: Special tokens)",
            )
            continue
        if (player, force, kind) in seen:
            check.add(where, "given twice: one entry per player, force and kind")
            continue
        seen.add((player, force, kind))
        start = sum(1 for t in special[player] if t["force"] == force and t["kind"] == kind)
        for n in range(start + 1, start + count + 1):
            special[player].append({"id": f"{force}-{kind}-{n}", "kind": kind, "force": force})
    if "special" in doc and not check.problems:
        for player in PLAYERS:
            if len(special[player]) != SPECIAL_PER_PLAYER:
                check.add(
                    "special",
                    f"the {player} player has {len(special[player])} special tokens, expected "
                    f"{SPECIAL_PER_PLAYER} (rulebook: Special tokens)",
                )
    result["special"] = special
    check.stop_if_any()
    return result


# --- Both files ----------------------------------------------------------------------------------


def default_data() -> dict[str, bytes]:
    """The shipped data files by name (bytes exactly as shipped)."""
    return shipped_files("pbem.games.race_to_berlin", DATA_FILES)


def load_data(files: Mapping[str, bytes]) -> dict[str, Any]:
    """Load map.toml and tokens.toml (the shipped file for one not given) into one dict."""
    raw = given_or_shipped(files, DATA_FILES, "race_to_berlin", "pbem.games.race_to_berlin")
    return read_files(raw)


def read_files(raw: Mapping[str, bytes]) -> dict[str, Any]:
    """Both files' bytes loaded into one dict."""
    return {**load_map(raw[MAP_FILE]), **load_tokens(raw[TOKENS_FILE])}


# --- Helpers for the rules engine ----------------------------------------------------------------


# Graphs of the maps in use, by the identity of the map data they index (loaded data, or
# a game's static map: never changed once built); the data object is kept to make sure
# an id is not reused by another object.
_GRAPHS: dict[int, tuple[Mapping[str, Any], AreaGraph]] = {}
_GRAPHS_KEPT = 8


def area_graph(data: Mapping[str, Any]) -> AreaGraph:
    """The area graph of loaded data or of an engine's static map (`area_ids`, and each
    area's `neighbours` and `rivers`), built once per map object."""
    cached = _GRAPHS.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    areas = data["areas"]
    graph = AreaGraph.from_neighbours(
        {a: areas[a]["neighbours"] for a in data["area_ids"]},
        features={frozenset((a, n)): [RIVER] for a in data["area_ids"] for n in areas[a]["rivers"]},
        groups={
            "berlin": [a for a in data["area_ids"] if areas[a]["berlin"]],
            **{
                f"{edge}-edge": [a for a in data["area_ids"] if edge in areas[a]["edges"]]
                for edge in EDGES
            },
        },
    )
    if len(_GRAPHS) >= _GRAPHS_KEPT:
        _GRAPHS.clear()
    _GRAPHS[id(data)] = (data, graph)
    return graph


def neighbours(data: Mapping[str, Any], area: str) -> list[str]:
    """The areas sharing a border with `area`, in map order."""
    return list(area_graph(data).neighbours(area))


def is_river(data: Mapping[str, Any], a: str, b: str) -> bool:
    """Whether the border between `a` and `b` is a river (rulebook 4.2.1.2: +1 defence)."""
    return area_graph(data).is_river(a, b)


def initial_control(data: Mapping[str, Any]) -> dict[str, str]:
    """Area -> "west" | "soviet" | "german" at the start of the game."""
    return {area_id: area["control"] for area_id, area in data["areas"].items()}


def _check_control(control: Mapping[str, str], data: Mapping[str, Any]) -> None:
    missing = [a for a in data["areas"] if a not in control]
    if missing:
        raise ValueError(f"control map lacks area(s) {_names(missing)}")
    extra = [a for a in control if a not in data["areas"]]
    if extra:
        raise ValueError(f"control map names unknown area(s) {', '.join(sorted(extra))}")
    wrong = sorted({v for v in control.values() if v not in CONTROLS})
    if wrong:
        raise ValueError(f"control values must be {', '.join(CONTROLS)}, found {wrong}")


def front_borders(
    control: Mapping[str, str], data: Mapping[str, Any], force: str
) -> list[tuple[str, str]]:
    """The borders that need `force`'s front line markers under `control`.

    A marker sits on each border between an area of `force` and any other area
    (rulebook 4.2.1.1); where West and Soviet areas touch, both players put one
    (rulebook 4.2.1.2), which follows from asking once per force.
    """
    if force not in CONTROLS:
        raise ValueError(f"unknown force {force!r} (expected {', '.join(CONTROLS)})")
    _check_control(control, data)
    return area_graph(data).cut(lambda a: control[a] == force)


def supplied_areas(control: Mapping[str, str], data: Mapping[str, Any], force: str) -> list[str]:
    """The areas of `force` with a supply line under `control` (rulebook 4.4).

    West: from an area of its own on the western or southern edge; Soviets: from
    one on the eastern edge; Germans: from an eagle area or B1 that is German.
    A supply line runs through areas of the same force.
    """
    if force not in CONTROLS:
        raise ValueError(f"unknown force {force!r} (expected {', '.join(CONTROLS)})")
    _check_control(control, data)
    return sorted(_supplied(area_graph(data), data["areas"], control, force), key=_order)


def _supplied(
    graph: AreaGraph, areas: Mapping[str, Any], control: Mapping[str, str], force: str
) -> set[str]:
    own = {a for a in areas if control[a] == force}
    if force == "german":
        bases = {a for a in own if areas[a]["eagle"]}
    else:
        bases = {a for a in own if set(areas[a]["edges"]) & set(SUPPLY_EDGES[force])}
    return graph.region(bases, own)
