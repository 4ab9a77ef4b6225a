"""The Race to Berlin map as SVG (pbem/games/race_to_berlin/svg.py), from one role's view.

Positions: the demo save's last position and one in the middle of turn 2 (the save cut
after entry 200, read as a move file), both as the adjudicator holds them (no sealed value
known), and a bot game in the Action Phase of turn 1 with sealed blocks whose values
only their owners know (`Table`), for what the owner and the opponent may see.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from pbem.core.adjudicator import Adjudicator
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.games.race_to_berlin.svg import board_svg, highlight_of
from pbem.maps.layout import LayoutError
from pbem.render.maps import board_svg as registry_board_svg
from pbem.testing import Table, other_secrets
from pbem.verify import verify_text
from tests.games.race_to_berlin.rtb_support import DATA, new_game

SAVE = Path(__file__).resolve().parents[3] / "saves" / "race-to-berlin-demo.pbem"
NS = "{http://www.w3.org/2000/svg}"
VIEWERS = ["west", "soviet", None]
MIDDLE = 200  # entries of the save read for the position in the middle of turn 2


@lru_cache(maxsize=2)
def demo(entries: int | None = None) -> Adjudicator:
    """The demo game after its first `entries` entries (all of them: None)."""
    text = SAVE.read_text(encoding="utf-8")
    if entries is not None:
        # the entries alone, without the save's header, read as a move file would be
        start = text.index("\ngame ") + 1
        ends = [m.end() for m in re.finditer("-----END PBEM ENTRY-----", text)]
        text = text[start : ends[entries - 1]]
    report = verify_text(text)
    assert report.ok, report.failure
    assert report.game is not None
    return report.game


def svg_of(game: Adjudicator, viewer: str | None, **options: Any) -> str:
    return board_svg(ENGINE.view(game.state, viewer), role=viewer, **options)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # raises on anything not well-formed


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()]


def block_group(root: ET.Element, label: str) -> ET.Element:
    (found,) = [g for g in groups(root, "block") if g.get("data-block") == label]
    return found


def sealed_table() -> Table:
    """A bot game in turn 1's Action Phase: one block per side revealed, the rest sealed."""
    table = new_game(seed=4)
    table.until("action")
    for _ in range(3):
        table.step()
    return table


# --- what is drawn ------------------------------------------------------------------------------


@pytest.mark.parametrize("entries", [None, MIDDLE], ids=["last", "middle"])
@pytest.mark.parametrize("viewer", VIEWERS, ids=lambda v: v or "public")
def test_every_area_and_unit_of_the_view_is_drawn(entries: int | None, viewer: str | None) -> None:
    game = demo(entries)
    view = ENGINE.view(game.state, viewer)
    root = parse(board_svg(view, role=viewer, highlight=highlight_of(game)))
    words = texts(root)
    drawn_areas = {g.get("data-area") for g in groups(root, "area")}
    assert drawn_areas == {a["id"] for a in view["board"]}
    for area in view["board"]:
        assert area["id"] in words
        assert any(area["name"].startswith(w) for w in words if w), area["name"]
        for unit in area["units"]:
            assert unit["id"] in words
            (counter,) = [g for g in groups(root, "unit") if g.get("data-unit") == unit["id"]]
            if unit["strength"] is not None:  # rulebook 2: German units have a strength
                assert str(unit["strength"]) in texts(counter)
    panel = [t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == "off-board"]
    listed = {unit for line in panel for unit in line.split(": ")[-1].split(", ")}
    assert listed == {unit["id"] for unit in view["off_board"]}


def test_borders_rivers_front_markers_and_edges_follow_the_map() -> None:
    root = parse(svg_of(demo(), "west"))
    paths = root.iter(f"{NS}path")
    borders = {p.get("data-areas") for p in paths if "border" in (p.get("class") or "")}
    assert "4 7" in borders and "13 25" in borders
    # Berlin's twenty borders are one frame with a line from 31 and from 32 (rulebook 4.5)
    assert {"31 Berlin", "32 Berlin"} <= borders and "B1 B2" not in borders
    rivers = {e.get("data-areas") for e in root.iter(f"{NS}line") if e.get("class") == "river"}
    assert {"4 7", "1 5", "17 28"} <= rivers and "1 2" not in rivers  # shipped map.toml
    view = ENGINE.view(demo().state, "west")
    control = {a["id"]: a["control"] for a in view["board"]}
    markers = [e for e in root.iter(f"{NS}rect") if "front" in (e.get("class") or "").split()]
    assert markers
    for marker in markers:
        a, b = (marker.get("data-areas") or "").split()
        player = (marker.get("class") or "").split()[1]
        # rulebook 4.2.1.1: a player's marker sits between its area and any other
        assert (control[a] == player) != (control[b] == player)
    edges = [e for e in root.iter(f"{NS}rect") if "edge" in (e.get("class") or "").split()]
    # rulebook 4.4: the western and southern edges supply the West, the eastern the Soviets
    assert len(edges) == sum(len(area["edges"]) for area in DATA["areas"].values())
    colours = {(e.get("class") or "").split()[1]: e.get("fill") for e in edges}
    assert colours["west"] == colours["south"] != colours["east"]


