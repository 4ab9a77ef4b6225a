"""Race to the Sea 1914: reading and checking the hex map (`data/map.toml`), and the pure
board questions the rules ask of it.

The rulebook describes the terrain (2.0) but prints no map, so the shipped `map.toml` is a
stand-in (every item carries a `provenance`); a player who owns the printed map can load
their own file. `load_map` parses TOML bytes and returns plain JSON data (dicts, lists,
strings, ints, bools), every problem of the file collected into one DataError.

Hexes are ints of the printed XXYY number (pbem.maps.hexes, grid "odd-q": column 01 at the
west edge, row 01 at the north edge); in the returned data the `hexes` table is keyed by
the printed label ("0906", JSON keys are strings) and every other hex is an int. Places
are referred to by name elsewhere (units.toml, the set-up tables): `hex_of` resolves a
name, another spelling the rulebook uses ("Dixemude") or "South Entry".

The helpers after the loader take the loaded map: terrain and cover (2.1), assault cover
across a river (2.1.4 C), movement cost (10.3), elevation (11.4), railroads (2.1.3, 7.3,
15.6.2.1), the Historic Trench Line (14.1), behind enemy lines (14.4), the map edges
(14.1 C) and the Allied start area south of the Somme (15.5.1). The geometry is a
`HexGrid` built once per map object (`grid`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, TypeVar

from pbem.games.datacheck import DataChecker, read_toml, shipped_file
from pbem.maps.hexes import AXIAL_STEPS, HexGrid, hex_id, label, split
from pbem.maps.regions import spread

PACKAGE = "pbem.games.race_to_the_sea"
MAP_FILE = "map.toml"
OFFSET = "odd-q"  # the shared convention of the Race to the Sea data (see module doc)

# --- What the rulebook fixes --------------------------------------------------------------------

SIDES = ("allies", "germans")
TERRAIN_CHARS = {
    ".": "clear",  # 2.1.1
    "f": "forest",  # 2.1.2
    "t": "town",  # 2.1.5
    "c": "city",  # 2.1.6
    "M": "major city",  # 2.1.7
    "~": "water",  # 2.1.8
    "X": "entrenchment",  # 2.1.9
}
SETTLEMENTS = ("town", "city", "major city")
PROHIBITED = ("water", "entrenchment")  # 10.3.2
ELEVATION_CHARS = {"L": "low", "E": "elevated", "H": "high"}  # 2.1.11
ELEVATIONS = ("low", "elevated", "high")  # 11.4 B: lowest first
COVERS = ("none", "light", "medium", "heavy")  # weakest first
# 2.1.1-2.1.7: forest and town Light, city Medium, major city Heavy. Water and entrenchment
# hexes are never fought in (10.3.2: no unit may enter them); "none" keeps the lookup total.
COVER = {
    "clear": "none",
    "forest": "light",
    "town": "light",
    "city": "medium",
    "major city": "heavy",
    "water": "none",
    "entrenchment": "none",
}
EDGE_OF = {"allies": "west", "germans": "east"}  # 14.1 C
GRID_EDGE = {"west": "first-column", "east": "last-column"}
ANTWERP_HEXES = 3  # 2.1.10
BEHIND_LINES_HEXES = 10  # 14.4
SOUTH_ENTRY = "South Entry"  # 15.5.2 C
SOMME = "Somme"  # 15.5.1

SECTIONS = (
    "map",
    "terrain",
    "elevation",
    "places",
    "railroads",
    "rivers",
    "trench_line",
    "entrenchments",
    "antwerp",
    "south_entry",
    "behind_enemy_lines",
    "edges",
)
HEX_TEXT = r"^[0-9]{4}\Z"  # (compiled by `re` when first used: only the data check)


# --- Loading -------------------------------------------------------------------------------------


def default_map() -> dict[str, Any]:
    """The shipped stand-in map, loaded."""
    return load_map(shipped_file(PACKAGE, MAP_FILE))


def load_map(data: bytes, file_name: str = MAP_FILE) -> dict[str, Any]:
    """Parse and check a map file; the result is plain JSON data (see the module doc)."""
    doc, check = read_toml(data, file_name, SECTIONS)
    size = _read_grid(check, doc)
    check.stop_if_any()
    assert size is not None
    columns, rows = size
    plain = HexGrid(range(1, columns + 1), range(1, rows + 1), offset=OFFSET)
    reader = _Reader(check, plain)

    terrain = reader.letters(doc, "terrain", TERRAIN_CHARS)
    elevation = reader.letters(doc, "elevation", ELEVATION_CHARS)
    check.stop_if_any()
    places, aliases, floodable = reader.places(doc, terrain)
    railroads = reader.railroads(doc, terrain)
    rivers = reader.rivers(doc)
    trench = reader.trench_line(doc, terrain)
    specials = reader.specials(doc, terrain)
    check.stop_if_any()

    rail_links = sorted({tuple(sorted(p)) for line in railroads for p in _links(line["hexes"])})
    on_rail = {h for link in rail_links for h in link}
    sides = _trench_sides(check, plain, terrain, trench, specials["entrenchments"])
    check.stop_if_any()
    _check_against_sides(check, plain, terrain, sides, specials, on_rail)
    check.stop_if_any()

    names = {h: name for name, h in places.items()}
    hexes: dict[str, Any] = {}
    for h in plain:
        info: dict[str, Any] = {
            "hex": h,
            "terrain": terrain[h],
            "elevation": elevation[h],
            "railroad": h in on_rail,
        }
        if h in names:
            info["name"] = names[h]
        if h in sides:
            info["side"] = sides[h]
        hexes[label(h)] = info
    result: dict[str, Any] = {
        "columns": columns,
        "rows": rows,
        "offset": OFFSET,
        "hexes": hexes,
        "places": places,
        "aliases": aliases,
        "floodable": floodable,
        "railroads": railroads,
        "rail_links": [list(link) for link in rail_links],
        "rivers": rivers,
        "trench_line": trench,
        **specials,
    }
    _check_somme(check, result)
    check.stop_if_any()
    return result


def _read_grid(check: DataChecker, doc: dict[str, Any]) -> tuple[int, int] | None:
    table = check.table(doc, "map")
    if table is None:
        return None
    check.fields(table, "map", ("columns", "rows", "offset", "provenance", "note"))
    columns = check.integer(table, "columns", "map", 2, 99)
    rows = check.integer(table, "rows", "map", 2, 99)
    offset = check.choice(table, "offset", "map", (OFFSET,))
    if columns is None or rows is None or offset is None:
        return None
    return columns, rows


def _links(hexes: list[int]) -> list[tuple[int, int]]:
    return list(zip(hexes, hexes[1:], strict=False))


class _Reader:
    """Reads the sections of one file into plain values, recording problems in `check`."""

    def __init__(self, check: DataChecker, plain: HexGrid) -> None:
        self.check = check
        self.grid = plain

    # --- small pieces

    def hex(self, value: Any, where: str) -> int | None:
        if not isinstance(value, str) or not re.match(HEX_TEXT, value):
            self.check.add(where, f'expected a hex such as "0906", found {value!r}')
            return None
        h = int(value)
        if h not in self.grid:
            self.check.add(where, f"hex {value} is not on the map")
            return None
        return h

    def pair(self, value: Any, where: str) -> tuple[int, int] | None:
        if not isinstance(value, list) or len(value) != 2:
            self.check.add(
                where, f'expected a pair of hexes such as ["0906", "1007"], found {value!r}'
            )
            return None
        a, b = self.hex(value[0], where), self.hex(value[1], where)
        if a is None or b is None:
            return None
        if not self.grid.adjacent(a, b):
            self.check.add(where, f"hexes {label(a)} and {label(b)} are not adjacent")
            return None
        return a, b

    # --- sections

    def letters(self, doc: dict[str, Any], key: str, legend: Mapping[str, str]) -> dict[int, str]:
        """A grid of one character per hex: `rows` strings, row 01 first."""
        out: dict[int, str] = {}
        table = self.check.head(doc, key, ("rows",))
        if table is None:
            return out
        lines = table.get("rows")
        n_rows, n_cols = len(self.grid.rows), len(self.grid.columns)
        if not isinstance(lines, list) or len(lines) != n_rows:
            self.check.add(f"{key}.rows", f"expected {n_rows} strings (one per row)")
            return out
        for r, line in enumerate(lines, start=1):
            where = f"{key} row {r:02d}"
            if not isinstance(line, str) or len(line) != n_cols:
                self.check.add(where, f"expected {n_cols} characters (one per column)")
                continue
            for c, char in enumerate(line, start=1):
                if char not in legend:
                    known = ", ".join(repr(k) for k in legend)
                    self.check.add(where, f"column {c:02d}: unknown {char!r} (known: {known})")
                    continue
                out[hex_id(c, r)] = legend[char]
        return out

    def places(
        self, doc: dict[str, Any], terrain: dict[int, str]
    ) -> tuple[dict[str, int], dict[str, str], list[int]]:
        places: dict[str, int] = {}
        aliases: dict[str, str] = {}
        floodable: list[int] = []
        taken: dict[int, str] = {}
        fields = ("name", "hex", "terrain", "aliases", "floodable", "provenance", "note")
        for item, where in self.check.items(doc, "places"):
            name = self.check.text(item, "name", where)
            where = f"places[{name}]" if name else where
            self.check.fields(item, where, fields)
            other = self.check.texts(item, "aliases", where) or []
            kind = self.check.choice(item, "terrain", where, ("clear", *SETTLEMENTS))
            flood = self.check.flag(item, "floodable", where)
            h = self.hex(item.get("hex"), f"{where}.hex")
            if name is None or h is None:
                continue
            for spelling in (name, *other):
                if spelling in places or spelling in aliases or spelling == SOUTH_ENTRY:
                    self.check.add(where, f"duplicate name {spelling!r}")
            if h in taken:
                self.check.add(where, f"hex {label(h)} is already {taken[h]}")
            if kind is not None and kind != terrain.get(h):
                self.check.add(
                    where, f"terrain {kind!r}, but the terrain grid shows {terrain.get(h)!r}"
                )
            taken[h] = name
            places.setdefault(name, h)
            for spelling in other:
                aliases.setdefault(spelling, name)
            if flood:
                floodable.append(h)
        for h in self.grid:
            if terrain.get(h) in SETTLEMENTS and h not in taken:
                self.check.add(
                    "terrain", f"the {terrain[h]} in hex {label(h)} has no [[places]] entry"
                )
        return places, aliases, sorted(floodable)

    def railroads(self, doc: dict[str, Any], terrain: dict[int, str]) -> list[dict[str, Any]]:
        out = []
        for item, where in self.check.items(doc, "railroads"):
            name = self.check.text(item, "name", where)
            where = f"railroads[{name}]" if name else where
            self.check.fields(item, where, ("name", "hexes", "provenance", "note"))
            raw = item.get("hexes")
            if not isinstance(raw, list) or len(raw) < 2:
                self.check.add(where, "hexes must list at least two hexes")
                continue
            hexes = [self.hex(v, f"{where}.hexes") for v in raw]
            if name is None or any(h is None for h in hexes):
                continue
            line = [h for h in hexes if h is not None]
            sound = True
            for a, b in _links(line):
                if not self.grid.adjacent(a, b):
                    self.check.add(where, f"hexes {label(a)} and {label(b)} are not adjacent")
                    sound = False
            for h in line:
                if terrain.get(h) in PROHIBITED:
                    self.check.add(where, f"hex {label(h)} is {terrain[h]}")
                    sound = False
            if sound:
                out.append({"name": name, "hexes": line})
        return out

    def rivers(self, doc: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        seen: dict[frozenset[int], str] = {}
        for item, where in self.check.items(doc, "rivers"):
            name = self.check.text(item, "name", where)
            where = f"rivers[{name}]" if name else where
            self.check.fields(item, where, ("name", "hexsides", "provenance", "note"))
            raw = item.get("hexsides")
            if not isinstance(raw, list) or not raw:
                self.check.add(where, "hexsides must list at least one pair of hexes")
                continue
            sides = []
            for value in raw:
                pair = self.pair(value, f"{where}.hexsides")
                if pair is None:
                    continue
                key = frozenset(pair)
                if key in seen:
                    self.check.add(
                        where, f"hexside {label(pair[0])}-{label(pair[1])} repeats {seen[key]}"
                    )
                    continue
                seen[key] = where
                sides.append(sorted(pair))
            if name is not None:
                out.append({"name": name, "hexsides": sorted(sides)})
        return out

    def trench_line(self, doc: dict[str, Any], terrain: dict[int, str]) -> list[list[int]]:
        table = self.check.head(doc, "trench_line", ("hexsides",))
        if table is None:
            return []
        raw = table.get("hexsides")
        if not isinstance(raw, list) or not raw:
            self.check.add("trench_line", "hexsides must list the [west, east] pairs")
            return []
        out: list[list[int]] = []
        seen: set[frozenset[int]] = set()
        for value in raw:
            pair = self.pair(value, "trench_line.hexsides")
            if pair is None:
                continue
            if frozenset(pair) in seen:
                self.check.add(
                    "trench_line", f"hexside {label(pair[0])}-{label(pair[1])} given twice"
                )
                continue
            seen.add(frozenset(pair))
            wet = [label(h) for h in pair if terrain.get(h) == "water"]
            if wet:
                self.check.add(
                    "trench_line", f"hexside {label(pair[0])}-{label(pair[1])} touches water"
                )
                continue
            out.append(list(pair))
        return out

    def specials(self, doc: dict[str, Any], terrain: dict[int, str]) -> dict[str, Any]:
        """The entrenchments, Antwerp's A hexes, the South Entry, behind enemy lines, edges."""
        check = self.check
        out: dict[str, Any] = {}

        table = self.check.head(doc, "entrenchments", SIDES)
        trenches: dict[str, int] = {}
        if table is not None:
            for side in SIDES:
                h = self.hex(table.get(side), f"entrenchments.{side}")
                if h is None:
                    continue
                if terrain.get(h) != "entrenchment":
                    check.add(
                        f"entrenchments.{side}", f"hex {label(h)} is not an entrenchment ('X')"
                    )
                if split(h)[1] != self.grid.rows[-1]:
                    check.add(
                        f"entrenchments.{side}",
                        f"hex {label(h)} is not on the south map edge (2.1.9)",
                    )
                trenches[side] = h
            if len(trenches) == 2 and split(trenches["allies"])[0] >= split(trenches["germans"])[0]:
                check.add("entrenchments", "the Allied hex must be west of the German one (2.1.9)")
        marked = sorted(h for h in self.grid if terrain.get(h) == "entrenchment")
        if len(marked) != 2:
            check.add(
                "terrain", f"expected exactly two entrenchment hexes (2.1.9), found {len(marked)}"
            )
        out["entrenchments"] = trenches

        table = self.check.head(doc, "antwerp", ("hexes",))
        antwerp: list[int] = []
        if table is not None:
            antwerp = self.hex_list(table.get("hexes"), "antwerp.hexes", ANTWERP_HEXES)
            for h in antwerp:
                if terrain.get(h) != "clear":
                    check.add("antwerp", f"hex {label(h)} is {terrain.get(h)}, not clear (2.1.10)")
        out["antwerp"] = antwerp

        table = self.check.head(doc, "south_entry", ("hex",))
        entry = self.hex(table.get("hex"), "south_entry.hex") if table is not None else None
        if entry is not None and terrain.get(entry) in PROHIBITED:
            check.add("south_entry", f"hex {label(entry)} is {terrain[entry]}")
        out["south_entry"] = entry

        table = self.check.head(doc, "behind_enemy_lines", SIDES)
        behind: dict[str, list[int]] = {}
        if table is not None:
            for side in SIDES:
                where = f"behind_enemy_lines.{side}"
                behind[side] = self.hex_list(table.get(side), where, BEHIND_LINES_HEXES)
                for h in behind[side]:
                    if terrain.get(h) in PROHIBITED:
                        check.add(where, f"hex {label(h)} is {terrain[h]}")
            both = set(behind["allies"]) & set(behind["germans"])
            if both:
                check.add("behind_enemy_lines", f"hexes on both lists: {_labels(both)}")
        out["behind_enemy_lines"] = behind

        table = self.check.head(doc, "edges", SIDES)
        if table is not None:
            for side in SIDES:
                check.exact(table.get(side), EDGE_OF[side], f"edges.{side}", "rulebook 14.1 C")
        out["edges"] = dict(EDGE_OF)
        return out

    def hex_list(self, value: Any, where: str, count: int) -> list[int]:
        if not isinstance(value, list):
            self.check.add(where, f"expected a list of {count} hexes, found {value!r}")
            return []
        hexes = [self.hex(v, where) for v in value]
        found = sorted({h for h in hexes if h is not None})
        if None in hexes:
            return found  # reported by hex()
        if len(value) != count or len(found) != count:
            self.check.add(where, f"expected {count} different hexes, found {len(found)}")
        return found


