"""Property tests: real signed entries survive whatever mail clients and forums do to text.

A message holds 1-3 entries of the demo saves, each after its human line (as
`move_file` writes them). Random compositions of quoting (nested replies too),
re-flowed human lines, re-wrapped armor, trailing spaces, CRLF, code fences and
BBCode, then packaging as a raw RFC 5322 message (quoted-printable, base64,
multipart/alternative, HTML-only, forwarded), must read back as exactly the
original (canonical, signature) pairs, in order.

Damage that still decodes must be reported as damage (a signature that does not
verify, or a block that is not a valid entry), never as a rules error.
"""

from __future__ import annotations

import email.policy
import html
import re
import textwrap
from collections.abc import Callable
from email.message import EmailMessage
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.log import Entry
from pbem.errors import ArmorError
from pbem.transport.armor import BEGIN, END, encode_payload, find_entries
from pbem.transport.movefile import read_entries
from pbem.transport.savefile import human_line
from pbem.verify import verify_text

SAVES = Path(__file__).resolve().parents[2] / "saves"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
Pair = tuple[bytes, bytes]


@cache
def save_text(name: str) -> str:
    return (SAVES / name).read_text(encoding="utf-8")


@cache
def sample_entries() -> tuple[Pair, ...]:
    """A handful of real signed entries: geneses (the longest), joins, moves, acks."""
    picked: list[Pair] = []
    for name in ("barbarossa-demo.pbem", "race-to-berlin-demo.pbem"):
        found = read_entries(save_text(name))
        picked += [found[i] for i in (0, 1, 5, 17, len(found) - 1)]
    return tuple(picked)


# --- building a message ----------------------------------------------------------------------


def armored(pair: Pair, width: int) -> list[str]:
    payload = encode_payload(*pair)
    body = [payload[i : i + width] for i in range(0, len(payload), width)]
    return [BEGIN, *body, END]


def human_lines(pair: Pair, width: int | None) -> list[str]:
    line = human_line(Entry.from_wire(*pair))
    return textwrap.wrap(line, width) if width else [line]


def quote(lines: list[str], depth: int, style: str) -> list[str]:
    return [style * depth + line for line in lines]


def mail_wrap(lines: list[str], width: int, reprefix: bool) -> list[str]:
    """A mail client breaking long lines: at a space if it can, else hard (long words)."""
    out: list[str] = []
    for line in lines:
        quote = line[: len(line) - len(line.lstrip("> "))]
        prefix = quote if reprefix else ""
        while len(line) > width:
            start = len(quote) if line.startswith(quote) else len(prefix)
            cut = line.rfind(" ", start + 1, width + 1)
            if cut <= start:
                cut = width
            out.append(line[:cut])
            rest = line[cut:].lstrip(" ")
            if not rest:
                line = ""
                break
            line = prefix + rest
        out.append(line)
    return out


Transform = Callable[[list[str]], list[str]]


@st.composite
def transforms(draw: st.DrawFn) -> Transform:
    """One thing a mail client or a forum does to the lines of a message."""
    kinds = ["quote", "wrap", "trailing", "strip", "fence", "bbcode", "blank", "case"]
    kind = draw(st.sampled_from(kinds))
    if kind == "quote":
        depth = draw(st.integers(1, 3))
        style = draw(st.sampled_from(["> ", ">"]))
        attribution = draw(st.sampled_from(["", "On Monday, Bob wrote:"]))
        return lambda lines: ([attribution] if attribution else []) + quote(lines, depth, style)
    if kind == "wrap":
        width = draw(st.integers(40, 78))
        reprefix = draw(st.booleans())
        return lambda lines: mail_wrap(lines, width, reprefix)
    if kind == "trailing":
        pad = draw(st.sampled_from([" ", "  ", "\t", " \t "]))
        return lambda lines: [line + pad for line in lines]
    if kind == "strip":
        return lambda lines: [line.rstrip() for line in lines]
    if kind == "fence":
        lang = draw(st.sampled_from(["", "text"]))
        return lambda lines: ["```" + lang, *lines, "```"]
    if kind == "blank":
        return lambda lines: [x for line in lines for x in (line, "")]
    if kind == "case":  # a case-folding forum
        upper = draw(st.booleans())
        return lambda lines: [line.upper() if upper else line.lower() for line in lines]
    return lambda lines: ["[quote=bob][code]", *lines, "[/code][/quote]"]


