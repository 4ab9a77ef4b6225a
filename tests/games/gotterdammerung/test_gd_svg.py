"""Götterdämmerung: the two-scale SVG map (pbem/games/gotterdammerung/svg.py).

The picture must be well-formed XML, draw every hex of both maps once (2.1), a Transition
Hex on both panels (4.15), the North German Plain Box with its units (5.26, 9.23), show
a Delay marker only as a count (6.82: values unknown to both) and a face-down Volkssturm
without strength (8.45), and be pure: same input, same bytes, inputs untouched."""

from __future__ import annotations

import copy
import math
import re
import tomllib
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pbem.errors import PbemError
from pbem.games.datacheck import shipped_files
from pbem.games.gotterdammerung import counters, map_data, svg, svg_style
from pbem.maps.svg import Highlight

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def board() -> dict[str, Any]:
    return map_data.default_map()


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return counters.default_counters()


def unit(data: dict[str, Any], uid: str, where: str | None, **extra: Any) -> dict[str, Any]:
    known = data["units"].get(uid, {})
    out = {
        "id": uid,
        "side": known.get("side", "german"),
        "hex": where,
        "steps": known.get("steps", 1),
        "disrupted": False,
        "out_of_supply": False,
        "delays": 0,
        "artillery": False,
    }
    out.update(extra)
    return out


