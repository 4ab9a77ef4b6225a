"""Race to the Sea 1914: initiative and the order of actions in an Action Round (rulebook 8,
7.5), the cavalry skirmish (10.5.3) and the victory level (14.5). Pure functions.

An Action Round: both sides bid an Initiative card (a sealed round in the engine); the
higher Bid Number is the Initiative Player (8.1.A), the side with the Strategic Momentum
on a tie (8.1.B). A tie is a Lull in the Action: one action, for the Momentum side only
(8.3). Otherwise each side has its Bid Number of actions (8.2); the Initiative Player
first takes the difference (8.4, 7.5.1), then the sides alternate, the other side first
(8.5, 7.5.2).
"""

from __future__ import annotations

from pbem.games.race_to_the_sea.records import FrozenRecord, frozen_record

SIDES = ("germans", "allies")


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


@frozen_record
class Round(FrozenRecord):
    """The outcome of the bids of one Action Round."""

    initiative: str  # the Initiative Player (8.1)
    allowed: dict[str, int]  # Total Allowed Actions per side (8.2, 8.3)
    lull: bool  # A Lull in the Action (8.3)

    def order(self) -> list[str]:
        """Who acts, action by action (7.5.1-7.5.2, 8.4-8.5)."""
        first, second = self.initiative, other(self.initiative)
        left = dict(self.allowed)
        advantage = max(left[first] - left[second], 0)
        sequence = [first] * advantage
        left[first] -= advantage
        turn = second
        while left[first] or left[second]:
            if left[turn]:
                sequence.append(turn)
                left[turn] -= 1
            turn = other(turn)
        return sequence


def bid_round(bids: dict[str, int], momentum: str) -> Round:
    """The Initiative Player and the allowed actions from the two Bid Numbers (8.1-8.3)."""
    german, allied = bids["germans"], bids["allies"]
    if german == allied:  # 8.3: a Lull in the Action
        return Round(momentum, {momentum: 1, other(momentum): 0}, True)
    initiative = "germans" if german > allied else "allies"
    return Round(initiative, {"germans": german, "allies": allied}, False)


def skirmish_winner(
    active: str, cards: dict[str, int], sizes: dict[str, int], momentum: str
) -> str:
    """10.5.3.B-D: each side's Card Number, doubled for a cavalry unit of 2 SZ; the higher
    net number wins, the Strategic Momentum side on a tie. `active` is not needed to decide
    (both draw at once) but says whose recon follows a win (10.5.3.E)."""
    net = {side: cards[side] * (2 if sizes[side] == 2 else 1) for side in SIDES}
    if net["germans"] == net["allies"]:
        return momentum
    return max(SIDES, key=lambda side: net[side])


LEVELS = (
    (0, "Draw"),
    (4, "Minor Victory"),
    (8, "Major Victory"),
    (12, "Crushing Victory"),
)


def victory_level(difference: int) -> str:
    """14.5.B: the victory level of a VP difference."""
    difference = abs(difference)
    for most, level in LEVELS:
        if difference <= most:
            return level
    return "War-Ending Victory"
