"""Sealed rounds: choices the rules make "at the same time", one signer at a time.

Initiative bids (Race to the Sea 1914, 8), support-point bids (Götterdämmerung 12.4):
each player chooses without seeing the others' choices. By email two players answering
at once would sign two entries for one seq and fork the game, so protocol section 8
plays such a choice as a sealed round:

1. in a fixed role order, each role but the last commits to its choice (a hidden piece:
   the public decision carries no value, the entry commits it under the round's label);
2. the last role may choose in the clear: everyone else is already bound;
3. the committed roles open their choices, in the same order, each in its next entry
   (a reveal obligation, `pieces.oblige`), and the round is complete.

Nobody sees another's choice before being bound to their own, and no two honest entries
ever compete for one seq. The round keeps its pieces in the kit storage
(`state["pieces"]`), so `StepGame` checks the commitments and the openings, fills the
owner's own choice into its state and strips it from everyone else's view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pbem.core.canonical import JSON
from pbem.core.engine import Context, State
from pbem.errors import IllegalOrderError
from pbem.kit import pieces


class SealedRound:
    """One kind of simultaneous choice; its progress lives in `state[key]`."""

    def __init__(self, key: str, label: Callable[[State, str], str], rule: str) -> None:
        self.key = key
        self.label = label  # the commitment label of `role`'s choice in this round
        self.rule = rule

    # --- progress ---------------------------------------------------------------------------

    def start(self, state: State, order: Sequence[str]) -> None:
        """Open a round: `order` is who chooses first (the last may choose in the clear)."""
        state[self.key] = {"order": list(order), "labels": {}}
        state.setdefault("pieces", {})

    def active(self, state: State) -> bool:
        return state.get(self.key) is not None

    def _pieces(self, state: State) -> list[pieces.Piece]:
        labels = state[self.key]["labels"]
        return [state["pieces"][labels[r]] for r in state[self.key]["order"] if r in labels]

    def choosing(self, state: State) -> bool:
        """True while some role has not chosen yet."""
        round_ = state.get(self.key)
        return round_ is not None and len(round_["labels"]) < len(round_["order"])

    def asks(self, state: State) -> str | None:
        """Who signs next in this round: the next to choose, then each committed role to
        open, in order; None once the round is complete (or not started)."""
        round_ = state.get(self.key)
        if round_ is None:
            return None
        order = round_["order"]
        if len(round_["labels"]) < len(order):
            return str(order[len(round_["labels"])])
        for piece in self._pieces(state):
            if not piece["revealed"]:
                return str(piece["owner"])
        return None

    def is_last(self, state: State, role: str) -> bool:
        return bool(state[self.key]["order"][-1] == role)

    # --- the owner's client -----------------------------------------------------------------

    def seal(self, state: State, role: str, value: JSON) -> dict[str, JSON]:
        """The values `role`'s choice commits (none for the last role, which is in the clear)."""
        if not self.choosing(state) or self.is_last(state, role):
            return {}
        return {self.label(state, role): value}

    def commits(self, state: State, role: str, decision: Any) -> list[str]:
        """For the choosing step's table: the one label a choice may commit."""
        if not self.choosing(state) or self.is_last(state, role):
            return []
        return [self.label(state, role)]

    def writable(self, state: State, piece: pieces.Piece) -> pieces.Piece:
        """`piece` of `state`, to change in place (`StepGame.writable`: a game whose copies
        share pieces gives the copy's own)."""
        return piece

    # --- the rules --------------------------------------------------------------------------

    def choose(self, state: State, role: str, value: JSON, ctx: Context, **claims: JSON) -> None:
        """Record `role`'s choice: sealed (the entry commits it; `value` must be None in the
        public decision) unless `role` chooses last, in the clear. `claims` are public
        facts about a sealed choice, checked when it opens."""
        if self.asks(state) != role or not self.choosing(state):
            raise IllegalOrderError(f"illegal: {role} does not choose now (rulebook {self.rule})")
        label = self.label(state, role)
        round_ = state[self.key]
        if self.is_last(state, role):
            if value is None:
                raise IllegalOrderError(
                    f"illegal: {role} chooses last and in the clear: say the value "
                    f"(rulebook {self.rule})"
                )
            piece = {
                "label": label,
                "owner": role,
                "value": value,
                "revealed": True,
                "placed_at": ctx.seq,
                "claims": [],
                "due": None,
            }
        else:
            if value is not None:
                raise IllegalOrderError(
                    f"illegal: {role}'s choice is sealed; the public decision must not "
                    f"show it (rulebook {self.rule})"
                )
            piece = pieces.place(ctx, label, role, self.rule)
            if claims:
                pieces.claim(piece, ctx, role, **claims)
        state["pieces"][label] = piece
        round_["labels"][role] = label
        if not self.choosing(state):
            for other in self._pieces(state):
                pieces.oblige(
                    self.writable(state, other), "every choice of the round is made: open yours"
                )

    def values(self, state: State) -> dict[str, JSON] | None:
        """Role -> choice once every choice is open, else None."""
        if self.choosing(state):
            return None
        chosen = self._pieces(state)
        if any(not p["revealed"] for p in chosen):
            return None
        return {p["owner"]: p["value"] for p in chosen}

    def finish(self, state: State) -> dict[str, JSON]:
        """Close a complete round and return its choices (the pieces stay, opened)."""
        values = self.values(state)
        if values is None:
            raise IllegalOrderError(f"illegal: the round is not complete (rulebook {self.rule})")
        state[self.key] = None
        return values
