"""Where things are drawn: a layout file (TOML) of places with positions, and provenance.

A layout is presentation, not game data: it is not named in a genesis and never changes
what a game's rules decide, so a player who owns the printed map can draw with a faithful
layout (`pbem render --layout FILE`) while the shipped one is a stand-in. Format:

    [layout]
    title = "..."            # what the picture shows
    width = 1000             # the drawing's own units
    height = 700
    provenance = "stand-in"  # or "rulebook 4.5"; shown on the map's legend

    [[place]]                # one per area, zone, box, hex label...
    id = "1"
    x = 120
    y = 300
    provenance = "stand-in"
    # any other keys a game's drawing wants (w, h, shape, label, ...)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import PbemError


class LayoutError(PbemError):
    """A layout file that cannot be drawn from."""


@dataclass(frozen=True)
class Place:
    id: str
    x: float
    y: float
    provenance: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Layout:
    title: str
    width: float
    height: float
    provenance: str
    places: dict[str, Place]

    def at(self, place_id: str) -> tuple[float, float]:
        try:
            place = self.places[place_id]
        except KeyError:
            raise LayoutError(f"the layout has no place {place_id!r}") from None
        return place.x, place.y

    @property
    def stand_in(self) -> bool:
        """True when anything in it is a stand-in (the legend says so)."""
        return self.provenance == "stand-in" or any(
            p.provenance == "stand-in" for p in self.places.values()
        )


def load_layout(data: bytes, *, needs: frozenset[str] | set[str] = frozenset()) -> Layout:
    """Read a layout file; `needs` are the place ids the drawing must find in it."""
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise LayoutError(f"layout file is not TOML: {exc}") from None
    head = raw.get("layout")
    if not isinstance(head, dict):
        raise LayoutError("layout file has no [layout] table")
    for key in ("width", "height", "provenance"):
        if key not in head:
            raise LayoutError(f"layout file: [layout] needs {key}")
    places: dict[str, Place] = {}
    for number, item in enumerate(raw.get("place", []), start=1):
        if not isinstance(item, dict) or not {"id", "x", "y", "provenance"} <= set(item):
            raise LayoutError(f"layout file: place {number} needs id, x, y and provenance")
        pid = str(item["id"])
        if pid in places:
            raise LayoutError(f"layout file: place {pid!r} is given twice")
        rest = {k: v for k, v in item.items() if k not in ("id", "x", "y", "provenance")}
        places[pid] = Place(pid, float(item["x"]), float(item["y"]), str(item["provenance"]), rest)
    missing = sorted(set(needs) - set(places))
    if missing:
        raise LayoutError(f"layout file has no place for {', '.join(missing[:8])}")
    return Layout(
        str(head.get("title", "")),
        float(head["width"]),
        float(head["height"]),
        str(head["provenance"]),
        places,
    )
