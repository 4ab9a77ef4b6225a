"""Reading a raw RFC 5322 message: its text parts, decoded, nested and forwarded ones too.

Imported only when a move file is a mail (see movefile.extract_text): the email package
is the largest part of a cold `pbem verify`.
"""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage, Message

from pbem.errors import PbemError
from pbem.transport.armor import has_marker
from pbem.transport.htmltext import html_to_text


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


def mail_text(data: bytes | str) -> str:
    """The decoded text parts of a raw RFC 5322 message (HTML parts converted)."""
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
