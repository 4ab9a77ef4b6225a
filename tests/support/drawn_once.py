"""`page_leaks` (pbem.testing) with each map drawn and compacted once per distinct input.

The leak check renders every other viewer's turn page twice, from a state holding the
owner's real secrets and from one holding other values, and compares them. When nothing
leaks, both renders hand the map drawing the same view and compaction the same SVG:
drawing and compacting were most of the check (Race to the Sea's conformance games spent
half their time there). Both are pure functions of their arguments (pbem/render/maps.py:
"the picture is drawn from [the view] alone"), so here each remembers its answer by its
exact input for the length of one check: a second call with the same arguments gets the
same string a second run would have made, and the pages compared are byte for byte the
ones `pbem.testing.page_leaks` compares. Any argument that differs (a view, a role, a
highlight drawn from the stored state, a different SVG) is a different key, drawn anew,
so a leak still shows (tests/test_drawn_once.py plants one).

A view is keyed by its pickle: equal bytes mean the same types, keys, order and values
(a tuple is not a list, 1 is not "1" or 1.0); two equal views pickled otherwise are only
drawn twice. Anything that cannot be pickled is drawn every time.
"""

from __future__ import annotations

import contextlib
import pickle
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import JSON
from pbem.render import maps
from pbem.testing import page_leaks as _page_leaks

__all__ = ["drawn_once", "page_leaks"]


def _key(*parts: Any) -> bytes | None:
    try:
        return pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # (not picklable: no key, drawn every time)
        return None


def _remembered(function: Callable[..., str], kept: dict[bytes, str]) -> Callable[..., str]:
    def call(*args: Any, **kwargs: Any) -> str:
        key = _key(args, sorted(kwargs.items()))
        if key is None:
            return function(*args, **kwargs)
        if key not in kept:
            kept[key] = function(*args, **kwargs)
        return kept[key]

    return call


@contextlib.contextmanager
def drawn_once() -> Iterator[None]:
    """Within: the turn page's map drawing (pbem.render.maps.board_svg) and compaction
    (pbem.render.page.compact) each answer an input seen before from memory."""
    from pbem.render import page  # (jinja2: only for the checks that render pages)

    drawings: dict[bytes, str] = {}
    compacted: dict[bytes, str] = {}
    board_svg, compact = maps.board_svg, page.compact
    maps.board_svg = _remembered(board_svg, drawings)
    page.compact = _remembered(compact, compacted)
    try:
        yield
    finally:
        maps.board_svg, page.compact = board_svg, compact


def page_leaks(
    game: Adjudicator,
    owner: str,
    known: Mapping[str, JSON],
    viewers: Iterable[str | None],
) -> list[str]:
    """`pbem.testing.page_leaks`, each map drawn and compacted once per distinct input."""
    with drawn_once():
        return _page_leaks(game, owner, known, viewers)