def initial_units(board: dict[str, Any], data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The stand-in set-up: Soviet units on their start hexes, German area units spread
    over the hexes of their deployment area (10.22), the others on their start hexes."""
    units = {}
    for uid in counters.initial(data, "soviet"):
        place = data["units"][uid]["place"]
        units[uid] = unit(data, uid, map_data.ref(place["map"], place["hex"]))
    for area in counters.AREAS:
        hexes = board["deployment"][area]
        for i, uid in enumerate(counters.in_area(data, area)):
            units[uid] = unit(data, uid, hexes[i % len(hexes)])
    for uid in counters.initial(data, "german"):
        place = data["units"][uid]["place"]
        if "map" in place:
            where = map_data.hex_at(board, f"{place['map']}:{place['hex']:04d}")
            units[uid] = unit(data, uid, where)
    return units


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def test_parses_and_draws_every_hex_of_both_maps_once(board: Any, data: Any) -> None:
    """2.1: both maps, the unused 2321 and 2322 included (blank)."""
    root = parse(svg.draw_board(board, data, initial_units(board, data)))
    drawn = [el.get("data-hex") for el in root.iter(f"{NS}polygon") if el.get("data-hex")]
    assert len(drawn) == len(board["hexes"]) == len(set(drawn))
    assert set(drawn) == set(board["hexes"])
    assert sum(h.startswith("city:") for h in drawn) == 177
    unused = [el for el in root.iter(f"{NS}polygon") if el.get("data-hex") == "op:2321"]
    assert unused[0].get("fill") == "#ffffff"


def test_neighbours_touch_on_the_page(board: Any) -> None:
    """4.25 (even-q): two hexes of one map are neighbours exactly when their centres are one
    hex apart; north is up (Stettin 0407 above Cottbus 4110), east right (the Oder)."""
    op = svg.Panel(board, "op", 0, 0, 10)
    city = svg.Panel(board, "city", 0, 0, 10)
    for h, info in board["hexes"].items():
        if info["kind"] == map_data.UNUSED:
            continue
        panel = op if info["map"] == "op" else city
        x, y = panel.centre(info["number"])
        for n in board["hexes"][h]["neighbours"]:
            if n[:3] != h[:3]:
                continue  # a City hex and a Transition Hex: the face, tested below
            nx, ny = panel.centre(board["hexes"][n]["number"])
            assert math.isclose(math.hypot(nx - x, ny - y), 10 * math.sqrt(3), rel_tol=1e-9)
    stettin, cottbus, spandau = (op.centre(n) for n in (407, 4110, 2324))
    assert stettin[1] < cottbus[1]  # Stettin north of Cottbus
    assert spandau[0] < op.centre(2310)[0]  # Spandau west of Seelow (YY grows westward)


def test_transition_faces_cover_the_city_map_border(board: Any) -> None:
    """4.15, 4.25: every City cell that is no City hex belongs to one face, each face
    touches the City hexes its Transition Hex touches, and the faces agree with the shipped
    map.toml's face characters for almost every cell."""
    faces = svg.faces(board)
    assert set(faces) == set(board["transition"])
    cells = [c for cs in faces.values() for c in cs]
    assert len(cells) == len(set(cells)) == 19 * 16 - 177
    assert all(faces.values())
    raw = tomllib.loads(shipped_files(map_data.PACKAGE, [map_data.MAP_FILE])["map.toml"].decode())
    chars = raw["transition"]["faces"]
    truth = {}
    for col, line in enumerate(raw["city"]["terrain"], start=1):
        for row, char in zip(range(35, 16, -1), line, strict=True):
            if char in chars:
                truth[col * 100 + row] = f"op:{chars[char]}"
    agree = sum(truth[c] == t for t, cs in faces.items() for c in cs)
    assert agree >= 0.9 * len(truth)
    assert 1319 in faces["op:2420"]  # 4.25: 2420 touches 1320 (the face beside it)


def test_a_transition_hex_is_on_both_panels(board: Any, data: Any) -> None:
    """4.15: one hex on both maps, one outline colour; its unit is drawn once."""
    units = {"ger-ber-dry": unit(data, "ger-ber-dry", "op:2420")}
    root = parse(svg.draw_board(board, data, units))
    op = [el for el in root.iter(f"{NS}polygon") if el.get("data-transition") == "op:2420"]
    face = [el for el in root.iter(f"{NS}polygon") if el.get("data-face") == "op:2420"]
    assert len(op) == 1 and face
    assert op[0].get("stroke") is None  # the group's outline, the same colour as the face's
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "Transition Hex 2420" in texts
    boxes = [g for g in root.iter(f"{NS}g") if g.get("data-unit") == "ger-ber-dry"]
    assert len(boxes) == 1


def test_ngp_box_with_a_unit_in_it(board: Any, data: Any) -> None:
    """5.26, 9.23: the box beside the red arrows, its units inside it."""
    units = {"ger-18-pzg-2": unit(data, "ger-18-pzg-2", "ngp")}
    root = parse(svg.draw_board(board, data, units))
    box = next(el for el in root.iter(f"{NS}rect") if el.get("data-box") == "ngp")
    arrows = [el.get("data-arrow") for el in root.iter(f"{NS}line") if el.get("data-arrow")]
    assert sorted(arrows) == sorted(board["ngp_box"]["red_arrows"])
    x, y = float(box.get("x", 0)), float(box.get("y", 0))
    w, h = float(box.get("width", 0)), float(box.get("height", 0))
    group = next(g for g in root.iter(f"{NS}g") if g.get("data-unit") == "ger-18-pzg-2")
    rect = group.find(f"{NS}rect")
    assert rect is not None
    ux, uy = float(rect.get("x", 0)), float(rect.get("y", 0))
    assert x < ux < x + w and y < uy < y + h
    assert "North German Plain Box" in [t.text for t in root.iter(f"{NS}text")]


def test_a_counter_shows_its_label_ratings_and_colour(board: Any, data: Any) -> None:
    units = {"sov-18rc": unit(data, "sov-18rc", "op:0106")}
    root = parse(svg.draw_board(board, data, units))
    group = next(g for g in root.iter(f"{NS}g") if g.get("data-unit") == "sov-18rc")
    texts = [t.text for t in group.iter(f"{NS}text")]
    full = data["units"]["sov-18rc"]
    assert texts == ["18 Rfl", f"{full['attack']}-{full['defence']}-{full['movement']}"]
    rect = group.find(f"{NS}rect")
    assert rect is not None and rect.get("fill") == svg_style.NATION["soviet"][0]


def test_a_reduced_unit_shows_its_reduced_side(board: Any, data: Any) -> None:
    """6.52: a two-step unit that lost a step shows its reduced ratings, marked."""
    units = {"sov-18rc": unit(data, "sov-18rc", "op:0106", steps=1)}
    root = parse(svg.draw_board(board, data, units))
    group = next(g for g in root.iter(f"{NS}g") if g.get("data-unit") == "sov-18rc")
    low = data["units"]["sov-18rc"]["reduced"]
    assert f"{low['attack']}-{low['defence']}-{low['movement']}" in [
        t.text for t in group.iter(f"{NS}text")
    ]
    assert [p for p in group.iter(f"{NS}polygon") if p.get("class") == "reduced"]


def test_markers_and_delays_as_a_count_only(board: Any, data: Any) -> None:
    """6.66 disrupted, 8.11 out of supply; 6.82: the number of Delay markers, never a value
    (the unit dict holds none, and the picture shows no signed number)."""
    units = {
        "ger-281-inf": unit(
            data, "ger-281-inf", "op:0407", delays=3, disrupted=True, out_of_supply=True
        ),  # fmt: skip
    }
    text = svg.draw_board(board, data, units)
    group = next(g for g in parse(text).iter(f"{NS}g") if g.get("data-unit") == "ger-281-inf")
    tags = [t.text for t in group.iter(f"{NS}text") if t.get("class") == "marker-text"]
    assert tags == ["D", "OS", "3?"]
    assert not re.search(r">-[1-4]<", text)  # no Delay value anywhere


def test_a_face_down_volkssturm_shows_no_strength(board: Any, data: Any) -> None:
    """8.45: face down, "VS ?"; revealed, its own ratings from the unit dict."""
    units = {
        "vs-01": unit(data, "vs-01", "city:0526", volkssturm=True),
        "vs-02": unit(
            data, "vs-02", "city:0724", volkssturm=True, attack=2, defence=3, movement=1
        ),  # fmt: skip
    }
    root = parse(svg.draw_board(board, data, units))
    groups = {g.get("data-unit"): g for g in root.iter(f"{NS}g") if g.get("data-unit")}
    assert [t.text for t in groups["vs-01"].iter(f"{NS}text")] == ["VS", "?"]
    assert [t.text for t in groups["vs-02"].iter(f"{NS}text")] == ["VS", "2-3-1"]


def test_a_stack_keeps_every_unit_and_a_count(board: Any, data: Any) -> None:
    ids = ["sov-18rc", "sov-46rc", "sov-105rc"]
    units = {uid: unit(data, uid, "op:0106") for uid in ids}
    root = parse(svg.draw_board(board, data, units))
    drawn = {el.get("data-unit") for el in root.iter() if el.get("data-unit")}
    assert set(ids) <= drawn
    counts = [c for c in root.iter(f"{NS}circle") if c.get("data-stack") == "op:0106"]
    assert len(counts) == 1
    listed = [t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == "stack-entry"]
    assert any(line.startswith("op:0106: ") and "46 Rfl" in line for line in listed)


def test_pure_same_bytes_and_inputs_untouched(board: Any, data: Any) -> None:
    units = initial_units(board, data)
    units["vs-01"] = unit(data, "vs-01", "city:0526", volkssturm=True)
    units["ger-18-pzg-2"] = unit(data, "ger-18-pzg-2", "ngp")
    before = copy.deepcopy((board, data, units))
    kwargs: dict[str, Any] = {"occupied": ["op:2209"], "turn": 2, "phase": "movement"}
    one = svg.draw_board(board, data, units, **kwargs)
    two = svg.draw_board(copy.deepcopy(board), copy.deepcopy(data), copy.deepcopy(units), **kwargs)
    assert one == two
    assert (board, data, units) == before
    assert len(one.encode()) < 1_500_000
    assert "STAND-IN MAP" in one and "Turn 2 of 10" in one


def test_occupied_vp_and_entry_codes(board: Any, data: Any) -> None:
    """5.47 Soviet Occupied markers, 11.13 VP numbers, entry hex codes (9.16...)."""
    root = parse(svg.draw_board(board, data, {}, occupied=["city:0626"]))
    titles = [t.text or "" for t in root.iter(f"{NS}title")]
    assert "city:0626: Soviet Occupied (5.47)" in titles
    assert "Reichstag: 25 VP (11.13)" in titles
    entries = {t.get("data-entry"): t.text for t in root.iter(f"{NS}text") if t.get("data-entry")}
    assert entries["op:0112"] == "N" and entries["op:4032"] == "SW"


def test_unknown_hexes_are_refused(board: Any, data: Any) -> None:
    with pytest.raises(ValueError, match="not a hex of the maps"):
        svg.draw_board(board, data, {"x": unit(data, "sov-18rc", "op:9999")})


def test_board_svg_reads_the_view(board: Any, data: Any) -> None:
    units = {"sov-18rc": unit(data, "sov-18rc", "op:0106")}
    view = {"board": board, "counters": data, "units": units, "turn": 3, "support_points": 4}
    text = svg.board_svg(view, role="soviet", scale=0.5)
    assert text == svg.draw_board(board, data, units, turn=3, support_points=4, scale=0.5)
    assert "Soviet support points: 4" in text
    with pytest.raises(PbemError):
        svg.board_svg(view, layout=b"x")
    hl = Highlight(moves=(("op:0106", "op:0107"),), marks=(("op:0107", "moved"),))
    assert 'class="arrow move"' in svg.board_svg(view, highlight=hl)
    # (highlight_of reads a game's actions: test_gd_render.py draws a played turn)


def test_short_names(data: Any) -> None:
    u = data["units"]
    assert svg.short_name(u["sov-29grc"], "sov-29grc") == "29G Rfl"
    assert svg.short_name(u["sov-8gmc-bg1"], "sov-8gmc-bg1") == "8G Mech/1"
    assert svg.short_name(u["ger-6ss-lah-1"], "ger-6ss-lah-1") == "LAH/1"
    assert svg.short_name(u["ger-hitler"], "ger-hitler") == "Hitler"
    assert all(len(svg.short_name(x, k)) <= 10 for k, x in u.items())
