"""Race to the Sea 1914: initiative, the order of actions, skirmishes and victory levels
(pbem.games.race_to_the_sea.initiative), with the rulebook's examples."""

from __future__ import annotations

import pytest

from pbem.games.race_to_the_sea.initiative import bid_round, skirmish_winner, victory_level


def test_rulebook_7_5_1_and_7_5_2_germans_bid_4_allies_2() -> None:
    """7.5.1: the Germans conduct two Advantage Actions; 7.5.2: then the Allies, the
    Germans their third, the Allies their second and last, the Germans their fourth."""
    played = bid_round({"germans": 4, "allies": 2}, momentum="germans")
    assert played.initiative == "germans" and not played.lull
    assert played.allowed == {"germans": 4, "allies": 2}
    assert played.order() == ["germans", "germans", "allies", "germans", "allies", "germans"]


def test_rulebook_8_5_design_note_the_initiative_player_moves_first_and_last() -> None:
    for german, allied in [(5, 3), (3, 1), (4, 3), (2, 1), (5, 4)]:
        order = bid_round({"germans": german, "allies": allied}, "allies").order()
        assert order[0] == order[-1] == "germans"
        assert order.count("germans") == german and order.count("allies") == allied


def test_rulebook_8_1_b_a_tie_goes_to_the_strategic_momentum() -> None:
    assert bid_round({"germans": 3, "allies": 3}, "allies").initiative == "allies"
    assert bid_round({"germans": 3, "allies": 3}, "germans").initiative == "germans"


def test_rulebook_8_3_design_note_a_lull_gives_one_action_to_the_momentum_side() -> None:
    """Both bid their 5: only one of them gets an Action."""
    played = bid_round({"germans": 5, "allies": 5}, "germans")
    assert played.lull and played.allowed == {"germans": 1, "allies": 0}
    assert played.order() == ["germans"]


def test_the_allies_winning_the_initiative() -> None:
    played = bid_round({"germans": 1, "allies": 4}, "germans")
    assert played.order() == ["allies", "allies", "allies", "germans", "allies"]


def test_rulebook_10_5_3_skirmish_doubles_a_2_sz_cavalry_and_ties_go_to_momentum() -> None:
    sizes = {"germans": 2, "allies": 1}
    # 10.5.3.B: the German 2-SZ cavalry doubles its 4 to 8, beating the Allied 7
    assert skirmish_winner("allies", {"germans": 4, "allies": 7}, sizes, "allies") == "germans"
    # 10.5.3.C: the higher net number wins
    assert skirmish_winner("allies", {"germans": 3, "allies": 7}, sizes, "germans") == "allies"
    # 10.5.3.D: 6 against a doubled 3 is a tie: the Strategic Momentum side wins
    assert skirmish_winner("germans", {"germans": 3, "allies": 6}, sizes, "allies") == "allies"
    assert skirmish_winner("germans", {"germans": 3, "allies": 6}, sizes, "germans") == "germans"


@pytest.mark.parametrize(
    ("difference", "level"),
    [
        (0, "Draw"),
        (1, "Minor Victory"),
        (4, "Minor Victory"),
        (5, "Major Victory"),
        (8, "Major Victory"),
        (9, "Crushing Victory"),
        (12, "Crushing Victory"),
        (13, "War-Ending Victory"),
        (30, "War-Ending Victory"),
        (-6, "Major Victory"),
    ],
)
def test_rulebook_14_5_victory_levels(difference: int, level: str) -> None:
    assert victory_level(difference) == level
