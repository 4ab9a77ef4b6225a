"""Götterdämmerung as pbem shows it, through the signed pipeline: the per-role summaries
(report.py, templates/gotterdammerung/), the map (svg.py through the render registry, with
the last turn's highlight), the HTML turn page and the map facts.

Hidden information: the only secret of one side is 12.4's sealed bid. After the first seat
has committed its bid, every output for the other seat and for the public must be
byte-identical whatever the bid (views, summaries, the SVG map and the page), while the
bidder's own view changes (else the test would prove nothing). Delay markers and
Volkssturm strengths are unknown to both (drawn at their reveal): the engine tests show
that nothing before the reveal depends on the draw.
"""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET
from functools import cache

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem.core.canonical import canonical_bytes
from pbem.render import maps
from pbem.render.facts import map_facts
from pbem.render.page import render_page
from pbem.render.summary import render_summary
from pbem.testing import SignedTable, leaks, other_secrets
from tests.support.drawn_once import page_leaks

ROLES = ("soviet", "german")


@cache
def midgame() -> SignedTable:
    """A signed bot game to turn 3's German Combat Phase (shared, only read)."""
    table = SignedTable("gotterdammerung", ROLES, nonce="gd-render")
    table.join_all()
    rng = random.Random(5)
    for _ in range(3000):
        state = table.game.state
        if state is not None and state["turn"] >= 3 and state["phase"] == "german-combat":
            return table
        table.step(rng)
    raise AssertionError("the sample game never reached turn 3's German Combat Phase")


def _bidding_table() -> SignedTable:
    table = SignedTable("gotterdammerung", ROLES, nonce="gd-bid", options={"bidding": True})
    table.join_all()
    return table


def test_12_42_a_sealed_bid_shows_in_no_other_output() -> None:
    table = _bidding_table()
    game = table.game
    assert game.state["step"] == "bid"
    table.step(random.Random(1))  # the first seat commits its bid
    owner = "soviet"
    known = table.known(owner)
    assert known, "the first bid of a sealed round is a secret of its seat"
    assert leaks(game.engine, game.state, owner, known, ["german", None]) == []
    assert page_leaks(game, owner, known, ["german", None]) == []
    mine = game.engine.with_secrets(game.state, owner, known)
    other = game.engine.with_secrets(game.state, owner, other_secrets(known))
    prompts = game.prompts()
    for viewer in ("german", None):
        texts = set()
        for state in (mine, other):
            shadow = copy.copy(game)  # a store whose state holds the bidder's secret
            shadow.state = state
            shadow.prompts = lambda: prompts  # type: ignore[method-assign]
            texts.add(render_summary(shadow, viewer, "markdown"))
        assert len(texts) == 1, f"the summary for {viewer} shows the sealed bid"
    # ... while the bidder's own view does depend on it: the comparison can fail
    own = [canonical_bytes(game.engine.view(s, owner)) for s in (mine, other)]
    assert own[0] != own[1]


def test_12_43_12_44_the_lower_bid_commands_the_soviets() -> None:
    table = _bidding_table()
    engine = table.game.engine
    for role, text in (("soviet", "bid 14"), ("german", "bid 9")):
        table.decide(role, engine.parse(text, table.game.state, role))
    table.decide("soviet", engine.parse("open bid", table.game.state, "soviet"))
    state = table.game.state
    assert state["seats"] == {"soviet": "german", "german": "soviet"}  # seats, not sides
    assert state["support_points"] == 9 and state["bid_vp"] == 5
    assert state["step"] == "artillery" and table.game.prompts()[0].role == "german"


def test_every_role_s_summary_lists_the_units_and_markers() -> None:
    game = midgame().game
    view = game.engine.view(game.state, "soviet")
    text = render_summary(game, "soviet", "text")
    markdown = render_summary(game, "soviet", "markdown")
    assert "Turn 3 of 10: German Combat Phase" in text
    for unit in list(view["units"].values())[:5]:
        assert unit["id"] in text and unit["id"] in markdown
    assert "Soviet Support Points" in text
    # nothing on the maps is hidden from one side only: both sides read the same units
    german = game.engine.view(game.state, "german")
    assert canonical_bytes(german["units"]) == canonical_bytes(view["units"])


def test_the_map_the_page_and_the_facts_render_from_the_registry() -> None:
    game = midgame().game
    view = game.engine.view(game.state, "german")
    svg = maps.board_svg("gotterdammerung", view, role="german", highlight=maps.highlight_of(game))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "Berlin City Map" in svg and "North German Plain" in svg
    highlight = maps.highlight_of(game)
    assert highlight.moves or highlight.attacks, "the turn's moves and combats are drawn"
    page = render_page(game, "german")
    assert "<svg" in page and "Götterdämmerung" in page
    facts = map_facts("gotterdammerung", view)
    assert facts is not None
    placed = {p.id for place in facts.places for p in place.pieces}
    assert placed == set(view["units"])
