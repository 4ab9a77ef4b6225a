"""The text of an HTML page or mail part: what a reader sees, with its line breaks; and the
game a pbem turn page carries (its embedded save text), which is what pbem checks of it."""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from html.parser import HTMLParser

from pbem.errors import PbemError
from pbem.transport import savepack

# The ids of a turn page's elements (templates/page.html.j2): the save text of the game it
# shows, as JSON data, and the verdict its in-page verifier writes.
SAVE_ID = "pbem-save"
VERDICT_ID = "pbem-verdict"
# How a page carries its save compressed (issue 29): {"gzip": base64 of the gzip of its
# UTF-8}, which a browser reads with DecompressionStream("gzip"). A save text is a few
# times smaller than what it inflates to; past this, a page's game is refused unread.
GZIP_KEY = "gzip"
# Or {"gzip-raw": base64 of the gzip of a pbem.transport.savepack container}: the same save
# with its armored entries as raw bytes, which gzip packs a quarter smaller (issue 29).
# Pages written before it carry {"gzip": ...} and read as they always did.
GZIP_RAW_KEY = "gzip-raw"
MAX_SAVE_BYTES = 256 * 1024 * 1024


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


class _TurnPage(HTMLParser):
    """The parts of a turn page pbem reads: every element with the save's id (its text) and
    whether the page has a verdict element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.saves: list[list[str]] = []
        self.has_verdict = False
        self._in_save: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        ids = {value for name, value in attrs if name == "id"}
        if VERDICT_ID in ids:
            self.has_verdict = True
        if SAVE_ID in ids:
            self._in_save = []
            self.saves.append(self._in_save)

    def handle_endtag(self, tag: str) -> None:
        self._in_save = None

    def handle_data(self, data: str) -> None:
        if self._in_save is not None:
            self._in_save.append(data)


def embedded_save(html: str) -> str | None:
    """The save text a pbem turn page carries (None: the HTML is no turn page).

    What pbem checks of a page is that game, never what the page shows around it nor the
    script it runs: a page is only as trustworthy as whoever made it, and its visible text
    or its verdict can say anything. A page with a verdict but no game, or with more than
    one game, is refused: there is nothing (or no one thing) to check."""
    if SAVE_ID not in html and VERDICT_ID not in html:
        return None  # (the common case, a forum thread: not parsed twice)
    page = _TurnPage()
    page.feed(html)
    page.close()
    if not page.saves:
        if page.has_verdict:
            raise PbemError(
                "this turn page carries no game (no embedded save text): there is nothing "
                "to check, whatever its own verdict says"
            )
        return None
    if len(page.saves) > 1:
        raise PbemError(f"this turn page carries {len(page.saves)} games: a page carries one")
    try:
        save = json.loads("".join(page.saves[0]))
    except ValueError:
        save = None
    if isinstance(save, dict) and len(save) == 1:
        [(key, value)] = save.items()
        if key == GZIP_KEY and isinstance(value, str):
            save = _gunzip_text(value)
        elif key == GZIP_RAW_KEY and isinstance(value, str):
            save = savepack.unpack(_gunzip(value), MAX_SAVE_BYTES)
    if not isinstance(save, str):
        raise PbemError(
            "this turn page's embedded game is not a save text (a JSON string,"
            f" {{{GZIP_KEY!r}: base64}} or {{{GZIP_RAW_KEY!r}: base64}})"
        )
    return save


_DAMAGED = "this turn page's embedded game is damaged (not base64 of gzip of UTF-8)"


def _gunzip(data: str) -> bytes:
    """The bytes of a page's base64 of gzip: strict base64, one whole gzip member with
    nothing after it (as the page's own verifier reads it)."""
    try:
        packed = base64.b64decode(data.encode("ascii"), validate=True)
        inflate = zlib.decompressobj(wbits=31)
        raw = inflate.decompress(packed, MAX_SAVE_BYTES + 1)
    except (UnicodeEncodeError, binascii.Error, zlib.error) as error:
        raise PbemError(_DAMAGED) from error
    if len(raw) > MAX_SAVE_BYTES or inflate.unconsumed_tail:
        raise PbemError(f"this turn page's embedded game is over {MAX_SAVE_BYTES >> 20} MiB")
    if not inflate.eof or inflate.unused_data:
        raise PbemError(_DAMAGED)
    return raw


def _gunzip_text(data: str) -> str:
    """The save text of a page's {"gzip": ...}: its gzip'd bytes, UTF-8."""
    try:
        return _gunzip(data).decode("utf-8")
    except UnicodeDecodeError as error:
        raise PbemError(_DAMAGED) from error
