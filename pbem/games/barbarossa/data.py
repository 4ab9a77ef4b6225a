"""The Barbarossa gamesheet: reading and validating `gamesheet.toml`.

The gamesheet file holds everything printed on the sheet that the rules engine
needs: the three army group paths with their cities and boxes, the timeline,
the campaign event chart, the starting cubes, the tracker limits, the dice pool
size and the victory bands. Every item carries a `provenance`: the rulebook
section it comes from, or "stand-in" where the rulebook does not print it.

`load_gamesheet` parses the TOML bytes and returns plain JSON data (dicts, lists,
ints, strings, bools). It walks the file with the shared `DataChecker`, so a user's
broken file is refused with one DataError listing every problem found, each naming
the file, the item and what is wrong. A check that needs another part of the file
(setup against the limits, the chart against the events, the victory bands against
the stars) is made when that part is sound, so that one mistake is reported once.
"""

from __future__ import annotations

from typing import Any

from pbem.games.datacheck import ID_PATTERN, DataChecker, read_toml

FILE_NAME = "gamesheet.toml"

# The effects the engine knows how to play; the gamesheet's events map onto them.
EFFECTS = {
    "remove_white": "one white die fewer this turn",
    "white_to_red": "one white die replaced by a red die this turn",
    "add_white": "one more white die this turn",
    "none": "no effect",
}

SECTIONS = ("setup", "limits", "pool", "victory", "timeline", "events", "event_chart", "paths")
TIMELINE_BOXES = 12  # rulebook: The Timeline ("tracks the campaign's 12 turns")
DIE_FACES = 6
MAX_BOX_VALUE = 6
MAX_POOL = 12


def load_gamesheet(raw: bytes, file_name: str = FILE_NAME) -> dict[str, Any]:
    """Parse and validate the gamesheet; the result is plain JSON data."""
    doc, check = read_toml(raw, file_name, SECTIONS)
    limits = _read_limits(check, doc)
    setup = _read_setup(check, doc, limits)
    pool = _read_pool(check, doc)
    timeline = _read_timeline(check, doc, limits, pool)
    events = _read_events(check, doc)
    chart = _read_chart(check, doc, events, limits)
    before = len(check.problems)
    paths = _read_paths(check, doc)
    # The stars add up to the most VP there is only when every city was read.
    sound = isinstance(doc.get("paths"), list) and len(check.problems) == before
    total_stars = sum(c["stars"] for p in paths for c in p["cities"]) if sound else None
    victory = _read_victory(check, doc, total_stars)
    check.stop_if_any()
    return {
        "setup": setup,
        "limits": limits,
        "pool": pool,
        "timeline": timeline,
        "events": events,
        "event_chart": chart,
        "paths": paths,
        "victory": victory,
    }


def d3(value: int) -> int:
    """Halve and round up (rulebook: Important Concept: D3s); 1-2 -> 1, 3-4 -> 2, 5-6 -> 3."""
    return (value + 1) // 2


# --- limits, setup and pool (rulebook: Game Components, Game Setup) ----------------------------
# A value that is wrong is None in what these return: checks that depend on it are skipped.


def _read_limits(check: DataChecker, doc: dict[str, Any]) -> dict[str, Any]:
    table = check.table(doc, "limits")
    if table is None:
        return {"supply": None, "command": None, "red_dice": None}
    check.provenance(table, "limits")
    return {
        "supply": check.integer(table, "supply", "limits", 1),
        "command": check.integer(table, "command", "limits", 1),
        "red_dice": check.integer(table, "red_dice", "limits", 0),
    }


def _read_setup(
    check: DataChecker, doc: dict[str, Any], limits: dict[str, Any]
) -> dict[str, Any] | None:
    table = check.table(doc, "setup")
    if table is None:
        return None
    check.provenance(table, "setup")
    return {
        "supply": check.integer(table, "supply", "setup", 0, limits["supply"]),
        "command": check.integer(table, "command", "setup", 0, limits["command"]),
    }


def _read_pool(check: DataChecker, doc: dict[str, Any]) -> dict[str, Any] | None:
    table = check.table(doc, "pool")
    if table is None:
        return None
    check.provenance(table, "pool")
    return {"white_dice": check.integer(table, "white_dice", "pool", 1, MAX_POOL)}


