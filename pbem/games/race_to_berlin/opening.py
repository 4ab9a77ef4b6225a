"""The end-of-turn opening (protocol section 5 for rulebook 4.1).

When the blocks leave the board at the end of the Action Phase (or when the game is
decided), each player opens, in one "open blocks" decision, every one of its blocks of
the turn that is still sealed. Both players are asked at once (the openings do not depend
on each other). Every claim made while a block was sealed is checked again; a false one
refuses the opening entry, naming the claiming entry.
"""

from __future__ import annotations

from pbem.core.engine import Context
from pbem.games.race_to_berlin.blocks import open_block, recheck_all, sealed_labels
from pbem.games.race_to_berlin.decisions import OpenBlocks
from pbem.games.race_to_berlin.flow import after_opening
from pbem.games.race_to_berlin.state import NAMES, ROLES, State, illegal


def open_blocks(state: State, role: str, d: OpenBlocks, ctx: Context) -> None:
    labels = sealed_labels(state, role)
    if not labels:
        raise illegal(f"{NAMES[role]} has no sealed block to open", "4.1")
    opened = ctx.opened_now()
    missing = [label for label in labels if label not in opened]
    extra = sorted(set(opened) - set(labels))
    if missing or extra:
        raise illegal(
            "the end-of-turn opening opens exactly the blocks still sealed: "
            + (f"missing {', '.join(missing)}" if missing else "")
            + ("; " if missing and extra else "")
            + (f"not due {', '.join(extra)}" if extra else ""),
            "4.1: revealed blocks stay revealed until the end of the game turn",
        )
    for block in sorted(state["blocks"], key=lambda b: b["placed_at"]):
        if block["label"] in opened:
            open_block(state, block, opened[block["label"]], ctx)
    recheck_all(state, role)
    if not any(sealed_labels(state, r) for r in ROLES):
        after_opening(state, ctx)
