"""Reading and checking `counters.toml`: the unit types, every unit with where it comes from
(the Initial display, a Soviet reinforcement group or a German card), the reinforcement
groups and the markers, all checked against the loaded map.

`load_counters` collects every problem of a stage into one DataError and returns plain JSON.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pbem.games.berlin_1945.board import stack_limit
from pbem.games.berlin_1945.rulebook import (
    CARD_UNITS,
    CARDS_PER_SIDE,
    COUNTERS_TOTAL,
    GAME_TURN_MARKERS,
    MARKER_KINDS,
    REICHSTAG,
    REICHSTAG_APPROACHES,
    REINFORCEMENT_GROUP,
    REINFORCEMENT_TURN,
    REINFORCEMENT_ZONES,
    SIDE_NAMES,
    TURNS,
    TYPE_FIELD_RULES,
    UNIT_TYPES,
    zone_order,
)
from pbem.games.datacheck import DataChecker, read_toml

COUNTERS_FILE = "counters.toml"

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
    doc, check = read_toml(
        raw, file_name, ("counters", "unit_type", "unit", "reinforcement", "marker")
    )

    # Stage 1: every item on its own.
    header = check.table(doc, "counters")
    if header is not None:
        check.fields(header, "counters", ("total", "provenance"))
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
    for item, where in check.items(doc, "unit_type"):
        type_id = check.text(item, "id", where)
        if type_id is not None:
            where = f"unit_type[{type_id}]"
        check.fields(item, where, UNIT_TYPE_FIELDS)
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
    for item, where in check.items(doc, "unit"):
        unit_id, where = check.named(item, where, "unit[{}]", UNIT_FIELDS)
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
    for item, where in check.items(doc, "reinforcement"):
        group = check.integer(item, "group", where, 1, len(REINFORCEMENT_ZONES))
        if group is not None:
            where = f"reinforcement[{group}]"
        check.fields(item, where, ("group", "turn", "zones", "provenance"))
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
    for item, where in check.items(doc, "marker"):
        kind = check.choice(item, "kind", where, MARKER_KINDS)
        if kind is not None:
            where = f"marker[{kind}]"
        check.fields(item, where, ("kind", "count", "provenance"))
        count = check.integer(item, "count", where, 1)
        if kind is None or count is None:
            continue
        check.unique(markers, kind, count, where, "given twice")
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
    for (zone_id, side), stack in sorted(stacks.items(), key=lambda s: zone_order(s[0][0])):
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