def _labels(hexes: Iterable[int]) -> str:
    return ", ".join(label(h) for h in sorted(hexes))


def _trench_sides(
    check: DataChecker,
    plain: HexGrid,
    terrain: dict[int, str],
    trench: list[list[int]],
    trenches: dict[str, int],
) -> dict[int, str]:
    """Each land hex's side of the Historic Trench Line (14.1 A): the line must cut the
    land in two, the Allied entrenchment and the west edge on the west side, the German
    entrenchment and the east edge on the east, each pair given [west, east]."""
    cut = {frozenset(p) for p in trench}
    land = {h for h in plain if terrain[h] != "water"}
    parts: list[set[int]] = []
    for h in sorted(land):
        if not any(h in part for part in parts):
            parts.append(plain.region([h], land, lambda a, b: frozenset((a, b)) not in cut))
    if len(parts) != 2:
        check.add("trench_line", f"must cut the land in two, found {len(parts)} part(s)")
        return {}
    if len(trenches) != 2:
        return {}
    west = next((p for p in parts if trenches["allies"] in p), None)
    east = next((p for p in parts if trenches["germans"] in p), None)
    if west is None or east is None or west is east:
        check.add(
            "trench_line", "must separate the Allied entrenchment (west) from the German one (east)"
        )
        return {}
    for edge, part, name in (("first-column", west, "west"), ("last-column", east, "east")):
        wrong = [h for h in plain.edge_hexes(edge) if h in land and h not in part]
        if wrong:
            check.add("trench_line", f"{name} edge hexes on the wrong side: {_labels(wrong)}")
    for w, e in trench:
        if w not in west or e not in east:
            check.add("trench_line", f"pair {label(w)}-{label(e)} must be given [west, east]")
    return {**{h: "west" for h in west}, **{h: "east" for h in east}}


