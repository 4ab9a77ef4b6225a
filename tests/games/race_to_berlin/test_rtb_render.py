"""Per-role summaries never show a sealed block of the other side (rulebook 4.1, protocol 5).

Bots play real games through the adjudicator (signed entries, commitments,
openings). After every entry each side's text and Markdown summary is
rendered with that side's own secrets, and searched: every block of the other
side that is still sealed must show as sealed, every revealed one with its
value, and no salt may appear anywhere.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.core.engine import register
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.games.race_to_berlin.view import board_view
from pbem.render.summary import render_summary
from tests.support.players import Table

register("race-to-berlin", "pbem.games.race_to_berlin.rules:ENGINE")

ROLES = ("west", "soviet")


def _on_board(table: Table, owner: str) -> list[dict[str, object]]:
    state = table.game.state
    assert state is not None
    return [b for b in state["blocks"] if b["owner"] == owner and b["area"] is not None]


def _check(table: Table) -> None:
    salts = [salt for salt, _value in table.secrets.values()]
    for viewer in ROLES:
        other = "soviet" if viewer == "west" else "west"
        known = table.known(viewer)
        markdown = render_summary(table.game, viewer, "markdown", known)
        text = render_summary(table.game, viewer, "text", known)
        blocks = _on_board(table, other)
        sealed = sum(1 for b in blocks if not b["revealed"])
        shown = len(blocks) - sealed
        assert markdown.count(f"{other} ▮ sealed") == sealed
        assert markdown.count(f"{other} **") == shown
        assert text.count(f"{other} block sealed") == sealed
        for salt in salts:
            assert salt not in markdown and salt not in text
        # and the viewer's own sealed blocks show their values to the viewer
        own = [b for b in _on_board(table, viewer) if not b["revealed"]]
        assert markdown.count(f"{viewer} ▮ sealed") == 0
        assert markdown.count("(sealed)") >= len(own)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_sides_summary_shows_only_what_it_may_know(seed: int) -> None:
    table = Table("race-to-berlin", ROLES, nonce=f"render-{seed}")
    table.join_all()
    rng = random.Random(seed)
    steps = 0
    while table.game.outcome() is None and steps < 400:
        table.step(rng)
        steps += 1
        if steps % 5 == 0:
            _check(table)
    _check(table)


def test_the_check_would_catch_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """If an engine showed the other side's sealed values, `_check` would fail. (The kit's
    `view` strips every sealed value that is not the viewer's, so the leak is simulated by
    a view that fills in both sides' values and strips nothing.)"""
    table = Table("race-to-berlin", ROLES, nonce="leak")
    table.join_all()
    rng = random.Random(7)
    while len(_on_board(table, "soviet")) < 3:
        table.step(rng)
    _check(table)
    everything = {**table.known("west"), **table.known("soviet")}

    fill = ENGINE.with_secrets

    def leaky(state: dict[str, Any], role: str, known: object) -> dict[str, Any]:
        return board_view(fill(fill(state, "west", everything), "soviet", everything))

    monkeypatch.setattr(ENGINE, "view_known", leaky)
    with pytest.raises(AssertionError):
        _check(table)
