"""Per-role summaries never show the other side's hand or an unopened plan (2.3, 2.4, 7.2).

Bots play real games through the adjudicator (signed entries, commitments,
private draws). Every few entries each side's text summary is rendered with
that side's own secrets and searched: the other side's hand shows only its
size, and the German sees the Soviet plan only as sealed until it is opened.
"""

from __future__ import annotations

import random

import pytest

from pbem.render.summary import render_summary
from tests.support.players import Table

ROLES = ("german", "soviet")


def _line(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.strip().startswith(start))


def _check(table: Table) -> None:
    state = table.game.state
    assert state is not None
    if state["phase"] in ("reveal", "over"):  # the end of the game opens every hand
        return
    for viewer in ROLES:
        other = "soviet" if viewer == "german" else "german"
        text = render_summary(table.game, viewer, "text", table.known(viewer))
        assert "#" not in _line(text, f"{other} hand:"), "the other side's cards are shown"
        own = [s for s in state["hands"][viewer]["slots"].values() if s["status"] == "hand"]
        if own:
            assert _line(text, f"{viewer} hand:").count("#") == len(own)
        plan = state.get("plan")
        if viewer == "german" and plan and plan.get("orders") is None:
            assert _line(text, "Soviet plan").endswith(": sealed")


@pytest.mark.parametrize("seed", [1, 2])
def test_each_sides_summary_shows_only_what_it_may_know(seed: int) -> None:
    table = Table("berlin-1945", ROLES, nonce=f"render-{seed}")
    table.join_all()
    rng = random.Random(seed)
    steps = 0
    while table.game.outcome() is None and steps < 600:
        table.step(rng)
        steps += 1
        if steps % 4 == 0:
            _check(table)


def test_the_check_would_catch_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """If an engine filled in the other side's secrets, `_check` would fail."""
    from pbem.games.berlin_1945.rules import ENGINE

    table = Table("berlin-1945", ROLES, nonce="leak")
    table.join_all()
    rng = random.Random(3)
    for _ in range(12):
        table.step(rng)
    _check(table)
    honest = ENGINE.with_secrets
    everything = {**table.known("german"), **table.known("soviet")}

    def leaky(state: dict[str, object], role: str, known: object) -> dict[str, object]:
        return honest(honest(state, "german", everything), "soviet", everything)

    monkeypatch.setattr(ENGINE, "with_secrets", leaky)
    with pytest.raises(AssertionError):
        _check(table)
