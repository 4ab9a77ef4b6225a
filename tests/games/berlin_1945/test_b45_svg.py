"""The Berlin 1945 map as SVG (pbem/games/berlin_1945/svg.py), drawn from one role's view.

Positions: the demo save's last one (a finished game, every secret opened) and one in the
first turn, the Soviet plan sealed and the German to move (rulebook 7.2, 7.3). Each picture
is parsed as XML and searched for every zone and every unit the view holds.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pbem.core.adjudicator import Adjudicator
from pbem.core.engine import State
from pbem.games.berlin_1945 import svg
from pbem.games.berlin_1945.highlight import last_turn
from pbem.games.berlin_1945.rulebook import AREAS, SECTORS, ZONE_IDS
from pbem.games.berlin_1945.rules import ENGINE
from pbem.maps.layout import LayoutError
from pbem.maps.svg import Highlight
from pbem.render import maps
from pbem.testing import Table, other_secrets
from pbem.verify import verify_text
from tests.games.berlin_1945.b45_support import table

NS = "{http://www.w3.org/2000/svg}"
ROLES = ("german", "soviet")
VIEWERS = (*ROLES, None)
DEMO = Path(__file__).resolve().parents[3] / "saves" / "berlin-1945-demo.pbem"
STAND_IN = "stand-in layout, not the published map"


@cache
def demo() -> Adjudicator:
    game = verify_text(DEMO.read_text(encoding="utf-8")).game
    assert game is not None
    return game


@cache
def first_turn() -> Table:
    """Turn 1, the Soviet plan sealed, the German to move: no unit has moved yet."""
    t = table(7)
    t.until("german")
    assert t.state["turn"] == 1 and t.state["plan"] is not None
    return t


def view_of(position: str, role: str | None) -> State:
    if position == "demo":
        state = demo().state
        assert state is not None
        return ENGINE.view(state, role)
    t = first_turn()
    if role is None:
        return ENGINE.view(t.state, None)
    return ENGINE.view_known(t.state, role, t.known(role))


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def groups(root: ET.Element, cls: str) -> Iterator[ET.Element]:
    return (g for g in root.iter(f"{NS}g") if g.get("class") == cls)


def texts(element: ET.Element) -> list[str]:
    """The visible text of an element: its <text> elements (not the <title> tooltips)."""
    return ["".join(t.itertext()) for t in element.iter(f"{NS}text")]


def shipped_layout() -> str:
    return svg._shipped_layout().decode("utf-8")


def moved(layout: str, zone: str, x: int, y: int) -> str:
    """`layout` with `zone`'s place moved to (x, y)."""
    found = re.subn(rf'(id = "{zone}"\nx = )[\d.]+(\ny = )[\d.]+', rf"\g<1>{x}\g<2>{y}", layout)
    assert found[1] == 1
    return found[0]


def without(layout: str, zone: str) -> str:
    """`layout` with `zone`'s place taken out."""
    found = re.subn(rf'\[\[place\]\]\nid = "{zone}"\n(?:[a-z_]+ = [^\n]*\n)*', "", layout)
    assert found[1] == 1
    return found[0]


# --- every zone, every unit -----------------------------------------------------------------


@pytest.mark.parametrize("role", VIEWERS, ids=lambda r: r or "public")
@pytest.mark.parametrize("position", ["demo", "first-turn"])
def test_every_zone_and_every_unit_of_the_view_is_drawn(position: str, role: str | None) -> None:
    """Rulebook 2.1: Areas A-F, Districts 1-18 and Mitte Sectors I-V, each unit in its zone."""
    view = view_of(position, role)
    root = parse(svg.board_svg(view, role=role))
    zones = {g.get("data-zone"): g for g in groups(root, "zone")}
    assert sorted(zones, key=ZONE_IDS.index) == list(ZONE_IDS)
    for zone, g in zones.items():
        big = f"Area {zone}" if zone in AREAS else f"Mitte {zone}" if zone in SECTORS else zone
        assert texts(g)[0] == big, f"zone {zone} shows no id"
    drawn = {g.get("data-unit"): g for g in groups(root, "unit")}
    on_map = {uid: u for uid, u in view["units"].items() if u["status"] == "on"}
    assert set(drawn) == set(on_map)
    for uid, unit in on_map.items():
        assert drawn[uid].get("data-zone") == unit["zone"]
        assert texts(drawn[uid]) == [uid]
    panel = " ".join(t for t in texts(root))
    for uid, unit in view["units"].items():
        if unit["status"] != "on":  # the Removed units box (2.1) or not yet in play
            assert uid in panel


