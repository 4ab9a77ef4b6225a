"""Logistics blocks: sealed values, action cubes, exhaustion claims and their checks.

Protocol section 5 for rulebook 4.1: each placed block's value is a commitment labelled
``block/<role>/t<turn>/<n>`` (the role's n-th placement of the turn). The public state
holds the label, owner, area, cube count and flags, never a sealed value. While a block
is sealed, every cube its owner adds carries a public claim: "these cubes exhaust it"
or not (`exhausting`); each claim is recorded with the seq of its entry and checked
when the block opens -- at step 5 of its first attack or defence, or at the end of the
game turn, when every block still sealed is opened. A false claim, a cube count above
the value, or a value used more often than the player owns it refuses the opening
entry with a message naming the claiming entry (rulebook 4.1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context
from pbem.errors import IllegalOrderError
from pbem.games.race_to_berlin.state import (
    NAMES,
    State,
    illegal,
    known_value,
)

R_BLOCKS = "4.1"


def label_for(state: State, role: str) -> str:
    """The commitment label of `role`'s next placement this turn."""
    return f"block/{role}/t{state['turn']}/{state['placed'][role] + 1}"


def new_block(state: State, role: str, area: str, force: str, seq: int) -> dict[str, Any]:
    block = {
        "label": label_for(state, role),
        "owner": role,
        "force": force,
        "area": area,
        "cubes": 0,
        "value": None,
        "revealed": False,
        "exhausted": False,
        "off": None,
        "placed_at": seq,
        "claims": [],
    }
    state["blocks"].append(block)
    return block


def describe(block: Mapping[str, Any]) -> str:
    """ "West block in 11 (4, 2 cubes)" -- the value only when public."""
    value = block["value"] if block["revealed"] else "sealed"
    where = block["area"] if block["area"] is not None else "off the board"
    return f"{NAMES[block['owner']]} block in {where} ({value}, {block['cubes']} cubes)"


# --- cubes ------------------------------------------------------------------------------------


def add_cubes(
    state: State,
    block: dict[str, Any],
    n: int,
    ctx: Context,
    claim: bool | None,
    rule: str,
) -> None:
    """Play `n` action cubes from the owner's pool next to `block`.

    For a sealed block, `claim` is the owner's public exhaustion claim (recorded and
    checked when the block opens); for an opened block it must match the value."""
    owner = block["owner"]
    cubes = state["cubes"][owner]
    if cubes["pool"] < n:
        raise illegal(
            f"{NAMES[owner]} has {cubes['pool']} action cubes in the pool, {n} needed", rule
        )
    after = block["cubes"] + n
    if block["revealed"]:
        value = block["value"]
        if after > value:
            raise illegal(
                f"the {value}-block in {block['area']} holds {block['cubes']} cubes; {n} more "
                f"would exceed its value",
                "4.1: a block is exhausted when its cubes reach its value",
            )
        if claim is not None and claim != (after == value):
            word = "exhausts" if after == value else "does not exhaust"
            raise illegal(
                f"the {value}-block in {block['area']} is open: {after} cubes {word} it, "
                f"so {'add' if after == value else 'drop'} the word 'exhausting'",
                R_BLOCKS,
            )
        block["exhausted"] = after == value
    else:
        exhausting = bool(claim)
        block["claims"].append(
            {"seq": ctx.seq, "role": owner, "cubes": after, "exhausting": exhausting}
        )
        block["exhausted"] = exhausting
    cubes["pool"] -= n
    block["cubes"] = after
    if block["exhausted"]:
        ctx.event(
            f"{describe(block)} is exhausted (rulebook 4.1)",
            block=block["label"],
            cubes=after,
        )


def take_off(state: State, block: dict[str, Any], ctx: Context, why: str) -> None:
    """Take a block off the board, exhausted for the turn; its cubes return to the pool."""
    if block["area"] is None:
        return
    where = block["area"]
    state["cubes"][block["owner"]]["pool"] += block["cubes"]
    ctx.event(
        f"{describe(block)} removed from the board ({why}); {block['cubes']} cubes back to "
        f"the {NAMES[block['owner']]} pool",
        block=block["label"],
        area=where,
        cubes=block["cubes"],
    )
    block["cubes"] = 0
    block["area"] = None
    block["exhausted"] = True
    block["off"] = why


def cubes_on_board(state: State, role: str) -> int:
    return sum(b["cubes"] for b in state["blocks"] if b["owner"] == role and b["area"])


