"""The Barbarossa gamesheet's timeline and trackers, drawn from a view (the dice pool:
svg_pool.py).

rulebook: The Timeline, Capturing Cities and Gaining Victory Points (the VP tracker),
Re-supplying and Rolling sixes (the supply and command trackers).
"""

from __future__ import annotations

from pbem.games.barbarossa.svg_pen import (
    BLUE,
    INK,
    Marks,
    View,
    cross,
    outline_changed,
    red_die,
    section_label,
    sized,
)
from pbem.maps.layout import Place
from pbem.maps.svg import Drawing


def draw_timeline(d: Drawing, view: View, at: Place, marks: Marks) -> None:
    """rulebook: The Timeline -- 12 boxes, one marked a turn; Rasputitsa boxes show red dice."""
    w, h, gap = sized(at, "w", 76), sized(at, "h", 54), sized(at, "gap", 5)
    section_label(d, at.x, at.y - 7, "Timeline")
    for i, box in enumerate(view["timeline"]):
        x = at.x + i * (w + gap)
        n = box["box"]
        classes = "timeline-box" + (" marked" if box["marked"] else "")
        with d.group(
            id=f"timeline-{n}", class_=classes, data_value=n, data_red_dice=box["red_dice"]
        ):
            d.rect(
                x,
                at.y,
                w,
                h,
                f"timeline box {n}: {box['label']}",
                rx=3,
                fill="#fff",
                stroke=INK,
            )
            d.text(x + 5, at.y + 14, str(n), font_size=12, font_weight="bold", fill=INK)
            d.text(
                x + w / 2, at.y + h - 6, box["label"], font_size=10, fill=INK, text_anchor="middle"
            )
            for k in range(box["red_dice"]):
                red_die(d, x + w - 16 - 15 * k, at.y + 5)
            if box["marked"]:
                cross(d, x + w * 0.25, at.y + 8, w * 0.5, h - 24)
            if f"timeline.{n}" in marks:
                outline_changed(d, x, at.y, w, h, marks[f"timeline.{n}"])


def draw_vp(d: Drawing, view: View, at: Place) -> None:
    """rulebook: Capturing Cities -- one box of the VP tracker per red star; the bands of
    Winning the Game and Losing the Game shaded under it."""
    size, gap = sized(at, "box", 27), sized(at, "gap", 3)
    bands = view["victory"]
    top = bands["max"] or 20
    vp = view["vp"]
    section_label(d, at.x, at.y - 7, f"Victory points: {vp}")
    with d.group(id="vp", data_value=vp):
        for n in range(1, top + 1):
            x = at.x + (n - 1) * (size + gap)
            if n >= bands["triumph"]:
                fill = "#f3d36b"
            elif n >= bands["win"]:
                fill = "#bfe0b0"
            elif n >= bands["historical"]:
                fill = "#d9d4c6"
            else:
                fill = "#fff"
            with d.group(id=f"vp-{n}", class_="vp-box" + (" marked" if n <= vp else "")):
                d.rect(
                    x,
                    at.y,
                    size,
                    size,
                    fill=fill,
                    stroke=INK,
                )
                d.text(
                    x + size / 2,
                    at.y + size / 2 + 4,
                    str(n),
                    font_size=11,
                    fill=INK,
                    text_anchor="middle",
                )
                if n <= vp:
                    cross(d, x, at.y, size, size, 2.5)
        step = size + gap
        for low, high, name in (
            (bands["historical"], bands["win"] - 1, "historical"),
            (bands["win"], bands["triumph"] - 1, "victory"),
            (bands["triumph"], top, "triumph"),
        ):
            x = at.x + (low - 1) * step + (high - low + 1) * step / 2
            d.text(
                x,
                at.y + size + 13,
                f"{name} {low}-{high}",
                font_size=10,
                fill=INK,
                text_anchor="middle",
            )


# The cube trackers: their label and the colour of their cubes.
TRACKERS = {"supply": ("Supply (black cubes)", INK), "command": ("Command (blue cubes)", BLUE)}


def draw_cubes(d: Drawing, view: View, name: str, at: Place) -> None:
    """The supply or command tracker: a slot per cube it can hold, the cubes it holds."""
    label, colour = TRACKERS[name]
    count, cap = view["cubes"][name], view["limits"][name]
    size, gap = sized(at, "box", 27), sized(at, "gap", 5)
    section_label(d, at.x, at.y - 7, f"{label}: {count}/{cap}")
    with d.group(id=name, class_="tracker", data_value=count, data_cap=cap):
        for n in range(1, cap + 1):
            x = at.x + (n - 1) * (size + gap)
            filled = n <= count
            d.rect(
                x,
                at.y,
                size,
                size,
                rx=3,
                fill="#fff",
                stroke=INK,
                stroke_dasharray=None if filled else "3 2",
                id=f"{name}-{n}",
                class_="slot" + (" cube" if filled else ""),
            )
            if filled:
                inset = size * 0.18
                d.rect(
                    x + inset,
                    at.y + inset,
                    float(size - 2 * inset),
                    float(size - 2 * inset),
                    rx=2,
                    fill=colour,
                )
