"""The PBEM ENTRY armor (protocol section 7): exact output, lenient reading, strict damage."""

from __future__ import annotations

import base64
import os
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import ArmorError
from pbem.transport.armor import BEGIN, END, armor, decode_payload, encode_payload, find_entries

C = b'{"body":{},"by":"west","kind":"move","seq":17,"v":1}'
S = bytes(range(256))[:83]


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def damage(text: str) -> str:
    with pytest.raises(ArmorError) as exc:
        find_entries(text)
    message = str(exc.value)
    assert message and "\n" not in message
    return message


# --- writing ----------------------------------------------------------------------------


def test_armor_format() -> None:
    text = armor(C, S)
    lines = lines_of(text)
    assert lines[0] == BEGIN == "-----BEGIN PBEM ENTRY-----"
    assert lines[-2] == END == "-----END PBEM ENTRY-----"
    assert lines[-1] == ""  # ends with a newline
    body = lines[1:-2]
    assert all(len(line) == 64 for line in body[:-1])
    assert 0 < len(body[-1]) <= 64
    payload = "".join(body)
    assert payload == payload.upper() and "=" not in payload
    raw = struct.pack(">I", len(C)) + C + struct.pack(">I", len(S)) + S
    assert payload == base64.b32encode(raw).decode().rstrip("=")
    assert encode_payload(C, S) == payload


def test_round_trip() -> None:
    assert find_entries(armor(C, S)) == [(C, S)]
    assert find_entries(armor(b"", b"")) == [(b"", b"")]
    assert decode_payload(encode_payload(C, S)) == (C, S)
    assert decode_payload(encode_payload(C, S).lower()) == (C, S)


# --- what transport does to text ------------------------------------------------------------


def test_lowercase_including_markers() -> None:
    assert find_entries(armor(C, S).lower()) == [(C, S)]


@pytest.mark.parametrize("prefix", ["> ", "> > ", ">> ", "> >> > ", ">>>>", "  >  > ", "\t> "])
def test_quoting(prefix: str) -> None:
    quoted = "\n".join(prefix + line for line in lines_of(armor(C, S)))
    assert find_entries(quoted) == [(C, S)]


def test_quoting_depth_varies_line_to_line() -> None:
    lines = lines_of(armor(C, S))
    quoted = "\n".join(">" * (i % 4) + " " * (i % 2) + line for i, line in enumerate(lines))
    assert find_entries(quoted) == [(C, S)]


def test_crlf_trailing_spaces_and_blank_lines() -> None:
    lines = lines_of(armor(C, S))
    mangled = "\r\n".join(line + "  \t" for line in lines[:3]) + "\r\n\r\n> \r\n"
    mangled += "\r\n".join(line + " " for line in lines[3:])
    assert find_entries(mangled) == [(C, S)]


@pytest.mark.parametrize("width", [1, 7, 40, 63, 65, 76, 2000])
def test_rewrapped(width: int) -> None:
    payload = encode_payload(C, S)
    body = "\n".join(payload[i : i + width] for i in range(0, len(payload), width))
    assert find_entries(f"{BEGIN}\n{body}\n{END}") == [(C, S)]


def test_spaces_inside_payload_lines() -> None:
    # Some forums break long words with spaces; whitespace is never part of the payload.
    payload = encode_payload(C, S)
    spaced = " ".join(payload[i : i + 5] for i in range(0, len(payload), 5))
    assert find_entries(f"{BEGIN}\n{spaced}\n{END}\n") == [(C, S)]


def test_several_entries_with_human_text() -> None:
    other = (b'{"seq":18}', b"sig-2")
    text = (
        "Hi Bob,\n\ngame 3f9a0c1d seq 17 by west: attack 12 from 11 cubes 2\n"
        + armor(C, S)
        + "Rolls: 4, 6 -> defender retreats.\n\n"
        + armor(*other)
        + "-- \nAlice\n"
    )
    assert find_entries(text) == [(C, S), other]
    assert find_entries("no entries here\n---\n") == []


def test_code_fences_and_bbcode() -> None:
    entry = armor(C, S)
    fenced = f"Move:\n```\n{entry}```\n"
    assert find_entries(fenced) == [(C, S)]
    tagged = f"[quote=alice][code]\n{entry}[/code][/quote]"
    assert find_entries(tagged) == [(C, S)]
    # tags glued to the marker lines themselves
    same_line = f"[code]{entry.rstrip()}[/code]\n"
    assert find_entries(same_line) == [(C, S)]
    fence_same_line = "```" + entry.rstrip() + "```"
    assert find_entries(fence_same_line) == [(C, S)]


def test_smart_dashes_in_markers() -> None:
    text = armor(C, S).replace("-----", "\u2014\u2014")
    assert find_entries(text) == [(C, S)]


@pytest.mark.parametrize("reprefix", [False, True])
@pytest.mark.parametrize("cut", ["-----BEGIN PBEM", "-----BEGIN", "-----END PBEM", "-----END"])
def test_a_deeply_quoted_marker_rewrapped_at_a_space(cut: str, reprefix: bool) -> None:
    # A mail client wrapping "> > > > > > > > -----BEGIN PBEM ENTRY-----" at 40 columns
    # leaves its end on the next line, with or without the quote markers put back (found
    # by tests/transport/test_transport_properties.py).
    quote = "> " * 8
    text = "".join(quote + line + "\n" for line in armor(C, S).splitlines())
    whole = BEGIN if "BEGIN" in cut else END
    rest = whole[len(cut) :].lstrip()
    text = text.replace(quote + whole, quote + cut + "\n" + (quote if reprefix else "") + rest)
    assert cut + "\n" in text
    assert find_entries(text) == [(C, S)]


