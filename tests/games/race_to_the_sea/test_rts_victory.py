"""Race to the Sea 1914: victory points and levels (14) on the shipped stand-in map."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea import victory as vp


@pytest.fixture(scope="module")
def board() -> dict[str, Any]:
    return rm.default_map()


def at(board: dict[str, Any], name: str) -> int:
    return rm.hex_of(board, name)


def test_nobody_scores_at_the_start(board: dict[str, Any]) -> None:
    """15.3: each side controls its own side of the Historic Trench Line, which scores
    nothing (14.1 A): 0-0, a Draw (14.5 B)."""
    assert vp.victory_points(board, {}) == {"allies": 0, "germans": 0}
    assert vp.result(board, {}) == vp.Result({"allies": 0, "germans": 0}, None, "Draw")


def test_german_calais_scores_three_even_cut_off(board: dict[str, Any]) -> None:
    """14.2: 3 VP each for Dunkirk and Calais, no strategic LOC needed."""
    calais, dunkirk = at(board, "Calais"), at(board, "Dunkirk")
    assert calais not in mv.strategic_loc_hexes(board, {calais: "germans"}, "germans")
    assert vp.victory_points(board, {calais: "germans"}) == {"allies": 0, "germans": 3}
    both = {calais: "germans", dunkirk: "germans"}
    assert vp.victory_hexes(board, both)["germans"] == {calais: 3, dunkirk: 3}
    result = vp.result(board, both)
    assert result.winner == "germans" and result.level == "Major Victory"  # 6: 14.5 B


def test_a_hex_west_of_the_line_needs_a_strategic_loc(board: dict[str, Any]) -> None:
    """14.1 A, C: the Germans score 1 VP for a controlled hex west of the line only with
    a path of German-controlled hexes to the east map edge."""
    ypres = at(board, "Ypres")  # on the trench line: German ground next door
    st_omer = at(board, "St Omer")  # deep in the Allied rear
    assert rm.side_of_trench_line(board, st_omer) == "west"
    assert vp.victory_points(board, {st_omer: "germans"})["germans"] == 0
    assert vp.victory_points(board, {ypres: "germans"})["germans"] == 1
    assert vp.victory_hexes(board, {ypres: "germans", st_omer: "germans"})["germans"] == {ypres: 1}
    # a German hex east of the line scores nothing: it is the Germans' own side (14.1 A)
    assert vp.victory_points(board, {at(board, "Lille"): "germans"})["germans"] == 0


def test_allied_ghent_and_maubeuge_score_three(board: dict[str, Any]) -> None:
    """14.3: 3 VP each for Ghent and Maubeuge, no LOC needed; 14.5: a 3-VP lead is a
    Minor Victory."""
    ghent, maubeuge = at(board, "Ghent"), at(board, "Maubeuge")
    result = vp.result(board, {ghent: "allies"})
    assert result == vp.Result({"allies": 3, "germans": 0}, "allies", "Minor Victory")
    assert vp.victory_points(board, {ghent: "allies", maubeuge: "allies"})["allies"] == 6


def test_behind_enemy_lines_scores_two_with_loc(board: dict[str, Any]) -> None:
    """14.4: 2 VP a hex behind the enemy entrenchment, with the 14.1 B-C qualifications."""
    behind = board["behind_enemy_lines"]["allies"]
    g = rm.grid(board)
    west = set(mv.strategic_loc_hexes(board, {}, "allies"))
    near = next(h for h in behind if any(n in west for n in g.neighbours(h)))
    far = next(h for h in behind if not any(n in west for n in g.neighbours(h)))
    assert vp.victory_hexes(board, {near: "allies"})["allies"] == {near: 2}
    assert vp.victory_points(board, {far: "allies"})["allies"] == 0  # no LOC
    germans = board["behind_enemy_lines"]["germans"]
    east = set(mv.strategic_loc_hexes(board, {}, "germans"))
    theirs = next(h for h in germans if any(n in east for n in g.neighbours(h)))
    assert vp.victory_points(board, {theirs: "germans"}) == {"allies": 0, "germans": 2}


def test_flooded_dixmude_scores_for_nobody(board: dict[str, Any]) -> None:
    """9.8 C: a flooded hex is no VP hex for either side (9.8 A: the Allies flood it when
    they control it; it lies east of the stand-in trench line)."""
    dixmude = at(board, "Dixmude")
    control = {dixmude: "allies"}
    assert vp.victory_points(board, control)["allies"] == 1
    assert vp.victory_points(board, control, flooded={dixmude}) == {"allies": 0, "germans": 0}
    # a flooded hex also breaks a strategic LOC through it (9.8 B: water)
    assert dixmude not in mv.strategic_loc_hexes(board, control, "allies", flooded={dixmude})


def test_levels_by_difference(board: dict[str, Any]) -> None:
    """14.5 B through the whole score: the Allies' Ghent and Maubeuge against the
    Germans' Calais is 6-3, a Minor Victory; the ports and Ypres against nothing 7-0 a
    Major Victory."""
    ghent, maubeuge, calais = at(board, "Ghent"), at(board, "Maubeuge"), at(board, "Calais")
    mixed = {ghent: "allies", maubeuge: "allies", calais: "germans"}
    assert vp.result(board, mixed) == vp.Result(
        {"allies": 6, "germans": 3}, "allies", "Minor Victory"
    )
    ports = {calais: "germans", at(board, "Dunkirk"): "germans", at(board, "Ypres"): "germans"}
    assert vp.result(board, ports) == vp.Result(
        {"allies": 0, "germans": 7}, "germans", "Major Victory"
    )
