"""Reading move files: armored entries inside whatever a mail client or forum delivered.

A move file is any text with armored entries in it (protocol section 6). When it is a
whole RFC 5322 message (saved from a mail client, with its MIME encodings), the text
parts are decoded first; the armor reader then ignores everything around the entries,
including Markdown fences and BBCode [code] tags.
"""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage, Message
from html.parser import HTMLParser

from pbem.transport.armor import find_entries

# A header line ("Name: value"); the field name is printable ASCII without a colon or space.
_HEADER = re.compile(r"^[!-9;-~]+:")
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
    lines = text.lstrip("\ufeff").splitlines()
    if lines and lines[0].startswith("From "):  # mbox separator line
        lines = lines[1:]
    known = False
    for i, line in enumerate(lines):
        if not line.strip():
            return known and i > 0
        if line[0] in " \t" and i > 0:
            continue  # folded continuation of the previous header
        if not _HEADER.match(line):
            return False
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


def _message_text(message: Message) -> str:
    plain: list[str] = []
    html: list[str] = []
    for part in message.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        if kind == "text/plain":
            plain.append(_part_text(part))
        elif kind == "text/html":
            html.append(html_to_text(_part_text(part)))
    # HTML parts only when there is no plain text: multipart/alternative carries the
    # same entries twice, and find_entries would return each entry twice.
    return "\n".join(plain if plain else html)


def extract_text(data: bytes | str) -> str:
    """The readable text of a move file: decoded mail text parts, or the input itself."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    if not looks_like_email(text):
        return text
    policy = email.policy.default
    if isinstance(data, bytes):
        message = email.message_from_bytes(data, policy=policy)
    else:
        message = email.message_from_string(data, policy=policy)
    return _message_text(message)


def read_entries(data: bytes | str) -> list[tuple[bytes, bytes]]:
    """Every armored entry in a move file, mail or plain text, as (canonical, signature)."""
    return find_entries(extract_text(data))
