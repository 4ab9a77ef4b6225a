"""Götterdämmerung: the leaner paths of issue 29's fifth session give what the plain ones do.

- state.copy_state copies the state's other parts (not the units, the waiting list or the
  static data) by `_copy_plain`, not as a marshal round trip: along seeded bot games each
  copy is equal to copy_json's, type for type, and shares no dict or list with the state it
  copies (a change to either is never seen in the other).
- zoc.end_of_phase_problems groups only the hexes of several units: lone units and stacks
  on every kind of hex as every hex through stack_problems.
- zoc.zones_of_both (one pass over the units) is `_zone` of each side, on bot games'
  positions and shuffled ones (units moved, disrupted), with Volkssturm units and a unit of
  a third side.
"""

from __future__ import annotations

import marshal
import random
from typing import Any

import pytest

from pbem.core.canonical import copy_json
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import zoc
from pbem.games.gotterdammerung.rules import ENGINE
from pbem.testing import Table
from tests.games.gotterdammerung.test_gd_fast_paths import positions
from tests.games.gotterdammerung.test_gd_speed import plain_enemy_zoc


def _containers(value: Any, out: set[int]) -> None:
    """The ids of every dict and list in `value` (a plain JSON value)."""
    if isinstance(value, dict):
        out.add(id(value))
        for v in value.values():
            _containers(v, out)
    elif isinstance(value, list):
        out.add(id(value))
        for v in value:
            _containers(v, out)


def _others(state: Any) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in gs._SHARED_KEYS}


def _copied(state: Any) -> dict[str, Any]:
    """The parts copy_state copies (not those it shares: the rules only replace them)."""
    return {k: v for k, v in _others(state).items() if k not in gs._REPLACED_ONLY}


def _check(state: Any) -> None:
    copied = gs.copy_state(state)
    mine, theirs = _others(copied), _others(state)
    # equal as copy_json gives it, type for type (marshal writes bool, int, float, str apart)
    assert marshal.dumps(mine, 2) == marshal.dumps(copy_json(theirs), 2)  # (2: no refs)
    a: set[int] = set()
    b: set[int] = set()
    _containers(_copied(copied), a)
    _containers(_copied(state), b)
    assert not a & b, "a copy shares a dict or list with its original"
    for key in gs._REPLACED_ONLY:  # (shared: the rules set them whole, never change them)
        assert copied.get(key) is state.get(key)


@pytest.mark.parametrize("seed", [1, 5])
def test_copies_are_copy_json_and_share_nothing_mutable(seed: int) -> None:
    table = Table(ENGINE, seed=seed)
    seen = 0
    while not table.over() and seen < 400:
        table.step()
        seen += 1
        if seen % 7 == 0:
            _check(table.state)
    assert seen > 100


def test_odd_values_are_copied_as_copy_json_does() -> None:
    state = ENGINE.setup(None, {})
    state["phase_data"] = {"pair": (1, [2, 3]), "set": {"x"}, "nested": [[{"a": [1.5]}]]}
    copied = gs.copy_state(state)
    assert copied["phase_data"] == copy_json(state["phase_data"])
    assert copied["phase_data"]["pair"][1] is not state["phase_data"]["pair"][1]
    assert copied["phase_data"]["set"] is not state["phase_data"]["set"]
    copied["phase_data"]["nested"][0][0]["a"].append(2)
    assert state["phase_data"]["nested"] == [[{"a": [1.5]}]]


def test_lists_of_strings_and_flat_dicts_are_copied_at_once_as_copy_json_does() -> None:
    """_copy_plain copies a list of strings only, and a dict of plain values only, in one
    call; a list or dict with anything else in it item by item: each as copy_json copies."""
    for value in (
        ["a", "b"],
        [],
        ["a", {"b": ["c"]}],
        ["a", 1, True, None, 2.5],
        ["a", ["b"]],
        [("a", ["b"])],
        {"a": 1, "b": "c", "d": None, "e": False},
        {"a": 1, "b": ["c"]},
        {"a": {"b": 1}},
        {},
    ):
        copied = gs._copy_plain(value)
        assert marshal.dumps(copied, 2) == marshal.dumps(copy_json(value), 2)
        inner: set[int] = set()
        _containers(value, inner)
        mine: set[int] = set()
        _containers(copied, mine)
        assert not inner & mine, value


def test_zones_of_both_are_each_sides_zone() -> None:
    board, data, found = positions()
    for units in found[::3]:
        extra = [
            *units,
            {"id": "vs-a", "side": "german", "hex": "city:1320", "volkssturm": True},
            {
                "id": "vs-b",
                "side": "german",
                "hex": "city:1321",
                "volkssturm": True,
                "disrupted": True,
            },
        ]
        third = {**units[0], "side": "polish-exile"}
        for case in (units, extra, [*units, third]):
            both = zoc.zones_of_both(board, data, case, gs.SIDES)
            assert list(both) == list(gs.SIDES)
            for side in gs.SIDES:
                alone = zoc._zone(board, data, case, side)
                assert list(both[side].items()) == list(alone.items())
                assert dict(both[side]) == plain_enemy_zoc(board, data, case, side)
    # one side twice (no enemies among its own units), and three sides (each on its own)
    units = found[0]
    same = zoc.zones_of_both(board, data, units, ("german", "german"))
    assert same == {"german": zoc._zone(board, data, units, "german")}
    three = zoc.zones_of_both(board, data, units, ("german", "soviet", "x"))
    assert three == {s: zoc._zone(board, data, units, s) for s in ("german", "soviet", "x")}
    with pytest.raises(ValueError, match="nobody is not in the counters data"):
        zoc.zones_of_both(
            board, data, [{"id": "nobody", "side": "german", "hex": "op:2419"}], gs.SIDES
        )


