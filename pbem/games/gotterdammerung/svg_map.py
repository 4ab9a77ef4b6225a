"""The layers of the Götterdämmerung maps, drawn by one pen (`Pen`) in draw_board's
order: hexes and terrain, Transition Hex faces, deployment areas, roads, rails and the
U-Bahn, hexsides (rivers, the front), symbols, the North German Plain Box inset, the
counters, the labels, a highlight; and the stacks listed beside."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.gotterdammerung import map_data
from pbem.games.gotterdammerung.svg_counters import counter_face, draw_counter, draw_stub
from pbem.games.gotterdammerung.svg_geometry import Panel, around, faces, grid_number
from pbem.games.gotterdammerung.svg_style import (
    AREA,
    CH,
    CW,
    FACE_FILL,
    FRONT,
    HALO,
    NUMBER_INK,
    OP_SIZE,
    RAIL,
    RAIL_TIES,
    RIVER_STYLE,
    ROAD,
    TERRAIN_FILL,
    TRANSITION,
    UBAHN,
    Point,
)
from pbem.maps.hexes import label, split
from pbem.maps.svg import Drawing, Highlight


class Pen:
    """Draws the maps' layers on one drawing, the hexes placed by the two panels' grids."""

    def __init__(
        self,
        d: Drawing,
        board: Mapping[str, Any],
        op: Panel,
        city: Panel,
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

    def panel(self, h: str) -> Panel:
        return self.op if h.startswith("op:") else self.city

    def at(self, h: str) -> Point:
        return self.panel(h).centre(grid_number(h))

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
                    "polygon",
                    words,
                    points=self.panel(h).points(grid_number(h)),
                    fill=fill,
                    data_hex=h,
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
                        d.circle(x + dx * r / 3.2, y + dy * r / 3.2, r)
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
                d.label(x, y + 3, "not used", 7, "#888888", anchor="middle")
        with d.group(
            class_="fortified",
            fill="none",
            stroke="#5b3a1a",
            stroke_width=2.2,
            stroke_dasharray="3 2",
        ):
            for h, info in sorted(self.board["hexes"].items()):
                if info.get("fortified"):
                    d.add("polygon", points=self.panel(h).points(grid_number(h), 0.82))

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
                    for c, r in around(*split(cell)):
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
                d.add("polygon", points=self.op.points(grid_number(t), 0.92), data_transition=t)

    def areas(self) -> None:
        """10.22: the deployment areas A-J outlined grey, with their letter."""
        d, op = self.d, self.op
        with d.group(class_="deployment", **AREA):
            for area, hexes in self.board["deployment"].items():
                mine = {grid_number(h) for h in hexes}
                for n in sorted(mine):
                    a = op.centre(n)
                    for c, r in around(*split(n)):
                        if c * 100 + r not in mine:
                            p, q = op.side(a, op.at(c, r))
                            d.add("line", x1=p[0], y1=p[1], x2=q[0], y2=q[1], data_area=area)
        with d.group(class_="area-letter"):
            for area, hexes in self.board["deployment"].items():
                xs = [self.at(h) for h in hexes]
                x = min(p[0] for p in xs) - OP_SIZE * 1.25
                y = sum(p[1] for p in xs) / len(xs)
                d.circle(x, y, 8, fill="#ffffff", stroke="#6f6f6f", stroke_width=1.5)
                d.label(x, y + 4, area, 11, "#444444", anchor="middle", bold=True)

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
                d.circle(mx, my, 4.5, fill="#8a8a8a", stroke="#222222", stroke_width=1)

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
                d.circle(
                    cx,
                    cy,
                    8,
                    f"{item['name']}: {item['vp']} VP (11.13)",
                    fill="#ffd23f",
                    stroke="#8a1f11",
                    stroke_width=1.4,
                )
                d.label(cx, cy + 3.5, item["vp"], 9, "#8a1f11", anchor="middle", bold=True)
        with d.group(class_="occupied"):  # 5.47, 11.12
            for h in sorted(occupied):
                if h not in self.board["hexes"]:
                    raise ValueError(f"Soviet Occupied marker: {h} is not a hex of the maps")
                x, y = self.at(h)
                s = self.panel(h).size
                cx, cy = x - s * 0.55, y - s * 0.45
                d.square(
                    cx,
                    cy,
                    14,
                    f"{h}: Soviet Occupied (5.47)",
                    fill="#c0392b",
                    stroke="#5b0f08",
                    stroke_width=1,
                )
                d.label(cx, cy + 4, "★", 10, "#ffe14d", anchor="middle")
        with d.group(class_="entry"):  # 9.16 ...: the entry hex codes, outside the edge
            op = self.op
            for code, hexes in self.board["entry"].items():
                for h in hexes:
                    c, r = split(grid_number(h))
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
                    d.label(bx, by + 4, code, 10, anchor="middle", bold=True, data_entry=h)

    def inset(self, in_box: int) -> None:
        """The north-west corner where the published map prints the City Map: a note, and
        the North German Plain Box beside its red-arrow hexes (5.26, 9.23)."""
        d, op = self.d, self.op
        box = self.board["ngp_box"]
        arrows = [self.at(h) for h in box["red_arrows"]]
        right = min(p[0] for p in arrows) - OP_SIZE * 1.3
        x0 = op.x0 + 20
        note_y = op.y0 + 30
        d.label(
            x0,
            note_y,
            "The published map prints the Berlin City Map in this corner (2.1):",
            11,
            "#555555",
        )
        d.label(
            x0,
            note_y + 15,
            "here it is drawn at a larger scale to the right.",
            11,
            "#555555",
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
            d.label(
                bx + bw / 2,
                by + 16,
                self.board["ngp_box"].get("name", "NGP"),
                11.5,
                anchor="middle",
                bold=True,
            )
            d.label(bx + bw / 2, by + 28, "(5.26, 9.23: no limit)", 9, "#555555", anchor="middle")
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
                        draw_counter(
                            d, unit, self.data.get(unit["id"]), left + i * (CW + 3), y - CH / 2
                        )
                    ox, oy = self.at(h)
                    d.circle(
                        ox,
                        oy,
                        9,
                        f"{len(here)} unit(s): drawn on the City Map face of {h}",
                        fill="#ffffff",
                        stroke=TRANSITION,
                        stroke_width=2,
                    )
                    d.label(
                        ox,
                        oy + 4,
                        len(here),
                        11,
                        TRANSITION,
                        anchor="middle",
                        bold=True,
                        class_="count",
                    )
                elif h.startswith("city:"):
                    x, y = self.at(h)
                    shown = here[:2]
                    left = x - (len(shown) * (CW + 2) - 2) / 2
                    for i, unit in enumerate(shown):
                        draw_counter(
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
                            fill=counter_face(here[i], self.data.get(here[i]["id"]))["colours"][0],
                            stroke="#111111",
                            stroke_width=0.7,
                            data_under=str(here[i]["id"]),
                        )
                    draw_counter(d, here[0], self.data.get(here[0]["id"]), left, top)
                    if len(here) > 1:
                        self._count(left + CW + 3, top + CH - 4, len(here), h)
                    for unit in here[1:]:  # every unit keeps its own (hidden) box
                        draw_stub(d, unit, self.data.get(unit["id"]), left, top)

    def _count(self, x: float, y: float, n: int, h: str) -> None:
        self.d.circle(
            x,
            y,
            7,
            fill="#ffffff",
            stroke="#111111",
            stroke_width=1,
            data_stack=h,
        )
        self.d.label(x, y + 3.5, n, 9.5, anchor="middle", bold=True, class_="count")

    def _ngp_counters(self, here: Sequence[Mapping[str, Any]]) -> None:
        for unit, (x, y) in zip(here, self.ngp_slots, strict=False):
            draw_counter(self.d, unit, self.data.get(unit["id"]), x, y)

    def labels(self) -> None:
        """Hex numbers (small) and place names, over the counters with a halo."""
        d = self.d
        with d.group(class_="hex-number", fill=NUMBER_INK, text_anchor="middle"):
            for h, info in sorted(self.board["hexes"].items()):
                x, y = self.at(h)
                s = self.panel(h).size
                d.text(x, y - s * 0.6, label(info["number"]), font_size=6 if s < 30 else 8)
            for t, (x, y) in sorted(self.face_centre.items()):
                d.label(
                    x,
                    y - CH / 2 - 8,
                    f"Transition Hex {t[3:]}",
                    11,
                    TRANSITION,
                    **HALO,  # an outline keeps the words legible over lines and counters
                    anchor="middle",
                    bold=True,
                )
        with d.group(class_="place"):
            for h, name in sorted(self.board["places"].items()):
                x, y = self.at(h)
                s = self.panel(h).size
                d.label(
                    x,
                    y + s * 0.92,
                    name,
                    9 if len(name) < 14 else 8,
                    "#1b1b1b",
                    **HALO,  # an outline keeps the words legible over lines and counters
                    anchor="middle",
                    bold=True,
                )

    def stack_lines(self, by_hex: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[str]:
        out = []
        for h in sorted(by_hex):
            here = by_hex[h]
            if h == "ngp" or len(here) < 2:
                continue
            names = ", ".join(counter_face(u, self.data.get(u["id"]))["label"] for u in here)
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
                self.d.label(
                    x,
                    y - 16,
                    text,
                    10,
                    "#8a1f11",
                    **HALO,  # an outline keeps the words legible over lines and counters
                    anchor="middle",
                    bold=True,
                    class_="mark",
                )
