"""Fuzzing canonical JSON (protocol section 3) and Entry.from_wire.

parse_canonical gets arbitrary bytes and near-canonical JSON: the canonical bytes
of random values with one edit (whitespace, key order, escapes, number forms,
duplicate keys, floats, bad UTF-8, truncation). It must refuse with a one-line
CanonicalError, or accept exactly the bytes it would itself write. Entry.from_wire
gets the signed bytes of real entries, mutated: a PbemError, or an entry whose
bytes and id are exactly the input's.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pbem.core.canonical import canonical_bytes, parse_canonical
from pbem.core.log import Entry
from pbem.errors import CanonicalError, PbemError
from tests.fuzz.fuzzing import check_message, fuzz_settings, mutated, outcome, sample_pairs

KEYS = st.text(st.characters(max_codepoint=127), max_size=6)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.text(max_size=12).filter(lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)
JSON_NOISE = (
    b" ",
    b"\n",
    b"\t",
    b",",
    b":",
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b"\\",
    b"\\u0041",
    b"\\ud800",
    b"\\/",
    b"1.5",
    b"1e3",
    b"-0",
    b"01",
    b"NaN",
    b"Infinity",
    b"true",
    b"null",
    b'"a":1,"a":1',
    b"\xc3",
    b"\xff",
    b"\xef\xbb\xbf",
    b"9" * 5000,
    b"[" * 3000,
)


def accepted_exactly(data: bytes) -> None:
    """Refused with a clean CanonicalError, or accepted as exactly its canonical bytes."""
    try:
        value = parse_canonical(data)
    except CanonicalError as exc:
        check_message(exc)
        return
    assert canonical_bytes(value) == data


@fuzz_settings(200)
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data: bytes) -> None:
    accepted_exactly(data)


@fuzz_settings(200)
@given(st.text(alphabet='{}[]",:0123456789-+.eE tfrunlsa\\u\n', max_size=80))
def test_json_like_text(text: str) -> None:
    accepted_exactly(text.encode())


@fuzz_settings(150)
@given(JSON_VALUES)
def test_canonical_values_are_accepted(value: Any) -> None:
    data = canonical_bytes(value)
    assert parse_canonical(data) == value


@fuzz_settings(200)
@given(st.data())
def test_near_canonical(data: st.DataObject) -> None:
    value = data.draw(JSON_VALUES)
    canonical = canonical_bytes(value)
    variant = data.draw(
        st.sampled_from(
            [
                json.dumps(value, sort_keys=True).encode(),  # spaces after , and :
                json.dumps(value, separators=(",", ":")).encode(),  # keys maybe unsorted
                json.dumps(value, sort_keys=True, separators=(",", ":")).encode(),  # \u escapes
                canonical + b"\n",
                b" " + canonical,
            ]
        )
        | mutated(canonical, JSON_NOISE)
    )
    accepted_exactly(variant)


def from_wire(data: bytes) -> Entry:
    entry = Entry.from_wire(data, b"sig")
    assert entry.canonical == data
    assert entry.id == hashlib.sha256(data).hexdigest()
    assert entry.kind and entry.by and isinstance(entry.body, dict)
    return entry


@fuzz_settings(200)
@given(st.data())
def test_mutated_entries(data: st.DataObject) -> None:
    entry = data.draw(st.sampled_from(sample_pairs()))
    outcome(from_wire, data.draw(mutated(entry.canonical, JSON_NOISE)), keep_as="entry")


@fuzz_settings(150)
@given(st.data())
def test_entry_fields_changed(data: st.DataObject) -> None:
    """Canonical entries with a field deleted, retyped or added: shape errors, one line each."""
    entry = data.draw(st.sampled_from(sample_pairs()))
    fields = dict(entry.data)
    key = data.draw(st.sampled_from(sorted(fields) + ["extra", "\n", "v\r"]))
    change = data.draw(st.sampled_from(["delete", "retype", "set"]))
    if change == "delete":
        fields.pop(key, None)
    else:
        fields[key] = data.draw(
            JSON_VALUES
            if change == "retype"
            else st.sampled_from(
                [0, -1, 1, 2**64, "", "genesis", "join", "move", "ack", "0" * 64, "A" * 64, {}, []]
            )
        )
    outcome(from_wire, canonical_bytes(fields), keep_as="entry")


def test_real_entries_parse() -> None:
    for entry in sample_pairs():
        assert from_wire(entry.canonical).id == entry.id


def test_unknown_field_with_a_newline_is_one_line() -> None:
    """Regression (fuzz/corpus/entry/unknown-field-newline): the field name was printed raw."""
    fields = dict(sample_pairs()[0].data)
    fields["x\ny"] = 1
    try:
        Entry.from_wire(canonical_bytes(fields), b"")
    except PbemError as exc:
        assert check_message(exc) == "unknown entry field(s): 'x\\ny'"
    else:
        raise AssertionError("an unknown field was accepted")
