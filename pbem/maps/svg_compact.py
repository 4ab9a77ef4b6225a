"""The same picture in fewer bytes: a map (pbem.maps.svg's Drawing) without its repetition,
for the turn page, which a referee mails to every player every round (issue 29).

Two rewrites, each one that a browser draws exactly as before:

- a polygon outline drawn more than once (every hex of a hex map, a counter's frame) is
  defined once in <defs> with its first point at the origin, and each copy becomes a
  <use> placed at that first point, carrying the polygon's own attributes and children
  (its fill, its data-* attributes, its <title>): a <use> with no transform only
  translates, and its clone inherits what the polygon set on itself;
- a set of presentation attributes written on many elements (fill, stroke, font-size...)
  becomes one CSS class. A CSS rule and a presentation attribute weigh the same on the
  element they name, except against another CSS rule: so an attribute stays an attribute
  wherever one of the drawing's own rules could also set that property on that element.

Anything this does not recognise (a comment, a CDATA section, a style rule it cannot
read, a transform on a polygon) leaves the picture as it was: `compact` returns its input.
Pure: the same SVG text gives the same bytes.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

_TAG = re.compile(
    r"<(/?)([A-Za-z][\w:.-]*)((?:\s+[A-Za-z_:][\w:.-]*=(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>"
)
_ATTR = re.compile(r"\s+([A-Za-z_:][\w:.-]*)=(\"[^\"]*\"|'[^']*')")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SIMPLE_SELECTOR = re.compile(r"([A-Za-z][\w-]*)?((?:\.[\w-]+)*)")
# A value that is safe, as written, inside a CSS declaration.
_CSS_VALUE = re.compile(r"[#\w.,%() -]+|url\(#[\w-]+\)")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)")

# Presentation attributes whose CSS property takes the attribute's value as it is written
# (lengths given without a unit get "px": in SVG a px is one user unit).
PRESENTATION = frozenset(
    {
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-opacity", "stroke-dasharray",
        "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "opacity", "font-family",
        "font-weight", "font-style", "text-anchor", "dominant-baseline", "paint-order",
        "text-decoration", "marker-start", "marker-mid", "marker-end", "pointer-events",
        "font-size", "stroke-width", "letter-spacing", "stroke-dashoffset",
    }
)  # fmt: skip
_LENGTHS = frozenset({"font-size", "stroke-width", "letter-spacing", "stroke-dashoffset"})
# Containers whose content is drawn elsewhere (or not at all): left as written.
_HIDDEN = frozenset(
    {"defs", "symbol", "marker", "pattern", "clipPath", "mask", "style", "linearGradient",
     "radialGradient", "filter", "title", "desc", "metadata"}
)  # fmt: skip


class _Unsupported(Exception):
    """Something this rewriter does not read: the drawing is left as it was."""


@dataclass
class _Element:
    tag: str
    attrs: list[tuple[str, str]]  # (name, raw value with its quotes), in written order
    empty: bool  # written <tag .../>
    hidden: bool  # inside <defs> or the like
    close: _Close | None = None
    classes_added: list[str] = field(default_factory=list)

    def get(self, name: str) -> str | None:
        for key, raw in self.attrs:
            if key == name:
                return raw[1:-1]
        return None

    def text(self) -> str:
        attrs = "".join(f" {key}={raw}" for key, raw in self.attrs)
        return f"<{self.tag}{attrs}{'/' if self.empty else ''}>"


@dataclass
class _Close:
    tag: str

    def text(self) -> str:
        return f"</{self.tag}>"


def _tokens(svg: str) -> list[_Element | _Close | str]:
    items: list[_Element | _Close | str] = []
    stack: list[_Element] = []
    hidden = 0
    at = 0
    for match in _TAG.finditer(svg):
        between = svg[at : match.start()]
        if "<" in between:
            raise _Unsupported("markup that is no plain element (a comment, CDATA...)")
        if between:
            items.append(between)
        at = match.end()
        closing, tag, attrs, empty = match.groups()
        if closing:
            if attrs or empty or not stack or stack[-1].tag != tag:
                raise _Unsupported(f"an unmatched </{tag}>")
            opened = stack.pop()
            hidden -= opened.tag in _HIDDEN
            opened.close = _Close(tag)
            items.append(opened.close)
            continue
        element = _Element(tag, _ATTR.findall(attrs), bool(empty), hidden > 0)
        items.append(element)
        if not empty:
            stack.append(element)
            hidden += tag in _HIDDEN
    tail = svg[at:]
    if "<" in tail or stack:
        raise _Unsupported("unclosed or unreadable markup")
    if tail:
        items.append(tail)
    return items


@dataclass(frozen=True)
class _Rules:
    """The drawing's own style rules, as far as what they may set on which element."""

    simple: tuple[tuple[str | None, frozenset[str], frozenset[str]], ...]  # tag, classes, props
    anywhere: frozenset[str]  # properties set by a selector this cannot match exactly
    types: frozenset[str]  # element names any selector names
    _seen: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict, compare=False)

    def props_for(self, element: _Element) -> frozenset[str]:
        """The properties one of the rules could set on `element` itself."""
        key = (element.tag, element.get("class") or "")
        found = self._seen.get(key)
        if found is None:
            found = self._seen[key] = self._props(*key)
        return found

    def _props(self, tag_name: str, written: str) -> frozenset[str]:
        classes = set(written.split())
        found = set(self.anywhere)
        for tag, needed, props in self.simple:
            if (tag is None or tag == tag_name) and needed <= classes:
                found |= props
        return frozenset(found)


