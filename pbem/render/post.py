"""Forum posts: a public turn summary followed by the armored entries to apply.

Everyone reads a forum thread, so a post shows the public view unless a role is named,
and never a role's own sealed values. The entries sit in a [code] block (BBCode) or a
fenced block (Markdown), which forums show verbatim and the armor reader looks through.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pbem import escape
from pbem.core.adjudicator import Adjudicator
from pbem.core.log import Entry
from pbem.errors import PbemError
from pbem.render.summary import render_summary
from pbem.transport.savefile import move_file

POST_FORMATS = ("markdown", "bbcode")


def last_move(game: Adjudicator) -> list[Entry]:
    """The entries a post carries by default: the last run of entries by one role."""
    entries = game.entries
    if not entries:
        return []
    author = entries[-1].by
    start = len(entries)
    while start > 0 and entries[start - 1].by == author:
        start -= 1
    return list(entries[start:])


def render_post(game: Adjudicator, role: str | None, fmt: str, entries: Sequence[Entry]) -> str:
    if fmt not in POST_FORMATS:
        raise PbemError(f"a post is {' or '.join(POST_FORMATS)}, not {fmt!r}")
    if not entries:
        raise PbemError("no entries to post")
    summary = render_summary(game, role, fmt).rstrip("\n")
    block = move_file(entries).rstrip("\n")
    first, last = entries[0].seq, entries[-1].seq
    seqs = f"#{first}" if first == last else f"#{first}-#{last}"
    how = f"Entries {seqs} for pbem (copy the block, then `pbem apply FILE`):"
    if fmt == "bbcode":
        # No bracket in the block's human lines can end the [code] block (the armor
        # itself has none); the human lines are never read back.
        block = "\n".join(escape.bbcode(line) for line in block.split("\n"))
        return f"{summary}\n\n{how}\n[code]\n{block}\n[/code]\n"
    # A fence longer than any run of backticks in the block: nothing in it can close it.
    block = escape.terminal(block)
    longest = max((len(run) for run in re.findall(r"`+", block)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{summary}\n\n{how}\n\n{fence}\n{block}\n{fence}\n"
