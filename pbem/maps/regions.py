"""The flood both kinds of board share (areas.py's AreaGraph, hexes.py's HexGrid): the
places reached from some start places through the neighbours a test and a step allow."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)  # a place: an area id, a hex id


def spread(
    reached: set[P],
    neighbours: Mapping[P, Sequence[P]],
    inside: Callable[[P], bool] | None,
    step: Callable[[P, P], bool] | None,
) -> set[P]:
    """`reached` grown by every place it joins through neighbours `inside` admits (all
    when None) by steps `step(from, to)` allows (all when None); returned."""
    todo = list(reached)
    while todo:
        here = todo.pop()
        for there in neighbours[here]:
            if there in reached or (inside is not None and not inside(there)):
                continue
            if step is not None and not step(here, there):
                continue
            reached.add(there)
            todo.append(there)
    return reached
