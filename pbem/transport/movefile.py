"""Reading move files: armored entries inside whatever a mail client or forum delivered.

A move file is any text with armored entries in it (protocol section 6). A whole
RFC 5322 message (saved from a mail client, with its MIME encodings) is decoded
first: its text parts, HTML ones converted, forwarded messages included, one
alternative of multipart/alternative. An mbox file is read message by message, an
HTML page (a forum thread saved from a browser) as its text. The armor reader then
ignores everything around the entries, including Markdown fences and BBCode tags.
"""

from __future__ import annotations

import email
import email.policy
import io
import re
from email.message import EmailMessage, Message
from html.parser import HTMLParser

from pbem.errors import PbemError
from pbem.transport.armor import find_entries, has_marker

# A header line ("Name: value"); the field name is printable ASCII without a colon or space.
_HEADER = re.compile(r"^[!-9;-~]+:")
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


def _part_text(part: Message) -> str:
    try:
        content = part.get_content() if isinstance(part, EmailMessage) else None
        if isinstance(content, str):
            return content
    except (LookupError, ValueError):
        pass  # unknown charset or broken encoding: fall back to lenient UTF-8 below
    payload = part.get_payload(decode=True)
    return payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else ""


def _texts(part: Message) -> list[str]:
    """The readable texts of a MIME part, depth first: text parts, nested and forwarded mail."""
    if part.is_multipart():  # multipart/* and message/rfc822 (a forwarded mail)
        subparts = [p for p in part.get_payload() if isinstance(p, Message)]
        if part.get_content_type() == "multipart/alternative":
            return _best_alternative(subparts)
        return [text for sub in subparts for text in _texts(sub)]
    kind = part.get_content_type()
    if kind == "text/plain":
        return [_part_text(part)]
    if kind == "text/html":
        return [html_to_text(_part_text(part))]
    return []


def _best_alternative(alternatives: list[Message]) -> list[str]:
    """One alternative of multipart/alternative: they carry the same entries, read them once.

    The plain-text one is preferred; another is taken only when the plain one holds no
    armor (a client that writes a useless plain part), so no entry is counted twice.
    """
    plain_first = sorted(alternatives, key=lambda p: p.get_content_type() != "text/plain")
    texts = [_texts(p) for p in plain_first]
    for candidate in texts:
        if any(has_marker(text) for text in candidate):
            return candidate
    return next((candidate for candidate in texts if candidate), [])


def _message_text(message: Message) -> str:
    return "\n".join(_texts(message))


# An mbox separator: a "From " line at the start of the file or after a blank line.
_MBOX_FROM = re.compile(r"(?:\A|(?<=\n\n)|(?<=\n\r\n))From [^\n]*\n")
# Unquote mboxrd ">From " lines (one level of ">" is added by the mbox writer).
_MBOX_QUOTED_FROM = re.compile(r"^>(>*From )", re.MULTILINE)
# An HTML document or fragment: a doctype, or markup a page or a forum post starts with.
_HTML_START = re.compile(
    r"\A\s*(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<!--|<(?:div|p|pre|table|article"
    r"|section|blockquote|code|span|meta|link)[\s>/])",
    re.IGNORECASE,
)


def looks_like_html(text: str) -> bool:
    """Whether `text` is an HTML page or fragment (a saved forum thread, an HTML mail body)."""
    return _HTML_START.match(text.lstrip("\ufeff")) is not None


def _mail_text(data: bytes | str) -> str:
    policy = email.policy.default
    # The standard library's mail parser, and the walk over its parts, recurse once per
    # level of nested parts: a message nested hundreds deep is refused, not a crash.
    try:
        if isinstance(data, bytes):
            message = email.message_from_bytes(data, policy=policy)
        else:
            message = email.message_from_string(data, policy=policy)
        return _message_text(message)
    except RecursionError:
        raise PbemError(
            "cannot read this mail: its MIME parts or forwarded messages are nested too deep"
        ) from None


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
    message; an HTML page (a saved forum thread): its text; anything else: itself.
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
        return _mail_text(data if isinstance(data, bytes) else text)
    if looks_like_html(text):
        return html_to_text(text)
    return text


def read_entries(data: bytes | str) -> list[tuple[bytes, bytes]]:
    """Every armored entry in a move file, mail or plain text, as (canonical, signature)."""
    return find_entries(extract_text(data))