def test_the_stand_in_legend_and_the_view_it_was_drawn_for() -> None:
    words = texts(parse(svg_of(demo(), "soviet")))
    assert any(w.startswith("Stand-in layout, not the published map") for w in words)
    assert "Race to Berlin: Soviet's view" in words
    assert "Race to Berlin: the public view" in texts(parse(svg_of(demo(), None)))


def test_the_registry_finds_the_map() -> None:
    view = ENGINE.view(demo().state, None)
    assert registry_board_svg("race-to-berlin", view) == board_svg(view)


def test_the_same_view_gives_the_same_bytes() -> None:
    game = demo(MIDDLE)
    assert svg_of(game, "west", highlight=highlight_of(game)) == svg_of(
        game, "west", highlight=highlight_of(game)
    )


def test_scale_changes_the_size_not_the_drawing() -> None:
    root = parse(svg_of(demo(), None, scale=0.5))
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    _, _, vw, vh = (float(v) for v in (root.get("viewBox") or "").split())
    assert (width, height) == (vw / 2, vh / 2)


# --- hidden blocks (rulebook 4.1: a standing block's number only its owner sees) ---------------


def test_a_sealed_block_shows_its_value_to_its_owner_only() -> None:
    table = sealed_table()
    known = table.known("west")
    sealed = [b for b in table.state["blocks"] if b["owner"] == "west" and not b["revealed"]]
    assert sealed and all(b["area"] is not None for b in sealed)
    own = parse(board_svg(ENGINE.view_known(table.state, "west", known), role="west"))
    for viewer in ("soviet", None):
        other = parse(board_svg(ENGINE.view(table.state, viewer), role=viewer))
        for block in sealed:
            label = block["label"]
            mine = block_group(own, label)
            assert mine.get("data-value") == str(known[label])
            assert texts(mine) == [str(known[label])]
            theirs = block_group(other, label)
            assert theirs.get("data-value") is None
            assert texts(theirs) == ["?"]  # the back of the block
    # a revealed block (rulebook 4.2.1.2 step 5) shows its value to everyone
    (shown,) = [b for b in table.state["blocks"] if b["owner"] == "west" and b["revealed"]]
    public = parse(board_svg(ENGINE.view(table.state, None)))
    assert texts(block_group(public, shown["label"])) == [str(shown["value"])]


@pytest.mark.parametrize("owner", ["west", "soviet"])
def test_what_others_see_does_not_depend_on_the_owners_sealed_values(owner: str) -> None:
    table = sealed_table()
    known = table.known(owner)
    assert known
    mine = ENGINE.with_secrets(table.state, owner, known)
    changed = ENGINE.with_secrets(table.state, owner, other_secrets(known))
    for viewer in ("soviet" if owner == "west" else "west", None):
        assert board_svg(ENGINE.view(mine, viewer), role=viewer) == board_svg(
            ENGINE.view(changed, viewer), role=viewer
        )
    own_a = board_svg(ENGINE.view(mine, owner), role=owner)
    own_b = board_svg(ENGINE.view(changed, owner), role=owner)
    assert own_a != own_b  # the check above could fail: the owner's picture does change


# --- layouts ------------------------------------------------------------------------------------


def shipped_layout() -> str:
    """The stand-in layout, found as the map finds it (it ships in the wheel beside map.toml)."""
    folder = resources.files("pbem.games.race_to_berlin") / "data"
    return (folder / "layout.toml").read_text(encoding="utf-8")


def area_box(root: ET.Element, area: str) -> tuple[float, float]:
    (group,) = [g for g in groups(root, "area") if g.get("data-area") == area]
    rect = group.find(f"{NS}rect")
    assert rect is not None
    return float(rect.get("x") or 0), float(rect.get("y") or 0)


def test_a_user_layout_replaces_the_positions() -> None:
    text = shipped_layout().replace('provenance = "stand-in"', 'provenance = "my printed map"')
    text = re.sub(r"(?m)^x = (\d+)$", lambda m: f"x = {int(m.group(1)) + 100}", text)
    text = text.replace("width = 2036", "width = 2200")
    view = ENGINE.view(demo().state, None)
    before, after = parse(board_svg(view)), parse(board_svg(view, layout=text.encode()))
    for area in ("1", "17", "B1"):
        (x0, y0), (x1, y1) = area_box(before, area), area_box(after, area)
        assert (x1 - x0, y1 - y0) == (100, 0)
    svg = board_svg(view, layout=text.encode())
    assert "Stand-in layout" not in svg and "my printed map" in svg


