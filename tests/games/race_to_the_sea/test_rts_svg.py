"""Race to the Sea 1914: the stand-in hex map as SVG (pbem/games/race_to_the_sea/svg.py).

The picture must be well-formed XML with every value escaped, show every fact of the map
the rulebook describes (2.1, 14.4, 15.5.2 C), say it is a stand-in, and draw a hidden
counter from its public face alone (3.3.1): a hidden counter's unit and markers are never
read, so two views that differ only there give the same bytes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from pbem.games.datacheck import shipped_files
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import svg as rsvg
from pbem.maps.svg import Highlight

NS = "{http://www.w3.org/2000/svg}"
RAW = shipped_files(rm.PACKAGE, [rm.MAP_FILE])[rm.MAP_FILE]
IV = {"name": "IV Corps", "sz": 4, "met": "A", "rf": 2, "mg": 3, "art": 2, "special": "SQ"}
XXVII = {"name": "XXVII Reserve Corps", "sz": 3, "met": "C", "rf": 1, "mg": 4, "art": 3}


@pytest.fixture(scope="module")
def board() -> dict[str, Any]:
    return rm.default_map()


def counter(
    label: str, where: int, nation: str, face: str, unit: Any = None, markers: Any = None
) -> dict[str, Any]:
    side = "germans" if nation == "german" else "allies"
    return {
        "label": label,
        "hex": where,
        "side": side,
        "nationality": nation,
        "face": face,
        "unit": unit,
        "markers": markers,
    }


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def without_legend(svg: str) -> ET.Element:
    """The map alone: the legend's sample counters are not the view's."""
    root = parse(svg)
    for g in [g for g in root if g.tag == f"{NS}g" and g.get("class") == "legend"]:
        root.remove(g)
    return root


def texts(root: ET.Element, cls: str | None = None) -> list[str]:
    return [
        "".join(t.itertext())
        for t in root.iter(f"{NS}text")
        if cls is None or t.get("class") == cls
    ]


def counter_groups(root: ET.Element) -> dict[str, ET.Element]:
    return {
        g.get("data-label", ""): g
        for g in root.iter(f"{NS}g")
        if (g.get("class") or "").startswith("counter")
    }


def group(root: ET.Element, cls: str) -> ET.Element:
    found = [g for g in root.iter(f"{NS}g") if g.get("class") == cls]
    assert len(found) == 1, cls
    return found[0]


def hex_fill(root: ET.Element, hex_label: str) -> str:
    polygons = [p for p in root.iter(f"{NS}polygon") if p.get("data-hex") == hex_label]
    assert len(polygons) == 1
    return polygons[0].get("fill", "")


# --- the map --------------------------------------------------------------------------------


def test_svg_parses_and_is_deterministic(board: dict[str, Any]) -> None:
    svg = rsvg.draw_board(board)
    root = parse(svg)
    assert root.tag == f"{NS}svg"
    assert svg == rsvg.draw_board(board)
    assert svg == rsvg.draw_board(None)  # None: the shipped map


def test_every_named_place_is_labelled(board: dict[str, Any]) -> None:
    names = texts(parse(rsvg.draw_board(board)), "place")
    assert sorted(names) == sorted(board["places"])
    assert len(names) == 36


def test_stand_in_notice_is_shown(board: dict[str, Any]) -> None:
    """The rulebook prints no map: the picture never passes for the published board."""
    root = parse(rsvg.draw_board(board))
    assert (
        "stand-in map: positions are chosen for pbem; the rulebook does not reproduce the board"
        in texts(root, "stand-in")
    )
    assert any("Stand-in map, not the published board" in t for t in texts(root))


def test_every_hex_is_numbered(board: dict[str, Any]) -> None:
    numbers = texts(parse(rsvg.draw_board(board)), "hex-number")
    assert len(numbers) == 18 * 20
    assert {"0101", "0906", "1820"} <= set(numbers)


def test_elevation_and_water_fills(board: dict[str, Any]) -> None:
    """2.1.11 B: Low light tan, Elevated medium brown, High dark brown; 2.1.8 A: the
    Channel in blue."""
    root = parse(rsvg.draw_board(board))
    for info in board["hexes"].values():
        if info["terrain"] in ("water", "entrenchment"):
            continue
        assert hex_fill(root, rm.label(info["hex"])) == rsvg.ELEVATION_FILL[info["elevation"]]
    assert hex_fill(root, "0101") == rsvg.WATER
    levels = {info["elevation"] for info in board["hexes"].values()}
    assert levels == {"low", "elevated", "high"}


def test_lines_on_hexsides_and_between_centres(board: dict[str, Any]) -> None:
    """2.1.3 A: track between the hexes a line joins (a line and its ties per link);
    2.1.4 A: rivers along hexsides; 14.1 A: the trench line's hexsides; 14.4: ten
    white-outlined hexes per side."""
    root = parse(rsvg.draw_board(board))
    rails = group(root, "railroads").findall(f"{NS}line")
    assert len(rails) == 2 * len(board["rail_links"])
    river_sides = sum(len(r["hexsides"]) for r in board["rivers"])
    rivers = [line for g in root.iter(f"{NS}g") if g.get("class") == "river" for line in g]
    assert len(rivers) == river_sides
    assert len(group(root, "trench-line").findall(f"{NS}line")) == len(board["trench_line"])
    behind = [p for p in group(root, "behind-lines") if p.get("stroke") == "#ffffff"]
    assert sorted(p.get("data-side") for p in behind) == ["allies"] * 10 + ["germans"] * 10


def test_antwerp_hexes_south_entry_and_settlements(board: dict[str, Any]) -> None:
    """2.1.10: three hexes labelled A; 15.5.2 C: the South Entry; 2.1.5-2.1.7 symbols."""
    svg = rsvg.draw_board(board)
    root = parse(svg)
    assert texts(root, "antwerp") == ["A"] * 3
    assert "South Entry" in texts(root)
    assert len([e for e in root.iter(f"{NS}line") if e.get("class") == "south-entry"]) == 1
    settlements = [i for i in board["hexes"].values() if i["terrain"] in rm.SETTLEMENTS]
    towns = sum(1 for i in settlements if i["terrain"] == "town")
    grey = [c for c in root.iter(f"{NS}circle") if c.get("fill") == rsvg.TOWN]
    assert len(grey) == towns + 1  # and the legend's


def test_flooded_hex_is_water_with_an_f(board: dict[str, Any]) -> None:
    """9.8, 2.1.8 B, 4.1.5: the flooded Dixmude hex is a water hex, marked with a blue F."""
    dixmude = rm.hex_of(board, "Dixemude")
    dry = parse(rsvg.draw_board(board))
    wet = parse(rsvg.draw_board(board, flooded=[dixmude]))
    assert hex_fill(dry, rm.label(dixmude)) != rsvg.WATER
    assert hex_fill(wet, rm.label(dixmude)) == rsvg.WATER
    assert texts(wet).count("F") == texts(dry).count("F") + 1
    with pytest.raises(ValueError, match="flooded hex 9999 is not on the map"):
        rsvg.draw_board(board, flooded=[9999])


def test_hostile_place_name_is_escaped() -> None:
    hostile = 'Zee<script>alert("x")</script>&amp;brugge'
    toml_name = hostile.replace('"', '\\"')
    raw = RAW.decode().replace('name = "Zeebrugge"', f'name = "{toml_name}"', 1)
    changed = rm.load_map(raw.encode())
    svg = rsvg.draw_board(changed)
    assert "<script>" not in svg
    assert "&amp;amp;brugge" in svg
    assert hostile in texts(parse(svg), "place")


# --- counters -------------------------------------------------------------------------------


def hidden_pair() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Two views differing only in what the hidden counters hide."""
    blank = [
        counter("c07", 1203, "french", "hidden"),
        counter("g03", 1504, "german", "hidden"),
        counter("b01", 1103, "belgian", "hidden"),
        counter("k02", 615, "british", "hidden"),
    ]
    filled = [
        {**c, "unit": IV if c["side"] == "allies" else XXVII, "markers": ["light casualties"]}
        for c in blank
    ]
    return blank, filled


