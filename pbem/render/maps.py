"""The map of a game, as SVG, for one role's view: found in pbem/games/<game>/svg.py.

Each game with a map has a module `pbem.games.<game>.svg` with

    board_svg(view, *, role=None, highlight=None, scale=1.0, layout=None) -> str
    def highlight_of(game) -> Highlight     # what changed in the last turn (Adjudicator)

`board_svg` is a `pbem.maps.board.BoardSvg`, which holds those keywords and their defaults
(`MapAsk`) in one place.

`view` is what `Engine.view` (or `view_known` for the owner's own page) gives for
`role`; the picture is drawn from it alone, so it can never show what the role may not
know. `layout` is a user's layout file (TOML bytes) in place of the shipped stand-in.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from pbem.core.engine import game_part
from pbem.errors import PbemError
from pbem.maps.svg import Highlight

if TYPE_CHECKING:
    from typing import Unpack

    from pbem.core.adjudicator import Adjudicator
    from pbem.maps.board import MapOptions


def _module(rules: str) -> ModuleType:
    module = game_part(rules, "svg")
    if module is None:
        raise PbemError(f"{rules} has no map to draw")
    return module


def has_map(rules: str) -> bool:
    try:
        _module(rules)
    except PbemError:
        return False
    return True


def board_svg(rules: str, view: Any, **options: Unpack[MapOptions]) -> str:
    """The map of `rules` for `view`, with the keywords a game's `board_svg` takes."""
    svg: str = _module(rules).board_svg(view, **options)
    return svg


def highlight_of(game: Adjudicator) -> Highlight:
    """What changed in the game's last turn (an empty Highlight if the game draws none)."""
    module = _module(game.engine.name)
    found = getattr(module, "highlight_of", None)
    return found(game) if found is not None else Highlight()
