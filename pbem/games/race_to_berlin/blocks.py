"""Logistics blocks as hidden pieces of the kit: sealed values, action cubes, exhaustion
claims and their checks.

Protocol section 5 for rulebook 4.1: each placed block is a `pbem.kit.pieces` piece whose
value is a commitment labelled ``block/<role>/t<turn>/<n>`` (the role's n-th placement of
the turn); beside the kit's fields a block has its force, area, cube count, `exhausted`
and `off` (why it left the board). The public state never holds a sealed value. While a
block is sealed, every cube its owner adds carries a public claim: "these cubes exhaust
it" or not; each claim is recorded with the seq of its entry and checked when the block
opens -- at step 5 of its first attack or defence, or at the end of the game turn, when
every block still sealed is opened. A cube that another player plays on a sealed block
(the inactive player resolving a defence of both German fronts, rulebook 4.2.1.2 step 9)
carries no claim: that player cannot know the value, and the block's exhaustion follows
from its value when it opens. A false claim, a cube count above the value, or a value
used more often than the player owns it refuses the opening entry with a message naming
the claiming entry (rulebook 4.1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context
from pbem.games.race_to_berlin.state import NAMES, State, illegal, own_part, writable_block
from pbem.kit import pieces
from pbem.kit.pieces import false_claim, known_value

R_BLOCKS = "4.1"
R_COMMIT = "4.1: the value is visible only to its owner"

Block = dict[str, Any]


def label_for(state: State, role: str) -> str:
    """The commitment label of `role`'s next placement this turn."""
    return f"block/{role}/t{state['turn']}/{state['placed'][role] + 1}"


def new_block(state: State, role: str, area: str, force: str, ctx: Context) -> Block:
    """A sealed block of `role` in `area`; the entry being applied must commit its value."""
    block = pieces.place(
        ctx,
        label_for(state, role),
        role,
        R_COMMIT,
        force=force,
        area=area,
        cubes=0,
        exhausted=False,
        off=None,
    )
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
    block: Block,
    n: int,
    ctx: Context,
    rule: str,
    by: str,
    exhausting: bool | None = None,
) -> None:
    """`by` plays `n` action cubes from the block owner's pool next to `block`.

    For a block opened in the log, `exhausting` (if given) must match its value. For a
    sealed block played by its owner, `exhausting` is the owner's public claim, recorded
    and checked when the block opens. A sealed block played by another player (who cannot
    know its value) gets no claim: its exhaustion is settled when it opens."""
    block = writable_block(state, block)
    owner = block["owner"]
    cubes = own_part(state, "cubes")[owner]
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
        if exhausting is not None and exhausting != (after == value):
            word = "exhausts" if after == value else "does not exhaust"
            raise illegal(
                f"the {value}-block in {block['area']} is open: {after} cubes {word} it, "
                f"so {'add' if after == value else 'drop'} the word 'exhausting'",
                R_BLOCKS,
            )
        block["exhausted"] = after == value
    elif by == owner:
        pieces.claim(block, ctx, owner, cubes=after, exhausting=bool(exhausting))
        block["exhausted"] = bool(exhausting)
    cubes["pool"] -= n
    block["cubes"] = after
    if block["exhausted"]:
        ctx.event(
            f"{describe(block)} is exhausted (rulebook 4.1)",
            block=block["label"],
            cubes=after,
        )


def take_off(state: State, block: Block, ctx: Context, why: str) -> None:
    """Take a block off the board, exhausted for the turn; its cubes return to the pool."""
    if block["area"] is None:
        return
    block = writable_block(state, block)
    where = block["area"]
    own_part(state, "cubes")[block["owner"]]["pool"] += block["cubes"]
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


# --- openings ---------------------------------------------------------------------------------


def sealed_labels(state: State, role: str) -> list[str]:
    """`role`'s blocks of this turn that are not yet opened in the log."""
    return [b["label"] for b in state["blocks"] if b["owner"] == role and not b["revealed"]]


def open_block(state: State, block: Block, ctx: Context) -> None:
    """Reveal a block with the value the entry opens, after checking that it is one of the
    owner's block values and every claim made while it was sealed."""
    if block["revealed"]:
        return
    block = writable_block(state, block)

    def check(piece: pieces.Piece, value: JSON) -> None:
        owned = state["block_values"][piece["owner"]]
        if not isinstance(value, int) or isinstance(value, bool) or value not in owned:
            raise false_claim(
                piece["placed_at"],
                piece["owner"],
                f"{piece['label']} was placed as a logistics block but opens as {value!r}, "
                f"which is no block value ({', '.join(str(v) for v in sorted(set(owned)))})",
                R_BLOCKS,
            )
        check_claims(piece, value)

    value = pieces.reveal(block, ctx, check)
    block["exhausted"] = block["area"] is None or block["cubes"] >= value
    check_values_used(state, block["owner"])
    ctx.event(
        f"{NAMES[block['owner']]} reveals {block['label']}: a {value}-block"
        + (f" in {block['area']}" if block["area"] else " (off the board)"),
        block=block["label"],
        value=value,
    )


def check_claims(block: Mapping[str, Any], value: int) -> None:
    """Every claim made while `block` was sealed, against its opened value."""
    label = block["label"]
    for claim in block["claims"]:
        cubes, seq, by = claim["cubes"], claim["seq"], claim["by"]
        if cubes > value:
            raise false_claim(
                seq,
                by,
                f"{label} took its cube number {cubes}, but it opens as {value}: a block "
                "never holds more cubes than its value",
                R_BLOCKS,
            )
        if claim["exhausting"] and cubes != value:
            raise false_claim(
                seq,
                by,
                f"{label} was claimed exhausted at {cubes} cubes, but it opens as {value}",
                R_BLOCKS,
            )
        if not claim["exhausting"] and cubes == value:
            raise false_claim(
                seq,
                by,
                f"{label} reached {cubes} cubes without the exhaustion claim, but it opens "
                f"as {value}",
                R_BLOCKS,
            )


def check_values_used(state: State, role: str) -> None:
    """Each of `role`'s 8 blocks is used at most once in a turn (rulebook 4.1)."""
    owned = Counter(state["block_values"][role])
    seen: dict[int, list[Block]] = {}
    for b in state["blocks"]:
        if b["owner"] == role and b["revealed"]:
            seen.setdefault(b["value"], []).append(b)
    for value, blocks in seen.items():
        if len(blocks) > owned[value]:
            latest = max(blocks, key=lambda b: b["placed_at"])
            others = ", ".join(b["label"] for b in blocks if b is not latest)
            raise false_claim(
                latest["placed_at"],
                role,
                f"{latest['label']} opens as {value}, but {NAMES[role]} has only "
                f"{owned[value]} blocks of {value} and {others} already used "
                f"{'it' if owned[value] == 1 else 'them'}",
                R_BLOCKS,
            )


def recheck_all(state: State, role: str) -> None:
    """End of turn: every claim of `role`'s blocks, now all open, once more."""
    for b in state["blocks"]:
        if b["owner"] == role and b["revealed"]:
            check_claims(b, b["value"])
    check_values_used(state, role)


# --- the owner's own view ---------------------------------------------------------------------


def remaining_hand(state: State, role: str) -> list[int]:
    """The block values `role` has not placed this turn, as far as `state` knows its blocks
    (the owner's `with_secrets` state knows them all)."""
    hand = list(state["block_values"][role])
    for b in state["blocks"]:
        if b["owner"] == role:
            value = known_value(b)
            if isinstance(value, int) and not isinstance(value, bool) and value in hand:
                hand.remove(value)
    return sorted(hand)
