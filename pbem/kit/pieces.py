"""Hidden pieces: things on the table whose value is a commitment (protocol section 5).

A piece is a plain dict in the game's state (a logistics block, a hand slot, a sealed
plan, a bid) with the kit's fields beside the game's own:

    label      the commitment label ("block/west/t1/3", "hand/german/4", "plan/turn-2")
    owner      the role that committed it
    value      None while sealed in the public state; the opened value once revealed
               (the owner's own state, from `fill`, holds its value and `known: True`)
    revealed   True once opened in the log
    placed_at  the seq of the entry that committed it
    claims     public claims made while it was sealed: {seq, by, ...game's facts}; the
               list is replaced when a claim is added, so state copies may share it
    due        None, or why the owner must open it in its next entry (a reveal obligation)

The public state is built from the log alone, so a sealed piece's value is never in it;
an engine sees the value only when the entry being applied opens it (`ctx.opened_now`).
Claims are checked when the piece opens: a false one refuses the opening entry with a
message naming the entry that made the claim, its signer and the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context
from pbem.errors import FalseClaimError, IllegalOrderError

Piece = dict[str, Any]
# Checks one opened value against a piece's claims; raises `false_claim(...)` when one lies.
ClaimCheck = Callable[[Piece, JSON], None]


def false_claim(seq: int, by: str, text: str, rule: str) -> FalseClaimError:
    """The refusal of an opening that shows an earlier claim was false."""
    return FalseClaimError(seq, by, text, rule)


def place(ctx: Context, label: str, owner: str, rule: str, **fields: Any) -> Piece:
    """A new sealed piece; the entry being applied must commit `label`."""
    if label not in ctx.committed_now():
        raise IllegalOrderError(f"illegal: this decision must commit {label} (rulebook {rule})")
    piece: Piece = {
        "label": label,
        "owner": owner,
        "value": None,
        "revealed": False,
        "placed_at": ctx.seq,
        "claims": [],
        "due": None,
    }
    piece.update(fields)
    return piece


def claim(piece: Piece, ctx: Context, by: str, **facts: JSON) -> None:
    """Record a public claim about a sealed piece, checked when it opens. The list of
    claims is replaced, never changed in place (nor are the claims in it), so that copies
    of a state may share it."""
    piece["claims"] = [*piece["claims"], {"seq": ctx.seq, "by": by, **facts}]


def opening(piece: Piece, ctx: Context) -> JSON:
    """The value the entry being applied opens for `piece` (it must open it)."""
    opened = ctx.opened_now()
    if piece["label"] not in opened:
        raise IllegalOrderError(f"illegal: this entry must open {piece['label']}")
    return opened[piece["label"]]


def reveal(piece: Piece, ctx: Context, check: ClaimCheck | None = None) -> JSON:
    """Open `piece` with the value this entry opens, after checking every claim on it."""
    value = opening(piece, ctx)
    if check is not None:
        check(piece, value)
    piece["value"] = value
    piece["revealed"] = True
    piece["due"] = None
    piece.pop("known", None)
    return value


def oblige(piece: Piece, why: str) -> None:
    """The owner must open `piece` in its next entry (contact, scouting, combat...)."""
    if not piece["revealed"]:
        piece["due"] = why


def due(pieces: Iterable[Piece], role: str) -> list[Piece]:
    """`role`'s pieces that its next entry must open, in their order."""
    # (asked for every entry of every log, when most often none is due: the pieces that say
    # why they are due are picked out in C, and only those few are read in Python)
    return [p for p in filter(_DUE, pieces) if p["owner"] == role and not p["revealed"]]


_DUE = itemgetter("due")


def sealed(pieces: Iterable[Piece], role: str | None = None) -> list[Piece]:
    """Pieces not yet opened (of `role`, or of everyone)."""
    return [p for p in pieces if not p["revealed"] and (role is None or p["owner"] == role)]


def fill(piece: Piece, known: Mapping[str, JSON]) -> Piece:
    """The owner's copy of a sealed piece with its value filled in (else the piece itself)."""
    if piece["revealed"] or piece["label"] not in known:
        return piece
    return dict(piece, value=known[piece["label"]], known=True)


def known_value(piece: Mapping[str, Any]) -> JSON:
    """The value if this state knows it (revealed, or the owner's own state), else None."""
    return piece["value"] if piece["revealed"] or piece.get("known") else None
