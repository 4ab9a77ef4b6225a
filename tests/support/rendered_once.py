"""Within a leak check, each Jinja template rendered once per distinct context.

The conformance leak check (tests/test_conformance.py) renders every other viewer's
summary and turn page from two states, one holding the owner's real secrets and one
holding other values, for every owner in turn, and compares them. When nothing leaks,
most of those renders are handed the very same context: both renders of a viewer's
summary get the same view, and the public's summary and page are the same whichever
owner's secrets the state holds. Rendering the templates was most of the summaries' and
pages' cost (a third of the conformance games' time).

A template's output is a function of the template and the context it is given alone (our
environments' filters and finalizers are pure, and StrictUndefined refuses anything the
context lacks), so here each template remembers its output by its exact context for the
length of one check: a second call with the same context gets the same string a second
render would have made, and the texts compared are byte for byte the unremembered ones.
What the code under test computes from the state (the view, the game's report of it, the
map, the state text, the highlight, ...) is still computed on every call and is part of
the context: anything that differs between the two renders (a leak) is a different key,
rendered anew, so the leak still shows (tests/test_rendered_once.py plants one).

A context is keyed by its pickle: equal bytes mean the same types, keys, order and values
(a Markup is not a str, a tuple not a list, 1 not 1.0); two equal contexts pickled
otherwise are only rendered twice. A context that cannot be pickled is rendered every time.
The memo lives only inside `rendered_once()`, and Template.render is put back on leaving.
"""

from __future__ import annotations

import contextlib
import pickle
from collections.abc import Iterator
from typing import Any

import jinja2


def _key(template: jinja2.Template, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes | None:
    try:
        context = pickle.dumps((args, sorted(kwargs.items())), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # (not picklable: no key, rendered every time)
        return None
    # The template by identity: it is kept alive below, so its id is never reused.
    return id(template).to_bytes(8, "little") + context


@contextlib.contextmanager
def rendered_once() -> Iterator[None]:
    """Within: every jinja2 Template.render answers a context seen before from memory."""
    render = jinja2.Template.render
    kept: dict[bytes, str] = {}
    templates: list[jinja2.Template] = []  # (alive while their ids are keys)

    def remembered(self: jinja2.Template, *args: Any, **kwargs: Any) -> str:
        key = _key(self, args, kwargs)
        if key is None:
            return render(self, *args, **kwargs)
        if key not in kept:
            kept[key] = render(self, *args, **kwargs)
            templates.append(self)
        return kept[key]

    jinja2.Template.render = remembered  # type: ignore[method-assign]
    try:
        yield
    finally:
        jinja2.Template.render = render  # type: ignore[method-assign]
