"""The Race to Berlin map as SVG, drawn from one role's view (pbem/render/maps.py).

`board_svg(view, ...)` draws every area at its layout position (a box with its id, name,
control colour, terrain, eagle, fortification, units and logistics blocks), the borders
between them (rivers marked, front line markers where control differs), the board edges
that are supply sources, what changed in the last turn (a `Highlight`) and, under the
map, the panel (svg_panel: legend, the players' pools, the units off the board).
`highlight_of(game)` (highlight.py) reads the last game turn's moves, attacks and
results from the adjudicator's actions.

Where things come from: the pieces (control, units, blocks, eagles, fortifications) only
from the view, which the engine has already stripped of every sealed value the viewer
may not see, so a block the viewer does not know shows its back whatever its value. The
static map's board edges are not in the view; they are read from the shipped map.toml
and used only when the view's areas are the shipped ones (same ids and names); a game on
another map gets its borders and rivers from the view's areas and no edges, and the legend says
so. Positions come from data/layout.toml, a stand-in (the legend says so), or from the
caller's layout file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from pbem.games.race_to_berlin import data as rtb_data
from pbem.games.race_to_berlin.highlight import highlight_of
from pbem.games.race_to_berlin.svg_geometry import Box, route
from pbem.games.race_to_berlin.svg_panel import draw_panel
from pbem.games.race_to_berlin.svg_style import (
    COMMANDER_INK,
    EAGLE_FILL,
    EDGE_PLAYER,
    FILL,
    FORCE_TEXT,
    FORT,
    INK,
    MARK,
    NAMES,
    RIVER,
    TERRAIN,
    UNIT_FILL,
)
from pbem.maps.areas import AreaGraph
from pbem.maps.board import BoardSvg, MapAsk
from pbem.maps.layout import Layout, LayoutError, load_layout
from pbem.maps.svg import Drawing, Highlight

__all__ = ["board_svg", "highlight_of"]

LAYOUT_FILE = "layout.toml"
BOX_W, BOX_H = 128.0, 100.0  # an area's box unless its place gives w and h
PANEL_H = 250.0  # the legend and status panel under the map
PANEL_MIN_W = 1500.0


# --- the static map and the layout -----------------------------------------------------------


@dataclass(frozen=True)
class StaticMap:
    """What the view leaves out: borders (with rivers) and board edges, by area; and
    what tells the map's areas apart (name, terrain, eagle by area id)."""

    areas: dict[str, tuple[str, int, str | None]]
    borders: tuple[tuple[str, str, bool], ...]  # (a, b, river)
    edges: dict[str, tuple[str, ...]]


@lru_cache(maxsize=1)
def _shipped_map() -> StaticMap:
    raw = rtb_data.default_data()[rtb_data.MAP_FILE]
    loaded = rtb_data.load_map(raw)
    return StaticMap(
        areas={a: _fingerprint(loaded["areas"][a]) for a in loaded["area_ids"]},
        borders=tuple((b["areas"][0], b["areas"][1], bool(b["river"])) for b in loaded["borders"]),
        edges={a: tuple(loaded["areas"][a]["edges"]) for a in loaded["area_ids"]},
    )


def _fingerprint(area: Mapping[str, Any]) -> tuple[str, int, str | None]:
    return str(area["name"]), int(area["terrain"]), area["eagle"] or None


def _static_for(board: Sequence[Mapping[str, Any]]) -> StaticMap | None:
    """The shipped map if the view's areas are its areas (ids, names, terrain, eagles);
    else the borders and rivers the view's areas list (their `neighbours` and `rivers`),
    without the board edges only the shipped map places; None for a view without them."""
    shipped = _shipped_map()
    if {a["id"]: _fingerprint(a) for a in board} == shipped.areas:
        return shipped
    if not all("neighbours" in a and "rivers" in a for a in board):
        return None
    graph = AreaGraph.from_neighbours({a["id"]: a["neighbours"] for a in board})
    rivers = {a["id"]: a["rivers"] for a in board}
    borders = tuple((a, b, b in rivers[a]) for a, b in graph.borders)
    return StaticMap(
        areas={a["id"]: _fingerprint(a) for a in board},
        borders=borders,
        edges={a["id"]: () for a in board},
    )


@lru_cache(maxsize=1)
def _shipped_layout() -> bytes:
    return (resources.files("pbem.games.race_to_berlin") / "data" / LAYOUT_FILE).read_bytes()


def _layout(layout: bytes | None, areas: Iterable[str]) -> Layout:
    """The caller's layout file, or the shipped stand-in; either must place every area."""
    return load_layout(_shipped_layout() if layout is None else layout, needs=set(areas))