def _rules(items: list[_Element | _Close | str]) -> _Rules:
    simple = []
    anywhere: set[str] = set()
    types: set[str] = set()
    for i, item in enumerate(items):
        if not (isinstance(item, _Element) and item.tag == "style") or item.empty:
            continue
        sheet = items[i + 1] if isinstance(items[i + 1], str) else ""
        assert isinstance(sheet, str)
        if "@" in sheet or "\\" in sheet or "/*" in sheet or _RULE.sub("", sheet).strip():
            raise _Unsupported("a style sheet this cannot read")
        for selectors, body in _RULE.findall(sheet):
            props = frozenset(
                d.split(":", 1)[0].strip().lower() for d in body.split(";") if ":" in d
            )
            for selector in selectors.split(","):
                selector = selector.strip()
                match = _SIMPLE_SELECTOR.fullmatch(selector)
                if match and selector:
                    tag, classes = match.groups()
                    simple.append((tag, frozenset(classes.split(".")[1:]), props))
                    if tag:
                        types.add(tag)
                else:
                    anywhere |= props
                    types.update(re.findall(r"(?<![\w.#:-])([A-Za-z][\w-]*)", selector))
    return _Rules(tuple(simple), frozenset(anywhere), frozenset(types))


def _names_in_use(svg: str) -> set[str]:
    return set(re.findall(r"[\w-]+", " ".join(re.findall(r"(?:class|id)=\"([^\"]*)\"", svg))))


def _fresh(prefix: str, taken: set[str]) -> str:
    n = 0
    while f"{prefix}{n}" in taken:
        n += 1
    name = f"{prefix}{n}"
    taken.add(name)
    return name


def _outline(points: str) -> tuple[str, str, str] | None:
    """A polygon's first point and its outline moved to the origin (x, y, points), or None
    when its points are not plain number pairs."""
    pairs = points.split()
    try:
        coords = [tuple(Decimal(v) for v in pair.split(",")) for pair in pairs]
    except InvalidOperation:
        return None
    if len(coords) < 3 or any(len(c) != 2 for c in coords):
        return None
    if not all(_NUMBER.fullmatch(v) for pair in pairs for v in pair.split(",")):
        return None
    x0, y0 = coords[0]
    moved = " ".join(f"{_decimal(x - x0)},{_decimal(y - y0)}" for x, y in coords)
    return _decimal(x0), _decimal(y0), moved


def _decimal(value: Decimal) -> str:
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "0", "") else text


def _share_outlines(
    items: list[_Element | _Close | str], rules: _Rules, taken: set[str]
) -> list[str]:
    """Polygons drawn more than once become <use> of one outline: the outlines' defs."""
    if "polygon" in rules.types or "use" in rules.types:
        return []
    polygons: list[tuple[_Element, tuple[str, str, str]]] = []
    for item in items:
        if isinstance(item, _Element) and item.tag == "polygon" and not item.hidden:
            names = {key for key, _ in item.attrs}
            points = item.get("points")
            if points is None or names & {"transform", "id", "style", "x", "y", "href"}:
                continue
            placed = _outline(points)
            if placed is not None:
                polygons.append((item, placed))
    counts = Counter(outline for _, (_, _, outline) in polygons)
    ids: dict[str, str] = {}
    defs = []
    for element, (x, y, outline) in polygons:
        if counts[outline] < 2:
            continue
        if outline not in ids:
            ids[outline] = _fresh("shape-", taken)
            defs.append(f'<polygon id="{ids[outline]}" points="{outline}"/>')
        at = [i for i, (key, _) in enumerate(element.attrs) if key == "points"][0]
        element.attrs[at : at + 1] = [
            ("href", f'"#{ids[outline]}"'),
            ("x", f'"{x}"'),
            ("y", f'"{y}"'),
        ]
        element.tag = "use"
        if element.close is not None:
            element.close.tag = "use"
    return defs


def _css_value(name: str, raw: str) -> str | None:
    value = raw[1:-1]
    if not _CSS_VALUE.fullmatch(value):
        return None
    if name in _LENGTHS and _NUMBER.fullmatch(value):
        return f"{value}px"
    return value


