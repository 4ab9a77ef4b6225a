"""A small SVG writer: elements, groups and text, every value escaped (SVG is XML).

The games' map functions build their pictures with it (pbem/games/<game>/svg.py), as
pure functions of a role's view and keyword options, in the manner of python-chess's
`chess.svg.board`: no I/O, no clock, the same view gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.escape import one_line

if TYPE_CHECKING:
    from pbem.core.adjudicator import Action


# xml.sax.saxutils's escape and quoteattr, written out: importing saxutils imports
# urllib.request (and with it http, email, ssl and socket), a tenth of a cold `pbem show`.
# Same bytes as theirs (tests/maps/test_svg.py compares them).
def escape(data: str) -> str:
    """Text content: `&`, `<` and `>` as entities."""
    return data.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(data: str) -> str:
    """An attribute value with its quotes: escaped, newlines and tabs as character
    references, and double quotes kept as they are inside single ones when it can."""
    data = escape(data).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' in data:
        if "'" in data:
            return '"{}"'.format(data.replace('"', "&quot;"))
        return f"'{data}'"
    return f'"{data}"'


INK = "#222222"  # the ink of a label that names none


@dataclass(frozen=True)
class Highlight:
    """What changed this turn, to draw on a map: moves and attacks as arrows between two
    places (area ids, hexes, boxes), and a short result text marked at a place."""

    moves: tuple[tuple[str, str], ...] = ()
    attacks: tuple[tuple[str, str], ...] = ()
    marks: tuple[tuple[str, str], ...] = ()


def turn_of(actions: Sequence[Action]) -> tuple[object, list[Action]]:
    """The actions of the turn being played: an action's `turn` is that of the state it
    left, so each counts in the turn of the action before it (as the summary lists them);
    when the turn has just begun and holds none yet, the last turn that has some."""
    played = [a for a in actions if a.turn is not None]
    turns, before = [], None
    for action in played:
        turns.append(action.turn if before is None else before)
        before = action.turn
    if not played:
        return None, []
    last = turns[-1]
    return last, [a for a, t in zip(played, turns, strict=True) if t == last]


def _number(value: float) -> str:
    """Coordinates with at most two decimals and no trailing zeros: stable bytes."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attributes(attrs: Mapping[str, object]) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        text = _number(value) if isinstance(value, float) else str(value)
        parts.append(f" {key}={quoteattr(one_line(text))}")
    return "".join(parts)


class Drawing:
    """An SVG document being built: `add` elements, `group` them, `text` labels."""

    def __init__(self, width: float, height: float, *, title: str, scale: float = 1.0) -> None:
        self.width = width
        self.height = height
        self.scale = scale
        self._parts: list[str] = []
        self._title = title

    def add(self, tag: str, **attrs: object) -> None:
        """One empty element: `add("rect", x=1, y=2, width=3, height=4, fill="#fff")`.
        A trailing underscore or an underscore in a name gives SVG's spelling
        (`class_` -> `class`, `stroke_width` -> `stroke-width`)."""
        self._parts.append(f"<{tag}{_attributes(attrs)}/>")

    def text(self, x: float, y: float, content: object, **attrs: object) -> None:
        """A text element, its content escaped and kept on one line."""
        body = escape(one_line(content))
        self._parts.append(f"<text{_attributes({'x': x, 'y': y, **attrs})}>{body}</text>")

    def label(
        self,
        x: float,
        y: float,
        content: object,
        size: float,
        ink: str = INK,
        *,
        bold: bool = False,
        anchor: str | None = None,
        **more: object,
    ) -> None:
        """A text of `size` in `ink`, bold or not, anchored (None: at its start), with its
        font attributes in the one order every map writes them, then `more`."""
        weight = "bold" if bold else None
        self.text(
            x, y, content, font_size=size, fill=ink, font_weight=weight, text_anchor=anchor, **more
        )

    def titled(self, tag: str, tooltip: object, **attrs: object) -> None:
        """An element with a <title> child: the text a browser shows on hover, and what a
        screen reader reads."""
        self._parts.append(
            f"<{tag}{_attributes(attrs)}><title>{escape(one_line(tooltip))}</title></{tag}>"
        )

    def rect(
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        tooltip: object = None,
        **attrs: object,
    ) -> None:
        """A rectangle with its top left corner at (x, y), then `attrs`; with a <title>
        child when `tooltip` is given (see `titled`)."""
        at = {"x": x, "y": y, "width": width, "height": height, **attrs}
        if tooltip is None:
            self.add("rect", **at)
        else:
            self.titled("rect", tooltip, **at)

    def square(
        self, cx: float, cy: float, side: float, tooltip: object = None, **attrs: object
    ) -> None:
        """A square of `side` centred on (cx, cy) (a marker, a town's box): see `rect`."""
        self.rect(cx - side / 2, cy - side / 2, side, side, tooltip, **attrs)

    def circle(
        self, cx: float, cy: float, r: float, tooltip: object = None, **attrs: object
    ) -> None:
        """A circle of radius `r` centred on (cx, cy), then `attrs`; with a <title> child
        when `tooltip` is given (see `titled`)."""
        at = {"cx": cx, "cy": cy, "r": r, **attrs}
        if tooltip is None:
            self.add("circle", **at)
        else:
            self.titled("circle", tooltip, **at)

    @contextmanager
    def group(self, **attrs: object) -> Iterator[None]:
        self._parts.append(f"<g{_attributes(attrs)}>")
        try:
            yield
        finally:
            self._parts.append("</g>")

    def arrow(self, x1: float, y1: float, x2: float, y2: float, *, kind: str) -> None:
        """An arrow from (x1, y1) to (x2, y2); `kind` is `move` or `attack` (its marker)."""
        self.add(
            "line",
            x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2),
            class_=f"arrow {kind}", marker_end=f"url(#head-{kind})",
        )  # fmt: skip

    def to_string(self) -> str:
        width, height = self.width * self.scale, self.height * self.scale
        head = (
            '<svg xmlns="http://www.w3.org/2000/svg"'
            f' width="{_number(width)}" height="{_number(height)}"'
            f' viewBox="0 0 {_number(self.width)} {_number(self.height)}" role="img">'
            f"<title>{escape(one_line(self._title))}</title>"
            "<defs>"
            '<marker id="head-move" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6"'
            ' markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#1f5fbf"/>'
            "</marker>"
            '<marker id="head-attack" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6"'
            ' markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/>'
            "</marker>"
            "</defs>"
            "<style>"
            ".arrow{stroke-width:3;fill:none}.arrow.move{stroke:#1f5fbf}"
            ".arrow.attack{stroke:#c0392b;stroke-dasharray:6 3}"
            "text{font-family:sans-serif}"
            "</style>"
        )
        return head + "".join(self._parts) + "</svg>\n"
