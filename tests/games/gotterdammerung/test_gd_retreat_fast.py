"""Götterdämmerung: the retreat fast paths of issue 29 give what asking every path gives.

- fighting.retreat_options passes over a first hex whose step alone has a problem (and
  every path through it), vs retreat_options_strict, which asks retreat_problems of every
  path; `_retreats` stopped at its first path (what `_retreat_pending` asks) says whether
  there is one exactly when the strict list is not empty.
- fighting.retreat accepts a path with no problem without listing the options
  (`_free_path`): every path it accepts so is among the strict options.

On the retreat steps of two seeded bot games (gd_games.py, played once per process), for
the retreating unit and for other units of both sides, attacking and defending, disrupted
or not, and as after an overrun.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.games.gotterdammerung import fighting
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from tests.games.gotterdammerung import gd_games


def _retreat_states() -> list[dict[str, Any]]:
    found = []
    for seed in (3, 4):
        for n in range(gd_games.length(seed)):
            state = gd_games.position(seed, n)
            if state["step"] == "retreat":
                found.append(state)
    return found


@pytest.fixture(scope="module")
def cases() -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(state, unit, combat): the unit asked, then five others of each state, with the
    combat's `attacking`, the unit's `disrupted` and the overrun flag varied."""
    rng = random.Random(29)
    out = []
    states = _retreat_states()
    assert len(states) >= 5  # (the games retreat: the test compares something)
    for state in states:
        combat = state["combat"]
        asked = state["units"][combat["retreat"]["left"][0]]
        others = rng.sample(gs.on_map(state), 5)
        for k, unit in enumerate([asked, *others]):
            varied = {**combat, "retreat": {**combat["retreat"]}}
            if k % 2:
                varied["retreat"]["attacking"] = not varied["retreat"]["attacking"]
            if k == 3:
                unit = gs.own(state, unit["id"])
                unit["disrupted"] = not unit.get("disrupted")
            if k == 4 and not varied["overrun"]:
                varied["overrun"] = True
                varied["launch"] = md.neighbours(state["board"], varied["target"])[0]
            out.append((state, unit, varied))
    return out


def test_retreat_options_are_those_of_every_path_asked(cases: Any) -> None:
    some = 0
    for state, unit, combat in cases:
        strict = fighting.retreat_options_strict(state, unit, combat)
        assert fighting.retreat_options(state, unit, combat) == strict
        first = next(fighting._retreats(state, unit, combat), None)
        assert (first is not None) == bool(strict)
        some += bool(strict)
    assert some  # (some units have somewhere to go)


def test_a_path_accepted_without_the_options_is_among_them(cases: Any) -> None:
    accepted = 0
    for state, unit, combat in cases[::2]:
        board, start = state["board"], unit["hex"]
        strict = fighting.retreat_options_strict(state, unit, combat)
        for n1 in md.neighbours(board, start):
            for path in ([n1], *([n1, n2] for n2 in md.neighbours(board, n1)), [n1, n1]):
                if fighting._free_path(state, unit, combat, path):
                    assert path in strict
                    accepted += 1
        assert not fighting._free_path(state, unit, combat, [])
    assert accepted
