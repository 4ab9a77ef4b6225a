"""The summaries a Race to Berlin player plans from (issue 12): every area with its control
and neighbours, empty ones too, so that control and the front line can be rebuilt from the
summary alone; units by the ids that orders use, German units with their front; special
tokens by kind; the turn's status; stand-in data marked as such.

Positions are the demo save (saves/race-to-berlin-demo.pbem) cut after its joins (the
start: rulebook 2, the units "as shown on the game board", here the stand-in map) and
whole (the end), replayed and verified as a reader of the save would.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest

from pbem import escape
from pbem.core.adjudicator import Adjudicator
from pbem.games.race_to_berlin import data as rtb_data
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.games.race_to_berlin.view import board_view
from pbem.render.summary import render_summary
from pbem.testing import SignedTable
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text

SAVE = Path(__file__).resolve().parents[3] / "saves" / "race-to-berlin-demo.pbem"
DATA = rtb_data.load_data({})
ROLES = ("west", "soviet", None)
FORMATS = ("text", "markdown", "bbcode")
FRONT = {
    "german-west": "Western Front (played by Soviet)",
    "german-east": "Eastern Front (played by West)",
}


@cache
def demo(where: str) -> Adjudicator:
    """The demo game at its start (after the joins) or its end."""
    entries = parse_entries(SAVE.read_bytes())
    if where == "start":
        entries = entries[: sum(1 for e in entries if e.kind in ("genesis", "join"))]
    game = verify_text(move_file(entries)).game
    assert game is not None and game.state is not None
    return game


def area_blocks(text: str) -> dict[str, list[str]]:
    """The text summary's area list: area id -> its lines (the area line first)."""
    body = text.split("  Areas, all ", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    areas: dict[str, list[str]] = {}
    current = None
    for line in body:
        found = re.match(r"^    (\S+)\s", line)
        if found:
            current = found.group(1)
            areas[current] = []
        assert current is not None, line
        areas[current].append(line.strip())
    return areas


@pytest.mark.parametrize("where", ["start", "end"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_area_is_listed_for_every_role(where: str, role: str | None, fmt: str) -> None:
    game = demo(where)
    text = render_summary(game, role, fmt)
    for area in DATA["area_ids"]:
        name = DATA["areas"][area]["name"]
        if fmt == "markdown":
            assert f"| {area} {escape.markdown(name)} †" in text, area
        else:
            assert re.search(rf"^    {area}\s+{re.escape(name)} †: ", text, re.M), area


@pytest.mark.parametrize("where", ["start", "end"])
def test_each_area_shows_its_control_and_all_its_neighbours(where: str) -> None:
    """Control of every area, empty or not, and its borders (rivers apart): the front line
    is where areas of different control meet (rulebook 1: front line markers)."""
    game = demo(where)
    state = game.state
    assert state is not None
    areas = area_blocks(render_summary(game, "west", "text"))
    assert list(areas) == DATA["area_ids"]
    for area, lines in areas.items():
        control = state["areas"][area]["control"]
        assert lines[0].split(" †: ", 1)[1].startswith(control)
        near = lines[1]
        assert near.startswith("next to ")
        plain, _, river = near[len("next to ") :].partition("; across a river ")
        listed = [a for a in plain.split(", ") if a != "-"] + (river.split(", ") if river else [])
        assert sorted(listed) == sorted(DATA["areas"][area]["neighbours"]), area
        assert sorted(river.split(", ") if river else []) == sorted(DATA["areas"][area]["rivers"])


@pytest.mark.parametrize("where", ["start", "end"])
def test_units_are_listed_by_id_in_their_area_german_ones_with_their_front(where: str) -> None:
    """Orders name units by id (`advance de-1fj ...`); the German units of each front are
    played by the other player (rulebook 4.1.1)."""
    game = demo(where)
    state = game.state
    assert state is not None
    areas = area_blocks(render_summary(game, "soviet", "text"))
    on_board = 0
    for unit, rec in state["units"].items():
        if rec["area"] is None:
            continue
        on_board += 1
        line = next(x for x in areas[rec["area"]] if x.split(" ", 1)[0] == unit)
        assert rec["name"] in line
        if rec["force"] in FRONT:
            assert f"German {FRONT[rec['force']]}, strength {rec['strength']}" in line
    assert on_board >= (39 if where == "start" else 20)  # rulebook 1: 40 units, 1 in reserve


def test_units_off_the_board_are_listed_too() -> None:
    text = render_summary(demo("end"), None, "text")
    off = text.split("  Off the board:\n", 1)[1]
    state = demo("end").state
    assert state is not None
    for unit, rec in state["units"].items():
        if rec["area"] is None:
            assert re.search(rf"^\s+{unit}\s.*\({rec['status']}\)$", off, re.M), unit


def test_special_tokens_are_shown_by_force_and_kind() -> None:
    """rulebook, Special tokens: 8 per player a turn, each for a force; the mix is a
    stand-in (data/tokens.toml)."""
    text = render_summary(demo("start"), None, "text")
    assert (
        "    west: west logistics 2/2 †, west support 1/1 †, west reserves 1/1 †, "
        "german-east support 1/1 †, german-east reserves 1/1 †, "
        "german-east counterattack 2/2 †\n" in text
    )
    assert "    soviet: soviet logistics 2/2 †" in text


def test_the_stand_in_map_is_marked_and_a_games_own_map_is_not() -> None:
    text = render_summary(demo("start"), None, "text")
    assert "Map: Western and Central Europe, January 1945 †" in text
    assert "† stand-in map data, not the published game" in text
    assert "us-1           US 1st Army †: West" in text  # its start area is a stand-in
    markdown = render_summary(demo("start"), None, "markdown")
    assert "> † stand-in map data, not the published game" in markdown
    # A game on its own map (another title) gets no stand-in marker from the shipped file.
    files = rtb_data.default_data()
    own = files["map.toml"].replace(b'title = "Western and Central', b'title = "My Central')
    view = board_view(ENGINE.setup(ENGINE.load_data({"map.toml": own}), {}))
    assert view["data"] == {"stand_in": False, "own": True}
    assert not any(a["stand_in"] or any(u["stand_in"] for u in a["units"]) for a in view["board"])


def test_the_blocks_left_to_place_show_in_their_owners_summary_only() -> None:
    """rulebook 4.1: blocks stand so that only their owner sees their numbers."""
    table = SignedTable("race-to-berlin", ("west", "soviet"), nonce="to-place", signed=False)
    table.join_all()
    rng = random.Random(4)
    while table.game.state is None or table.game.state["placed"]["soviet"] < 2:
        table.step(rng)
    soviet = render_summary(table.game, "soviet", "text", table.known("soviet"))
    west = render_summary(table.game, "west", "text", table.known("west"))
    line = next(x for x in soviet.splitlines() if "soviet blocks still to place" in x)
    left = [int(v) for v in line.rsplit(": ", 1)[1].split(", ")]
    assert len(left) == 8 - 2 and set(left) <= {2, 3, 4, 5}
    assert "soviet blocks still to place" not in west
    assert "west blocks still to place (yours only): " in west  # its own, all 8 or 7
    assert "This turn: logistics blocks placed" in soviet
