"""Götterdämmerung: reading and checking the two maps (`data/map.toml`), and the board
questions the rules ask of them.

The rulebook prints no map, so the shipped `map.toml` is a stand-in except the facts the
rulebook states (each item carries a `provenance`); a player who owns the printed map can
load their own file. `load_map` parses TOML bytes and returns plain JSON data, every
problem of the file collected into one DataError.

Two maps (2.1): the Operational Map and the Berlin City Map, printed in its north-west
corner. Both are numbered XXYY on "even-q" grids (4.25 fixes it: an even XX touches XX+-1
at YY and YY+1, an odd XX at YY-1 and YY). Their numbers are separate series, so every hex
id here carries its map: "op:2419", "city:1320". A Transition Hex is on both maps (4.15):
its id is "op:2420", and on the City Map it is drawn as a face of several City-grid cells,
so the City hexes it touches are those next to its face (4.25: 2420 touches 1019, 1119,
1219, 1320 and 1420). Hexes 2321 and 2322 are printed but not used (2.1): they have no
neighbours here; the engine places a unit entering them on the City Map.

The helpers after the loader take the loaded map: kind and terrain of a hex, the features
of a hexside, neighbours on each map, places by name, entry hexes, deployment areas, map
edges and the start line. `grids` gives the `HexGrid`s, built once per map object, for the
distance, ZOC and supply helpers of pbem.maps.hexes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from pbem.games.datacheck import DataChecker, read_toml, shipped_file
from pbem.maps.hexes import HexGrid, hex_id, label, split

PACKAGE = "pbem.games.gotterdammerung"
MAP_FILE = "map.toml"
OFFSET = "even-q"  # 4.25, 6.45 (see the module doc)

OP, CITY = "op", "city"
MAPS = (OP, CITY)
OPERATIONAL, TRANSITION, CITY_HEX, UNUSED = "operational", "transition", "city", "unused"

# Terrain characters (the names are those of tables.py's Terrain Effects Chart).
OP_TERRAIN = {
    ".": "clear",
    "f": "forest",
    "m": "marsh",
    "h": "mountain",
    "C": "major-city",
    "c": "small-city",
    "b": "built-up",
}
CITY_TERRAIN = {".": "clear", "f": "forest", "b": "built-up"}
NO_HEX = " "
FEATURES = {
    OP: ("minor-river", "river", "major-river", "sea-lake", "elbe", "front-boundary"),
    CITY: ("minor-river", "river", "sea-lake", "spree", "spree-bridge"),
}
FRONTS = ("1bf", "2bf", "1uf")
RIVERS = ("major-river", "river", "minor-river")  # strongest first
ENTRY_CODES = ("N", "NE", "E", "SE", "S", "SW", "W")  # 9.16, 9.21, 9.22, 9.34, 9.5, 9.71
DEPLOYMENT_AREAS = ("A", "B", "C", "D", "E", "F", "G", "H", "J")  # 10.22: A to J, no I
TRANSITION_COUNT = 8  # 5.33, 5.68
UNUSED_HEXES = (2321, 2322)  # 2.1
RED_ARROWS = (316, 516, 616, 1518)  # 5.26
ROAD_EXITS = (516, 616, 1518)  # 5.26
NGP_SPACES = 8  # 9.23
# 11.13, and the other hexes the rulebook names: name -> (map, hex, VP).
RULEBOOK_PLACES = {
    "Reichstag": (CITY, 626, 25),
    "Potsdam": (OP, 2726, 15),
    "Reich Chancellery": (CITY, 825, 5),
    "Brandenburg Gate": (CITY, 726, 5),
    "Zoo": (CITY, 829, 5),
    "Stettin": (OP, 407, 5),
    "Frankfurt an der Oder": (OP, 2908, 10),
    "Zossen": (OP, 3220, 10),
    "Beelitz": (OP, 2928, 10),
    "Vrietzen": (OP, 1812, 5),
    "Seelow": (OP, 2310, 5),
    "Cottbus": (OP, 4110, 5),
    "Jüterbog": (OP, 3625, 0),  # 8.32
    "Spandau": (OP, 2324, 0),  # 8.33
}
EDGES = ("north", "east", "south", "west")

SECTIONS = (
    "map",
    "operational",
    "city",
    "transition",
    "unused",
    "fortifications",
    "places",
    "hexsides",
    "roads",
    "railroads",
    "ubahn",
    "ngp_box",
    "entry",
    "deployment",
    "start_line",
)
HEX_TEXT = re.compile(r"^[0-9]{4}\Z")
SIDE_TEXT = re.compile(r"^([0-9]{4})-([0-9]{4})\Z")
REF = re.compile(r"^(?:(op|city):)?([0-9]{4})\Z")


def ref(map_name: str, number: int) -> str:
    """The id of hex `number` on map `map_name`: ref("op", 2419) == "op:2419"."""
    return f"{map_name}:{label(number)}"


def side_key(a: str, b: str) -> str:
    """The key of the hexside between two hex ids in `hexsides`: "op:1611|op:1712"."""
    return "|".join(sorted((a, b)))


# --- Loading -------------------------------------------------------------------------------------


def default_map() -> dict[str, Any]:
    """The shipped stand-in map, loaded."""
    return load_map(shipped_file(PACKAGE, MAP_FILE))


def load_map(data: bytes, file_name: str = MAP_FILE) -> dict[str, Any]:
    """Parse and check a map file; the result is plain JSON data (see the module doc)."""
    doc, check = read_toml(data, file_name, SECTIONS)
    check.stop_if_any()
    reader = _Reader(check)
    check.head(doc, "map", ())
    op_terrain = reader.grid(doc, OP, OP_TERRAIN, "")
    check.stop_if_any()
    transition = reader.transition(doc)
    check.stop_if_any()
    city_terrain = reader.grid(doc, CITY, CITY_TERRAIN, "".join(reader.faces))
    check.stop_if_any()
    reader.unused(doc)
    check.stop_if_any()

    hexes = reader.build_hexes(op_terrain, city_terrain, transition)
    check.stop_if_any()
    forts = reader.hex_list(doc, "fortifications", kinds=(OPERATIONAL, TRANSITION))
    for h in forts:
        hexes[h]["fortified"] = True
    places, aliases, vp = reader.places(doc, hexes)
    sides = reader.hexsides(doc)
    lines = {key: reader.chains(doc, key) for key in ("roads", "railroads", "ubahn")}
    feature = {"roads": "road", "railroads": "railroad", "ubahn": "u-bahn"}
    for key, items in lines.items():
        for item in items:
            for a, b in zip(item["hexes"], item["hexes"][1:], strict=False):
                sides.setdefault(side_key(a, b), set()).add(feature[key])
    box = reader.ngp_box(doc, lines["roads"])
    entry = reader.entry(doc)
    deployment = reader.deployment(doc)
    start_line = reader.start_line(doc)
    check.stop_if_any()
    return {
        "offset": OFFSET,
        "operational": reader.extent[OP],
        "city": reader.extent[CITY],
        "hexes": hexes,
        "hexsides": {key: sorted(names) for key, names in sorted(sides.items())},
        "fronts": reader.fronts,
        "transition": transition,
        "unused": [ref(OP, h) for h in UNUSED_HEXES],
        # keyed by hex, not by name: a state's keys are ASCII (canonical JSON), names are not
        "places": {h: name for name, h in sorted(places.items())},
        "aliases": sorted([spelling, name] for spelling, name in aliases.items()),
        "vp": vp,
        **lines,
        "ngp_box": box,
        "entry": entry,
        "deployment": deployment,
        "start_line": start_line,
        "edges": reader.edges(hexes),
    }


class _Reader:
    """Reads the sections of one file into plain values, recording problems in `check`."""

    def __init__(self, check: DataChecker) -> None:
        self.check = check
        self.grids: dict[str, HexGrid] = {}
        self.cells: dict[str, dict[int, str]] = {OP: {}, CITY: {}}
        self.extent: dict[str, dict[str, Any]] = {}
        self.faces: dict[str, int] = {}
        self.inset: tuple[int, int, int, int] = (0, 0, -1, -1)
        self.fronts: dict[str, list[str]] = {}

    # --- small pieces

    def items(self, doc: dict[str, Any], key: str, fields: Iterable[str]) -> list[tuple[str, Any]]:
        out = []
        for item, where in self.check.items(doc, key):
            name = item.get("name", item.get("area"))
            if isinstance(name, str) and name.strip():
                where = f"{key}[{name}]"
            self.check.noted(item, where, fields)
            out.append((where, item))
        return out

    def number(self, value: Any, where: str) -> int | None:
        if not isinstance(value, str) or not HEX_TEXT.match(value):
            self.check.add(where, f'expected a hex number such as "2419", found {value!r}')
            return None
        return int(value)

    def hex(self, value: Any, map_name: str, where: str) -> str | None:
        """A printed hex of `map_name` that exists there, as an id ("op:2419")."""
        number = self.number(value, where)
        if number is None:
            return None
        if number in self.cells[map_name] and self.cells[map_name][number] != NO_HEX:
            if map_name == CITY and self.cells[CITY][number] in self.faces:
                self.check.add(where, f"{value} is part of a Transition Hex's face, not a hex")
                return None
            return ref(map_name, number)
        self.check.add(where, f"hex {value} is not on the {_MAP_NAMES[map_name]}")
        return None

    def map_name(self, item: dict[str, Any], where: str) -> str | None:
        return self.check.choice(item, "map", where, MAPS)

    # --- the grids

    def grid(
        self, doc: dict[str, Any], map_name: str, legend: Mapping[str, str], faces: str
    ) -> dict[int, str]:
        """`terrain` strings: one per column XX, in each the rows YY from last to first."""
        fields = ("first", "last", "offset", "terrain") + (("inset",) if map_name == OP else ())
        section = _EXTENT[map_name]
        table = self.check.head(doc, section, fields)
        if table is None:
            return {}
        first = self.number(table.get("first"), f"{section}.first")
        last = self.number(table.get("last"), f"{section}.last")
        self.check.choice(table, "offset", section, (OFFSET,))
        if first is None or last is None:
            return {}
        (c0, r0), (c1, r1) = split(first), split(last)
        if c0 > c1 or r0 > r1:
            self.check.add(section, f"first {label(first)} is not before last {label(last)}")
            return {}
        if map_name == OP:
            self._inset(table)
        columns, rows = range(c0, c1 + 1), range(r0, r1 + 1)
        self.extent[map_name] = {"first": label(first), "last": label(last)}
        lines = table.get("terrain")
        where = f"{section}.terrain"
        if not isinstance(lines, list) or len(lines) != len(columns):
            self.check.add(where, f"expected {len(columns)} strings (one per column)")
            return {}
        allowed = dict(legend) | {NO_HEX: NO_HEX} | {f: f for f in faces}
        out: dict[int, str] = {}
        for c, line in zip(columns, lines, strict=True):
            at = f"{where} column {c:02d}"
            if not isinstance(line, str) or len(line) != len(rows):
                self.check.add(at, f"expected {len(rows)} characters (one per row)")
                continue
            for r, char in zip(reversed(rows), line, strict=True):
                if char not in allowed:
                    known = ", ".join(repr(k) for k in allowed)
                    self.check.add(at, f"row {r:02d}: unknown {char!r} (known: {known})")
                    continue
                inside = map_name == OP and self._in_inset(c, r)
                if inside != (char == NO_HEX) and map_name == OP:
                    wanted = "no hex (the City Map inset)" if inside else "a hex"
                    self.check.add(at, f"row {r:02d}: expected {wanted}")
                out[hex_id(c, r)] = allowed[char]
        self.cells[map_name] = out
        self.grids[map_name] = HexGrid(columns, rows, offset=OFFSET)
        return out

    def _inset(self, table: dict[str, Any]) -> None:
        value = table.get("inset")
        if not isinstance(value, list) or len(value) != 2:
            self.check.add(
                "operational.inset", 'expected the corners of the City Map inset, ["0117", "1432"]'
            )
            return
        a, b = (self.number(v, "operational.inset") for v in value)
        if a is not None and b is not None:
            (c0, r0), (c1, r1) = split(a), split(b)
            self.inset = (c0, r0, c1, r1)

    def _in_inset(self, c: int, r: int) -> bool:
        c0, r0, c1, r1 = self.inset
        return c0 <= c <= c1 and r0 <= r <= r1

    def transition(self, doc: dict[str, Any]) -> list[str]:
        table = self.check.head(doc, "transition", ("hexes", "faces"))
        if table is None:
            return []
        out: list[str] = []
        raw = table.get("hexes")
        if not isinstance(raw, list) or len(raw) != TRANSITION_COUNT:
            self.check.add("transition.hexes", f"expected {TRANSITION_COUNT} hexes (5.33, 5.68)")
            return []
        for value in raw:
            h = self.hex(value, OP, "transition.hexes")
            if h is not None and h not in out:
                out.append(h)
            elif h is not None:
                self.check.add("transition.hexes", f"hex {value} is given twice")
        faces = table.get("faces")
        if not isinstance(faces, dict):
            self.check.add("transition.faces", "expected a table of face characters")
            return out
        for char, value in faces.items():
            h = self.hex(value, OP, f"transition.faces.{char}")
            if len(char) != 1 or char in OP_TERRAIN or char == NO_HEX:
                self.check.add("transition.faces", f"{char!r} must be one character not in use")
            elif h is not None and h not in out:
                self.check.add(f"transition.faces.{char}", f"{value} is not a Transition Hex")
            elif h is not None:
                self.faces[char] = int(value)
        for h in out:
            if int(h[3:]) not in self.faces.values():
                self.check.add("transition.faces", f"Transition Hex {h[3:]} has no face")
        return sorted(out)

    def unused(self, doc: dict[str, Any]) -> None:
        table = self.check.head(doc, "unused", ("hexes",))
        if table is not None:
            self.check.exact(table.get("hexes"), [label(h) for h in UNUSED_HEXES], "unused", "2.1")

    def build_hexes(
        self, op_terrain: dict[int, str], city_terrain: dict[int, str], transition: list[str]
    ) -> dict[str, dict[str, Any]]:
        op_grid, city_grid = self.grids[OP], self.grids[CITY]
        unused = {ref(OP, h) for h in UNUSED_HEXES}
        hexes: dict[str, dict[str, Any]] = {}
        for h, terrain in op_terrain.items():
            if terrain == NO_HEX:
                continue
            key = ref(OP, h)
            kind = TRANSITION if key in transition else UNUSED if key in unused else OPERATIONAL
            hexes[key] = {"map": OP, "number": h, "kind": kind, "terrain": terrain}
        for key in (*transition, *unused):
            if key not in hexes:
                self.check.add("transition", f"hex {key[3:]} is not on the Operational Map")
        for h, terrain in city_terrain.items():
            if terrain != NO_HEX and terrain not in self.faces:
                hexes[ref(CITY, h)] = {
                    "map": CITY,
                    "number": h,
                    "kind": CITY_HEX,
                    "terrain": terrain,
                }
        # Neighbours: the Operational grid among used hexes; City hexes among themselves and
        # with the Transition Hexes whose face they touch (4.25).
        for info in hexes.values():
            info["fortified"] = False
            if info["kind"] == UNUSED:
                info["neighbours"] = []
                continue
            grid = op_grid if info["map"] == OP else city_grid
            near = []
            for n in grid.neighbours(info["number"]):
                other = ref(info["map"], n)
                if other in hexes and hexes[other]["kind"] != UNUSED:
                    near.append(other)
                cell = city_terrain.get(n, NO_HEX) if info["map"] == CITY else NO_HEX
                if cell in self.faces:
                    near.append(ref(OP, self.faces[cell]))
            info["neighbours"] = near
        for face, number in self.faces.items():
            cells = [h for h, c in city_terrain.items() if c == face]
            touched = {
                ref(CITY, n)
                for h in cells
                for n in city_grid.neighbours(h)
                if ref(CITY, n) in hexes
            }
            if not touched:
                self.check.add(
                    "city.terrain",
                    f"the face of Transition Hex {label(number)} touches no City hex",
                )
            hexes[ref(OP, number)]["neighbours"].extend(sorted(touched))
        for info in hexes.values():
            info["neighbours"] = sorted(set(info["neighbours"]))
        return hexes

    # --- lists of hexes

    def hex_list(self, doc: dict[str, Any], key: str, kinds: Iterable[str]) -> list[str]:
        table = self.check.head(doc, key, ("hexes",))
        if table is None:
            return []
        return self._hexes(table.get("hexes"), OP, key, tuple(kinds))

    def _hexes(self, raw: Any, map_name: str, where: str, kinds: tuple[str, ...]) -> list[str]:
        if not isinstance(raw, list) or not raw:
            self.check.add(where, "expected a list of hex numbers")
            return []
        out = []
        for value in raw:
            h = self.hex(value, map_name, where)
            if h is None:
                continue
            kind = self._kind(h)
            if kind not in kinds:
                self.check.add(where, f"hex {value} is a {kind} hex")
                continue
            out.append(h)
        return out

    def _kind(self, h: str) -> str:
        if h.startswith(CITY):
            return CITY_HEX
        number = int(h[3:])
        if number in UNUSED_HEXES:
            return UNUSED
        return TRANSITION if number in self.faces.values() else OPERATIONAL

    # --- sections

    def places(
        self, doc: dict[str, Any], hexes: dict[str, dict[str, Any]]
    ) -> tuple[dict[str, str], dict[str, str], list[dict[str, Any]]]:
        places: dict[str, str] = {}
        aliases: dict[str, str] = {}
        vp: list[dict[str, Any]] = []
        taken: dict[str, str] = {}
        fields = ("name", "map", "hex", "aliases", "vp")
        for where, item in self.items(doc, "places", fields):
            name = self.check.text(item, "name", where)
            map_name = self.map_name(item, where)
            other = self.check.texts(item, "aliases", where) or []
            points = self.check.integer(item, "vp", where, 1) if "vp" in item else 0
            h = self.hex(item.get("hex"), map_name, f"{where}.hex") if map_name else None
            if name is None or h is None or points is None:
                continue
            for spelling in (name, *other):
                if spelling in places or spelling in aliases:
                    self.check.add(where, f"duplicate name {spelling!r}")
            if h in taken:
                self.check.add(where, f"hex {h} is already {taken[h]}")
            taken[h] = name
            places.setdefault(name, h)
            hexes[h]["name"] = name
            for spelling in other:
                aliases.setdefault(spelling, name)
            if points:
                hexes[h]["vp"] = points
                vp.append({"name": name, "hex": h, "vp": points})
        for name, (map_name, number, points) in RULEBOOK_PLACES.items():
            section = "8.32" if name == "Jüterbog" else "8.33" if name == "Spandau" else "11.13"
            found = places.get(name)
            self.check.exact(found, ref(map_name, number), f"places[{name}]", section)
            if found is not None:
                self.check.exact(hexes[found].get("vp", 0), points, f"places[{name}].vp", section)
        return places, aliases, vp

    def hexsides(self, doc: dict[str, Any]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        fields = ("name", "map", "feature", "fronts", "sides")
        for where, item in self.items(doc, "hexsides", fields):
            map_name = self.map_name(item, where)
            if map_name is None:
                continue
            feature = self.check.choice(item, "feature", where, FEATURES[map_name])
            fronts = self.check.texts(item, "fronts", where) or []
            if feature == "front-boundary" and (
                len(fronts) != 2 or len(set(fronts)) != 2 or not set(fronts) <= set(FRONTS)
            ):
                self.check.add(where, f"fronts must name the two fronts ({', '.join(FRONTS)})")
                continue
            if feature != "front-boundary" and fronts:
                self.check.add(where, "only a front-boundary names fronts")
            raw = item.get("sides")
            if not isinstance(raw, list) or not raw or feature is None:
                self.check.add(where, 'sides must list hexsides such as "1611-1712"')
                continue
            keys = []
            for value in raw:
                key = self.side(value, map_name, f"{where}.sides")
                if key is None:
                    continue
                if feature in out.get(key, ()):
                    self.check.add(where, f"hexside {value} is {feature} twice")
                out.setdefault(key, set()).add(feature)
                keys.append(key)
            if feature == "front-boundary":
                self.fronts.setdefault("-".join(fronts), []).extend(keys)
        for key, names in out.items():
            if "spree" in names and "spree-bridge" in names:
                self.check.add("hexsides", f"hexside {key} is both spree and spree-bridge")
            if "elbe" in names and "major-river" not in names:
                self.check.add("hexsides", f"the Elbe hexside {key} is not a major-river")
        self.fronts = {k: sorted(v) for k, v in sorted(self.fronts.items())}
        return out

    def side(self, value: Any, map_name: str, where: str) -> str | None:
        match = SIDE_TEXT.match(value) if isinstance(value, str) else None
        if match is None:
            self.check.add(where, f'expected a hexside such as "1611-1712", found {value!r}')
            return None
        a, b = (self.hex(v, map_name, where) for v in match.groups())
        if a is None or b is None:
            return None
        if not self.grids[map_name].adjacent(int(a[-4:]), int(b[-4:])):
            self.check.add(where, f"hexes {match[1]} and {match[2]} are not neighbours")
            return None
        if UNUSED in (self._kind(a), self._kind(b)):
            self.check.add(where, f"hexside {value} touches an unused hex (2.1)")
            return None
        return side_key(a, b)

    def chains(self, doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
        out = []
        for where, item in self.items(doc, key, ("name", "map", "hexes")):
            name = self.check.text(item, "name", where)
            wanted = CITY if key == "ubahn" else OP
            map_name = self.check.choice(item, "map", where, (wanted,))
            raw = item.get("hexes")
            if not isinstance(raw, list) or len(raw) < 2:
                self.check.add(where, "hexes must list at least two hexes")
                continue
            if map_name is None or name is None:
                continue
            kinds = (CITY_HEX,) if map_name == CITY else (OPERATIONAL, TRANSITION)
            line = self._hexes(raw, map_name, f"{where}.hexes", kinds)
            if len(line) != len(raw):
                continue
            grid = self.grids[map_name]
            for a, b in zip(line, line[1:], strict=False):
                if not grid.adjacent(int(a[-4:]), int(b[-4:])):
                    self.check.add(where, f"hexes {a} and {b} are not neighbours")
                    break
            else:
                out.append({"name": name, "map": map_name, "hexes": line})
        return out

    def ngp_box(self, doc: dict[str, Any], roads: list[dict[str, Any]]) -> dict[str, Any]:
        table = self.check.head(doc, "ngp_box", ("name", "red_arrows", "road_exits", "spaces"))
        if table is None:
            return {}
        name = self.check.text(table, "name", "ngp_box")
        arrows = self._hexes(table.get("red_arrows"), OP, "ngp_box.red_arrows", (OPERATIONAL,))
        exits = self._hexes(table.get("road_exits"), OP, "ngp_box.road_exits", (OPERATIONAL,))
        self.check.exact(
            table.get("red_arrows"), [label(h) for h in RED_ARROWS], "ngp_box.red_arrows", "5.26"
        )
        self.check.exact(
            table.get("road_exits"), [label(h) for h in ROAD_EXITS], "ngp_box.road_exits", "5.26"
        )
        spaces = self.check.integer(table, "spaces", "ngp_box", 1)
        self.check.exact(spaces, NGP_SPACES, "ngp_box.spaces", "9.23")
        on_road = {h for road in roads for h in road["hexes"]}
        for h in exits:
            if h not in on_road:
                self.check.add("ngp_box.road_exits", f"no road reaches {h[3:]}")
        for h in arrows:
            if not self._on_edge(int(h[3:])):
                self.check.add("ngp_box.red_arrows", f"hex {h[3:]} is not on a map edge")
        return {"name": name, "red_arrows": arrows, "road_exits": exits, "spaces": spaces}

    def _on_edge(self, number: int) -> bool:
        """A hex with a missing neighbour (beyond the edge or in the City Map inset)."""
        near = self.grids[OP].neighbours(number)
        return len([n for n in near if self.cells[OP].get(n, NO_HEX) != NO_HEX]) < 6

    def entry(self, doc: dict[str, Any]) -> dict[str, list[str]]:
        table = self.check.head(doc, "entry", ENTRY_CODES)
        if table is None:
            return {}
        out = {}
        for code in ENTRY_CODES:
            if code not in table:
                self.check.add("entry", f"missing entry hexes {code!r}")
                continue
            hexes = self._hexes(table[code], OP, f"entry.{code}", (OPERATIONAL,))
            for h in hexes:
                if not self._on_edge(int(h[3:])):
                    self.check.add(f"entry.{code}", f"hex {h[3:]} is not on a map edge")
            out[code] = hexes
        return out

    def deployment(self, doc: dict[str, Any]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for where, item in self.items(doc, "deployment", ("area", "hexes")):
            area = self.check.choice(item, "area", where, DEPLOYMENT_AREAS)
            hexes = self._hexes(item.get("hexes"), OP, f"{where}.hexes", (OPERATIONAL,))
            if area is None:
                continue
            if area in out:
                self.check.add(where, f"area {area} is given twice")
            out[area] = hexes
        missing = [a for a in DEPLOYMENT_AREAS if a not in out]
        if missing:
            self.check.add("deployment", f"missing area(s) {', '.join(missing)} (10.22)")
        return {a: out[a] for a in DEPLOYMENT_AREAS if a in out}

    def start_line(self, doc: dict[str, Any]) -> list[int]:
        table = self.check.head(doc, "start_line", ("east_rows",))
        if table is None:
            return []
        grid = self.grids[OP]
        rows = table.get("east_rows")
        if (
            not isinstance(rows, list)
            or len(rows) != len(grid.columns)
            or not all(isinstance(r, int) and not isinstance(r, bool) for r in rows)
        ):
            self.check.add("start_line.east_rows", f"expected {len(grid.columns)} integers")
            return []
        return list(rows)

    def edges(self, hexes: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
        """The Operational Map's edges; the border of the City Map inset counts as north
        (the inset takes the north-west corner, 2.1; 11.15 traces to the north edge)."""
        grid = self.grids[OP]
        out: dict[str, list[str]] = {e: [] for e in EDGES}
        for key, info in hexes.items():
            if info["map"] != OP or info["kind"] == UNUSED:
                continue
            c, r = split(info["number"])
            beside_inset = any(self._in_inset(*split(n)) for n in grid.neighbours(info["number"]))
            if c == grid.columns[0] or beside_inset:
                out["north"].append(key)
            if c == grid.columns[-1]:
                out["south"].append(key)
            if r == grid.rows[0]:
                out["east"].append(key)
            if r == grid.rows[-1]:
                out["west"].append(key)
        return {e: sorted(v) for e, v in out.items()}


_MAP_NAMES = {OP: "Operational Map", CITY: "Berlin City Map"}
_EXTENT = {OP: "operational", CITY: "city"}


# --- Questions about a loaded map --------------------------------------------------------------


def hex_at(board: Mapping[str, Any], text: str, on: str | None = None) -> str:
    """The id of a hex written "op:2419", "city:1320" or "2419": a bare number is looked up
    on map `on`, else on both (an error if both have it). "city:2420" names the Transition
    Hex "op:2420" (4.15)."""
    if isinstance(text, str):
        # (the paths of every move are read through here: remembered per map)
        known = _derived(board)["refs"]
        found_before = known.get((text, on))
        if found_before is not None:
            return found_before
        found_now = _hex_at(board, text, on)
        known[(text, on)] = found_now
        return found_now
    return _hex_at(board, text, on)


def _hex_at(board: Mapping[str, Any], text: str, on: str | None = None) -> str:
    match = REF.match(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"{text!r} is not a hex such as 2419 or city:1320")
    maps = (match[1],) if match[1] else (on,) if on else MAPS
    found = []
    for map_name in maps:
        key = ref(map_name, int(match[2]))
        if key in board["hexes"]:
            found.append(key)
        elif map_name == CITY and ref(OP, int(match[2])) in board["transition"]:
            found.append(ref(OP, int(match[2])))
    found = sorted(set(found))
    if len(found) == 1:
        return found[0]
    if not found:
        where = " or ".join(_MAP_NAMES[m] for m in maps)
        raise ValueError(f"there is no hex {match[2]} on the {where}")
    raise ValueError(f"hex {match[2]} is on both maps: write op:{match[2]} or city:{match[2]}")


def kind(board: Mapping[str, Any], h: str) -> str:
    """ "operational", "transition", "city" or "unused" (2.1)."""
    info = board["hexes"].get(h)  # (_info inline: asked hundreds of thousands of times)
    if info is None:
        raise ValueError(f"{h!r} is not a hex of the maps")
    return str(info["kind"])


def terrain(board: Mapping[str, Any], h: str) -> str:
    """The terrain of the hex (the names of the Terrain Effects Chart, tables.py)."""
    return str(_info(board, h)["terrain"])


def fortified(board: Mapping[str, Any], h: str) -> bool:
    """Does the hex show the fortification picture (6.43, 5.37)?"""
    return bool(_info(board, h)["fortified"])


def on_map(board: Mapping[str, Any], h: str, map_name: str) -> bool:
    """Is the hex on map `map_name`? A Transition Hex is on both (4.15)."""
    info = _info(board, h)
    return info["map"] == map_name or info["kind"] == TRANSITION


def neighbours(board: Mapping[str, Any], h: str, on: str | None = None) -> list[str]:
    """The hexes adjacent to `h`, on map `on` ("op" or "city") or on both. A Transition Hex
    touches Operational and Transition Hexes on the Operational Map and City hexes on the
    City Map; a City hex touches City hexes and the Transition Hexes beside it (4.25)."""
    near = _info(board, h)["neighbours"]
    if on is None:
        return list(near)
    if on not in MAPS:
        raise ValueError(f"unknown map {on!r} (expected op or city)")
    mine = _info(board, h)
    out = []
    for n in near:
        other = board["hexes"][n]
        # On the Operational Map: Operational and Transition Hexes among themselves; on the
        # City Map: any pair with a City hex in it.
        both_op = other["map"] == OP and mine["map"] == OP
        if both_op == (on == OP):
            out.append(n)
    return out


def adjacent(board: Mapping[str, Any], a: str, b: str) -> bool:
    return (a, b) in _sides(board)


def hexside(board: Mapping[str, Any], a: str, b: str) -> list[str]:
    """The features of the hexside between neighbours `a` and `b` ([] for a clear one)."""
    return list(_features(board, a, b))


def _features(board: Mapping[str, Any], a: str, b: str) -> tuple[str, ...]:
    """`hexside`'s features, not copied (for the questions below, asked thousands of times
    a game: ZOC reach, retreats)."""
    features = _sides(board).get((a, b))
    if features is None:
        raise ValueError(f"hexes {a} and {b} are not adjacent")
    return features


def river(board: Mapping[str, Any], a: str, b: str) -> str | None:
    """The river class of the hexside for movement and combat: "major-river", "river",
    "minor-river" or None. A bridged Spree hexside on the City Map is a river (4.26, 5.36);
    the Spree on the Operational Map is an ordinary major river (4.26)."""
    features = _features(board, a, b)
    if "spree-bridge" in features:
        return "river"
    return next((r for r in RIVERS if r in features), None)


def full_lake(board: Mapping[str, Any], a: str, b: str) -> bool:
    """A full sea/lake hexside: no movement, attack or ZOC across (4.26, 5.28, 6.16). The
    Spree on the City Map counts, except where a bridge crosses it (5.36)."""
    features = _features(board, a, b)
    return "sea-lake" in features or "spree" in features


def front_boundary(board: Mapping[str, Any], a: str, b: str) -> str | None:
    """The fronts a Front boundary hexside separates ("1bf-2bf", "1bf-1uf"; 5.27), or None."""
    return _fronts(board).get(side_key(a, b))


# Derived lookups, built once per loaded map (a game never changes its map; a test that
# edits a loaded map calls `changed`): every ordered pair of neighbours -> its hexside's
# features; every Front boundary hexside -> its fronts. The rules ask these millions of
# times in a game (ZOC, supply lines, paths). zoc.py and supply.py key their own per-map
# memos on the identity of `_sides(board)` (a token: `changed` makes a new one).
_DERIVED: dict[int, tuple[Mapping[str, Any], dict[str, Any]]] = {}
# The map asked last, its derived lookups and their "sides": a game asks about one map
# thousands of times an entry, so the usual answer is one identity test away. The map object
# is held, so its id cannot pass to another object while it is here; `changed` forgets it.
# (One tuple, replaced whole: never a map with another map's lookups.)
_LAST: tuple[object, dict[str, Any], dict[tuple[str, str], tuple[str, ...]]] = (None, {}, {})


def _derived(board: Mapping[str, Any]) -> dict[str, Any]:
    global _LAST
    last = _LAST
    if last[0] is board:
        return last[1]
    cached = _DERIVED.get(id(board))
    if cached is not None and cached[0] is board:
        built = cached[1]
    else:
        fronts = {key: name for name, keys in board["fronts"].items() for key in keys}
        built = {"sides": _build_sides(board), "fronts": fronts, "refs": {}}  # refs: hex_at's
        if len(_DERIVED) >= _GRIDS_KEPT:
            _DERIVED.clear()
        _DERIVED[id(board)] = (board, built)
    _LAST = (board, built, built["sides"])
    return built


def _build_sides(board: Mapping[str, Any]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(h, n) -> `tuple(board["hexsides"].get(side_key(h, n), ()))` for every hex h and
    each of its neighbours n: every pair clear, then the listed hexsides laid over it (one
    pass over the hexsides instead of a key built per pair; the same table,
    tests/games/gotterdammerung/test_gd_map_memo.py)."""
    hexes = board["hexes"]
    sides: dict[tuple[str, str], tuple[str, ...]] = {
        (h, n): () for h, info in hexes.items() for n in info["neighbours"]
    }
    if any(not isinstance(h, str) or "|" in h for h in hexes):  # (keys that do not split)
        return {pair: tuple(board["hexsides"].get(side_key(*pair), ())) for pair in sides}
    for key, features in board["hexsides"].items():
        if not isinstance(key, str):
            continue  # (side_key gives text)
        a, bar, b = key.partition("|")
        if bar and a <= b:  # (side_key sorts: an unsorted key is never looked up)
            if (a, b) in sides:
                sides[(a, b)] = tuple(features)
            if (b, a) in sides:
                sides[(b, a)] = tuple(features)
    return sides


