"""pbem.testing.same_bytes, the leak check's fast comparison, decides exactly as comparing
canonical_bytes does: the same answer for every pair, the same error for what is not
canonical JSON (even where Python's == or the C encoder alone would be fooled)."""

from __future__ import annotations

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.errors import CanonicalError
from pbem.testing import same_bytes, same_views

BIG = 10**5000  # past Python's int-to-text digit limit: canonical_bytes refuses it

PAIRS = [
    ({"a": [1, "x", None, True]}, {"a": [1, "x", None, True]}),  # equal
    ({"a": [1, 2]}, {"a": [2, 1]}),  # a real difference
    ({"a": 1}, {"a": True}),  # equal for Python, not in bytes
    ({"a": 0}, {"a": False}),
    ([1, [2]], (1, (2,))),  # a tuple is a list in canonical JSON
    ({"k": "Götterdämmerung"}, {"k": "Götterdämmerung"}),  # non-ASCII values
    ({"k": "é"}, {"k": "e"}),
    ({"t": (1, 2)}, {"t": (1, 2)}),
    ("text", "text"),
    (7, 7),
    (None, None),
    ({}, []),
]

REFUSED = [
    ({"a": 1}, {"a": 1.0}),  # a float equal for Python
    ({"a": 1.5}, {"a": 1.5}),  # the same float in both: still not canonical
    ({"1": "x"}, {1: "x"}),  # an int key that encodes like the str key
    ({1: "x"}, {1: "x"}),
    ({"é": 1}, {"é": 1}),  # a non-ASCII key
    ({"a": "\ud800"}, {"a": "\ud800"}),  # a lone surrogate
    ({"a": {1, 2}}, {"a": {1, 2}}),  # not a JSON value
    ({"a": BIG}, {"a": BIG}),
    ({"a": float("nan")}, {"a": float("nan")}),
]


def canonical_answer(a: object, b: object) -> bool | str:
    try:
        return canonical_bytes(a) == canonical_bytes(b)
    except CanonicalError as exc:
        return str(exc)


def fast_answer(a: object, b: object) -> bool | str:
    try:
        return same_bytes(a, b)
    except CanonicalError as exc:
        return str(exc)


@pytest.mark.parametrize(("a", "b"), PAIRS + [(b, a) for a, b in PAIRS])
def test_same_answer_as_canonical_bytes(a: object, b: object) -> None:
    assert fast_answer(a, b) == canonical_answer(a, b)


def test_the_pairs_cover_both_answers() -> None:
    answers = [canonical_answer(a, b) for a, b in PAIRS]
    assert True in answers and False in answers


@pytest.mark.parametrize(("a", "b"), REFUSED + [(b, a) for a, b in REFUSED])
def test_what_is_not_canonical_is_refused_with_the_same_message(a: object, b: object) -> None:
    expected = canonical_answer(a, b)
    assert isinstance(expected, str)
    assert fast_answer(a, b) == expected


def test_same_views_compares_part_by_part_with_the_same_rules() -> None:
    shared = {"map": [1, 2, 3]}
    assert same_views({"s": shared, "n": 1}, {"s": shared, "n": 1})
    assert not same_views({"s": shared, "n": 1}, {"s": shared, "n": True})
    with pytest.raises(CanonicalError):
        same_views({"s": shared, "n": [1.0]}, {"s": shared, "n": [1.0]})