def _boxes(layout: Layout, areas: Iterable[str]) -> dict[str, Box]:
    boxes = {}
    for area in areas:
        place = layout.places[area]
        w, h = place.extra.get("w", BOX_W), place.extra.get("h", BOX_H)
        if not all(
            isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in (w, h)
        ):
            raise LayoutError(f"layout file: place {area!r}: w and h must be positive numbers")
        boxes[area] = Box(place.x - w / 2, place.y - h / 2, float(w), float(h))
    return boxes


# --- the picture ------------------------------------------------------------------------------


def _map(view: Mapping[str, Any], ask: MapAsk) -> str:
    """The map as `ask.role` (None: the public) sees it in `view`; see the module docstring."""
    role, highlight = ask.role, ask.highlight
    board: list[Mapping[str, Any]] = list(view["board"])
    by_id = {a["id"]: a for a in board}
    place = _layout(ask.layout, by_id)
    boxes = _boxes(place, by_id)
    static = _static_for(board)
    width = max(place.width, PANEL_MIN_W)
    who = "the public" if role is None else NAMES.get(role, role)
    title = f"Race to Berlin: {view.get('map_title') or 'the map'}, as {who} sees it"
    d = Drawing(width, place.height + PANEL_H, title=title, scale=ask.scale)
    d.add("rect", x=0, y=0, width=width, height=place.height + PANEL_H, fill="#fbfaf5")
    berlin = [a for a in by_id if a in rtb_data.BERLIN]
    summarised = _draw_berlin_frame(d, boxes, berlin, static)
    if static is not None:
        _draw_borders(d, static, boxes, by_id, summarised)
        _draw_edges(d, static, boxes)
    for area in board:
        _draw_area(d, area, boxes[area["id"]])
    if highlight is not None:
        _draw_highlight(d, highlight, boxes)
    draw_panel(d, view, role, place, static is _shipped_map(), width)
    return d.to_string()


board_svg = BoardSvg(_map)  # the render registry's entry (pbem/render/maps.py)


def _others(boxes: Mapping[str, Box], *skip: str) -> list[Box]:
    return [box for area, box in boxes.items() if area not in skip]


def _draw_berlin_frame(
    d: Drawing, boxes: Mapping[str, Box], berlin: Sequence[str], static: StaticMap | None
) -> set[frozenset[str]]:
    """Berlin's five sub-areas touch each other and 31 and 32 (rulebook 4.5, which the
    loader checks): twenty borders, drawn as one frame and a line from 31 and from 32
    instead of twenty crossing lines. The border between 31 and 32, if the map has one,
    would have to cross the city: the frame's caption says it instead. Returns the
    borders the frame stands for."""
    if len(berlin) < 2:
        return set()
    x0 = min(boxes[a].x for a in berlin) - 10
    y0 = min(boxes[a].y for a in berlin) - 34
    x1 = max(boxes[a].x + boxes[a].w for a in berlin) + 10
    y1 = max(boxes[a].y + boxes[a].h for a in berlin) + 10
    frame = Box(x0, y0, x1 - x0, y1 - y0)
    access = [a for a in rtb_data.BERLIN_ACCESS if a in boxes]
    for area in access:
        r = route(boxes[area], frame, [])
        d.add(
            "path",
            d=r.path(),
            class_="border berlin",
            stroke="#444",
            stroke_width=3,
            fill="none",
            data_areas=f"{area} Berlin",
        )
    d.titled(
        "rect",
        "Berlin (rulebook 4.5): B1 to B5 are all adjacent to each other, and 31 and 32 "
        "touch every one of them",
        x=x0,
        y=y0,
        width=frame.w,
        height=frame.h,
        rx=14,
        fill="#f1eee4",
        stroke="#444",
        stroke_width=2,
        class_="berlin",
    )
    group = set(berlin) | set(access)
    summarised = {
        frozenset((a, b)) for a in group for b in group if a != b and (a in berlin or b in berlin)
    }
    captions = ["Berlin: B1-B5 all adjacent to each other", "and to 31 and 32"]
    pair = frozenset(access)
    if static is not None and any(frozenset((a, b)) == pair for a, b, _ in static.borders):
        summarised.add(pair)
        captions[1] += "; 31 and 32 adjacent"
    for i, caption in enumerate(captions):
        d.text(
            x0 + 8,
            y0 + 13 + 12 * i,
            caption,
            font_size=10,
            font_weight="bold",
            fill="#333",
            class_="berlin-caption",
        )
    return summarised


