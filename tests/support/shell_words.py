"""What "shell-safe" means for a decision's canonical text (issue 14): typed unquoted after
`pbem move GAME` on a POSIX shell command line, it reaches pbem word for word."""

from __future__ import annotations

import shlex

# Characters a POSIX shell (or bash's interactive history expansion, `!`) treats specially
# anywhere in a word; `~` only starts a word specially, but no decision needs it at all.
SPECIAL = frozenset("|&;<>()$`\\\"'*?[]#~!{}")
# Special at the start of a word only: `=` (zsh's =cmd expansion), `%` (job specs).
WORD_START = frozenset("=%")


def shell_problems(text: str) -> list[str]:
    """Why `text` would not reach pbem unchanged when typed unquoted (empty: it would)."""
    problems = [f"{c!r} is special to the shell" for c in sorted(set(text) & SPECIAL)]
    problems += [f"{w!r} starts with {w[0]!r}" for w in text.split() if w[0] in WORD_START]
    if any(c in text for c in "\t\n\r"):
        problems.append("holds a tab or a line break")
    if not problems and shlex.split(text) != text.split():
        problems.append("shlex splits it otherwise than on spaces")
    return problems


def assert_shell_safe(text: str) -> None:
    problems = shell_problems(text)
    assert not problems, f"{text!r} is not shell-safe: {'; '.join(problems)}"
    assert shlex.split(text) == text.split()
