"""The Berlin 1945 map as SVG, drawn from one role's view (`pbem.render.maps`).

`board_svg(view, role=...)` draws the rings, Areas A-F, Districts 1-18 and Mitte Sectors
I-V at their layout positions (the shipped `data/layout.toml` is a stand-in, not the
published map; `layout=` takes a player's own file), the borders between them (rulebook
5.1), each zone's control (5.5), stacking limit (5.3) and markers, and every unit on the
map with its id in its zone, coloured as its counter (2.2). A side panel holds what the
view holds besides (`panel`), a legend and what the last turn did (`highlight_of`,
`highlight`): moves and attacks as arrows, results as marks.

Pure: the same view, options and layout give the same bytes. Only the view is read for
what changes in a game; the static map (names, rings, borders, unit names) comes from the
shipped data files, which every player has. `role` only names the viewer in the panel.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from pbem.games.berlin_1945.data import PACKAGE, load_data
from pbem.games.berlin_1945.highlight import last_turn
from pbem.games.berlin_1945.panel import Line, panel_lines
from pbem.games.berlin_1945.rulebook import (
    AREAS,
    REICHSTAG,
    SECTORS,
    SIDE_NAMES,
    SIDES,
    TURNS,
    ZONE_IDS,
)
from pbem.maps.areas import AreaGraph
from pbem.maps.board import BoardSvg, MapAsk
from pbem.maps.layout import Layout, LayoutError, Place, load_layout
from pbem.maps.svg import Drawing, Highlight

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator

LAYOUT_FILE = "layout.toml"
STAND_IN_LINE = "stand-in layout, not the published map"
PANEL_WIDTH = 440
FONT = 10  # a unit chip's id
CHIP_H = 13
ROW = 15  # a row of chips
HEAD = 26  # the zone's header above its chips

# rulebook 2.2: the colour of a counter tells its side and type
UNIT_FILL = {
    "soviet-regular": "#f0913a",
    "soviet-guards": "#b3261e",
    "wehrmacht": "#a3a3a3",
    "ss": "#1b1b1b",
}
UNIT_TEXT = {"soviet-regular": "#000", "soviet-guards": "#fff", "wehrmacht": "#000", "ss": "#fff"}
TYPE_NAMES = {
    "soviet-regular": "Soviet regular",
    "soviet-guards": "Soviet elite (Guards)",
    "wehrmacht": "German regular (Wehrmacht)",
    "ss": "SS",
}
CONTROL_FILL = {"german": "#e4e4e4", "soviet": "#fbdcc6", None: "#fdf3d8"}
CONTROL_MARK = {"german": ("G", "#555", "#fff"), "soviet": ("S", "#b3261e", "#fff")}
STYLE = {
    "h": (12.5, "bold", "#1a1a1a"),
    "t": (11.5, "normal", "#222"),
    "s": (10.5, "normal", "#444"),
}
LINE_H = {"h": 20, "t": 15, "s": 14}


@cache
def _map() -> dict[str, Any]:
    """The shipped map and counters: zone names, rings, limits, borders and unit names."""
    data = load_data({})
    return {
        "zones": data["zones"],
        "borders": [tuple(pair) for pair in data["borders"]],
        "names": {u["id"]: u["name"] for u in data["units"]},
    }


@cache
def _shipped_layout() -> bytes:
    return (resources.files(PACKAGE) / "data" / LAYOUT_FILE).read_bytes()


def read_layout(layout: bytes | None = None) -> Layout:
    """The shipped stand-in layout, or a player's own; every zone must have a place."""
    return load_layout(_shipped_layout() if layout is None else layout, needs=set(ZONE_IDS))


def highlight_of(game: Adjudicator) -> Highlight:
    """What the last turn did (`highlight.last_turn`), read from the game's actions."""
    return last_turn(game.actions)


# --- geometry -----------------------------------------------------------------------------


