"""The Barbarossa gamesheet as SVG: timeline, trackers, army group paths, dice pool, and
the campaign event chart beside it (pbem.render.maps finds `board_svg` here).

Drawn from a view alone (`Engine.view`: the whole state, nothing is hidden) at the
positions of a layout file (`data/layout.toml`, a stand-in: the rulebook prints no
picture of the sheet; a user's layout replaces it). What changed in the last turn comes
as a `Highlight` (`highlight_of`): its marks name places of the sheet,

    box.<city>.<n>   a box marked             timeline.<n>   the timeline box marked
    city.<city>      a city captured          die.<n>        a die and what it did
    event            the event die's result (its text is the value)

and are drawn with an orange outline; the dice of a turn that has ended are listed in
the pool box. Every element a test or a reader looks for has an id (`box-kiev-3`,
`timeline-4`, `die-2`, `chart-row-1`, `vp`, `supply`, `command`) and its value in a
`data-value` attribute; marked things carry the class `marked`.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from pbem.core.history import turn_actions
from pbem.games.barbarossa.svg_chart import draw_chart
from pbem.games.barbarossa.svg_map import draw_map
from pbem.games.barbarossa.svg_pen import INK, PAPER, View
from pbem.games.barbarossa.svg_pool import draw_pool
from pbem.games.barbarossa.svg_sheet import draw_cubes, draw_timeline, draw_vp
from pbem.games.barbarossa.view import (
    city_names,
    header,
    plays_shipped_sheet,
)
from pbem.maps.board import BoardSvg, MapAsk
from pbem.maps.layout import Layout, Place, load_layout
from pbem.maps.svg import Drawing, Highlight

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator

# --- the layout -----------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _shipped_layout() -> bytes:
    return (resources.files("pbem.games.barbarossa") / "data" / "layout.toml").read_bytes()


# The sheet's areas every layout must place, besides one place per army group (its
# label) and one per city (its red box).
AREAS = ("title", "timeline", "vp", "supply", "command", "map", "pool", "legend", "chart")
STAND_IN_LINE = "stand-in layout, not the published gamesheet"


def needs(view: View) -> set[str]:
    """The places a layout must give to draw `view`."""
    ids = set(AREAS)
    for path in view["paths"]:
        ids.add(path["id"])
        ids.update(city["id"] for city in path["cities"])
    return ids


def sheet_layout(view: View, layout: bytes | None) -> Layout:
    """The user's layout, or the shipped stand-in; a place missing is refused (LayoutError)."""
    return load_layout(layout if layout is not None else _shipped_layout(), needs=needs(view))


# --- board_svg ------------------------------------------------------------------------------


def _sheet(view: View, ask: MapAsk) -> str:
    """The gamesheet of `view` with the event chart beside it. `ask.role` changes nothing:
    Barbarossa hides nothing, every role sees the same sheet."""
    sheet = sheet_layout(view, ask.layout)
    marks = dict(ask.highlight.marks) if ask.highlight is not None else {}
    d = Drawing(
        sheet.width, sheet.height, title=f"Operation Barbarossa: {header(view)}", scale=ask.scale
    )
    d.rect(0, 0, sheet.width, sheet.height, fill=PAPER)
    title = sheet.places["title"]
    d.text(
        title.x,
        title.y,
        f"Operation Barbarossa 1941: {header(view)}",
        font_size=22,
        font_weight="bold",
        fill=INK,
    )
    draw_timeline(d, view, sheet.places["timeline"], marks)
    draw_vp(d, view, sheet.places["vp"])
    for tracker in ("supply", "command"):
        draw_cubes(d, view, tracker, sheet.places[tracker])
    draw_map(d, view, sheet, marks)
    draw_pool(d, view, sheet.places["pool"], marks)
    _legend(d, view, sheet, sheet.places["legend"])
    draw_chart(d, view, sheet.places["chart"], marks)
    return d.to_string()


board_svg = BoardSvg(_sheet)  # the render registry's entry (pbem/render/maps.py)


def event_chart_svg(
    view: View,
    *,
    highlight: Highlight | None = None,
    scale: float = 1.0,
) -> str:
    """The campaign event chart alone (rulebook: Roll on the event chart)."""
    place = Place("chart", 10, 10, "stand-in", {"w": 300})
    marks = dict(highlight.marks) if highlight is not None else {}
    # the chart's height depends on its notes: measured on a first drawing, then drawn
    height = draw_chart(Drawing(320, 0, title=""), view, place, marks) + 10
    d = Drawing(320, height, title="Operation Barbarossa: campaign event chart", scale=scale)
    d.rect(0, 0, 320, height, fill=PAPER)
    draw_chart(d, view, place, marks)
    return d.to_string()


# --- the legend -----------------------------------------------------------------------------


def _legend(d: Drawing, view: View, sheet: Layout, at: Place) -> None:
    lines = [
        "X marked  ·  small black square: supply icon (discard a black cube to mark it)  ·  "
        "red outline: next box to attack  ·  orange outline: changed this turn  ·  "
        "red dice: Rasputitsa",
    ]
    stand_in = []
    if sheet.stand_in:
        stand_in.append(STAND_IN_LINE)
    if plays_shipped_sheet(view):
        stand_in.append(
            "stand-in values (cities, boxes, stars, red dice, chart ranges) where the "
            "rulebook prints none: see gamesheet.toml"
        )
    if stand_in:
        lines.append("; ".join(stand_in))
    with d.group(id="legend"):
        for j, line in enumerate(lines):
            d.text(
                at.x, at.y + 15 * j, line, font_size=11, fill=INK, class_="stand-in" if j else None
            )


# --- what changed in the last turn ----------------------------------------------------------


def highlight_of(game: Adjudicator) -> Highlight:
    """The boxes, timeline box, cities, dice and event die of the last turn that has any
    action (the turn a summary shows: pbem.core.history.turn_actions)."""
    state = game.state
    if not isinstance(state, dict):
        return Highlight()
    names = city_names(state)
    marks: dict[str, str] = {}
    _, actions = turn_actions(game.actions, state.get("turn"))
    for action in actions:
        for event in action.events:
            data = event.data
            if {"city", "box", "value"} <= set(data):
                marks[f"box.{data['city']}.{data['box']}"] = event.text
            elif {"turn", "box"} <= set(data):
                marks[f"timeline.{data['box']}"] = event.text
            elif {"city", "stars", "vp"} <= set(data):
                marks[f"city.{data['city']}"] = event.text
            elif {"die", "city", "value"} <= set(data):
                name = names.get(str(data["city"]), data["city"])
                marks[f"die.{data['die']}"] = f"{data['value']} attacks {name}"
            elif {"die", "gained"} <= set(data):
                gained = data["gained"]
                cubes = "black cube" if gained == 1 else "black cubes"
                marks[f"die.{data['die']}"] = f"re-supply, +{gained} {cubes}"
            if "event" in data and ("roll" in data or "value" in data):
                marks["event"] = str(data.get("value", data.get("roll")))
    return Highlight(marks=tuple(marks.items()))
