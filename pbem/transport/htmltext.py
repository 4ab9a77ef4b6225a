"""The text of an HTML page or mail part: what a reader sees, with its line breaks."""

from __future__ import annotations

from html.parser import HTMLParser


class _HtmlText(HTMLParser):
    """Text of an HTML part, with a line break wherever a block element breaks the line."""

    _BREAKS = {"br", "p", "div", "pre", "tr", "li", "blockquote", "h1", "h2", "h3", "table"}
    _HIDDEN = {"script", "style", "head", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._HIDDEN:
            self._hidden += 1
        elif tag in self._BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in self._BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """Tags stripped (block ends become line breaks) and entities unescaped."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)
