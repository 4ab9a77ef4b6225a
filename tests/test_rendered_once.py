"""tests/support/rendered_once.py: with each template rendered once per distinct context,
the summaries and pages are the same bytes, and the conformance leak check still catches a
leak planted in what a summary or a page is rendered from."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import jinja2
import pytest

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import canonical_bytes
from pbem.core.engine import get_engine
from pbem.render import page, summary
from pbem.testing import SignedTable
from tests.support.rendered_once import rendered_once
from tests.test_conformance import _check_leaks

RULES = "berlin-1945"


def _table_with_secrets() -> SignedTable:
    table = SignedTable(RULES, get_engine(RULES).roles, nonce="rendered-once", signed=False)
    table.join_all()
    rng = random.Random(5)
    for _ in range(400):
        if len(table.game.entries) > 12 and all(table.known(r) for r in table.game.roles):
            return table
        table.step(rng)
    raise AssertionError("no position where every role holds a secret")


def test_texts_are_the_same_and_each_context_is_rendered_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _table_with_secrets().game
    viewers = [*game.roles, None]

    def texts() -> list[str]:
        return [
            *(summary.render_summary(game, role, "markdown") for role in viewers),
            *(page.render_page(game, role) for role in viewers),
        ]

    rendered: list[str | None] = []
    render = jinja2.Template.render

    def counted(self: jinja2.Template, *args: Any, **kwargs: Any) -> str:
        rendered.append(self.name)
        return render(self, *args, **kwargs)

    monkeypatch.setattr(jinja2.Template, "render", counted)
    plain = texts()
    every = len(rendered)
    with rendered_once():
        assert texts() == plain
        first = len(rendered) - every
        assert texts() == plain
    assert 0 < first < every  # (the public's and a role's state text are the same here)
    assert len(rendered) == every + first  # the second round came from memory
    assert jinja2.Template.render is counted  # put back, and forgotten:
    texts()
    assert len(rendered) == 2 * every + first


@pytest.mark.parametrize("where", ["summary", "page"])
def test_a_text_rendered_from_the_stored_state_is_still_caught(
    monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    table = _table_with_secrets()
    heading = summary.heading

    def careless(shown: Adjudicator, role: str | None, turn: Any) -> dict[str, Any]:
        found = heading(shown, role, turn)
        digest = hashlib.sha256(canonical_bytes(shown.state)).hexdigest()[:8]
        return {**found, "title": f"{found['title']} {digest}"}

    # Planted in what is rendered, not in the template: the memo must tell the contexts apart.
    monkeypatch.setattr(summary if where == "summary" else page, "heading", careless)
    with pytest.raises(AssertionError, match="shows .*'s secrets"):
        _check_leaks(table, render=True, pages=where == "page")
