"""Götterdämmerung: the tables (`data/tables.toml`; rulebook 5.1-5.4, 6.3-6.5, 7.1, 8.4, 11.16,
11.17): the Terrain Effects Chart, the odds columns and column shifts, the Soviet and German
Combat Results Tables (the Soviet one read with a d10 by overruns), the Game-Turn Record Track.

`load_tables(raw)` parses and checks the file and returns plain JSON data; `default_tables()`
loads the shipped file. Every problem of a file is collected into one DataError naming the
file, the item and what is wrong. The rulebook prints none of the charts: the file marks its
stand-ins, and what the text does state (5.12, 5.31, 5.37, 5.41, 6.43-6.46, 7.1, the two odds
examples of 6.3 and 6.48, 11.16, 11.17) is checked here and refused if changed.

The rest are pure functions over the loaded data: `move_cost`, `odds` (defender rounding, the
1:3 and 8:1 caps, shifts after the cap), `combat_shift`, `river_shift`, `crt_result`,
`overrun_result`, `parse_result` and the turn track's `volkssturm`, `bonus_vp`, `elbe_vp`.

Result codes, the grammar of `parse_result` ("–", the rulebook's dash, reads as "-"):

    soviet-result := "-" | "EX" | "DE" | N SIDE ["R"]        N := "1" | "2" | "3"
    SIDE          := "A" | "D"                                (6.51: attacker, defender)
    german-result := "-" | "AR" | "*" | "**" | "**R" | "**1" | "**1R"

"1DR": the defender loses one step, then its survivors retreat two hexes (6.52, 6.53); "EX":
every unit that took part loses one step, no retreat, no advance (6.54); "DE": every defender
is destroyed (6.55); "AR": the German attackers retreat two hexes, the Soviet player choosing
where (6.57); "*" / "**": one / two Delay markers on the target, "R" a two-hex retreat chosen by
the German player, "1" one step lost by the target (6.58).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pbem.errors import IllegalOrderError
from pbem.games.datacheck import DataChecker, read_toml, shipped_file

PACKAGE = "pbem.games.gotterdammerung"
TABLES_FILE = "tables.toml"

FOOT, VEHICLE = "foot", "vehicle"  # 2.3
SOVIET, GERMAN = "soviet", "german"
CRTS = (SOVIET, GERMAN)
CLEAR = "clear"
GRIDS = ("clear", "non-clear")  # the German CRT's two grids (6.42)
TURNS = 10  # 1.1
VOLKSSTURM = 25  # 8.42
D6, D10 = 6, 10  # 2.4: the d10 only for overruns (7.1)
SOVIET_ROWS = D10  # the Soviet CRT is read by a d6 (6.3) and by an overrun's d10 (7.1)
GERMAN_ROWS = D6  # German units never overrun (7.0)
MAX_STEPS = 3  # 6.52: "a number (1 to 3)"
PROHIBITED = ("all", "soviet")  # 5.28 full sea/lake; 5.27 Front boundaries (Soviet units)
RIVER_CLASSES = ("river", "major-river")  # 6.44

# What the rulebook states, checked exactly: (section, expected).
MOVEMENT = {
    "transition_entry": (3, "5.41"),
    "leave_weak_zoc": (3, "5.22"),
    "overrun": (3, "7.1"),
    "fortification_soviet": (1, "5.37"),
}
HEX_TERRAINS = ("clear", "forest", "marsh", "mountain", "small-city", "major-city", "built-up")
HEX_FACTS = {
    ("forest", "vehicle"): (2, "5.12, 5.31"),
    ("small-city", "foot"): (2, "5.12"),
    ("major-city", "foot"): (2, "5.12"),
    ("clear", "soviet_crt_shift"): (0, "6.42: clear is the unshifted column"),
}
HEXSIDE_TERRAINS = (
    "minor-river",
    "river",
    "major-river",
    "sea-lake",
    "spree",
    "spree-bridge",
    "elbe",
    "front-boundary",
    "road",
    "railroad",
    "u-bahn",
)
HEXSIDE_FACTS = {
    ("minor-river", "vehicle"): (2, "5.12"),
    ("major-river", "vehicle"): (5, "5.31"),
    ("river", "combat"): ("river", "6.44"),
    ("major-river", "combat"): ("major-river", "6.44"),
    ("sea-lake", "prohibited"): ("all", "5.28"),
    ("spree", "same_as"): ("sea-lake", "5.36"),
    ("spree-bridge", "same_as"): ("river", "5.36"),
    ("front-boundary", "prohibited"): ("soviet", "5.27"),
    ("road", "road"): (True, "5.32"),
}
MODIFIERS = {
    "fortification": (-1, "6.43"),
    "major-river": (-3, "6.44"),
    "river": (-1, "6.44"),
    "artillery": (3, "6.46, 6.92"),
    "u-bahn": (1, "12.12"),
}
FIRST_COLUMN, LAST_COLUMN = "1:3", "8:1"  # 6.3
ELBE_VP = {6: 5, 7: 4, 8: 3, 9: 2, 10: 2}  # 11.17: "9 and later: 2"
BONUS_TURNS = (1, 2, 3)  # 11.16

# Every result type the rulebook defines, and the table it belongs to (6.51-6.58).
SOVIET_TYPES = ("-", "nA", "nD", "nAR", "nDR", "EX", "DE")
GERMAN_TYPES = ("-", "AR", "*", "**", "**R", "**1", "**1R")
STEPS = re.compile(r"^([1-3])([AD])(R?)\Z")
COLUMN = re.compile(r"^([1-9][0-9]?):([1-9][0-9]?)\Z")

HEX_FIELDS = ("id", "name", "foot", "vehicle", "soviet_crt_shift", "provenance", "note")
HEXSIDE_FIELDS = (
    "id",
    "name",
    "foot",
    "vehicle",
    "prohibited",
    "combat",
    "road",
    "same_as",
    "provenance",
    "note",
)
TURN_FIELDS = (
    "turn",
    "volkssturm",
    "bonus_vp",
    "elbe_vp",
    "provenance",
    "volkssturm_provenance",
    "note",
)
SECTIONS = (
    "movement",
    "hex_terrain",
    "hexside_terrain",
    "odds",
    "modifier",
    "soviet_crt",
    "german_crt",
    "turn",
)


@dataclass(frozen=True)
class Result:
    """One CRT entry as what it does; `code` as printed."""

    code: str
    type: str  # one of SOVIET_TYPES or GERMAN_TYPES ("nDR": a number of steps, then R)
    attacker_steps: int = 0  # 6.52
    defender_steps: int = 0  # 6.52, 6.58 ("**1")
    attacker_retreat: bool = False  # 6.53, 6.57
    defender_retreat: bool = False  # 6.53, 6.58
    exchange: bool = False  # 6.54: every unit that took part loses one step
    destroyed: bool = False  # 6.55: every defender
    delay: int = 0  # 6.58: Delay markers on the target
    # who chooses the retreat hexes: the owner (6.61) or, for a German attack, the other
    # player (6.57, 6.58); None when nobody retreats
    retreat_by: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "type": self.type,
            "attacker_steps": self.attacker_steps,
            "defender_steps": self.defender_steps,
            "attacker_retreat": self.attacker_retreat,
            "defender_retreat": self.defender_retreat,
            "exchange": self.exchange,
            "destroyed": self.destroyed,
            "delay": self.delay,
            "retreat_by": self.retreat_by,
        }


def parse_result(code: str, crt: str) -> Result:
    """The result `code` of the `crt` ("soviet" or "german") table; ValueError (one line) if
    the code is not one that table defines (the grammar in the module docstring). Parsed
    once per code and table (a Result is frozen: the same one can be handed out again)."""
    if type(code) is not str or type(crt) is not str:
        return _parse_result(code, crt)
    key = (code, crt)
    found = _PARSED.get(key)
    if found is None:
        found = _parse_result(code, crt)
        if len(_PARSED) >= 256:
            _PARSED.clear()
        _PARSED[key] = found
    return found


_PARSED: dict[tuple[str, str], Result] = {}


def _parse_result(code: str, crt: str) -> Result:
    if crt not in CRTS:
        raise ValueError(f"unknown CRT {crt!r} (expected soviet or german)")
    text = "-" if code == "–" else code
    if text == "-":
        return Result(code=text, type="-")
    if crt == SOVIET:
        if text == "EX":
            return Result(code=text, type="EX", exchange=True)
        if text == "DE":
            return Result(code=text, type="DE", destroyed=True)
        match = STEPS.match(text)
        if match is None:
            raise ValueError(
                f"{code!r} is not a Soviet CRT result (-, EX, DE, or 1-3 then A or D, then R)"
            )
        steps, side, retreat = int(match[1]), match[2], match[3] == "R"
        return Result(
            code=text,
            type=f"n{side}{'R' if retreat else ''}",
            attacker_steps=steps if side == "A" else 0,
            defender_steps=steps if side == "D" else 0,
            attacker_retreat=retreat and side == "A",
            defender_retreat=retreat and side == "D",
            retreat_by="owner" if retreat else None,
        )
    if text == "AR":
        return Result(code=text, type="AR", attacker_retreat=True, retreat_by="opponent")
    if text not in GERMAN_TYPES:
        raise ValueError(f"{code!r} is not a German CRT result ({', '.join(GERMAN_TYPES)})")
    retreat = text.endswith("R")
    return Result(
        code=text,
        type=text,
        delay=text.count("*"),
        defender_steps=1 if "1" in text else 0,
        defender_retreat=retreat,
        retreat_by="opponent" if retreat else None,
    )


def _ratio(label: str) -> tuple[int, int] | None:
    """ "3:2" as (3, 2); None if not odds."""
    match = COLUMN.match(label) if isinstance(label, str) else None
    return (int(match[1]), int(match[2])) if match else None


def _odds(label: str) -> tuple[int, int]:
    """A column of loaded data, whose labels the loader checked."""
    ratio = _ratio(label)
    assert ratio is not None, label
    return ratio


# --- loading ---------------------------------------------------------------------------


def load_tables(raw: bytes, file_name: str = TABLES_FILE) -> dict[str, Any]:
    """Parse and check the tables; plain JSON data: `movement`, `hex_terrain` and
    `hexside_terrain` (id -> entry; a `same_as` hexside carries its model's values),
    `columns`, `modifiers` (id -> shift), `soviet_crt` (rows of codes), `german_crt`
    ("clear" / "non-clear" -> rows of codes), `turns` (one entry per turn, in order)."""
    doc, check = read_toml(raw, file_name, SECTIONS)
    data: dict[str, Any] = {
        "movement": _read_movement(check, doc),
        "hex_terrain": _read_hexes(check, doc),
        "hexside_terrain": _read_hexsides(check, doc),
        "columns": _read_columns(check, doc),
        "modifiers": _read_modifiers(check, doc),
        "turns": _read_turns(check, doc),
    }
    width = len(data["columns"] or [])
    data["soviet_crt"] = _read_crt(check, doc, "soviet_crt", ("rows",), SOVIET_ROWS, width)["rows"]
    german = _read_crt(check, doc, "german_crt", ("clear", "non_clear"), GERMAN_ROWS, width)
    data["german_crt"] = {"clear": german["clear"], "non-clear": german["non_clear"]}
    check.stop_if_any()
    _check_rulebook(check, data)
    check.stop_if_any()
    return data


def _note(check: DataChecker, item: dict[str, Any], where: str) -> str:
    """The item's note; a stand-in must have one saying what is invented."""
    note = check.text(item, "note", where, required=item.get("provenance") == "stand-in")
    return note or ""


def _read_movement(check: DataChecker, doc: dict[str, Any]) -> dict[str, int]:
    table = check.table(doc, "movement")
    if table is None:
        return {}
    check.fields(table, "movement", (*MOVEMENT, "provenance", "note"))
    found: dict[str, int] = {}
    for key, (wanted, section) in MOVEMENT.items():
        value = check.integer(table, key, "movement", 0)
        if value is not None:
            check.exact(value, wanted, f"movement.{key}", f"rulebook {section}")
            found[key] = value
    return found


def _read_hexes(check: DataChecker, doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    hexes: dict[str, dict[str, Any]] = {}
    for item, where in check.items(doc, "hex_terrain"):
        ident, where = check.named(item, where, "hex_terrain {}", HEX_FIELDS)
        entry = {
            "name": check.text(item, "name", where),
            "foot": check.integer(item, "foot", where, 1),
            "vehicle": check.integer(item, "vehicle", where, 1),
            "soviet_crt_shift": check.integer(item, "soviet_crt_shift", where, -10, 0),
            "provenance": item.get("provenance"),
            "note": _note(check, item, where),
        }
        if ident is None or any(value is None for value in entry.values()):
            continue
        check.unique(hexes, ident, entry, where, "duplicate id")
    return hexes


def _read_hexsides(check: DataChecker, doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    sides: dict[str, dict[str, Any]] = {}
    models: dict[str, tuple[str, str]] = {}  # id -> (same_as, where)
    for item, where in check.items(doc, "hexside_terrain"):
        ident, where = check.named(item, where, "hexside_terrain {}", HEXSIDE_FIELDS)
        name = check.text(item, "name", where)
        note = _note(check, item, where)
        if ident is None or name is None:
            continue
        if ident in sides or ident in models:
            check.add(where, "duplicate id")
            continue
        if "same_as" in item:
            # 5.36: "regarded as ... in all respects": nothing of its own but a name
            own = [
                key for key in ("foot", "vehicle", "prohibited", "combat", "road") if key in item
            ]
            if own:
                check.add(
                    where, f"a same_as hexside has no values of its own, found {', '.join(own)}"
                )
            model = check.text(item, "same_as", where)
            if model is not None:
                models[ident] = (model, where)
                sides[ident] = {
                    "name": name,
                    "same_as": model,
                    "provenance": item.get("provenance"),
                }
            continue
        prohibited = check.choice(item, "prohibited", where, PROHIBITED, required=False)
        combat = check.choice(item, "combat", where, RIVER_CLASSES, required=False)
        road = check.flag(item, "road", where)
        if prohibited:
            # a hexside nobody (or no Soviet unit) crosses has no cost to cross
            given = [key for key in ("foot", "vehicle") if key in item]
            if given:
                check.add(where, f"a prohibited hexside has no cost, found {', '.join(given)}")
            foot: int | None = 0
            vehicle: int | None = 0
        else:
            foot = check.integer(item, "foot", where, 0)
            vehicle = check.integer(item, "vehicle", where, 0)
        if None in (prohibited, combat, road, foot, vehicle):
            continue
        sides[ident] = {
            "name": name,
            "foot": foot,
            "vehicle": vehicle,
            "prohibited": prohibited or None,
            "combat": combat or None,
            "road": road,
            "same_as": None,
            "provenance": item.get("provenance"),
            "note": note,
        }
    for ident, (model, where) in models.items():
        target = sides.get(model)
        if target is None or target["same_as"] is not None:
            check.add(f"{where}.same_as", f"{model!r} is not a hexside with values of its own")
            continue
        sides[ident] = {**target, **sides[ident]}
    return sides


def _read_columns(check: DataChecker, doc: dict[str, Any]) -> list[str] | None:
    table = check.table(doc, "odds")
    if table is None:
        return None
    check.fields(table, "odds", ("columns", "provenance", "note"))
    columns = table.get("columns")
    if not isinstance(columns, list) or not columns:
        check.add("odds.columns", f"expected an array of odds such as '3:2', found {columns!r}")
        return None
    ratios = [_ratio(label) for label in columns]
    bad = [repr(label) for label, ratio in zip(columns, ratios, strict=True) if ratio is None]
    if bad:
        check.add("odds.columns", f"not odds such as '3:2': {', '.join(bad)}")
        return None
    values = [ratio[0] / ratio[1] for ratio in ratios if ratio]
    if any(later <= earlier for earlier, later in zip(values, values[1:], strict=False)):
        check.add("odds.columns", "must rise strictly from left to right")
        return None
    return list(columns)


def _read_modifiers(check: DataChecker, doc: dict[str, Any]) -> dict[str, int]:
    found: dict[str, int] = {}
    for item, where in check.items(doc, "modifier"):
        ident, where = check.named(
            item, where, "modifier {}", ("id", "shift", "provenance", "note")
        )
        shift = check.integer(item, "shift", where, -10, 10)
        if ident is None or shift is None:
            continue
        check.unique(found, ident, shift, where, "duplicate id")
    return found


def _read_crt(
    check: DataChecker,
    doc: dict[str, Any],
    section: str,
    grids: Sequence[str],
    rows: int,
    width: int,
) -> dict[str, list[list[str]] | None]:
    """Each grid of a CRT: `rows` rows (die rolls) of `width` codes its table defines."""
    crt = SOVIET if section == "soviet_crt" else GERMAN
    found: dict[str, list[list[str]] | None] = {grid: None for grid in grids}
    table = check.table(doc, section)
    if table is None:
        return found
    check.fields(table, section, (*grids, "provenance", "note"))
    _note(check, table, section)
    for grid in grids:
        where = f"{section}.{grid}"
        value = table.get(grid)
        if not isinstance(value, list) or len(value) != rows:
            check.add(where, f"expected {rows} rows, one per die roll 1-{rows}")
            continue
        codes: list[list[str]] = []
        for roll, row in enumerate(value, start=1):
            if not isinstance(row, list) or (width and len(row) != width):
                check.add(f"{where} roll {roll}", f"expected {width} results, one per odds column")
                continue
            for column, code in enumerate(row, start=1):
                cell = f"{where} roll {roll} column {column}"
                if not isinstance(code, str):
                    check.add(cell, f"expected a result code, found {code!r}")
                    continue
                try:
                    parse_result(code, crt)
                except ValueError as exc:
                    check.add(cell, str(exc))
            codes.append(["-" if code == "–" else code for code in row])
        found[grid] = codes
    return found


def _read_turns(check: DataChecker, doc: dict[str, Any]) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    for i, item in enumerate(check.tables(doc, "turn"), start=1):
        where = f"turn #{i}"
        if not check.is_table(item, where):
            continue
        check.fields(item, where, TURN_FIELDS)
        check.provenance(item, where, "volkssturm_provenance")
        entry = {
            "turn": check.integer(item, "turn", where, 1, TURNS),
            "volkssturm": check.integer(item, "volkssturm", where, 0, VOLKSSTURM),
            "bonus_vp": check.flag(item, "bonus_vp", where),
            "elbe_vp": check.integer(item, "elbe_vp", where, 0),
        }
        if any(value is None for value in entry.values()):
            continue
        if entry["turn"] != i:
            check.add(where, f"expected turn {i}: the turns in order from 1 (rulebook 1.1)")
            continue
        turns.append(entry)
    return turns


def _check_rulebook(check: DataChecker, data: dict[str, Any]) -> None:
    """What the rulebook states, as stated."""
    for kinds, facts, noun in (
        (HEX_TERRAINS, HEX_FACTS, "hex_terrain"),
        (HEXSIDE_TERRAINS, HEXSIDE_FACTS, "hexside_terrain"),
    ):
        known = data[noun]
        for ident in kinds:
            if ident not in known:
                check.add(f"{noun} {ident}", "missing (the rulebook names this terrain)")
        for (ident, key), (wanted, section) in facts.items():
            if ident in known:
                value = known[ident].get(key)
                check.exact(value, wanted, f"{noun} {ident}.{key}", f"rulebook {section}")
    for ident, (wanted, section) in MODIFIERS.items():
        shift = data["modifiers"].get(ident)
        if shift is None:
            check.add(f"modifier {ident}", f"missing (rulebook {section})")
        else:
            check.exact(shift, wanted, f"modifier {ident}.shift", f"rulebook {section}")
    _check_turns(check, data["turns"])
    columns = data["columns"]
    if columns[0] != FIRST_COLUMN or columns[-1] != LAST_COLUMN:
        check.add("odds.columns", f"must run from {FIRST_COLUMN} to {LAST_COLUMN} (rulebook 6.3)")
        return
    # the two worked examples, read through the very functions the engine will call
    for attack, defence, shift, wanted, section in (
        (12, 5, -2, "1:1", "6.3"),
        (10, 1, -2, "6:1", "6.48"),
    ):
        got = odds(data, attack, defence, shift).column
        if got != wanted:
            check.add(
                "odds.columns",
                f"{attack} against {defence} shifted {-shift} left must read {wanted}, "
                f"found {got} (rulebook {section})",
            )
    _check_result_types(check, data)


def _check_turns(check: DataChecker, turns: list[dict[str, Any]]) -> None:
    if len(turns) != TURNS:
        check.add("turn", f"expected {TURNS} turns (rulebook 1.1), found {len(turns)}")
    total = sum(turn["volkssturm"] for turn in turns)
    if total > VOLKSSTURM:
        check.add("turn", f"{total} Volkssturm in all, more than the {VOLKSSTURM} of rulebook 8.42")
    for turn in turns:
        number = turn["turn"]
        check.exact(
            turn["elbe_vp"], ELBE_VP.get(number, 0), f"turn {number}.elbe_vp", "rulebook 11.17"
        )
        check.exact(
            turn["bonus_vp"], number in BONUS_TURNS, f"turn {number}.bonus_vp", "rulebook 11.16"
        )


def result_types(data: dict[str, Any]) -> dict[str, set[str]]:
    """The result types each CRT holds (for Soviet step results also the numbers 1-3)."""
    found: dict[str, set[str]] = {SOVIET: set(), GERMAN: set()}
    grids = [(SOVIET, data["soviet_crt"])] + [(GERMAN, g) for g in data["german_crt"].values()]
    for crt, rows in grids:
        for row in rows:
            for code in row:
                result = parse_result(code, crt)
                found[crt].add(result.type)
                if result.type.startswith("n"):
                    found[crt].add(str(result.attacker_steps or result.defender_steps))
    return found


def _check_result_types(check: DataChecker, data: dict[str, Any]) -> None:
    """Every result the rulebook defines can come up: the tables hold each at least once."""
    found = result_types(data)
    for crt, wanted, section in (
        (SOVIET, (*SOVIET_TYPES, "1", "2", "3"), "6.52-6.56"),
        (GERMAN, GERMAN_TYPES, "6.56-6.58"),
    ):
        missing = [kind for kind in wanted if kind not in found[crt]]
        if missing:
            check.add(f"{crt}_crt", f"never gives {', '.join(missing)} (rulebook {section})")


@lru_cache(maxsize=1)
def _shipped() -> bytes:
    return shipped_file(PACKAGE, TABLES_FILE)


def default_tables() -> dict[str, Any]:
    """The shipped tables (a fresh copy each call: callers may change theirs)."""
    return load_tables(_shipped())


# --- movement (5.1-5.4, 7.1) -----------------------------------------------------------


def move_cost(
    data: dict[str, Any],
    mover: str,
    terrain: str,
    hexsides: Iterable[str] = (),
    *,
    side: str,
    fortified: bool = False,
    into_transition: bool = False,
    leaving_weak_zoc: bool = False,
    overrun: bool = False,
    road: bool = True,
) -> int | None:
    """Movement points a `mover` ("foot" or "vehicle") of `side` spends to enter a hex of
    `terrain` across a hexside with the features `hexsides`; None if it may not cross.

    Hex and hexside costs add up (5.31); a road along the hexside replaces both (5.32) unless
    the caller forbids it (`road=False`: 5.32 weak ZOC to weak ZOC, 5.34) or it is an overrun
    (7.29); from an Operational hex into a Transition Hex the hex costs 3, whatever its
    terrain (5.41: the hexside's cost still adds, our reading); a fortification costs Soviet
    units 1 more (5.37, paid even along a road: it is not the hex's terrain); leaving a weak
    ZOC (5.22) and an overrun (7.1) cost 3 more each.
    """
    if mover not in (FOOT, VEHICLE):
        raise ValueError(f"unknown kind of unit {mover!r} (expected foot or vehicle)")
    features = [data["hexside_terrain"][name] for name in hexsides]
    for feature in features:
        if feature["prohibited"] == "all" or (feature["prohibited"] == SOVIET and side == SOVIET):
            return None
    roads = [f for f in features if f["road"]]
    if roads and road and not overrun:
        cost = min(f[mover] for f in roads)
    else:
        base = (
            data["movement"]["transition_entry"]
            if into_transition
            else data["hex_terrain"][terrain][mover]
        )
        cost = base + sum(f[mover] for f in features if not f["road"])
    if fortified and side == SOVIET:
        cost += data["movement"]["fortification_soviet"]
    if leaving_weak_zoc:
        cost += data["movement"]["leave_weak_zoc"]
    if overrun:
        cost += data["movement"]["overrun"]
    return cost


# --- odds and shifts (6.3, 6.4) --------------------------------------------------------


@dataclass(frozen=True)
class Odds:
    ratio: str  # the column of 6.3's step 3, after the 1:3 / 8:1 caps
    column: str  # the column read, after the shifts (6.48), kept within 1:3 .. 8:1
    index: int  # of `column` in the table's columns
    dropped: int  # attack points the defender's rounding drops (6.3: 12 against 5 drops 2)


def odds(
    data: dict[str, Any], attack: int, defence: int, shift: int = 0, attacker: str = SOVIET
) -> Odds:
    """The odds column of `attack` against `defence`, shifted `shift` columns (negative: to
    the left). Fractions go to the defender: the largest column a:d with attack/defence at
    least a/d (6.3). A ratio beyond 1:3 or 8:1 is read as that column (6.3), before any
    shift (6.48: 10 against 1 shifted two left is 8:1 -> 6:1); the shifted column stays
    within the table. A German attack below 1:3 before shifts may not be made (the second
    6.48): IllegalOrderError."""
    if attack < 1:
        raise IllegalOrderError("rule 6.15: a unit with zero attack strength may not attack")
    if defence < 1:
        raise ValueError(f"a defence strength of {defence}: every defender has at least 1")
    columns = data["columns"]
    ratios = _column_ratios(tuple(columns))
    fits = [i for i, (a, d) in enumerate(ratios) if attack * d >= defence * a]
    if not fits:
        if attacker == GERMAN:
            raise IllegalOrderError(
                f"rule 6.48: a German attack below {columns[0]} may not be made "
                f"({attack} against {defence})"
            )
        fits = [0]  # 6.3: "lower than 1:3 is resolved as 1:3"
    base = fits[-1]
    a, d = ratios[base]
    needed = -(-defence * a // d)  # the attack the column takes, rounded up
    index = min(max(base + shift, 0), len(columns) - 1)
    return Odds(
        ratio=columns[base], column=columns[index], index=index, dropped=max(attack - needed, 0)
    )


def _column_ratios(columns: tuple[str, ...]) -> list[tuple[int, int]]:
    """`[_odds(label) for label in columns]`, remembered by the labels themselves."""
    try:
        found = _RATIOS.get(columns)
    except TypeError:  # (a label that is no key: never one the loader passes)
        return [_odds(label) for label in columns]
    if found is None:
        found = [_odds(label) for label in columns]
        if len(_RATIOS) >= 16:
            _RATIOS.clear()
        _RATIOS[columns] = found
    return found


_RATIOS: dict[tuple[str, ...], list[tuple[int, int]]] = {}


def river_shift(data: dict[str, Any], crossings: Iterable[str | None]) -> int:
    """The 6.44 shift of an attack whose units attack across hexsides of these classes (one
    entry per attacking unit: "river", "major-river" or None for any other hexside). All
    across major rivers: 3 left; all across rivers or major rivers: 1 left; a single
    attacker across anything else cancels it (6.45)."""
    classes = list(crossings)
    if not classes or any(c not in RIVER_CLASSES for c in classes):
        return 0
    if all(c == "major-river" for c in classes):
        return int(data["modifiers"]["major-river"])
    return int(data["modifiers"]["river"])


def hexside_class(data: dict[str, Any], hexsides: Iterable[str]) -> str | None:
    """The 6.44 class of a hexside with these features (the strongest river on it)."""
    classes = {data["hexside_terrain"][name]["combat"] for name in hexsides}
    for kind in ("major-river", "river"):
        if kind in classes:
            return kind
    return None


def combat_shift(
    data: dict[str, Any],
    crt: str,
    terrain: str,
    *,
    crossings: Iterable[str | None] = (),
    fortified: bool = False,
    defender: str = GERMAN,
    artillery: bool = False,
    u_bahn: bool = False,
) -> int:
    """The total column shift of a combat (6.47: modifiers add up): the terrain column of the
    Soviet CRT (6.42; the German CRT reads a grid instead), a fortification for a German
    defender (6.43), rivers (6.44, 6.45), artillery support (6.46) and the U-Bahn (12.12)."""
    modifiers = data["modifiers"]
    shift = data["hex_terrain"][terrain]["soviet_crt_shift"] if crt == SOVIET else 0
    if fortified and defender == GERMAN:
        shift += modifiers["fortification"]
    shift += river_shift(data, crossings)
    if artillery:
        shift += modifiers["artillery"]
    if u_bahn:
        shift += modifiers["u-bahn"]
    return int(shift)


# --- results (6.5, 7.1) ----------------------------------------------------------------


def crt_result(
    data: dict[str, Any], crt: str, index: int, roll: int, terrain: str = CLEAR, die: int = D6
) -> Result:
    """The result at odds column `index` for a die `roll` on the `crt` ("soviet" or
    "german"): the German CRT reads its "non-clear" grid for any terrain but clear (6.42);
    `die` 10 (an overrun, 7.1) only on the Soviet CRT."""
    if crt not in CRTS:
        raise ValueError(f"unknown CRT {crt!r} (expected soviet or german)")
    if die not in (D6, D10) or (die == D10 and crt != SOVIET):
        raise ValueError("only a Soviet overrun rolls the ten-sided die (rule 7.1)")
    if not 1 <= roll <= die:
        raise ValueError(f"a roll of {roll} on a {die}-sided die")
    if not 0 <= index < len(data["columns"]):
        raise ValueError(f"no odds column {index}")
    if crt == SOVIET:
        rows = data["soviet_crt"]
    else:
        rows = data["german_crt"]["clear" if terrain == CLEAR else "non-clear"]
    return parse_result(rows[roll - 1][index], crt)


def overrun_result(data: dict[str, Any], index: int, roll: int) -> Result:
    """An overrun's result: the Soviet CRT read with a d10 (7.1)."""
    return crt_result(data, SOVIET, index, roll, die=D10)


# --- the Game-Turn Record Track --------------------------------------------------------


def _turn(data: dict[str, Any], turn: int) -> dict[str, Any]:
    if not 1 <= turn <= len(data["turns"]):
        raise ValueError(f"no Game Turn {turn} (the game has {len(data['turns'])})")
    return dict(data["turns"][turn - 1])


def volkssturm(data: dict[str, Any], turn: int) -> int:
    """Volkssturm units the German player may bring in on `turn` (8.41; stand-in figures)."""
    return int(_turn(data, turn)["volkssturm"])


def bonus_vp(data: dict[str, Any], turn: int) -> bool:
    """Whether a VP hex first occupied on `turn` earns the 10 bonus VP (11.16)."""
    return bool(_turn(data, turn)["bonus_vp"])


def elbe_vp(data: dict[str, Any], turn: int) -> int:
    """The VP of a Meeting at the Elbe first made at the end of `turn` (11.17)."""
    return int(_turn(data, turn)["elbe_vp"])
