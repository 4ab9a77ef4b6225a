"""Fast paths of the seventh session (issue 29), each held to the strict computation:

- `state._as_written` keeps its answer by control record (never changed in place) and
  length: the answer the strict look gives, and never a stale one for another record.
- `copy_state` shares what the rules only ever replace (`state.SHARED`): a copy changed by
  the rules leaves its source's values as they were (test_rts_fast_paths.py checks every
  apply of the demo save and of bot games).
"""

from __future__ import annotations

from typing import Any

from pbem.games.race_to_the_sea import state as rs
from pbem.games.race_to_the_sea.rules import ENGINE

DATA = ENGINE.load_data({})


def _strict_written(control: dict[str, Any]) -> bool:
    return all(type(k) is str and len(k) == 4 for k in control) and list(control) == sorted(control)


def test_the_control_record_as_written_is_the_strict_answer_and_never_stale() -> None:
    records: list[dict[Any, str]] = [
        {},
        {"0617": "allies", "0620": "germans"},
        {"0620": "germans", "0617": "allies"},  # out of map order
        {617: "allies"},  # an int key, as a hand-made state might hold
        {"617": "allies"},  # not a printed label
    ]
    for control in records:
        assert rs._as_written(control) == _strict_written(control)
        assert rs._as_written(control) == _strict_written(control)  # (kept)
    grown = {"0617": "allies"}
    assert rs._as_written(grown)
    grown["0101"] = "germans"  # (never done by the rules: the kept answer is not read)
    assert rs._as_written(grown) is False


def test_a_copy_leaves_the_shared_values_of_its_source_as_they_were() -> None:
    state = ENGINE.setup(DATA, {})
    before = {key: repr(state.get(key)) for key in rs.SHARED}
    copy = rs.copy_state(state)
    for key in ("place_order", "flooded", "later_events"):
        assert key in copy
    copy["fog"] = ["allies", "germans"]
    copy["place_order"] = copy["place_order"][1:]
    assert {key: repr(state.get(key)) for key in rs.SHARED} == before


def test_a_path_step_not_sent_to_step_problem_is_one_it_allows(monkeypatch: Any) -> None:
    """`_path_problem` asks `_step_problem` only of a step it cannot see allowed from the
    map's tables: every step it does not ask about is one `_step_problem` allows (and a
    normal move's in-line price is `move_cost`'s: the verdicts are `legal_move`'s)."""
    from pbem.games.race_to_the_sea import map_data as rm
    from pbem.games.race_to_the_sea import movement as mv

    state = ENGINE.setup(DATA, {})
    board = state["board"]
    strict = mv._step_problem
    asked: list[tuple[int, int]] = []
    asked_ever: set[tuple[int, int]] = set()

    def step_problem(board: Any, a: int, b: int, flooded: Any, enemies: Any) -> str | None:
        asked.append((a, b))
        asked_ever.add((a, b))
        return strict(board, a, b, flooded, enemies)

    monkeypatch.setattr(mv, "_step_problem", step_problem)
    around = rm.neighbour_table(board)
    hexes = sorted(around)[::7]
    flooded = hexes[1::9]
    pieces = {"c01": {"side": "allies", "hex": 0, "cavalry": False, "kind": "infantry", "sz": 1}}
    for n, h in enumerate(sorted(around)[3::40]):  # enemy counters here and there
        pieces[f"c{n + 2:02d}"] = {"side": "germans", "hex": h, "kind": "infantry", "sz": 1}
    steps = 0
    for a in hexes:
        for b in (*around[a], a, a + 1, 9999):
            pieces["c01"]["hex"] = a
            asked.clear()
            for tried in (flooded, ()):
                check = mv._path_problem(board, pieces, "c01", [a, b], tried, None, 5, "move", None)
                if (a, b) not in asked:
                    steps += 1
                    assert strict(board, a, b, tried, mv.enemy_hexes(pieces, "allies")) is None
                    assert check.problem is None or "10.1.1" in check.problem
                    assert rm.move_cost(board, a, b, tried) is not None
    assert steps > 400 and len(asked_ever) > 100
