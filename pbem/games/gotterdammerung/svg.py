"""The Götterdämmerung maps as SVG: the Operational Map and the Berlin City Map (2.1) side by
side, drawn from the loaded map data (map_data.py) with the units a view shows.

`draw_board(board, counters_data, units, ...)` draws two panels. On the left the
Operational Map (hexes "op:XXYY"); on the right the Berlin City Map ("city:XXYY") at a
larger scale. The rulebook prints the City Map in the Operational Map's north-west corner
(the inset of map.toml, where there are no Operational hexes): here that corner holds a note
and the North German Plain Box (5.26, 9.23), beside the red-arrow hexes that lead into it.

Orientation (map_data.py, map.toml): XX grows southward and YY westward on an "even-q"
grid, so on the page every XX is a row of pointy-topped hexes, north at the top, YY falling
from left (west) to right (east); an even XX sits half a hex further west. Two hexes are
neighbours exactly when their drawn centres are one hex apart (the tests check it against
map_data's neighbours), so Stettin 0407 is in the north, Cottbus 4110 in the south-east,
the Oder along the east and Berlin in the middle.

A Transition Hex is one hex on both maps (4.15): on the Operational Map it is an ordinary
hex, on the City Map the face of several City-grid cells (the cells of the City rectangle
that are not City hexes). The loaded map does not say which cell belongs to which face, so
`faces` works it out from the City hexes each Transition Hex touches (4.25). Both drawings
share one outline colour and its number; units in a Transition Hex are drawn on its City
face (it has room), and the Operational hex shows how many there are. The unused hexes 2321
and 2322 (2.1) are drawn blank.

Units are the engine's unit dicts (id, side, hex, steps, disrupted, out_of_supply, delays,
volkssturm; the design note of the engine). A counter shows a short name, the
attack-defence-movement of its current side (the reduced side when it has lost a step,
6.52) and its markers: disrupted (6.66), out of supply (8.11) and HOW MANY Delay markers it
carries (6.82: their values are unknown to both players, so none is ever read). A face-down
Volkssturm (8.45) shows "VS ?"; a revealed one its own ratings. Stacks: the Operational Map
shows the top counter over the edges of the others and a count, the City Map two counters
side by side; the side panel lists every stack. Nothing is mutated; the same arguments give
the same bytes. The map is a stand-in (map.toml): the title block and the legend say so.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError
from pbem.games.gotterdammerung import map_data
from pbem.games.gotterdammerung.highlight import last_turn
from pbem.maps.hexes import label, split
from pbem.maps.svg import Drawing, Highlight

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator

__all__ = ["STAND_IN_NOTICE", "board_svg", "draw_board", "faces", "highlight_of", "short_name"]

STAND_IN_NOTICE = (
    "stand-in map: the geometry and terrain are invented for pbem (map.toml); "
    "the rulebook does not print the published map"
)
Point = tuple[float, float]
SQRT3 = math.sqrt(3)
OP_SIZE, CITY_SIZE = 24.0, 40.0  # centre to corner of a hex on each panel
LEFT, TOP = 46.0, 112.0  # the Operational Map's top-left corner
GAP = 70.0  # between the panels
CW, CH = 34.0, 26.0  # a counter

TERRAIN_FILL = {
    "clear": "#f3ecd6",
    "forest": "#a8c88e",
    "marsh": "#bcd9d0",
    "mountain": "#c7a57a",
    "small-city": "#e4d7c0",
    "major-city": "#dcc4b0",
    "built-up": "#d6bdb0",
}
INK = "#222222"
NUMBER_INK = "#6d6353"
TRANSITION = "#7b2fbf"  # the outline of a Transition Hex on both panels
FACE_FILL = "#e8dcf4"  # a Transition Hex's face on the City Map
RIVER_STYLE = {
    "major-river": {"stroke": "#1d5fbf", "stroke_width": 4.2},
    "river": {"stroke": "#2b77d0", "stroke_width": 2.8},
    "minor-river": {"stroke": "#4b93df", "stroke_width": 1.6},
    "sea-lake": {"stroke": "#163f7a", "stroke_width": 6},
    "spree": {"stroke": "#1d5fbf", "stroke_width": 7},
}
ROAD = {"stroke": "#b5651d", "stroke_width": 2.2, "stroke_linecap": "round"}
RAIL = {"stroke": "#222222", "stroke_width": 1.3}
RAIL_TIES = {"stroke": "#222222", "stroke_width": 5, "stroke_dasharray": "1 5"}
UBAHN = {
    "stroke": "#7a4a1e",
    "stroke_width": 3.2,
    "stroke_dasharray": "0.1 6",
    "stroke_linecap": "round",
}
FRONT = {"stroke": "#d0201a", "stroke_width": 2.6, "stroke_dasharray": "9 3 2 3"}
AREA = {"stroke": "#6f6f6f", "stroke_width": 2.4, "stroke_dasharray": "5 3"}
HALO = {"stroke": "#fffdf6", "stroke_width": 2.6, "paint_order": "stroke"}
NATION = {  # fill, ink
    "soviet": ("#c0392b", "#ffffff"),
    "polish": ("#f4f4f4", "#b0121b"),
    "american": ("#6b7f3a", "#ffffff"),
    "german": ("#7b7f83", "#ffffff"),
}
VOLKSSTURM_FILL = ("#a8a08c", "#ffffff")
BRANCH_SHORT = {
    "rifle": "Rfl",
    "tank": "Tk",
    "mechanized": "Mech",
    "cavalry": "Cav",
    "heavy-tank": "HvTk",
    "heavy-sp-gun": "HvSP",
    "heavy-artillery": "HvArt",
    "armour": "Pz",
    "panzergrenadier": "PzG",
    "assault-gun": "StuG",
    "tank-destroyer": "PzJ",
    "infantry": "Inf",
    "anti-tank": "PzJ",
    "artillery": "Art",
    "naval-infantry": "Nav",
    "flak": "Flak",
    "paratroops": "Fj",
    "special-duty": "zbV",
    "depot": "Depot",
    "armoured": "Arm",
    "hq": "HQ",
    "fuhrer": "Hitler",
    "fortress": "Fort",
    "factory": "Fact",
}


# --- geometry ------------------------------------------------------------------------------------


class _Panel:
    """Where one map's hexes are drawn: XX rows downward, YY columns leftward (module doc)."""

    def __init__(self, board: Mapping[str, Any], map_name: str, x0: float, y0: float, size: float):
        ext = board["operational" if map_name == map_data.OP else "city"]
        (self.c0, self.r0), (self.c1, self.r1) = split(int(ext["first"])), split(int(ext["last"]))
        self.map, self.x0, self.y0, self.size = map_name, x0, y0, size
        self.width = SQRT3 * size * (self.r1 - self.r0 + 1.5)
        self.height = 1.5 * size * (self.c1 - self.c0) + 2 * size

    def at(self, col: int, row: int) -> Point:
        w = SQRT3 * self.size
        x = self.x0 + w * (self.r1 - row + 1 - 0.5 * (col % 2 == 0))
        return x, self.y0 + self.size + 1.5 * self.size * (col - self.c0)

    def centre(self, number: int) -> Point:
        return self.at(*split(number))

    def corners(self, centre: Point, shrink: float = 1.0) -> list[Point]:
        x, y = centre
        s = self.size * shrink
        return [
            (
                x + s * math.cos(math.radians(30 + 60 * i)),
                y + s * math.sin(math.radians(30 + 60 * i)),
            )
            for i in range(6)
        ]

    def points(self, number: int, shrink: float = 1.0) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.corners(self.centre(number), shrink))

    def side(self, a: Point, b: Point) -> tuple[Point, Point]:
        """The hexside between two touching hex centres (it is one hex side long)."""
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        dist = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        px, py = -(b[1] - a[1]) / dist * self.size / 2, (b[0] - a[0]) / dist * self.size / 2
        return (mx + px, my + py), (mx - px, my - py)


