"""mime._plain_body_text: a one-part text/plain mail read from its header block alone gives
the very text the parser gives the whole mail; any other mail is left to the parser."""

from __future__ import annotations

import email.policy
from email.message import EmailMessage

import pytest

from pbem.transport import mime
from pbem.transport.armor import armor

BODY = "Grüße!\n" + armor(b'{"seq":1}', bytes(range(83))) + "-- \nBob\n"


def message(body: str = BODY, **options: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Bob <bob@example.org>"
    msg["Subject"] = "moves"
    msg.set_content(body, **options)  # type: ignore[arg-type]
    return msg


def parsed(data: bytes) -> str:
    return mime._message_text(mime._parse(data))


def raw_mail(head: str, body: bytes) -> bytes:
    return head.encode("ascii") + body


CASES = {
    "utf-8 8bit": message(cte="8bit").as_bytes(),
    "crlf": message(cte="8bit").as_bytes(policy=email.policy.SMTP),
    "7bit ascii": message(BODY.encode("ascii", "ignore").decode(), cte="7bit").as_bytes(),
    "latin-1": raw_mail(
        "From: a@b\nContent-Type: text/plain; charset=latin-1\n\n", BODY.encode("latin-1")
    ),
    "no content type": raw_mail("From: a@b\nSubject: x\n\n", BODY.encode("utf-8")),
    "unknown charset": raw_mail(
        "From: a@b\nContent-Type: text/plain; charset=x-nothing\n\n", BODY.encode("utf-8")
    ),
    "bad bytes": raw_mail("From: a@b\n\n", b"\xff\xfe" + BODY.encode("utf-8")),
    "mbox from line": raw_mail("From a@b Mon Jan  1 00:00:00 2026\nFrom: a@b\n\n", b"x\n"),
    "folded header": raw_mail("From: a@b\nSubject: one\n  two\n\n", BODY.encode("utf-8")),
    "empty body": raw_mail("From: a@b\n\n", b""),
}
OTHERS = {
    "quoted-printable": message(cte="quoted-printable").as_bytes(),
    "base64": message(cte="base64").as_bytes(),
    "html": raw_mail("From: a@b\nContent-Type: text/html\n\n", b"<p>x</p>"),
    "multipart": EmailMessage(),
    "no blank line": raw_mail("From: a@b\nSubject: x\n", b""),
    "not a header": raw_mail("From: a@b\nnot a header line\n\n", b"body\n"),
    "lone cr": raw_mail("From: a@b\rSubject: x\n\n", b"body\n"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_text_is_the_parsers(name: str) -> None:
    data = CASES[name]
    text = mime._plain_body_text(data)
    assert text is not None
    assert text == parsed(data) == mime.mail_text(data)


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_other_mail_is_parsed_whole(name: str) -> None:
    data = OTHERS[name]
    if isinstance(data, EmailMessage):
        data.add_alternative("plain")
        data.add_alternative("<p>html</p>", subtype="html")
        data = data.as_bytes()
    assert mime._plain_body_text(data) is None
    assert mime.mail_text(data) == parsed(data)


def test_the_caps_hold_for_the_header_block() -> None:
    fields = "".join(f"X-{n}: v\n" for n in range(mime.MAX_HEADER_FIELDS + 1))
    with pytest.raises(mime.MailTooComplex):
        mime.mail_text(raw_mail("From: a@b\n" + fields + "\n", b"body\n"))
