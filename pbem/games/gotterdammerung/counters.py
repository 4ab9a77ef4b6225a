"""Götterdämmerung: the counters (`data/counters.toml`; rulebook 2.2, 4.1, 5.7, 8.3, 8.4, 9, 10).

`load_counters(raw)` parses and checks the file and returns plain JSON data;
`default_counters()` loads the shipped file. Every problem of a file is collected into one
DataError naming the file, the item and what is wrong. The rulebook prints no counter sheet:
what it does fix is checked here (the special units of 2.21, the stacking values of 4.1, the
split values of 5.73, the lists of 9.32 and 12.32, the 25 Volkssturm and 28 Delay markers);
the schedules of 9.2, 9.5 and 9.6 are asserted by the tests against the shipped file.

A unit's values are derived here once, so the engine reads them rather than re-deriving:
`steps` (6.52), `class` vehicle/foot/static (2.3), `zoc` strong/weak/none (4.21-4.22), and
`vp` for surviving at the end (11.14). The Battle groups of each corps that 5.73 splits are
units too, with `place = {"split": corps id}`.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from pbem.games.datacheck import DataChecker, read_toml, shipped_file

PACKAGE = "pbem.games.gotterdammerung"
COUNTERS_FILE = "counters.toml"

SIDES = ("soviet", "german")
SIDE_OF = {"german": "german", "soviet": "soviet", "polish": "soviet", "american": "soviet"}
FRONTS = ("1BF", "2BF", "1UF")
# 2.21's size symbols; "special" = Hitler, depots, OKH, fortress, factory; "hq" = an army HQ
SIZES = (
    "corps",
    "division",
    "brigade",
    "regiment",
    "battalion",
    "kampfgruppe",
    "battle-group",
    "hq",
    "special",
)
# 2.22 (read with 2.3's list of vehicle branches): branch -> (vehicle?, nationalities)
GERMAN = ("german",)
SOVIET_POLISH = ("soviet", "polish")
BRANCHES: dict[str, tuple[bool, tuple[str, ...]]] = {
    "armour": (True, GERMAN),
    "panzergrenadier": (True, GERMAN),
    "heavy-tank": (True, ("german", "soviet", "polish")),
    "assault-gun": (True, GERMAN),
    "tank-destroyer": (True, GERMAN),
    "hq": (True, GERMAN),  # 2.3: HQ units are vehicle units
    "infantry": (False, ("german", "american")),
    "anti-tank": (False, GERMAN),
    "artillery": (False, GERMAN),
    "naval-infantry": (False, GERMAN),
    "flak": (False, GERMAN),
    "paratroops": (False, GERMAN),
    "special-duty": (False, GERMAN),
    "fuhrer": (False, GERMAN),
    "fortress": (False, GERMAN),
    "factory": (False, GERMAN),
    "depot": (False, ("german", "soviet")),
    "tank": (True, SOVIET_POLISH),
    "mechanized": (True, SOVIET_POLISH),
    "cavalry": (True, SOVIET_POLISH),
    "heavy-sp-gun": (True, SOVIET_POLISH),
    "rifle": (False, SOVIET_POLISH),
    "heavy-artillery": (False, SOVIET_POLISH),
    "armoured": (True, ("american",)),
}
SPLIT_BRANCHES = ("tank", "mechanized", "cavalry")  # 5.71: corps-size vehicle units
GROUPS = {"12th-army": 11, "6th-ss": 20, "600th": None}  # 9.32, 12.32; the 600th: stand-in
POOLS = ("12th-army", "6th-ss", "support")
AREAS = tuple("ABCDEFGHJ")  # 10.0, 10.22: A to J, there is no I
ENTRIES = ("N", "NE", "E", "SE", "S", "SW", "W", "NGP")
MAPS = ("op", "city")  # as map.toml names them
STACK_LIMIT = {"op": 4, "city": 2}  # 4.0
TURNS = 10  # 1.1
NO_ZOC = ("fuhrer", "factory", "depot", "hq")  # 4.21
ZERO_STACK_GERMAN = ("fuhrer", "factory", "fortress", "depot", "hq")  # 4.11
SPECIALS = {"fuhrer": (0, 1, 0), "fortress": (0, 4, 0), "factory": (0, 3, 0)}  # 2.21
GERMAN_DEPOT = (0, 1, 0)  # 2.21
VOLKSSTURM = 25  # 8.42, 10.4
DELAYS = 28  # 6.81, 10.4
TOTAL = 480  # 2.4
ARTILLERY = 4  # 6.91
JUETERBOG_DEFENCE = 4  # 8.32: "infantry" units totalling 4 defence strength
ALKETT_DEFENCE = 2  # 8.33: armour, assault gun and tank hunter totalling 2
ALKETT_BRANCHES = ("armour", "assault-gun", "tank-destroyer")
ONE_VP_BRANCHES = ("infantry", "naval-infantry", "anti-tank", "flak", "special-duty")  # 11.14

UNIT_FIELDS = (
    "id",
    "name",
    "side",
    "nationality",
    "size",
    "branch",
    "parent",
    "front",
    "guards",
    "strength",
    "reduced",
    "stacking",
    "groups",
    "place",
    "provenance",
    "note",
)
SECTIONS = (
    "counters",
    "split",
    "battle_groups",
    "unit",
    "twelfth_army",
    "volkssturm",
    "delay",
    "artillery",
)


def load_counters(raw: bytes, file_name: str = COUNTERS_FILE) -> dict[str, Any]:
    """Parse and check the counters; plain JSON data: `units` (id -> unit, file order, the
    Battle groups after their corps), `ids`, `splits`, `twelfth_army`, `volkssturm`,
    `delay`, `artillery` and `total`."""
    doc, check = read_toml(raw, file_name, SECTIONS)
    total = _read_total(check, doc)
    splits = _read_splits(check, doc)
    bg_stacking = _read_bg_stacking(check, doc)
    units: dict[str, dict[str, Any]] = {}
    for item, where in check.items(doc, "unit"):
        unit = _read_unit(check, item, where, splits)
        if unit is None:
            continue
        check.unique(units, unit["id"], unit, f"unit {unit['id']}", "duplicate id")
    twelfth = _read_twelfth(check, doc)
    volkssturm = _read_volkssturm(check, doc)
    delay = _read_delay(check, doc)
    artillery = _read_artillery(check, doc)
    check.stop_if_any()
    units = _with_battle_groups(units, splits, bg_stacking)
    _check_whole(check, units, artillery, total)
    check.stop_if_any()
    return {
        "units": units,
        "ids": list(units),
        "splits": splits,
        "twelfth_army": twelfth,
        "volkssturm": volkssturm,
        "delay": delay,
        "artillery": artillery,
        "total": total,
    }


# --- sections -------------------------------------------------------------------------


def _read_total(check: DataChecker, doc: dict[str, Any]) -> int:
    table = check.table(doc, "counters")
    if table is None:
        return TOTAL
    check.fields(table, "counters", ("total", "provenance", "note"))
    total = check.integer(table, "total", "counters", 0)
    if total is not None:
        check.exact(total, TOTAL, "counters.total", "rulebook 2.4")
    return TOTAL


def _triple(check: DataChecker, table: dict[str, Any], key: str, where: str) -> list[int] | None:
    value = table.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 99 for v in value)
    ):
        check.add(
            f"{where}.{key}", f"expected [attack, defence, movement] of 0..99, found {value!r}"
        )
        return None
    return list(value)


def _read_splits(check: DataChecker, doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """5.73's table: split kind -> branch, guards, corps strength and the two groups."""
    splits: dict[str, dict[str, Any]] = {}
    for item, where in check.items(doc, "split"):
        ident, where = check.named(
            item,
            where,
            "split {}",
            ("id", "name", "branch", "guards", "corps", "groups", "provenance"),
        )
        name = check.text(item, "name", where)
        branch = check.choice(item, "branch", where, SPLIT_BRANCHES)
        guards = check.flag(item, "guards", where)
        corps = _triple(check, item, "corps", where)
        groups = item.get("groups")
        if not isinstance(groups, list) or len(groups) != 2:
            check.add(f"{where}.groups", f"expected two [a, d, m] Battle groups, found {groups!r}")
            continue
        pair = [_triple(check, {"g": g}, "g", f"{where}.groups") for g in groups]
        if None in (ident, name, branch, guards, corps) or None in pair:
            continue
        assert ident is not None
        if any(s["branch"] == branch and s["guards"] == guards for s in splits.values()):
            check.add(where, "repeats the split of another corps of the same branch and status")
            continue
        splits[ident] = {
            "id": ident,
            "name": name,
            "branch": branch,
            "guards": guards,
            "corps": corps,
            "groups": pair,
        }
    return splits


