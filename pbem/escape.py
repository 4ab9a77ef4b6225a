"""Escaping untrusted text for the medium it is written to (protocol section 8).

Everything that came from a game's log or from mail (titles, role names, decisions,
events, dice purposes, a key's comment, a mail's Subject and From, an error message that
quotes any of them) is written through one of these at the point of output:

* `terminal`: control characters and the characters that reorder or break a line are
  shown as Python writes them in a string literal (`\\x1b`, `\\x9b`, `\\u202e`), so an
  escape sequence arrives as text and never reaches the terminal; `terminal_line` does
  the same to newlines and tabs, for one field on one line;
* `markdown`: the markup characters are backslash-escaped (`\\*`, `\\[`, `\\|`, `\\<`, ...),
  and line breaks become spaces; `markdown_code` makes a code span that no backtick in
  the text can close;
* `bbcode`: square brackets become their full-width forms (`［url］`), which no forum
  reads as a tag and every reader still recognises;
* `html`: `html.escape` (and jinja2's autoescape for HTML templates).

Each also neutralises control characters, and each is idempotent except `markdown`
(`markdown` of its own output escapes its backslashes again): the rendering code applies
it once, to the raw value.
"""

from __future__ import annotations

import re

from pbem.lazy import lazy_pattern

# C0 and C1 controls and DEL; bidi embeddings, overrides, isolates and marks; line and
# paragraph separators; lone surrogates (undecodable bytes kept by surrogateescape).
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = f"\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}\u2028\u2029\ud800-\udfff"
_TERMINAL = lazy_pattern(f"[{_UNSAFE}]")
_TERMINAL_LINE = lazy_pattern(f"[\t\n{_UNSAFE}]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# Every character of _UNSAFE is one Python does not print (a control, format, separator or
# surrogate: str.isprintable is False for each, tests/core/test_escape_fast.py checks all of
# them), so a text Python prints whole holds none: it is its own escape, with no pattern
# compiled for it (compiling these two is most of importing this module).


def terminal(text: object) -> str:
    """`text` safe to print: every control character but newline and tab made visible."""
    text = str(text)
    if text.replace("\n", "").replace("\t", "").isprintable():
        return text
    return _TERMINAL.sub(_visible, text)


def terminal_line(text: object) -> str:
    """One field on one line: like `terminal`, newlines and tabs made visible too."""
    text = str(text)
    if text.isprintable():
        return text
    return _TERMINAL_LINE.sub(_visible, text)


def one_line(text: object) -> str:
    """A header-like value (a mail Subject or From) on one line: runs of whitespace,
    line breaks included, become one space, and what remains is made visible."""
    return terminal_line(" ".join(str(text).split()))


_MD_ANYWHERE = lazy_pattern(r"([\\`*_\[\]<>&|~])")
# What only means something at the start of a line: a heading, a list, a quote, a rule.
_MD_START = lazy_pattern(r"^(\s*)([#+=-]|\d+(?=[.)]))")


def markdown(text: object) -> str:
    """Plain text inside Markdown (CommonMark, GitHub, forums): no markup, no HTML, no
    links, no table cell breaks, on one line."""
    flat = " ".join(terminal(text).splitlines())
    escaped = _MD_ANYWHERE.sub(r"\\\1", flat)
    match = _MD_START.match(escaped)
    if match is None:
        return escaped
    lead, mark = match.group(1), match.group(2)
    if mark[0].isdigit():  # "1." or "1)": escape the dot or the parenthesis after it
        rest = escaped[match.end() :]
        return f"{lead}{mark}\\{rest}"
    return f"{lead}\\{escaped[match.start(2) :]}"


def markdown_code(text: object) -> str:
    """`text` as an inline code span: fenced by more backticks than it holds in a row."""
    flat = " ".join(terminal(text).splitlines())
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    if flat.startswith("`") or flat.endswith("`"):
        flat = f" {flat} "
    return f"{fence}{flat}{fence}"


_BB = str.maketrans({"[": "\uff3b", "]": "\uff3d"})


def bbcode(text: object) -> str:
    """Plain text inside BBCode: no tag (not even a `[/code]` that ends a code block)."""
    return " ".join(terminal(text).splitlines()).translate(_BB)


def html(text: object) -> str:
    """Plain text inside HTML, attribute values included."""
    import html as stdlib_html  # only when HTML is written

    return stdlib_html.escape(terminal(text), quote=True)
