"""`BarbarossaEngine.clone` copies the pool and the small records knowing their shape
(`rules.copy_part`): the copy must be what the copy_json of the unshared parts gave, key
order included, and share nothing with the state it copies but the dice's allocations,
which the rules replace and never change in place (the bot games' check that `apply`
leaves its input unchanged would see one changed: test_barbarossa_bot)."""

from __future__ import annotations

import random
from typing import Any

from pbem.bots import choose
from pbem.core.canonical import copy_json
from pbem.games.barbarossa.rules import _SHARED, _SHARED_IN_ORDER, ENGINE, GERMAN, copy_part
from pbem.testing import Table
from tests.games.barbarossa.demo_save import positions


def reference_clone(state: dict[str, Any]) -> dict[str, Any]:
    """The clone as it was: one copy_json of every part that is not shared."""
    new: dict[str, Any] = copy_json({k: v for k, v in state.items() if k not in _SHARED})
    for key in _SHARED_IN_ORDER:
        if key in state:
            new[key] = state[key]
    return new


def containers(value: Any) -> list[Any]:
    """Every dict and list inside `value` (itself included), but the dice's allocations."""
    found = []
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            found.append(item)
            todo.extend(v for k, v in item.items() if k != "allocated")
        elif isinstance(item, list):
            found.append(item)
            todo.extend(item)
    return found


def check_clone(state: dict[str, Any]) -> None:
    copied = ENGINE.clone(state)
    reference = reference_clone(state)
    assert copied == reference
    assert list(copied) == list(reference)  # the same key order
    for key, value in copied.items():
        if key in _SHARED:
            assert value is state[key]
            continue
        originals = {id(c) for c in containers(state[key])}
        assert not any(id(c) in originals for c in containers(value)), key


def test_the_clone_is_the_reference_copy_through_the_demo_save() -> None:
    seen = 0
    for _seq, game in positions():
        if game.state is not None:
            check_clone(game.state)
            seen += 1
    assert seen > 100


def test_the_clone_is_the_reference_copy_in_bot_games() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        table = Table(ENGINE, seed=seed * 7919 + 1, check=False)
        while ENGINE.prompts(table.state):
            check_clone(table.state)
            table.decide(GERMAN, choose(ENGINE, table.state, GERMAN, rng))
        check_clone(table.state)


def test_a_part_of_another_shape_is_copied_whole() -> None:
    odd_die = {"die": 1, "colour": "white", "extra": [1, 2]}
    pool = copy_part("pool", [odd_die])
    assert pool == [odd_die] and pool[0]["extra"] is not odd_die["extra"]
    assert copy_part("pool", [5]) == [5]
    nested = {"supply": 4, "command": [2]}
    cubes = copy_part("cubes", nested)
    assert cubes == nested and cubes["command"] is not nested["command"]
    assert copy_part("turn", 3) == 3