def test_lone_units_and_stacks_on_every_kind_of_hex_as_every_hex_checked() -> None:
    """end_of_phase_problems groups only the hexes of several units (no list for a lone
    unit): every counter alone and in stacks on every kind of hex, Volkssturm units, a hex
    not on the maps; the same problems, hexes in the same order."""
    from pbem.games.gotterdammerung import map_data as md
    from tests.games.gotterdammerung.test_gd_fast_paths import plain_overstacks

    state = ENGINE.setup(None, {})
    board, data = state["board"], state["counters"]
    kinds: dict[str, list[str]] = {}
    for h in sorted(board["hexes"]):
        kinds.setdefault(md.kind(board, h), []).append(h)
    rng = random.Random(2929)
    ids = sorted(data["units"])
    for kind, hexes in sorted(kinds.items()):
        units: list[dict[str, Any]] = []
        for n, uid in enumerate(ids):  # (one a hex, or several where the hexes are few)
            side = "german" if data["units"][uid]["side"] == "german" else "soviet"
            units.append({"id": uid, "side": side, "hex": hexes[n % len(hexes)]})
        units.append({"id": "vs-x", "side": "german", "hex": rng.choice(hexes), "volkssturm": 1})
        rng.shuffle(units)
        got = zoc.end_of_phase_problems(board, data, units)
        assert list(got.items()) == list(plain_overstacks(board, data, units).items()), kind
    lone = [{"id": ids[0], "side": "soviet", "hex": "op:9999"}]
    with pytest.raises(ValueError, match="not a hex of the maps"):
        zoc.end_of_phase_problems(board, data, lone)
    assert zoc.end_of_phase_problems(board, data, iter([])) == {}


def test_set_for_all_is_set_field_for_each_unit() -> None:
    """state.set_for_all (a phase's end: every unit's Delay markers, disruption) changes, and
    copies, exactly the units that set_field would: not those holding the value already (of
    its type too: 0 is not False), and a unit without the field gets it."""
    for key, value in (("delays", 0), ("disrupted", False), ("out_of_supply", False)):
        base = gs.copy_state(ENGINE.setup(None, {}))
        units = list(base["units"])
        for i, uid in enumerate(units[:12]):
            unit = gs.own(base, uid)
            if i % 4 == 0:
                unit.pop(key, None)
            elif i % 4 == 1:
                unit[key] = 1
            elif i % 4 == 2:
                unit[key] = 0 if value is False else False
        one, each = gs.copy_state(base), gs.copy_state(base)
        gs.set_for_all(one, key, value)
        for uid in each["units"]:
            gs.set_field(each, uid, key, value)
        assert marshal.dumps(one, 2) == marshal.dumps(each, 2)
        for uid in units:
            assert (one["units"][uid] is base["units"][uid]) == (
                each["units"][uid] is base["units"][uid]
            )
        assert any(one["units"][uid] is not base["units"][uid] for uid in units)


def test_entry_hexes_asked_of_every_unit_are_those_of_the_units_on_the_maps() -> None:
    """state.entry_hexes reads every unit, not only those on the maps: entry hexes (and a
    schedule's own hex, 9.21) are map hexes, which no unit off the maps has. The same hexes
    as asking the units on the maps, on a bot game's positions with units moved onto them."""
    from pbem.games.gotterdammerung import arrivals
    from pbem.games.gotterdammerung import map_data as md
    from tests.games.gotterdammerung import gd_games

    board = ENGINE.setup(None, {})["board"]
    for code, hexes in board["entry"].items():
        assert all(h in board["hexes"] for h in hexes), code
    rng = random.Random(29)
    found: set[int] = set()
    for n in range(0, gd_games.length(3), 97):
        state = gd_games.position(3, n)
        units = list(state["units"].values())
        for u in rng.sample(units, min(8, len(units))):
            code = rng.choice(sorted(board["entry"]))
            u["hex"] = rng.choice([*board["entry"][code], None, gs.NGP])
        for info in [*state["waiting"].values(), {"at": None, "hex": "op:3220"}]:
            if info.get("at") is not None and info["at"] not in board["entry"]:
                continue  # (the box's arrivals, 9.22: not entered at a hex)
            assert info.get("at") is not None or info["hex"] in board["hexes"]
            for side in gs.SIDES:
                on = gs.on_map(state)
                if info.get("at") is None:
                    blocked = any(u["hex"] == info["hex"] and u["side"] != side for u in on)
                    expected = [] if blocked else [info["hex"]]
                else:
                    expected = arrivals.entry_hexes(board, on, info["at"], side)
                got = gs.entry_hexes(state, info, side)
                assert got == expected
                found.add(len(got))
        assert md.kind(board, "op:3220") != md.UNUSED
    assert len(found) > 1
