"""Race to the Sea 1914: the units (`data/units.toml`; rulebook 3, 15.5, 15.6).

`load_units(raw)` parses and checks the file and returns plain JSON data; `default_units()`
loads the shipped file. Every problem of a file is collected into one DataError naming the
file, the unit and what is wrong. The rulebook prints no counters, so most ratings are
stand-ins (the file says which); what the rulebook does fix is checked here: every unit of
the set-up and reinforcement tables with its entry as printed, the French VI Reserve of
3.3.4, the ratings 11.4's and 12.9's examples need, cavalry of at most 2 SZ (10.5.3.B) and
the British False Report of 15.5.2.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pbem.games.datacheck import DataChecker, read_toml, shipped_file

PACKAGE = "pbem.games.race_to_the_sea"
UNITS_FILE = "units.toml"

NATIONALITIES = ("french", "british", "belgian", "german")
SIDES = ("allies", "germans")
SIDE_OF = {"french": "allies", "british": "allies", "belgian": "allies", "german": "germans"}
KINDS = ("infantry", "cavalry", "false-report")
METS = ("A", "B", "C", "D")  # best to worst (3.2.2)
SPECIALS = ("SQ", "HA", "")  # 3.2.3: the 75mm, Heavy Artillery, or none
RATINGS = ("rf", "mg", "art")
MAX_CAVALRY_SZ = 2  # 10.5.3.B: "any cavalry unit with a 2 SZ Rating" is the largest
TURNS = 10  # 2.2.A
# `after`: "siege" = the turn after the Siege of Antwerp ends (15.5.3, 7.7.1.B);
# "belgian-army" = any turn after the Belgian Army has entered (15.6.2.2.A)
AFTER = ("siege", "belgian-army")
START_AREA = "south of the Somme"  # 15.5.1: south of the Somme River, west of the trench line
NEAR_ST_QUENTIN = "within two hexes of St Quentin"  # 15.6.1
WITH_FIRST_UNITS = "with the at-start or Turn 1 units"  # 15.5.B, 15.6.B (False Reports)
# Where a unit enters: named places (map_data resolves them) and the tables' special areas.
LOCATIONS = (
    START_AREA,
    NEAR_ST_QUENTIN,
    WITH_FIRST_UNITS,
    "A",  # any Siege of Antwerp Zone hex (2.1.10)
    "GRL",  # German Rail Line: Cambrai, Valenciennes, Mons (15.6.2.1)
    "South Entry",
    "Amiens",
    "Abbeville",
    "Ostend",
    "Chauny",
    "Noyon",
    "La Fere",
    "Mons",
)

# Every unit the rulebook's tables name: id -> (nationality, kind, entry turn or `after`,
# location, section). Ids are this project's; names and entries are the tables'.
TABLES: dict[str, tuple[str, str, int | str, str, str]] = {
    "fr-iv": ("french", "infantry", 0, START_AREA, "15.5.1"),
    "fr-xiii": ("french", "infantry", 0, START_AREA, "15.5.1"),
    "fr-vi-res": ("french", "infantry", 0, START_AREA, "15.5.1"),
    "fr-ii-cav": ("french", "cavalry", 0, "Amiens", "15.5.1"),
    "fr-81-82-terr": ("french", "infantry", 0, "Amiens", "15.5.1"),
    "fr-84-88-terr": ("french", "infantry", 0, "Amiens", "15.5.1"),
    "fr-xiv": ("french", "infantry", 1, "South Entry", "15.5.2"),
    "fr-xvi": ("french", "infantry", 1, "South Entry", "15.5.2"),
    "fr-xx": ("french", "infantry", 1, "South Entry", "15.5.2"),
    "fr-xi": ("french", "infantry", 2, "South Entry", "15.5.2"),
    "fr-xxi": ("french", "infantry", 2, "South Entry", "15.5.2"),
    "fr-xxxii": ("french", "infantry", 2, "South Entry", "15.5.2"),
    "fr-i-cav": ("french", "cavalry", 2, "South Entry", "15.5.2"),
    "gb-cav": ("british", "cavalry", 2, "South Entry", "15.5.2"),
    "fr-viii": ("french", "infantry", 3, "South Entry", "15.5.2"),
    "fr-ix": ("french", "infantry", 3, "South Entry", "15.5.2"),
    "fr-x": ("french", "infantry", 3, "South Entry", "15.5.2"),
    "fr-ii-res": ("french", "infantry", 3, "South Entry", "15.5.2"),
    "fr-87-89-terr": ("french", "infantry", 3, "South Entry", "15.5.2"),
    "gb-ii": ("british", "infantry", 4, "Abbeville", "15.5.2"),
    "gb-iii": ("british", "infantry", 4, "Abbeville", "15.5.2"),
    "gb-false-1": ("british", "false-report", 4, "Abbeville", "15.5.2"),
    "gb-i": ("british", "infantry", 5, "Abbeville", "15.5.2"),
    "be-army": ("belgian", "infantry", "siege", "A", "15.5.3"),
    "de-ii": ("german", "infantry", 0, "Chauny", "15.6.1"),
    "de-ix-res": ("german", "infantry", 0, "Noyon", "15.6.1"),
    "de-i-cav": ("german", "cavalry", 0, NEAR_ST_QUENTIN, "15.6.1"),
    "de-i-bav": ("german", "infantry", 1, "GRL", "15.6.2"),
    "de-ii-bav": ("german", "infantry", 1, "GRL", "15.6.2"),
    "de-xiv-res": ("german", "infantry", 1, "GRL", "15.6.2"),
    "de-xxi": ("german", "infantry", 1, "GRL", "15.6.2"),
    "de-guard": ("german", "infantry", 2, "GRL", "15.6.2"),
    "de-iv": ("german", "infantry", 2, "GRL", "15.6.2"),
    "de-i-bav-res": ("german", "infantry", 2, "GRL", "15.6.2"),
    "de-xviii": ("german", "infantry", 2, "La Fere", "15.6.2"),
    "de-ii-cav": ("german", "cavalry", 2, "La Fere", "15.6.2"),
    "de-xiv": ("german", "infantry", 3, "GRL", "15.6.2"),
    "de-iv-cav": ("german", "cavalry", 3, "GRL", "15.6.2"),
    "de-vii": ("german", "infantry", 4, "GRL", "15.6.2"),
    "de-xiii": ("german", "infantry", 4, "GRL", "15.6.2"),
    "de-xv": ("german", "infantry", 4, "GRL", "15.6.2"),
    "de-xix": ("german", "infantry", 4, "GRL", "15.6.2"),
    "de-xxiv-res": ("german", "infantry", 5, "Mons", "15.6.2"),
    "de-iii-res": ("german", "infantry", "belgian-army", "A", "15.6.2.2"),
    "de-xxii-res": ("german", "infantry", "belgian-army", "A", "15.6.2.2"),
    "de-xxiii-res": ("german", "infantry", "belgian-army", "A", "15.6.2.2"),
    "de-xxvi-res": ("german", "infantry", "belgian-army", "A", "15.6.2.2"),
    "de-xxvii-res": ("german", "infantry", "belgian-army", "A", "15.6.2.2"),
    # 12.9's British IV Corps is in no table: data/units.toml completes 15.5.2's cut-off
    # row with it (a stand-in entry), so only its presence is required here.
}
BRITISH_IV = "gb-iv"
# 3.3.4: the French 6th Reserve Corps exactly (its "RF = 2" after a hit is a misprint)
VI_RESERVE = ("fr-vi-res", {"sz": 2, "met": "B", "rf": 1, "mg": 3, "art": 2, "special": "SQ"})

UNIT_FIELDS = (
    "id",
    "name",
    "nationality",
    "kind",
    "sz",
    "met",
    "rf",
    "mg",
    "art",
    "special",
    "turn",
    "after",
    "location",
    "provenance",
    "note",
)
RATING_FIELDS = ("met", "rf", "mg", "art", "special")


def load_units(raw: bytes, file_name: str = UNITS_FILE) -> dict[str, Any]:
    """Parse and check the units; plain JSON data: `units` (id -> unit, file order), `ids`
    and `sides` (side -> ids)."""
    doc, check = read_toml(raw, file_name, ("unit",))
    units: dict[str, dict[str, Any]] = {}
    for item, where in check.items(doc, "unit"):
        unit = _read_unit(check, item, where)
        if unit is None:
            continue
        check.unique(units, unit["id"], unit, f"unit {unit['id']}", "duplicate id")
    check.stop_if_any()
    _check_rulebook(check, units)
    check.stop_if_any()
    return {
        "units": units,
        "ids": list(units),
        "sides": {side: [u for u in units if units[u]["side"] == side] for side in SIDES},
    }


def _read_unit(check: DataChecker, item: dict[str, Any], where: str) -> dict[str, Any] | None:
    ident, where = check.named(item, where, "unit {}", UNIT_FIELDS)
    name = check.text(item, "name", where)
    nationality = check.choice(item, "nationality", where, NATIONALITIES)
    kind = check.choice(item, "kind", where, KINDS)
    note = check.text(item, "note", where, required=False)
    entry = _read_entry(check, item, where)
    if ident is None or name is None or nationality is None or kind is None or entry is None:
        return None
    unit: dict[str, Any] = {
        "id": ident,
        "name": name,
        "nationality": nationality,
        "side": SIDE_OF[nationality],
        "kind": kind,
        "entry": entry,
        "provenance": item.get("provenance"),
        "note": note or "",
    }
    if kind == "false-report":
        # 3.1.3.B, 3.2.1: no Size Rating (no boxes), never fights: no other ratings
        check.integer(item, "sz", where, 0, 0)
        given = [key for key in RATING_FIELDS if key in item]
        if given:
            check.add(where, f"a False Report has no ratings, found {', '.join(given)}")
        unit.update(sz=0, met=None, rf=None, mg=None, art=None, special=None)
        return unit
    sz = check.integer(item, "sz", where, 1, 4)
    if sz is not None and kind == "cavalry" and sz > MAX_CAVALRY_SZ:
        check.add(f"{where}.sz", f"cavalry has at most {MAX_CAVALRY_SZ} SZ (10.5.3.B), found {sz}")
    met = check.choice(item, "met", where, METS)
    values = {key: check.integer(item, key, where, 1, 4) for key in RATINGS}
    # 3.2.3: "there may be a symbol": "" (or no field) is none
    special = item.get("special", "")
    if special not in SPECIALS:
        check.add(f"{where}.special", f"{special!r} is not one of 'SQ', 'HA' or '' (none)")
    unit.update(sz=sz, met=met, special=special, **values)
    return unit


def _read_entry(check: DataChecker, item: dict[str, Any], where: str) -> dict[str, Any] | None:
    location = check.choice(item, "location", where, LOCATIONS)
    if ("turn" in item) == ("after" in item):
        check.add(where, "give exactly one of 'turn' (0 = at start) or 'after' (siege units)")
        return None
    turn = after = None
    if "turn" in item:
        turn = check.integer(item, "turn", where, 0, TURNS)
        if turn is None:
            return None
    else:
        after = check.choice(item, "after", where, AFTER)
        if after is None:
            return None
    if location is None:
        return None
    return {"turn": turn, "after": after, "location": location}


def _check_rulebook(check: DataChecker, units: dict[str, dict[str, Any]]) -> None:
    """The units and ratings the rulebook fixes."""
    for ident, (nationality, kind, when, location, section) in TABLES.items():
        unit = units.get(ident)
        if unit is None:
            check.add(f"unit {ident}", f"missing (rulebook {section} names it)")
            continue
        entry = unit["entry"]
        found = (
            unit["nationality"],
            unit["kind"],
            entry["turn"] if entry["after"] is None else entry["after"],
            entry["location"],
        )
        check.exact(found, (nationality, kind, when, location), f"unit {ident}", section)
    if BRITISH_IV not in units:
        check.add(f"unit {BRITISH_IV}", "missing (the British IV Corps of rulebook 12.9)")
    ident, wanted = VI_RESERVE
    if ident in units:
        given = {key: units[ident][key] for key in wanted}
        check.exact(given, wanted, f"unit {ident}", "rulebook 3.3.4")
    if not check.problems:
        _check_examples(check, units)


def _check_examples(check: DataChecker, units: dict[str, dict[str, Any]]) -> None:
    """What the worked examples of 11.4 and 12.9 need of the ratings."""
    ii, fr_iv = units["de-ii"], units["fr-iv"]
    iii, xxiii, gb_iv = units["de-iii-res"], units["de-xxiii-res"], units[BRITISH_IV]
    if ii["mg"] != 4 or ii["rf"] < 2 or ii["art"] < 2:
        check.add("unit de-ii", "needs MG 4 and RF, ART of 2 or more (rulebook 11.4)")
    if fr_iv["met"] != "A":
        check.add("unit fr-iv", "needs MET A (rulebook 11.4)")
    if xxiii["sz"] != 2:
        check.add("unit de-xxiii-res", "needs SZ 2: two hits eliminate it (rulebook 12.9)")
    if gb_iv["sz"] > 3:
        check.add(
            f"unit {BRITISH_IV}", "needs SZ 3 or less: three hits eliminate it (rulebook 12.9)"
        )
    if iii["sz"] <= gb_iv["sz"] or iii["sz"] < 2:
        check.add(
            "unit de-iii-res",
            "must be larger than the British IV Corps and survive one hit (rulebook 12.9)",
        )


def ratings(unit: dict[str, Any]) -> dict[str, Any]:
    """The ratings a Combat Results Card reads (cards.evaluate), of a loaded unit."""
    return {key: unit[key] for key in ("sz", "met", "rf", "mg", "art", "special")}


@lru_cache(maxsize=1)
def _shipped() -> bytes:
    return shipped_file(PACKAGE, UNITS_FILE)


def default_units() -> dict[str, Any]:
    """The shipped units (a fresh copy each call: callers may change theirs)."""
    return load_units(_shipped())
