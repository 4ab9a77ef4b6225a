"""The Götterdämmerung maps as SVG: the Operational Map and the Berlin City Map (2.1) side by
side, drawn from the loaded map data (map_data.py) with the units a view shows.

`draw_board(board, counters_data, units, ...)` draws two panels. On the left the
Operational Map (hexes "op:XXYY"); on the right the Berlin City Map ("city:XXYY") at a
larger scale. The rulebook prints the City Map in the Operational Map's north-west corner
(the inset of map.toml, where there are no Operational hexes): here that corner holds a note
and the North German Plain Box (5.26, 9.23), beside the red-arrow hexes that lead into it.

Orientation (map_data.py, map.toml): XX grows southward and YY westward on an "even-q"
grid, so on the page every XX is a row of pointy-topped hexes, north at the top, YY falling
from left (west) to right (east); an even XX sits half a hex further west. Two hexes are
neighbours exactly when their drawn centres are one hex apart (the tests check it against
map_data's neighbours), so Stettin 0407 is in the north, Cottbus 4110 in the south-east,
the Oder along the east and Berlin in the middle.

A Transition Hex is one hex on both maps (4.15): on the Operational Map it is an ordinary
hex, on the City Map the face of several City-grid cells (the cells of the City rectangle
that are not City hexes). The loaded map does not say which cell belongs to which face, so
`faces` works it out from the City hexes each Transition Hex touches (4.25). Both drawings
share one outline colour and its number; units in a Transition Hex are drawn on its City
face (it has room), and the Operational hex shows how many there are. The unused hexes 2321
and 2322 (2.1) are drawn blank.

Units are the engine's unit dicts (id, side, hex, steps, disrupted, out_of_supply, delays,
volkssturm; the design note of the engine). A counter shows a short name, the
attack-defence-movement of its current side (the reduced side when it has lost a step,
6.52) and its markers: disrupted (6.66), out of supply (8.11) and HOW MANY Delay markers it
carries (6.82: their values are unknown to both players, so none is ever read). A face-down
Volkssturm (8.45) shows "VS ?"; a revealed one its own ratings. Stacks: the Operational Map
shows the top counter over the edges of the others and a count, the City Map two counters
side by side; the side panel lists every stack. Nothing is mutated; the same arguments give
the same bytes. The map is a stand-in (map.toml): the title block and the legend say so.

The drawing is split by job: svg_style.py (sizes, colours, line styles, the text helper),
svg_geometry.py (where each hex goes; the Transition Hexes' faces), svg_counters.py (one
counter), svg_map.py (the map's layers, one pen), svg_panel.py (title block and legend);
their names with a leading underscore are this package's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pbem.errors import PbemError
from pbem.games.gotterdammerung import map_data
from pbem.games.gotterdammerung.highlight import last_turn
from pbem.games.gotterdammerung.svg_counters import short_name
from pbem.games.gotterdammerung.svg_geometry import Panel, faces
from pbem.games.gotterdammerung.svg_map import Pen
from pbem.games.gotterdammerung.svg_panel import draw_legend, draw_title
from pbem.games.gotterdammerung.svg_style import (
    CITY_SIZE,
    GAP,
    LEFT,
    OP_SIZE,
    STAND_IN_NOTICE,
    TOP,
    TRANSITION,
)
from pbem.maps.board import BoardSvg, MapAsk
from pbem.maps.svg import Drawing, Highlight

if TYPE_CHECKING:
    from pbem.core.adjudicator import Adjudicator

__all__ = ["STAND_IN_NOTICE", "board_svg", "draw_board", "faces", "highlight_of", "short_name"]


def draw_board(
    board: Mapping[str, Any],
    counters_data: Mapping[str, Any],
    units: Mapping[str, Mapping[str, Any]],
    *,
    occupied: Iterable[str] = (),
    turn: int | None = None,
    phase: str | None = None,
    support_points: object = None,
    highlight: Highlight | None = None,
    scale: float = 1.0,
) -> str:
    """The two maps of `board` with `units` (id -> unit dict, read only) drawn from
    `counters_data` (counters.load_counters), the Soviet Occupied markers on `occupied`
    (5.47, 11.12) and where play stands (turn, phase, Soviet support points)."""
    op = Panel(board, map_data.OP, LEFT, TOP, OP_SIZE)
    city_x = LEFT + op.width + GAP
    city = Panel(board, map_data.CITY, city_x, TOP + 24, CITY_SIZE)
    width = city_x + city.width + 30
    height = TOP + op.height + 56
    data_units = counters_data.get("units", {})
    by_hex: dict[str, list[Mapping[str, Any]]] = {}
    for uid in sorted(units):
        unit = units[uid]
        where = unit.get("hex")
        if where is None:
            continue
        if where != "ngp" and where not in board["hexes"]:
            raise ValueError(f"unit {uid}: {where} is not a hex of the maps")
        by_hex.setdefault(str(where), []).append(unit)
    d = Drawing(
        width, height, title="Götterdämmerung: the Operational and Berlin City Maps", scale=scale
    )
    d.add("rect", x=0, y=0, width=width, height=height, fill="#fbfaf5")
    pen = Pen(d, board, op, city, data_units)
    pen.hexes()
    pen.transition_faces()
    pen.areas()
    pen.lines()
    pen.hexsides()
    pen.symbols(set(occupied))
    pen.inset(len(by_hex.get("ngp", ())))
    pen.counters(by_hex)
    pen.labels()
    if highlight is not None:
        pen.highlight(highlight)
    draw_title(d, turn, phase, support_points)
    d.label(LEFT, TOP - 22, "Operational Map (2.1)", 16, bold=True)
    d.label(
        city_x,
        TOP + 12,
        "Berlin City Map (2.1), drawn at a larger scale",
        16,
        bold=True,
    )
    d.label(
        city_x + 400,
        TOP + 12,
        "Purple: the eight Transition Hexes, each ONE hex on both "
        "maps (4.15); units in one are drawn on its face here.",
        11,
        TRANSITION,
    )
    draw_legend(d, city_x, city.y0 + city.height + 24, height - 10, pen.stack_lines(by_hex))
    return d.to_string()


# --- the render registry's entry (pbem/render/maps.py) ------------------------------------------


def _maps(view: Mapping[str, Any], ask: MapAsk) -> str:
    """The maps as `view` shows them (what a role may know is already all the view holds:
    Delay values and face-down Volkssturm are never in a unit dict, so `ask.role` is not
    read). A layout is refused: the hexes are placed by their grids."""
    if ask.layout is not None:
        raise PbemError("gotterdammerung draws its maps from their grids: it takes no layout")
    return draw_board(
        view["board"],
        view["counters"],
        view["units"],
        occupied=view.get("occupied") or (),
        turn=view.get("turn"),
        phase=view.get("phase"),
        support_points=view.get("support_points"),
        highlight=ask.highlight,
        scale=ask.scale,
    )


board_svg = BoardSvg(_maps)  # the render registry's entry (pbem/render/maps.py)


def highlight_of(game: Adjudicator) -> Highlight:
    """What the turn being played did (highlight.py reads it from the public actions)."""
    return last_turn(game.actions)
