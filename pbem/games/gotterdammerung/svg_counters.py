"""A Götterdämmerung counter as the maps draw it: its short name, the ratings of its
current side, its markers (disrupted, out of supply, how many Delay markers) and its
tooltip (svg.py's docstring says what a counter shows and why)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pbem.games.gotterdammerung.svg_style import (
    BRANCH_SHORT,
    CH,
    CW,
    NATION,
    VOLKSSTURM_FILL,
)
from pbem.maps.svg import Drawing

_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)\b")
_PAREN = re.compile(r"\(([^()]*)\)")


def short_name(data: Mapping[str, Any] | None, unit_id: str) -> str:
    """A counter's short label: "18 Rfl", "29G Rfl", "8GM/1", "LAH/1", "Döb"..."""
    if not data:
        return unit_id[:9]
    name = str(data.get("name", unit_id))
    branch = str(data.get("branch", ""))
    parens = _PAREN.findall(name)
    tail = ""
    if parens and parens[-1].isdigit():
        tail = "/" + parens.pop()
    group = re.search(r"Battle group (\d+)", name)
    if group:
        tail = "/" + group[1]
    number = _ORDINAL.match(name)
    guards = "G" if data.get("guards") else ""
    if data.get("nationality") == "polish":
        guards = "Pol"
    words = [p for p in parens if len(p) <= 6 and " " not in p]
    if branch in ("fuhrer", "fortress", "factory", "depot") and not number:
        core = BRANCH_SHORT.get(branch, branch)
        if branch == "fortress" and words:
            core = words[0]
    elif data.get("side") == "german" and words:
        core = words[0]
    elif number:
        core = f"{number[1]}{guards} {BRANCH_SHORT.get(branch, '')}".strip()
    elif parens:
        core = parens[-1]
    else:
        core = name
    text = (core + tail).strip()
    return text if len(text) <= 10 else text[:9] + "."


def counter_face(unit: Mapping[str, Any], data: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the counter shows: label, ratings text, colours, reduced, markers."""
    if unit.get("volkssturm"):
        revealed = all(k in unit for k in ("attack", "defence", "movement"))
        ratings = (
            f"{unit['attack']}-{unit['defence']}-{unit['movement']}" if revealed else "?"
        )  # 8.45: face down, its strength is unknown to both
        name = "Volkssturm" + ("" if revealed else " (face down)")
        return {
            "label": "VS",
            "ratings": ratings,
            "colours": VOLKSSTURM_FILL,
            "reduced": False,
            "name": name,
        }
    data = data or {}
    full = int(data.get("steps", 1))
    reduced = data.get("reduced") is not None and int(unit.get("steps", full)) < full
    values = data["reduced"] if reduced else data
    ratings = "-".join(str(values.get(k, "?")) for k in ("attack", "defence", "movement"))
    nation = str(data.get("nationality", unit.get("side", "")))
    colours = NATION.get(nation, NATION["soviet" if unit.get("side") == "soviet" else "german"])
    return {
        "label": short_name(data, str(unit["id"])),
        "ratings": ratings,
        "colours": colours,
        "reduced": reduced,
        "name": str(data.get("name", unit["id"])),
    }


def _markers(unit: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(text, fill, ink) of the markers on a counter, in a fixed order."""
    out = []
    if unit.get("disrupted"):
        out.append(("D", "#f08c00", "#000000"))  # 6.66
    if unit.get("out_of_supply"):
        out.append(("OS", "#ffe14d", "#000000"))  # 8.11
    delays = int(unit.get("delays") or 0)
    if delays:
        out.append((f"{delays}?", "#5a3d8a", "#ffffff"))  # 6.82: how many, never their values
    return out


def _tooltip(unit: Mapping[str, Any], face: Mapping[str, Any]) -> str:
    words = [f"{face['name']} ({unit['id']}): {face['ratings']}"]
    if face["reduced"]:
        words.append("reduced")
    if unit.get("disrupted"):
        words.append("disrupted")
    if unit.get("out_of_supply"):
        words.append("out of supply")
    if unit.get("delays"):
        words.append(f"{unit['delays']} Delay marker(s), values unknown")
    return "; ".join(words)


def _box(d: Drawing, tip: str, x: float, y: float, **style: object) -> None:
    """A counter's box at (x, y), with its tooltip."""
    d.titled("rect", tip, x=x, y=y, width=CW, height=CH, **style)


def draw_counter(
    d: Drawing, unit: Mapping[str, Any], data: Mapping[str, Any] | None, x: float, y: float
) -> None:
    """One counter with its top-left corner at (x, y)."""
    face = counter_face(unit, data)
    fill, ink = face["colours"]
    with d.group(class_="counter", data_unit=str(unit["id"])):
        _box(d, _tooltip(unit, face), x, y, rx=2.5, fill=fill, stroke="#111111", stroke_width=0.9)
        d.label(
            x + CW / 2,
            y + 10,
            face["label"],
            8 if len(face["label"]) <= 7 else 6.8,
            ink,
            anchor="middle",
            bold=True,
        )
        d.label(
            x + CW / 2,
            y + 21.5,
            face["ratings"],
            9,
            ink,
            anchor="middle",
            bold=True,
            class_="ratings",
        )
        if face["reduced"]:  # 6.52: a white corner marks the reduced side
            d.add(
                "polygon",
                points=f"{x + CW - 9:.1f},{y + CH:.1f} {x + CW:.1f},{y + CH:.1f} "
                f"{x + CW:.1f},{y + CH - 9:.1f}",
                fill="#ffffff",
                stroke="#111111",
                stroke_width=0.5,
                class_="reduced",
            )
        mx = x - 3
        for text, mfill, mink in _markers(unit):
            w = 6 + 5 * len(text)
            d.add(
                "rect",
                x=mx,
                y=y - 6,
                width=w,
                height=10,
                rx=2,
                fill=mfill,
                stroke="#111111",
                stroke_width=0.6,
                class_="marker",
            )
            d.label(
                mx + w / 2, y + 2, text, 7.5, mink, anchor="middle", bold=True, class_="marker-text"
            )
            mx += w + 1


def draw_stub(
    d: Drawing, unit: Mapping[str, Any], data: Mapping[str, Any] | None, x: float, y: float
) -> None:
    """A unit under the top of a stack: its box is there for the tooltip and the count."""
    face = counter_face(unit, data)
    _box(
        d,
        _tooltip(unit, face),
        x,
        y,
        fill="none",
        class_="counter under",
        data_unit=str(unit["id"]),
        pointer_events="none",
    )
