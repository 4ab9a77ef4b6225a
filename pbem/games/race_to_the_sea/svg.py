"""The Race to the Sea 1914 hex map as SVG: the stand-in map of `data/map.toml` with the
counters a view shows.

`draw_board(board, counters, viewer, highlight)` draws every hex filled by its elevation
(2.1.11: Low light tan, Elevated medium brown, High dark brown), the Channel and flooded
hexes as water (2.1.8, 4.1.5), forests, towns (grey circle), cities (blue box) and major
cities (red circle) as the rulebook describes their symbols (2.1.2, 2.1.5-2.1.7), the two
entrenchments (2.1.9), railroad track between the centres of the hexes a line joins
(2.1.3 A: connected only where the graphics connect), rivers along hexsides (2.1.4), the
Historic Trench Line (14.1 A, red dots), the hexes behind enemy lines with white outlined
hexsides (14.4), the three "A" hexes (2.1.10), the South Entry (15.5.2 C), place names and
hex numbers; then the counters, the last turn's arrows and marks, a legend and a title
block. The rulebook prints no map: the title block and the legend say the map is a stand-in.

Counters are plain dicts (what an engine view will give): `label` (the public name of the
counter), `hex`, `side`, `nationality`, `face` ("hidden", "deployed", "scouting"), `unit`
(name and ratings) and `markers`. A hidden counter is drawn from its label, side and
nationality alone: its `unit` and `markers` are never read (3.3.1: the hidden side shows
only a national flag; 10.4 A keeps casualties markers secret under it), so a view that
leaked them still could not show them. The function is pure: the same arguments give the
same bytes, and nothing is read but the shipped map (through map_data) when no board is
given.

`board_svg(view, *, role, highlight, scale, layout)` is the render registry's entry
(pbem/render/maps.py): it turns an engine view into those counters (`counters_of`) and
`highlight_of(game)` reads the last turn from the public actions (highlight.py). A
counter is drawn face up when its unit is public; a hidden one of the viewer's own side
whose identity the view holds (its owner's `view_known`) is drawn with its unit and a
dashed "hidden" border; any other hidden counter from its public face alone.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError
from pbem.games.race_to_the_sea import hits, map_data
from pbem.games.race_to_the_sea import state as rs
from pbem.games.race_to_the_sea.highlight import last_turn
from pbem.maps.board import BoardSvg, MapAsk
from pbem.maps.hexes import HexGrid, label
from pbem.maps.svg import Drawing, Highlight

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator

__all__ = ["STAND_IN_NOTICE", "board_svg", "counters_of", "draw_board", "highlight_of"]

STAND_IN_NOTICE = (
    "stand-in map: positions are chosen for pbem; the rulebook does not reproduce the board"
)
SIZE = 44.0  # centre to corner of a hex
HALF = SIZE * math.sqrt(3) / 2  # centre to the middle of a hexside
MARGIN_X, TOP = 20.0, 78.0  # where the grid's top-left corner sits
BELOW = 56.0  # under the grid: room for the South Entry arrow
PANEL_W = 330.0  # the legend beside the map
CW, CH = 34.0, 34.0  # a counter
SHOWN = 2  # counters drawn side by side in a hex; more become a "+N" stack tile

ELEVATION_FILL = {"low": "#efe2c0", "elevated": "#c49a5e", "high": "#7f5631"}  # 2.1.11 B
NUMBER_INK = {"low": "#7a6d55", "elevated": "#4d3a22", "high": "#f3e6cc"}
WATER = "#9ec9e8"  # 2.1.8 A
WATER_INK = "#4f86b3"
RIVER = "#1f6fc4"
TRENCH = "#d01c1c"
RAIL = "#2b2b2b"
TOWN, CITY, MAJOR = "#8e8e8e", "#2a5db0", "#c8261e"  # 2.1.5-2.1.7
FOREST = "#3f7a36"
ENTRENCHMENT = "#8a7a66"
# 3.0 A: French blue, British khaki, Belgian orange, German grey
NATION_FILL = {"french": "#3566b8", "british": "#c9b27c", "belgian": "#f09a2a", "german": "#7b7f83"}
NATION_INK = {"french": "#ffffff", "british": "#1d1d1d", "belgian": "#1d1d1d", "german": "#ffffff"}
NATION_CODE = {"french": "FR", "british": "GB", "belgian": "BE", "german": "DE"}
SIDE_FILL = {"allies": "#3566b8", "germans": "#7b7f83"}
SIDE_NAME = {"allies": "the Allies", "germans": "the Germans"}
# "own-hidden": hidden from the enemy, drawn with its unit for its owner only (board_svg)
FACES = ("hidden", "deployed", "scouting", "own-hidden")
SHORTER = (
    (" Territorial Divisions", " Terr"),
    (" Territorial Division", " Terr"),
    (" Reserve Corps", " Res"),
    (" Cavalry Corps", " Cav"),
    (" Cavalry Division", " Cav"),
    (" Corps", ""),
    ("Bavarian", "Bav"),
    ("Reserve", "Res"),
    ("Cavalry", "Cav"),
    (" Division", " Div"),
)
HALO = {
    "stroke": "#fffdf6",
    "stroke_width": 2.6,
    "paint_order": "stroke",
    "stroke_linejoin": "round",
}


# --- the public face of a counter ---------------------------------------------------------------


def _public(counter: Mapping[str, Any], grid: HexGrid) -> dict[str, Any]:
    """What may be drawn of a counter. For a hidden one only its label, hex, side and
    nationality are read: never its unit or markers (3.3.1)."""
    name = str(counter.get("label", ""))
    face = counter.get("face")
    if face not in FACES:
        raise ValueError(
            f"counter {name}: face is hidden, deployed or scouting (or own-hidden), not {face}"
        )
    where = counter.get("hex")
    h = int(where) if isinstance(where, int | str) and str(where).isdigit() else None
    if h is None or h not in grid:
        raise ValueError(f"counter {name}: hex {where} is not on the map")
    out: dict[str, Any] = {
        "label": name,
        "hex": h,
        "side": str(counter.get("side", "")),
        "nationality": str(counter.get("nationality", "")),
        "face": face,
    }
    if face != "hidden":
        out["unit"] = counter.get("unit")
        out["markers"] = [str(m) for m in counter.get("markers") or ()]
    out["activated"] = bool(counter.get("activated"))  # 7.6: public
    return out


def _fill(c: Mapping[str, Any]) -> tuple[str, str]:
    nation = c["nationality"]
    if nation in NATION_FILL:
        return NATION_FILL[nation], NATION_INK[nation]
    return SIDE_FILL.get(c["side"], "#bbbbbb"), "#ffffff"


def _short(name: str) -> str:
    for long, short in SHORTER:
        name = name.replace(long, short)
    return name.strip()


def _ratings(unit: Mapping[str, Any]) -> str:
    return f"{unit.get('rf', '?')}-{unit.get('mg', '?')}-{unit.get('art', '?')}"


def _describe(c: Mapping[str, Any]) -> str:
    """A counter in words, for tooltips and the stacks list (public facts only)."""
    nation = c["nationality"].capitalize() or "?"
    if c["face"] == "hidden":
        return f"{c['label']}: {nation}, hidden"
    unit = c.get("unit") or {}
    if unit.get("kind") == "false-report":
        return f"{c['label']}: {nation} False Report (hidden: only you see this)"
    special = f" {unit['special']}" if unit.get("special") else ""
    face = "hidden: only you see this" if c["face"] == "own-hidden" else c["face"]
    text = (
        f"{c['label']}: {nation} {unit.get('name', '?')} ({face}), SZ {unit.get('sz', '?')}"
        f" MET {unit.get('met', '?')} RF-MG-ART {_ratings(unit)}{special}"
    )
    if c.get("markers"):
        text += "; markers: " + ", ".join(c["markers"])
    return text


# --- the picture ---------------------------------------------------------------------------------

Point = tuple[float, float]
RED = "#c0392b"
RIVER_LINE = {"stroke": RIVER, "stroke_width": 4, "stroke_linecap": "round"}
TRENCH_LINE = {
    "stroke": TRENCH,
    "stroke_width": 3.6,
    "stroke_dasharray": "0.1 6.5",  # round caps on near-empty dashes: dots
    "stroke_linecap": "round",
}
RAIL_LINE = {"stroke": RAIL, "stroke_width": 2.2, "stroke_linecap": "round"}
RAIL_TIES = {"stroke": RAIL, "stroke_width": 7, "stroke_dasharray": "1.4 5"}
GRID_LINE = {"stroke": "#a89a7c", "stroke_width": 0.7}


def _line(d: Drawing, p: Point, q: Point, **style: object) -> None:
    d.add("line", x1=p[0], y1=p[1], x2=q[0], y2=q[1], **style)


def draw_board(
    board: Mapping[str, Any] | None = None,
    counters: Iterable[Mapping[str, Any]] = (),
    viewer: str | None = None,
    highlight: Highlight | None = None,
    *,
    flooded: Iterable[int] = (),
    scale: float = 1.0,
    status: Sequence[str] = (),
) -> str:
    """The map `board` (loaded by map_data; None: the shipped stand-in) with `counters`
    as `viewer` ("allies", "germans", None for the public) sees them, the last turn's
    `highlight` (places are hex numbers such as "0906" or place names) and the `flooded`
    hexes (9.8, drawn as water with the Flooded marker's blue F, 4.1.5)."""
    data = map_data.default_map() if board is None else board
    if viewer is not None and viewer not in SIDE_NAME:
        raise ValueError(f"viewer is allies, germans or None, not {viewer}")
    grid = map_data.grid(data)
    pieces = [_public(c, grid) for c in counters]
    wet = {int(h) for h in flooded}
    off = [h for h in sorted(wet) if h not in grid]
    if off:
        raise ValueError(f"flooded hex {off[0]} is not on the map")
    by_hex: dict[int, list[dict[str, Any]]] = {}
    for c in pieces:
        by_hex.setdefault(c["hex"], []).append(c)
    stacks = [(h, by_hex[h]) for h in grid if len(by_hex.get(h, ())) > SHOWN]
    listed = _stack_lines(stacks)

    map_w, map_h = grid.extent(SIZE)
    panel_h = max(map_h, LEGEND_H + 14 * len(listed))
    width = MARGIN_X + map_w + 24 + PANEL_W
    height = TOP + max(map_h + BELOW, panel_h + 20)
    who = "the public view" if viewer is None else f"as {SIDE_NAME[viewer]} see it"
    d = Drawing(width, height, title=f"Race to the Sea 1914: the map, {who}", scale=scale)
    d.add("rect", x=0, y=0, width=width, height=height, fill="#fbfaf5")
    pen = _Pen(d, data, grid)
    pen.hexes(wet)
    pen.behind_lines()
    pen.railroads()
    pen.rivers()
    pen.trench_line()
    pen.symbols(wet, set(by_hex))
    pen.south_entry(map_h)
    pen.counters(by_hex)
    if highlight is not None:
        pen.highlight(highlight)
    _title_block(d, data, viewer)
    for i, line in enumerate(status):  # where play stands, above the legend
        d.label(MARGIN_X + map_w + 24, 26 + 18 * i, line, 13 if i else 15, bold=not i,
                class_="status")  # fmt: skip
    with d.group(class_="legend"):
        _legend(d, MARGIN_X + map_w + 24, TOP, panel_h, listed)
    return d.to_string()


class _Pen:
    """Draws the layers of the map in order, each from the map data."""

    def __init__(self, d: Drawing, data: Mapping[str, Any], grid: HexGrid) -> None:
        self.d, self.data, self.grid = d, data, grid

    def at(self, h: int) -> Point:
        x, y = self.grid.center(h, SIZE)
        return MARGIN_X + x, TOP + y

    def points(self, h: int, shrink: float = 1.0) -> str:
        cx, cy = self.at(h)
        out = []
        for x, y in self.grid.corners(h, SIZE):
            px, py = MARGIN_X + x, TOP + y
            out.append(f"{cx + (px - cx) * shrink:.1f},{cy + (py - cy) * shrink:.1f}")
        return " ".join(out)

    def info(self, h: int) -> Mapping[str, Any]:
        info: Mapping[str, Any] = self.data["hexes"][label(h)]
        return info

    # --- layers

    def hexes(self, wet: set[int]) -> None:
        d = self.d
        with d.group(class_="hexes", **GRID_LINE):
            for h in self.grid:
                info = self.info(h)
                fill = _hex_fill(info, h in wet)[0]
                words = _hex_words(info, h in wet)
                d.titled("polygon", words, points=self.points(h), fill=fill, data_hex=label(h))
        # forests: three trees spread over the hex, so counters still leave them visible
        with d.group(class_="forest", fill=FOREST, stroke="#23501e", stroke_width=0.6):
            for h in self.grid:
                if self.info(h)["terrain"] == "forest" and h not in wet:
                    x, y = self.at(h)
                    for dx, dy in ((-19, -6), (19, -6), (0, 17)):
                        _tree(d, x + dx, y + dy)

    def behind_lines(self) -> None:
        """14.4: white outlined hexsides, drawn a little inside the hex so that the
        trench line and rivers on the same hexsides stay visible; a thin dark edge keeps
        the white visible on light tan."""
        with self.d.group(class_="behind-lines", fill="none", stroke_linejoin="round"):
            for side in ("allies", "germans"):
                for h in self.data["behind_enemy_lines"][side]:
                    shape = self.points(h, 0.9)
                    self.d.add("polygon", points=shape, stroke="#8d7d5f", stroke_width=3.8)
                    self.d.add(
                        "polygon", points=shape, stroke="#ffffff", stroke_width=2.2, data_side=side
                    )

    def railroads(self) -> None:
        """2.1.3 A: track from centre to centre of the hexes a line joins, with ties."""
        with self.d.group(class_="railroads", fill="none"):
            for a, b in self.data["rail_links"]:
                _line(self.d, self.at(a), self.at(b), **RAIL_LINE)
                _line(self.d, self.at(a), self.at(b), **RAIL_TIES)

    def _sides(self, pairs: Iterable[Sequence[int]], style: Mapping[str, object]) -> None:
        for a, b in pairs:
            (x1, y1), (x2, y2) = self.grid.hexside_line(a, b, SIZE)
            _line(self.d, (MARGIN_X + x1, TOP + y1), (MARGIN_X + x2, TOP + y2), **style)

    def rivers(self) -> None:
        for river in self.data["rivers"]:
            with self.d.group(class_="river", data_name=river["name"]):
                self._sides(river["hexsides"], RIVER_LINE)

    def trench_line(self) -> None:
        with self.d.group(class_="trench-line"):
            self._sides(self.data["trench_line"], TRENCH_LINE)

    def symbols(self, wet: set[int], occupied: set[int]) -> None:
        """Settlement symbols, entrenchments, the A hexes, names and hex numbers. A hex
        with counters keeps its settlement symbol, small, beside the hex number."""
        d = self.d
        antwerp = set(self.data["antwerp"])
        trenches = {h: side for side, h in self.data["entrenchments"].items()}
        for h in self.grid:
            info = self.info(h)
            x, y = self.at(h)
            kind = info["terrain"]
            if kind in map_data.SETTLEMENTS:
                if h in occupied:
                    _settlement(d, kind, x - 17, y - HALF + 7, 0.6)
                else:
                    _settlement(d, kind, x, y - 2)
            if kind == "entrenchment":
                _entrenchment(d, x, y - 4, trenches.get(h, ""))
            if h in wet:  # 4.1.5: the Flooded marker, a blue F
                d.add(
                    "rect", x=x + 14, y=y - HALF + 2, width=13, height=13, fill="#ffffff",
                    stroke=WATER_INK, stroke_width=1,
                )  # fmt: skip
                d.label(x + 20.5, y - HALF + 12.5, "F", 11, RIVER, bold=True, anchor="middle")
            if h in antwerp:
                d.label(x + 20, y + 5, "A", 17, "#6b1010", bold=True, anchor="middle",
                        class_="antwerp", **HALO)  # fmt: skip
            # a halo of the hex's own colour keeps the number legible over railroad track
            fill, ink = _hex_fill(info, h in wet)
            d.label(x, y - HALF + 10, label(h), 7.5, ink, anchor="middle", class_="hex-number",
                    stroke=fill, stroke_width=2.5, paint_order="stroke")  # fmt: skip
            name = info.get("name")
            if name:
                size = 9.5 if len(name) <= 9 else 8.5
                d.label(x, y + HALF - 5, name, size, "#1b1b1b", bold=True, anchor="middle",
                        class_="place", **HALO)  # fmt: skip
        if any(self.info(h)["terrain"] == "water" for h in self.grid):
            x, y = self.at(self.grid.hexes[0])
            d.label(x + 150, y + 34, "English Channel", 17, "#2c5d8a", anchor="middle",
                    font_style="italic", letter_spacing=2)  # fmt: skip

    def south_entry(self, map_h: float) -> None:
        """15.5.2 C: a red arrow into the South Entry hex from the map edge."""
        h = self.data.get("south_entry")
        if h is None:
            return
        x, y = self.at(h)
        bottom = TOP + map_h
        _line(self.d, (x, bottom + 40), (x, y + HALF * 0.35), stroke=RED, stroke_width=4,
              marker_end="url(#head-attack)", class_="south-entry")  # fmt: skip
        self.d.label(x + 10, bottom + 34, map_data.SOUTH_ENTRY, 11, RED, bold=True)

    def counters(self, by_hex: Mapping[int, Sequence[Mapping[str, Any]]]) -> None:
        """Up to two counters side by side in a hex; from three on, the second place shows
        a stack tile "+N" and the legend lists the whole stack."""
        for h in self.grid:
            here = by_hex.get(h)
            if not here:
                continue
            x, y = self.at(h)
            shown = here if len(here) <= SHOWN else here[:1]
            count = len(shown) + (1 if len(here) > SHOWN else 0)
            left = x - (count * CW + (count - 1) * 2) / 2
            top = y - CH / 2 + 1
            for i, c in enumerate(shown):
                _counter(self.d, c, left + i * (CW + 2), top)
            if len(here) > SHOWN:
                _stack_tile(self.d, here[1:], left + CW + 2, top, h)

    def _place(self, name: str) -> int | None:
        if name.isdigit() and int(name) in self.grid:
            return int(name)
        try:
            return map_data.hex_of(self.data, name)
        except KeyError:
            return None

    def highlight(self, hl: Highlight) -> None:
        """Moves and attacks as arrows between hex centres; marks as tags over the hex
        number, clear of the counters. Unknown places are left out."""
        for kind, pairs in (("move", hl.moves), ("attack", hl.attacks)):
            for a, b in pairs:
                ha, hb = self._place(a), self._place(b)
                if ha is None or hb is None or ha == hb:
                    continue
                (x1, y1), (x2, y2) = self.at(ha), self.at(hb)
                dist = math.hypot(x2 - x1, y2 - y1)
                ux, uy = (x2 - x1) / dist, (y2 - y1) / dist
                self.d.arrow(x1 + ux * 10, y1 + uy * 10, x2 - ux * 14, y2 - uy * 14, kind=kind)
        done: dict[int, int] = {}
        for place, text in hl.marks:
            h = self._place(place)
            if h is None:
                continue
            x, y = self.at(h)
            top = y - HALF + 1 + 15 * done.get(h, 0)
            done[h] = done.get(h, 0) + 1
            width = 8 + 5.6 * len(text)
            self.d.add("rect", x=x - width / 2, y=top, width=width, height=14, rx=3,
                       fill="#fff3a8", stroke="#b8860b", stroke_width=1, class_="mark")  # fmt: skip
            self.d.label(x, top + 10.5, text, 10, anchor="middle")


def _hex_fill(info: Mapping[str, Any], wet: bool) -> tuple[str, str]:
    """A hex's fill (2.1.11 B by elevation; water; entrenchment) and its number's ink."""
    if info["terrain"] == "water" or wet:
        return WATER, WATER_INK
    if info["terrain"] == "entrenchment":
        return ENTRENCHMENT, "#efe6d6"
    return ELEVATION_FILL[info["elevation"]], NUMBER_INK[info["elevation"]]


def _hex_words(info: Mapping[str, Any], wet: bool) -> str:
    name = f" {info['name']}," if info.get("name") else ""
    kind = "flooded (water)" if wet else info["terrain"]
    return f"{label(info['hex'])}{name} {kind}, {info['elevation']}"


def _tree(d: Drawing, x: float, y: float) -> None:
    d.add("path", d=f"M{x:.1f},{y - 6:.1f} L{x + 4.5:.1f},{y + 2:.1f} L{x - 4.5:.1f},{y + 2:.1f} Z")
    _line(d, (x, y + 2), (x, y + 4.5), stroke="#23501e", stroke_width=1.2)


def _settlement(d: Drawing, kind: str, x: float, y: float, k: float = 1.0) -> None:
    """2.1.5 town: grey circle; 2.1.6 city: blue box; 2.1.7 major city: red circle."""
    if kind == "town":
        d.add("circle", cx=x, cy=y, r=6 * k, fill=TOWN, stroke="#3d3d3d", stroke_width=1)
    elif kind == "city":
        d.square(x, y, 13 * k, fill=CITY, stroke="#14305e", stroke_width=1)
    else:
        d.add("circle", cx=x, cy=y, r=8.5 * k, fill=MAJOR, stroke="#5e0f0a", stroke_width=1.2)
        d.add("circle", cx=x, cy=y, r=3 * k, fill="#ffffff")


def _zigzag(d: Drawing, x: float, y: float, step: float, height: float, width: float) -> None:
    zig = " ".join(
        f"{x - 3 * step + step * i:.1f},{y + (height if i % 2 else -height):.1f}" for i in range(7)
    )
    d.add("polyline", points=zig, fill="none", stroke="#1d1d1d", stroke_width=width)


def _entrenchment(d: Drawing, x: float, y: float, side: str) -> None:
    """2.1.9: the north ends of the Allied (west) and German (east) trench lines."""
    _zigzag(d, x, y, 6, 4, 2.2)
    words = {"allies": "Allied", "germans": "German"}.get(side, "")
    if words:
        d.label(x, y + 17, words, 8.5, "#ffffff", bold=True, anchor="middle")


def _counter(d: Drawing, c: Mapping[str, Any], x: float, y: float) -> None:
    """A hidden counter: its colour, label and nationality (3.3.1). A deployed or scouting
    one as the printed counter reads (3.2): size boxes at the top, the unit, MET left and
    special artillery right, RF-MG-ART at the bottom; a red dot for its markers."""
    fill, ink = _fill(c)
    edge: dict[str, object] = {"stroke": "#111111"}
    if c["face"] == "scouting":
        edge = {"stroke": "#e8c341", "stroke_width": 2}
    elif c["face"] == "own-hidden":  # its owner's eyes only: a dashed border says hidden
        edge = {"stroke": "#111111", "stroke_width": 1.6, "stroke_dasharray": "3 2"}
    with d.group(class_=f"counter {c['face']}", data_label=c["label"]):
        d.titled("rect", _describe(c), x=x, y=y, width=CW, height=CH, rx=2.5, fill=fill,
                 **{"stroke_width": 0.9, **edge})  # fmt: skip
        cx = x + CW / 2
        unit = c.get("unit") or {}
        if c["face"] == "hidden" or unit.get("kind") == "false-report":
            d.label(cx, y + 15, c["label"], 10, ink, bold=True, anchor="middle")
            code = NATION_CODE.get(c["nationality"], "")
            if c["face"] == "own-hidden":  # the owner's own False Report
                code = "FALSE"
            d.label(cx, y + 27, code, 7.5, ink, anchor="middle")
            _activated(d, c, x, y)
            return
        sz = unit["sz"] if isinstance(unit.get("sz"), int) else 0
        for i in range(4):  # 3.2.1: the shaded boxes at the top of the counter
            d.add("rect", x=x + 2.5 + 4.6 * i, y=y + 2.5, width=3.6, height=3.6,
                  fill=ink if i < sz else "none", stroke=ink, stroke_width=0.6)  # fmt: skip
        d.label(x + CW - 2, y + 7.5, c["label"], 6.5, ink, anchor="end")
        name = _short(str(unit.get("name", "?")))
        fit = {"textLength": CW - 4, "lengthAdjust": "spacingAndGlyphs"} if len(name) > 6 else {}
        d.label(cx, y + 16, name, 8, ink, bold=True, anchor="middle", **fit)
        d.label(x + 3, y + 24.5, unit.get("met", "?"), 8, ink, bold=True)  # 3.2.2
        if unit.get("special"):  # 3.2.3
            d.label(x + CW - 3, y + 24.5, unit["special"], 6.5, ink, anchor="end")
        d.label(cx, y + 32, _ratings(unit), 8, ink, bold=True, anchor="middle")
        if c.get("markers"):
            d.titled("circle", "markers: " + ", ".join(c["markers"]), cx=x + CW - 1,
                     cy=y + CH - 1, r=3.5, fill=TRENCH, stroke="#ffffff",
                     stroke_width=0.8)  # fmt: skip
        _activated(d, c, x, y)


def _activated(d: Drawing, c: Mapping[str, Any], x: float, y: float) -> None:
    """7.6: the Activated marker, a black corner tab with a white tick."""
    if not c.get("activated"):
        return
    with d.group(class_="activated"):
        d.titled("path", f"{c['label']} is activated this round (7.6)",
                 d=f"M{x - 3:.1f},{y - 3:.1f} h13 l-13,13 Z", fill="#111111",
                 stroke="#ffffff", stroke_width=0.8)  # fmt: skip


def _stack_tile(d: Drawing, rest: Sequence[Mapping[str, Any]], x: float, y: float, h: int) -> None:
    """The counters beyond the first: their colours as stripes, "+N", and a tooltip; the
    legend lists them in full."""
    words = "; ".join(_describe(c) for c in rest)
    with d.group(class_="stack", data_hex=label(h)):
        d.titled("rect", words, x=x, y=y, width=CW, height=CH, rx=2.5, fill="#f6f1e4",
                 stroke="#111111", stroke_width=0.9)  # fmt: skip
        band = (CW - 4) / len(rest)
        for i, c in enumerate(rest):
            d.add("rect", x=x + 2 + i * band, y=y + 2, width=band, height=7, fill=_fill(c)[0])
        d.label(x + CW / 2, y + 24, f"+{len(rest)}", 11, bold=True, anchor="middle")


# --- title block and legend ---------------------------------------------------------------------

LEGEND_H = 762.0  # the legend without the stacks list
STAND_IN_LINES = (
    "the rulebook describes the terrain (2.0)",
    "but prints no map; every hex is placed",
    "for pbem (data/map.toml, provenance).",
)


def _title_block(d: Drawing, data: Mapping[str, Any], viewer: str | None) -> None:
    who = "public view" if viewer is None else f"as {SIDE_NAME[viewer]} see it"
    d.label(MARGIN_X, 28, f"Race to the Sea 1914 ({who})", 20, bold=True)
    d.label(MARGIN_X, 50, STAND_IN_NOTICE, 13, "#8a1f11", font_style="italic", class_="stand-in")
    grid_words = f"{data['columns']} x {data['rows']} hexes, north at the top"
    d.label(MARGIN_X, 67, f"{grid_words}; hex numbers XXYY (column, row)", 11, "#555555")


def _stack_lines(stacks: Sequence[tuple[int, Sequence[Mapping[str, Any]]]]) -> list[str]:
    """The stacks of three or more, as lines: a hex number, then its counters (wrapped,
    continuation lines indented)."""
    lines: list[str] = []
    for h, here in stacks:
        lines.append(label(h))
        for c in here:
            wrapped = textwrap.wrap(_describe(c), 56)
            lines += ["  " + wrapped[0], *("    " + more for more in wrapped[1:])]
    return lines


def _legend(d: Drawing, x: float, y: float, height: float, stacks: Sequence[str]) -> None:
    d.add("rect", x=x - 8, y=y - 4, width=PANEL_W - 6, height=height + 8, fill="#ffffff",
          stroke="#bbbbbb", stroke_width=1)  # fmt: skip
    d.label(x, y + 16, "Legend", 15, bold=True)
    row = y + 36

    def entry(text: str) -> None:
        nonlocal row
        d.label(x + 46, row + 4, text, 11)
        row += 22

    def swatch(fill: str, **style: object) -> None:
        d.add("rect", x=x, y=row - 8, width=34, height=16, fill=fill, **{**GRID_LINE, **style})

    for level, words in (("low", "Low"), ("elevated", "Elevated"), ("high", "High")):
        swatch(ELEVATION_FILL[level])
        entry(f"Elevation: {words} (2.1.11)")
    swatch(WATER)
    entry("Water: the Channel (2.1.8), prohibited")
    swatch(WATER)
    d.label(x + 17, row + 4, "F", 11, RIVER, bold=True, anchor="middle")
    entry("Flooded hex (9.8, 4.1.5): water")
    swatch(ENTRENCHMENT)
    _zigzag(d, x + 17, row, 4, 3, 1.8)
    entry("Entrenchment (2.1.9), prohibited")
    swatch(ELEVATION_FILL["low"])
    with d.group(fill=FOREST, stroke="#23501e", stroke_width=0.6):
        _tree(d, x + 10, row + 2)
        _tree(d, x + 24, row + 2)
    entry("Forest (2.1.2): difficult, Light cover")
    for kind, words in (("town", "Town (2.1.5): Light"), ("city", "City (2.1.6): Medium")):
        _settlement(d, kind, x + 17, row)
        entry(f"{words} cover")
    _settlement(d, "major city", x + 17, row)
    entry("Major city (2.1.7): Heavy cover")
    for style in (RAIL_LINE, RAIL_TIES):
        _line(d, (x, row), (x + 34, row), **style)
    entry("Railroad (2.1.3): linked where drawn")
    _line(d, (x, row), (x + 34, row), **RIVER_LINE)
    entry("River hexside (2.1.4)")
    _line(d, (x, row), (x + 34, row), **TRENCH_LINE)
    entry("Historic Trench Line (14.1 A)")
    swatch(ELEVATION_FILL["low"], stroke="#ffffff", stroke_width=2.4)
    d.add("rect", x=x - 1.5, y=row - 9.5, width=37, height=19, fill="none", **GRID_LINE)
    entry("Behind enemy lines (14.4): 2 VP")
    d.label(x + 17, row + 6, "A", 17, "#6b1010", bold=True, anchor="middle")
    entry("Siege of Antwerp zone (2.1.10)")
    _line(d, (x + 2, row), (x + 30, row), stroke=RED, stroke_width=2.5,
          marker_end="url(#head-attack)")  # fmt: skip
    entry("South Entry (15.5.2 C)")

    row += 6
    d.label(x, row, "Counters (3.0 A colours)", 12.5, bold=True)
    row += 12
    for i, nation in enumerate(NATION_FILL):
        cx = x + i * (CW + 40)
        _counter(d, {"label": "c01", "nationality": nation, "side": "", "face": "hidden"}, cx, row)
        d.label(cx + CW + 3, row + 19, nation.capitalize(), 8.5)
    row += CH + 16
    d.label(x, row, "hidden: label and nationality only (3.3.1)", 10.5)
    row += 12
    unit = {"name": "IV Corps", "sz": 3, "met": "B", "rf": 2, "mg": 3, "art": 2, "special": "SQ"}
    sample = {"label": "c07", "nationality": "french", "side": "allies", "face": "deployed"}
    _counter(d, {**sample, "unit": unit, "markers": ["light casualties"]}, x, row)
    lines = (
        "deployed: size boxes (SZ), label,",
        "unit, MET and special (SQ/HA),",
        "RF-MG-ART; red dot: markers",
    )
    for i, line in enumerate(lines):
        d.label(x + CW + 8, row + 9 + 11 * i, line, 10)
    row += CH + 8
    cavalry = {"name": "I Cav", "sz": 2, "met": "A", "rf": 2, "mg": 2, "art": 1}
    scout = {"label": "c12", "nationality": "german", "side": "germans", "face": "scouting"}
    _counter(d, {**scout, "unit": cavalry}, x, row)
    d.label(x + CW + 8, row + 19, "scouting cavalry: gold border (3.3.2)", 10)
    row += CH + 8
    mine = {"label": "c03", "nationality": "german", "side": "germans", "face": "own-hidden"}
    _counter(d, {**mine, "unit": {**unit, "met": "C"}, "activated": True}, x, row)
    d.label(x + CW + 8, row + 13, "dashed: your own hidden unit (only you", 10)
    d.label(x + CW + 8, row + 25, "see it); black corner: activated (7.6)", 10)
    row += CH + 8
    d.add("rect", x=x, y=row, width=CW, height=CH, rx=2.5, fill="#f6f1e4", stroke="#111111",
          stroke_width=0.9)  # fmt: skip
    d.label(x + CW / 2, row + 23, "+2", 11, bold=True, anchor="middle")
    d.label(x + CW + 8, row + 19, "more counters in the hex: listed below", 10)
    row += CH + 20

    if stacks:
        d.label(x, row, "Stacks of three or more", 12.5, bold=True)
        row += 16
        for line in stacks:
            if line[0] != " ":
                d.label(x, row + 2, line, 10.5, bold=True)
            else:
                indent = len(line) - len(line.lstrip())
                d.label(x + 4 * indent, row, line.strip(), 9.5, class_="stack-entry")
            row += 14
        row += 8
    d.label(x, row, "Stand-in map, not the published board:", 11, "#8a1f11", bold=True)
    for i, line in enumerate(STAND_IN_LINES):
        d.label(x, row + 14 * (i + 1), line, 10.5, "#8a1f11")


# --- the render registry's entry (pbem/render/maps.py) ------------------------------------------


def _map(view: Mapping[str, Any], ask: MapAsk) -> str:
    """The map as `ask.role` (None: the public) sees it in `view` (`Engine.view`, or
    `view_known` on the owner's own page). A layout is refused: a hex map is placed by
    its grid, so there is no layout file to give."""
    if ask.layout is not None:
        raise PbemError("race-to-the-sea draws its hex map from its grid: it takes no layout")
    role = ask.role
    flooded = [int(h) for h in view.get("flooded") or ()]  # 9.8 (a view may lack it)
    return draw_board(
        view["board"],
        counters_of(view, role),
        role if role in SIDE_NAME else None,
        ask.highlight,
        flooded=flooded,
        scale=ask.scale,
        status=status_lines(view),
    )


board_svg = BoardSvg(_map)  # the render registry's entry (pbem/render/maps.py)


def counters_of(view: Mapping[str, Any], role: str | None) -> list[dict[str, Any]]:
    """The view's counters as `draw_board` takes them. A hidden counter's identity and
    markers are read only when it is `role`'s own and the view holds them (its owner's
    `view_known`); for anyone else only its label, hex, side and nationality are."""
    out: list[dict[str, Any]] = []
    for name in sorted(view["counters"]):
        c = view["counters"][name]
        item: dict[str, Any] = {
            "label": name,
            "hex": c["hex"],
            "side": c["side"],
            "nationality": c["nationality"],
            "face": "hidden",
            "activated": bool(c.get("activated")),
        }
        unit_id = c.get("unit")
        if unit_id is not None:
            item["face"] = "scouting" if c.get("scouting") else "deployed"
        elif role is not None and c["side"] == role:
            # None unless the view holds its own piece (its owner's view_known)
            unit_id = rs.identity(view, name)  # type: ignore[arg-type]
            if unit_id is not None:
                item["face"] = "own-hidden"
        if unit_id is not None:
            item["unit"] = unit_face(view, name, str(unit_id))
            item["markers"] = markers_text(view, name)
        out.append(item)
    return out


def unit_face(view: Mapping[str, Any], counter: str, unit_id: str) -> dict[str, Any]:
    """What the counter's face reads: its name and kind, and its ratings, modified by its
    markers when the view holds them (3.2.7), else as printed."""
    data = view["units_data"]["units"][unit_id]
    face = {k: data.get(k) for k in ("name", "kind", "sz", "met", "rf", "mg", "art", "special")}
    if data.get("kind") != "false-report" and "stacks" in view:
        modified = hits.ratings_of(view, counter)  # type: ignore[arg-type]
        if modified is not None:
            face.update({k: v for k, v in modified.items() if k in face})
    return face


def markers_text(view: Mapping[str, Any], counter: str) -> list[str]:
    """The counter's Casualties markers as the view knows them (10.4.A): each marker with
    its side, or one "sealed" entry when the view lacks the stack's value."""
    if "stacks" not in view:
        return []
    stack = hits.stack_of(view, counter)  # type: ignore[arg-type]
    if stack is None:
        return ["casualties sealed (10.4.A)"]
    return [f"{marker} {side}" for marker, side in stack]


def status_lines(view: Mapping[str, Any]) -> list[str]:
    """Where play stands: the turn, round and step, and the Strategic Momentum (4.1.1)."""
    turn = view.get("turn") or 0
    where = "Set-up (15)" if turn == 0 else f"Turn {turn} of 10"
    if view.get("round"):
        where += f", round {view['round']}"
    lines = [where]
    momentum = view.get("momentum")
    if momentum in SIDE_NAME:
        lines.append(f"Strategic Momentum: {SIDE_NAME[momentum]} (4.1.1)")
    ops = view.get("planned_ops")
    if isinstance(ops, Mapping) and ops.get("holder") in SIDE_NAME:
        lines.append(f"Planned Operations marker: {SIDE_NAME[ops['holder']]} (4.1.4)")
    return lines


def highlight_of(game: Adjudicator) -> Highlight:
    """What the turn being played did, read from the public actions (highlight.py)."""
    return last_turn(game.actions)
