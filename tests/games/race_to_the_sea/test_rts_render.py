"""Race to the Sea 1914 as pbem shows it: the map through the render registry
(svg.board_svg, highlight_of), the per-role text summaries (report.py and
templates/race-to-the-sea/), the HTML turn page and the --json document.

The leak tests take a game played by the engine's own samples to the middle of turn 3 and
change everything one side keeps secret: which unit is under which hidden counter (3.3.1,
10.4; swapped between counters of one nationality, so the change stays plausible), the
Casualties markers under its units (10.4.A), and the unseen Initiative discard that
decides its hand (7.2.A) with its other private draws. Every output for the other side and
for the public must stay byte-identical; the side's own outputs must change (else the
test would prove nothing)."""

from __future__ import annotations

import copy
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from functools import cache
from types import SimpleNamespace
from typing import Any

import pytest

import pbem.games  # noqa: F401  (registers the shipped games)
from pbem.core.adjudicator import Adjudicator
from pbem.core.canonical import JSON
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import svg as rsvg
from pbem.games.race_to_the_sea.highlight import last_turn, turn_of
from pbem.render import maps
from pbem.render.jsonout import dumps, game_document
from pbem.render.page import render_page, render_svg, role_view, state_text
from pbem.render.summary import render_summary
from pbem.testing import SignedTable
from tests.support.drawn_once import page_leaks

ROLES = ("allies", "germans")
NS = "{http://www.w3.org/2000/svg}"
NATION = {"french": "French", "british": "British", "belgian": "Belgian", "german": "German"}


@cache
def midgame() -> SignedTable:
    """A game played by the engine's samples to turn 3's first action round (shared by the
    tests, which only read it)."""
    table = SignedTable("race-to-the-sea", ROLES, nonce="rts-render")
    table.join_all()
    rng = random.Random(3)
    for _ in range(3000):
        state = table.game.state
        if state["turn"] >= 3 and state["step"] == "act":
            return table
        table.step(rng)
    raise AssertionError("the sample game never reached turn 3")


def other(role: str) -> str:
    return ROLES[1 - ROLES.index(role)]


def hidden_counters(game: Adjudicator, side: str) -> dict[str, dict[str, Any]]:
    """The side's counters whose identity is still sealed."""
    return {
        label: c
        for label, c in game.state["counters"].items()
        if c["side"] == side and c["unit"] is None
    }


def changed_secrets(table: SignedTable, owner: str) -> dict[str, JSON]:
    """`owner`'s secrets, every kind of them changed: the identities of its hidden counters
    rotated within each nationality, its markers stacks changed, its private draws (the
    unseen discard, the casualty draws) and its sealed bids moved on."""
    known = dict(table.known(owner))
    hidden = hidden_counters(table.game, owner)
    by_nation: dict[str, list[str]] = {}
    for label in sorted(known):
        counter = hidden.get(label.removeprefix("unit/"))
        if label.startswith("unit/") and counter is not None:
            by_nation.setdefault(counter["nationality"], []).append(label)
    swapped = 0
    for labels in by_nation.values():
        values = [known[label] for label in labels]
        for label, value in zip(labels, values[1:] + values[:1], strict=True):
            swapped += known[label] != value
            known[label] = value
    assert swapped >= 2, "no two hidden counters of one nationality to swap"
    for label, value in list(known.items()):
        if label.startswith("markers/"):
            known[label] = [] if value else [["m01", "heavy"]]
        elif label.startswith("bid/") and isinstance(value, int):
            known[label] = value % 5 + 1
        elif isinstance(value, int) and not isinstance(value, bool):
            known[label] = value + 1 if value < 5 else 0  # a private draw's index
        elif isinstance(value, str) and label.startswith(("discard/", "draw/")):
            known[label] = value[::-1]
    return known


def outputs(game: Adjudicator, state: Any, viewer: str | None, known: Any) -> dict[str, str]:
    """Everything pbem renders for `viewer` (with its own secrets `known`) from a store
    whose state is `state`."""
    shadow = copy.copy(game)
    prompts = game.prompts()
    shadow.state = state
    shadow.prompts = lambda: prompts  # type: ignore[method-assign]
    found = {
        "svg": render_svg(shadow, viewer, known=known),
        "page": render_page(shadow, viewer, known=known),
        "show": state_text(shadow, role_view(shadow, viewer, known), viewer),
        "json": dumps(game_document(shadow, viewer, [viewer] if viewer else [], known, None)),
    }
    for fmt in ("text", "markdown", "bbcode"):
        found[fmt] = render_summary(shadow, viewer, fmt, known)
    return found


