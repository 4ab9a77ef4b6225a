"""pbem.maps.svg writes attributes and text as xml.sax.saxutils would (it does not import
saxutils, whose urllib import a cold `pbem show` would pay): the same bytes."""

from __future__ import annotations

from xml.sax.saxutils import escape as sax_escape
from xml.sax.saxutils import quoteattr as sax_quoteattr

from hypothesis import given
from hypothesis import strategies as st

from pbem.maps.svg import escape, quoteattr

SAMPLES = [
    "",
    "plain",
    "a & b < c > d",
    'say "hi"',
    "it's",
    "both \" and '",
    "&amp; already",
    "tab\there\nnew\rline",
    "\u2028 é 🜲",
]


def test_samples_match_saxutils() -> None:
    for text in SAMPLES:
        assert escape(text) == sax_escape(text)
        assert quoteattr(text) == sax_quoteattr(text)


@given(st.text(alphabet=st.sampled_from("ab&<>\"'\n\r\t é;#")))
def test_any_text_matches_saxutils(text: str) -> None:
    assert escape(text) == sax_escape(text)
    assert quoteattr(text) == sax_quoteattr(text)
