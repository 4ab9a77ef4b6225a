"""Move files as mail delivers them: MIME encodings, HTML-only mail, CRLF, quoting."""

from __future__ import annotations

import email.policy
from email.message import EmailMessage

import pytest

from pbem.transport.armor import armor, encode_payload
from pbem.transport.movefile import (
    extract_text,
    html_to_text,
    looks_like_email,
    looks_like_html,
    read_entries,
)

C = b'{"body":{"orders":["attack 12"]},"by":"west","kind":"move","seq":17,"v":1}'
S = bytes(range(83))
C2 = b'{"body":{},"by":"soviet","kind":"ack","seq":18,"v":1}'
S2 = bytes(range(100, 183))
HUMAN = "Grüße, Bob!\ngame 3f9a0c1d… seq 17 by west: attack 12 from 11 cubes 2\n"
BODY = HUMAN + armor(C, S) + "\nand the next one:\n" + armor(C2, S2) + "-- \nBob\n"
BOTH = [(C, S), (C2, S2)]


def mail(**headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Bob <bob@example.org>"
    msg["To"] = "Alice <alice@example.org>"
    msg["Subject"] = headers.get("subject", "Berlin 45: turn 3")
    return msg


def as_crlf_bytes(msg: EmailMessage) -> bytes:
    return msg.as_bytes(policy=email.policy.SMTP)


def test_plain_text_unchanged() -> None:
    assert extract_text(BODY) == BODY
    assert extract_text(BODY.encode()) == BODY
    assert read_entries(BODY) == BOTH
    assert read_entries(BODY.encode()) == BOTH


def test_invalid_utf8_outside_armor_is_tolerated() -> None:
    data = b"\xff\xfe junk\n" + armor(C, S).encode()
    assert read_entries(data) == [(C, S)]


@pytest.mark.parametrize("cte", ["quoted-printable", "base64", "8bit"])
def test_transfer_encodings(cte: str) -> None:
    msg = mail()
    msg.set_content(BODY, cte=cte)
    raw = msg.as_bytes()
    if cte == "base64":
        assert b"BEGIN PBEM" not in raw
    assert read_entries(raw) == BOTH
    assert read_entries(as_crlf_bytes(msg)) == BOTH
    assert read_entries(raw.decode("ascii", errors="replace")) == BOTH


def test_quoted_printable_soft_breaks_inside_armor() -> None:
    # Armor re-wrapped to one long line: quoted-printable must break it with soft "=" breaks.
    payload = encode_payload(C, S)
    body = f"move:\n-----BEGIN PBEM ENTRY-----\n{payload}\n-----END PBEM ENTRY-----\n"
    msg = mail()
    msg.set_content(body, cte="quoted-printable")
    raw = as_crlf_bytes(msg)
    assert b"=\r\n" in raw  # there really are soft line breaks
    assert read_entries(raw) == [(C, S)]


def test_multipart_alternative_reads_plain_once() -> None:
    msg = mail()
    msg.set_content(BODY)
    msg.add_alternative("<html><body><pre>" + BODY + "</pre></body></html>", subtype="html")
    assert msg.get_content_type() == "multipart/alternative"
    assert read_entries(as_crlf_bytes(msg)) == BOTH  # not four: HTML is the same text


def _html_body() -> str:
    def as_html(text: str) -> str:
        escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return "<br>\n".join(escaped.split("\n"))

    quoted = "\n".join("> " + line for line in armor(C2, S2).split("\n"))
    return (
        "<html><head><style>p { color: red }</style><title>BEGIN</title></head><body>"
        f"<p>Gr&uuml;&szlig;e &amp; <b>hello</b></p><div>{as_html(armor(C, S))}</div>"
        f"<blockquote>{as_html(quoted)}</blockquote></body></html>"
    )


@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
def test_html_only(cte: str) -> None:
    msg = mail()
    msg.set_content(_html_body(), subtype="html", cte=cte)
    raw = as_crlf_bytes(msg)
    assert read_entries(raw) == BOTH
    assert "Grüße & hello" in extract_text(raw)


def test_html_on_one_line_with_br() -> None:
    # Webmail often sends the whole HTML body on one line: <br> is the only line break.
    one_line = "<div>" + "<br />".join(armor(C, S).split("\n")) + "</div>"
    assert "\n" not in one_line
    msg = mail()
    msg.set_content(one_line, subtype="html")
    assert read_entries(msg.as_bytes()) == [(C, S)]


def test_attachment_and_quoted_reply() -> None:
    msg = mail(subject="Re: Berlin 45")
    reply = "On Monday Bob wrote:\n" + "\n".join("> " + line for line in BODY.split("\n"))
    msg.set_content(reply)
    msg.add_attachment(armor(C, S + b"x"), filename="move.txt")
    assert read_entries(as_crlf_bytes(msg)) == [*BOTH, (C, S + b"x")]


def test_forwarded_message() -> None:
    inner = mail()
    inner.set_content(BODY, cte="base64")
    outer = mail(subject="Fwd: turn 3")
    outer.set_content("see below")
    outer.add_attachment(inner)
    assert read_entries(as_crlf_bytes(outer)) == BOTH


def test_code_fences_and_bbcode_in_mail() -> None:
    msg = mail()
    msg.set_content(f"```\n{armor(C, S)}```\n[code]{armor(C2, S2)}[/code]\n")
    assert read_entries(msg.as_bytes()) == BOTH


def test_looks_like_email() -> None:
    assert looks_like_email("From: a@b\nSubject: x\n\nbody")
    assert looks_like_email("From a@b Sat Jan  3 01:05:34 1996\nFrom: a@b\n\nbody")
    assert looks_like_email("Subject: a very\n long subject\r\nX-Mailer: y\r\n\r\nbody")
    assert not looks_like_email(BODY)
    assert not looks_like_email("note: my move\n\n" + armor(C, S))  # not a mail header
    assert not looks_like_email("From: a@b\nno header here\n\nbody")
    assert not looks_like_email("Subject: no blank line")
    assert not looks_like_email("")


def test_forum_post_with_header_like_first_line() -> None:
    text = "Subject: my move\n\n" + armor(C, S)
    assert read_entries(text) == [(C, S)]


def test_html_to_text() -> None:
    assert html_to_text("a<br>b&lt;c&nbsp;d<script>x</script>") == "a\nb<c\u00a0d"


# --- mbox files, HTML pages, MIME structure -----------------------------------------------------


def mbox(*messages: EmailMessage) -> bytes:
    out = b""
    for msg in messages:
        raw = msg.as_bytes().replace(b"\nFrom ", b"\n>From ")
        out += b"From bob@example.org Sat Jan  3 01:05:34 2026\n" + raw + b"\n"
    return out


def test_mbox_reads_every_message() -> None:
    first, second = mail(), mail(subject="turn 4")
    first.set_content("From the front:\n" + armor(C, S), cte="base64")
    second.set_content(armor(C2, S2), cte="quoted-printable")
    data = mbox(first, second)
    assert read_entries(data) == BOTH
    assert read_entries(data.decode()) == BOTH
    assert read_entries(b"\xef\xbb\xbf" + data) == BOTH
    assert "From the front:" in extract_text(data)  # the mboxrd ">From " is undone
    # one message alone is read as a mail, as before
    assert read_entries(mbox(first)) == [(C, S)]


def test_mbox_keeps_8bit_bodies_byte_exact() -> None:
    msg = mail()
    msg.set_content("Grüße\n" + armor(C, S), cte="8bit")
    other = mail()
    other.set_content(armor(C2, S2), cte="8bit")
    data = mbox(msg, other)
    assert b"Gr\xc3\xbc\xc3\x9fe" in data
    assert "Grüße" in extract_text(data)
    assert read_entries(data) == BOTH


def test_a_from_line_that_is_not_an_mbox() -> None:
    text = "From Bob, my move:\n\n" + armor(C, S) + "\nFrom here on I attack.\n" + armor(C2, S2)
    assert extract_text(text) == text
    assert read_entries(text) == BOTH


def test_html_page_is_converted() -> None:
    page = (
        "<!DOCTYPE html>\n<html><head><title>-----BEGIN PBEM ENTRY-----</title>"
        "<script>let a = '-----END PBEM ENTRY-----';</script></head><body>"
        f"<pre><code>{armor(C, S)}</code></pre>"
        "<p>" + "<br>".join(armor(C2, S2).replace("-", "&#45;").split("\n")) + "</p>"
        "</body></html>"
    )
    assert looks_like_html(page)
    assert looks_like_html("  <div class='post'>hi</div>")
    assert not looks_like_html(BODY)
    assert not looks_like_html("a <b>bold</b> claim\n" + armor(C, S))
    assert read_entries(page) == BOTH
    assert read_entries(page.encode()) == BOTH


def test_alternative_with_a_plain_part_without_armor_reads_the_html() -> None:
    msg = mail()
    msg.set_content("This message needs an HTML mail reader.")
    msg.add_alternative(f"<html><body><pre>{BODY}</pre></body></html>", subtype="html")
    assert read_entries(as_crlf_bytes(msg)) == BOTH


def test_forwarded_html_only_mail_under_a_plain_text_note() -> None:
    inner = mail()
    inner.set_content(_html_body(), subtype="html", cte="base64")
    outer = mail(subject="Fwd: turn 3")
    outer.set_content("see below")
    outer.add_attachment(inner)
    assert read_entries(as_crlf_bytes(outer)) == BOTH
