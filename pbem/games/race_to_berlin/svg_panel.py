"""The panel under the Race to Berlin map: who sees it and when, the legend (sides'
colours, symbols, the stand-in note), the players' pools and the units off the board.
Drawn from the view alone, like the map."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.race_to_berlin.svg_style import (
    EAGLE_FILL,
    FILL,
    FORT,
    INK,
    NAMES,
    RIVER,
    TERRAIN,
)
from pbem.maps.layout import Layout
from pbem.maps.svg import Drawing


def draw_panel(
    d: Drawing,
    view: Mapping[str, Any],
    role: str | None,
    layout: Layout,
    edges_known: bool,
    width: float,
) -> None:
    top = layout.height + 8
    d.add("line", x1=10, y1=top, x2=width - 10, y2=top, stroke="#999", stroke_width=1)
    col = (width - 40) / 4
    _panel_title(d, view, role, layout, edges_known, 20, top + 22)
    _panel_legend(d, 20 + col, top + 22)
    _panel_players(d, view, role, 20 + 2 * col, top + 22)
    _panel_off_board(d, view, 20 + 3 * col, top + 22)


def _panel_title(
    d: Drawing,
    view: Mapping[str, Any],
    role: str | None,
    layout: Layout,
    edges_known: bool,
    x: float,
    y: float,
) -> None:
    who = "the public view" if role is None else f"{NAMES.get(role, role)}'s view"
    d.text(x, y, f"Race to Berlin: {who}", font_size=16, font_weight="bold", fill="#222")
    lines = [
        str(view.get("map_title") or ""),
        f"turn {view.get('turn')} of {view.get('turns')}, {view.get('phase')} phase"
        + (f", {NAMES.get(view['active'], view['active'])} to act" if view.get("active") else ""),
    ]
    combat = view.get("combat")
    if combat:
        lines.append(
            f"attack in progress: {combat.get('target')} from {combat.get('from')} "
            f"({NAMES.get(combat.get('attacker'), '?')})"
        )
    result = view.get("result")
    if result:
        lines.append(f"result: {result.get('reason')}")
    for i, line in enumerate(lines):
        d.text(x, y + 20 + 16 * i, line, font_size=11.5, fill="#333")
    y += 20 + 16 * len(lines) + 8
    notes = []
    if layout.stand_in:
        notes.append("Stand-in layout, not the published map: area positions are")
        notes.append("chosen for pbem (the rulebook does not reproduce the board).")
    else:
        notes.append(f"Layout: {layout.title or 'a user layout'} ({layout.provenance})")
    if not edges_known:
        notes.append("Board edges not drawn: this game's map is not")
        notes.append("the shipped map.toml.")
    for i, line in enumerate(notes):
        d.text(
            x,
            y + 14 * i,
            line,
            font_size=11,
            fill="#8a4b00",
            font_weight="bold",
            class_="stand-in" if layout.stand_in else "layout-note",
        )


def _panel_legend(d: Drawing, x: float, y: float) -> None:
    d.text(x, y, "Legend", font_size=13, font_weight="bold", fill="#222")
    y += 10
    for i, side in enumerate(("west", "soviet", "german")):
        d.add(
            "rect",
            x=x + i * 120,
            y=y,
            width=20,
            height=12,
            fill=FILL[side],
            stroke=INK[side],
            stroke_width=2,
        )
        d.text(x + i * 120 + 25, y + 10, f"{NAMES[side]} area", font_size=10.5)
    y += 18
    counters = (
        ("west", INK["west"], None, "West unit"),
        ("soviet", INK["soviet"], None, "Soviet unit"),
        ("german-west", INK["german"], INK["soviet"], "German, Soviet player"),
        ("german-east", INK["german"], INK["west"], "German, West player"),
    )
    for i, (_force, fill, stripe, label) in enumerate(counters):
        cx = x + (i % 2) * 180
        cy = y + (i // 2) * 17
        d.add("rect", x=cx, y=cy, width=26, height=12, rx=2, fill=fill)
        if stripe:
            d.add("rect", x=cx, y=cy, width=4, height=12, fill=stripe)
        d.text(cx + 31, cy + 10, label, font_size=10.5)
    y += 48
    rows: list[tuple[str, str]] = [
        ("river", "river on a border (+1 defence)"),
        ("front", "front line marker (West / Soviet)"),
        ("edge", "board edge: supply source of that colour"),
        ("fort", "fortification: printed type 1-3"),
        ("eagle", "victory point eagle (gold ring: held, by whom)"),
        ("terrain", "difficult terrain +1 / +2"),
        ("block", "logistics block: its back, its value"),
        ("sealed", "your sealed block (dashed): only you see it"),
        ("arrow", "this turn: move (blue), attack (red, dashed)"),
    ]
    for i, (symbol, label) in enumerate(rows):
        cx = x + (i % 2) * 235
        cy = y + (i // 2) * 19
        _legend_symbol(d, symbol, cx, cy)
        d.text(cx + 30, cy + 4, label, font_size=10)


def _legend_symbol(d: Drawing, symbol: str, x: float, y: float) -> None:
    if symbol == "river":
        d.add("line", x1=x, y1=y, x2=x + 24, y2=y, stroke="#8a8a80", stroke_width=1.5)
        d.add("line", x1=x + 12, y1=y - 7, x2=x + 12, y2=y + 7, stroke=RIVER, stroke_width=5)
    elif symbol == "front":
        d.add("rect", x=x + 2, y=y - 4.5, width=9, height=9, fill=INK["west"])
        d.add("rect", x=x + 13, y=y - 4.5, width=9, height=9, fill=INK["soviet"])
    elif symbol == "edge":
        d.add("rect", x=x, y=y - 5, width=11, height=10, fill=INK["west"])
        d.add("rect", x=x + 13, y=y - 5, width=11, height=10, fill=INK["soviet"])
    elif symbol == "fort":
        d.add("rect", x=x + 4, y=y - 7, width=14, height=14, fill=FORT)
        d.text(x + 11, y + 4, "2", font_size=10, fill="#fff", text_anchor="middle")
    elif symbol == "eagle":
        d.add(
            "circle",
            cx=x + 11,
            cy=y,
            r=7,
            fill=EAGLE_FILL["blue"],
            stroke="#e0b000",
            stroke_width=2.5,
        )
    elif symbol == "terrain":
        d.text(x, y + 4, "▲▲", font_size=11, fill=TERRAIN)
    elif symbol == "block":
        d.add("rect", x=x, y=y - 7, width=13, height=13, fill=INK["west"], rx=2)
        d.add("rect", x=x + 15, y=y - 7, width=13, height=13, fill="#fff", stroke="#333", rx=2)
    elif symbol == "sealed":
        d.add(
            "rect",
            x=x + 4,
            y=y - 7,
            width=13,
            height=13,
            fill="#fff",
            stroke=INK["west"],
            stroke_width=2,
            stroke_dasharray="3 2",
            rx=2,
        )
    elif symbol == "arrow":
        d.add("line", x1=x, y1=y - 3, x2=x + 24, y2=y - 3, class_="arrow move")
        d.add("line", x1=x, y1=y + 4, x2=x + 24, y2=y + 4, class_="arrow attack")


def _panel_players(
    d: Drawing, view: Mapping[str, Any], role: str | None, x: float, y: float
) -> None:
    d.text(x, y, "Players", font_size=13, font_weight="bold", fill="#222")
    y += 18
    for player in ("west", "soviet"):
        vp = view.get("vp", {}).get(player, 0)
        cubes = view.get("cubes", {}).get(player, {})
        markers = view.get("markers", {}).get(player, {})
        tokens = [t for t in view.get("tokens", {}).get(player, []) if not t.get("used")]
        kinds: dict[str, int] = {}
        for token in tokens:
            kinds[token["kind"]] = kinds.get(token["kind"], 0) + 1
        hand = view.get("hands", {}).get(player)
        lines = [
            f"{vp} VP; action cubes: {cubes.get('pool', '?')} in the pool, "
            f"{cubes.get('lost', 0)} lost",
            f"front line markers: {markers.get('used', '?')} used, {markers.get('left', '?')} left",
            "special tokens left: "
            + (", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"),
        ]
        if isinstance(hand, list):
            lines.append("blocks to place: " + (", ".join(str(v) for v in hand) or "none"))
        d.add("rect", x=x, y=y - 9, width=10, height=10, fill=INK[player])
        d.text(
            x + 15,
            y,
            NAMES[player] + (" (you)" if player == role else ""),
            font_size=11.5,
            font_weight="bold",
            fill=INK[player],
        )
        for i, line in enumerate(lines):
            d.text(x + 15, y + 14 * (i + 1), line, font_size=10.5, fill="#333")
        y += 14 * (len(lines) + 1) + 8


def _panel_off_board(d: Drawing, view: Mapping[str, Any], x: float, y: float) -> None:
    """Units off the board by status (in reserve, eliminated, transferred), ids only and
    wrapped: every one of the 40 fits, and the map's tooltips give the names."""
    d.text(x, y, "Off the map", font_size=13, font_weight="bold", fill="#222")
    by_status: dict[str, list[str]] = {}
    for unit in view.get("off_board", []):
        by_status.setdefault(str(unit["status"]), []).append(str(unit["id"]))
    if not by_status:
        d.text(x, y + 18, "none", font_size=10.5, fill="#333")
        return
    line = 0
    for status, ids in by_status.items():
        for i, text in enumerate(_wrap_ids(ids, 62)):
            label = f"{status} ({len(ids)}): " if i == 0 else ""
            d.text(
                x, y + 18 + 14 * line, label + text, font_size=10.5, fill="#333", class_="off-board"
            )
            line += 1


def _wrap_ids(ids: list[str], width: int) -> list[str]:
    lines = [""]
    for unit in ids:
        candidate = f"{lines[-1]}, {unit}" if lines[-1] else unit
        if len(candidate) > width and lines[-1]:
            lines.append(unit)
        else:
            lines[-1] = candidate
    return lines