def _around(col: int, row: int) -> list[tuple[int, int]]:
    """The six grid positions around (col, row), on the map or not (even-q, 4.25)."""
    lo = row if col % 2 == 0 else row - 1
    return [
        (col - 1, lo),
        (col - 1, lo + 1),
        (col + 1, lo),
        (col + 1, lo + 1),
        (col, row - 1),
        (col, row + 1),
    ]


def _number(h: str) -> int:
    return int(h[-4:])


def faces(board: Mapping[str, Any]) -> dict[str, list[int]]:
    """The City-grid cells drawn as each Transition Hex's face: the cells of the City
    rectangle that are no City hex, each given to the Transition Hex whose touched City
    hexes (4.25) lie around it most; cells touching none take the face of a neighbour."""
    ext = board["city"]
    (c0, r0), (c1, r1) = split(int(ext["first"])), split(int(ext["last"]))
    cells = [
        c * 100 + r
        for c in range(c0, c1 + 1)
        for r in range(r0, r1 + 1)
        if map_data.ref(map_data.CITY, c * 100 + r) not in board["hexes"]
    ]
    touched = {
        t: {n for n in board["hexes"][t]["neighbours"] if n.startswith("city:")}
        for t in board["transition"]
    }
    owner: dict[int, str] = {}
    for cell in cells:
        near = [map_data.ref(map_data.CITY, c * 100 + r) for c, r in _around(*split(cell))]
        votes = sorted(
            ((-sum(n in city for n in near), t) for t, city in touched.items()),
        )
        if votes and votes[0][0] < 0:
            owner[cell] = votes[0][1]
    free = [c for c in cells if c not in owner]
    while free:  # the cells deep in a face, ring by ring: the face most around them
        grown = {}
        for cell in free:
            found = [
                owner[n] for n in (c * 100 + r for c, r in _around(*split(cell))) if n in owner
            ]
            if found:
                grown[cell] = min(found, key=lambda t: (-found.count(t), t))
        if not grown:
            break
        owner.update(grown)
        free = [c for c in free if c not in grown]
    out: dict[str, list[int]] = {t: [] for t in board["transition"]}
    for cell, t in sorted(owner.items()):
        out[t].append(cell)
    return out


# --- counters ------------------------------------------------------------------------------------

_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)\b")
_PAREN = re.compile(r"\(([^()]*)\)")


def short_name(data: Mapping[str, Any] | None, unit_id: str) -> str:
    """A counter's short label: "18 Rfl", "29G Rfl", "8GM/1", "LAH/1", "Döb"..."""
    if not data:
        return unit_id[:9]
    name = str(data.get("name", unit_id))
    branch = str(data.get("branch", ""))
    parens = _PAREN.findall(name)
    tail = ""
    if parens and parens[-1].isdigit():
        tail = "/" + parens.pop()
    group = re.search(r"Battle group (\d+)", name)
    if group:
        tail = "/" + group[1]
    number = _ORDINAL.match(name)
    guards = "G" if data.get("guards") else ""
    if data.get("nationality") == "polish":
        guards = "Pol"
    words = [p for p in parens if len(p) <= 6 and " " not in p]
    if branch in ("fuhrer", "fortress", "factory", "depot") and not number:
        core = BRANCH_SHORT.get(branch, branch)
        if branch == "fortress" and words:
            core = words[0]
    elif data.get("side") == "german" and words:
        core = words[0]
    elif number:
        core = f"{number[1]}{guards} {BRANCH_SHORT.get(branch, '')}".strip()
    elif parens:
        core = parens[-1]
    else:
        core = name
    text = (core + tail).strip()
    return text if len(text) <= 10 else text[:9] + "."