def _check_against_sides(
    check: DataChecker,
    plain: HexGrid,
    terrain: dict[int, str],
    sides: dict[int, str],
    specials: dict[str, Any],
    on_rail: set[int],
) -> None:
    # 14.4: the Allies capture hexes behind the German entrenchment (east of the line)
    wanted = {"allies": "east", "germans": "west"}
    for side, hexes in specials["behind_enemy_lines"].items():
        wrong = [h for h in hexes if sides.get(h) != wanted[side]]
        if wrong:
            check.add(
                f"behind_enemy_lines.{side}",
                f"hexes not {wanted[side]} of the trench line: {_labels(wrong)}",
            )
    entry = specials["south_entry"]
    if entry is not None:
        if entry not in on_rail:
            check.add("south_entry", f"hex {label(entry)} is not a railroad hex (15.5.2 C)")
        if sides.get(entry) != "west":
            check.add("south_entry", f"hex {label(entry)} is not west of the trench line")
        if not plain.edges(entry) & {"first-column", "last-row"}:
            check.add("south_entry", f"hex {label(entry)} is not on the south or west map edge")


def _check_somme(check: DataChecker, data: dict[str, Any]) -> None:
    """15.5.1 places French units "south of the Somme River and west of the Historic
    Western Front Line": the Somme must cut that side of the line in two."""
    if not any(r["name"] == SOMME for r in data["rivers"]):
        check.add("rivers", f"no river named {SOMME!r} (15.5.1)")
        return
    west = [h for h in grid(data) if side_of_trench_line(data, h) == "west"]
    area = allied_start_area(data)
    if not area or len(area) == len(west):
        check.add("rivers", "the Somme must divide the land west of the trench line (15.5.1)")


