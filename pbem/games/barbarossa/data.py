"""The Barbarossa gamesheet: reading and validating `gamesheet.toml`.

The gamesheet file holds everything printed on the sheet that the rules engine
needs: the three army group paths with their cities and boxes, the timeline,
the campaign event chart, the starting cubes, the tracker limits, the dice pool
size and the victory bands. Every item carries a `provenance`: the rulebook
section it comes from, or "stand-in" where the rulebook does not print it.

`load_gamesheet` parses the TOML bytes and returns plain JSON data (dicts,
lists, ints, strings, bools); every problem becomes a DataError that names the
file, the item and what is wrong.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.errors import DataError
from pbem.games.datacheck import one_line, parse_toml

FILE_NAME = "gamesheet.toml"

# The effects the engine knows how to play; the gamesheet's events map onto them.
EFFECTS = {
    "remove_white": "one white die fewer this turn",
    "white_to_red": "one white die replaced by a red die this turn",
    "add_white": "one more white die this turn",
    "none": "no effect",
}

TIMELINE_BOXES = 12  # rulebook: The Timeline ("tracks the campaign's 12 turns")
DIE_FACES = 6
MAX_BOX_VALUE = 6
# \Z, not $: "$" also matches before a final newline, and an id ending in one is no id.
ID_PATTERN = re.compile(r"^[a-z][a-z0-9_-]*\Z")


class _Checker:
    """Small helpers that turn a wrong field into a DataError naming file and item."""

    def __init__(self, file_name: str) -> None:
        self.file_name = file_name

    def fail(self, where: str, problem: str) -> DataError:
        return DataError(one_line(f"{self.file_name}: {where}: {problem}"))

    def table(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a table, found {type(value).__name__}")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected an array, found {type(value).__name__}")
        return value

    def field(self, table: dict[str, Any], key: str, where: str) -> Any:
        if key not in table:
            raise self.fail(where, f"missing field {key!r}")
        return table[key]

    def integer(
        self, table: dict[str, Any], key: str, where: str, lo: int, hi: int | None = None
    ) -> int:
        value = self.field(table, key, where)
        # bool is a subclass of int in Python; TOML `true` is not a number.
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where}.{key}", f"expected an integer, found {value!r}")
        if value < lo or (hi is not None and value > hi):
            bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
            raise self.fail(f"{where}.{key}", f"{value} is not in {bounds}")
        return value

    def text(self, table: dict[str, Any], key: str, where: str) -> str:
        value = self.field(table, key, where)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{where}.{key}", f"expected a non-empty string, found {value!r}")
        return value

    def flag(self, table: dict[str, Any], key: str, where: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{where}.{key}", f"expected true or false, found {value!r}")
        return value

    def provenance(self, table: dict[str, Any], where: str, key: str = "provenance") -> str:
        if key not in table:
            raise self.fail(where, f"missing {key!r} (a rulebook section or 'stand-in')")
        return self.text(table, key, where)

    def ident(self, table: dict[str, Any], where: str) -> str:
        value = self.text(table, "id", where)
        if not ID_PATTERN.match(value):
            raise self.fail(
                f"{where}.id", f"{value!r} must be lower case letters, digits, '-' or '_'"
            )
        return value


def load_gamesheet(raw: bytes, file_name: str = FILE_NAME) -> dict[str, Any]:
    """Parse and validate the gamesheet; the result is plain JSON data."""
    check = _Checker(file_name)
    doc = parse_toml(raw, file_name)

    known = {"setup", "limits", "pool", "victory", "timeline", "events", "event_chart", "paths"}
    unknown = sorted(set(doc) - known)
    if unknown:
        raise check.fail("top level", f"unknown section(s) {', '.join(unknown)}")

    # --- limits and setup (rulebook: Game Components, Game Setup) ---------------------------
    limits_t = check.table(check.field(doc, "limits", "top level"), "limits")
    check.provenance(limits_t, "limits")
    limits = {
        "supply": check.integer(limits_t, "supply", "limits", 1),
        "command": check.integer(limits_t, "command", "limits", 1),
        "red_dice": check.integer(limits_t, "red_dice", "limits", 0),
    }
    setup_t = check.table(check.field(doc, "setup", "top level"), "setup")
    check.provenance(setup_t, "setup")
    setup = {
        "supply": check.integer(setup_t, "supply", "setup", 0, limits["supply"]),
        "command": check.integer(setup_t, "command", "setup", 0, limits["command"]),
    }
    pool_t = check.table(check.field(doc, "pool", "top level"), "pool")
    check.provenance(pool_t, "pool")
    pool = {"white_dice": check.integer(pool_t, "white_dice", "pool", 1, 12)}

    # --- timeline (rulebook: The Timeline) ----------------------------------------------------
    timeline_a = check.array(check.field(doc, "timeline", "top level"), "timeline")
    if len(timeline_a) != TIMELINE_BOXES:
        raise check.fail("timeline", f"expected {TIMELINE_BOXES} boxes, found {len(timeline_a)}")
    timeline = []
    red_cap = min(limits["red_dice"], pool["white_dice"])
    for i, item in enumerate(timeline_a, start=1):
        where = f"timeline[{i}]"
        box_t = check.table(item, where)
        check.provenance(box_t, where)
        number = check.integer(box_t, "box", where, 1)
        if number != i:
            raise check.fail(
                f"{where}.box", f"boxes must be numbered 1..12 in order, found {number}"
            )
        timeline.append(
            {
                "box": number,
                "month": check.text(box_t, "month", where),
                "label": check.text(box_t, "label", where),
                "red_dice": check.integer(box_t, "red_dice", where, 0, red_cap)
                if "red_dice" in box_t
                else 0,
            }
        )

    # --- events (rulebook: Roll on the event chart) ------------------------------------------
    events_t = check.table(check.field(doc, "events", "top level"), "events")
    events: dict[str, dict[str, Any]] = {}
    for key, item in events_t.items():
        where = f"events.{key}"
        if not ID_PATTERN.match(key):
            raise check.fail(where, "event ids must be lower case letters, digits, '-' or '_'")
        ev_t = check.table(item, where)
        check.provenance(ev_t, where)
        effect = check.text(ev_t, "effect", where)
        if effect not in EFFECTS:
            raise check.fail(
                f"{where}.effect", f"unknown effect {effect!r} (known: {', '.join(EFFECTS)})"
            )
        events[key] = {"name": check.text(ev_t, "name", where), "effect": effect}
    if not events:
        raise check.fail("events", "no events defined")

    chart_a = check.array(check.field(doc, "event_chart", "top level"), "event_chart")
    chart = []
    expected_low = 1
    # +1 per black cube may push the event die above 6: the chart must cover every
    # result a full supply tracker can reach.
    needed_high = DIE_FACES + limits["supply"]
    for i, item in enumerate(chart_a, start=1):
        where = f"event_chart[{i}]"
        row_t = check.table(item, where)
        check.provenance(row_t, where)
        low = check.integer(row_t, "low", where, 1)
        high = check.integer(row_t, "high", where, low)
        if low != expected_low:
            raise check.fail(
                f"{where}.low", f"expected {expected_low} (rows must be contiguous), found {low}"
            )
        event = check.text(row_t, "event", where)
        if event not in events:
            raise check.fail(
                f"{where}.event", f"unknown event {event!r} (known: {', '.join(sorted(events))})"
            )
        chart.append({"low": low, "high": high, "event": event})
        expected_low = high + 1
    if expected_low - 1 < needed_high:
        raise check.fail(
            "event_chart",
            f"covers 1..{expected_low - 1}, but a die of 6 plus {limits['supply']} supply "
            f"cubes reaches {needed_high}",
        )

    # --- paths, cities, boxes (rulebook: Campaign Map and Army Group Paths) -------------------
    paths_a = check.array(check.field(doc, "paths", "top level"), "paths")
    if not paths_a:
        raise check.fail("paths", "no army group paths defined")
    paths = []
    seen_ids: set[str] = set()
    seen_names: set[str] = set()
    total_stars = 0
    for pi, item in enumerate(paths_a, start=1):
        where = f"paths[{pi}]"
        path_t = check.table(item, where)
        check.provenance(path_t, where)
        path_id = check.ident(path_t, where)
        where = f"paths[{path_id}]"
        if path_id in seen_ids:
            raise check.fail(where, f"duplicate id {path_id!r}")
        seen_ids.add(path_id)
        cities_a = check.array(check.field(path_t, "cities", where), f"{where}.cities")
        if not cities_a:
            raise check.fail(where, "a path needs at least one city")
        cities = []
        for ci, c_item in enumerate(cities_a, start=1):
            c_where = f"{where}.cities[{ci}]"
            city_t = check.table(c_item, c_where)
            check.provenance(city_t, c_where)
            city_id = check.ident(city_t, c_where)
            c_where = f"{where}.cities[{city_id}]"
            if city_id in seen_ids:
                raise check.fail(c_where, f"duplicate id {city_id!r}")
            seen_ids.add(city_id)
            name = check.text(city_t, "name", c_where)
            if name.lower() in seen_names:
                raise check.fail(f"{c_where}.name", f"duplicate city name {name!r}")
            seen_names.add(name.lower())
            check.provenance(city_t, c_where, "stars_provenance")
            stars = check.integer(city_t, "stars", c_where, 0)
            total_stars += stars
            boxes_a = check.array(check.field(city_t, "boxes", c_where), f"{c_where}.boxes")
            if not boxes_a:
                raise check.fail(f"{c_where}.boxes", "a city needs at least one box")
            boxes = []
            for bi, b_item in enumerate(boxes_a, start=1):
                b_where = f"{c_where}.boxes[{bi}]"
                box_t = check.table(b_item, b_where)
                check.provenance(box_t, b_where)
                boxes.append(
                    {
                        "value": check.integer(box_t, "value", b_where, 1, MAX_BOX_VALUE),
                        "supply": check.flag(box_t, "supply", b_where, False),
                    }
                )
            cities.append({"id": city_id, "name": name, "stars": stars, "boxes": boxes})
        paths.append({"id": path_id, "name": check.text(path_t, "name", where), "cities": cities})

    # --- victory bands (rulebook: Winning the Game, Losing the Game) --------------------------
    victory_t = check.table(check.field(doc, "victory", "top level"), "victory")
    check.provenance(victory_t, "victory")
    victory = {
        "historical": check.integer(victory_t, "historical", "victory", 0),
        "win": check.integer(victory_t, "win", "victory", 1),
        "triumph": check.integer(victory_t, "triumph", "victory", 1),
    }
    if not victory["historical"] < victory["win"] < victory["triumph"]:
        raise check.fail("victory", "expected historical < win < triumph")
    if victory["triumph"] > total_stars:
        raise check.fail(
            "victory",
            f"triumph needs {victory['triumph']} VP but the cities hold only {total_stars} stars",
        )
    victory["max"] = total_stars

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
