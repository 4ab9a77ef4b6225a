"""Reading and checking `map.toml`: the zones (Areas A-F, Districts 1-18, Mitte Sectors I-V)
with their rings, names and stacking limits, the borders (once per pair), the pairs the
rulebook says are not adjacent, and the rule flags that go with the map.

`load_map` collects every problem of a stage into one DataError and returns plain JSON data.
"""

from __future__ import annotations

from typing import Any

from pbem.games.berlin_1945.rulebook import (
    AREAS,
    EXAMPLE_STACKS,
    MAP_SPACES,
    MITTE_STACK,
    PRINTED_STACKS,
    REICHSTAG,
    RING_DEPTH,
    RING_KIND,
    RING_NAMES,
    RINGS,
    RULE_FLAGS,
    RULEBOOK_ADJACENT,
    RULEBOOK_NAMES,
    RULEBOOK_NOT_ADJACENT,
    TURNS,
    UNLIMITED,
    ZONE_IDS,
    rulebook_ring,
    zone_label,
    zone_names,
    zone_order,
    zone_pair,
)
from pbem.games.datacheck import DataChecker, check_pairs, read_node, read_pairs, read_toml
from pbem.maps.areas import AreaGraph

MAP_FILE = "map.toml"

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
    doc, check = read_toml(raw, file_name, ("map", "rule", "zone", "border", "not_adjacent"))

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
            f"missing zone(s) {zone_names(missing)} (rulebook 2.1: Areas A-F, Districts 1-18, "
            "Sectors I-V)",
        )
    border_at = _sound_pairs(check, zones, borders)
    apart_at = _sound_pairs(check, zones, apart)
    check.stop_if_any()

    # Stage 3: the graph, in map order (the order of ZONE_IDS).
    graph = AreaGraph(ZONE_IDS, border_at)
    _check_graph(check, zones, graph, border_at, apart_at)
    check.stop_if_any()

    return {
        **header,
        "rules": rules,
        "zone_ids": list(ZONE_IDS),
        "zones": {z: {**zones[z], "neighbours": list(graph.neighbours(z))} for z in ZONE_IDS},
        "rings": {r: [z for z in ZONE_IDS if zones[z]["ring"] == r] for r in RINGS},
        "borders": [list(p) for p in graph.borders],
        "not_adjacent": [list(p) for p in sorted(apart_at, key=_pair_order)],
    }


def _pair_order(pair: tuple[str, str]) -> tuple[int, int]:
    return (zone_order(pair[0]), zone_order(pair[1]))


def _read_map_header(check: DataChecker, doc: dict[str, Any]) -> dict[str, Any]:
    header = check.table(doc, "map")
    if header is None:
        return {}
    check.fields(header, "map", ("title", "turns", "spaces", "provenance"))
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
    for item, where in check.items(doc, "rule"):
        rule_id = check.text(item, "id", where)
        if rule_id is not None:
            where = f"rule[{rule_id}]"
        check.fields(item, where, RULE_FIELDS)
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
    for item, where in check.items(doc, "zone"):
        zone_id, where = read_node(check, item, where, "zone", zones, _zone_fault)
        check.fields(item, where, ZONE_FIELDS)
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
            "label": zone_label(zone_id, name),
            "kind": RING_KIND[ring],
            "ring": ring,
            "depth": RING_DEPTH[ring],
        }
        if _check_zone(check, item, zone, stack, stack_soviet, where):
            german: int | str = 0 if ring == "edge" else stack  # rulebook 2.1, 5.2
            zone["stack"] = {"german": german, "soviet": stack_soviet or stack}
            zones[zone_id] = zone
    return zones


def _zone_fault(value: str) -> str | None:
    if value not in ZONE_IDS:
        return f"{value!r} is not a zone: Areas A-F, Districts 1-18, Sectors I-V (rulebook 2.1)"
    return None


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
    wanted_ring = rulebook_ring(zone_id)
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
    return {zone_pair(*sorted(pair)): where for pair, where in sound.items()}


def _check_graph(
    check: DataChecker,
    zones: dict[str, dict[str, Any]],
    graph: AreaGraph,
    border_at: dict[tuple[str, str], str],
    apart_at: dict[tuple[str, str], str],
) -> None:
    for a, b, section in RULEBOOK_ADJACENT:
        if zone_pair(a, b) not in border_at:
            check.add(
                "border",
                f"{zones[a]['label']} and {zones[b]['label']} are adjacent (rulebook {section}), "
                "but no border joins them",
            )
    for a, b, section in RULEBOOK_NOT_ADJACENT:
        if zone_pair(a, b) not in apart_at:
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
        if not any(zones[z]["ring"] == "outer" for z in graph.neighbours(area)):
            check.add(
                f"zone[{area}]",
                "touches no district of the outer ring: the Soviets enter Berlin from the "
                "areas (rulebook 2.1, 4)",
            )
    reached = graph.region({REICHSTAG})
    if len(reached) != len(ZONE_IDS):
        check.add(
            "border",
            f"the map is not connected: {zone_names(set(ZONE_IDS) - reached)} cut off from "
            "Sector V",
        )
