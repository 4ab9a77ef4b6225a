"""Götterdämmerung: the remembered ZOC maps and supply lines (issue 16, "Speed") give exactly
what the plain per-unit computations give (rulebook 4.2, 8.1), on positions of a bot game and
on shuffled copies of them; and a map edited after `map_data.changed` is not answered from
what was remembered of it."""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import pytest

from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import supply, zoc
from pbem.games.gotterdammerung.rules import ENGINE
from tests.games.gotterdammerung import gd_games


def plain_enemy_zoc(board: Any, data: Any, units: Sequence[Any], side: str) -> dict[str, str]:
    """4.21-4.27 unit by unit, nothing remembered (what zoc.enemy_zoc computed before)."""
    out: dict[str, str] = {}
    for u in units:
        if u["side"] == side:
            continue
        strength = zoc.zoc_strength(data, u)
        if strength is None:
            continue
        for n in zoc._zoc_reach(board, u["hex"]):
            if out.get(n) != zoc.STRONG:
                out[n] = strength
    return out


def plain_trace(
    board: Any,
    side: str,
    start: str,
    targets: Collection[str],
    blocked: Callable[[str], bool],
    limit: int | None = None,
    on: str | None = md.OP,
) -> str | None:
    """8.12-8.15 by asking the map at every step (what supply.trace did before)."""
    if start in targets:
        return start
    seen = {start: 0}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        if limit is not None and seen[h] >= limit:
            continue
        for n in md.neighbours(board, h, on):
            if n in seen or not supply.may_step(board, side, h, n) or blocked(n):
                continue
            if n in targets:
                return n
            seen[n] = seen[h] + 1
            todo.append(n)
    return None


def plain_status(board: Any, data: Any, units: Sequence[Any], turn: int, occupied: Any) -> Any:
    """8.11 and 8.18 unit by unit (what supply.supply_status did before)."""
    out = {}
    for u in units:
        if u["side"] != "soviet":
            continue
        if supply.unit_supplied(board, data, units, u, turn, set(occupied)):
            out[u["id"]] = supply.SUPPLIED
        elif supply.defence_only(board, data, units, u):
            out[u["id"]] = supply.DEFENCE_ONLY
        else:
            out[u["id"]] = supply.OUT
    return out


SEED = 3


def positions() -> tuple[Any, Any, list[dict[str, Any]]]:
    """Every 60th position of a seeded bot game, and a shuffled copy of each (units
    moved to random hexes, some disrupted): positions the bots would not reach."""
    # (seed 3, whose game test_gd_fast_paths.py reads too: played once, gd_games.py)
    found = []
    for count in range(60, min(5000, gd_games.length(SEED) - 1) + 1, 60):
        state = gd_games.position(SEED, count)
        found.append({k: state[k] for k in ("units", "turn", "occupied")})
    final = gd_games.position(SEED, gd_games.length(SEED) - 1)
    rng = random.Random(16)
    board = final["board"]
    hexes = sorted(h for h in board["hexes"] if md.kind(board, h) != md.UNUSED)
    shuffled = []
    for position in found:
        for _ in range(1):
            other = copy.deepcopy(position)
            for u in other["units"].values():
                if rng.random() < 0.3 and u["hex"] != gs.NGP:
                    u["hex"] = rng.choice(hexes)
                if rng.random() < 0.1:
                    u["disrupted"] = not u.get("disrupted")
            other["occupied"] = sorted(set(other["occupied"]) | set(rng.sample(hexes, 5)))
            shuffled.append(other)
    return board, final["counters"], found + shuffled


@pytest.fixture(scope="module")
def game() -> tuple[Mapping[str, Any], Mapping[str, Any], list[dict[str, Any]]]:
    return positions()


