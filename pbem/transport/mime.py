"""Reading a raw RFC 5322 message: its text parts, decoded, nested and forwarded ones too.

Imported only when a move file is a mail (see movefile.extract_text): the email package
is the largest part of a cold `pbem verify`.

A mail is untrusted input, and the email package's cost per part and per header is far
above its cost per byte of body: a message may have at most MAX_PARTS MIME parts
(nested and forwarded messages count), MAX_HEADER_FIELDS header fields in all, and no
field longer than MAX_FIELD_CHARS (reading a Content-Type's parameters costs more than
in proportion to its length), or it is refused as soon as the parser meets the part or
field too many, having done no more work than that.
The message is parsed with the `compat32` policy, whose header lookups are plain string
operations (the `default` policy parses every Content-Type it is asked about, at a cost
that grows faster than the header's length); text parts are decoded by their charset
as `default` would.
"""

from __future__ import annotations

import email.policy
import re
from email.feedparser import BytesFeedParser, FeedParser
from email.message import Message

from pbem.errors import PbemError
from pbem.transport.armor import has_marker
from pbem.transport.htmltext import html_to_text

MAX_PARTS = 100  # MIME parts of one message, the message itself, nested and forwarded ones
MAX_HEADER_FIELDS = 1000  # header fields of one message, all its parts together
MAX_FIELD_CHARS = 8 * 1024  # one header field, folded lines and all


class MailTooComplex(PbemError):
    """A message with more parts or header fields than a mail of moves ever has."""


class _Budget:
    """Counts what the parser makes; refuses the part or header field one past the cap."""

    def __init__(self) -> None:
        self.parts = 0
        self.fields = 0

    def part(self, policy: email.policy.Policy = email.policy.compat32) -> Message:
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise MailTooComplex(f"cannot read this mail: more than {MAX_PARTS} MIME parts")
        return _Part(self, policy)

    def field(self, value: str) -> None:
        self.fields += 1
        if self.fields > MAX_HEADER_FIELDS:
            raise MailTooComplex(
                f"cannot read this mail: more than {MAX_HEADER_FIELDS} header fields"
            )
        if len(value) > MAX_FIELD_CHARS:
            raise MailTooComplex(
                f"cannot read this mail: a header field is longer than {MAX_FIELD_CHARS} characters"
            )


class _Part(Message):
    def __init__(self, budget: _Budget, policy: email.policy.Policy) -> None:
        super().__init__(policy=policy)
        self._budget = budget

    def set_raw(self, name: str, value: str) -> None:  # the parser's way to add a field
        self._budget.field(value)
        super().set_raw(name, value)


def _parse(data: bytes | str) -> Message:
    budget = _Budget()
    if isinstance(data, bytes):
        binary = BytesFeedParser(_factory=budget.part, policy=email.policy.compat32)
        budget.parts = 0  # the parser made one message to try the factory
        binary.feed(data)
        return binary.close()
    parser = FeedParser(_factory=budget.part, policy=email.policy.compat32)
    budget.parts = 0
    parser.feed(data)
    return parser.close()


def _part_text(part: Message) -> str:
    """A text part's payload decoded as the `default` policy's get_content does: by its
    charset (ASCII when it names none), undecodable bytes replaced; lenient UTF-8 when
    the charset is unknown or cannot decode it."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_param("charset", "ASCII")
    if not isinstance(charset, str):
        charset = "ASCII"
    try:
        return payload.decode(charset, errors="replace")
    except (LookupError, ValueError, TypeError):  # unknown, or a codec like idna that refuses
        return payload.decode("utf-8", errors="replace")


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


# A header block's end: the first empty line (the parser splits lines at CRLF or LF).
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")
# A Content-Type field's type, as its first line gives it (a folded one reads as none).
_CONTENT_TYPE = re.compile(rb"^content-type:[ \t]*([^;\r\n]*)", re.IGNORECASE | re.MULTILINE)
# Transfer encodings under which a part's payload is its body's bytes as they are
# (Message.get_payload(decode=True) decodes only quoted-printable, base64 and uuencode).
_IDENTITY = ("", "7bit", "8bit", "binary")


def _plain_body_text(data: bytes) -> str | None:
    """The text of a mail that is one text/plain part with its body as it is (no transfer
    encoding), read from its header block alone: the text the parser would give it, at a
    fraction of its memory (the parser holds a mail of moves several times over, line by
    line). None for any other mail: `mail_text` parses it whole.

    The header block goes through the same parser and caps as a whole mail; taken only
    when every line of it is a header field or a continuation (the parser then ends the
    block at the first empty line, as found here), with no CR that does not end a line
    (the parser splits lines there too)."""
    found = _BLANK_LINE.search(data)
    if found is None:
        return None
    block = data[: found.start()]
    if block.count(b"\r") != block.count(b"\r\n"):
        return None
    kind = _CONTENT_TYPE.search(block)
    if kind is not None and kind.group(1).strip().lower() != b"text/plain":
        return None  # (not parsed twice: the parse below is for the mail it takes)
    head = _parse(data[: found.end()])
    if head.defects or head.is_multipart() or head.get_content_type() != "text/plain":
        return None
    if str(head.get("content-transfer-encoding", "")).lower() not in _IDENTITY:
        return None
    if head.get_payload():  # (the whole block was read as fields: nothing left over)
        return None
    # Decoded as _part_text decodes a payload (bytes.decode and str() of a buffer are one
    # and the same decoding), from a view of the body: no copy of it is made first.
    body = memoryview(data)[found.end() :]
    charset = head.get_param("charset", "ASCII")
    if not isinstance(charset, str):
        charset = "ASCII"
    try:
        return str(body, charset, "replace")
    except (LookupError, ValueError, TypeError):
        return str(body, "utf-8", "replace")


def mail_text(data: bytes | str) -> str:
    """The decoded text parts of a raw RFC 5322 message (HTML parts converted)."""
    # The standard library's mail parser, and the walk over its parts, recurse once per
    # level of nested parts: a message nested hundreds deep is refused, not a crash
    # (MAX_PARTS already bounds the depth).
    try:
        if isinstance(data, bytes):
            plain = _plain_body_text(data)
            if plain is not None:
                return plain
        return _message_text(_parse(data))
    except RecursionError:
        raise PbemError(
            "cannot read this mail: its MIME parts or forwarded messages are nested too deep"
        ) from None