def _read_bg_stacking(check: DataChecker, doc: dict[str, Any]) -> int:
    table = check.table(doc, "battle_groups")
    if table is None:
        return 2
    check.fields(table, "battle_groups", ("stacking", "provenance", "note"))
    value = check.integer(table, "stacking", "battle_groups", 0, 4)
    if value is not None:
        check.exact(value, 2, "battle_groups.stacking", "rulebook 4.12")
    return 2


def _split_of(splits: dict[str, dict[str, Any]], branch: str, guards: bool) -> str | None:
    for ident, split in splits.items():
        if split["branch"] == branch and split["guards"] == guards:
            return ident
    return None


def _read_unit(
    check: DataChecker, item: dict[str, Any], where: str, splits: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    ident, where = check.named(item, where, "unit {}", UNIT_FIELDS)
    name = check.text(item, "name", where)
    side = check.choice(item, "side", where, SIDES)
    nationality = check.choice(item, "nationality", where, tuple(SIDE_OF))
    size = check.choice(item, "size", where, SIZES)
    branch = check.choice(item, "branch", where, tuple(BRANCHES))
    parent = check.text(item, "parent", where, required=False)
    guards = check.flag(item, "guards", where)
    strength = _triple(check, item, "strength", where)
    stacking = check.integer(item, "stacking", where, 0, 4)
    groups = check.texts(item, "groups", where)
    note = check.text(item, "note", where, required=False)
    place = _read_place(check, item.get("place"), where)
    needed = (ident, name, side, nationality, size, branch, guards, strength, stacking, groups)
    if any(v is None for v in needed) or place is None:
        return None
    assert ident and nationality and branch and size and strength is not None and groups is not None
    if SIDE_OF[nationality] != side:
        check.add(f"{where}.side", f"{nationality} units are on the {SIDE_OF[nationality]} side")
    vehicle, armies = BRANCHES[branch]
    if nationality not in armies:
        check.add(f"{where}.branch", f"no {nationality} unit has branch {branch} (rulebook 2.22)")
    for group in groups:
        if group not in GROUPS:
            check.add(f"{where}.groups", f"{group!r} is not one of {', '.join(GROUPS)}")
    front = _read_front(check, item, where, side, place)
    # 6.52: Soviet and Polish corps and American divisions have two steps; all others one
    two_steps = (nationality in SOVIET_POLISH and size == "corps") or (
        nationality == "american" and size == "division"
    )
    reduced = None
    if two_steps:
        reduced = _triple(check, item, "reduced", where)
    elif "reduced" in item:
        check.add(f"{where}.reduced", "only two-step units have a reduced side (rulebook 6.52)")
    split = None
    if side == "soviet" and size == "corps" and branch in SPLIT_BRANCHES:
        split = _split_of(splits, branch, bool(guards))
        if split is not None:
            check.exact(strength, splits[split]["corps"], f"{where}.strength", "rulebook 5.73")
        elif splits:
            status = "guards" if guards else "ordinary"
            check.add(where, f"no split values for a {status} {branch} corps (rulebook 5.71, 5.73)")
    attack, defence, movement = strength
    return {
        "id": ident,
        "name": name,
        "side": side,
        "nationality": nationality,
        "size": size,
        "branch": branch,
        "parent": parent or "",
        "front": front,
        "guards": guards,
        "attack": attack,
        "defence": defence,
        "movement": movement,
        "reduced": None
        if reduced is None
        else {"attack": reduced[0], "defence": reduced[1], "movement": reduced[2]},
        "steps": 2 if two_steps else 1,
        "stacking": stacking,
        "class": "vehicle" if vehicle else ("foot" if movement >= 1 else "static"),  # 2.3
        "zoc": _zoc(nationality, size, branch),
        "groups": groups,
        "split": split,
        "place": place,
        "provenance": item.get("provenance"),
        "note": note or "",
    }


def _read_front(
    check: DataChecker, item: dict[str, Any], where: str, side: str | None, place: dict[str, Any]
) -> str | None:
    """Soviet units name their front (6.18, 8.12), except support units (5.78) and the
    Americans (9.72: always supplied, no depot)."""
    if "front" not in item:
        if side == "soviet" and item.get("nationality") != "american" and "pool" not in place:
            check.add(where, "missing field 'front' (a Soviet unit's 1BF, 2BF or 1UF)")
        return None
    if side != "soviet" or "pool" in place:
        check.add(f"{where}.front", "only Soviet units outside the support pool have a front")
        return None
    return check.choice(item, "front", where, FRONTS)


def _zoc(nationality: str, size: str, branch: str) -> str:
    """4.21: none for Hitler, factory, depots and HQs; 4.22: strong for Soviet and Polish
    corps, weak for everything else."""
    if branch in NO_ZOC:
        return "none"
    if nationality in SOVIET_POLISH and size == "corps":
        return "strong"
    return "weak"


def _read_place(check: DataChecker, place: Any, where: str) -> dict[str, Any] | None:
    """Where a unit begins: a deployment area, a start hex, a reinforcement or a pool."""
    where = f"{where}.place"
    if not isinstance(place, dict):
        check.add(where, f'expected a table such as {{ area = "A" }}, found {place!r}')
        return None
    kinds = [k for k in ("area", "map", "turn", "pool") if k in place]
    if len(kinds) != 1:
        check.add(where, "give exactly one of area, map (with hex), turn or pool")
        return None
    kind = kinds[0]
    if kind == "area":
        check.keys(place, where, ("area",))
        area = check.choice(place, "area", where, AREAS)
        return None if area is None else {"area": area}
    if kind == "pool":
        check.keys(place, where, ("pool",))
        pool = check.choice(place, "pool", where, POOLS)
        return None if pool is None else {"pool": pool}
    if kind == "map":
        check.keys(place, where, ("map", "hex", "out_of_supply"))
        map_name = check.choice(place, "map", where, MAPS)
        hex_id = _hex(check, place, where)
        out = check.flag(place, "out_of_supply", where)
        if map_name is None or hex_id is None or out is None:
            return None
        return {"map": map_name, "hex": hex_id, "out_of_supply": out}
    check.keys(place, where, ("turn", "at", "hex", "rail"))
    turn = check.integer(place, "turn", where, 1, TURNS)
    rail = check.flag(place, "rail", where)
    if ("at" in place) == ("hex" in place):
        check.add(where, "a reinforcement gives exactly one of at (an entry letter) or hex")
        return None
    entry: dict[str, Any] = {"turn": turn, "rail": rail}
    if "at" in place:
        entry["at"] = check.choice(place, "at", where, ENTRIES)
        entry["hex"] = None
    else:
        entry["at"] = None
        entry["hex"] = _hex(check, place, where)
    if None in (turn, rail) or (entry["at"] is None and entry["hex"] is None):
        return None
    return entry


def _hex(check: DataChecker, table: dict[str, Any], where: str) -> int | None:
    """A printed XXYY number: both halves 01..99."""
    value = check.integer(table, "hex", where, 101, 9999)
    if value is not None and (value // 100 == 0 or value % 100 == 0):
        check.add(f"{where}.hex", f"{value:04d} is not an XXYY hex number")
        return None
    return value


def _read_twelfth(check: DataChecker, doc: dict[str, Any]) -> dict[str, Any]:
    table = check.table(doc, "twelfth_army") or {}
    where = "twelfth_army"
    check.keys(table, where, ("draws", "at", "provenance", "note"))
    if table:
        check.provenance(table, where)
    draws = []
    for i, draw in enumerate(table.get("draws", []) if table else [], start=1):
        at = f"{where}.draws #{i}"
        if not check.is_table(draw, at):
            continue
        turn = check.integer(draw, "turn", at, 1, TURNS)
        count = check.integer(draw, "count", at, 1, GROUPS["12th-army"] or 1)
        if turn is not None and count is not None:
            draws.append({"turn": turn, "count": count})
    if table:
        check.exact(
            [(d["turn"], d["count"]) for d in draws],
            [(7, 4), (8, 4)],
            f"{where}.draws",
            "rulebook 9.33",
        )
        entry = check.choice(table, "at", where, ENTRIES)
        if entry is not None:
            check.exact(entry, "W", f"{where}.at", "rulebook 9.34")
    return {"draws": draws, "at": "W"}


def _read_volkssturm(check: DataChecker, doc: dict[str, Any]) -> dict[str, Any]:
    """25 identical fronts (8.44) and the mix of back sides drawn at the first combat (8.45)."""
    table = check.table(doc, "volkssturm") or {}
    where = "volkssturm"
    known = ("count", "name", "branch", "front_movement", "stacking", "back", "provenance", "note")
    check.keys(table, where, known)
    if not table:
        return {}
    check.provenance(table, where)
    count = check.integer(table, "count", where, 0)
    if count is not None:
        check.exact(count, VOLKSSTURM, f"{where}.count", "rulebook 8.42")
    stacking = check.integer(table, "stacking", where, 0, 4)
    if stacking is not None:
        check.exact(stacking, 0, f"{where}.stacking", "rulebook 4.13")
    check.choice(table, "branch", where, ("infantry",))
    front = check.integer(table, "front_movement", where, 1, 99)
    backs = []
    for back, at in check.items(table, "back", f"{where}.back"):
        check.fields(back, at, ("strength", "count", "provenance", "note"))
        strength = _triple(check, back, "strength", at)
        n = check.integer(back, "count", at, 1, VOLKSSTURM)
        if strength is not None and n is not None:
            a, d, m = strength
            backs.append({"attack": a, "defence": d, "movement": m, "count": n})
    if sum(b["count"] for b in backs) != VOLKSSTURM:
        found = sum(b["count"] for b in backs)
        check.add(f"{where}.back", f"the mix counts {found} backs, expected {VOLKSSTURM} (8.42)")
    if front is not None and not any(b["movement"] < front for b in backs):
        check.add(f"{where}.back", "8.45: some backs must move less than the front; none does")
    return {
        "count": VOLKSSTURM,
        "name": table.get("name", "Volkssturm"),
        "branch": "infantry",
        "front_movement": front,
        "stacking": 0,
        "backs": backs,
    }


def _read_delay(check: DataChecker, doc: dict[str, Any]) -> dict[str, Any]:
    """28 Delay markers (6.81) and their mix of printed values (a movement-point loss)."""
    table = check.table(doc, "delay") or {}
    where = "delay"
    check.keys(table, where, ("count", "value", "provenance", "note"))
    if not table:
        return {}
    check.provenance(table, where)
    count = check.integer(table, "count", where, 0)
    if count is not None:
        check.exact(count, DELAYS, f"{where}.count", "rulebook 6.81")
    values: list[dict[str, int]] = []
    for item, at in check.items(table, "value", f"{where}.value"):
        check.fields(item, at, ("value", "count", "provenance", "note"))
        value = check.integer(item, "value", at, -9, -1)
        n = check.integer(item, "count", at, 1, DELAYS)
        if value is not None and n is not None:
            if any(v["value"] == value for v in values):
                check.add(at, f"value {value} given twice")
                continue
            values.append({"value": value, "count": n})
    found = sum(v["count"] for v in values)
    if found != DELAYS:
        check.add(f"{where}.value", f"the mix counts {found} markers, expected {DELAYS} (6.81)")
    return {"count": DELAYS, "values": values}


def _read_artillery(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, Any]]:
    markers = []
    for item, where in check.items(doc, "artillery"):
        ident, where = check.named(
            item, where, "artillery {}", ("id", "army", "provenance", "note")
        )
        army = check.text(item, "army", where)
        if ident and army:
            markers.append({"id": ident, "army": army})
    if "artillery" in doc and len(markers) != ARTILLERY:
        check.add("artillery", f"{len(markers)} markers, expected {ARTILLERY} (rulebook 6.91)")
    return markers


# --- derived units and whole-file checks -----------------------------------------------


def _with_battle_groups(
    units: dict[str, dict[str, Any]], splits: dict[str, dict[str, Any]], stacking: int
) -> dict[str, dict[str, Any]]:
    """Each splittable corps followed by its two Battle groups (5.72-5.73: same name, branch
    and status; one step, 6.52; weak ZOC, 4.22)."""
    out: dict[str, dict[str, Any]] = {}
    for ident, unit in units.items():
        out[ident] = unit
        if unit["split"] is None:
            continue
        for k, (a, d, m) in enumerate(splits[unit["split"]]["groups"], start=1):
            bg = dict(unit)
            bg.update(
                id=f"{ident}-bg{k}",
                name=f"{unit['name']} Battle group {k}",
                size="battle-group",
                attack=a,
                defence=d,
                movement=m,
                reduced=None,
                steps=1,
                stacking=stacking,
                zoc="weak",
                split=None,
                place={"split": ident},
                provenance="rulebook 5.73",
                note="Derived from its corps and 5.73's split table.",
            )
            bg["groups"] = list(unit["groups"])
            out[bg["id"]] = bg
    return out


def _check_whole(
    check: DataChecker,
    units: dict[str, dict[str, Any]],
    artillery: list[dict[str, Any]],
    total: int,
) -> None:
    for ident, unit in units.items():
        where = f"unit {ident}"
        strength = (unit["attack"], unit["defence"], unit["movement"])
        branch, side = unit["branch"], unit["side"]
        if branch in SPECIALS:
            check.exact(strength, SPECIALS[branch], f"{where}.strength", "rulebook 2.21")
        if branch == "depot" and side == "german":
            check.exact(strength, GERMAN_DEPOT, f"{where}.strength", "rulebook 2.21")
        if branch == "depot" and side == "soviet":
            check.exact(strength[:2], (0, 1), f"{where}.strength", "rulebook 6.15")
        if side == "german" and branch in ZERO_STACK_GERMAN:
            check.exact(unit["stacking"], 0, f"{where}.stacking", "rulebook 4.11")
        if unit["place"].get("pool") == "support":
            check.exact(unit["stacking"], 0, f"{where}.stacking", "rulebook 4.12")
        if unit["size"] == "corps" and unit["nationality"] in SOVIET_POLISH:
            check.exact(unit["stacking"], 4, f"{where}.stacking", "rulebook 4.12, 4.14")
        for group in unit["groups"]:
            pool = unit["place"].get("pool")
            if group in POOLS and pool != group and "split" not in unit["place"]:
                check.add(
                    where, f"a {group} unit starts in the {group} pool, found {unit['place']}"
                )
        in_pool = unit["place"].get("pool")
        if in_pool in ("12th-army", "6th-ss") and in_pool not in unit["groups"]:
            check.add(where, f"in the {unit['place']['pool']} pool but not of that group")
    for group, wanted in GROUPS.items():
        found = sum(1 for u in units.values() if group in u["groups"])
        if wanted is not None and found != wanted:
            rule = "rulebook 9.32" if group == "12th-army" else "rulebook 12.32"
            check.add(f"group {group}", f"{found} units, expected {wanted} ({rule})")
    _check_deployment(check, units)
    armies = {
        u["parent"]
        for u in units.values()
        if u["size"] == "corps" and "map" in u["place"] and u["side"] == "soviet"
    }
    for marker in artillery:
        if marker["army"] not in armies:
            check.add(
                f"artillery {marker['id']}",
                f"army {marker['army']} has no corps on the map at the start (rulebook 6.91)",
            )
    counted = len(units) + VOLKSSTURM + DELAYS + len(artillery)
    if counted > total:
        check.add("counters", f"{counted} counters, more than the {total} of rulebook 2.4")


def _check_deployment(check: DataChecker, units: dict[str, dict[str, Any]]) -> None:
    """The start hexes: stacking limits (4.0) and one nationality a hex (4.17)."""
    hexes: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for unit in units.values():
        place = unit["place"]
        if "map" in place:
            hexes.setdefault((place["map"], place["hex"]), []).append(unit)
    for (map_name, hex_id), here in sorted(hexes.items()):
        where = f"{map_name} hex {hex_id:04d}"
        sides = {u["side"] for u in here}
        nations = {u["nationality"] for u in here}
        if len(sides) > 1:
            check.add(where, "units of both sides start in one hex")
        elif len(nations) > 1:
            check.add(where, f"{', '.join(sorted(nations))} units share a hex (rulebook 4.17)")
        points = sum(u["stacking"] for u in here)
        if points > STACK_LIMIT[map_name]:
            check.add(
                where,
                f"{points} stacking points, over the limit of {STACK_LIMIT[map_name]} (4.0)",
            )


# --- lookups ----------------------------------------------------------------------------


def reinforcements(data: dict[str, Any], side: str, turn: int) -> list[str]:
    """Ids of `side`'s scheduled reinforcements of `turn` (9.2, 9.5, 9.6), in file order.
    The 12th Army's random draws (9.33) are not scheduled units: see `twelfth_army`."""
    return [
        u["id"]
        for u in data["units"].values()
        if u["side"] == side and u["place"].get("turn") == turn
    ]


def initial(data: dict[str, Any], side: str) -> list[str]:
    """Ids of `side`'s units on the map at the start: a start hex or a deployment area."""
    return [
        u["id"]
        for u in data["units"].values()
        if u["side"] == side and ("map" in u["place"] or "area" in u["place"])
    ]


def in_area(data: dict[str, Any], area: str) -> list[str]:
    """Ids of the German units with deployment code `area` (10.22)."""
    return [u["id"] for u in data["units"].values() if u["place"].get("area") == area]


def pool(data: dict[str, Any], name: str) -> list[str]:
    """Ids of the units of a pool: the 12th Army cup (9.32), the 6th SS Panzer Army
    (12.32) or the Soviet support units (5.74)."""
    return [u["id"] for u in data["units"].values() if u["place"].get("pool") == name]


def group(data: dict[str, Any], name: str) -> list[str]:
    return [u["id"] for u in data["units"].values() if name in u["groups"]]


def battle_groups(data: dict[str, Any], corps_id: str) -> list[str]:
    """The two Battle groups a corps splits into (5.73); a reduced corps gets one of them
    (5.77); empty for a corps that does not split (rifle corps, 5.79)."""
    return [u["id"] for u in data["units"].values() if u["place"].get("split") == corps_id]


def jueterbog_eligible(unit: dict[str, Any]) -> bool:
    """8.32: a destroyed German "infantry" unit may come back at Jüterbog, SS and Luftwaffe
    infantry included, Volkssturm and the 600th Division's regiments not (Volkssturm are not
    units of this table, so never offered)."""
    return (
        unit["side"] == "german" and unit["branch"] == "infantry" and "600th" not in unit["groups"]
    )


def alkett_eligible(unit: dict[str, Any]) -> bool:
    """8.33: a destroyed German armour, assault gun or tank hunter unit may come back at Spandau."""
    return unit["side"] == "german" and unit["branch"] in ALKETT_BRANCHES


def survival_vp(unit: dict[str, Any]) -> int:
    """11.14 (and 12.34): the German VP of a unit surviving at the end."""
    if unit["branch"] == "fuhrer":
        return 25
    if "12th-army" in unit["groups"] or "6th-ss" in unit["groups"]:
        return 0
    if unit["branch"] in ONE_VP_BRANCHES:
        return 1
    return 2


def volkssturm_mix(data: dict[str, Any]) -> dict[str, int]:
    """The back sides of the 25 Volkssturm: "a-d-m" -> how many (a stand-in mix)."""
    return {
        f"{b['attack']}-{b['defence']}-{b['movement']}": b["count"]
        for b in data["volkssturm"]["backs"]
    }


def delay_mix(data: dict[str, Any]) -> dict[int, int]:
    """The 28 Delay markers: printed value -> how many (a stand-in mix)."""
    return {v["value"]: v["count"] for v in data["delay"]["values"]}


def census(data: dict[str, Any]) -> dict[str, int]:
    """How many counters of each kind the file holds (units, Volkssturm, Delay, artillery)."""
    sizes = Counter(u["size"] for u in data["units"].values())
    return {
        "units": len(data["units"]),
        "battle-groups": sizes["battle-group"],
        "volkssturm": data["volkssturm"]["count"],
        "delay": data["delay"]["count"],
        "artillery": len(data["artillery"]),
    }


@lru_cache(maxsize=1)
def _shipped() -> bytes:
    return shipped_file(PACKAGE, COUNTERS_FILE)


def default_counters() -> dict[str, Any]:
    """The shipped counters (a fresh copy each call: callers may change theirs)."""
    return load_counters(_shipped())
