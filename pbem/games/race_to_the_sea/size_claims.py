"""What hidden sizes must bear out (10.2.A, 7.3.A): the claims a move of hidden counters
records, and their check when the counters' identities are known.

A move, a rail move, a forced march, a retreat, a displacement or a Rebuild that puts a
counter of unknown size beside others may break the stacking limit (at most 6 SZ in a
hex, False Reports free) or the rail limit (4 SZ a phase); the public cannot tell, so the
move claims it did not (`record_claims`), and `spanning_problems` finds the claims the
opened identities show false (flow.open_all, at the end of the game).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Context, State
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.shared_pieces import own
from pbem.games.race_to_the_sea.state import piece_label, position_of, unit
from pbem.kit import pieces
from pbem.kit.pieces import known_value


def record_claims(
    state: State,
    ctx: Context,
    role: str,
    counter: str,
    claims: tuple[str, ...],
    rail: bool = False,
    members: list[str] | None = None,
) -> None:
    """Record what hidden sizes must bear out, after the move: at most 6 SZ in the hex
    the counter stopped in (10.2.A, False Reports free) or 4 SZ moved by rail this phase
    (7.3.A). The claim names the hidden counters it sums (`members`) and the SZ already
    public (`known`); `spanning_problems` checks it when those counters are open.
    `members`, if given, names the counters of `role` in the counter's hex (in any order:
    found by a caller that looked at every counter already)."""
    if not claims:
        return
    if rail:
        members, limit, rule = list(state["railed"]), mv.RAIL_SZ_LIMIT, "7.3.A"
    else:
        if members is None:
            hex_ = state["counters"][counter]["hex"]
            members = [
                k for k, c in state["counters"].items() if c["hex"] == hex_ and c["side"] == role
            ]
        members = sorted(members)
        limit, rule = mv.STACK_LIMIT, "10.2.A"
    pos = {k: position_of(state, k) for k in members}  # only the members are read
    hidden = [k for k in members if pos[k]["sz"] is None]
    known = sum(pos[k]["sz"] for k in members if pos[k]["sz"] is not None)
    holder = counter if counter in hidden else hidden[0] if hidden else None
    if holder is None:
        return
    piece = own(state["pieces"], piece_label(holder))
    facts: dict[str, Any] = {"members": hidden, "known": known, "limit": limit}
    if not rail:
        facts["mover"] = counter  # 10.2.C: a False Report stops anywhere
    pieces.claim(piece, ctx, role, rule=rule, text=claims[0], **facts)


def spanning_problems(state: State, side: str) -> list[tuple[dict[str, Any], int]]:
    """The stacking and rail claims of `side` that its counters' identities, as this
    state knows them, show false: (claim, the SZ it summed to)."""
    found = []
    for piece in state["pieces"].values():
        if piece["owner"] != side:
            continue
        for made in piece["claims"]:
            if "members" not in made:
                continue
            values = [known_value(state["pieces"][piece_label(k)]) for k in made["members"]]
            if any(v is None for v in values):
                continue
            mover = made.get("mover")
            if mover is not None and mover in made["members"]:
                moved = values[made["members"].index(mover)]
                if unit(state, str(moved))["kind"] == "false-report":
                    continue  # 10.2.C: False Reports stack for free
            total = int(made["known"]) + sum(int(unit(state, str(v))["sz"]) for v in values)
            if total > int(made["limit"]):
                found.append((made, total))
    return found