@st.composite
def messages(draw: st.DrawFn) -> tuple[str, list[Pair]]:
    """Message text (LF line ends) and the entries it carries, in order.

    Built as a thread: each step adds a reply with 0-2 new entries above the quoted
    previous text, or transforms the text so far.
    """
    pool = sample_entries()
    pick = st.sampled_from(pool)

    def block(pairs: list[Pair]) -> list[str]:
        lines: list[str] = []
        for pair in pairs:
            width = draw(st.sampled_from([None, 20, 33, 50]))
            armor_width = draw(st.one_of(st.just(64), st.integers(16, 76)))
            armor = armored(pair, armor_width)
            wrapper = draw(st.sampled_from(["", "fence", "code", "code-glued"]))
            if wrapper == "fence":
                armor = ["```", *armor, "```"]
            elif wrapper == "code":
                armor = ["[code]", *armor, "[/code]"]
            elif wrapper == "code-glued":
                armor = ["[code]" + armor[0], *armor[1:-1], armor[-1] + "[/code]"]
            lines += human_lines(pair, width) + armor
        return lines

    first = draw(st.lists(pick, min_size=1, max_size=3))
    lines = ["Hi Alice,", "", *block(first), "", "-- ", "Bob"]
    expected = list(first)
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            lines = draw(transforms())(lines)
        else:  # a reply: new entries on top, the previous mail quoted below
            new = draw(st.lists(pick, max_size=2))
            style = draw(st.sampled_from(["> ", ">"]))
            lines = ["Thanks.", *block(new), "", "On Sunday, Alice wrote:", *quote(lines, 1, style)]
            expected = new + expected
    # Every mail or forum step may also transform, whatever the thread did before.
    for transform in draw(st.lists(transforms(), max_size=3)):
        lines = transform(lines)
    return "\n".join(lines) + "\n", expected


# --- packaging -------------------------------------------------------------------------------


def new_mail(subject: str = "Barbarossa: turn 3") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Bob <bob@example.org>"
    msg["To"] = "Alice <alice@example.org>"
    msg["Subject"] = subject
    return msg


def as_html(text: str, how: str) -> str:
    escaped = html.escape(text, quote=False)
    if how == "pre":
        inner = f"<pre>{escaped}</pre>"
    elif how == "br":
        inner = "<br>\n".join(escaped.split("\n"))
    elif how == "br-one-line":
        inner = "<br />".join(escaped.split("\n"))
    else:  # one <div> per line, as some webmail writes
        inner = "".join(f"<div>{line or '<br>'}</div>" for line in escaped.split("\n"))
    return f"<html><head><title>mail</title></head><body><p>Move:</p>{inner}</body></html>"


@st.composite
def deliveries(draw: st.DrawFn) -> tuple[str, str, bool, str]:
    """How a text is delivered: (kind, transfer encoding, CRLF, HTML style)."""
    kind = draw(
        st.sampled_from(
            ["plain", "bytes", "text/plain", "alternative", "html-only", "forwarded", "attached"]
        )
    )
    cte = draw(st.sampled_from(["quoted-printable", "base64", "8bit"]))
    how = draw(st.sampled_from(["pre", "br", "br-one-line", "div"]))
    return kind, cte, draw(st.booleans()), how


def deliver(text: str, how_delivered: tuple[str, str, bool, str]) -> bytes | str:
    """`text` as delivered: plain (str or bytes, CRLF or not) or a raw RFC 5322 message.

    Built outside the strategies: the email package draws MIME boundaries at random.
    """
    kind, cte, crlf, how = how_delivered
    if kind in ("plain", "bytes"):
        body = text.replace("\n", "\r\n") if crlf else text
        return body.encode() if kind == "bytes" else body
    policy = email.policy.SMTP if crlf else email.policy.default
    return build_mail(text, kind, cte, how).as_bytes(policy=policy)


def build_mail(text: str, kind: str, cte: str, how: str) -> EmailMessage:
    msg = new_mail()
    if kind == "text/plain":
        msg.set_content(text, cte=cte)
    elif kind == "alternative":
        msg.set_content(text, cte=cte)
        msg.add_alternative(as_html(text, how), subtype="html", cte=cte)
    elif kind == "html-only":
        msg.set_content(as_html(text, how), subtype="html", cte=cte)
    elif kind == "attached":
        msg.set_content("My move is attached.")
        msg.add_attachment(text.encode(), maintype="text", subtype="plain", filename="m.txt")
    else:  # forwarded as a message/rfc822 attachment; the original may be HTML only
        inner_kind = {"quoted-printable": "text/plain", "base64": "html-only"}.get(cte)
        inner = build_mail(text, inner_kind or "alternative", cte, how)
        msg.set_content("Forwarding Bob's move, see below.")
        msg.add_attachment(inner)
    return msg