def test_hidden_counters_ignore_their_identity(board: dict[str, Any]) -> None:
    """3.3.1: the hidden side shows only the national flag; 10.4 A keeps casualties markers
    under the unit. The drawing of hidden counters does not depend on unit or markers."""
    blank, filled = hidden_pair()
    assert rsvg.draw_board(board, blank) == rsvg.draw_board(board, filled)
    assert rsvg.draw_board(board, blank, "germans") == rsvg.draw_board(board, filled, "germans")


class Sealed(Mapping[str, Any]):
    """A counter whose hidden fields may not even be read."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def __getitem__(self, key: str) -> Any:
        if key in ("unit", "markers"):
            raise AssertionError(f"read the hidden counter's {key}")
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def test_hidden_counter_unit_is_never_read(board: dict[str, Any]) -> None:
    _, filled = hidden_pair()
    sealed = [Sealed(c) for c in filled]
    assert rsvg.draw_board(board, sealed) == rsvg.draw_board(board, filled)


def test_hidden_counter_shows_label_and_colour_only(board: dict[str, Any]) -> None:
    """3.0 A: French blue, British khaki, Belgian orange, German grey."""
    _, filled = hidden_pair()
    root = without_legend(rsvg.draw_board(board, filled))
    groups = counter_groups(root)
    assert sorted(groups) == sorted(c["label"] for c in filled)
    for c in filled:
        g = groups[c["label"]]
        words = ["".join(t.itertext()) for t in g.iter(f"{NS}text")]
        assert c["label"] in words
        fills = {e.get("fill") for e in g.iter()}
        assert rsvg.NATION_FILL[c["nationality"]] in fills
        drawn = ET.tostring(g, encoding="unicode")
        for secret in ("IV", "XXVII", "2-3-2", "1-4-3", "SQ", "light casualties"):
            assert secret not in drawn
    everything = ET.tostring(root, encoding="unicode")
    for secret in ("IV Corps", "XXVII", "2-3-2", "1-4-3", "light casualties"):
        assert secret not in everything


def test_deployed_counter_shows_unit_and_ratings(board: dict[str, Any]) -> None:
    """3.3.1: the Deployed side shows all the unit's ratings (3.2)."""
    pieces = [
        counter("c07", 1203, "french", "deployed", IV, ["light casualties"]),
        counter("g04", 1504, "german", "scouting", XXVII),
    ]
    groups = counter_groups(without_legend(rsvg.draw_board(board, pieces)))
    c07 = ET.tostring(groups["c07"], encoding="unicode")
    for shown in ("c07", "IV", ">A<", "SQ", "2-3-2", "light casualties"):
        assert shown in c07
    sz_boxes = [r for r in groups["c07"].iter(f"{NS}rect") if r.get("width") == "3.6"]
    assert [r.get("fill") for r in sz_boxes] == ["#ffffff"] * 4  # SZ 4 (3.2.1)
    g04 = ET.tostring(groups["g04"], encoding="unicode")
    assert "XXVII Res" in g04 and "1-4-3" in g04
    assert groups["g04"].get("class") == "counter scouting"