def test_the_soviet_sees_its_27_units_in_areas_a_to_f_at_the_start() -> None:
    """Rulebook 2.1, 4: the Soviet troops start deployed in Areas A to F."""
    view = view_of("first-turn", "soviet")
    root = parse(svg.board_svg(view, role="soviet"))
    in_areas = [
        g.get("data-unit")
        for g in groups(root, "unit")
        if g.get("data-zone") in AREAS and str(g.get("data-unit")).startswith("su-")
    ]
    assert len(in_areas) == 27
    starts = {uid for uid, u in view["units"].items() if u["side"] == "soviet" and u["zone"]}
    assert set(in_areas) == starts


def test_control_and_the_reichstag_limit_are_drawn() -> None:
    """Rulebook 5.5: control markers; 5.3: the German limit in Sector V is lifted once a
    Soviet unit entered Sectors I-IV (as in the demo's end), 4 before (the first turn)."""
    start = parse(svg.board_svg(view_of("first-turn", None)))
    end = parse(svg.board_svg(view_of("demo", None)))

    def zone_texts(root: ET.Element, zone: str) -> list[str]:
        return next(texts(g) for g in groups(root, "zone") if g.get("data-zone") == zone)

    assert "G max 4" in zone_texts(start, "V")
    assert "G no limit" in zone_texts(end, "V")
    assert "G" in zone_texts(start, "12") and "S" not in zone_texts(start, "12")
    assert "S" in zone_texts(end, "12")  # the demo's Soviets took District 12
    assert "max 7" in zone_texts(start, "5")  # 5 Kreuzberg's printed limit (rulebook 5.3)


# --- secrets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("owner", ROLES)
def test_the_other_sides_map_does_not_depend_on_the_owners_secrets(owner: str) -> None:
    """Rulebook 2.3, 7.2: the Soviet plan and each hand are secret. The map of every other
    viewer is byte-identical whatever the owner's sealed values are; the owner's own map
    shows them (so the comparison could fail)."""
    t = first_turn()
    known = t.known(owner)
    mine = ENGINE.with_secrets(t.state, owner, known)
    changed = ENGINE.with_secrets(t.state, owner, other_secrets(known))
    for viewer in VIEWERS:
        a = svg.board_svg(ENGINE.view(mine, viewer), role=viewer)
        b = svg.board_svg(ENGINE.view(changed, viewer), role=viewer)
        if viewer == owner:
            assert a != b, "the owner's map shows its own secrets"
        else:
            assert a == b, f"{viewer or 'the public'}'s map shows {owner}'s secrets"


def test_the_soviet_sees_its_sealed_plan_and_the_german_does_not() -> None:
    """Rulebook 7.2: the plan is secret until it is opened in 7.3."""
    t = first_turn()
    plan = t.known("soviet")[t.state["plan"]["label"]]
    first = plan["orders"][0]
    soviet = " ".join(texts(parse(svg.board_svg(view_of("first-turn", "soviet"), role="soviet"))))
    german = " ".join(texts(parse(svg.board_svg(view_of("first-turn", "german"), role="german"))))
    assert "Your plan (sealed: only you see it):" in soviet
    assert f"1. {first['frm']} -> {first['dests'][0][0]}" in soviet
    assert "Soviet plan: sealed" in german and "Your plan" not in german
    root = parse(svg.board_svg(view_of("first-turn", "soviet"), role="soviet"))
    planned = [g for g in groups(root, "planned")]
    assert planned and len(list(planned[0].iter(f"{NS}line"))) >= len(plan["orders"])


