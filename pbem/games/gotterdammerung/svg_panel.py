"""What the Götterdämmerung maps show beside the two panels: the title block (where play
stands, and that the map is a stand-in) and the legend with the list of stacks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.games.gotterdammerung.svg_style import (
    AREA,
    FRONT,
    LEFT,
    RAIL,
    RIVER_STYLE,
    ROAD,
    TERRAIN_FILL,
    TRANSITION,
    UBAHN,
)
from pbem.maps.svg import Drawing


def draw_title(d: Drawing, turn: int | None, phase: str | None, support: object) -> None:
    """The title block: the game, the turn and phase, the support points, the stand-in note."""
    d.label(
        LEFT,
        30,
        "Götterdämmerung: the Fall of Berlin, April-May 1945",
        22,
        bold=True,
    )
    where = [f"Turn {turn} of 10" if turn else "Set-up"]
    if phase:
        where.append(f"phase: {phase}")
    if support is not None:
        where.append(f"Soviet support points: {support}")
    d.label(LEFT, 52, ", ".join(where), 14, class_="status")
    d.label(
        LEFT,
        70,
        "STAND-IN MAP: the geometry and terrain are invented for pbem "
        "(map.toml), not the published map; only the hexes the rulebook names are placed "
        "as it says.",
        12,
        "#8a1f11",
        bold=True,
    )


def draw_legend(d: Drawing, x: float, y: float, bottom: float, stacks: Sequence[str]) -> None:
    """The legend at (x, y), then `stacks` (one line a stack) in columns down to `bottom`."""
    with d.group(class_="legend"):
        d.label(x, y, "Legend", 14, bold=True)
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
            d.label(x + 20, row, name, 10)
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
            d.label(col + 32, row2, text, 10)
            row2 += 14
        d.add(
            "polygon",
            points=f"{col},{row2 - 10} {col + 26},{row2 - 10} {col + 26},{row2 + 2} "
            f"{col},{row2 + 2}",
            fill="none",
            stroke=TRANSITION,
            stroke_width=3,
        )
        d.label(col + 32, row2, "Transition Hex: ONE hex, on both maps (4.15)", 10)
        row2 += 14
        for text in (
            "yellow disc: VP hex and its VP (11.13); red square: Soviet Occupied (5.47)",
            "grey disc on the Spree: a bridge (5.36); dashed brown hexagon: fortified (6.43)",
            "yellow tags at the edge: entry hex codes; red arrows: into the NGP Box (5.26)",
        ):
            d.label(col, row2, text, 10)
            row2 += 14
        row = max(row, row2) + 8
        d.label(
            x,
            row,
            "Counters: short name, attack-defence-movement; Soviet red, Polish "
            "white, American green, German grey, Volkssturm khaki.",
            10,
        )
        d.label(
            x,
            row + 14,
            "White corner: reduced side (6.52). Tags: D disrupted (6.66), OS "
            "out of supply (8.11), n? = n Delay markers (6.82, values unknown).",
            10,
        )
        d.label(
            x,
            row + 28,
            "VS ? = a face-down Volkssturm (8.45). A number beside a counter: "
            "units in the stack (hover for each).",
            10,
        )
        row += 50
        if stacks:
            d.label(x, row, "Stacks", 12, bold=True)
            row += 14
            per_col = max(1, int((bottom - row) // 12))
            width = 330
            for i, line in enumerate(stacks):
                cx = x + (i // per_col) * width
                if cx > x + 3 * width:
                    d.label(cx - width, row + per_col * 12, "...", 9)
                    break
                d.label(cx, row + (i % per_col) * 12, line[:60], 9, class_="stack-entry")
