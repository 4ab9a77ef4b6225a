"""Reading a raw mail message: the entries it carries and the header fields a report shows.

`parse_message` finds every armored entry of a message (its MIME parts decoded, as a
move file is read: pbem.transport.movefile) and checks each as an entry; a message with
more than MAX_ENTRIES entries is refused. `message_header_fields` reads the Message-ID,
Subject and From of a message leniently, whatever the message holds.

Imported only where mail is read (pbem.mail, and `pbem verify` of a mailbox): the email
package is the largest part of a cold `pbem verify`.
"""

from __future__ import annotations

import contextlib
import email.errors
import email.policy
import hashlib
from collections.abc import Iterator
from email.parser import BytesHeaderParser

from pbem.core.log import GENESIS, Entry, UntrustedTextError
from pbem.errors import PbemError
from pbem.transport.movefile import read_entries

MAX_ENTRIES = 5000  # entries in one message (MAX_MESSAGE_BYTES: see pbem.mail)
_HEADER_BYTES = 64 * 1024  # the headers read for a message's report line
_HEADER_CHARS = 2048  # of a header's value, decoded (RFC 2047) for that line


def one_line(text: str) -> str:
    """`text` with every run of white space (new lines too) one space."""
    return " ".join(text.split())


def message_headers(raw: bytes) -> tuple[str | None, str]:
    """(Message-ID, Subject) of a raw message, leniently: (None, "") when absent."""
    message_id, subject, _sender = message_header_fields(raw)
    return message_id, subject


def message_header_fields(raw: bytes) -> tuple[str | None, str, str]:
    """(Message-ID, Subject, From) of a raw message, each on one line, RFC 2047 decoded,
    not escaped (that is done where they are printed)."""
    # Every fetch reads every message of the mailbox again (nothing is marked read), and
    # the email package's header parsing is most of what a message already applied costs:
    # the result is kept per message, by the SHA-256 of its bytes, for the process.
    key = hashlib.sha256(raw).digest()
    found = _HEADERS.get(key)
    if found is None:
        found = _parse_headers(raw)
        if len(_HEADERS) >= 4096:
            _HEADERS.pop(next(iter(_HEADERS)))
        _HEADERS[key] = found
    return found


_HEADERS: dict[bytes, tuple[str | None, str, str]] = {}


def _parse_headers(raw: bytes) -> tuple[str | None, str, str]:
    """Read with `compat32` (the raw values, a cost in proportion to their length) from the
    message's first _HEADER_BYTES, and only the first _HEADER_CHARS of each value decoded:
    the `default` policy's decoding of a long run of encoded words grows faster than it."""
    try:
        headers = BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw[:_HEADER_BYTES])
        values = {name.lower(): value for name, value in reversed(list(headers.raw_items()))}
    except (LookupError, ValueError, TypeError, IndexError):
        return None, "", ""
    mid = _header_text(values.get("message-id"))
    subject = _header_text(values.get("subject"))[:120]
    sender = _header_text(values.get("from"))[:200]
    return (mid or None), subject, sender


def _header_text(value: object) -> str:
    """A raw header value as a reader sees it (RFC 2047 words decoded), on one line."""
    if not isinstance(value, str):
        return ""
    value = value[:_HEADER_CHARS]
    # Read as unstructured text whatever the field (no address parsing to fail on); words
    # that cannot be decoded leave the raw text, made readable below.
    with contextlib.suppress(
        LookupError, ValueError, TypeError, IndexError, email.errors.MessageError
    ):
        value = str(email.policy.default.header_factory("x-pbem-text", value))
    value = value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return one_line(value)


# An entry of a message as pbem.inbox takes it: (not a genesis, seq) orders a batch.
WireEntry = tuple[bool, int, bytes, bytes]


def parse_message(raw: bytes) -> list[Entry]:
    """Every entry of a message; damage raises a PbemError naming the entry block."""
    return list(_checked(_message_entries(raw)))


def parse_message_wire(raw: bytes) -> list[WireEntry]:
    """What `parse_message` finds, each entry checked as it does (the same errors), kept as
    its place in a log and its bytes: (not a genesis, seq, canonical, signature), in the
    message's order. A message of thousands of entries then holds their bytes, not
    thousands of parsed entries at once (pbem.inbox makes each again when its turn comes)."""
    found = _message_entries(raw)
    return [
        (entry.kind != GENESIS, entry.seq, canonical, signature)
        for entry, (canonical, signature) in zip(_checked(found), found, strict=True)
    ]


def _message_entries(raw: bytes) -> list[tuple[bytes, bytes]]:
    found = read_entries(raw)
    if len(found) > MAX_ENTRIES:
        raise PbemError(
            f"the message holds {len(found)} entries, more than the {MAX_ENTRIES} a mail may "
            "carry (save it and use `pbem apply FILE`)"
        )
    return found


def _checked(found: list[tuple[bytes, bytes]]) -> Iterator[Entry]:
    for number, (canonical, signature) in enumerate(found, start=1):
        try:
            yield Entry.from_wire(canonical, signature)
        except UntrustedTextError as exc:  # well formed, but text no entry may hold
            raise PbemError(f"{exc} (entry block {number} of the message)") from None
        except PbemError as exc:
            raise PbemError(f"entry block {number} is damaged: {exc}") from None