def test_a_marker_is_never_read_across_a_blank_line_or_prose() -> None:
    text = armor(C, S)
    assert "without a BEGIN" in damage(text.replace(BEGIN, "-----BEGIN PBEM\n\nENTRY-----"))
    assert "without a BEGIN" in damage(text.replace(BEGIN, "-----BEGIN PBEM\nsee ENTRY-----"))


def test_many_entries() -> None:
    entries = [(os.urandom(300), os.urandom(83)) for _ in range(2000)]
    text = "".join(f"seq {i}\n{armor(c, s)}" for i, (c, s) in enumerate(entries))
    assert find_entries(text) == entries


# --- damage ------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["!", "0", "1", "8", "9", "=", "\u00e9", "-", ">"])
def test_damaged_character(bad: str) -> None:
    text = "hello\n" + armor(b"first", b"sig") + "between\n" + armor(C, S)
    lines = lines_of(text)
    # line 1 hello, 2-4 entry 1, 5 between, 6 BEGIN, 7 and 8 the first payload lines
    assert lines[5] == BEGIN
    lines[7] = lines[7][:10] + bad + lines[7][11:]
    message = damage("\n".join(lines))
    assert "entry 2" in message
    assert "line 8" in message
    assert repr(bad) in message


def test_missing_end() -> None:
    text = armor(C, S)
    message = damage("intro\n" + text.replace(END, "thanks"))
    assert "entry 1" in message and "missing END" in message and "line 2" in message
    two = text.replace(END, "") + armor(C, S)
    assert "missing END" in damage(two)


def test_end_without_begin() -> None:
    assert "without a BEGIN" in damage(armor(C, S).replace(BEGIN, "x"))


def test_truncated_payload() -> None:
    lines = lines_of(armor(C, S))
    del lines[2]
    message = damage("\n".join(lines))
    assert "entry 1" in message and "line 1" in message


def test_not_whole_bytes() -> None:
    payload = encode_payload(C, S)
    for cut in (1, 2, 3):
        text = f"{BEGIN}\n{payload[:-cut]}\n{END}\n"
        with pytest.raises(ArmorError):
            find_entries(text)


def test_nonzero_padding_bits_are_damage() -> None:
    # len 57 + 4 + 83 + 4 = 148 bytes -> 237 symbols carrying 1 spare bit
    payload = encode_payload(C + b"xxxx", S)
    assert (5 * len(payload)) % 8 != 0
    last = payload[-1]
    flipped = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"["ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".index(last) ^ 1]
    assert "damaged" in damage(f"{BEGIN}\n{payload[:-1]}{flipped}\n{END}\n")


def _raw_armor(raw: bytes) -> str:
    payload = base64.b32encode(raw).decode().rstrip("=")
    return f"{BEGIN}\n{payload}\n{END}\n"


def test_bad_lengths_and_trailing_bytes() -> None:
    good = struct.pack(">I", len(C)) + C + struct.pack(">I", len(S)) + S
    assert "trailing" in damage(_raw_armor(good + b"\0"))
    assert "entry length" in damage(_raw_armor(struct.pack(">I", 10**6) + C))
    too_long_sig = struct.pack(">I", len(C)) + C + struct.pack(">I", len(S) + 1) + S
    assert "signature length" in damage(_raw_armor(too_long_sig))
    assert "short" in damage(_raw_armor(b"\0\0"))
    assert "entry 1" in damage(f"{BEGIN}\n\n{END}\n")


def test_decode_payload_errors() -> None:
    for payload in ("", "A", "AAA!AAAA", "AAAAAAAA"):
        with pytest.raises(ArmorError):
            decode_payload(payload)


# --- property ------------------------------------------------------------------------------

quote_prefix = st.lists(st.sampled_from([">", "> ", " ", ">>", "\t"]), max_size=4).map("".join)


@settings(max_examples=200, deadline=None)
@given(
    entries=st.lists(st.tuples(st.binary(max_size=400), st.binary(max_size=120)), max_size=3),
    prefix=quote_prefix,
    width=st.integers(min_value=1, max_value=200),
    newline=st.sampled_from(["\n", "\r\n"]),
    lower=st.booleans(),
    trailing=st.sampled_from(["", " ", "  \t"]),
)
def test_round_trip_property(
    entries: list[tuple[bytes, bytes]],
    prefix: str,
    width: int,
    newline: str,
    lower: bool,
    trailing: str,
) -> None:
    blocks = []
    for c, s in entries:
        payload = encode_payload(c, s)
        body = [payload[i : i + width] for i in range(0, len(payload), width)]
        blocks.append(["human text: move 1 -> 2", BEGIN, *body, END, ""])
    lines = [prefix + line + trailing for block in blocks for line in block]
    text = newline.join(lines)
    if lower:
        text = text.lower()
    assert find_entries(text) == entries


def test_marker_helpers() -> None:
    from pbem.transport.armor import has_marker, marker_kind

    assert marker_kind(BEGIN) == "BEGIN" and marker_kind("> > " + END.lower()) == "END"
    assert marker_kind("[code]" + BEGIN + "  ") == "BEGIN"
    assert marker_kind("see " + BEGIN) is None and marker_kind("AAAA") is None
    assert has_marker("hello\n> " + END + "\n") and not has_marker("BEGIN PBEM ENTRY")
