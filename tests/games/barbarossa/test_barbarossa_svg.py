"""The Barbarossa gamesheet picture (pbem/games/barbarossa/svg.py), parsed back as XML.

Everything the view holds that the sheet shows must be found in the picture: each box of
each city with its value and whether it is marked (rulebook: Attacking Cities), the
timeline (rulebook: The Timeline), the VP, supply and command trackers (rulebook:
Capturing Cities and Gaining Victory Points, Re-supplying, Rolling sixes), the dice pool,
and the event chart with every event and the die results that give it (rulebook: Roll
on the event chart). Positions come from a layout file: the shipped stand-in, or a
user's, which must place everything.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pbem.core.canonical import copy_json
from pbem.games.barbarossa import svg
from pbem.games.barbarossa.rules import ENGINE
from pbem.games.barbarossa.svg_pen import RED
from pbem.maps.layout import LayoutError
from pbem.maps.svg import Highlight
from pbem.render import maps
from tests.games.barbarossa.demo_save import first_seq, game_at, last_seq

NS = "{http://www.w3.org/2000/svg}"
SHIPPED = svg._shipped_layout().decode("utf-8")


def parse(text: str) -> dict[str, ET.Element]:
    """The picture's elements by id (the picture must be well-formed XML)."""
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    found: dict[str, ET.Element] = {}
    for element in root.iter():
        if "id" in element.attrib:
            assert element.attrib["id"] not in found, f"id {element.attrib['id']} twice"
            found[element.attrib["id"]] = element
    return found


def classes(element: ET.Element) -> set[str]:
    return set(element.attrib.get("class", "").split())


def text_of(element: ET.Element) -> str:
    """The words drawn in `element` (its <text>s; not the tooltips of its <title>s)."""
    words = ["".join(t.itertext()) for t in element.iter(f"{NS}text")]
    return " ".join(" ".join(words).split())


def in_german_phase(state: dict[str, Any]) -> bool:
    return state["step"] == "allocate" and any(d["allocated"] for d in state["pool"])


def view_at(seq: int) -> dict[str, Any]:
    game = game_at(seq)
    return ENGINE.view(game.state, None)


def fresh_view() -> dict[str, Any]:
    return ENGINE.view(ENGINE.setup(None, {}), None)


POSITIONS = {
    "setup": fresh_view,
    "german phase": lambda: view_at(first_seq(in_german_phase)),
    "game over": lambda: view_at(last_seq()),
}


@pytest.mark.parametrize("where", sorted(POSITIONS))
def test_every_box_mark_and_tracker_value_of_the_view_is_drawn(where: str) -> None:
    view = POSITIONS[where]()
    drawn = parse(svg.board_svg(view))
    for path in view["paths"]:
        for city in path["cities"]:
            group = drawn[f"city-{city['id']}"]
            assert city["status"] in classes(group) and city["name"] in text_of(group)
            assert group.attrib["data-stars"] == str(city["stars"])
            assert text_of(group).count("★") == city["stars"]
            for n, box in enumerate(city["boxes"], start=1):
                element = drawn[f"box-{city['id']}-{n}"]
                assert element.attrib["data-value"] == str(box["value"])
                assert text_of(element) == str(box["value"])
                assert ("marked" in classes(element)) == box["marked"]
                assert ("supply" in classes(element)) == box["supply"]
    for box in view["timeline"]:
        element = drawn[f"timeline-{box['box']}"]
        assert ("marked" in classes(element)) == box["marked"]
        assert element.attrib["data-red-dice"] == str(box["red_dice"])
        assert box["label"] in text_of(element)
    assert drawn["vp"].attrib["data-value"] == str(view["vp"])
    marked_vp = [i for i in range(1, 21) if "marked" in classes(drawn[f"vp-{i}"])]
    assert marked_vp == list(range(1, view["vp"] + 1))
    for tracker in ("supply", "command"):
        count = view["cubes"][tracker]
        assert drawn[tracker].attrib["data-value"] == str(count)
        cap = view["limits"][tracker]
        cubes = [i for i in range(1, cap + 1) if "cube" in classes(drawn[f"{tracker}-{i}"])]
        assert cubes == list(range(1, count + 1))
    for die in view["pool"]:
        element = drawn[f"die-{die['die']}"]
        assert element.attrib["data-value"] == str(die["value"])
        assert die["colour"] in classes(element)
        assert ("used" in classes(element)) == (die["allocated"] is not None)


