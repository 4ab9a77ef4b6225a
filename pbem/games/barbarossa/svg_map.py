"""The Barbarossa campaign map: the army group paths, their cities and boxes.

rulebook: Campaign Map and Army Group Paths (the arrows from city to city), Attacking
Cities (the boxes above a city, marked in order), Long Logistical Chains (the supply
icon), Capturing Cities (the red city box and its VP stars).
"""

from __future__ import annotations

from typing import Any

from pbem.games.barbarossa.svg_pen import (
    INK,
    MAP,
    RED,
    Marks,
    View,
    cross,
    figure,
    outline_changed,
    section_label,
    sized,
)
from pbem.maps.layout import Layout, Place
from pbem.maps.svg import Drawing

BOX, BOX_GAP = 26, 3
CITY_W, CITY_H = 112, 22

# --- the campaign map -----------------------------------------------------------------------


def draw_map(d: Drawing, view: View, sheet: Layout, marks: Marks) -> None:
    area = sheet.places["map"]
    w, h = sized(area, "w", 990), sized(area, "h", 570)
    d.rect(area.x, area.y, w, h, rx=8, fill=MAP, stroke="#b9ad8c")
    section_label(d, area.x + 10, area.y + 20, "Campaign map")
    for path in view["paths"]:
        at = [sheet.places[c["id"]] for c in path["cities"]]
        for a, b in zip(at, at[1:], strict=False):
            _route(d, a, b)
    for path in view["paths"]:
        label = sheet.places[path["id"]]
        d.text(
            label.x,
            label.y,
            path["name"],
            font_size=14,
            font_weight="bold",
            fill="#5a4a2a",
            font_style="italic",
        )
        for city in path["cities"]:
            _city(d, city, sheet.places[city["id"]], marks)


def _route(d: Drawing, a: Place, b: Place) -> None:
    """The arrow from one city of a path to the next (rulebook: Campaign Map and Army
    Group Paths), from red box to red box, its head drawn as a triangle."""
    if b.x - a.x > CITY_W + 40:
        # West to east (the shipped layout): from the side of one red box to the side of
        # the next, never through the row of boxes above a city.
        x1, y1, xe, ye = a.x + CITY_W / 2 + 3, a.y, b.x - CITY_W / 2 - 3, b.y
    else:  # any other way round: along the line between the centres, from edge to edge
        dx, dy = b.x - a.x, b.y - a.y
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        ux, uy = dx / length, dy / length
        edge = min(CITY_W / 2 / max(abs(ux), 1e-6), CITY_H / 2 / max(abs(uy), 1e-6)) + 4
        x1, y1, xe, ye = a.x + ux * edge, a.y + uy * edge, b.x - ux * edge, b.y - uy * edge
    dx, dy = xe - x1, ye - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    x2, y2 = xe - ux * 12, ye - uy * 12  # the line ends where the arrow head begins
    d.add(
        "line",
        x1=float(x1),
        y1=float(y1),
        x2=float(x2),
        y2=float(y2),
        stroke="#8a7b5a",
        stroke_width=6,
        stroke_linecap="round",
        class_="route",
    )
    px, py = -uy, ux
    tip = (x2 + ux * 12, y2 + uy * 12)
    points = [tip, (x2 + px * 9, y2 + py * 9), (x2 - px * 9, y2 - py * 9)]
    d.add("polygon", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points), fill="#8a7b5a")


def _city(d: Drawing, city: dict[str, Any], at: Place, marks: Marks) -> None:
    boxes = city["boxes"]
    status = city["status"]
    row = len(boxes) * (BOX + BOX_GAP) - BOX_GAP
    first_free = next((i for i, b in enumerate(boxes) if not b["marked"]), None)
    with d.group(
        id=f"city-{city['id']}",
        class_=f"city {status}",
        data_stars=city["stars"],
        opacity=0.55 if status == "locked" else None,
    ):
        x0, y0 = at.x - row / 2, at.y - CITY_H / 2 - 6 - BOX
        for i, box in enumerate(boxes):
            x = x0 + i * (BOX + BOX_GAP)
            current = status == "unlocked" and i == first_free
            place = f"box.{city['id']}.{i + 1}"
            classes = "box" + "".join(
                f" {name}"
                for name, on in (
                    ("marked", box["marked"]),
                    ("supply", box["supply"]),
                    ("current", current),
                    ("changed", place in marks),
                )
                if on
            )
            tip = f"{city['name']} box {i + 1}: {box['value']}+" + (
                ", supply icon: discard a black cube" if box["supply"] else ""
            )
            with d.group(id=f"box-{city['id']}-{i + 1}", class_=classes, data_value=box["value"]):
                d.rect(
                    x,
                    y0,
                    BOX,
                    BOX,
                    tip,
                    rx=2,
                    fill="#fff",
                    stroke=RED if current else INK,
                    stroke_width=2.5 if current else 1,
                )
                figure(d, x + BOX / 2, y0 + BOX / 2 + 6, box["value"], 16)
                if box["supply"]:
                    d.rect(
                        x + BOX - 9,
                        y0 + 2,
                        7,
                        7,
                        fill=INK,
                        class_="supply-icon",
                    )
                if box["marked"]:
                    cross(d, x, y0, BOX, BOX)
                if place in marks:
                    outline_changed(d, x, y0, BOX, BOX, marks[place])
        cx, cy = at.x - CITY_W / 2, at.y - CITY_H / 2
        tip = f"{city['name']}: {status}, {city['stars']} VP star" + (
            "s" if city["stars"] != 1 else ""
        )
        d.rect(
            cx,
            cy,
            CITY_W,
            CITY_H,
            tip,
            rx=3,
            fill=RED,
            stroke="#5c0f0f",
        )
        if status == "captured":  # the red box marked off; the name stays readable over it
            cross(d, cx + 6, cy - 3, CITY_W - 12, CITY_H + 6, 2.5)
        figure(
            d,
            at.x,
            at.y + 5,
            city["name"],
            13,
            "#fff",
            stroke=RED,
            stroke_width=4,
            paint_order="stroke",
        )
        d.text(
            at.x,
            at.y + CITY_H / 2 + 15,
            "★" * city["stars"],
            font_size=15,
            fill=RED,
            text_anchor="middle",
            class_="stars",
        )
        if f"city.{city['id']}" in marks:
            outline_changed(d, cx, cy, CITY_W, CITY_H, marks[f"city.{city['id']}"])