def _share_styles(
    items: list[_Element | _Close | str], rules: _Rules, taken: set[str]
) -> tuple[str, dict[str, frozenset[str]]]:
    """Presentation attributes written alike on many elements become one class each: the
    classes' style rules."""
    chosen: list[tuple[_Element, tuple[tuple[str, str], ...]]] = []
    for item in items:
        if not isinstance(item, _Element) or item.hidden or item.tag == "svg":
            continue
        ruled = rules.props_for(item)
        key = tuple(
            (name, raw)
            for name, raw in item.attrs
            if name in PRESENTATION and name not in ruled and _css_value(name, raw) is not None
        )
        if key:
            chosen.append((item, key))
    counts = Counter(key for _, key in chosen)
    classes: dict[tuple[tuple[str, str], ...], str] = {}
    sheet = []
    props: dict[str, frozenset[str]] = {}
    for element, key in chosen:
        written = sum(len(name) + len(raw) + 2 for name, raw in key)
        if counts[key] < 2 or written * (counts[key] - 1) <= 24 + written:
            continue
        if key not in classes:
            classes[key] = _fresh("s", taken)
            body = ";".join(f"{name}:{_css_value(name, raw)}" for name, raw in key)
            sheet.append(f".{classes[key]}{{{body}}}")
            props[classes[key]] = frozenset(name for name, _ in key)
        gone = {name for name, _ in key}
        first = next(i for i, (name, _) in enumerate(element.attrs) if name in gone)
        kept = element.attrs[:first] + [a for a in element.attrs[first:] if a[0] not in gone]
        own = element.get("class")
        if own is not None and not re.fullmatch(r"[\w -]*", own):
            continue  # (a class written with quotes or entities: left as it is)
        if own is None:
            kept.insert(first, ("class", f'"{classes[key]}"'))
        else:
            kept = [
                (name, f'"{own} {classes[key]}"' if name == "class" else raw) for name, raw in kept
            ]
        element.attrs = kept
    return "".join(sheet), props


_ENDS = ("x1", "y1", "x2", "y2")
# Whatever could draw a run of lines unlike one path of their segments: markers (at a
# path's every vertex), opacity (overlaps composited once), dashes (Chromium does not
# restart a dash pattern at each subpath), a shape's own identity.
_NOT_MERGED = frozenset({"marker-start", "marker-mid", "marker-end", "opacity", "stroke-opacity",
                         "id", "style", "transform", "pathLength", "fill", "stroke-dasharray",
                         "stroke-dashoffset"})  # fmt: skip


def _merge_lines(
    items: list[_Element | _Close | str], rules: _Rules, sheet: dict[str, frozenset[str]]
) -> list[_Element | _Close | str]:
    """Runs of sibling <line>s written alike but for their ends become one <path> of one
    segment each: the caps are drawn at each subpath's ends, and a segment has no area to
    fill. Where segments overlap, an edge pixel may differ by its antialiasing alone."""
    if rules.types & {"line", "path"}:
        return items
    ruled = {name for _tag, classes, _props in rules.simple for name in classes}

    def kind(item: object) -> tuple[tuple[str, str], ...] | None:
        if not (isinstance(item, _Element) and item.tag == "line" and item.empty):
            return None
        if item.hidden or any(item.get(end) is None for end in _ENDS):
            return None
        if not all(_NUMBER.fullmatch(item.get(end) or "") for end in _ENDS):
            return None
        rest = tuple(a for a in item.attrs if a[0] not in _ENDS)
        classes = set((item.get("class") or "").split())
        if classes & ruled or any(name in _NOT_MERGED for name, _ in rest):
            return None
        if any(sheet.get(name, frozenset()) & _NOT_MERGED for name in classes):
            return None
        return rest

    kinds = [kind(item) for item in items]
    out: list[_Element | _Close | str] = []
    at = 0
    while at < len(items):
        first = kinds[at]
        end = at + 1
        while first is not None and end < len(items) and kinds[end] == first:
            end += 1
        if first is None or end - at < 2:
            out.append(items[at])
            at += 1
            continue
        segments = []
        for line in items[at:end]:
            assert isinstance(line, _Element)
            x1, y1, x2, y2 = (line.get(name) for name in _ENDS)
            segments.append(f"M{x1} {y1}L{x2} {y2}")
        attrs = [("d", f'"{"".join(segments)}"'), ("fill", '"none"'), *first]
        out.append(_Element("path", attrs, empty=True, hidden=False))
        at = end
    return out


def compact(svg: str) -> str:
    """`svg` drawn the same in fewer bytes (see the module's text); `svg` itself when it
    holds anything this does not read."""
    try:
        items = _tokens(svg)
        rules = _rules(items)
    except _Unsupported:
        return svg
    if not any(isinstance(i, _Element) and i.tag == "defs" for i in items):
        return svg
    taken = _names_in_use(svg)
    defs = _share_outlines(items, rules, taken)
    sheet, props = _share_styles(items, rules, taken)
    items = _merge_lines(items, rules, props)
    out = []
    for item in items:
        if isinstance(item, _Close) and item.tag == "defs":
            out.extend(defs)
            defs = []
        if isinstance(item, _Close) and item.tag == "style" and sheet:
            out.append(sheet)
            sheet = ""
        out.append(item if isinstance(item, str) else item.text())
    if defs or sheet:
        return svg  # (no <defs> or <style> to hold them: cannot happen in a Drawing)
    return "".join(out)
