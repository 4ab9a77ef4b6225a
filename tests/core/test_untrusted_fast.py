"""The untrusted-text check of an entry (core/log.py `_check_text`) refuses exactly the
entries whose strings hold a character of UNTRUSTED: its fast answers (an ASCII text, a
text holding none of them) agree with the walk of every string (`untrusted_character`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.core.canonical import canonical_bytes
from pbem.core.log import (
    Entry,
    UntrustedTextError,
    _check_text,
    _untrusted,
    untrusted_character,
)

# Characters near every edge of UNTRUSTED, plain text and accents among them.
EDGES = "".join(
    chr(c)
    for c in (
        *range(0x00, 0x21),
        0x5C,  # backslash
        *range(0x7D, 0xA2),
        0xE4,
        0xF6,
        *range(0x2026, 0x2030),
        *range(0x2064, 0x206B),
        0xFEFF,
        0x1F600,
    )
)
texts = st.text(alphabet=st.sampled_from(EDGES) | st.characters(), max_size=12)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | texts,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet=st.sampled_from(EDGES), max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _refused(entry: Entry) -> bool:
    try:
        _check_text(entry)
    except UntrustedTextError:
        return True
    return False


@given(values, st.text(alphabet=st.sampled_from(EDGES) | st.characters(), max_size=6))
def test_the_fast_answers_are_the_walks(body: object, key: str) -> None:
    data = {"body": {"x": body, key: "value"}, "kind": "move", "seq": 1, "by": "a"}
    try:
        canonical = canonical_bytes(data)
    except Exception:
        return  # (a lone surrogate: never an entry)
    entry = Entry(canonical, b"", data, "")
    assert _refused(entry) == (untrusted_character(data) is not None)


@pytest.mark.parametrize("char", [chr(c) for c in range(0x110000) if _untrusted().match(chr(c))])
def test_every_untrusted_character_is_refused_in_a_non_ascii_text(char: str) -> None:
    data = {"body": {"title": f"Götterdämmerung {char}"}, "kind": "move", "seq": 1, "by": "a"}
    entry = Entry(canonical_bytes(data), b"", data, "")
    assert _refused(entry)
    ok = {"body": {"title": "Götterdämmerung"}, "kind": "move", "seq": 1, "by": "a"}
    assert not _refused(Entry(canonical_bytes(ok), b"", ok, ""))
