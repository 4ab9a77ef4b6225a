"""Canonical JSON (protocol section 3): one object, one byte string; everything else refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.canonical import canonical_bytes, parse_canonical
from pbem.errors import CanonicalError

SAMPLES: list[Any] = [
    0,
    -7,
    2**70,
    True,
    False,
    None,
    "",
    "plain",
    "été ☃ 𝄞",
    'quote " backslash \\ newline \n tab \t nul \x00',
    [],
    {},
    [1, "two", [3, {"four": None}]],
    {"b": 1, "a": {"z": [], "y": {"x": "é"}}, "_": False},
    {"rules": "toy-dice", "roles": {"a": "ssh-ed25519 AAAA a", "b": "ssh-ed25519 AAAA b"}},
]


@pytest.mark.parametrize("value", SAMPLES)
def test_round_trip(value: Any) -> None:
    data = canonical_bytes(value)
    assert parse_canonical(data) == value
    assert canonical_bytes(parse_canonical(data)) == data


def test_exact_bytes_sorted_compact_raw_utf8() -> None:
    value = {"b": 1, "a": [True, None, "é"], "c": {"y": 2, "x": -1}}
    assert canonical_bytes(value) == '{"a":[true,null,"é"],"b":1,"c":{"x":-1,"y":2}}'.encode()


def test_key_order_of_the_input_object_does_not_matter() -> None:
    assert canonical_bytes({"b": 1, "a": 2}) == canonical_bytes({"a": 2, "b": 1})


def test_json_dumps_ensure_ascii_false_form_is_canonical() -> None:
    value = {"name": "Götterdämmerung", "city": "Łódź", "note": "→ ok"}
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert parse_canonical(text.encode("utf-8")) == value


@pytest.mark.parametrize(
    "value", [1.0, 0.5, [1, 2.5], {"a": {"b": [0.0]}}, float("nan"), float("inf")]
)
def test_floats_refused_on_output(value: Any) -> None:
    with pytest.raises(CanonicalError, match="floating-point"):
        canonical_bytes(value)


@pytest.mark.parametrize(
    "text",
    [
        b"1.0",
        b"0.5",
        b"1e5",
        b"1E5",
        b"-1.5e-3",
        b"[1e5]",
        b'{"a":1e5}',
        b"NaN",
        b"Infinity",
        b"-Infinity",
        b'{"a":NaN}',
        b"[Infinity]",
    ],
)
def test_floats_refused_on_input(text: bytes) -> None:
    with pytest.raises(CanonicalError, match="floating-point"):
        parse_canonical(text)


def test_non_ascii_keys_refused() -> None:
    with pytest.raises(CanonicalError, match="non-ASCII key"):
        canonical_bytes({"é": 1})
    with pytest.raises(CanonicalError, match="non-ASCII key"):
        canonical_bytes({"ok": [{"ключ": 1}]})
    with pytest.raises(CanonicalError):
        parse_canonical('{"é":1}'.encode())
    # non-ASCII *values* are fine
    assert parse_canonical('{"e":"é"}'.encode()) == {"e": "é"}


@pytest.mark.parametrize(
    "text", [b'{"a":1,"a":1}', b'{"a":1,"a":2}', b'{"x":{"b":1,"b":2}}', b'[{"k":1,"k":1}]']
)
def test_duplicate_keys_refused(text: bytes) -> None:
    with pytest.raises(CanonicalError, match="duplicate key"):
        parse_canonical(text)


@pytest.mark.parametrize(
    "text",
    [
        b'{"a": 1}',  # space after the colon
        b'{"a":1, "b":2}',  # space after a comma
        b" 1",
        b"1 ",
        b"1\n",
        b"[1, 2]",
        b'{"b":1,"a":2}',  # unsorted keys
        b'{"a":{"d":1,"c":2}}',  # unsorted nested keys
        b'"\\u00e9"',  # escaped non-ASCII where raw UTF-8 is canonical
        b'"\\/"',  # needless escape
        b'"\\u0041"',
        b"-0",
        b"01",
        b"+1",
        b"[1,]",
        b"",
        b"\xef\xbb\xbf1",  # UTF-8 byte order mark
        b"tru",
        b"{'a':1}",
    ],
)
def test_non_canonical_input_refused(text: bytes) -> None:
    with pytest.raises(CanonicalError):
        parse_canonical(text)


def test_escaped_and_raw_forms_have_one_winner() -> None:
    raw = '"é"'.encode()
    escaped = b'"\\u00e9"'
    assert parse_canonical(raw) == "é"
    assert canonical_bytes("é") == raw
    with pytest.raises(CanonicalError, match="canonical form"):
        parse_canonical(escaped)


@pytest.mark.parametrize(
    "data",
    [
        b'"\xff"',
        b'"\xc3"',  # truncated two-byte sequence
        b'"\xc0\xaf"',  # overlong encoding of '/'
        b'"\xed\xa0\x80"',  # UTF-8-encoded surrogate
        '"é"'.encode("latin-1"),
        '"é"'.encode("utf-16"),
    ],
)
def test_non_utf8_refused(data: bytes) -> None:
    with pytest.raises(CanonicalError):
        parse_canonical(data)


@pytest.mark.parametrize("value", [{1: 2}, {None: 1}, b"bytes", {1, 2}, object(), [1, {"a": b""}]])
def test_non_json_values_refused(value: Any) -> None:
    with pytest.raises(CanonicalError):
        canonical_bytes(value)


def test_bool_is_not_an_int() -> None:
    assert canonical_bytes([True, 1]) == b"[true,1]"
    assert parse_canonical(b"[true,1]") == [True, 1]
    assert parse_canonical(b"true") is True


def test_canonical_error_is_a_value_error_with_one_line() -> None:
    with pytest.raises(ValueError) as caught:
        parse_canonical(b'{"b":1,"a":2}')
    assert "\n" not in str(caught.value)


# --- defects: errors that escape as something other than CanonicalError ------------------


def test_lone_surrogate_escape_refused_with_canonical_error() -> None:
    with pytest.raises(CanonicalError):
        parse_canonical(b'"\\ud800"')


def test_canonical_bytes_refuses_lone_surrogate_with_canonical_error() -> None:
    with pytest.raises(CanonicalError):
        canonical_bytes({"decision": "\ud800"})


@pytest.mark.parametrize("direction", ["parse", "build"])
def test_huge_integer_refused_with_canonical_error(direction: str) -> None:
    with pytest.raises(CanonicalError):
        if direction == "parse":
            parse_canonical(b"1" * 5000)
        else:
            canonical_bytes(10**5000)


# --- property ------------------------------------------------------------------------------

_ascii_keys = st.text(st.characters(min_codepoint=0, max_codepoint=127), max_size=8)
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(_ascii_keys, children, max_size=5)
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(_json)
def test_property_round_trip_without_floats(value: Any) -> None:
    data = canonical_bytes(value)
    assert canonical_bytes(parse_canonical(data)) == data
    assert parse_canonical(data) == value
    data.decode("utf-8")  # always valid UTF-8


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_ascii_keys, st.integers(), min_size=2, max_size=6))
def test_property_pretty_printed_form_is_refused(value: dict[str, int]) -> None:
    pretty = json.dumps(value, sort_keys=True, indent=1).encode()
    assert pretty != canonical_bytes(value)
    with pytest.raises(CanonicalError):
        parse_canonical(pretty)