# --- timeline (rulebook: The Timeline) -----------------------------------------------------------


def _read_timeline(
    check: DataChecker,
    doc: dict[str, Any],
    limits: dict[str, Any],
    pool: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    items = check.tables(doc, "timeline")
    if isinstance(doc.get("timeline"), list) and len(items) != TIMELINE_BOXES:
        check.add("timeline", f"expected {TIMELINE_BOXES} boxes, found {len(items)}")
    # A Rasputitsa box cannot turn more white dice red than there are red dice or white dice.
    caps = [limits["red_dice"], pool and pool["white_dice"]]
    red_cap = None if None in caps else min(caps)
    timeline = []
    for i, item in enumerate(items, start=1):
        where = f"timeline[{i}]"
        if not check.is_table(item, where):
            continue
        check.provenance(item, where)
        number = check.integer(item, "box", where, 1)
        if number is not None and number != i:
            check.add(f"{where}.box", f"boxes must be numbered 1..12 in order, found {number}")
        red_dice = check.integer(item, "red_dice", where, 0, red_cap) if "red_dice" in item else 0
        timeline.append(
            {
                "box": number,
                "month": check.text(item, "month", where),
                "label": check.text(item, "label", where),
                "red_dice": red_dice,
            }
        )
    return timeline


# --- events and the event chart (rulebook: Roll on the event chart) -----------------------------


def _read_events(check: DataChecker, doc: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """The events by id; None when the section is unusable (references are then unchecked)."""
    table = check.table(doc, "events")
    if table is None:
        return None
    events: dict[str, dict[str, Any]] = {}
    for key, item in table.items():
        where = f"events.{key}"
        if not ID_PATTERN.match(key):
            check.add(where, "event ids must be lower case letters, digits, '-' or '_'")
        if not check.is_table(item, where):
            continue
        check.provenance(item, where)
        effect = check.text(item, "effect", where)
        if effect is not None and effect not in EFFECTS:
            check.add(f"{where}.effect", f"unknown effect {effect!r} (known: {', '.join(EFFECTS)})")
        events[key] = {"name": check.text(item, "name", where), "effect": effect}
    if not table:
        check.add("events", "no events defined")
    return events


def _read_chart(
    check: DataChecker,
    doc: dict[str, Any],
    events: dict[str, dict[str, Any]] | None,
    limits: dict[str, Any],
) -> list[dict[str, Any]]:
    chart = []
    # Rows must follow each other: the next one starts where the last one ended. None once
    # a row's range is unreadable (contiguity and coverage are then not checked).
    expected_low: int | None = 1
    for i, item in enumerate(check.tables(doc, "event_chart"), start=1):
        where = f"event_chart[{i}]"
        if not check.is_table(item, where):
            expected_low = None
            continue
        check.provenance(item, where)
        low = check.integer(item, "low", where, 1)
        high = check.integer(item, "high", where, 1 if low is None else low)
        if low is not None and expected_low is not None and low != expected_low:
            check.add(
                f"{where}.low", f"expected {expected_low} (rows must be contiguous), found {low}"
            )
        expected_low = None if low is None or high is None or expected_low is None else high + 1
        event = check.text(item, "event", where)
        if event is not None and events is not None and event not in events:
            check.add(
                f"{where}.event", f"unknown event {event!r} (known: {', '.join(sorted(events))})"
            )
        chart.append({"low": low, "high": high, "event": event})
    # +1 per black cube may push the event die above 6: the chart must cover every
    # result a full supply tracker can reach.
    if expected_low is not None and limits["supply"] is not None:
        needed_high = DIE_FACES + limits["supply"]
        if expected_low - 1 < needed_high:
            check.add(
                "event_chart",
                f"covers 1..{expected_low - 1}, but a die of 6 plus {limits['supply']} supply "
                f"cubes reaches {needed_high}",
            )
    return chart


# --- paths, cities, boxes (rulebook: Campaign Map and Army Group Paths) --------------------------


def _read_paths(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, Any]]:
    items = check.tables(doc, "paths")
    if isinstance(doc.get("paths"), list) and not items:
        check.add("paths", "no army group paths defined")
    seen_ids: set[str] = set()  # path and city ids share one name space
    seen_names: set[str] = set()
    paths = []
    for pi, item in enumerate(items, start=1):
        where = f"paths[{pi}]"
        if not check.is_table(item, where):
            continue
        path_id, where = _unique_id(check, item, where, "paths", seen_ids)
        listed = _array(check, item, "cities", where)
        if listed == []:
            check.add(where, "a path needs at least one city")
        cities = [
            _read_city(check, city, f"{where}.cities", ci, seen_ids, seen_names)
            for ci, city in enumerate(listed or [], start=1)
        ]
        paths.append(
            {
                "id": path_id,
                "name": check.text(item, "name", where),
                "cities": [c for c in cities if c is not None],
            }
        )
    return paths


def _unique_id(
    check: DataChecker, item: dict[str, Any], where: str, prefix: str, seen_ids: set[str]
) -> tuple[str | None, str]:
    """A path's or a city's provenance and id, and where problems name it from then on
    (`prefix[id]`); an id in `seen_ids` (paths and cities share one name space) is a duplicate."""
    check.provenance(item, where)
    ident = check.ident(item, where)
    if ident is not None:
        where = f"{prefix}[{ident}]"
        if ident in seen_ids:
            check.add(where, f"duplicate id {ident!r}")
        seen_ids.add(ident)
    return ident, where


def _array(check: DataChecker, table: dict[str, Any], key: str, where: str) -> list[Any] | None:
    """The array of tables `key` of the item at `where`; None when missing or not an array."""
    if key not in table:
        check.add(where, f"missing field {key!r}")
        return None
    if not isinstance(table[key], list):
        check.tables(table, key, f"{where}.{key}")  # reports what it found instead
        return None
    return list(table[key])


def _read_city(
    check: DataChecker,
    item: Any,
    prefix: str,
    index: int,
    seen_ids: set[str],
    seen_names: set[str],
) -> dict[str, Any] | None:
    where = f"{prefix}[{index}]"
    if not check.is_table(item, where):
        return None
    city_id, where = _unique_id(check, item, where, prefix, seen_ids)
    name = check.text(item, "name", where)
    if name is not None:
        if name.lower() in seen_names:
            check.add(f"{where}.name", f"duplicate city name {name!r}")
        seen_names.add(name.lower())
    check.provenance(item, where, "stars_provenance")
    stars = check.integer(item, "stars", where, 0)
    listed = _array(check, item, "boxes", where)
    if listed == []:
        check.add(f"{where}.boxes", "a city needs at least one box")
    boxes = []
    for bi, box in enumerate(listed or [], start=1):
        b_where = f"{where}.boxes[{bi}]"
        if not check.is_table(box, b_where):
            continue
        check.provenance(box, b_where)
        boxes.append(
            {
                "value": check.integer(box, "value", b_where, 1, MAX_BOX_VALUE),
                "supply": check.flag(box, "supply", b_where),
            }
        )
    return {"id": city_id, "name": name, "stars": stars, "boxes": boxes}


# --- victory bands (rulebook: Winning the Game, Losing the Game) ---------------------------------


def _read_victory(
    check: DataChecker, doc: dict[str, Any], total_stars: int | None
) -> dict[str, Any] | None:
    table = check.table(doc, "victory")
    if table is None:
        return None
    check.provenance(table, "victory")
    victory = {
        "historical": check.integer(table, "historical", "victory", 0),
        "win": check.integer(table, "win", "victory", 1),
        "triumph": check.integer(table, "triumph", "victory", 1),
    }
    historical, win, triumph = victory["historical"], victory["win"], victory["triumph"]
    if historical is None or win is None or triumph is None:
        return victory
    if not historical < win < triumph:
        check.add("victory", "expected historical < win < triumph")
    if total_stars is not None and triumph > total_stars:
        check.add(
            "victory", f"triumph needs {triumph} VP but the cities hold only {total_stars} stars"
        )
    victory["max"] = total_stars
    return victory