# --- the properties --------------------------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_entries_survive_mail_and_forums(data: st.DataObject) -> None:
    text, expected = data.draw(messages(), label="message")
    delivered = deliver(text, data.draw(deliveries(), label="delivered"))
    assert read_entries(delivered) == expected


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_an_mbox_of_the_thread_reads_every_message(data: st.DataObject) -> None:
    texts = [data.draw(messages(), label=f"mail {i}") for i in range(data.draw(st.integers(1, 3)))]
    texts = [("From the front:\n" + text, pairs) for text, pairs in texts]
    parts = []
    for text, _ in texts:
        msg = new_mail()
        msg.set_content(text, cte=data.draw(st.sampled_from(["quoted-printable", "base64"])))
        raw = re.sub(rb"(?m)^(>*From )", rb">\1", msg.as_bytes())  # mboxrd escaping
        parts.append(b"From bob@example.org Sat Jan  3 01:05:34 2026\n" + raw + b"\n")
    mbox = b"".join(parts)
    assert read_entries(mbox) == [pair for _, pairs in texts for pair in pairs]


def test_the_transforms_really_transform() -> None:
    """The building blocks above do what they claim (else the properties prove little)."""
    pair = sample_entries()[0]
    lines = armored(pair, 64)
    assert quote(lines, 2, "> ")[0] == "> > " + BEGIN
    wrapped = mail_wrap(quote(lines, 3, "> "), 40, reprefix=True)
    assert max(map(len, wrapped)) <= 40 and len(wrapped) > len(lines)
    assert all(line.startswith("> > > ") for line in wrapped)
    assert read_entries("\n".join(wrapped)) == [pair]
    qp = new_mail()
    qp.set_content("\n".join(armored(pair, 2000)), cte="quoted-printable")
    assert b"=\n" in qp.as_bytes()  # a 2000-character line gets soft breaks
    assert read_entries(qp.as_bytes()) == [pair]


# --- damage ----------------------------------------------------------------------------------


def flip(payload: str, index: int, shift: int) -> str:
    new = B32[(B32.index(payload[index]) + shift) % 32]
    return payload[:index] + new + payload[index + 1 :]


def _says_damage(failure: str, pair: Pair) -> bool:
    entry_named = any(f"entry block {n}" in failure for n in range(1, 1000))
    if "is damaged" in failure and entry_named:
        return True  # bytes that are not an entry at all: the block is named
    return "signature" in failure


@pytest.mark.parametrize("save", ["barbarossa-demo.pbem", "race-to-berlin-demo.pbem"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_damage_is_reported_as_damage(save: str, data: st.DataObject) -> None:
    text = save_text(save)
    found = read_entries(text)
    number = data.draw(st.integers(1, len(found)), label="entry block")
    pair = found[number - 1]
    entry = Entry.from_wire(*pair)
    payload = encode_payload(*pair)
    index = data.draw(st.integers(0, len(payload) - 1), label="index")
    damaged = flip(payload, index, data.draw(st.integers(1, 31), label="shift"))
    lines = [damaged[i : i + 64] for i in range(0, len(damaged), 64)]
    original = "\n".join([BEGIN, *[payload[i : i + 64] for i in range(0, len(payload), 64)]])
    assert original in text
    report = verify_text(text.replace(original, "\n".join([BEGIN, *lines]), 1))
    assert not report.ok and report.failure is not None
    failure = report.failure
    assert "\n" not in failure
    try:
        find_entries("\n".join([BEGIN, *lines, END]))
    except ArmorError:
        assert "armored entry" in failure  # undecodable damage: an armor error
        return
    assert _says_damage(failure, pair), failure
    if "signature" in failure:
        assert "entry " in failure and "refused" in failure
        # the entry is named: by its seq when that was not damaged, else by its block
        assert entry.describe() in failure or f"entry block {number}" in failure


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_changed_canonical_byte_with_the_old_signature_names_the_signature(
    data: st.DataObject,
) -> None:
    text = save_text("barbarossa-demo.pbem")
    found = read_entries(text)
    number = data.draw(st.integers(1, len(found)), label="entry block")
    canonical, signature = found[number - 1]
    at = data.draw(st.integers(0, len(canonical) - 1), label="byte")
    # a printable ASCII byte, so the entry usually still parses and only the signature fails
    new = data.draw(st.integers(0x20, 0x7E).filter(lambda b: b != canonical[at]), label="new")
    changed = canonical[:at] + bytes([new]) + canonical[at + 1 :]
    old_payload = encode_payload(canonical, signature)
    old = "\n".join(old_payload[i : i + 64] for i in range(0, len(old_payload), 64))
    new_payload = encode_payload(changed, signature)
    assert old in text
    report = verify_text(text.replace(old, new_payload, 1))
    assert not report.ok and report.failure is not None
    assert _says_damage(report.failure, (changed, signature)), report.failure
    if "is damaged" in report.failure:
        return  # bytes that no longer parse (a float, say): named as damage with the reason
    for word in ("illegal", "not allowed", "out of turn", "does not follow"):
        assert word not in report.failure