def seed_sides(board: Mapping[str, Any], sides: dict[tuple[str, str], tuple[str, ...]]) -> None:
    """Take `sides` (`_build_sides` of a map of the same content, made with the loaded data:
    derived.py) as this map's derived hexsides, instead of building them on first use."""
    global _LAST
    fronts = {key: name for name, keys in board["fronts"].items() for key in keys}
    built = {"sides": sides, "fronts": fronts, "refs": {}}
    if len(_DERIVED) >= _GRIDS_KEPT:
        _DERIVED.clear()
    _DERIVED[id(board)] = (board, built)
    if _LAST[0] is board:
        _LAST = (board, built, sides)


def changed(board: Mapping[str, Any]) -> None:
    """Forget what was derived from `board`: its hexes or hexsides were edited."""
    global _LAST
    _DERIVED.pop(id(board), None)
    _GRIDS.pop(id(board), None)
    if _LAST[0] is board:
        _LAST = (None, {}, {})


def _sides(board: Mapping[str, Any]) -> dict[tuple[str, str], tuple[str, ...]]:
    last = _LAST
    if last[0] is board:
        return last[2]
    return _derived(board)["sides"]


def _fronts(board: Mapping[str, Any]) -> dict[str, str]:
    return _derived(board)["fronts"]


def place(board: Mapping[str, Any], name: str) -> str:
    """The hex of a place by name or another spelling ("Vrietzen", "Wriezen")."""
    name = dict(board["aliases"]).get(name, name)
    found = [h for h, named in board["places"].items() if named == name]
    if not found:
        raise ValueError(f"no place called {name!r} on the maps")
    return str(found[0])


