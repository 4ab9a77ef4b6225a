"""Per-role summaries never show the other side's hand or an unopened plan (2.3, 2.4, 7.2).

Bots play real games through the adjudicator (signed entries, commitments,
private draws). Every few entries each side's text summary is rendered with
that side's own secrets and searched: the other side's hand shows only its
size, and the German sees the Soviet plan only as sealed until it is opened.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

import pbem.games  # noqa: F401  (registers berlin-1945)
from pbem.core.canonical import JSON
from pbem.games.berlin_1945.hands import drawn_cards
from pbem.games.berlin_1945.rules import ENGINE
from pbem.render.summary import render_summary
from pbem.testing import SignedTable, leaks

ROLES = ("german", "soviet")


def _line(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.strip().startswith(start))


def _check(table: SignedTable) -> None:
    state = table.game.state
    assert state is not None
    if state["phase"] in ("reveal", "over"):  # the end of the game opens every hand
        return
    for viewer in ROLES:
        other = "soviet" if viewer == "german" else "german"
        text = render_summary(table.game, viewer, "text", table.known(viewer))
        assert "#" not in _line(text, f"{other} hand:"), "the other side's cards are shown"
        own = [s for s in state["hands"][viewer]["slots"].values() if s["status"] == "hand"]
        # a card drawn and not yet committed is in the hand too, shown to its owner at once
        drawn = drawn_cards(state, viewer, table.known(viewer))
        line = _line(text, f"{viewer} hand:")
        assert line.count("#") == len(own) + len(drawn)
        assert line.count("(just drawn)") == len(drawn)
        plan = state.get("plan")
        if viewer == "german" and plan and not plan["revealed"]:
            assert _line(text, "Soviet plan").endswith(": sealed")


@pytest.mark.parametrize("seed", [1, 2])
def test_each_sides_summary_shows_only_what_it_may_know(seed: int) -> None:
    table = SignedTable("berlin-1945", ROLES, nonce=f"render-{seed}")
    table.join_all()
    rng = random.Random(seed)
    steps = 0
    while table.game.outcome() is None and steps < 600:
        table.step(rng)
        steps += 1
        if steps % 4 == 0:
            _check(table)


def test_no_view_depends_on_the_other_sides_secrets() -> None:
    """The differential check of the conformance test, every few entries of a whole game:
    each view computed from a state holding one side's secrets (its cards, its drawn cards,
    its plan) is byte-identical whatever those secrets are."""
    table = SignedTable("berlin-1945", ROLES, nonce="views", signed=False)
    table.join_all()
    rng = random.Random(5)
    checked = 0
    while table.game.outcome() is None:
        state = table.game.state
        if len(table.game.entries) % 3 == 0 and not table.game.waiting_for_entropy:
            for owner in ROLES:
                known = table.known(owner)
                assert not leaks(ENGINE, state, owner, known, [*ROLES, None])
                checked += 1
        table.step(rng)
    assert checked > 100


def test_the_check_would_catch_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """If an engine filled in the other side's secrets and showed them, `_check` would fail."""
    table = SignedTable("berlin-1945", ROLES, nonce="leak")
    table.join_all()
    rng = random.Random(3)
    for _ in range(12):
        table.step(rng)
    _check(table)
    honest_secrets, honest_view = ENGINE.with_secrets, ENGINE.view
    everything = {**table.known("german"), **table.known("soviet")}

    def leaky_secrets(state: dict[str, Any], role: str, known: Mapping[str, JSON]) -> Any:
        return honest_secrets(honest_secrets(state, "german", everything), "soviet", everything)

    def leaky_view(state: dict[str, Any], role: str | None) -> Any:
        out = honest_view(state, role)
        for side in ROLES:  # every card the state holds, whoever holds it
            for k, piece in state["hands"][side]["slots"].items():
                if piece.get("known"):
                    out["hands"][side]["slots"][k]["card"] = piece["value"]
        return out

    monkeypatch.setattr(ENGINE, "with_secrets", leaky_secrets)
    monkeypatch.setattr(ENGINE, "view", leaky_view)
    with pytest.raises(AssertionError):
        _check(table)
