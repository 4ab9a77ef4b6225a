"""Reading move files: armored entries inside whatever a mail client or forum delivered.

A move file is any text with armored entries in it (protocol section 6). A whole
RFC 5322 message (saved from a mail client, with its MIME encodings) is decoded
first: its text parts, HTML ones converted, forwarded messages included, one
alternative of multipart/alternative. An mbox file is read message by message, an
HTML page (a forum thread saved from a browser) as its text, and a pbem turn page as
the save text of the game it carries (never its visible text: see htmltext.embedded_save).
The armor reader then ignores everything around the entries, including Markdown fences
and BBCode tags.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator

from pbem.errors import PbemError
from pbem.hints import TYPE_CHECKING
from pbem.lazy import lazy_module, lazy_pattern
from pbem.transport.armor import (
    BEGIN,
    END,
    decode_lines,
    decode_payload,
    find_entries,
    marker_kind,
    may_start_marker,
)
from pbem.transport.blocklines import BlockLines

if TYPE_CHECKING:
    from typing import BinaryIO

# A header line ("Name: value"); the field name is printable ASCII without a colon or space.
_HEADER = lazy_pattern(r"^[!-9;-~]+:")
_HEADER_SCAN = 256 * 1024
_MAIL_HEADERS = {
    "from",
    "to",
    "subject",
    "date",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
    "message-id",
    "received",
    "return-path",
    "delivered-to",
}


def looks_like_email(text: str) -> bool:
    """Whether `text` starts with an RFC 5322 header block (ending in a blank line).

    Every line up to the blank line must be a header or a folded continuation, and at
    least one must be a header mail actually uses, so a move file that happens to start
    with "note: ..." is not taken for a message.
    """
    # A header block is short: reading lines lazily from a bounded prefix keeps this cheap
    # on big files, and on an mbox whose every message start is tried.
    lines = io.StringIO(text.lstrip("\ufeff")[:_HEADER_SCAN], newline=None)
    known = False
    headers = 0
    for i, raw in enumerate(lines):
        line = raw.rstrip("\n")
        if i == 0 and line.startswith("From "):  # mbox separator line
            continue
        if not line.strip():
            return known
        if line[0] in " \t" and headers:
            continue  # folded continuation of the previous header
        if not _HEADER.match(line):
            return False
        headers += 1
        known = known or line.split(":", 1)[0].lower() in _MAIL_HEADERS
    return False


# The decoders run the first time a file needs one (pbem.lazy): a mail's
# (pbem.transport.mime: the email package, a sixth of a cold `pbem verify`) and an HTML
# page's (pbem.transport.htmltext: html.parser). A plain move file needs neither, and
# which one a file needs is known only once it is read.
_mime = lazy_module("pbem.transport.mime")
_htmltext = lazy_module("pbem.transport.htmltext")


def html_to_text(html: str) -> str:
    """Tags stripped (block ends become line breaks) and entities unescaped."""
    return str(_htmltext.html_to_text(html))


def _embedded_save(page: str) -> str | None:
    found = _htmltext.embedded_save(page)
    return None if found is None else str(found)


def _mail_text(data: bytes | str) -> str:
    return str(_mime.mail_text(data))


# An mbox separator: a "From " line at the start of the file or after a blank line.
_MBOX_FROM = lazy_pattern(r"(?:\A|(?<=\n\n)|(?<=\n\r\n))From [^\n]*\n")
# Unquote mboxrd ">From " lines (one level of ">" is added by the mbox writer).
_MBOX_QUOTED_FROM = lazy_pattern(r"^>(>*From )", re.MULTILINE)
# An HTML document or fragment: a doctype, or markup a page or a forum post starts with.
_HTML_START = lazy_pattern(
    r"\A\s*(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<!--|<(?:div|p|pre|table|article"
    r"|section|blockquote|code|span|meta|link)[\s>/])",
    re.IGNORECASE,
)


def looks_like_html(text: str) -> bool:
    """Whether `text` is an HTML page or fragment (a saved forum thread, an HTML mail body)."""
    return _HTML_START.match(text.lstrip("\ufeff")) is not None


def _mbox_messages(text: str) -> list[str]:
    """The messages of an mbox file (split at "From " separator lines), or [] if it is not one."""
    starts = [
        m.start()
        for m in _MBOX_FROM.finditer(text)
        if looks_like_email(text[m.start() : m.start() + _HEADER_SCAN])
    ]
    if not starts or starts[0] != 0:
        return []
    bounds = [*starts, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def extract_text(data: bytes | str) -> str:
    """The readable text of a move file.

    A raw mail: its decoded text parts (HTML converted); an mbox file: those of every
    message; a pbem turn page: the save text it carries; another HTML page (a saved forum
    thread): its text; anything else: itself.
    """
    if isinstance(data, bytes) and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    text = text.lstrip("\ufeff")
    if text.startswith("From "):
        # Split a byte-exact view (latin-1 maps bytes 1:1) so each message keeps its bytes.
        view = data.decode("latin-1") if isinstance(data, bytes) else text
        messages = _mbox_messages(view)
        if len(messages) > 1:
            return "\n".join(
                _mail_text(m.encode("latin-1") if isinstance(data, bytes) else m)
                for m in (_MBOX_QUOTED_FROM.sub(r"\1", m) for m in messages)
            )
    if looks_like_email(text):
        if isinstance(data, bytes):
            del text  # (a mail of moves is parsed from its bytes: no copy held beside them)
            return _mail_text(data)
        return _mail_text(text)
    if looks_like_html(text):
        save = _embedded_save(text)
        return save if save is not None else html_to_text(text)
    return text


def read_entries(data: bytes | str) -> list[tuple[bytes, bytes]]:
    """Every armored entry in a move file, mail or plain text, as (canonical, signature)."""
    return find_entries(extract_text(data))


def turn_page_note(path: str) -> str | None:
    """What `pbem verify` says before its report of a pbem turn page (None for any other
    file): that it checks the game the page carries, not what the page shows or runs."""
    try:
        with open(path, "rb") as stream:
            start = stream.read(4096)
            if not looks_like_html(start.decode("utf-8", errors="replace")):
                return None
            text = (start + stream.read()).decode("utf-8", errors="replace")
    except OSError:
        return None  # (the verification says why it cannot read it)
    try:
        if _embedded_save(text) is None:
            return None
    except PbemError:
        return None  # (the verification refuses it, in its own words)
    return (
        "turn page: what is checked is the game it carries (its embedded save text, rules"
        " included), not the text it shows nor the script it runs"
    )


class NotPlain(PbemError):
    """A file that `plain_entries` does not read: read it whole (`read_entries`)."""


_BEGIN_LINE = BEGIN.encode("ascii")
_END_LINE = END.encode("ascii")
_BASE32 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz234567"
# The bytes a marker line holds at least one of: an ASCII dash, or the first byte of a
# typographic one (U+2013, U+2014 in UTF-8) that the armor reader takes for one too.
_DASH_BYTES = (b"-", b"\xe2")


def plain_entries(
    stream: BinaryIO, outside: Callable[[bytes], None] | None = None
) -> Iterator[tuple[bytes, bytes]]:
    """The armored entries of a file in the plain layout pbem writes (a save, a move file),
    one at a time as (canonical, signature), read in blocks (pbem.transport.blocklines):
    memory does not grow with the file. Each is the one `read_entries` gives for the whole
    file, in the same order.

    Anything else raises NotPlain where it is seen, and the caller reads the file whole
    with `read_entries`, which says what is wrong with it: a mail, an mbox or an HTML page
    (known from its start, as `extract_text` knows it); a marker line other than the bare
    BEGIN and END lines (quoted, decorated, CRLF); inside an entry, a line that is not
    only base32 symbols; a payload that does not decode; an entry without its END.
    `stream` is a binary file, read from where it stands. `outside` hears every line that
    is not part of an entry (its newline included), in order, as it is read."""
    at = stream.tell()
    start = stream.read(4 * _HEADER_SCAN)  # (at least _HEADER_SCAN characters of text)
    head = start.decode("utf-8", errors="replace").lstrip("\ufeff")
    if head.startswith("From ") or looks_like_email(head) or looks_like_html(head):
        raise NotPlain("not a plain move file: a mail, an mbox or an HTML page")
    stream.seek(at)
    del start, head
    lines = BlockLines(stream)
    inside = False
    payload: list[bytes] = []
    number = 0  # the line's number, from 1
    for raw in lines:
        number += 1
        line = raw[:-1] if raw.endswith(b"\n") else raw
        if number == 1 and line.startswith(b"\xef\xbb\xbf"):
            line = line[3:]
        if inside:
            if line == _END_LINE:
                yield decode_payload(b"".join(payload).decode("ascii"))
                inside, payload = False, []
            elif line and not line.translate(None, _BASE32):
                payload.append(line)
            else:
                raise NotPlain(f"line {number} is not a plain payload line")
        elif line == _BEGIN_LINE:
            # A payload up to an END line as pbem writes it, in one step: when its lines are
            # each one or more base32 symbols, the reading above takes the same lines and
            # decodes the same symbols (armor.decode_lines); any other line is refused.
            payload_lines = lines.take_payload()
            if payload_lines is None:
                inside = True
                continue
            decoded = None
            # (find, not `in`: a bytes `in` tries its operand as an int first)
            if payload_lines[:1] != b"\n" and payload_lines.find(b"\n\n") < 0:
                decoded = decode_lines(payload_lines)
            if decoded is None:
                raise NotPlain(f"the entry after line {number} has a line that is not plain")
            number += payload_lines.count(b"\n") + 1
            yield decoded
        else:
            if any(dash in line for dash in _DASH_BYTES):
                text = line.decode("utf-8", errors="replace")
                if marker_kind(text) or may_start_marker(text):
                    raise NotPlain(f"line {number} is a marker line pbem does not write")
            if outside is not None:
                outside(raw)
    if inside:
        raise NotPlain("an entry without its END line")