def _front_markers(control_a: str, control_b: str) -> list[str]:
    """The players whose front line markers sit on a border (rulebook 4.2.1.1: between a
    player's areas and any other; where West and Soviet areas touch, both put one)."""
    return [p for p in ("west", "soviet") if (control_a == p) != (control_b == p)]


def _draw_borders(
    d: Drawing,
    static: StaticMap,
    boxes: Mapping[str, Box],
    by_id: Mapping[str, Any],
    summarised: set[frozenset[str]],
) -> None:
    for a, b, river in static.borders:
        markers = _front_markers(by_id[a]["control"], by_id[b]["control"])
        if frozenset((a, b)) in summarised and not river and not markers:
            continue  # the Berlin frame stands for it
        r = route(boxes[a], boxes[b], _others(boxes, a, b))
        d.add(
            "path",
            d=r.path(),
            class_="border",
            data_areas=f"{a} {b}",
            stroke="#8a8a80",
            stroke_width=1.5,
            fill="none",
        )
        mx, my = r.middle
        ux, uy = r.direction
        if river:
            # a short stroke across the border, like a river between two areas
            d.titled(
                "line",
                f"river between {a} and {b} (+1 to the defence, rulebook 4.2.1.2)",
                x1=mx - uy * 13,
                y1=my + ux * 13,
                x2=mx + uy * 13,
                y2=my - ux * 13,
                stroke=RIVER,
                stroke_width=5,
                stroke_linecap="round",
                class_="river",
                data_areas=f"{a} {b}",
            )
        for i, player in enumerate(markers):
            offset = (i - (len(markers) - 1) / 2) * 11 + (9 if river else 0)
            px, py = mx + ux * offset, my + uy * offset
            d.square(
                px,
                py,
                9,
                f"{NAMES[player]} front line marker between {a} and {b}",
                fill=INK[player],
                stroke="#fff",
                stroke_width=1.5,
                class_=f"front {player}",
                data_areas=f"{a} {b}",
            )


def _draw_edges(d: Drawing, static: StaticMap, boxes: Mapping[str, Box]) -> None:
    """Bars on the side of each area that lies on a board edge, in the colour of the
    player it supplies (rulebook 4.4)."""
    for area, edges in static.edges.items():
        box = boxes.get(area)
        if box is None:
            continue
        for edge in edges:
            player = EDGE_PLAYER[edge]
            if edge == "west":
                x, y, w, h = box.x - 9, box.y, 6.0, box.h
            elif edge == "east":
                x, y, w, h = box.x + box.w + 3, box.y, 6.0, box.h
            else:
                x, y, w, h = box.x, box.y + box.h + 3, box.w, 6.0
            d.titled(
                "rect",
                f"{area} is on the {edge}ern board edge: a {NAMES[player]} supply "
                "source (rulebook 4.4)",
                x=x,
                y=y,
                width=w,
                height=h,
                fill=INK[player],
                class_=f"edge {edge}",
            )


def _wrap(text: str, width: int) -> list[str]:
    """At most two lines of about `width` characters (an area's name)."""
    if len(text) <= width:
        return [text]
    words, first = text.split(" "), ""
    while words and len(f"{first} {words[0]}".strip()) <= width:
        first = f"{first} {words.pop(0)}".strip()
    if not first:
        first = words.pop(0)
    return [first, " ".join(words)] if words else [first]


def _draw_area(d: Drawing, area: Mapping[str, Any], box: Box) -> None:
    aid, control = area["id"], area["control"]
    supplied = area["supplied"]
    with d.group(class_=f"area {control}", data_area=aid):
        d.titled(
            "rect",
            f"{aid} {area['name']}: {NAMES.get(control, control)}"
            + ("" if supplied else ", out of supply (rulebook 4.4)"),
            x=box.x,
            y=box.y,
            width=box.w,
            height=box.h,
            rx=6,
            fill=FILL.get(control, "#fff"),
            stroke=INK.get(control, "#333"),
            stroke_width=2 if supplied else 2.5,
            stroke_dasharray=None if supplied else "6 3",
        )
        d.text(box.x + 6, box.y + 15, aid, font_size=14, font_weight="bold", class_="area-id")
        lines = _wrap(str(area["name"]), max(12, int((box.w - 10) / 5.2)))
        for i, line in enumerate(lines):
            d.text(
                box.x + 6, box.y + 27 + 10 * i, line, font_size=9.5, fill="#333", class_="area-name"
            )
        _draw_badges(d, area, box)
        top = box.y + 30 + 10 * len(lines)
        _draw_units(d, area["units"], box, top)
        _draw_blocks(d, area["blocks"], box, top)
        if not supplied:
            d.text(
                box.x + box.w - 5,
                box.y + box.h - 4,
                "out of supply",
                font_size=8,
                fill="#b0302a",
                text_anchor="end",
                font_style="italic",
            )