# --- layouts ----------------------------------------------------------------------------------


def test_a_players_layout_replaces_the_positions() -> None:
    mine = moved(shipped_layout(), "A", 300, 300)
    mine = mine.replace('provenance = "stand-in"', 'provenance = "my printed map"')
    assert mine != shipped_layout()
    root = parse(svg.board_svg(view_of("demo", None), layout=mine.encode()))
    area = next(g for g in groups(root, "zone") if g.get("data-zone") == "A")
    rect = next(r for r in area.iter(f"{NS}rect") if r.find(f"{NS}title") is not None)
    assert (float(rect.get("x", 0)), float(rect.get("y", 0))) == (300 - 85, 300 - 50)
    shown = " ".join(texts(root))
    assert STAND_IN not in shown and "layout: my printed map" in shown


def test_a_layout_missing_a_zone_is_refused_in_one_line() -> None:
    broken = without(shipped_layout(), "V")
    with pytest.raises(LayoutError) as error:
        svg.board_svg(view_of("demo", None), layout=broken.encode())
    assert str(error.value) == "layout file has no place for V"


def test_a_layout_with_a_box_of_no_size_is_refused() -> None:
    broken = re.sub(
        r'(id = "12"\n(?:[a-z]+ = [^\n]*\n)*?)w = \d+', r"\g<1>w = -3", shipped_layout()
    )
    assert broken != shipped_layout()
    with pytest.raises(LayoutError, match="place '12': w and h must be positive numbers"):
        svg.board_svg(view_of("demo", None), layout=broken.encode())


def test_the_shipped_layout_is_a_stand_in_and_says_so() -> None:
    layout = svg.read_layout()
    assert layout.stand_in and set(ZONE_IDS) <= set(layout.places)
    root = parse(svg.board_svg(view_of("demo", "soviet"), role="soviet"))
    assert STAND_IN in texts(root)


def test_the_layout_is_not_game_data() -> None:
    """A layout is presentation: the engine's data files, hashed into a genesis, leave it out."""
    assert "layout.toml" not in ENGINE.data_files
    assert "layout.toml" not in ENGINE.default_data()


# --- what the last turn did -------------------------------------------------------------------


def _actions_through(seq: int) -> list[Any]:
    actions = demo().actions
    return actions[: next(i for i, a in enumerate(actions) if a.seq == seq) + 1]


def test_the_last_turn_of_the_demo_is_highlighted() -> None:
    """Turn 12 of the demo: three Soviet orders, no combat, a marker, the Soviet victory (9.1)."""
    highlight = svg.highlight_of(demo())
    assert set(highlight.moves) == {("II", "V"), ("3", "4"), ("11", "10")}
    assert highlight.attacks == ()
    assert ("2", "moltke-bridge marker placed") in highlight.marks
    assert any(zone == "" and "Soviet victory" in text for zone, text in highlight.marks)
    root = parse(svg.board_svg(view_of("demo", None), highlight=highlight))
    arrows = [line for line in root.iter(f"{NS}line") if line.get("class") == "arrow move"]
    assert len(arrows) == 3
    assert all(a.get("marker-end") == "url(#head-move)" for a in arrows)
    assert any("Soviet victory" in t for t in texts(root))


def test_an_attack_a_result_and_an_order_undone_by_a_card() -> None:
    """Turn 9 of the demo: the Soviet order carried out first (11 -> 6) is undone by the
    German's Blown Bridges (card 17, rulebook 2.3: 'the opponent's order 1'), the move into
    Sector I is fought over (an attack, 7.4) and a card removes a German unit in District 7."""
    highlight = last_turn(_actions_through(176))  # the entry that ends turn 9's combat
    assert ("11", "6") not in highlight.moves + highlight.attacks
    assert ("2", "I") in highlight.attacks and ("1", "2") in highlight.moves
    assert ("V", "I") in highlight.attacks  # the German flank into I (fought over too)
    assert ("11", "order undone by card #17") in highlight.marks
    assert ("I", "Soviet won 4 to 3") in highlight.marks
    assert ("I", "removed de-charlottenburg") in highlight.marks
    assert ("7", "de-18pzgr removed by card") in highlight.marks
    root = parse(svg.board_svg(view_of("demo", None), highlight=highlight))
    kinds = [line.get("class") for line in root.iter(f"{NS}line")]
    assert kinds.count("arrow attack") == len(highlight.attacks)