def chart_rows_drawn(drawn: dict[str, ET.Element]) -> list[ET.Element]:
    return [drawn[k] for k in sorted(drawn) if re.fullmatch(r"chart-row-\d+", k)]


@pytest.mark.parametrize("alone", [False, True], ids=["beside the sheet", "alone"])
def test_the_event_chart_lists_every_event_with_its_numbers(alone: bool) -> None:
    """rulebook: Roll on the event chart -- every result the chart covers (1 to 12 with
    black cubes) is printed in a row with its event's name and effect."""
    view = fresh_view()
    drawn = parse(svg.event_chart_svg(view) if alone else svg.board_svg(view))
    rows = chart_rows_drawn(drawn)
    covered: list[int] = []
    for row in rows:
        low, _, high = row.attrib["data-range"].partition("-")
        covered += list(range(int(low), int(high or low) + 1))
        event = view["events"][row.attrib["data-event"]]
        assert row.attrib["data-range"] in text_of(row) and event["name"] in text_of(row)
        assert text_of(row).split(event["name"])[1].strip().startswith(event["text"][:20])
    top = view["event_chart"][-1]["high"]
    assert covered == list(range(1, top + 1))
    for chart_row in view["event_chart"]:
        name = view["events"][chart_row["event"]]["name"]
        for value in range(chart_row["low"], chart_row["high"] + 1):
            row = next(r for r in rows if value in _range(r))
            assert name in text_of(row), f"die {value} should read {name}"


def _range(row: ET.Element) -> range:
    low, _, high = row.attrib["data-range"].partition("-")
    return range(int(low), int(high or low) + 1)


def test_the_row_of_the_event_die_is_marked_and_the_boosts_read_out() -> None:
    state = game_at(first_seq(_boost_possible)).state
    view = ENGINE.view(state, None)
    drawn = parse(svg.board_svg(view))
    value = view["event_die"]["value"]
    current = [r for r in chart_rows_drawn(drawn) if "current" in classes(r)]
    assert len(current) == 1 and value in _range(current[0])
    text = text_of(ET.fromstring(svg.event_chart_svg(view)))  # the chart alone
    assert f"Event die: {value}" in text
    assert f"boost event 1: {value + 1} = " in text


def _boost_possible(state: dict[str, Any]) -> bool:
    return state["step"] == "modify_event" and state["cubes"]["supply"] >= 1


def test_a_user_layout_replaces_the_positions() -> None:
    view = fresh_view()
    moved = SHIPPED.replace('id = "moscow"\nx = 890\ny = 482', 'id = "moscow"\nx = 700\ny = 600')
    assert moved != SHIPPED
    before = parse(svg.board_svg(view))["city-moscow"]
    after = parse(svg.board_svg(view, layout=moved.encode()))["city-moscow"]
    # the red city box is centred on the place: 112 wide, 22 high
    box = next(e for e in before if e.tag == f"{NS}rect" and e.attrib.get("fill") == RED)
    assert (float(box.attrib["x"]), float(box.attrib["y"])) == (890 - 56, 482 - 11)
    box = next(e for e in after if e.tag == f"{NS}rect" and e.attrib.get("fill") == RED)
    assert (float(box.attrib["x"]), float(box.attrib["y"])) == (700 - 56, 600 - 11)


def test_a_layout_missing_a_place_is_refused_with_one_clear_line() -> None:
    start = SHIPPED.index('[[place]]\nid = "moscow"')
    end = SHIPPED.index("[[place]]", start + 1)
    without = SHIPPED[:start] + SHIPPED[end:]
    with pytest.raises(LayoutError) as refused:
        svg.board_svg(fresh_view(), layout=without.encode())
    message = str(refused.value)
    assert "\n" not in message and "moscow" in message