def _draw_badges(d: Drawing, area: Mapping[str, Any], box: Box) -> None:
    """Top right, from the right: eagle, fortification, terrain."""
    x = box.x + box.w - 6
    eagle = area.get("eagle")
    if eagle:
        holder = area.get("eagle_holder")
        whose = {"blue": "West", "red": "Soviet", "both": "West or Soviet"}.get(eagle, eagle)
        d.titled(
            "circle",
            f"{eagle} eagle: a victory point for the {whose} player (rulebook 5)"
            + (f"; held by {NAMES.get(holder, holder)}" if holder else ""),
            cx=x - 8,
            cy=box.y + 11,
            r=8,
            fill=EAGLE_FILL.get(eagle, "#777"),
            stroke="#e0b000" if holder else "#fff",
            stroke_width=3 if holder else 1,
            class_="eagle",
        )
        d.text(
            x - 8,
            box.y + 14,
            "VP",
            font_size=7.5,
            font_weight="bold",
            fill="#fff",
            text_anchor="middle",
        )
        x -= 20
        if holder:
            # who holds the eagle's victory point token (rulebook 5), left of the eagle
            name = NAMES.get(holder, holder)
            d.text(
                x,
                box.y + 14,
                name,
                font_size=8,
                fill=INK.get(holder, "#333"),
                text_anchor="end",
                font_weight="bold",
                class_="eagle-holder",
            )
            x -= 5.5 * len(name) + 6
    fort = area.get("fortification")
    if fort:
        d.titled(
            "rect",
            f"fortification {fort['name']}: {fort['kind']}, +{fort['defense']} to the "
            "defence (rulebook 4.2.1.2)",
            x=x - 15,
            y=box.y + 3,
            width=15,
            height=15,
            fill=FORT,
            class_="fort",
        )
        d.text(
            x - 7.5,
            box.y + 14.5,
            fort["value"],
            font_size=10,
            font_weight="bold",
            fill="#fff",
            text_anchor="middle",
        )
        x -= 19
    terrain = int(area.get("terrain") or 0)
    if terrain:
        d.text(
            x,
            box.y + 15,
            "▲" * terrain,
            fill=TERRAIN,
            font_size=11,
            text_anchor="end",
            class_="terrain",
        )
        # a transparent box over the symbols carries their tooltip (text has no title here)
        d.titled(
            "rect",
            f"difficult terrain: +{terrain} to the defence (rulebook 4.2.1.2)",
            x=x - 12 * terrain,
            y=box.y + 4,
            width=12 * terrain,
            height=13,
            fill="transparent",
        )


def _draw_units(d: Drawing, units: Sequence[Mapping[str, Any]], box: Box, top: float) -> None:
    if not units:
        return
    room = box.y + box.h - 6 - top
    step = min(16.0, room / len(units))
    width = box.w - 40
    for i, unit in enumerate(units):
        y = top + i * step
        force = unit["force"]
        german = force.startswith("german")
        strength = unit.get("strength")
        tip = f"{unit['id']} {unit['name']}: {FORCE_TEXT.get(force, force)}" + (
            f", strength {strength}" if strength is not None else ""
        )
        with d.group(class_=f"unit {force}", data_unit=unit["id"]):
            d.titled(
                "rect",
                tip,
                x=box.x + 5,
                y=y,
                width=width,
                height=step - 2,
                rx=2,
                fill=INK["german"] if german else UNIT_FILL.get(force, "#555"),
            )
            if german:
                # the stripe: which player commands this German front (rulebook 4.1.1)
                d.add(
                    "rect",
                    x=box.x + 5,
                    y=y,
                    width=4,
                    height=step - 2,
                    fill=COMMANDER_INK.get(force, "#000"),
                )
            d.text(
                box.x + 11,
                y + step - 5.5,
                unit["id"],
                font_size=9.5,
                fill="#fff",
                font_family="monospace",
            )
            if strength is not None:
                d.add(
                    "rect",
                    x=box.x + 5 + width - 13,
                    y=y + 1,
                    width=12,
                    height=step - 4,
                    fill="#fff",
                    rx=1,
                )
                d.text(
                    box.x + 5 + width - 7,
                    y + step - 5.5,
                    strength,
                    font_size=9.5,
                    font_weight="bold",
                    fill="#222",
                    text_anchor="middle",
                )