def test_the_start_of_a_turn_shows_the_turn_before() -> None:
    """After 'turn 10 begins' only cards are drawn: the highlight is still turn 9's."""
    assert last_turn(_actions_through(178)) == last_turn(_actions_through(176))
    assert last_turn([]) == Highlight()


def test_every_highlighted_move_of_the_demo_follows_a_border() -> None:
    """Each turn's arrows join adjacent zones (rulebook 5.1; for the German, any two Mitte
    sectors): the event texts are read as the engine writes them."""
    adjacent = {frozenset(pair) for pair in svg._map()["borders"]}
    adjacent |= {frozenset((a, b)) for a in SECTORS for b in SECTORS if a != b}
    ends = [a.seq for a in demo().actions if any(e.text.startswith("turn ") for e in a.events)]
    drawn = 0
    for seq in [*ends, demo().actions[-1].seq]:
        highlight = last_turn(_actions_through(seq))
        for pair in highlight.moves + highlight.attacks:
            assert frozenset(pair) in adjacent, pair
        drawn += len(highlight.moves + highlight.attacks)
    assert drawn > 20


# --- escaping, scale, registry ------------------------------------------------------------------


def test_hostile_text_is_escaped() -> None:
    """Text from data files, a layout or a log reaches the SVG as text, never as markup."""
    view = view_of("demo", "soviet")
    hostile = "</text><script>alert(1)</script> & <b>bold</b>\nnext line"
    view["result"] = dict(view["result"], reason=hostile)
    view["cards"]["soviet-20"]["name"] = hostile
    layout = shipped_layout().replace(
        'title = "Berlin 1945: The Fall of the Reichstag"', 'title = "<script>x</script>"'
    )
    marks = (("I", hostile), ("", hostile))
    text = svg.board_svg(
        view,
        role="soviet",
        layout=layout.encode(),
        highlight=Highlight(moves=(("2", "I"),), marks=marks),
    )
    root = parse(text)
    tags = {element.tag for element in root.iter()}
    assert f"{NS}script" not in tags and f"{NS}b" not in tags
    assert "<script>" not in text
    shown = " ".join(texts(root))
    assert "</text><script>alert(1)</script> & <b>bold</b> next line" in shown


def test_scale_and_the_registry() -> None:
    view = view_of("demo", None)
    plain = parse(svg.board_svg(view))
    half = parse(maps.board_svg("berlin-1945", view, scale=0.5))
    assert float(half.get("width", 0)) == float(plain.get("width", 0)) / 2
    assert half.get("viewBox") == plain.get("viewBox")
    assert maps.has_map("berlin-1945")
    assert maps.highlight_of(demo()) == svg.highlight_of(demo())


def test_the_borders_are_the_games_own() -> None:
    """A game on a player's own map.toml is drawn with its borders, read from the view's
    zones, not with the shipped ones (here: one border taken out of the view)."""
    view = view_of("end", None)
    root = parse(svg.board_svg(view))
    lines = [e for g in groups(root, "borders") for e in g.iter(f"{NS}line")]
    assert len(lines) == len(svg._map()["borders"])
    first = view["zones"][0]
    gone = first["neighbours"].pop(0)["id"]
    for zone in view["zones"]:
        if zone["id"] == gone:
            zone["neighbours"] = [n for n in zone["neighbours"] if n["id"] != first["id"]]
    fewer = [e for g in groups(parse(svg.board_svg(view)), "borders") for e in g.iter(f"{NS}line")]
    assert len(fewer) == len(lines) - 1
