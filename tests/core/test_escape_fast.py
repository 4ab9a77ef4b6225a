"""pbem.escape's fast path (a text Python prints whole is its own escape) gives what the
patterns give, for every character; and pbem.lazy's patterns are re.compile's."""

from __future__ import annotations

import copy
import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem import escape
from pbem.lazy import lazy_pattern

_TERMINAL = re.compile(f"[{escape._UNSAFE}]")
_TERMINAL_LINE = re.compile(f"[\t\n{escape._UNSAFE}]")


def strict_terminal(text: str) -> str:
    return _TERMINAL.sub(escape._visible, text)


def strict_terminal_line(text: str) -> str:
    return _TERMINAL_LINE.sub(escape._visible, text)


def test_every_unsafe_character_is_one_python_does_not_print() -> None:
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if _TERMINAL_LINE.match(char):
            assert not char.isprintable(), hex(code)


def test_characters_alone_and_in_a_text() -> None:
    # (the test above is the proof; this samples it: the first planes' start whole)
    for code in [*range(0x3000), *range(0x3000, sys.maxunicode + 1, 97)]:
        char = chr(code)
        for text in (char, f"a{char}\n\tb"):
            assert escape.terminal(text) == strict_terminal(text), hex(code)
            assert escape.terminal_line(text) == strict_terminal_line(text), hex(code)


@given(st.text())
def test_any_text(text: str) -> None:
    assert escape.terminal(text) == strict_terminal(text)
    assert escape.terminal_line(text) == strict_terminal_line(text)
    assert escape.one_line(text) == strict_terminal_line(" ".join(text.split()))


def test_not_a_str() -> None:
    class Named(str):
        pass

    for value in (12, None, Named("a\x1bb"), Named("ab"), b"\x1b"):
        assert escape.terminal(value) == strict_terminal(str(value))
        assert type(escape.terminal(value)) is str
        assert escape.terminal_line(value) == strict_terminal_line(str(value))


def test_a_lazy_pattern_is_the_compiled_one() -> None:
    source = r"(?:\A|(?<=\n\n))From ([^\n]*)\n"
    lazy, strict = lazy_pattern(source, re.MULTILINE), re.compile(source, re.MULTILINE)
    text = "From a\n\nFrom b\nFrom c\n"
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in strict.finditer(text)]
    assert lazy.sub(r"<\1>", text) == strict.sub(r"<\1>", text)
    assert lazy.match(text).group(1) == strict.match(text).group(1)  # type: ignore[union-attr]
    assert (lazy.pattern, lazy.flags, lazy.groups) == (strict.pattern, strict.flags, 1)
    assert repr(lazy) == repr(strict)
    with pytest.raises(AttributeError):
        lazy.no_such_method  # type: ignore[attr-defined]  # noqa: B018
    assert copy.copy(lazy).search(text) is not None


def test_a_lazy_pattern_compiles_at_first_use_only() -> None:
    with pytest.raises(re.error):
        lazy_pattern("(").search("")  # the error comes at the first use
    lazy_pattern("(")  # not before