@pytest.mark.parametrize("owner", ROLES)
def test_the_other_sides_outputs_do_not_change_with_the_owners_secrets(owner: str) -> None:
    table = midgame()
    game = table.game
    engine = game.engine
    known, changed = table.known(owner), changed_secrets(table, owner)
    mine = engine.with_secrets(game.state, owner, known)
    theirs = engine.with_secrets(game.state, owner, changed)
    for viewer in (other(owner), None):
        own = table.known(viewer) if viewer is not None else None
        before, after = outputs(game, mine, viewer, own), outputs(game, theirs, viewer, own)
        for name in before:
            assert before[name] == after[name], f"{viewer or 'public'} {name} shows {owner}'s"
    # The owner's own outputs do change: the change reached what a view can hold.
    before = outputs(game, mine, owner, known)
    after = outputs(game, mine, owner, changed)
    for name in ("svg", "page", "show", "text", "markdown"):
        assert before[name] != after[name], name


@pytest.mark.parametrize("owner", ROLES)
def test_the_kits_page_leak_check_passes(owner: str) -> None:
    table = midgame()
    assert page_leaks(table.game, owner, table.known(owner), [*ROLES, None]) == []


@pytest.mark.parametrize("owner", ROLES)
def test_the_summary_names_own_hidden_units_and_only_the_enemys_faces(owner: str) -> None:
    """3.3.1: the enemy sees a hidden counter's nationality and label; its owner sees its
    unit. Casualties markers (10.4.A) are the owner's too."""
    table = midgame()
    game = table.game
    units = game.state["units_data"]["units"]
    known = table.known(owner)
    own = render_summary(game, owner, "text", known)
    enemy = render_summary(game, other(owner), "text", table.known(other(owner)))
    public = render_summary(game, None, "text")
    for label, counter in hidden_counters(game, owner).items():
        nation = NATION[counter["nationality"]]
        unit = units[known[f"unit/{label}"]]
        if unit["kind"] == "false-report":
            assert f"{label}: {nation} False Report (hidden, known only to you)" in own
        else:
            called = unit["name"] if unit["name"].startswith(nation) else f"{nation} {unit['name']}"
            assert f"{label}: {called} (hidden, known only to you)" in own
        for text in (enemy, public):
            assert f"hidden {nation} counter {label}" in text
            assert f"{label}: {nation} " not in text


def test_the_summary_lists_where_play_stands() -> None:
    table = midgame()
    game = table.game
    state = game.state
    text = render_summary(game, "germans", "text", table.known("germans"))
    assert f"Turn {state['turn']} of 10, round {state['round']} of 5: actions (7.5, 9)" in text
    momentum = {"allies": "the Allies", "germans": "the Germans"}[state["momentum"]]
    assert f"Strategic Momentum: {momentum} (4.1.1)" in text
    deck = state["decks"]["allies"]
    left = len(deck["pile"]) - len(deck["private"])
    discard = ", ".join(map(str, deck["discard"])) or "empty"
    assert f"the Allies {left} card{'s' if left != 1 else ''} left, discard pile {discard}" in text
    played = ", ".join(map(str, state["played"]["germans"])) or "none"
    assert f"the Germans {played}" in text
    for printed, side in state["control"].items():
        assert printed in text.split("Control changed since the set-up")[1].split("\n")[0]
        assert {"allies": "the Allies", "germans": "the Germans"}[side] in text
    # the own hand (7.2.B) only on the own summary
    assert "Your Initiative Cards in hand (yours only)" in text
    assert "Your Initiative Cards" not in render_summary(game, "allies", "text")
    markdown = render_summary(game, "germans", "markdown", table.known("germans"))
    assert "| Strategic Momentum (4.1.1) |" in markdown


# --- the map through the registry ---------------------------------------------------------------