# --- The board's geometry ------------------------------------------------------------------------

# Grids of the maps in use, by the identity of the map data (never changed once loaded);
# the data object is kept to make sure an id is not reused by another object.
_GRIDS: dict[int, tuple[Mapping[str, Any], HexGrid]] = {}
_GRIDS_KEPT = 8
RIVER, TRENCH, RAIL = "river", "trench-line", "railroad"
Kept = TypeVar("Kept")  # (what a per-map memo holds)


def _kept(
    memos: dict[int, tuple[Mapping[str, Any], Kept]], data: Mapping[str, Any], value: Kept
) -> tuple[Mapping[str, Any], Kept]:
    """(data, value), kept as what `memos` holds for the map `data` (by the identity of its
    loaded data, kept with it to make sure an id is not reused), `memos` holding those of
    `_GRIDS_KEPT` maps at the most. (Each memo's reader looks it up in line, a call saved
    on every hit; only a miss comes here.)"""
    if len(memos) >= _GRIDS_KEPT:
        memos.clear()
    kept = memos[id(data)] = (data, value)
    return kept


def grid(data: Mapping[str, Any]) -> HexGrid:
    """The HexGrid of a loaded map: terrain on hexes, "river", "trench-line" and "railroad"
    on hexsides; built once per map object."""
    cached = _GRIDS.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    built = HexGrid(
        range(1, data["columns"] + 1),
        range(1, data["rows"] + 1),
        offset=data["offset"],
        hexsides=_features(data),
        terrain={info["hex"]: info["terrain"] for info in data["hexes"].values()},
    )
    _kept(_GRIDS, data, built)
    return built


def map_hexes(data: Mapping[str, Any]) -> tuple[int, ...]:
    """`grid(data).hexes` (every column and row: the map has no absent hexes), in map
    order, without building the grid (the outcome of a `pbem show` needs no more)."""
    return tuple(_light(data)[0])


def neighbour_table(data: Mapping[str, Any]) -> Mapping[int, tuple[int, ...]]:
    """Each hex's neighbours, `grid(data).neighbours(h)` for every hex of the map, worked
    out as HexGrid does without building one (its checks and features are a twentieth of
    a cold `pbem show`), by map as `_GRIDS`; tests/games/race_to_the_sea holds the two
    equal for every offset convention."""
    return _light(data)[1]


def _light(data: Mapping[str, Any]) -> tuple[dict[int, None], dict[int, tuple[int, ...]]]:
    cached = _NEIGHBOURS.get(id(data))
    if cached is None or cached[0] is not data:
        built = _GRIDS.get(id(data))
        if built is not None and built[0] is data:  # (a grid already built: read from it)
            board = built[1]
            made = dict.fromkeys(board.hexes), {h: board.neighbours(h) for h in board}
        else:
            made = grid_neighbours(data["columns"], data["rows"], data["offset"])
        cached = _kept(_NEIGHBOURS, data, made)
    return cached[1]


