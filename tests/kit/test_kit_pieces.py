"""Hidden pieces (pbem/kit/pieces.py): a sealed piece exists only with its commitment.

`place` is how every game puts a hidden value on the table (a logistics block, a hand
slot, a hidden unit); the entry that places it must commit its label in the same entry
(protocol section 5), or the piece would stand for a value nobody is bound to. Tested here
on the kit itself, not only through one game's rules.
"""

from __future__ import annotations

import pytest

from pbem.core.adjudicator import Sealed
from pbem.errors import IllegalOrderError
from pbem.kit import pieces
from pbem.testing import ScriptedContext


def test_a_piece_is_placed_only_when_its_entry_commits_its_label() -> None:
    ctx = ScriptedContext(seq=7, committed=["block/west/1"], by="west")
    piece = pieces.place(ctx, "block/west/1", "west", "4.1", area=12)
    assert piece == {
        "label": "block/west/1",
        "owner": "west",
        "value": None,
        "revealed": False,
        "placed_at": 7,
        "claims": [],
        "due": None,
        "area": 12,
    }


@pytest.mark.parametrize(
    "committed",
    [
        [],  # nothing committed at all
        ["block/west/2"],  # another piece's label
        ["block/west/10"],  # a label that only starts like it
    ],
)
def test_placing_without_committing_the_label_is_refused(committed: list[str]) -> None:
    ctx = ScriptedContext(seq=7, committed=committed, by="west")
    with pytest.raises(IllegalOrderError) as caught:
        pieces.place(ctx, "block/west/1", "west", "4.1")
    assert str(caught.value) == "illegal: this decision must commit block/west/1 (rulebook 4.1)"


def test_a_label_committed_by_an_earlier_entry_does_not_count() -> None:
    """Only what the entry being applied commits places a piece: an older commitment of
    the same label (already bound, perhaps already opened) cannot be placed again."""
    bound = Sealed("block/west/1", "", "west", 3)  # committed by entry 3
    now = ScriptedContext(seq=7, sealed={"block/west/1": bound}, by="west")
    assert now.is_committed("block/west/1")
    with pytest.raises(IllegalOrderError, match="must commit block/west/1"):
        pieces.place(now, "block/west/1", "west", "4.1")
