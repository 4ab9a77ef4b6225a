"""Race to the Sea's bot choices take what they share from one look per position (issue
29): the No Man's Land hexes handed to `assaults`, the enemy counters by hex in `fires`;
at every position of bot games they list what the look per call lists."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.games.race_to_the_sea import choices, combat_choices
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.decisions import Fire
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.state import identity, positions, unit
from pbem.testing import Table

DATA = ENGINE.load_data({})


def _strict_fires(state: dict[str, Any], role: str, label: str) -> list[Fire]:
    """`fires` as it was: the counters looked at again for each neighbouring hex."""
    counter = state["counters"][label]
    if counter["cavalry"] and counter["scouting"]:
        return []
    known = identity(state, label)
    if known is not None and unit(state, known)["kind"] == "false-report":
        return []
    out = []
    for hex_ in rm.grid(state["board"]).neighbours(counter["hex"]):
        enemies = sorted(
            k for k, c in state["counters"].items() if c["side"] != role and c["hex"] == hex_
        )
        if len(enemies) == 1:
            out.append(Fire(label, counter["hex"], hex_))
        else:
            out += [Fire(label, counter["hex"], hex_, k) for k in enemies]
    return out


@pytest.mark.parametrize("seed", [0, 3])
def test_the_counters_choices_are_those_of_a_look_per_call(seed: int) -> None:
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=seed, check=False)
    rng = random.Random(seed)
    checked = 0
    for _ in range(1500):
        if t.over():
            break
        role = t.asked()
        assert role is not None
        state = t.state
        if state["step"] == "act":
            pos = positions(state)
            zones = choices._near(state, role, pos)
            for label in choices._ready_labels(state, role):
                fast = combat_choices.assaults(state, role, label, zones[1])
                assert fast == combat_choices.assaults(state, role, label)
                assert combat_choices.fires(state, role, label) == _strict_fires(state, role, label)
                checked += 1
        t.decide(role, t.choose(role, rng))
    assert checked > 100