def on_maps(position: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [u for u in position["units"].values() if u["hex"] not in (None, gs.NGP)]


def test_enemy_zoc_is_the_unit_by_unit_map(game: Any) -> None:
    board, data, found = game
    assert len(found) >= 12
    for position in found:
        units = on_maps(position)
        for side in ("soviet", "german"):
            expected = plain_enemy_zoc(board, data, units, side)
            first = zoc.enemy_zoc(board, data, units, side)
            assert list(first.items()) == list(expected.items())
            first["op:0101"] = "changed by a caller"  # a caller's copy: not remembered
            assert zoc.enemy_zoc(board, data, units, side) == expected


def test_enemy_zoc_of_other_zoc_kinds_is_the_unit_by_unit_map(game: Any) -> None:
    """A counters file whose units have ZOC kinds other than strong and weak (counters.py
    derives none such): `_zone` gives what asking hex by hex gives, the last kind but a
    strong one written, in the same order."""
    board, data, found = game
    odd = {**data, "units": dict(data["units"])}
    units = on_maps(found[-1])
    for i, u in enumerate(u for u in units[::3] if u["id"] in data["units"]):
        odd["units"][u["id"]] = {**data["units"][u["id"]], "zoc": f"kind-{i % 2}"}
    for side in ("soviet", "german"):
        expected = plain_enemy_zoc(board, odd, units, side)
        assert set(expected.values()) - {zoc.STRONG, zoc.WEAK}
        first = zoc.enemy_zoc(board, odd, units, side)
        assert list(first.items()) == list(expected.items())


def test_supply_status_and_traces_are_the_unit_by_unit_ones(game: Any) -> None:
    board, data, found = game
    statuses: set[str] = set()
    for position in found:
        units = on_maps(position)
        turn, occupied = position["turn"], position["occupied"]
        status = supply.supply_status(board, data, units, turn, occupied)
        assert status == plain_status(board, data, units, turn, occupied)
        statuses |= set(status.values())
        blocked = supply.blocker(board, data, units, "soviet")
        ends = set(supply.source_hexes(board, turn))
        lines = supply._Lines(board, "soviet", blocked)
        for u in units[:40]:
            for limit, on in ((supply.SUPPLY_RANGE, md.OP), (None, md.OP), (None, md.CITY)):
                got = supply.trace(board, "soviet", u["hex"], ends, blocked, limit=limit, on=on)
                assert got == plain_trace(board, "soviet", u["hex"], ends, blocked, limit, on)
                if on == md.OP:  # the whole position's search backwards from the ends
                    assert lines.reaches(u["hex"], ends, limit) == (got is not None)
            for limit in (1, 3):  # short lines: the limit counts exactly
                near = plain_trace(board, "soviet", u["hex"], ends, blocked, limit)
                assert lines.reaches(u["hex"], ends, limit) == (near is not None)
    assert statuses == {supply.SUPPLIED, supply.OUT, supply.DEFENCE_ONLY}


def test_unlimited_lines_remembered_are_the_traces(game: Any) -> None:
    """supply.reaches_unlimited (one backward search per position, remembered by the
    blocked hexes) answers as a trace from each start, on each map and for both sides; a
    position changed in place (a unit moved) is not answered from the memo."""
    board, data, found = game
    west = md.edge_hexes(board, "west")
    city = sorted(h for h in board["hexes"] if md.kind(board, h) == md.CITY_HEX)
    answers: set[bool] = set()
    for position in found:
        units = on_maps(position)
        for side, ends in (("german", west), ("soviet", supply.source_hexes(board, 3))):
            blocked = supply.blocker(board, data, units, side)
            starts = [u["hex"] for u in units[:30]] + city[::7]
            for on in (md.OP, None, md.CITY):
                for h in starts:
                    got = supply.reaches_unlimited(board, data, units, side, h, ends, on=on)
                    expected = plain_trace(board, side, h, set(ends), blocked, None, on)
                    assert got == (expected is not None), (side, on, h)
                    answers.add(got)
    assert answers == {True, False}
    # stale: the same list of units, changed in place (Soviet units now all round the
    # hex), is not answered from the memo of the position before
    units = on_maps(found[0])
    h = next(
        c
        for c in city
        if supply.reaches_unlimited(board, data, units, "german", c, west, on=None)
        and not any(u["hex"] == c for u in units)
    )
    soviets = [u for u in units if u["side"] == "soviet"]
    for u, n in zip(soviets, md.neighbours(board, h), strict=False):
        u["hex"] = n
    blocked = supply.blocker(board, data, units, "german")
    assert plain_trace(board, "german", h, set(west), blocked, None, None) is None
    assert not supply.reaches_unlimited(board, data, units, "german", h, west, on=None)


def test_an_edited_map_is_not_answered_from_memory() -> None:
    """8.14: a full sea/lake hexside stops a supply line, also one added to a map already
    traced on (after `map_data.changed`, as tests that edit a loaded map do)."""
    board = copy.deepcopy(md.default_map())
    start, end = "op:2419", "op:2520"
    assert end in md.neighbours(board, start, md.OP)
    assert supply.trace(board, "german", start, {end}, lambda h: False, limit=1) == end
    board["hexsides"][md.side_key(start, end)] = ["sea-lake"]
    md.changed(board)
    assert supply.trace(board, "german", start, {end}, lambda h: False, limit=1) is None
    units = [{"id": "vs-01", "side": "german", "hex": start, "volkssturm": True}]
    assert end not in zoc.enemy_zoc(board, {"units": {}}, units, "soviet")  # 4.26


@pytest.mark.parametrize(
    "options", [{}, {"sixth_ss": True}, {"short_boundary": True}], ids=["plain", "12.35", "12.51"]
)
def test_supply_steps_are_the_plain_neighbours_a_line_may_step_into(
    options: dict[str, Any],
) -> None:
    """supply._build_steps (the per-map tables a trace walks) is, for every side, map and
    hex, the neighbours `md.neighbours` lists that `may_step` allows, in that order; and the
    boundary options (12.35, 12.51) change the Soviet tables as they change the map."""
    board = ENGINE.setup(None, options)["board"]
    for side in ("soviet", "german"):
        for on in (md.OP, md.CITY, None):
            built = supply._build_steps(board, side, on)
            assert list(built) == list(board["hexes"])
            for h in board["hexes"]:
                plain = [
                    n for n in md.neighbours(board, h, on) if supply.may_step(board, side, h, n)
                ]
                assert built[h] == plain, (side, on, h)
    with pytest.raises(ValueError, match="unknown map"):
        supply._build_steps(board, "soviet", "moon")


def test_supply_lines_of_a_set_and_of_a_test_are_the_traces(game: Any) -> None:
    """supply._Lines searches a set of stopped hexes (stopped_hexes' own `__contains__`) as
    one set of hexes not to enter; any other test is asked hex by hex. Both give the
    distances and answers of a trace from each start (8.12's 8 hexes and 8.18's unlimited)."""
    board, data, found = game
    east = set(md.edge_hexes(board, "east"))
    answers: set[bool] = set()
    for position in found[::3]:
        units = on_maps(position)
        stopped = supply.stopped_hexes(board, data, units, "soviet")
        by_set = supply._Lines(board, "soviet", stopped.__contains__)
        by_test = supply._Lines(board, "soviet", lambda h, s=stopped: h in s)  # type: ignore[misc]
        for limit in (supply.SUPPLY_RANGE, None):
            assert by_set._distances(frozenset(east), limit) == by_test._distances(
                frozenset(east), limit
            )
        for u in units[:40]:
            expected = plain_trace(board, "soviet", u["hex"], east, stopped.__contains__, 8)
            got = by_set.reaches(u["hex"], east, 8)
            assert got == by_test.reaches(u["hex"], east, 8) == (expected is not None)
            if u["hex"] not in east:  # (8.18's search from the unit, which is not tested)
                unlimited = plain_trace(board, "soviet", u["hex"], east, stopped.__contains__)
                steps = supply._steps(board, "soviet", md.OP)
                connected = supply._connected(steps, u["hex"], east, stopped)
                assert connected == (unlimited is not None)
            answers.add(got)
    assert answers == {True, False}


def test_the_bots_attack_odds_are_those_of_the_whole_position() -> None:
    """choices._attacks gives combat_odds each target's units only (grouped once): the odds
    of every attack it lists are those combat_odds finds in the whole list of units."""
    from pbem.games.gotterdammerung import arrivals, choices, combat, fighting, phases

    tried = 0
    for n in range(min(4000, gd_games.length(4))):  # (seed 4: played once, gd_games.py)
        if tried >= 12:
            break
        state = gd_games.position(4, n)
        if state["step"] == "combat":
            side = phases.phase_side(state)
            units = gs.on_map(state)
            whole = [choices._guessed(fighting.fighting_unit(u, u["side"] != side)) for u in units]
            for decision, odds in choices._attacks(state):
                near = [u for u in units if u["id"] in decision.units]
                target = gs.hex_of(state, decision.target)
                crt = (
                    "soviet"
                    if side == "soviet"
                    else arrivals.crt_for_attack(state["counters"], near)
                )
                expected = combat.combat_odds(
                    state["board"],
                    state["tables"],
                    state["counters"],
                    whole,
                    near,
                    target,
                    turn=state["turn"],
                    crt=crt,
                )
                assert odds == expected, decision
                tried += 1
    assert tried >= 12
