"""A mail of moves read one entry at a time: memory does not grow with the mail's length.

`pbem mail fetch` reads a mail as `pbem.transport.message.parse_message_wire` does: the
whole message decoded (pbem.transport.mime: the parser holds a long mail several times
over), every armored entry found in the text, then checked. A mail of thousands of
entries then costs several times its size in memory. The mail `pbem mail send` writes
is the common case, and simple: one text/plain part, 7bit, pbem's plain move-file
layout. `entries` reads such a mail from its bytes as they are, line by line
(pbem.transport.movefile.plain_entries, as `pbem apply` reads a save), and gives its
entries one at a time, checked as `parse_message_wire` checks them.

A fast path, never a different answer: `entries` takes only a mail whose entries are
exactly those `parse_message_wire` finds (the conditions are below, each with its
reason), and in the order in which pbem.inbox would take them (a genesis first, then
seq by seq). Anything else raises Unstreamable, before or while the entries come
(whatever was read so far is then the caller's to roll back), and the caller reads the
mail the whole way, which gives the same results to every mail it takes and says what
is wrong with the rest, in its own words. Damage too raises Unstreamable here: the
error line a refused mail gets is always the whole-mail reader's.
"""

from __future__ import annotations

import email.policy
import io
import re
from collections.abc import Iterator
from email.parser import BytesParser

from pbem.core.log import GENESIS, Entry
from pbem.errors import PbemError
from pbem.transport.message import MAX_ENTRIES
from pbem.transport.mime import MAX_FIELD_CHARS, MAX_HEADER_FIELDS
from pbem.transport.movefile import looks_like_email, looks_like_html, plain_entries

# What pbem.transport.movefile and pbem.transport.mime look at, mirrored (their names
# are private there): how much of the start tells a mail (movefile._HEADER_SCAN
# characters, so at most four times as many bytes of UTF-8), where its header block
# ends (mime._BLANK_LINE), and the transfer encodings that leave a body as it is
# (mime._IDENTITY), and what its Content-Type reads (mime._CONTENT_TYPE).
_HEADER_SCAN_BYTES = 4 * 256 * 1024
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")
_CONTENT_TYPE = re.compile(rb"^content-type:[ \t]*([^;\r\n]*)", re.IGNORECASE | re.MULTILINE)
_IDENTITY = ("", "7bit", "8bit", "binary")
# A header block longer than this is read the whole way, where the mail parser's caps on
# fields (pbem.transport.mime) apply: the one parse here then stays small.
_MAX_HEADER_BYTES = 64 * 1024
# Charsets under which the body's text is its bytes read as UTF-8 (as plain_entries
# reads a file): UTF-8 itself, and ASCII for a body of ASCII bytes only.
_UTF8 = ("utf-8", "utf8")
_ASCII = ("ascii", "us-ascii")
_BOM = b"\xef\xbb\xbf"


class Unstreamable(PbemError):
    """A mail that `entries` does not read as it comes: read it whole."""


