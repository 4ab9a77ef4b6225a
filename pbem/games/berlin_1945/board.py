"""Queries over the loaded data (`data.load_data`): zones, rings, adjacency for a side,
stacking limits, directions of movement and cards. Pure functions of the data; unknown
zones, sides or cards are refused with KeyError / ValueError naming them.

Adjacency is a `pbem.maps.areas.AreaGraph` of the zones (`area_graph`), built from the
data's borders, with the rings as its groups; the German player's graph adds the Mitte
sectors' mutual adjacency (rulebook 5.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.berlin_1945.rulebook import (
    CARD_ID,
    REICHSTAG,
    SECTORS,
    SIDES,
    UNLIMITED,
)
from pbem.maps.areas import AreaGraph


def checked_side(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r} (expected {', '.join(SIDES)})")
    return side


def zone(data: Mapping[str, Any], zone_id: str) -> dict[str, Any]:
    """The zone record: id, name, label, kind, ring, depth, stack, neighbours."""
    try:
        record: dict[str, Any] = data["zones"][zone_id]
    except KeyError:
        raise KeyError(f"unknown zone {zone_id!r}") from None
    return record


def ring(data: Mapping[str, Any], zone_id: str) -> str:
    """ "edge" (Areas A-F), "outer" (12-18), "middle" (6-11), "inner" (1-5) or "mitte" (I-V)."""
    return str(zone(data, zone_id)["ring"])


def ring_depth(data: Mapping[str, Any], zone_id: str) -> int:
    """How many rings out from the Mitte: 0 for Sectors I-V up to 4 for Areas A-F."""
    return int(zone(data, zone_id)["depth"])


# Graphs by the identity of the data they index (never changed once loaded) and the side;
# the data object is kept so that a reused id is not mistaken for it.
_GRAPHS: dict[tuple[int, str | None], tuple[Mapping[str, Any], AreaGraph]] = {}
_GRAPHS_KEPT = 16


def area_graph(data: Mapping[str, Any], side: str | None = None) -> AreaGraph:
    """The zones and their borders as a graph in map order (Areas A-F, Districts 1-18,
    Sectors I-V), the rings as its groups; for `side` when given (rulebook 5.1: for the
    German player every Mitte sector is adjacent to every other)."""
    if side is not None:
        checked_side(side)
    key = (id(data), side)
    cached = _GRAPHS.get(key)
    if cached is not None and cached[0] is data:
        return cached[1]
    borders = [tuple(pair) for pair in data["borders"]]
    if side == "german" and data["rules"].get("german-mitte-all-adjacent"):
        known = {frozenset(pair) for pair in borders}
        borders += [
            (a, b)
            for i, a in enumerate(SECTORS)
            for b in SECTORS[i + 1 :]
            if frozenset((a, b)) not in known
        ]
    graph = AreaGraph(data["zone_ids"], borders, groups=data["rings"])
    if len(_GRAPHS) >= _GRAPHS_KEPT:
        _GRAPHS.clear()
    _GRAPHS[key] = (data, graph)
    return graph


def neighbours(data: Mapping[str, Any], zone_id: str, side: str | None = None) -> list[str]:
    """The zones adjacent to `zone_id`, for `side` when given (rulebook 5.1: for the German
    player every Mitte sector is adjacent to every other)."""
    zone(data, zone_id)
    return list(area_graph(data, side).neighbours(zone_id))


def adjacent(data: Mapping[str, Any], a: str, b: str, side: str) -> bool:
    """Whether a group of `side` in `a` may count `b` as adjacent (rulebook 5.1)."""
    zone(data, b)
    return b in neighbours(data, a, side)


def may_enter(data: Mapping[str, Any], zone_id: str, side: str) -> bool:
    """Whether a Movement order of `side` may end in `zone_id`: no unit enters an area by
    movement (rulebook 7.2), and German units never enter one (rulebook 2.1, 5.2)."""
    checked_side(side)
    return ring(data, zone_id) != "edge"


def stack_limit(
    data: Mapping[str, Any], zone_id: str, side: str, soviets_in_mitte: bool
) -> int | None:
    """The most units of `side` in `zone_id`; None when unlimited (rulebook 5.3).

    `soviets_in_mitte`: whether a Soviet unit has entered Sectors I-IV, which lifts the German
    limit in Sector V ("as soon as ... becomes unlimited"; the engine decides whether it stays
    lifted). German units may not be in Areas A-F at all: their limit there is 0.
    """
    limit = zone(data, zone_id)["stack"][checked_side(side)]
    if (
        zone_id == REICHSTAG
        and side == "german"
        and soviets_in_mitte
        and data["rules"].get("reichstag-german-unlimited-after-mitte-entry")
    ):
        return None
    return None if limit == UNLIMITED else int(limit)


def direction(data: Mapping[str, Any], start: str, end: str, side: str) -> str:
    """ "advance", "flank" or "rear" for a move of `side` (rulebook 5.5): the Soviets advance
    toward the Mitte, the Germans away from it; the same ring is a flank."""
    step = ring_depth(data, start) - ring_depth(data, end)  # > 0: toward the Mitte
    if step == 0:
        return "flank"
    inward = step > 0
    return "advance" if inward == (checked_side(side) == "soviet") else "rear"


def card(data: Mapping[str, Any], card_id: str) -> dict[str, Any]:
    """The card "german-2", "soviet-13", ..."""
    match = CARD_ID.match(card_id)
    if match:
        for record in data["decks"][match.group(1)]:
            if record["number"] == int(match.group(2)):
                return dict(record)
    raise KeyError(f"unknown card {card_id!r}")