def counter_groups(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    for g in [g for g in root if g.tag == f"{NS}g" and g.get("class") == "legend"]:
        root.remove(g)
    return {
        g.get("data-label", ""): g
        for g in root.iter(f"{NS}g")
        if (g.get("class") or "").startswith("counter")
    }


@pytest.mark.parametrize("owner", ROLES)
def test_the_map_shows_own_hidden_units_to_their_owner_only(owner: str) -> None:
    table = midgame()
    game = table.game
    mine = counter_groups(render_svg(game, owner, known=table.known(owner)))
    theirs = counter_groups(render_svg(game, other(owner), known=table.known(other(owner))))
    public = counter_groups(render_svg(game, None))
    hidden = hidden_counters(game, owner)
    drawn = [label for label in hidden if label in mine]  # (a big stack shows a "+N" tile)
    assert drawn
    for label in drawn:
        assert mine[label].get("class") == "counter own-hidden"
        assert theirs[label].get("class") == "counter hidden"
        assert ET.tostring(theirs[label]) == ET.tostring(public[label])
    # without its own secrets (a store that lacks them) the owner sees the public faces
    bare = counter_groups(render_svg(game, owner))
    assert all(bare[label].get("class") == "counter hidden" for label in drawn)


def test_the_registry_draws_from_a_view_with_flooded_hexes_and_without() -> None:
    """9.8: a flooded hex is water; a view without `flooded` (an older state) draws too."""
    table = midgame()
    view = dict(role_view(table.game, "germans", None))
    dixmude = rm.hex_of(view["board"], "Dixmude")
    view.pop("flooded", None)
    dry = maps.board_svg("race-to-the-sea", view, role="germans")
    view["flooded"] = [dixmude]
    wet = maps.board_svg("race-to-the-sea", view, role="germans")
    label = f"{dixmude:04d}"

    def fill(svg: str) -> str:
        root = ET.fromstring(svg)
        return next(
            p.get("fill", "") for p in root.iter(f"{NS}polygon") if p.get("data-hex") == label
        )

    assert fill(dry) != rsvg.WATER
    assert fill(wet) == rsvg.WATER
    with pytest.raises(Exception, match="takes no layout"):
        maps.board_svg("race-to-the-sea", view, role="germans", layout=b"")


def test_the_status_and_activated_markers_are_drawn() -> None:
    table = midgame()
    game = table.game
    svg = render_svg(game, None)
    root = ET.fromstring(svg)
    status = ["".join(t.itertext()) for t in root.iter(f"{NS}text") if t.get("class") == "status"]
    state = game.state
    assert status[0] == f"Turn {state['turn']} of 10, round {state['round']}"
    activated = sorted(k for k, c in state["counters"].items() if c["activated"])
    groups = counter_groups(svg)
    for label, g in groups.items():
        marked = any(x.get("class") == "activated" for x in g.iter(f"{NS}g"))
        assert marked == (label in activated)


def test_the_highlight_reads_the_turns_public_decisions() -> None:
    """The turn's moves become arrows from the first hex to the last and its arrivals
    marks, the same for every viewer (read from the public log alone)."""
    table = midgame()
    game = table.game
    found = rsvg.highlight_of(game)
    assert found == maps.highlight_of(game) == last_turn(game.actions)
    grid = rm.grid(game.state["board"])
    _turn, played = turn_of(game.actions)
    for words in (a.text.split() for a in played if a.text.startswith("move ")):
        assert (words[2], words[-1]) in found.moves
    arrivals = re.compile(r"^c\d+: .*placed.* in (\d{4})$")  # flow.py's wording
    placed = {m[1] for a in played for e in a.events if (m := arrivals.match(e.text))}
    assert placed, "no reinforcements in the sample game's turn"
    assert {place for place, text in found.marks if text.endswith(" new")} == placed
    for a, b in (*found.moves, *found.attacks):
        assert int(a) in grid and int(b) in grid


def _action(turn: int, text: str, *events: str) -> Any:
    return SimpleNamespace(turn=turn, text=text, events=[SimpleNamespace(text=e) for e in events])


def test_the_highlight_of_a_fight() -> None:
    """Fire (11) as an attack arrow with its net hits, a fall back (11.3) as a move, an
    elimination (5.2.6) and a flood (9.8) as marks; the turn before is left out. The event
    wordings are those of firepower.py, hits.py and dykes.py."""
    actions = [
        _action(2, "move c01 0101 0102", "c01 moves to 0102"),
        _action(3, "hide"),  # the entry that ends turn 2 leaves a state of turn 3
        _action(3, "move c03 0714 0715 0815", "c03 moves to 0815"),
        _action(3, "fire c04 0807 to 0808 c09", "the cards: allies #6, germans #5"),
        _action(3, "reply", "net hits on c09: 2", "c09 falls back to 0909 (11.3)"),
        _action(3, "fire c05 0807 to 0809", "c12 (de-iii-res) is eliminated in 0809 (5.2.6)"),
        _action(3, "flood 0306"),
    ]
    found = last_turn(actions)  # type: ignore[arg-type]
    assert found.moves == (("0714", "0815"), ("0808", "0909"))
    assert found.attacks == (("0807", "0808"), ("0807", "0809"))
    assert found.marks == (("0808", "c09: 2 hits"), ("0809", "c12 eliminated"), ("0306", "flooded"))


def test_own_facts_list_the_owners_hidden_units_only() -> None:
    from pbem.render import facts

    table = midgame()
    game = table.game
    view = role_view(game, "allies", table.known("allies"))
    own = facts.own_facts("race-to-the-sea", view, "allies")
    hidden = hidden_counters(game, "allies")
    listed = " ".join(own)
    assert all(f", {label}: " in listed for label in hidden)
    german_view: Mapping[str, Any] = role_view(game, "germans", table.known("germans"))
    found = facts.map_facts("race-to-the-sea", german_view)
    assert found is not None
    words = " ".join(p.label for place in found.places for p in place.pieces)
    for label, counter in hidden.items():
        assert f"hidden {NATION[counter['nationality']]} counter {label}" in words