def test_the_legend_says_stand_in_and_a_faithful_layout_drops_that_line() -> None:
    view = fresh_view()
    legend = text_of(parse(svg.board_svg(view))["legend"])
    assert svg.STAND_IN_LINE in legend
    assert "stand-in values" in legend  # the shipped gamesheet's values are stand-ins too
    faithful = SHIPPED.replace('provenance = "stand-in"', 'provenance = "printed gamesheet"')
    legend = text_of(parse(svg.board_svg(view, layout=faithful.encode()))["legend"])
    assert svg.STAND_IN_LINE not in legend and "stand-in values" in legend
    own_sheet = copy_json(view)
    own_sheet["paths"][0]["cities"][0]["stars"] = 2  # a user's own gamesheet file
    legend = text_of(parse(svg.board_svg(own_sheet, layout=faithful.encode()))["legend"])
    assert "stand-in" not in legend


def test_the_last_turns_boxes_timeline_and_dice_are_highlighted() -> None:
    game = game_at(last_seq())
    highlight = svg.highlight_of(game)
    marks = dict(highlight.marks)
    # what the demo's turn 12 did: the summary of the same position lists these events
    turn = [a for a in game.actions if a.turn == 12]
    marked = {
        f"box.{e.data['city']}.{e.data['box']}"
        for a in turn
        for e in a.events
        if {"city", "box", "value"} <= set(e.data)
    }
    assert marked and marked <= set(marks)
    assert "timeline.12" in marks and "timeline.11" not in marks
    view = ENGINE.view(game.state, None)
    drawn = parse(svg.board_svg(view, highlight=highlight))
    changed = {k for k, e in drawn.items() if k.startswith("box-") and "changed" in classes(e)}
    assert changed == {"box-" + m[4:].replace(".", "-") for m in marked}
    # the pool is empty after the last turn: its dice are listed in words
    pool_text = text_of(drawn["pool"])
    for place, text in marks.items():
        if place.startswith("die."):
            assert f"die {place[4:]}: {text}" in pool_text
    assert "{" not in pool_text


@pytest.mark.parametrize("full", [False, True], ids=["room", "tracker full"])
def test_an_unclaimed_natural_six_is_drawn(full: bool) -> None:
    """rulebook: Rolling sixes -- a white die's natural six earns a blue cube, if the
    command tracker (at most three) has room."""
    view = view_at(first_seq(_unclaimed_six_full if full else _unclaimed_six_room))
    drawn = parse(svg.board_svg(view))
    for die in view["pool"]:
        unclaimed = die["colour"] == "white" and die["six"] == "unclaimed"
        element = drawn[f"die-{die['die']}"]
        assert ("six-unclaimed" in classes(element)) == unclaimed
        if unclaimed:
            words = "six: tracker full" if full else f"six: claim {die['die']}"
            assert words in text_of(element)


def _unclaimed_six_room(state: dict[str, Any]) -> bool:
    room = state["cubes"]["command"] < state["limits"]["command"]
    return room and any(d["six"] == "unclaimed" for d in state["pool"])


def _unclaimed_six_full(state: dict[str, Any]) -> bool:
    room = state["cubes"]["command"] < state["limits"]["command"]
    return not room and any(d["six"] == "unclaimed" for d in state["pool"])


def test_names_from_a_users_gamesheet_are_escaped() -> None:
    view = fresh_view()
    view["paths"][0]["cities"][0]["name"] = '<script>alert("x")</script> & co'
    drawn = parse(svg.board_svg(view))  # still well-formed
    assert '<script>alert("x")</script> & co' in text_of(drawn["city-dvinsk"])


def test_the_registry_draws_it_at_any_scale_and_the_same_view_gives_the_same_bytes() -> None:
    view = view_at(first_seq(in_german_phase))
    assert maps.has_map("barbarossa")
    once = maps.board_svg("barbarossa", view, scale=0.5, highlight=Highlight())
    assert once == maps.board_svg("barbarossa", view, scale=0.5, highlight=Highlight())
    root = ET.fromstring(once)
    assert root.attrib["width"] == "680" and root.attrib["viewBox"] == "0 0 1360 965"
    assert maps.highlight_of(game_at(last_seq())) == svg.highlight_of(game_at(last_seq()))


def test_the_layout_ships_beside_the_gamesheet_but_is_not_game_data() -> None:
    assert "layout.toml" not in ENGINE.data_files
    assert svg.needs(fresh_view()) <= set(
        re.findall(r'^id = "([a-z_]+)"$', SHIPPED, flags=re.MULTILINE)
    )