def _draw_blocks(d: Drawing, blocks: Sequence[Mapping[str, Any]], box: Box, top: float) -> None:
    x = box.x + box.w - 31
    for i, block in enumerate(blocks):
        y = top + i * 30
        owner = block["owner"]
        value = block.get("value")
        ink = INK.get(owner, "#333")
        whose = NAMES.get(owner, owner)
        if block.get("exhausted"):
            fill, text, colour, tip = (
                "#c8c8c8",
                "x" if value is None else value,
                "#555",
                (f"{whose} block, exhausted (rulebook 4.1)"),
            )
        elif value is None:
            fill, text, colour, tip = ink, "?", "#fff", f"{whose} block, sealed: its back"
        elif not block.get("revealed"):
            fill, text, colour, tip = (
                "#fff",
                value,
                ink,
                (f"your {value}-block, sealed: only you see its value"),
            )
        else:
            fill, text, colour, tip = "#fff", value, "#111", f"{whose} {value}-block, revealed"
        cubes = int(block.get("cubes") or 0)
        if cubes:
            tip += f", {cubes} action cube{'s' if cubes > 1 else ''}"
        attrs: dict[str, Any] = {"class_": f"block {owner}", "data_block": block["label"]}
        if value is not None:
            attrs["data_value"] = value
        with d.group(**attrs):
            d.titled(
                "rect",
                tip,
                x=x,
                y=y,
                width=22,
                height=22,
                rx=3,
                fill=fill,
                stroke=ink,
                stroke_width=2.5,
                stroke_dasharray="3 2" if value is not None and not block.get("revealed") else None,
            )
            d.text(
                x + 11,
                y + 16,
                text,
                font_size=13,
                font_weight="bold",
                fill=colour,
                text_anchor="middle",
            )
            _draw_cubes(d, cubes, x, y + 24)


def _draw_cubes(d: Drawing, cubes: int, x: float, y: float) -> None:
    """Action cubes on a block (rulebook 4.1): up to four squares, then a count."""
    if cubes <= 0:
        return
    if cubes <= 4:
        for i in range(cubes):
            d.add("rect", x=x + i * 6, y=y, width=4.5, height=4.5, fill="#222", class_="cube")
    else:
        d.add("rect", x=x, y=y, width=4.5, height=4.5, fill="#222", class_="cube")
        d.text(x + 7, y + 5, f"x{cubes}", font_size=7.5, fill="#222")


# --- what changed (highlight.py reads it from the game) ----------------------------------------


def _draw_highlight(d: Drawing, highlight: Highlight, boxes: Mapping[str, Box]) -> None:
    """Marks first, arrows over them: an arrow's head often ends where a mark sits."""
    by_area: dict[str, list[str]] = {}
    for area, text in highlight.marks:
        by_area.setdefault(area, []).append(text)
    for area, texts in by_area.items():
        box = boxes.get(area)
        if box is None:
            continue
        # three lines at most above a box; the rest in the last line's tooltip
        shown = texts if len(texts) <= 3 else [*texts[:2], f"... {len(texts) - 2} more"]
        for i, text in enumerate(shown):
            y = box.y - 4 - 13 * (len(shown) - i)
            tip = "; ".join(texts[2:]) if len(texts) > 3 and i == 2 else text
            with d.group(class_="mark", data_area=area):
                d.titled(
                    "rect",
                    tip,
                    x=box.x + 2,
                    y=y,
                    width=box.w - 4,
                    height=12,
                    rx=3,
                    fill=MARK,
                    stroke="#c9a400",
                    stroke_width=0.8,
                )
                d.text(box.x + 6, y + 9.5, text, font_size=8.5, fill="#222", pointer_events="none")
    drawn: set[tuple[str, str, str]] = set()
    for kind, pairs in (("move", highlight.moves), ("attack", highlight.attacks)):
        for a, b in pairs:
            if a not in boxes or b not in boxes or a == b or (kind, a, b) in drawn:
                continue
            drawn.add((kind, a, b))
            # arrows on one pair stay apart: there and back (the sideways shift follows the
            # arrow's own direction), a move and an attack (opposite sides)
            shift = 6.0 if kind == "move" else -6.0
            r = route(boxes[a], boxes[b], _others(boxes, a, b), shift)
            with d.group(class_=f"highlight {kind}", data_from=a, data_to=b):
                if r.bent:
                    d.add(
                        "path", d=r.path(), class_=f"arrow {kind}", marker_end=f"url(#head-{kind})"
                    )
                else:
                    d.arrow(r.x1, r.y1, r.x2, r.y2, kind=kind)
