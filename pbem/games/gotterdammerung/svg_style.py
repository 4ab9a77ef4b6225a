"""The Götterdämmerung maps' sizes, colours and line styles, and the text helper every
drawing module of the maps uses (svg.py draws them; its docstring says how)."""

from __future__ import annotations

import math

STAND_IN_NOTICE = (
    "stand-in map: the geometry and terrain are invented for pbem (map.toml); "
    "the rulebook does not print the published map"
)
Point = tuple[float, float]
SQRT3 = math.sqrt(3)
OP_SIZE, CITY_SIZE = 24.0, 40.0  # centre to corner of a hex on each panel
LEFT, TOP = 46.0, 112.0  # the Operational Map's top-left corner
GAP = 70.0  # between the panels
CW, CH = 34.0, 26.0  # a counter

TERRAIN_FILL = {
    "clear": "#f3ecd6",
    "forest": "#a8c88e",
    "marsh": "#bcd9d0",
    "mountain": "#c7a57a",
    "small-city": "#e4d7c0",
    "major-city": "#dcc4b0",
    "built-up": "#d6bdb0",
}
NUMBER_INK = "#6d6353"
TRANSITION = "#7b2fbf"  # the outline of a Transition Hex on both panels
FACE_FILL = "#e8dcf4"  # a Transition Hex's face on the City Map
RIVER_STYLE = {
    "major-river": {"stroke": "#1d5fbf", "stroke_width": 4.2},
    "river": {"stroke": "#2b77d0", "stroke_width": 2.8},
    "minor-river": {"stroke": "#4b93df", "stroke_width": 1.6},
    "sea-lake": {"stroke": "#163f7a", "stroke_width": 6},
    "spree": {"stroke": "#1d5fbf", "stroke_width": 7},
}
ROAD = {"stroke": "#b5651d", "stroke_width": 2.2, "stroke_linecap": "round"}
RAIL = {"stroke": "#222222", "stroke_width": 1.3}
RAIL_TIES = {"stroke": "#222222", "stroke_width": 5, "stroke_dasharray": "1 5"}
UBAHN = {
    "stroke": "#7a4a1e",
    "stroke_width": 3.2,
    "stroke_dasharray": "0.1 6",
    "stroke_linecap": "round",
}
FRONT = {"stroke": "#d0201a", "stroke_width": 2.6, "stroke_dasharray": "9 3 2 3"}
AREA = {"stroke": "#6f6f6f", "stroke_width": 2.4, "stroke_dasharray": "5 3"}
HALO = {"stroke": "#fffdf6", "stroke_width": 2.6, "paint_order": "stroke"}
NATION = {  # fill, ink
    "soviet": ("#c0392b", "#ffffff"),
    "polish": ("#f4f4f4", "#b0121b"),
    "american": ("#6b7f3a", "#ffffff"),
    "german": ("#7b7f83", "#ffffff"),
}
VOLKSSTURM_FILL = ("#a8a08c", "#ffffff")
BRANCH_SHORT = {
    "rifle": "Rfl",
    "tank": "Tk",
    "mechanized": "Mech",
    "cavalry": "Cav",
    "heavy-tank": "HvTk",
    "heavy-sp-gun": "HvSP",
    "heavy-artillery": "HvArt",
    "armour": "Pz",
    "panzergrenadier": "PzG",
    "assault-gun": "StuG",
    "tank-destroyer": "PzJ",
    "infantry": "Inf",
    "anti-tank": "PzJ",
    "artillery": "Art",
    "naval-infantry": "Nav",
    "flak": "Flak",
    "paratroops": "Fj",
    "special-duty": "zbV",
    "depot": "Depot",
    "armoured": "Arm",
    "hq": "HQ",
    "fuhrer": "Hitler",
    "fortress": "Fort",
    "factory": "Fact",
}
