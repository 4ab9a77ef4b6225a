"""Automatic answers: what a role's own client signs for it without asking its person.

Play by email is slow when every entry waits for a person. Many entries are not choices
at all: an acknowledgement whose reveal rolls the opponent's dice, a step with exactly
one legal decision, or a recurring reaction the player has answered in advance with a
standing order (pbem.kit.orders). The role's client answers those at once, signed and
checked like any other entry (the one signer, the journal, the rules: nothing changes
for the opponent or a verifier), so that a mail goes out only when the other side's
person has a real choice to make.

`automatic` is pure: the same answer for the same state and orders, used by the client
(`Client.answer_automatically`), `pbem play`, `pbem mail watch` and bench/handovers.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.engine import Engine, State

ACKNOWLEDGE = "rolls the dice"
ONLY_CHOICE = "the only legal choice"


@dataclass(frozen=True)
class Answer:
    """An automatic answer: a decision (None: an acknowledgement) and why it needs no person."""

    decision: Any | None
    reason: str

    @property
    def is_ack(self) -> bool:
        return self.decision is None


def automatic(
    engine: Engine,
    state: State,
    role: str,
    orders: Mapping[str, str],
    *,
    dice_waiting: bool,
) -> Answer | None:
    """The answer `role`'s client gives without its person, or None (a person decides).

    `state` is what the role decides on: its own `with_secrets` state, with dice that
    wait for its reveal already rolled by it (`Client.state_for`); `dice_waiting` says
    that the role is asked only to roll them. Order of preference: an acknowledgement
    when the role has nothing to decide once the dice are rolled; the one legal
    decision; a standing order."""
    if not any(prompt.role == role for prompt in engine.prompts(state)):
        return Answer(None, ACKNOWLEDGE) if dice_waiting else None
    only = engine.only_choice(state, role)
    if only is not None:
        return Answer(only, ONLY_CHOICE)
    if orders:
        found = engine.standing_answer(state, role, orders)
        if found is not None:
            decision, order = found
            return Answer(decision, f"standing order {order}")
    return None
