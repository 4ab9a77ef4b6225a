"""The pen and colours of the Barbarossa gamesheet's picture: what every part draws with.

A marked box gets the pen's X, a thing changed in the last turn an orange outline, a
section its bold label; sizes a layout may give (`box`, `gap`, `w`, `h`) are read here.
"""

from __future__ import annotations

from typing import Any

from pbem.maps.layout import Place
from pbem.maps.svg import Drawing

View = dict[str, Any]
Marks = dict[str, str]  # a Highlight's marks: place -> what happened there

PAPER, MAP, INK, PEN = "#f4efe1", "#e6dfc8", "#2b2b2b", "#1d3557"
RED, BLUE, CHANGED = "#b22222", "#1f5fbf", "#ff8c00"


def sized(place: Place, key: str, default: float) -> float:
    value = place.extra.get(key, default)
    return float(value) if isinstance(value, int | float) else default


def section_label(d: Drawing, x: float, y: float, text: str) -> None:
    d.text(x, y, text, font_size=13, font_weight="bold", fill=INK)


def figure(
    d: Drawing, x: float, y: float, text: object, size: float, fill: str = INK, **more: object
) -> None:
    """A bold text centred on x: a box's value, a die's face, a chart row's range, a city's
    name."""
    d.text(x, y, text, font_size=size, font_weight="bold", fill=fill, text_anchor="middle", **more)


def cross(d: Drawing, x: float, y: float, w: float, h: float, width: float = 3) -> None:
    """The pen's X over a marked box."""
    inset = min(w, h) * 0.16
    for x1, y1, x2, y2 in ((x, y, x + w, y + h), (x + w, y, x, y + h)):
        d.add(
            "line",
            x1=float(x1 + (inset if x1 < x2 else -inset)),
            y1=float(y1 + inset),
            x2=float(x2 - (inset if x1 < x2 else -inset)),
            y2=float(y2 - inset),
            stroke=PEN,
            stroke_width=width,
            stroke_linecap="round",
            opacity=0.8,
        )


def outline_changed(d: Drawing, x: float, y: float, w: float, h: float, tip: str) -> None:
    d.rect(
        x - 3,
        y - 3,
        float(w + 6),
        float(h + 6),
        tip,
        rx=4,
        fill="none",
        stroke=CHANGED,
        stroke_width=3,
        class_="changed",
    )


def red_die(d: Drawing, x: float, y: float, size: float = 12) -> None:
    d.rect(x, y, size, size, rx=2, fill=RED)
    d.add("circle", cx=float(x + size / 2), cy=float(y + size / 2), r=1.6, fill="#fff")