def name_of(board: Mapping[str, Any], h: str) -> str | None:
    value = _info(board, h).get("name")
    return None if value is None else str(value)


def east_of_start_line(board: Mapping[str, Any], h: str) -> bool:
    """Is an Operational or Transition Hex east of the front line at the start (8.18,
    11.15, 12.34)? City hexes never are."""
    info = _info(board, h)
    if info["map"] != OP:
        return False
    c, r = split(info["number"])
    first = split(int(board["operational"]["first"]))[0]
    return bool(r <= board["start_line"][c - first])


def edge_hexes(board: Mapping[str, Any], edge: str) -> list[str]:
    """The Operational hexes on the `edge` ("north", "east", "south", "west")."""
    if edge not in EDGES:
        raise ValueError(f"unknown edge {edge!r} (expected {', '.join(EDGES)})")
    return list(board["edges"][edge])


def _info(board: Mapping[str, Any], h: str) -> Mapping[str, Any]:
    info = board["hexes"].get(h)
    if info is None:
        raise ValueError(f"{h!r} is not a hex of the maps")
    return info


_GRIDS: dict[int, tuple[Mapping[str, Any], dict[str, HexGrid]]] = {}
_GRIDS_KEPT = 8


def grids(board: Mapping[str, Any]) -> dict[str, HexGrid]:
    """The `HexGrid` of each map ("op", "city") with terrain and hexside features, built
    once per map object; ids there are plain ints (the printed numbers), Transition Hexes on
    the Operational grid only."""
    cached = _GRIDS.get(id(board))
    if cached is not None and cached[0] is board:
        return cached[1]
    built = {}
    for map_name in MAPS:
        first, last = (split(int(board[_EXTENT[map_name]][k])) for k in ("first", "last"))
        numbers = {info["number"] for info in board["hexes"].values() if info["map"] == map_name}
        all_ = {
            hex_id(c, r) for c in range(first[0], last[0] + 1) for r in range(first[1], last[1] + 1)
        }
        sides: dict[frozenset[int], set[str]] = {}
        prefix = f"{map_name}:"
        for key, features in board["hexsides"].items():
            a, b = key.split("|")
            if a.startswith(prefix) and b.startswith(prefix):
                sides[frozenset((int(a[-4:]), int(b[-4:])))] = set(features)
        built[map_name] = HexGrid(
            range(first[0], last[0] + 1),
            range(first[1], last[1] + 1),
            offset=OFFSET,
            absent=sorted(all_ - numbers),
            hexsides=sides,
            terrain={
                info["number"]: info["terrain"]
                for info in board["hexes"].values()
                if info["map"] == map_name
            },
        )
    if len(_GRIDS) >= _GRIDS_KEPT:
        _GRIDS.clear()
    _GRIDS[id(board)] = (board, built)
    return built