def grid_neighbours(
    columns: int, rows: int, offset: str
) -> tuple[dict[int, None], dict[int, tuple[int, ...]]]:
    """(the hexes, each hex's neighbours) of `HexGrid(range(1, columns + 1), range(1, rows
    + 1), offset=offset)` (two digits each), by its arithmetic, inlined: `axial`, then
    `_offset` and `hex_id` of each step of `AXIAL_STEPS`, kept when on the grid."""
    flat, shift = offset.endswith("-q"), offset.startswith("odd")

    def half(n: int) -> int:
        return (n - (n & 1)) // 2 if shift else (n + (n & 1)) // 2

    # A step of AXIAL_STEPS moves the column and row by amounts that depend only on the
    # parity of the column (flat) or row (pointy), since half(n + 2) == half(n) + 1: the
    # six (column, row) steps of each parity, worked out once from a hex of that parity.
    steps = {}
    for parity in (0, 1):
        col = row = 2 + parity
        q, r = (col, row - half(col)) if flat else (col - half(row), row)
        moves = []
        for dq, dr in AXIAL_STEPS:
            nq, nr = q + dq, r + dr
            c, w = (nq, nr + half(nq)) if flat else (nq + half(nr), nr)
            moves.append((c - col, w - row))
        steps[parity] = moves
    hexes = dict.fromkeys(c * 100 + r for c in range(1, columns + 1) for r in range(1, rows + 1))
    table: dict[int, tuple[int, ...]] = {}
    if columns < 99 and rows < 99:
        # Each step as a change of id (column * 100 + row): a neighbour off the grid is
        # then an id of no hex (row 0, column 0, or one past the last row or column, none
        # of them on the grid nor another hex's id), so `in hexes` is the whole check.
        shifts = {p: tuple(dc * 100 + dw for dc, dw in steps[p]) for p in (0, 1)}
        if flat:
            for h in hexes:
                table[h] = tuple([n for d in shifts[(h // 100) & 1] if (n := h + d) in hexes])
        else:
            for h in hexes:
                table[h] = tuple([n for d in shifts[h & 1] if (n := h + d) in hexes])
        return hexes, table
    for h in hexes:
        col, row = divmod(h, 100)
        out = []
        for dc, dw in steps[(col if flat else row) & 1]:
            c, w = col + dc, row + dw
            if 0 <= c < 100 and 0 <= w < 100 and c * 100 + w in hexes:
                out.append(c * 100 + w)
        table[h] = tuple(out)
    return hexes, table


_NEIGHBOURS: dict[
    int, tuple[Mapping[str, Any], tuple[dict[int, None], dict[int, tuple[int, ...]]]]
] = {}


def axial_table(data: Mapping[str, Any]) -> Mapping[int, tuple[int, int]]:
    """Each hex's axial coordinates, `grid(data).axial(h)` for every hex of the map, by
    HexGrid's arithmetic (as `grid_neighbours`) without building a grid, by map as
    `_GRIDS` (a distance is the cube distance of two of these: 7.1.B's closest hex, the
    fog of war's closest enemy); tests/games/race_to_the_sea hold it to the grid's."""
    cached = _AXIALS.get(id(data))
    if cached is None or cached[0] is not data:
        flat, shift = data["offset"].endswith("-q"), data["offset"].startswith("odd")
        table = {}
        for h in map_hexes(data):
            col, row = divmod(h, 100)
            n = col if flat else row
            half = (n - (n & 1)) // 2 if shift else (n + (n & 1)) // 2
            table[h] = (col, row - half) if flat else (col - half, row)
        cached = _kept(_AXIALS, data, table)
    return cached[1]


_AXIALS: dict[int, tuple[Mapping[str, Any], dict[int, tuple[int, int]]]] = {}


def distance(data: Mapping[str, Any], a: int, b: int) -> int:
    """`grid(data).distance(a, b)`, from `axial_table` (a hex off the map by the grid)."""
    where = axial_table(data)
    qa, ra = where.get(a) or grid(data).axial(a)
    qb, rb = where.get(b) or grid(data).axial(b)
    dq, dr = qa - qb, ra - rb
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# The hexes of the maps in use by int id, as `_GRIDS` (self-play looks a hex up some 600,000
# times a game: formatting its label each time was a tenth of the time, bench/selfplay.py).
_INFOS: dict[int, tuple[Mapping[str, Any], dict[int, dict[str, Any]]]] = {}


def _index(data: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """The map's hexes by int id (those whose key is the printed label)."""
    cached = _INFOS.get(id(data))
    if cached is None or cached[0] is not data:
        hexes = data["hexes"]
        index = {  # (`_is_label(k)`, inlined: a cold show makes this for 360 hexes)
            int(k): v
            for k, v in hexes.items()
            if k.isascii() and k.isdigit() and (len(k) == 4 or (len(k) > 4 and k[0] != "0"))
        }
        cached = _kept(_INFOS, data, index)
    return cached[1]


def hex_ids(data: Mapping[str, Any]) -> frozenset[int]:
    """`{int(info["hex"]) for info in data["hexes"].values()}`, by map as `_GRIDS` (a
    Planned Operations deployment asks whether its one hex is among them)."""
    cached = _HEX_IDS.get(id(data))
    if cached is None or cached[0] is not data:
        made = frozenset(int(info["hex"]) for info in data["hexes"].values())
        cached = _kept(_HEX_IDS, data, made)
    return cached[1]


_HEX_IDS: dict[int, tuple[Mapping[str, Any], frozenset[int]]] = {}


def hex_records(data: Mapping[str, Any]) -> Mapping[int, Mapping[str, Any]]:
    """The map's record of each hex by int id (`_info`'s, for a table made once per map
    that reads every hex: never changed)."""
    return _index(data)


def _info(data: Mapping[str, Any], hex_: int) -> dict[str, Any]:
    info = _index(data).get(hex_) if isinstance(hex_, int) and hex_ >= 0 else None
    if info is None:
        raise KeyError(f"hex {hex_} is not on the map")
    return info


def _is_label(key: str) -> bool:
    """`key.isdigit() and label(int(key)) == key`, without formatting a label for each of
    the map's hexes (a tenth of the outcome of a cold `pbem show`): ASCII digits, four
    (zero-padded), or more without a leading zero (tests/games/race_to_the_sea)."""
    if not (key.isascii() and key.isdigit()):
        return False
    return len(key) == 4 or (len(key) > 4 and key[0] != "0")


def _neighbours(data: Mapping[str, Any], a: int, b: int) -> Mapping[frozenset[int], frozenset[str]]:
    """The features of the map's hexsides (`hexside_features`), once `a` and `b` are known
    to be neighbouring hexes of the map (KeyError, ValueError): what `grid(data)` would
    check and answer (`grid(data).has(a, b, feature)` is `feature in found.get(...)`)
    without building a grid in every verification."""
    _info(data, a), _info(data, b)
    if b not in neighbour_table(data)[a]:
        raise ValueError(f"hexes {label(a)} and {label(b)} are not adjacent")
    return hexside_features(data)


_NOTHING: frozenset[str] = frozenset()


class Adjacency:
    """What movement asks of `grid(data)` (a hex on the map, its neighbours, two hexes
    adjacent), the same answers and refusals, from the map's neighbour table (no grid
    built for a verification); `adjacency(data)` gives the one of a map."""

    def __init__(self, around: Mapping[int, tuple[int, ...]]) -> None:
        self.around = around

    def __contains__(self, hex_: object) -> bool:
        return hex_ in self.around

    def neighbours(self, hex_: int) -> tuple[int, ...]:
        found = self.around.get(hex_)
        if found is None:
            raise KeyError(f"hex {hex_} is not on the map")  # (HexGrid's refusal)
        return found

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours(a)


def adjacency(data: Mapping[str, Any]) -> Adjacency:
    """The map's `Adjacency`, by map as `_GRIDS`."""
    cached = _ADJACENCY.get(id(data))
    if cached is None or cached[0] is not data:
        cached = _kept(_ADJACENCY, data, Adjacency(neighbour_table(data)))
    return cached[1]


_ADJACENCY: dict[int, tuple[Mapping[str, Any], Adjacency]] = {}


def _has(data: Mapping[str, Any], a: int, b: int, feature: str) -> bool:
    """`grid(data).has(a, b, feature)`, as `_neighbours` says."""
    return feature in _neighbours(data, a, b).get(frozenset((a, b)), _NOTHING)


def hexside_features(data: Mapping[str, Any]) -> Mapping[frozenset[int], frozenset[str]]:
    """The features of each hexside that has any ("river", "trench-line", "railroad"), as
    `grid` gives them to its HexGrid (which refuses a pair of hexes that are not
    neighbours: a loaded map has been through it, its data check builds one), by map as
    `_GRIDS`."""
    cached = _FEATURES.get(id(data))
    if cached is None or cached[0] is not data:
        cached = _kept(_FEATURES, data, _features(data))
    return cached[1]


def _features(data: Mapping[str, Any]) -> dict[frozenset[int], frozenset[str]]:
    features: dict[frozenset[int], set[str]] = {}
    for river in data["rivers"]:
        for a, b in river["hexsides"]:
            features.setdefault(frozenset((a, b)), set()).add(RIVER)
    for a, b in data["trench_line"]:
        features.setdefault(frozenset((a, b)), set()).add(TRENCH)
    for a, b in data["rail_links"]:
        features.setdefault(frozenset((a, b)), set()).add(RAIL)
    return {pair: frozenset(names) for pair, names in features.items() if names}


_FEATURES: dict[int, tuple[Mapping[str, Any], dict[frozenset[int], frozenset[str]]]] = {}


def hex_of(data: Mapping[str, Any], name: str) -> int:
    """The hex of a named place, another spelling of it, or "South Entry" (15.5.2 C)."""
    if name == SOUTH_ENTRY:
        return int(data["south_entry"])
    name = data["aliases"].get(name, name)
    if name not in data["places"]:
        raise KeyError(f"no place named {name!r} on the map")
    return int(data["places"][name])


def name_of(data: Mapping[str, Any], hex_: int) -> str | None:
    """The name of the place in `hex_`, if any."""
    name = _info(data, hex_).get("name")
    return str(name) if name is not None else None


def terrain(data: Mapping[str, Any], hex_: int) -> str:
    """The hex's terrain (2.1): clear, forest, town, city, major city, water, entrenchment.
    Read from a table of the map's terrains (a bot's turn asks some 40,000 hexes' terrain),
    else from `_info`, which refuses a hex off the map."""
    found = _terrains(data).get(hex_) if type(hex_) is int else None
    return found if found is not None else str(_info(data, hex_)["terrain"])


def terrain_table(data: Mapping[str, Any]) -> Mapping[int, str]:
    """Each hex's terrain by int id (`terrain`'s table: a hex it lacks, `terrain` asks
    `_info`, which refuses a hex off the map), by map as `_INFOS`."""
    return _terrains(data)


def _terrains(data: Mapping[str, Any]) -> dict[int, str]:
    """Each hex's terrain (`_info`'s), by map as `_INFOS`."""
    cached = _TERRAINS.get(id(data))
    if cached is None or cached[0] is not data:
        table = {h: str(info["terrain"]) for h, info in _index(data).items()}
        cached = _kept(_TERRAINS, data, table)
    return cached[1]


_TERRAINS: dict[int, tuple[Mapping[str, Any], dict[int, str]]] = {}


def cover(data: Mapping[str, Any], hex_: int) -> str:
    """The Cover Class of a hex (2.1.2, 2.1.5-2.1.7): "none", "light", "medium", "heavy"."""
    return COVER[terrain(data, hex_)]


def _memo(
    memos: dict[int, tuple[Mapping[str, Any], dict[tuple[int, int], Any]]], data: Mapping[str, Any]
) -> dict[tuple[int, int], Any]:
    """The memo of one map (by the identity of its loaded data, kept to make sure an id is
    not reused) among `memos`, which keeps those of `_GRIDS_KEPT` maps at the most."""
    cached = memos.get(id(data))
    if cached is None or cached[0] is not data:
        cached = _kept(memos, data, {})
    return cached[1]


def is_river(data: Mapping[str, Any], a: int, b: int) -> bool:
    """Whether a river runs along the hexside between the neighbours `a` and `b` (2.1.4)."""
    rivers = _memo(_RIVERS, data)
    if (a, b) not in rivers:
        rivers[(a, b)] = _has(data, a, b, RIVER)  # raises if not neighbours
    return rivers[(a, b)]


# is_river by map, as `_GRIDS`, and pair of neighbours (bench/selfplay.py: forced marches).
_RIVERS: dict[int, tuple[Mapping[str, Any], dict[tuple[int, int], bool]]] = {}


def assault_cover(data: Mapping[str, Any], from_hex: int, to_hex: int) -> str:
    """The Cover Class of `to_hex` against an Assault Combat from its neighbour `from_hex`:
    one level more across a river hexside (2.1.4 C); Heavy is the highest class, so a river
    leaves a major city at Heavy. Firepower Combat ignores the river (2.1.4 C example): use
    `cover` there."""
    return raised_by_river(cover(data, to_hex), is_river(data, from_hex, to_hex))


def raised_by_river(cover_class: str, across_river: bool) -> str:
    """2.1.4.C: a river hexside raises the cover class against an assault by one level;
    nothing is above Heavy."""
    if not across_river:
        return cover_class
    return COVERS[min(COVERS.index(cover_class) + 1, len(COVERS) - 1)]


def move_cost(data: Mapping[str, Any], a: int, b: int, flooded: Collection[int] = ()) -> int | None:
    """Hexes of movement allowance to move from `a` into its neighbour `b` (10.3): 1, or 2
    into a forest or across a river, both together still 2 (10.3.1 C); None where `b` is
    prohibited: water, entrenchment, a flooded hex (10.3.2, 2.1.8 B)."""
    costs = _memo(_COSTS, data)
    if (a, b) not in costs:
        costs[(a, b)] = _move_cost(data, a, b)  # raises for hexes that are not neighbours
    return None if b in flooded else costs[(a, b)]


# move_cost by map, as `_GRIDS`, and pair of neighbours, flooding aside (70,000 calls a
# self-play game, bench/selfplay.py).
_COSTS: dict[int, tuple[Mapping[str, Any], dict[tuple[int, int], int | None]]] = {}


def move_costs(data: Mapping[str, Any]) -> Mapping[tuple[int, int], int | None]:
    """The memo of `move_cost` of one map, flooding aside: (a, b) -> the cost, for the
    pairs asked so far (a caller that asks many pairs looks there first, then asks
    `move_cost`, which fills it in)."""
    return _memo(_COSTS, data)


def _move_cost(data: Mapping[str, Any], a: int, b: int) -> int | None:
    sides = _neighbours(data, a, b)
    found = terrain(data, b)  # (read once)
    if found in PROHIBITED:
        return None
    if found == "forest" or RIVER in sides.get(frozenset((a, b)), _NOTHING):
        return 2
    return 1


def path_cost(
    data: Mapping[str, Any], path: Iterable[int], flooded: Collection[int] = ()
) -> int | None:
    """The movement cost of a path of adjacent hexes (the first is where the unit starts);
    None if a step is prohibited."""
    hexes = list(path)
    total = 0
    for a, b in _links(hexes):
        cost = move_cost(data, a, b, flooded)
        if cost is None:
            return None
        total += cost
    return total


def elevation(data: Mapping[str, Any], hex_: int) -> str:
    """ "low", "elevated" or "high" (2.1.11)."""
    return str(_info(data, hex_)["elevation"])


def elevation_rank(data: Mapping[str, Any], hex_: int) -> int:
    """0 for Low, 1 for Elevated, 2 for High (11.4 B)."""
    return ELEVATIONS.index(elevation(data, hex_))


def higher(data: Mapping[str, Any], a: int, b: int) -> bool:
    """Whether a unit in `a` is at a Higher Elevation than one in `b` (11.4 A)."""
    return elevation_rank(data, a) > elevation_rank(data, b)


# --- Railroads -----------------------------------------------------------------------------------


def higher_side(data: Mapping[str, Any], attacker_hex: int, defender_hex: int) -> str | None:
    """11.4.A: "attacker" or "defender", whose hex is the higher, or None when level."""
    ea, ed = elevation_rank(data, attacker_hex), elevation_rank(data, defender_hex)
    return "attacker" if ea > ed else "defender" if ed > ea else None


def is_railroad(data: Mapping[str, Any], hex_: int) -> bool:
    """Whether the hex holds a railroad track (2.1.3 A)."""
    return bool(_info(data, hex_)["railroad"])


def rail_linked(data: Mapping[str, Any], a: int, b: int) -> bool:
    """Whether a railroad joins the neighbours `a` and `b` directly: two railroad hexes side
    by side are connected only if the graphics connect (2.1.3 A)."""
    return _has(data, a, b, RAIL)


def rail_reachable(
    data: Mapping[str, Any], start: int, through: Callable[[int], bool] | None = None
) -> set[int]:
    """The railroad hexes reachable from `start` along connected track, only through hexes
    `through` accepts (friendly-controlled, not enemy NML: 7.3, 15.6.2.1 A); empty if
    `start` is no railroad hex or is not accepted."""
    if not is_railroad(data, start):
        return set()
    tracks = _rail_tracks(data)
    reached = {start} if through is None or through(start) else set()
    todo = list(reached)
    while todo:
        here = todo.pop()
        for there in tracks[here]:
            if there not in reached and (through is None or through(there)):
                reached.add(there)
                todo.append(there)
    return reached


# Each railroad hex's track links to railroad hexes (rail hexsides, 2.1.3 A), by map as
# `_GRIDS`: `rail_reachable` runs a thousand times a self-play game (bench/selfplay.py).
_TRACKS: dict[int, tuple[Mapping[str, Any], dict[int, tuple[int, ...]]]] = {}


def _rail_tracks(data: Mapping[str, Any]) -> dict[int, tuple[int, ...]]:
    cached = _TRACKS.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    around, sides = neighbour_table(data), hexside_features(data)  # (`grid(data)`'s)
    rails = {h for h in map_hexes(data) if is_railroad(data, h)}
    tracks = {
        h: tuple(
            n for n in around[h] if n in rails and RAIL in sides.get(frozenset((h, n)), _NOTHING)
        )
        for h in rails
    }
    _kept(_TRACKS, data, tracks)
    return tracks


def rail_connected(
    data: Mapping[str, Any], a: int, b: int, through: Callable[[int], bool] | None = None
) -> bool:
    """Whether connected railroad hexes join `a` and `b` (15.6.2.1 A: Cambrai and
    Valenciennes back to Mons), only through hexes `through` accepts."""
    return b in rail_reachable(data, a, through)


def rail_components(data: Mapping[str, Any]) -> list[list[int]]:
    """The separate railroad networks, each in map order."""
    board = grid(data)
    left = sorted(info["hex"] for info in data["hexes"].values() if info["railroad"])
    out: list[list[int]] = []
    seen: set[int] = set()
    for h in left:
        if h not in seen:
            group = rail_reachable(data, h)
            seen |= group
            out.append([x for x in board if x in group])
    return out


# --- Sides, victory hexes and edges --------------------------------------------------------------


def side_of_trench_line(data: Mapping[str, Any], hex_: int) -> str | None:
    """ "west" or "east" of the Historic Trench Line (14.1 A); None for water hexes."""
    side = _info(data, hex_).get("side")
    return str(side) if side is not None else None


def is_behind_enemy_lines(data: Mapping[str, Any], hex_: int, side: str) -> bool:
    """Whether `hex_` is one of the ten hexes behind the enemy entrenchment that `side`
    ("allies" or "germans") scores 2 VP for (14.4)."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r} (expected allies or germans)")
    _info(data, hex_)
    return hex_ in data["behind_enemy_lines"][side]


def edge_hexes(data: Mapping[str, Any], side: str) -> list[int]:
    """The hexes of `side`'s own map edge that a strategic LOC may end in (14.1 C: the
    Allies the west edge, the Germans the east edge), in map order: prohibited hexes left
    out, since no one controls them."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r} (expected allies or germans)")
    board = grid(data)
    edge = GRID_EDGE[data["edges"][side]]
    return [h for h in board.edge_hexes(edge) if terrain(data, h) not in PROHIBITED]


def own_edge_hexes(data: Mapping[str, Any], side: str) -> tuple[int, ...]:
    """`edge_hexes`, made once per map (as `_GRIDS`) and side: the outcome of a game asks
    them, and finding a grid's edges looks at each of its hexes."""
    cached = _EDGES.get(id(data))
    if cached is None or cached[0] is not data:
        cached = _kept(_EDGES, data, {})
    found = cached[1].get(side)
    if found is None:
        found = cached[1][side] = _edge_hexes(data, side)
    return found


def _edge_hexes(data: Mapping[str, Any], side: str) -> tuple[int, ...]:
    """`edge_hexes`, each hex's column and row read once, not the four edges of each hex
    (`HexGrid.edges`) for each side (tests/games/race_to_the_sea/test_rts_fast_paths.py)."""
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r} (expected allies or germans)")
    edge = GRID_EDGE[data["edges"][side]]
    where = {
        "first-column": (0, 1),
        "last-column": (0, data["columns"]),
        "first-row": (1, 1),
        "last-row": (1, data["rows"]),
    }
    if edge not in where:
        return tuple(edge_hexes(data, side))  # (refused there as HexGrid refuses it)
    axis, line = where[edge]
    columns, rows = data["columns"], data["rows"]
    if columns < 100 and rows < 100:  # (every column and row is on the map: their ids)
        ids = (
            [line * 100 + r for r in range(1, rows + 1)]
            if axis == 0
            else [c * 100 + line for c in range(1, columns + 1)]
        )
        return tuple(h for h in ids if terrain(data, h) not in PROHIBITED)
    return tuple(
        h
        for h in map_hexes(data)
        if divmod(h, 100)[axis] == line and terrain(data, h) not in PROHIBITED
    )


_EDGES: dict[int, tuple[Mapping[str, Any], dict[str, tuple[int, ...]]]] = {}


def allied_start_area(data: Mapping[str, Any]) -> list[int]:
    """The hexes "south of the Somme River and west of the Historic Western Front Line"
    (15.5.1), in map order: the land west of the line reachable from the south map edge
    without crossing the Somme; prohibited hexes left out."""
    cached = _START_AREAS.get(id(data))
    if cached is None or cached[0] is not data:
        cached = _kept(_START_AREAS, data, _allied_start_area(data))
    return list(cached[1])


# allied_start_area by map, as `_GRIDS` (each Allied placement asks it, bench/selfplay.py).
_START_AREAS: dict[int, tuple[Mapping[str, Any], list[int]]] = {}


def _allied_start_area(data: Mapping[str, Any]) -> list[int]:
    """`strict_allied_start_area`, searched over the map's neighbour table (a verification
    asks it of a fresh map, and a grid is built to be searched in; tests hold the two equal)."""
    somme = {frozenset(p) for r in data["rivers"] if r["name"] == SOMME for p in r["hexsides"]}
    records = _index(data)

    def inside(h: int) -> bool:
        info = records[h]  # (`side_of_trench_line` and `terrain`, read from the record)
        return info.get("side") == "west" and info["terrain"] not in PROHIBITED

    hexes = map_hexes(data)
    rows = data["rows"]  # (the grid's last row: `edge_hexes("last-row")`)
    south = {h for h in hexes if h % 100 == rows and inside(h)}
    found = spread(
        south, neighbour_table(data), inside, lambda a, b: frozenset((a, b)) not in somme
    )
    return [h for h in hexes if h in found]


def strict_allied_start_area(data: Mapping[str, Any]) -> list[int]:
    """What `allied_start_area` must equal: a region of the grid, as 15.5.1 reads."""
    board = grid(data)
    somme = {frozenset(p) for r in data["rivers"] if r["name"] == SOMME for p in r["hexsides"]}

    def inside(h: int) -> bool:
        return side_of_trench_line(data, h) == "west" and terrain(data, h) not in PROHIBITED

    south = [h for h in board.edge_hexes("last-row") if inside(h)]
    found = board.region(south, inside, lambda a, b: frozenset((a, b)) not in somme)
    return [h for h in board if h in found]