def test_a_layout_missing_an_area_is_refused_in_one_line() -> None:
    text = shipped_layout()
    cut = re.sub(r'\[\[place\]\][^\[]*id = "B3"[^\[]*', "", text)
    assert cut != text
    with pytest.raises(LayoutError) as refused:
        board_svg(ENGINE.view(demo().state, None), layout=cut.encode())
    message = str(refused.value)
    assert "B3" in message and "\n" not in message


def test_a_layout_that_is_not_toml_is_refused() -> None:
    with pytest.raises(LayoutError, match="not TOML"):
        board_svg(ENGINE.view(demo().state, None), layout=b"[layout\nwidth = ")


def test_on_another_map_the_borders_come_from_the_view_and_no_edges_are_drawn() -> None:
    view = ENGINE.view(demo().state, None)
    view["board"][0]["name"] = "Somewhere Else"
    root = parse(board_svg(view))
    borders = [p for p in root.iter(f"{NS}path") if p.get("class") == "border"]
    shipped = [p for p in parse(board_svg(ENGINE.view(demo().state, None))).iter(f"{NS}path")]
    assert len(borders) == len([p for p in shipped if p.get("class") == "border"])
    assert [p for p in root.iter(f"{NS}path") if p.get("class") == "border berlin"]
    assert "Somewhere Else" in texts(root)
    assert "Board edges not drawn" in " ".join(texts(root))


# --- what changed this turn ---------------------------------------------------------------------


def test_the_last_turns_moves_and_attacks_are_arrows() -> None:
    game = demo(MIDDLE)
    highlight = highlight_of(game)
    turn = game.state["turn"]
    # every move and attack the events of this turn record, and nothing of the turn before
    expected_moves = set()
    expected_attacks = set()
    for action in game.actions:
        for event in action.events:
            if action.turn == turn and {"frm", "to"} <= set(event.data):
                expected_moves.add((event.data["frm"], event.data["to"]))
            if action.turn == turn and {"frm", "target"} <= set(event.data):
                expected_attacks.add((event.data["frm"], event.data["target"]))
    assert expected_attacks and expected_attacks == set(highlight.attacks)
    assert expected_moves <= set(highlight.moves)
    # a retreat goes from the attacked area, an advance from the attacking one (seq 172-173:
    # de-1pz retreats from 24 to 23, the Soviets advance from 21 into 24)
    assert ("24", "23") in highlight.moves and ("21", "24") in highlight.moves
    assert ("24", "attack 15 v 6: won") in highlight.marks
    assert ("24", "now Soviet") in highlight.marks
    root = parse(svg_of(game, "west", highlight=highlight))
    for kind, pairs in (("move", highlight.moves), ("attack", highlight.attacks)):
        drawn = {(g.get("data-from"), g.get("data-to")) for g in groups(root, kind)}
        assert drawn == set(pairs)
    marks = [t for g in groups(root, "mark") for t in texts(g)]
    assert "now Soviet" in marks


def test_the_final_turns_advance_and_result_are_highlighted() -> None:
    highlight = highlight_of(demo())
    # seq 362-365: West attacks 15 from 12, wins 8 to 5 and advances from 12 into 15
    assert ("12", "15") in highlight.attacks and ("12", "15") in highlight.moves
    assert ("15", "attack 8 v 5: won") in highlight.marks and ("15", "now West") in highlight.marks
    assert not any(pair == ("24", "23") for pair in highlight.moves)  # turn 2's retreat


def test_no_highlight_no_arrows() -> None:
    root = parse(svg_of(demo(), "west"))
    assert not groups(root, "move") and not groups(root, "attack") and not groups(root, "mark")


# --- hostile text -------------------------------------------------------------------------------


def test_hostile_names_are_escaped() -> None:
    view = ENGINE.view(demo().state, None)
    view["map_title"] = "<script>alert(1)</script>"
    view["board"][0]["units"] = [
        {"id": "x<script>", "name": "</title><script>", "force": "west", "strength": None}
    ]
    svg = board_svg(view, role="<script>alert(2)</script>")
    root = parse(svg)
    assert "<script>" not in svg
    assert "&lt;script&gt;alert(1)" in svg and "&lt;script&gt;alert(2)" in svg
    assert "x<script>" in texts(root)  # the text itself survives, as text
    assert not list(root.iter(f"{NS}script"))
