"""Save files and move files (protocol section 6): armored entries with human text around.

A save is a short human header, every entry of the game in order (each after a
human line), and the RNG log. Nothing human is trusted: `verify` recomputes the
header's facts and refuses a save whose RNG log differs from the recomputed one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pbem.core.adjudicator import Adjudicator
from pbem.core.log import GENESIS, JOIN, Entry
from pbem.transport.armor import armor

SAVE_MAGIC = "PBEM SAVE v1"
RNG_HEADER = "RNG LOG"
_QUOTE = re.compile(r"^[>\s]*")


def human_line(entry: Entry) -> str:
    """The untrusted one-line description printed above an entry's armor."""
    game = (entry.game or entry.id)[:8]
    if entry.kind == GENESIS:
        what = f"new game of {entry.body.get('rules')}"
    elif entry.kind == JOIN:
        what = "joins"
    elif "decision" in entry.body:
        what = str(entry.body["decision"])
    else:
        what = entry.kind
    return f"game {game} seq {entry.seq} by {entry.by}: {what}"


def move_file(entries: Iterable[Entry]) -> str:
    """Text to paste into a mail or a forum: each entry with its human line."""
    blocks = [f"{human_line(e)}\n{armor(e.canonical, e.signature)}" for e in entries]
    return "\n".join(blocks)


def save_text(game: Adjudicator, title: str, fingerprints: dict[str, str]) -> str:
    outcome = game.outcome()
    result = outcome.text if outcome is not None else "unfinished"
    witness = "self-witnessed" if game.self_witnessed else "witnessed by another role"
    lines = [
        SAVE_MAGIC,
        f"title: {title}",
        f"rules: {game.engine.name} {game.engine.version}",
        f"game: {game.id}",
        "roles: " + ", ".join(f"{role} {fp}" for role, fp in fingerprints.items()),
        f"result: {result}",
        f"entries: {len(game.entries)}",
        f"dice: {witness}",
        "",
        move_file(game.entries),
        RNG_HEADER,
    ]
    lines.extend(record.line() for record in game.rng_log)
    return "\n".join(lines) + "\n"


def rng_lines(text: str) -> list[str] | None:
    """The RNG log lines of a save (quote markers stripped), or None if it has none.

    Lines of every RNG LOG section count: a second section cannot hide a first one.
    """
    found: list[str] | None = None
    for raw in text.splitlines():
        line = _QUOTE.sub("", raw).rstrip()
        if line == RNG_HEADER:
            found = found if found is not None else []
        elif found is not None and line.startswith("rng "):
            found.append(line)
    return found