# --- openings ---------------------------------------------------------------------------------


def sealed_labels(state: State, role: str) -> list[str]:
    """`role`'s blocks of this turn that are not yet opened in the log."""
    return [b["label"] for b in state["blocks"] if b["owner"] == role and not b["revealed"]]


def _false(seq: int, role: str, text: str) -> IllegalOrderError:
    return IllegalOrderError(f"false claim in entry {seq} by {role}: {text} (rulebook {R_BLOCKS})")


def open_block(state: State, block: dict[str, Any], value: JSON, ctx: Context) -> None:
    """Reveal a block with its opened value and check every claim made while it was sealed."""
    label, owner = block["label"], block["owner"]
    if block["revealed"]:
        return
    owned = state["block_values"][owner]
    if not isinstance(value, int) or isinstance(value, bool) or value not in owned:
        raise _false(
            block["placed_at"],
            owner,
            f"{label} was placed as a logistics block but opens as {value!r}, which is no "
            f"block value ({', '.join(str(v) for v in sorted(set(owned)))})",
        )
    check_claims(block, value)
    block["value"] = value
    block["revealed"] = True
    block["exhausted"] = block["area"] is None or block["cubes"] >= value
    check_values_used(state, owner)
    ctx.event(
        f"{NAMES[owner]} reveals {label}: a {value}-block"
        + (f" in {block['area']}" if block["area"] else " (off the board)"),
        block=label,
        value=value,
    )


def check_claims(block: Mapping[str, Any], value: int) -> None:
    """Every claim made while `block` was sealed, against its opened value."""
    label = block["label"]
    for claim in block["claims"]:
        cubes, seq, role = claim["cubes"], claim["seq"], claim["role"]
        if cubes > value:
            raise _false(
                seq,
                role,
                f"{label} took its cube number {cubes}, but it opens as {value}: a block "
                "never holds more cubes than its value",
            )
        if claim["exhausting"] and cubes != value:
            raise _false(
                seq,
                role,
                f"{label} was claimed exhausted at {cubes} cubes, but it opens as {value}",
            )
        if not claim["exhausting"] and cubes == value:
            raise _false(
                seq,
                role,
                f"{label} reached {cubes} cubes without the exhaustion claim, but it opens "
                f"as {value}",
            )


def check_values_used(state: State, role: str) -> None:
    """Each of `role`'s 8 blocks is used at most once in a turn (rulebook 4.1)."""
    owned = Counter(state["block_values"][role])
    seen: dict[int, list[dict[str, Any]]] = {}
    for b in state["blocks"]:
        if b["owner"] == role and b["revealed"]:
            seen.setdefault(b["value"], []).append(b)
    for value, blocks in seen.items():
        if len(blocks) > owned[value]:
            latest = max(blocks, key=lambda b: b["placed_at"])
            others = ", ".join(b["label"] for b in blocks if b is not latest)
            raise _false(
                latest["placed_at"],
                role,
                f"{latest['label']} opens as {value}, but {NAMES[role]} has only "
                f"{owned[value]} blocks of {value} and {others} already used "
                f"{'it' if owned[value] == 1 else 'them'}",
            )


def recheck_all(state: State, role: str) -> None:
    """End of turn: every claim of `role`'s blocks, now all open, once more."""
    for b in state["blocks"]:
        if b["owner"] == role and b["revealed"]:
            check_claims(b, b["value"])
    check_values_used(state, role)


# --- the owner's own view ---------------------------------------------------------------------


def fill_secrets(state: State, role: str, known: Mapping[str, JSON]) -> State:
    """`state` with `role`'s own sealed block values and remaining hand filled in."""
    new = dict(state)
    hand = list(state["block_values"][role])
    blocks = []
    for b in state["blocks"]:
        if b["owner"] == role:
            value = b["value"] if b["revealed"] else known.get(b["label"])
            if isinstance(value, int) and not isinstance(value, bool):
                if value in hand:
                    hand.remove(value)
                if not b["revealed"]:
                    b = dict(b, value=value)
        blocks.append(b)
    new["blocks"] = blocks
    hands = dict(state["hands"])
    hands[role] = sorted(hand)
    new["hands"] = hands
    return new


def remaining_capacity(block: Mapping[str, Any]) -> int | None:
    """Cubes the block can still take, if its value is known here."""
    value = known_value(block)
    if value is None:
        return None
    return value - int(block["cubes"])