class Box:
    """A zone's rectangle: centre, size, and where a line toward a point leaves it."""

    def __init__(self, x: float, y: float, w: float, h: float) -> None:
        self.x, self.y, self.w, self.h = x, y, w, h
        self.left, self.top = x - w / 2, y - h / 2

    def edge(self, tx: float, ty: float, margin: float = 4.0) -> tuple[float, float]:
        """The point where the segment from the centre toward (tx, ty) crosses the border
        (pushed out by `margin`), so that an arrow starts and ends outside the box."""
        dx, dy = tx - self.x, ty - self.y
        if dx == 0 and dy == 0:
            return self.x, self.y
        sx = (self.w / 2 + margin) / abs(dx) if dx else math.inf
        sy = (self.h / 2 + margin) / abs(dy) if dy else math.inf
        s = min(sx, sy, 1.0)
        return self.x + dx * s, self.y + dy * s


def _positive(place: Place, *keys: str) -> bool:
    return all(
        isinstance(v, int | float) and not isinstance(v, bool) and v > 0
        for v in (place.extra.get(k, 1) for k in keys)
    )


def _boxes(layout: Layout) -> dict[str, Box]:
    """Each zone's box; a place that gives no size (w, h) gets its kind's default."""
    sizes = {"area": (170, 100), "district": (176, 118), "sector": (164, 100)}
    boxes = {}
    for zone in ZONE_IDS:
        place = layout.places[zone]
        if not _positive(place, "w", "h"):
            raise LayoutError(f"layout file: place {zone!r}: w and h must be positive numbers")
        kind = _map()["zones"][zone]["kind"]
        w = float(place.extra.get("w", sizes[kind][0]))
        h = float(place.extra.get("h", sizes[kind][1]))
        boxes[zone] = Box(place.x, place.y, w, h)
    for place in layout.places.values():
        if place.extra.get("kind") == "ring" and not _positive(place, "rx", "ry"):
            raise LayoutError(f"layout file: ring {place.id!r}: rx and ry must be positive numbers")
    return boxes


def _fit(text: str, room: float, size: float) -> dict[str, object]:
    """Squeeze a text that would be wider than `room` (an estimate of sans-serif widths)."""
    if len(text) * size * 0.56 <= room:
        return {}
    return {"textLength": float(room), "lengthAdjust": "spacingAndGlyphs"}


# --- the map ------------------------------------------------------------------------------


def _rings(d: Drawing, layout: Layout) -> None:
    """The concentric rings (rulebook 1) as bands behind the zones, widest first."""
    rings = [p for p in layout.places.values() if p.extra.get("kind") == "ring"]
    for place in sorted(rings, key=lambda p: -float(p.extra.get("rx", 0))):
        d.titled(
            "ellipse",
            place.extra.get("label", place.id),
            cx=place.x, cy=place.y,
            rx=float(place.extra.get("rx", 1)), ry=float(place.extra.get("ry", 1)),
            fill=str(place.extra.get("fill", "#eef2f6")), stroke="#c5ced8", stroke_width=1.5,
            class_="ring",
        )  # fmt: skip
        if "label_x" in place.extra:
            d.text(
                float(place.extra["label_x"]), float(place.extra["label_y"]),
                place.extra.get("label", place.id),
                font_size=11, fill="#6b7785", font_style="italic", text_anchor="middle",
            )  # fmt: skip


def _borders(d: Drawing, boxes: Mapping[str, Box], view: Mapping[str, Any]) -> None:
    """Adjacency (rulebook 5.1): a line between the centres of two zones that share a border;
    the boxes drawn over them leave the stretch between the two. The borders are the game's
    own (the view's zones list their neighbours), so a game on a player's own map.toml is
    drawn with its borders; a view without them falls back to the shipped map."""
    with d.group(class_="borders", stroke="#7d8a99", stroke_width=2):
        for a, b in _border_pairs(view):
            if a in boxes and b in boxes:
                d.add("line", x1=boxes[a].x, y1=boxes[a].y, x2=boxes[b].x, y2=boxes[b].y)


