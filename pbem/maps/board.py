"""What the render registry asks of a game's map (pbem/render/maps.py), said once.

A game with a map writes its picture as `draw(view, ask) -> str`, `ask` a `MapAsk`: whose
view it is, what changed in the last turn, the size, a user's layout file. It names that
function the registry's entry with

    board_svg = BoardSvg(draw)

which is called with keywords, `board_svg(view, role=..., highlight=..., scale=...,
layout=...)`, each left out taking MapAsk's default; the registry passes its keywords on
unchanged (`MapOptions`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypedDict, TypeVar

from pbem.maps.svg import Highlight

if TYPE_CHECKING:
    from typing import Unpack

V = TypeVar("V")  # a game's view (`Engine.view`, or `view_known` on the owner's page)


@dataclass(frozen=True)
class MapAsk:
    """How a map is asked for: `role` whose view it is (None: the public), `highlight`
    what changed in the last turn (None: nothing drawn), `scale` the picture's size in
    its drawing units, `layout` a user's layout file (TOML bytes; None: the shipped one)."""

    role: str | None = None
    highlight: Highlight | None = None
    scale: float = 1.0
    layout: bytes | None = None


class MapOptions(TypedDict, total=False):
    """The keywords of a game's `board_svg`: MapAsk's fields, each optional."""

    role: str | None
    highlight: Highlight | None
    scale: float
    layout: bytes | None


class BoardSvg(Generic[V]):
    """A game's `board_svg`: its drawing function called with the registry's keywords."""

    def __init__(self, draw: Callable[[V, MapAsk], str]) -> None:
        self.draw = draw

    def __call__(self, view: V, **options: Unpack[MapOptions]) -> str:
        return self.draw(view, MapAsk(**options))