def _face(unit: Mapping[str, Any], data: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the counter shows: label, ratings text, colours, reduced, markers."""
    if unit.get("volkssturm"):
        revealed = all(k in unit for k in ("attack", "defence", "movement"))
        ratings = (
            f"{unit['attack']}-{unit['defence']}-{unit['movement']}" if revealed else "?"
        )  # 8.45: face down, its strength is unknown to both
        name = "Volkssturm" + ("" if revealed else " (face down)")
        return {
            "label": "VS",
            "ratings": ratings,
            "colours": VOLKSSTURM_FILL,
            "reduced": False,
            "name": name,
        }
    data = data or {}
    full = int(data.get("steps", 1))
    reduced = data.get("reduced") is not None and int(unit.get("steps", full)) < full
    values = data["reduced"] if reduced else data
    ratings = "-".join(str(values.get(k, "?")) for k in ("attack", "defence", "movement"))
    nation = str(data.get("nationality", unit.get("side", "")))
    colours = NATION.get(nation, NATION["soviet" if unit.get("side") == "soviet" else "german"])
    return {
        "label": short_name(data, str(unit["id"])),
        "ratings": ratings,
        "colours": colours,
        "reduced": reduced,
        "name": str(data.get("name", unit["id"])),
    }


def _markers(unit: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(text, fill, ink) of the markers on a counter, in a fixed order."""
    out = []
    if unit.get("disrupted"):
        out.append(("D", "#f08c00", "#000000"))  # 6.66
    if unit.get("out_of_supply"):
        out.append(("OS", "#ffe14d", "#000000"))  # 8.11
    delays = int(unit.get("delays") or 0)
    if delays:
        out.append((f"{delays}?", "#5a3d8a", "#ffffff"))  # 6.82: how many, never their values
    return out


def _tooltip(unit: Mapping[str, Any], face: Mapping[str, Any]) -> str:
    words = [f"{face['name']} ({unit['id']}): {face['ratings']}"]
    if face["reduced"]:
        words.append("reduced")
    if unit.get("disrupted"):
        words.append("disrupted")
    if unit.get("out_of_supply"):
        words.append("out of supply")
    if unit.get("delays"):
        words.append(f"{unit['delays']} Delay marker(s), values unknown")
    return "; ".join(words)


def _text(
    d: Drawing,
    x: float,
    y: float,
    content: object,
    size: float,
    ink: str = INK,
    *,
    bold: bool = False,
    anchor: str | None = "middle",
    halo: bool = False,
    **more: object,
) -> None:
    if halo:  # a light outline keeps the words legible over lines and counters
        more = {**HALO, **more}
    d.text(
        x,
        y,
        content,
        font_size=size,
        fill=ink,
        font_weight="bold" if bold else None,
        text_anchor=anchor,
        **more,
    )


def _counter(
    d: Drawing, unit: Mapping[str, Any], data: Mapping[str, Any] | None, x: float, y: float
) -> None:
    """One counter with its top-left corner at (x, y)."""
    face = _face(unit, data)
    fill, ink = face["colours"]
    with d.group(class_="counter", data_unit=str(unit["id"])):
        d.titled(
            "rect",
            _tooltip(unit, face),
            x=x,
            y=y,
            width=CW,
            height=CH,
            rx=2.5,
            fill=fill,
            stroke="#111111",
            stroke_width=0.9,
        )
        _text(
            d,
            x + CW / 2,
            y + 10,
            face["label"],
            8 if len(face["label"]) <= 7 else 6.8,
            ink,
            bold=True,
        )
        _text(d, x + CW / 2, y + 21.5, face["ratings"], 9, ink, bold=True, class_="ratings")
        if face["reduced"]:  # 6.52: a white corner marks the reduced side
            d.add(
                "polygon",
                points=f"{x + CW - 9:.1f},{y + CH:.1f} {x + CW:.1f},{y + CH:.1f} "
                f"{x + CW:.1f},{y + CH - 9:.1f}",
                fill="#ffffff",
                stroke="#111111",
                stroke_width=0.5,
                class_="reduced",
            )
        mx = x - 3
        for text, mfill, mink in _markers(unit):
            w = 6 + 5 * len(text)
            d.add(
                "rect",
                x=mx,
                y=y - 6,
                width=w,
                height=10,
                rx=2,
                fill=mfill,
                stroke="#111111",
                stroke_width=0.6,
                class_="marker",
            )
            _text(d, mx + w / 2, y + 2, text, 7.5, mink, bold=True, class_="marker-text")
            mx += w + 1


# --- the drawing ---------------------------------------------------------------------------------


def draw_board(
    board: Mapping[str, Any],
    counters_data: Mapping[str, Any],
    units: Mapping[str, Mapping[str, Any]],
    *,
    occupied: Iterable[str] = (),
    turn: int | None = None,
    phase: str | None = None,
    support_points: object = None,
    highlight: Highlight | None = None,
    scale: float = 1.0,
) -> str:
    """The two maps of `board` with `units` (id -> unit dict, read only) drawn from
    `counters_data` (counters.load_counters), the Soviet Occupied markers on `occupied`
    (5.47, 11.12) and where play stands (turn, phase, Soviet support points)."""
    op = _Panel(board, map_data.OP, LEFT, TOP, OP_SIZE)
    city_x = LEFT + op.width + GAP
    city = _Panel(board, map_data.CITY, city_x, TOP + 24, CITY_SIZE)
    width = city_x + city.width + 30
    height = TOP + op.height + 56
    data_units = counters_data.get("units", {})
    by_hex: dict[str, list[Mapping[str, Any]]] = {}
    for uid in sorted(units):
        unit = units[uid]
        where = unit.get("hex")
        if where is None:
            continue
        if where != "ngp" and where not in board["hexes"]:
            raise ValueError(f"unit {uid}: {where} is not a hex of the maps")
        by_hex.setdefault(str(where), []).append(unit)
    d = Drawing(
        width, height, title="Götterdämmerung: the Operational and Berlin City Maps", scale=scale
    )
    d.add("rect", x=0, y=0, width=width, height=height, fill="#fbfaf5")
    pen = _Pen(d, board, op, city, data_units)
    pen.hexes()
    pen.transition_faces()
    pen.areas()
    pen.lines()
    pen.hexsides()
    pen.symbols(set(occupied))
    pen.inset(len(by_hex.get("ngp", ())))
    pen.counters(by_hex)
    pen.labels()
    if highlight is not None:
        pen.highlight(highlight)
    _title(d, turn, phase, support_points)
    _text(d, LEFT, TOP - 22, "Operational Map (2.1)", 16, bold=True, anchor=None)
    _text(
        d,
        city_x,
        TOP + 12,
        "Berlin City Map (2.1), drawn at a larger scale",
        16,
        bold=True,
        anchor=None,
    )
    _text(
        d,
        city_x + 400,
        TOP + 12,
        "Purple: the eight Transition Hexes, each ONE hex on both "
        "maps (4.15); units in one are drawn on its face here.",
        11,
        TRANSITION,
        anchor=None,
    )
    _legend(d, city_x, city.y0 + city.height + 24, height - 10, pen.stack_lines(by_hex))
    return d.to_string()


class _Pen:
    def __init__(
        self,
        d: Drawing,
        board: Mapping[str, Any],
        op: _Panel,
        city: _Panel,
        data_units: Mapping[str, Any],
    ) -> None:
        self.d, self.board, self.op, self.city, self.data = d, board, op, city, data_units
        self.faces = faces(board)
        self.face_centre: dict[str, Point] = {}
        for t, cells in self.faces.items():
            pts = [city.centre(c) for c in cells] or [(city.x0, city.y0)]
            self.face_centre[t] = (
                sum(p[0] for p in pts) / len(pts),
                sum(p[1] for p in pts) / len(pts),
            )
        self.ngp_slots: list[Point] = []
        self.ngp_box: tuple[float, float, float, int, float, float, int] = (0, 0, 0, 1, 0, 0, 0)

    def panel(self, h: str) -> _Panel:
        return self.op if h.startswith("op:") else self.city

    def at(self, h: str) -> Point:
        return self.panel(h).centre(_number(h))

    def info(self, h: str) -> Mapping[str, Any]:
        info: Mapping[str, Any] = self.board["hexes"][h]
        return info

    # --- layers

    def hexes(self) -> None:
        d = self.d
        with d.group(class_="hexes", stroke="#b3a88f", stroke_width=0.6):
            for h in sorted(self.board["hexes"]):
                info = self.info(h)
                kind = info["kind"]
                fill = (
                    "#ffffff"
                    if kind == map_data.UNUSED
                    else TERRAIN_FILL.get(info["terrain"], "#eeeeee")
                )
                words = (
                    f"{h}: {info['terrain']}" if kind != map_data.UNUSED else f"{h}: not used (2.1)"
                )
                if kind == map_data.TRANSITION:
                    words += ", Transition Hex: one hex on both maps (4.15)"
                if info.get("fortified"):
                    words += ", fortified (6.43)"
                d.titled(
                    "polygon", words, points=self.panel(h).points(_number(h)), fill=fill, data_hex=h
                )
        with d.group(class_="marsh", stroke="#4f86b3", stroke_width=0.8):
            for h, info in sorted(self.board["hexes"].items()):
                if info["terrain"] == "marsh":
                    x, y = self.at(h)
                    for dy in (-4, 3):
                        d.add("line", x1=x - 9, y1=y + dy, x2=x + 9, y2=y + dy)
        with d.group(class_="forest", fill="#3f7a36"):
            for h, info in sorted(self.board["hexes"].items()):
                if info["terrain"] == "forest":
                    x, y = self.at(h)
                    r = 3.2 if h.startswith("op:") else 5
                    for dx, dy in ((-12, 10), (12, 10)):
                        d.add("circle", cx=x + dx * r / 3.2, cy=y + dy * r / 3.2, r=r)
        with d.group(class_="mountain", fill="#7f5631"):
            for h, info in sorted(self.board["hexes"].items()):
                if info["terrain"] == "mountain":
                    x, y = self.at(h)
                    d.add(
                        "polygon",
                        points=f"{x - 8:.1f},{y + 16:.1f} {x:.1f},{y + 8:.1f} "
                        f"{x + 8:.1f},{y + 16:.1f}",
                    )
        with d.group(class_="unused"):
            for h in self.board["unused"]:
                x, y = self.at(h)
                _text(d, x, y + 3, "not used", 7, "#888888")
        with d.group(
            class_="fortified",
            fill="none",
            stroke="#5b3a1a",
            stroke_width=2.2,
            stroke_dasharray="3 2",
        ):
            for h, info in sorted(self.board["hexes"].items()):
                if info.get("fortified"):
                    d.add("polygon", points=self.panel(h).points(_number(h), 0.82))

    def transition_faces(self) -> None:
        """4.15: the faces on the City Map, one colour, outlined along their borders."""
        d, city = self.d, self.city
        with d.group(class_="transition-face"):
            for t, cells in self.faces.items():
                for cell in cells:
                    d.add("polygon", points=city.points(cell, 1.02), fill=FACE_FILL, data_face=t)
                mine = set(cells)
                for cell in cells:
                    a = city.centre(cell)
                    for c, r in _around(*split(cell)):
                        if c * 100 + r not in mine:
                            p, q = city.side(a, city.at(c, r))
                            d.add(
                                "line",
                                x1=p[0],
                                y1=p[1],
                                x2=q[0],
                                y2=q[1],
                                stroke=TRANSITION,
                                stroke_width=3,
                                stroke_linecap="round",
                            )
        with d.group(class_="transition", fill="none", stroke=TRANSITION, stroke_width=3):
            for t in self.board["transition"]:
                d.add("polygon", points=self.op.points(_number(t), 0.92), data_transition=t)

    def areas(self) -> None:
        """10.22: the deployment areas A-J outlined grey, with their letter."""
        d, op = self.d, self.op
        with d.group(class_="deployment", **AREA):
            for area, hexes in self.board["deployment"].items():
                mine = {_number(h) for h in hexes}
                for n in sorted(mine):
                    a = op.centre(n)
                    for c, r in _around(*split(n)):
                        if c * 100 + r not in mine:
                            p, q = op.side(a, op.at(c, r))
                            d.add("line", x1=p[0], y1=p[1], x2=q[0], y2=q[1], data_area=area)
        with d.group(class_="area-letter"):
            for area, hexes in self.board["deployment"].items():
                xs = [self.at(h) for h in hexes]
                x = min(p[0] for p in xs) - OP_SIZE * 1.25
                y = sum(p[1] for p in xs) / len(xs)
                d.add("circle", cx=x, cy=y, r=8, fill="#ffffff", stroke="#6f6f6f", stroke_width=1.5)
                _text(d, x, y + 4, area, 11, "#444444", bold=True)

    def _chain(self, hexes: Sequence[str], style: Mapping[str, object]) -> None:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (self.at(h) for h in hexes))
        self.d.add("polyline", points=pts, fill="none", **style)

    def lines(self) -> None:
        d = self.d
        with d.group(class_="roads"):
            for road in self.board["roads"]:
                self._chain(road["hexes"], ROAD)
        with d.group(class_="railroads"):
            for rail in self.board["railroads"]:
                self._chain(rail["hexes"], RAIL)
                self._chain(rail["hexes"], RAIL_TIES)
        with d.group(class_="ubahn"):  # 12.11: the brown dotted U-Bahn lines
            for line in self.board["ubahn"]:
                self._chain(line["hexes"], UBAHN)

    def hexsides(self) -> None:
        d = self.d
        fronts = {key for keys in self.board["fronts"].values() for key in keys}
        groups: dict[str, list[tuple[Point, Point]]] = {}
        for key, features in sorted(self.board["hexsides"].items()):
            a, b = key.split("|")
            if a[:3] != b[:3] or not ({a, b} <= set(self.board["hexes"])):
                continue  # a City hex beside a Transition Hex: the face outline draws it
            line = self.panel(a).side(self.at(a), self.at(b))
            for feature in ("sea-lake", "major-river", "river", "minor-river", "spree"):
                if feature in features:
                    groups.setdefault(feature, []).append(line)
                    break
            if "spree-bridge" in features:
                groups.setdefault("spree-bridge", []).append(line)
            if key in fronts:
                groups.setdefault("front", []).append(line)
        styles = {**RIVER_STYLE, "front": FRONT}
        for feature in ("sea-lake", "major-river", "river", "minor-river", "spree", "front"):
            with d.group(class_=feature, stroke_linecap="round", **styles[feature]):
                for p, q in groups.get(feature, ()):
                    d.add("line", x1=p[0], y1=p[1], x2=q[0], y2=q[1])
        with d.group(class_="spree-bridge"):  # 5.36: the river under a bridge
            for p, q in groups.get("spree-bridge", ()):
                d.add("line", x1=p[0], y1=p[1], x2=q[0], y2=q[1], **RIVER_STYLE["river"])
                mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
                d.add(
                    "circle", cx=mx, cy=my, r=4.5, fill="#8a8a8a", stroke="#222222", stroke_width=1
                )

    def symbols(self, occupied: set[str]) -> None:
        """City symbols, VP hexes, Soviet Occupied markers and entry codes."""
        d = self.d
        with d.group(class_="cities"):
            for h, info in sorted(self.board["hexes"].items()):
                if info["map"] != map_data.OP:
                    continue
                x, y = self.at(h)
                if info["terrain"] == "small-city":
                    d.add("rect", x=x - 4, y=y + 8, width=8, height=8, fill="#333333")
                elif info["terrain"] == "major-city":
                    d.add(
                        "polygon",
                        points=f"{x - 9:.1f},{y + 17:.1f} {x - 9:.1f},{y + 9:.1f} "
                        f"{x - 3:.1f},{y + 6:.1f} {x + 3:.1f},{y + 9:.1f} {x + 9:.1f},"
                        f"{y + 6:.1f} {x + 9:.1f},{y + 17:.1f}",
                        fill="#8b1d1d",
                    )
        with d.group(class_="vp"):  # 11.13
            for item in self.board["vp"]:
                x, y = self.at(item["hex"])
                s = self.panel(item["hex"]).size
                cx, cy = x + s * 0.55, y - s * 0.45
                d.titled(
                    "circle",
                    f"{item['name']}: {item['vp']} VP (11.13)",
                    cx=cx,
                    cy=cy,
                    r=8,
                    fill="#ffd23f",
                    stroke="#8a1f11",
                    stroke_width=1.4,
                )
                _text(d, cx, cy + 3.5, item["vp"], 9, "#8a1f11", bold=True)
        with d.group(class_="occupied"):  # 5.47, 11.12
            for h in sorted(occupied):
                if h not in self.board["hexes"]:
                    raise ValueError(f"Soviet Occupied marker: {h} is not a hex of the maps")
                x, y = self.at(h)
                s = self.panel(h).size
                cx, cy = x - s * 0.55, y - s * 0.45
                d.titled(
                    "rect",
                    f"{h}: Soviet Occupied (5.47)",
                    x=cx - 7,
                    y=cy - 7,
                    width=14,
                    height=14,
                    fill="#c0392b",
                    stroke="#5b0f08",
                    stroke_width=1,
                )
                _text(d, cx, cy + 4, "★", 10, "#ffe14d")
        with d.group(class_="entry"):  # 9.16 ...: the entry hex codes, outside the edge
            op = self.op
            for code, hexes in self.board["entry"].items():
                for h in hexes:
                    c, r = split(_number(h))
                    x, y = self.at(h)
                    dx = -1 if r == op.r1 else 1 if r == op.r0 else 0
                    dy = -1 if c == op.c0 else 1 if c == op.c1 else 0
                    bx, by = x + dx * OP_SIZE * 1.55, y + dy * OP_SIZE * 1.35
                    w = 8 + 7 * len(code)
                    d.add(
                        "rect",
                        x=bx - w / 2,
                        y=by - 8,
                        width=w,
                        height=15,
                        rx=3,
                        fill="#ffe14d",
                        stroke="#333333",
                        stroke_width=1,
                    )
                    _text(d, bx, by + 4, code, 10, bold=True, data_entry=h)

    def inset(self, in_box: int) -> None:
        """The north-west corner where the published map prints the City Map: a note, and
        the North German Plain Box beside its red-arrow hexes (5.26, 9.23)."""
        d, op = self.d, self.op
        box = self.board["ngp_box"]
        arrows = [self.at(h) for h in box["red_arrows"]]
        right = min(p[0] for p in arrows) - OP_SIZE * 1.3
        x0 = op.x0 + 20
        note_y = op.y0 + 30
        _text(
            d,
            x0,
            note_y,
            "The published map prints the Berlin City Map in this corner (2.1):",
            11,
            "#555555",
            anchor=None,
        )
        _text(
            d,
            x0,
            note_y + 15,
            "here it is drawn at a larger scale to the right.",
            11,
            "#555555",
            anchor=None,
        )
        spaces = int(box.get("spaces", 8))
        per_row = 4
        cell_w, cell_h = CW + 10, CH + 16
        bw = per_row * cell_w + 16
        bx = right - bw
        rows = max(2, math.ceil(spaces / per_row), math.ceil(in_box / per_row))
        middle = sum(p[1] for p in arrows) / len(arrows)  # level with the arrows
        by = max(op.y0 + 60, middle - (34 + rows * cell_h) / 2)
        self.ngp_box = (bx, by, bw, per_row, cell_w, cell_h, spaces)
        self._ngp_frame(rows)
        with d.group(class_="red-arrows"):
            for h in box["red_arrows"]:
                x, y = self.at(h)
                ex = bx + bw + 4
                ey = min(max(y, by + 10), by + 30 + rows * cell_h)
                d.add(
                    "line",
                    x1=x - 8,
                    y1=y,
                    x2=ex,
                    y2=ey,
                    stroke="#d0201a",
                    stroke_width=3.5,
                    marker_end="url(#head-attack)",
                    data_arrow=h,
                )

    def _ngp_frame(self, rows: int) -> None:
        d = self.d
        bx, by, bw, per_row, cell_w, cell_h, spaces = self.ngp_box
        with d.group(class_="ngp-box"):
            d.add(
                "rect",
                x=bx,
                y=by,
                width=bw,
                height=34 + rows * cell_h,
                fill="#efe6cf",
                stroke="#5b4a2a",
                stroke_width=2,
                data_box="ngp",
            )
            _text(
                d, bx + bw / 2, by + 16, self.board["ngp_box"].get("name", "NGP"), 11.5, bold=True
            )
            _text(d, bx + bw / 2, by + 28, "(5.26, 9.23: no limit)", 9, "#555555")
            self.ngp_slots = []
            for i in range(rows * per_row):
                x = bx + 8 + (i % per_row) * cell_w + 5
                y = by + 36 + (i // per_row) * cell_h + 8
                if i < spaces:
                    d.add(
                        "rect",
                        x=x - 2,
                        y=y - 2,
                        width=CW + 4,
                        height=CH + 4,
                        fill="none",
                        stroke="#a08a5a",
                        stroke_dasharray="3 2",
                    )
                self.ngp_slots.append((x, y))

    def counters(self, by_hex: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        d = self.d
        with d.group(class_="counters"):
            for h in sorted(by_hex):
                here = by_hex[h]
                if h == "ngp":
                    self._ngp_counters(here)
                elif h in self.face_centre:  # a Transition Hex: its units on the City face
                    x, y = self.face_centre[h]
                    left = x - (len(here) * (CW + 3) - 3) / 2
                    for i, unit in enumerate(here):
                        _counter(
                            d, unit, self.data.get(unit["id"]), left + i * (CW + 3), y - CH / 2
                        )
                    ox, oy = self.at(h)
                    d.titled(
                        "circle",
                        f"{len(here)} unit(s): drawn on the City Map face of {h}",
                        cx=ox,
                        cy=oy,
                        r=9,
                        fill="#ffffff",
                        stroke=TRANSITION,
                        stroke_width=2,
                    )
                    _text(d, ox, oy + 4, len(here), 11, TRANSITION, bold=True, class_="count")
                elif h.startswith("city:"):
                    x, y = self.at(h)
                    shown = here[:2]
                    left = x - (len(shown) * (CW + 2) - 2) / 2
                    for i, unit in enumerate(shown):
                        _counter(
                            d, unit, self.data.get(unit["id"]), left + i * (CW + 2), y - CH / 2 + 4
                        )
                    if len(here) > 2:
                        self._count(x + CW, y - CH / 2, len(here), h)
                else:
                    x, y = self.at(h)
                    left, top = x - CW / 2, y - CH / 2 + 1
                    for i in range(min(len(here), 4) - 1, 0, -1):  # the edges below the top
                        d.add(
                            "rect",
                            x=left + 2.5 * i,
                            y=top - 2.5 * i,
                            width=CW,
                            height=CH,
                            rx=2.5,
                            fill=_face(here[i], self.data.get(here[i]["id"]))["colours"][0],
                            stroke="#111111",
                            stroke_width=0.7,
                            data_under=str(here[i]["id"]),
                        )
                    _counter(d, here[0], self.data.get(here[0]["id"]), left, top)
                    if len(here) > 1:
                        self._count(left + CW + 3, top + CH - 4, len(here), h)
                    for unit in here[1:]:  # every unit keeps its own (hidden) box
                        _counter_stub(d, unit, self.data.get(unit["id"]), left, top)

    def _count(self, x: float, y: float, n: int, h: str) -> None:
        self.d.add(
            "circle",
            cx=x,
            cy=y,
            r=7,
            fill="#ffffff",
            stroke="#111111",
            stroke_width=1,
            data_stack=h,
        )
        _text(self.d, x, y + 3.5, n, 9.5, bold=True, class_="count")

    def _ngp_counters(self, here: Sequence[Mapping[str, Any]]) -> None:
        for unit, (x, y) in zip(here, self.ngp_slots, strict=False):
            _counter(self.d, unit, self.data.get(unit["id"]), x, y)

    def labels(self) -> None:
        """Hex numbers (small) and place names, over the counters with a halo."""
        d = self.d
        with d.group(class_="hex-number", fill=NUMBER_INK, text_anchor="middle"):
            for h, info in sorted(self.board["hexes"].items()):
                x, y = self.at(h)
                s = self.panel(h).size
                d.text(x, y - s * 0.6, label(info["number"]), font_size=6 if s < 30 else 8)
            for t, (x, y) in sorted(self.face_centre.items()):
                _text(
                    d,
                    x,
                    y - CH / 2 - 8,
                    f"Transition Hex {t[3:]}",
                    11,
                    TRANSITION,
                    bold=True,
                    halo=True,
                )
        with d.group(class_="place"):
            for h, name in sorted(self.board["places"].items()):
                x, y = self.at(h)
                s = self.panel(h).size
                _text(
                    d,
                    x,
                    y + s * 0.92,
                    name,
                    9 if len(name) < 14 else 8,
                    "#1b1b1b",
                    bold=True,
                    halo=True,
                )

    def stack_lines(self, by_hex: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[str]:
        out = []
        for h in sorted(by_hex):
            here = by_hex[h]
            if h == "ngp" or len(here) < 2:
                continue
            names = ", ".join(_face(u, self.data.get(u["id"]))["label"] for u in here)
            out.append(f"{h}: {names}")
        return out

    def highlight(self, hl: Highlight) -> None:
        """Moves and attacks between hex ids as arrows; marks as tags. Unknown places are
        left out."""
        known = set(self.board["hexes"])
        for kind, pairs in (("move", hl.moves), ("attack", hl.attacks)):
            for a, b in pairs:
                if a in known and b in known and a != b and a[:3] == b[:3]:
                    (x1, y1), (x2, y2) = self.at(a), self.at(b)
                    self.d.arrow(x1, y1, x2, y2, kind=kind)
        for where, text in hl.marks:
            if where in known:
                x, y = self.at(where)
                _text(self.d, x, y - 16, text, 10, "#8a1f11", bold=True, class_="mark", halo=True)


def _counter_stub(
    d: Drawing, unit: Mapping[str, Any], data: Mapping[str, Any] | None, x: float, y: float
) -> None:
    """A unit under the top of a stack: its box is there for the tooltip and the count."""
    face = _face(unit, data)
    d.titled(
        "rect",
        _tooltip(unit, face),
        x=x,
        y=y,
        width=CW,
        height=CH,
        fill="none",
        class_="counter under",
        data_unit=str(unit["id"]),
        pointer_events="none",
    )


def _title(d: Drawing, turn: int | None, phase: str | None, support: object) -> None:
    _text(
        d,
        LEFT,
        30,
        "Götterdämmerung: the Fall of Berlin, April-May 1945",
        22,
        bold=True,
        anchor=None,
    )
    where = [f"Turn {turn} of 10" if turn else "Set-up"]
    if phase:
        where.append(f"phase: {phase}")
    if support is not None:
        where.append(f"Soviet support points: {support}")
    _text(d, LEFT, 52, ", ".join(where), 14, anchor=None, class_="status")
    _text(
        d,
        LEFT,
        70,
        "STAND-IN MAP: the geometry and terrain are invented for pbem "
        "(map.toml), not the published map; only the hexes the rulebook names are placed "
        "as it says.",
        12,
        "#8a1f11",
        bold=True,
        anchor=None,
    )


def _legend(d: Drawing, x: float, y: float, bottom: float, stacks: Sequence[str]) -> None:
    with d.group(class_="legend"):
        _text(d, x, y, "Legend", 14, bold=True, anchor=None)
        row = y + 16
        for name in (
            "clear",
            "forest",
            "marsh",
            "mountain",
            "small-city",
            "major-city",
            "built-up",
        ):
            d.add(
                "rect",
                x=x,
                y=row - 9,
                width=14,
                height=11,
                fill=TERRAIN_FILL[name],
                stroke="#888888",
            )
            _text(d, x + 20, row, name, 10, anchor=None)
            row += 14
        row2 = y + 16
        col = x + 120
        items: list[tuple[str, Mapping[str, object]]] = [
            ("major river (Oder, Spree, Elbe)", RIVER_STYLE["major-river"]),
            ("river", RIVER_STYLE["river"]),
            ("minor river / canal", RIVER_STYLE["minor-river"]),
            ("sea/lake hexside; City Spree (no crossing)", RIVER_STYLE["sea-lake"]),
            ("road", ROAD),
            ("railroad", {**RAIL, "stroke_width": 2}),
            ("U-Bahn line (12.1)", UBAHN),
            ("Front boundary (5.27)", FRONT),
            ("deployment area A-J (10.22)", AREA),
        ]
        for text, style in items:
            d.add("line", x1=col, y1=row2 - 4, x2=col + 26, y2=row2 - 4, **style)
            _text(d, col + 32, row2, text, 10, anchor=None)
            row2 += 14
        d.add(
            "polygon",
            points=f"{col},{row2 - 10} {col + 26},{row2 - 10} {col + 26},{row2 + 2} "
            f"{col},{row2 + 2}",
            fill="none",
            stroke=TRANSITION,
            stroke_width=3,
        )
        _text(d, col + 32, row2, "Transition Hex: ONE hex, on both maps (4.15)", 10, anchor=None)
        row2 += 14
        for text in (
            "yellow disc: VP hex and its VP (11.13); red square: Soviet Occupied (5.47)",
            "grey disc on the Spree: a bridge (5.36); dashed brown hexagon: fortified (6.43)",
            "yellow tags at the edge: entry hex codes; red arrows: into the NGP Box (5.26)",
        ):
            _text(d, col, row2, text, 10, anchor=None)
            row2 += 14
        row = max(row, row2) + 8
        _text(
            d,
            x,
            row,
            "Counters: short name, attack-defence-movement; Soviet red, Polish "
            "white, American green, German grey, Volkssturm khaki.",
            10,
            anchor=None,
        )
        _text(
            d,
            x,
            row + 14,
            "White corner: reduced side (6.52). Tags: D disrupted (6.66), OS "
            "out of supply (8.11), n? = n Delay markers (6.82, values unknown).",
            10,
            anchor=None,
        )
        _text(
            d,
            x,
            row + 28,
            "VS ? = a face-down Volkssturm (8.45). A number beside a counter: "
            "units in the stack (hover for each).",
            10,
            anchor=None,
        )
        row += 50
        if stacks:
            _text(d, x, row, "Stacks", 12, bold=True, anchor=None)
            row += 14
            per_col = max(1, int((bottom - row) // 12))
            width = 330
            for i, line in enumerate(stacks):
                cx = x + (i // per_col) * width
                if cx > x + 3 * width:
                    _text(d, cx - width, row + per_col * 12, "...", 9, anchor=None)
                    break
                _text(
                    d, cx, row + (i % per_col) * 12, line[:60], 9, anchor=None, class_="stack-entry"
                )


# --- the render registry's entry (pbem/render/maps.py) ------------------------------------------


def board_svg(
    view: Mapping[str, Any],
    *,
    role: str | None = None,
    highlight: Highlight | None = None,
    scale: float = 1.0,
    layout: bytes | None = None,
) -> str:
    """The maps as `view` shows them (what a role may know is already all the view holds:
    Delay values and face-down Volkssturm are never in a unit dict). `layout` is accepted
    for the registry's sake: the hexes are placed by their grids."""
    del role
    if layout is not None:
        raise PbemError("gotterdammerung draws its maps from their grids: it takes no layout")
    return draw_board(
        view["board"],
        view["counters"],
        view["units"],
        occupied=view.get("occupied") or (),
        turn=view.get("turn"),
        phase=view.get("phase"),
        support_points=view.get("support_points"),
        highlight=highlight,
        scale=scale,
    )


def highlight_of(game: Adjudicator) -> Highlight:
    """What the turn being played did (highlight.py reads it from the public actions)."""
    return last_turn(game.actions)
