"""Boxes and the lines between them for an area map: an area is a box, a border or an
arrow is a straight line between two boxes, or a quadratic curve around the boxes that
the straight line would cross (so a line never seems to run through a third area)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Box:
    x: float  # top left
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def holds(self, px: float, py: float, pad: float = 0.0) -> bool:
        return (
            self.x - pad <= px <= self.x + self.w + pad
            and self.y - pad <= py <= self.y + self.h + pad
        )

    def exit_towards(self, px: float, py: float) -> tuple[float, float]:
        """Where the ray from the centre towards (px, py) leaves the box."""
        dx, dy = px - self.cx, py - self.cy
        if dx == 0 and dy == 0:
            return self.cx, self.cy
        t = min(
            (self.w / 2) / abs(dx) if dx else math.inf,
            (self.h / 2) / abs(dy) if dy else math.inf,
        )
        return self.cx + dx * t, self.cy + dy * t


@dataclass(frozen=True)
class Route:
    x1: float
    y1: float
    cx: float  # the control point of a quadratic curve (the midpoint if straight)
    cy: float
    x2: float
    y2: float
    bent: bool

    def point(self, t: float) -> tuple[float, float]:
        u = 1 - t
        return (
            u * u * self.x1 + 2 * u * t * self.cx + t * t * self.x2,
            u * u * self.y1 + 2 * u * t * self.cy + t * t * self.y2,
        )

    @property
    def middle(self) -> tuple[float, float]:
        return self.point(0.5)

    @property
    def direction(self) -> tuple[float, float]:
        """The unit tangent at the middle (for a quadratic curve, along x2-x1, y2-y1)."""
        dx, dy = self.x2 - self.x1, self.y2 - self.y1
        length = math.hypot(dx, dy) or 1.0
        return dx / length, dy / length

    def path(self) -> str:
        if not self.bent:
            return f"M{_n(self.x1)},{_n(self.y1)} L{_n(self.x2)},{_n(self.y2)}"
        return (
            f"M{_n(self.x1)},{_n(self.y1)} Q{_n(self.cx)},{_n(self.cy)} {_n(self.x2)},{_n(self.y2)}"
        )


def _n(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


BENDS = (0, 40, -40, 80, -80, 120, -120, 170, -170, 230, -230, 300, -300)


def route(a: Box, b: Box, others: Sequence[Box], shift: float = 0.0) -> Route:
    """The line from box `a` to box `b`, straight if it crosses no other box, else the
    least bent quadratic curve that does (if none does, the one that crosses least).
    `shift` moves it sideways (two arrows between one pair of areas)."""
    dx, dy = b.cx - a.cx, b.cy - a.cy
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    mx, my = (a.cx + b.cx) / 2 + nx * shift, (a.cy + b.cy) / 2 + ny * shift
    best: tuple[int, Route] | None = None
    for bend in BENDS:
        # the control point sits at twice the wanted bulge (a quadratic's middle is half way)
        cx, cy = mx + nx * bend * 2, my + ny * bend * 2
        x1, y1 = a.exit_towards(cx + nx * shift, cy + ny * shift)
        x2, y2 = b.exit_towards(cx + nx * shift, cy + ny * shift)
        if bend == 0:
            x1, y1, x2, y2 = x1 + nx * shift, y1 + ny * shift, x2 + nx * shift, y2 + ny * shift
        candidate = Route(x1, y1, cx, cy, x2, y2, bend != 0)
        samples = [candidate.point(i / 24) for i in range(1, 24)]
        hits = sum(1 for px, py in samples if any(box.holds(px, py, 6) for box in others))
        if hits == 0:
            return candidate
        if best is None or hits < best[0]:
            best = (hits, candidate)
    assert best is not None
    return best[1]
