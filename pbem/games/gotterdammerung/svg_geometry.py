"""Where the Götterdämmerung maps put their hexes: each panel's grid (`Panel`: XX rows
downward, YY columns leftward, svg.py's docstring) and the City-grid cells drawn as each
Transition Hex's face (`faces`, 4.15, 4.25)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from pbem.games.gotterdammerung import map_data
from pbem.games.gotterdammerung.svg_style import SQRT3, Point
from pbem.maps.hexes import split


class Panel:
    """Where one map's hexes are drawn: XX rows downward, YY columns leftward (module doc)."""

    def __init__(self, board: Mapping[str, Any], map_name: str, x0: float, y0: float, size: float):
        ext = board["operational" if map_name == map_data.OP else "city"]
        (self.c0, self.r0), (self.c1, self.r1) = split(int(ext["first"])), split(int(ext["last"]))
        self.map, self.x0, self.y0, self.size = map_name, x0, y0, size
        self.width = SQRT3 * size * (self.r1 - self.r0 + 1.5)
        self.height = 1.5 * size * (self.c1 - self.c0) + 2 * size

    def at(self, col: int, row: int) -> Point:
        w = SQRT3 * self.size
        x = self.x0 + w * (self.r1 - row + 1 - 0.5 * (col % 2 == 0))
        return x, self.y0 + self.size + 1.5 * self.size * (col - self.c0)

    def centre(self, number: int) -> Point:
        return self.at(*split(number))

    def corners(self, centre: Point, shrink: float = 1.0) -> list[Point]:
        x, y = centre
        s = self.size * shrink
        return [
            (
                x + s * math.cos(math.radians(30 + 60 * i)),
                y + s * math.sin(math.radians(30 + 60 * i)),
            )
            for i in range(6)
        ]

    def points(self, number: int, shrink: float = 1.0) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.corners(self.centre(number), shrink))

    def side(self, a: Point, b: Point) -> tuple[Point, Point]:
        """The hexside between two touching hex centres (it is one hex side long)."""
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        dist = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        px, py = -(b[1] - a[1]) / dist * self.size / 2, (b[0] - a[0]) / dist * self.size / 2
        return (mx + px, my + py), (mx - px, my - py)


def around(col: int, row: int) -> list[tuple[int, int]]:
    """The six grid positions around (col, row), on the map or not (even-q, 4.25)."""
    lo = row if col % 2 == 0 else row - 1
    return [
        (col - 1, lo),
        (col - 1, lo + 1),
        (col + 1, lo),
        (col + 1, lo + 1),
        (col, row - 1),
        (col, row + 1),
    ]


def grid_number(h: str) -> int:
    """The XXYY number of a hex ref on its map's grid ("op:1234" -> 1234)."""
    return int(h[-4:])


def faces(board: Mapping[str, Any]) -> dict[str, list[int]]:
    """The City-grid cells drawn as each Transition Hex's face: the cells of the City
    rectangle that are no City hex, each given to the Transition Hex whose touched City
    hexes (4.25) lie around it most; cells touching none take the face of a neighbour."""
    ext = board["city"]
    (c0, r0), (c1, r1) = split(int(ext["first"])), split(int(ext["last"]))
    cells = [
        c * 100 + r
        for c in range(c0, c1 + 1)
        for r in range(r0, r1 + 1)
        if map_data.ref(map_data.CITY, c * 100 + r) not in board["hexes"]
    ]
    touched = {
        t: {n for n in board["hexes"][t]["neighbours"] if n.startswith("city:")}
        for t in board["transition"]
    }
    owner: dict[int, str] = {}
    for cell in cells:
        near = [map_data.ref(map_data.CITY, c * 100 + r) for c, r in around(*split(cell))]
        votes = sorted(
            ((-sum(n in city for n in near), t) for t, city in touched.items()),
        )
        if votes and votes[0][0] < 0:
            owner[cell] = votes[0][1]
    free = [c for c in cells if c not in owner]
    while free:  # the cells deep in a face, ring by ring: the face most around them
        grown = {}
        for cell in free:
            found = [owner[n] for n in (c * 100 + r for c, r in around(*split(cell))) if n in owner]
            if found:
                grown[cell] = min(found, key=lambda t: (-found.count(t), t))
        if not grown:
            break
        owner.update(grown)
        free = [c for c in free if c not in grown]
    out: dict[str, list[int]] = {t: [] for t in board["transition"]}
    for cell, t in sorted(owner.items()):
        out[t].append(cell)
    return out
