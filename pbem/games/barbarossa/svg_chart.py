"""The Barbarossa campaign event chart, drawn beside the gamesheet or alone.

rulebook: Roll on the event chart -- one die, +1 for each black cube spent, a blue cube
re-rolls it; the row of the event die now (or of the last turn's) is outlined.
"""

from __future__ import annotations

import textwrap

from pbem.games.barbarossa.svg_pen import (
    CHANGED,
    INK,
    Marks,
    View,
    figure,
    section_label,
    sized,
)
from pbem.games.barbarossa.view import boost_options, chart_rows
from pbem.maps.layout import Place
from pbem.maps.svg import Drawing

# --- the event chart ------------------------------------------------------------------------


def draw_chart(d: Drawing, view: View, at: Place, marks: Marks) -> float:
    """rulebook: Roll on the event chart -- one die, +1 a black cube, a blue cube re-rolls.
    Returns the y below the last line drawn."""
    w = sized(at, "w", 300)
    rows = chart_rows(view)
    die = view.get("event_die")
    shown = die["value"] if die else _number(marks.get("event"))
    section_label(d, at.x, at.y + 4, "Campaign event chart")
    y = at.y + 16
    for k, row in enumerate(rows, start=1):
        current = shown is not None and row["low"] <= shown <= row["high"]
        with d.group(
            id=f"chart-row-{k}",
            class_="chart-row" + (" current" if current else ""),
            data_range=row["range"],
            data_event=row["event"],
        ):
            d.rect(
                at.x,
                y,
                w,
                52,
                rx=4,
                fill="#fff3e0" if current else "#fff",
                stroke=CHANGED if current else INK,
                stroke_width=3 if current else 1,
            )
            figure(d, at.x + 30, y + 33, row["range"], 20)
            d.add(
                "line",
                x1=float(at.x + 60),
                y1=float(y),
                x2=float(at.x + 60),
                y2=float(y + 52),
                stroke=INK,
            )
            d.text(at.x + 68, y + 18, row["name"], font_size=13, font_weight="bold", fill=INK)
            for j, line in enumerate(textwrap.wrap(row["text"], 36)[:2]):
                d.text(at.x + 68, y + 33 + 13 * j, line, font_size=11, fill=INK)
        y += 56
    notes = (
        [  # rules 1.1: one black cube and one blue cube at most on the event die
            "Roll one die. One black cube adds +1 (boost event 1);",
            "one blue cube re-rolls it (reroll event).",
        ]
        if view.get("rules") is not None
        else [
            "Roll one die. Each black cube spent adds +1 (boost event N);",
            "a blue cube re-rolls it (reroll event).",
        ]
    )
    if die:
        mod = f", +{die['modifier']}" if die["modifier"] else ""
        notes.append(f"Event die: {die['value']} (rolled {die['roll']}{mod}) = {die['name']}")
        notes += [
            f"boost event {b['cubes']}: {b['value']} = {b['name']}" for b in boost_options(view)
        ]
    elif shown is not None:
        notes.append(f"Last event die: {shown}")
    for j, line in enumerate(notes):
        bold = j >= 2 and line.startswith(("Event", "Last"))
        d.text(
            at.x,
            y + 12 + 16 * j,
            line,
            font_size=11,
            fill=INK,
            font_weight="bold" if bold else None,
        )
    return y + 16 * len(notes) + 4


def _number(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() else None