def _border_pairs(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    zones = view.get("zones")
    if not zones or not all("neighbours" in z for z in zones):
        return [(str(a), str(b)) for a, b in _map()["borders"]]
    graph = AreaGraph.from_neighbours({z["id"]: [n["id"] for n in z["neighbours"]] for z in zones})
    return list(graph.borders)


def _title(zone: str) -> tuple[str, str]:
    """The big id and the name beside it: "15" "Reinickendorf", "Area" "A", "V" "Reichstag"."""
    record = _map()["zones"][zone]
    if zone in AREAS:
        return f"Area {zone}", ""
    if zone in SECTORS:
        return f"Mitte {zone}", record["name"]
    return zone, record["name"]


def _limit(view: Mapping[str, Any], zone: str) -> str:
    """The stacking limit per side printed by the district number (rulebook 5.3); none in
    the Areas and Districts 12-18. In Sector V it is the German limit, lifted once a Soviet
    unit has entered Sectors I-IV."""
    if zone == REICHSTAG:
        return "G no limit" if view.get("flags", {}).get("sectors") else "G max 4"
    limit = _map()["zones"][zone]["stack"]["german"]
    return "" if limit in ("unlimited", 0) else f"max {limit}"


def _chips(
    d: Drawing, view: Mapping[str, Any], zone: str, box: Box, uids: Sequence[str]
) -> list[str]:
    """The unit counters in a zone's box, two or three a row; returns the ids with no room."""
    room_h = box.h - HEAD - 4
    rows = max(1, int(room_h // ROW))
    columns = 2 if len(uids) <= 2 * rows else 3
    shown = list(uids)
    rest: list[str] = []
    if len(uids) > columns * rows:
        shown, rest = list(uids[: columns * rows - 1]), list(uids[columns * rows - 1 :])
    width = (box.w - 8 - 3 * (columns - 1)) / columns
    size = FONT if columns == 2 else FONT - 1.5
    names = _map()["names"]
    for i, uid in enumerate(shown):
        unit = view["units"][uid]
        x = box.left + 4 + (i % columns) * (width + 3)
        y = box.top + HEAD + (i // columns) * ROW
        kind = unit["type"]
        tip = (
            f"{uid}: {names.get(uid, uid)}, {TYPE_NAMES.get(kind, kind)}, strength "
            f"{unit['strength']}" + (" (yellow dot, rulebook 5.5.4)" if unit.get("yellow") else "")
        )
        with d.group(class_="unit", data_unit=uid, data_zone=zone):
            d.titled(
                "rect", tip, x=x, y=y, width=width, height=CHIP_H, rx=2,
                fill=UNIT_FILL.get(kind, "#fff"), stroke="#333", stroke_width=0.6,
            )  # fmt: skip
            d.text(
                x + 3, y + CHIP_H - 3, uid, font_size=size, fill=UNIT_TEXT.get(kind, "#000"),
                **_fit(uid, width - 6, size),
            )  # fmt: skip
            if unit.get("yellow"):
                d.add("circle", cx=x + width - 4, cy=y + 4, r=2.5, fill="#ffd400", stroke="#000")
    if rest:
        i = len(shown)
        x = box.left + 4 + (i % columns) * (width + 3)
        y = box.top + HEAD + (i // columns) * ROW
        d.titled(
            "rect", ", ".join(rest), x=x, y=y, width=width, height=CHIP_H, rx=2,
            fill="#fff", stroke="#333", stroke_dasharray="2 2",
        )  # fmt: skip
        d.text(x + 3, y + CHIP_H - 3, f"+{len(rest)} (panel)", font_size=size)
    return rest


def _markers(d: Drawing, view: Mapping[str, Any], zone: str, box: Box) -> None:
    """Markers (barricades, flak towers, ...) as tags on the box's lower border."""
    x = box.left + 6
    for marker in (view.get("markers") or {}).get(zone, []):
        side = SIDE_NAMES.get(marker["side"], marker["side"])
        text = f"{marker['kind']} {side[0]}{int(marker['amount']):+d}"
        width = len(text) * 5.4 + 8
        d.titled(
            "rect", f"{marker['kind']} marker: {side} {int(marker['amount']):+d} in combat",
            x=x, y=box.top + box.h - 7, width=width, height=13, rx=6,
            fill="#fff7c2", stroke="#8a6d00", class_="marker",
        )  # fmt: skip
        d.text(x + 4, box.top + box.h + 3, text, font_size=9.5, fill="#5a4700")
        x += width + 4


def _zone(
    d: Drawing, view: Mapping[str, Any], zone: str, box: Box, units: Mapping[str, list[str]]
) -> list[str]:
    control = (view.get("control") or {}).get(zone)
    disputed = bool(units["german"]) and bool(units["soviet"])
    record = _map()["zones"][zone]
    big, name = _title(zone)
    tip = f"{record['label']}: {'disputed, ' if disputed else ''}" + (
        f"{SIDE_NAMES[control]} control" if control in SIDE_NAMES else "no control (an Area)"
    )
    with d.group(class_="zone", id=f"zone-{zone}", data_zone=zone):
        if zone == REICHSTAG:
            d.add("rect", x=box.left - 4, y=box.top - 4, width=box.w + 8, height=box.h + 8,
                  rx=9, fill="none", stroke="#b8860b", stroke_width=3)  # fmt: skip
        d.titled(
            "rect", tip, x=box.left, y=box.top, width=box.w, height=box.h, rx=6,
            fill=CONTROL_FILL.get(control, CONTROL_FILL[None]),
            stroke="#c0392b" if disputed else "#4a5563",
            stroke_width=3 if disputed else 1.4,
            stroke_dasharray="7 3" if disputed else None,
        )  # fmt: skip
        d.text(box.left + 6, box.top + 17, big, font_size=15, font_weight="bold", fill="#111")
        room = max(30.0, box.w - 36 - len(big) * 9 - len(_limit(view, zone)) * 5.2)
        d.text(
            box.left + 10 + len(big) * 9, box.top + 16, name, font_size=10.5, fill="#333",
            **_fit(name, room, 10.5),
        )  # fmt: skip
        if control in CONTROL_MARK:
            letter, fill, ink = CONTROL_MARK[control]
            d.titled("rect", f"{SIDE_NAMES[control]} control marker (rulebook 5.5)",
                     x=box.left + box.w - 20, y=box.top + 4, width=15, height=15, rx=2,
                     fill=fill)  # fmt: skip
            d.text(box.left + box.w - 16.5, box.top + 15.5, letter, font_size=11,
                   font_weight="bold", fill=ink)  # fmt: skip
        limit = _limit(view, zone)
        if limit:
            d.text(box.left + box.w - 24, box.top + 15, limit, font_size=9, fill="#444",
                   text_anchor="end", class_="limit")  # fmt: skip
        rest = _chips(d, view, zone, box, [*units["german"], *units["soviet"]])
        _markers(d, view, zone, box)
    return rest


def _units_by_zone(view: Mapping[str, Any]) -> dict[str, dict[str, list[str]]]:
    found: dict[str, dict[str, list[str]]] = {z: {s: [] for s in SIDES} for z in ZONE_IDS}
    for uid, unit in sorted(view["units"].items()):
        if unit["status"] == "on" and unit["zone"] in found:
            found[unit["zone"]][unit["side"]].append(uid)
    return found


# --- what changed, and the plan ---------------------------------------------------------------


def _arrows(d: Drawing, boxes: Mapping[str, Box], highlight: Highlight) -> None:
    pairs = [(a, b, "move") for a, b in highlight.moves] + [
        (a, b, "attack") for a, b in highlight.attacks
    ]
    both = {(a, b) for a, b, _k in pairs}
    with d.group(class_="highlight"):
        for a, b, kind in pairs:
            if a not in boxes or b not in boxes:
                continue
            start, end = boxes[a], boxes[b]
            x1, y1 = start.edge(end.x, end.y)
            x2, y2 = end.edge(start.x, start.y, margin=6)
            if (b, a) in both:  # a move each way between two zones: side by side
                length = math.hypot(x2 - x1, y2 - y1) or 1.0
                ox, oy = -(y2 - y1) / length * 5, (x2 - x1) / length * 5
                x1, y1, x2, y2 = x1 + ox, y1 + oy, x2 + ox, y2 + oy
            d.arrow(x1, y1, x2, y2, kind=kind)


def _marks(d: Drawing, boxes: Mapping[str, Box], marks: Sequence[tuple[str, str]]) -> None:
    by_zone: dict[str, list[str]] = {}
    for zone, text in marks:
        if zone in boxes:
            by_zone.setdefault(zone, []).append(text)
    with d.group(class_="marks"):
        for zone, texts in by_zone.items():
            box = boxes[zone]
            text = texts[0] if len(texts) == 1 else f"{texts[0]} (+{len(texts) - 1})"
            width = min(box.w + 20, len(text) * 5.6 + 12)
            d.titled(
                "rect", "; ".join(texts), x=box.x - width / 2, y=box.top - 13, width=width,
                height=15, rx=7, fill="#ffe14d", stroke="#7a6400", class_="mark",
            )  # fmt: skip
            d.text(box.x, box.top - 2, text, font_size=10, text_anchor="middle",
                   **_fit(text, width - 10, 10))  # fmt: skip


def _planned(d: Drawing, view: Mapping[str, Any], boxes: Mapping[str, Box]) -> None:
    """The owner's own sealed plan (`mine`), or an opened plan's orders still to carry out,
    as dotted lines: what the Soviet means to do this turn (rulebook 7.2)."""
    plan = view.get("plan") or {}
    value = plan.get("mine") or plan.get("orders")
    if not value:
        return
    status = plan.get("status") or {}
    orders = [*value.get("orders", []), *([value["extra"]] if value.get("extra") else [])]
    with d.group(class_="planned", stroke="#6a3d9a", stroke_width=2.5,
                 stroke_dasharray="2 4", fill="none"):  # fmt: skip
        for n, order in enumerate(orders, start=1):
            if status.get(str(n), "todo") != "todo":
                continue
            frm = order["frm"]
            for to, _count in order["dests"]:
                if frm in boxes and to in boxes:
                    x1, y1 = boxes[frm].edge(boxes[to].x, boxes[to].y)
                    x2, y2 = boxes[to].edge(boxes[frm].x, boxes[frm].y, margin=6)
                    d.add("line", x1=x1, y1=y1, x2=x2, y2=y2, class_="plan")
                    d.add("circle", cx=x2, cy=y2, r=4, fill="#6a3d9a", stroke="none")


# --- the panel ----------------------------------------------------------------------------


def _legend(stand_in: bool, provenance: str) -> list[Line]:
    lines: list[Line] = [("h", "Legend")]
    lines.append(("t", STAND_IN_LINE if stand_in else f"layout: {provenance}"))
    lines += [
        ("s", "Counters (rulebook 2.2): orange Soviet regular, red Soviet Guards,"),
        ("s", "  gray Wehrmacht, black SS; a yellow dot: brought in by a card."),
        ("s", "Zone fill: gray German control, pink Soviet control, sand an Area;"),
        ("s", "  G / S control marker; red dashed border: disputed (5.5)."),
        ("s", "Gray lines: zones that share a border (5.1). The German player"),
        ("s", "  counts every Mitte sector adjacent to every other."),
        ("s", "Blue arrow: a move last turn; red dashed arrow: an attack;"),
        ("s", "  yellow tag: a result; purple dots: a planned Soviet order."),
        ("s", "max N: units a side may stack there (5.3); none shown: no limit."),
    ]
    return lines


def _panel(d: Drawing, x: float, lines: Sequence[Line], view: Mapping[str, Any]) -> float:
    """Write the panel from (x, 30); returns the bottom."""
    y = 30.0
    d.add("rect", x=x - 14, y=0, width=PANEL_WIDTH, height=d.height, fill="#fafafa",
          stroke="#ccc")  # fmt: skip
    for n, (style, text) in enumerate(lines):
        if style == "h" and n:
            y += 6
        size, weight, fill = STYLE[style]
        d.text(x, y, text, font_size=size, font_weight=weight, fill=fill,
               class_="panel-" + style)  # fmt: skip
        y += LINE_H[style]
        if n == 1:  # the Turn track (rulebook 7) under the first two lines
            y = _turn_track(d, x, y, int(view.get("turn", 1)))
    return y


def _turn_track(d: Drawing, x: float, y: float, turn: int) -> float:
    with d.group(class_="turn-track"):
        for t in range(1, TURNS + 1):
            left = x + (t - 1) * 30
            now = t == turn
            d.titled("rect", f"turn {t}" + (" (now)" if now else ""), x=left, y=y - 4,
                     width=26, height=20, rx=3, fill="#1f5fbf" if now else "#fff",
                     stroke="#555")  # fmt: skip
            d.text(left + 13, y + 10, t, font_size=11, text_anchor="middle",
                   fill="#fff" if now else "#333")  # fmt: skip
    return y + 30


def _panel_height(lines: Sequence[Line]) -> float:
    return 30 + 30 + sum(LINE_H[s] + (6 if s == "h" else 0) for s, _t in lines) + 20


# --- the whole picture --------------------------------------------------------------------


def _picture(view: Mapping[str, Any], ask: MapAsk) -> str:
    """The map of `view` (what `ask.role` may see) as an SVG document."""
    plan = read_layout(ask.layout)
    boxes = _boxes(plan)
    units = _units_by_zone(view)
    highlight = ask.highlight or Highlight()

    # The zones are drawn first on a scratch drawing: which units overflowed decides the
    # panel's lines, and the panel's length the height of the picture.
    scratch = Drawing(plan.width, plan.height, title="")
    overflow = {}
    for zone in ZONE_IDS:
        rest = _zone(scratch, view, zone, boxes[zone], units[zone])
        if rest:
            overflow[zone] = rest
    lines = panel_lines(view, ask.role, overflow, highlight.marks)
    lines += _legend(plan.stand_in, plan.provenance)
    height = max(plan.height, _panel_height(lines))

    who = SIDE_NAMES.get(ask.role or "", "public")
    title = f"{plan.title or 'Berlin 1945'}: turn {view['turn']}, {who} view"
    d = Drawing(plan.width + PANEL_WIDTH, height, title=title, scale=ask.scale)
    d.add("rect", x=0, y=0, width=plan.width, height=height, fill="#f7f9fb")
    _rings(d, plan)
    _borders(d, boxes, view)
    for zone in ZONE_IDS:
        _zone(d, view, zone, boxes[zone], units[zone])
    _planned(d, view, boxes)
    _arrows(d, boxes, highlight)
    _marks(d, boxes, highlight.marks)
    if plan.stand_in:
        d.text(12, height - 12, STAND_IN_LINE, font_size=12,
               fill="#8a1c1c", font_weight="bold", class_="stand-in")  # fmt: skip
    _panel(d, plan.width + 14, lines, view)
    return d.to_string()


board_svg = BoardSvg(_picture)  # the render registry's entry (pbem/render/maps.py)