def body_start(raw: bytes) -> int:
    """Where the body of a plain mail of moves begins in `raw`; Unstreamable for any other.

    The whole-mail reader (movefile.extract_text, then mime.mail_text) takes `raw` as a
    mail when its text starts with a header block (movefile.looks_like_email), and as
    an mbox first when it starts with "From "; and a mail that is one text/plain part
    with its body as it is (mime._plain_body_text) as that body, decoded by its charset.
    Taken here: those mails only, under the very conditions mime states (each mirrored
    below), with no byte-order mark before the headers or the body (the two readers
    strip one at different places) and a charset that decodes the body as UTF-8 does.
    """
    if raw.startswith(_BOM) or raw.startswith(b"From "):
        raise Unstreamable("a byte-order mark, or an mbox")
    if not looks_like_email(_text(raw, 0)):
        raise Unstreamable("not a mail")
    found = _BLANK_LINE.search(raw)
    if found is None or found.start() > _MAX_HEADER_BYTES:
        raise Unstreamable("no header block, or a long one")
    block = raw[: found.start()]
    if b"\r" in block:
        # A mail with CRLF line ends (as IMAP gives every mail) has them in its body too,
        # where plain_entries reads marker lines pbem does not write: it is read whole.
        # Told here, before the header parse below, so that such a mail costs the mail
        # parser no more than it did (tests/hardening/test_mail_caps.py counts its work).
        raise Unstreamable("CRLF line ends, or a CR inside a header line")
    kind = _CONTENT_TYPE.search(block)
    if kind is not None and kind.group(1).strip().lower() != b"text/plain":
        raise Unstreamable("a Content-Type other than text/plain on its first line")
    head = BytesParser(policy=email.policy.compat32).parsebytes(raw[: found.end()])
    fields = list(head.raw_items())
    if len(fields) > MAX_HEADER_FIELDS or any(len(v) > MAX_FIELD_CHARS for _n, v in fields):
        raise Unstreamable("more header fields, or longer ones, than mime reads")
    if head.defects or head.is_multipart() or head.get_content_type() != "text/plain":
        raise Unstreamable("not one text/plain part")
    if str(head.get("content-transfer-encoding", "")).lower() not in _IDENTITY:
        raise Unstreamable("a transfer encoding")
    if head.get_payload():  # (part of the block was not read as fields)
        raise Unstreamable("a header block with lines that are not fields")
    charset = head.get_param("charset", "ASCII")
    name = charset.lower() if isinstance(charset, str) else ""
    if not (name in _UTF8 or (name in _ASCII and raw.isascii())):
        raise Unstreamable("a charset other than UTF-8")
    if raw.startswith(_BOM, found.end()):
        raise Unstreamable("a byte-order mark before the body")
    # What plain_entries asks of a file's start, asked here of the body's (see _Body).
    start = _text(raw, found.end()).lstrip("\ufeff")
    if start.startswith("From ") or looks_like_email(start) or looks_like_html(start):
        raise Unstreamable("a body that starts as a mail, an mbox or an HTML page")
    return found.end()


def _text(raw: bytes, start: int) -> str:
    """The text of the _HEADER_SCAN_BYTES of `raw` from `start` on, as movefile decodes a
    file's start (from a view: no copy of the bytes first)."""
    return str(memoryview(raw)[start : start + _HEADER_SCAN_BYTES], "utf-8", "replace")


class _Body(io.BytesIO):
    """A mail's bytes from its body on, for plain_entries, whose first read (up to a
    megabyte) tells a mail, an mbox or an HTML page from a plain move file, and stays in
    memory while it reads the rest. `body_start` asked the same of the body's whole
    start; that read is given a short one here, of which each of the three questions
    can only say yes where the whole start says yes (a regex match at the start; a
    header block that ends within it): no other answer, and a megabyte less."""

    _short_read: int | None = 4096

    def read(self, size: int | None = -1, /) -> bytes:
        if self._short_read is not None:
            size = self._short_read if size is None or size < 0 else min(size, self._short_read)
            self._short_read = None
        return super().read(size)


def entries(raw: bytes) -> Iterator[Entry]:
    """The entries of a plain mail of moves, one at a time, checked (Entry.from_wire), in
    the order pbem.inbox takes a batch's entries: the same entries `parse_message_wire`
    finds in the mail. Raises Unstreamable (at the start, or after some entries) for any
    mail, or any entry, that it does not vouch for that way (see the module's docstring)."""
    stream = _Body(raw)  # (shares `raw`'s bytes: nothing is copied)
    stream.seek(body_start(raw))
    last: tuple[bool, int] | None = None
    count = 0
    try:
        for canonical, signature in plain_entries(stream):
            count += 1
            if count > MAX_ENTRIES:
                raise Unstreamable("more entries than a mail may carry")
            entry = Entry.from_wire(canonical, signature)
            place = (entry.kind != GENESIS, entry.seq)
            if last is not None and place < last:
                raise Unstreamable("entries out of order")
            last = place
            yield entry
    except Unstreamable:
        raise
    except PbemError as exc:  # (damage, and what plain_entries does not read: NotPlain)
        raise Unstreamable(str(exc)) from exc
