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