def test_stacks_are_drawn_and_listed(board: dict[str, Any]) -> None:
    """10.2: a hex may hold several units (False Reports stack for free): two counters
    side by side, then a "+N" tile, and the legend lists the whole stack."""
    ypres = rm.hex_of(board, "Ypres")
    pieces = [
        counter("c01", ypres, "french", "hidden"),
        counter("c02", ypres, "french", "deployed", IV),
        counter("k01", ypres, "british", "hidden"),
        counter("k02", ypres, "british", "hidden"),
        counter("c03", rm.hex_of(board, "Lille"), "french", "hidden"),
        counter("c04", rm.hex_of(board, "Lille"), "french", "hidden"),
    ]
    root = parse(rsvg.draw_board(board, pieces))
    shown = counter_groups(without_legend(rsvg.draw_board(board, pieces)))
    assert "c01" in shown and "c03" in shown and "c04" in shown
    assert "k02" not in shown
    stacks = [g for g in root.iter(f"{NS}g") if g.get("class") == "stack"]
    assert [g.get("data-hex") for g in stacks] == ["0906"]
    assert "+3" in texts(root)
    listed = " ".join(texts(root, "stack-entry"))
    for name in ("c01", "c02", "k01", "k02"):
        assert f"{name}:" in listed
    assert "IV Corps" in listed


def test_bad_counters_and_viewer_are_refused(board: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="counter c01: hex 9999 is not on the map"):
        rsvg.draw_board(board, [counter("c01", 9999, "french", "hidden")])
    with pytest.raises(ValueError, match="counter c01: face is hidden, deployed or scouting"):
        rsvg.draw_board(board, [counter("c01", 906, "french", "flipped")])
    with pytest.raises(ValueError, match="viewer is allies, germans or None"):
        rsvg.draw_board(board, viewer="french")


def test_highlight_arrows_and_marks(board: dict[str, Any]) -> None:
    """Places are hex numbers or place names; unknown places are left out."""
    hl = Highlight(
        moves=(("0615", "0714"),),
        attacks=(("Lille", "Ypres"), ("Nowhere", "Ypres")),
        marks=(("Lille", "captured"),),
    )
    root = parse(rsvg.draw_board(board, highlight=hl))
    arrows = [e.get("class") for e in root.iter(f"{NS}line") if "arrow" in (e.get("class") or "")]
    assert arrows == ["arrow move", "arrow attack"]
    assert "captured" in texts(root)
