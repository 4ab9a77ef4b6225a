"""The turn page's map without repetition (pbem.maps.svg_compact, issue 29): the same
picture, in Chromium's pixels and in what each element is given, in fewer bytes."""

from __future__ import annotations

import re
import tempfile
import xml.etree.ElementTree as ET
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest

from pbem.core.adjudicator import Adjudicator
from pbem.ledger import replay
from pbem.maps.svg_compact import PRESENTATION, compact
from pbem.render.page import PACK_MAP_OVER, page_map, render_page, render_svg
from pbem.render.png import chromium, svg_size
from pbem.verify import parse_entries
from tests.render.browser_pixels import differing_pixels
from tests.support.headless import open_page

ROOT = Path(__file__).resolve().parents[2]
TITLES = ("barbarossa", "berlin-1945", "gotterdammerung", "race-to-berlin", "race-to-the-sea")
NS = "{http://www.w3.org/2000/svg}"


@cache
def demo_game(rules: str) -> Adjudicator:
    """The title's demo save, replayed to the middle of its log."""
    entries = parse_entries((ROOT / "saves" / f"{rules}-demo.pbem").read_bytes())
    return replay(entries[: len(entries) // 2], {})


@cache
def drawn(rules: str) -> tuple[str, str]:
    """The title's map for its first role, as `pbem render --format svg` writes it and as
    the turn page carries it."""
    game = demo_game(rules)
    svg = render_svg(game, next(iter(game.roles)))
    return svg, compact(svg)


def _class_rules(svg: str) -> dict[str, dict[str, str]]:
    """The generated classes (".sN{prop:value;...}") of a compacted map."""
    sheet = "".join(re.findall(r"<style>(.*?)</style>", svg, re.S))
    return {
        name: dict(d.split(":", 1) for d in body.split(";"))
        for name, body in re.findall(r"\.(s\d+)\{([^{}]*)\}", sheet)
    }


def _numbers(text: str) -> list[Decimal]:
    return [Decimal(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text)]


def expanded(svg: str) -> list[tuple[str, dict[str, str]]]:
    """Every drawn element of a compacted map as it was written before: classes' rules back
    to attributes (with their units off), <use> back to its polygon, a merged path back
    to its lines. Original maps come out as they are."""
    rules = _class_rules(svg)
    root = ET.fromstring(svg)
    shapes = {el.get("id"): el.get("points", "") for el in root.iter(f"{NS}polygon")}
    out: list[tuple[str, dict[str, str]]] = []
    for el in root.iter():
        tag = el.tag.removeprefix(NS)
        if tag in ("defs", "marker", "style", "title") or el.get("id", "").startswith("shape-"):
            continue
        attrs = dict(el.attrib)
        classes = attrs.pop("class", "").split()
        for name in [c for c in classes if c in rules]:
            classes.remove(name)
            for prop, value in rules[name].items():
                number = re.fullmatch(r"(-?[\d.]+)px", value)
                attrs[prop] = number.group(1) if number else value
        if classes:
            attrs["class"] = " ".join(classes)
        if tag == "use":
            x, y = Decimal(attrs.pop("x")), Decimal(attrs.pop("y"))
            ref = shapes[attrs.pop("href")[1:]]
            pts = _numbers(ref)
            attrs["points"] = " ".join(
                f"{x + pts[i]},{y + pts[i + 1]}" for i in range(0, len(pts), 2)
            )
            tag = "polygon"
        if tag == "path" and attrs.get("fill") == "none" and attrs["d"].startswith("M"):
            segments = re.findall(r"M(\S+) (\S+)L(\S+) (\S+?)(?=M|$)", attrs["d"])
            if len(segments) > 1:
                rest = {k: v for k, v in attrs.items() if k not in ("d", "fill")}
                for x1, y1, x2, y2 in segments:
                    out.append(("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **rest}))
                continue
        if tag == "polygon":
            attrs["points"] = " ".join(str(n) for n in _numbers(attrs["points"]))
        out.append((tag, attrs))
    return out


def _normal(elements: list[tuple[str, dict[str, str]]]) -> list[tuple[str, dict[str, str]]]:
    normal = []
    for tag, attrs in elements:
        attrs = dict(attrs)
        if tag == "polygon":
            attrs["points"] = " ".join(f"{n.normalize():f}" for n in _numbers(attrs["points"]))
        normal.append((tag, attrs))
    return normal


@pytest.mark.parametrize("rules", TITLES)
def test_every_element_is_given_what_it_was_given(rules: str) -> None:
    svg, small = drawn(rules)
    assert len(small) < 0.85 * len(svg), (len(small), len(svg))
    assert _normal(expanded(small)) == _normal(expanded(svg))
    # Every <title> (what a browser shows on hover) and every text is still there.
    assert re.findall(r"<title>[^<]*</title>", small) == re.findall(r"<title>[^<]*</title>", svg)
    assert re.findall(r">([^<>]+)</text>", small) == re.findall(r">([^<>]+)</text>", svg)


@pytest.mark.parametrize("rules", TITLES)
def test_the_turn_page_carries_the_compacted_map(rules: str) -> None:
    game = demo_game(rules)
    role = next(iter(game.roles))
    page = render_page(game, role)
    small = drawn(rules)[1]
    assert page_map(page) == small.rstrip("\n")
    # Inline, or (a large map) packed: its outer <svg> and title inline, the drawing in
    # a fifth of its bytes or less, with the one script that draws it.
    packed = len(small.encode()) > PACK_MAP_OVER
    assert (small in page) is not packed
    assert ('id="pbem-map-gzip"' in page) is packed
    if packed:
        shell = page[page.index("<svg") : page.index("</svg>") + 6]
        assert shell.startswith(small[: small.index("</title>") + 8])
        assert len(shell) < 0.25 * len(small)


def test_a_drawing_it_cannot_read_is_left_as_it_was() -> None:
    head = '<svg xmlns="http://www.w3.org/2000/svg"><defs></defs><style>text{fill:red}</style>'
    many = '<rect x="1" y="2" width="3" height="4" fill="#123456" stroke="#000000"/>' * 5
    assert compact(head + many + "</svg>") != head + many + "</svg>"
    for odd in ("<!-- a comment -->", "<![CDATA[x]]>", "<g>"):
        svg = head + many + odd + "</svg>"
        assert compact(svg) == svg, odd
    unreadable = head.replace("text{fill:red}", "@media print{text{fill:red}}") + many + "</svg>"
    assert compact(unreadable) == unreadable


def test_an_attribute_a_style_rule_also_sets_stays_an_attribute() -> None:
    """A CSS rule beats a presentation attribute but not a class rule of its own weight:
    where the drawing's own rule could set a property, the attribute is kept."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg"><defs></defs>'
        "<style>.arrow{fill:none}text{font-family:serif}</style>"
        + '<line x1="0" y1="0" x2="1" y2="1" class="arrow" fill="#ff0000" stroke="#00ff00"/>' * 4
        + '<text x="1" y="2" font-family="monospace" font-size="7.5">a</text>' * 4
        + "</svg>"
    )
    small = compact(svg)
    assert small.count('fill="#ff0000"') == 4 and small.count('font-family="monospace"') == 4
    assert "font-size:7.5px" in small  # (a length in CSS needs its unit)
    assert {"fill", "stroke", "font-size"} <= PRESENTATION


def test_generated_names_never_take_one_the_drawing_or_the_page_uses() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg"><defs></defs><style></style>'
        '<g id="shape-0" class="s0">'
        + '<polygon points="0,0 1,0 1,1" fill="#abcdef" stroke="#000000" stroke-width="2"/>' * 5
        + "</g></svg>"
    )
    small = compact(svg)
    assert 'id="shape-1"' in small and ".s1{" in small
    assert small.count('id="shape-0"') == 1 and ".s0{" not in small


def _shot(svg: str, folder: Path, name: str) -> bytes:
    width, height = svg_size(svg)
    page = folder / f"{name}.svg"
    page.write_text(svg, encoding="utf-8")
    shot, _dom = open_page(page, width=width, height=height, screenshot=True)
    assert shot is not None
    return shot


@pytest.mark.skipif(chromium() is None, reason="chromium is not installed")
@pytest.mark.parametrize("rules", TITLES)
def test_chromium_draws_the_compacted_map_as_the_original(rules: str) -> None:
    """Pixel for pixel but for antialiasing: where a <use> places a hex, or where merged
    segments overlap, an edge pixel's coverage may be rounded otherwise."""
    svg, small = drawn(rules)
    with tempfile.TemporaryDirectory() as tmp:
        first, second = _shot(svg, Path(tmp), "before"), _shot(small, Path(tmp), "after")
    found = differing_pixels(first, second, threshold=8)
    assert (found.width, found.height) == svg_size(svg)
    assert found.differing <= 0.002 * found.pixels, (found.differing, found.pixels)
