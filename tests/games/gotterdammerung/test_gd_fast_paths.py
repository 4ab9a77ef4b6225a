"""Götterdämmerung: the fast paths of issue 29 give exactly what the plain computations give
(the ones the code had before), on positions of seeded bot games and on shuffled copies of
them (units moved at random, some disrupted: overstacks, lone units in Berlin, positions the
bots would not reach); and what they remember is never used once the units have changed.

- combat.attack_problems with the units of the target hex only (choices._attacks) vs all.
- zoc.zone_of_all (units off the maps skipped as they come) vs _zone of those on the maps.
- zoc._zone (remembered by the enemy units' hexes and strengths) vs 4.21-4.27 unit by unit;
  units changed in place, in the same list, are seen.
- zoc.end_of_phase_problems: lone units within their hex's limit skipped, vs every hex
  through stack_problems.
- victory.german_vp / surviving: one backward search per position, vs a trace per unit.
- combat.retreat_problems with the position's `sides_at` and `zone` given, vs found per path.
- supply._build_steps vs md.neighbours + may_step, on the maps the options play (12.35 and
  12.51 remove Front boundary hexsides).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from pbem.games.gotterdammerung import combat as cb
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import supply, victory, zoc
from pbem.games.gotterdammerung.rules import ENGINE
from tests.games.gotterdammerung import gd_games
from tests.games.gotterdammerung.test_gd_speed import plain_enemy_zoc as plain_zone

Unit = Mapping[str, Any]


# --- the plain computations (what the code did before) -------------------------------------


def plain_overstacks(board: Any, data: Any, units: Sequence[Unit]) -> dict[str, list[str]]:
    out = {}
    for h, stack in zoc.by_hex(units).items():
        problems = zoc.stack_problems(board, data, stack)
        if problems:
            out[h] = problems
    return out


def plain_surviving(board: Any, data: Any, units: Sequence[Unit], unit: Unit) -> bool:
    if unit["hex"] == gs.NGP:
        return False
    if zoc.counter(data, unit)["branch"] == "fuhrer":
        return True
    blocked = supply.blocker(board, data, units, "german", strong_cancelled=True)
    ends = victory.exit_hexes(board)
    if md.kind(board, unit["hex"]) != md.CITY_HEX:
        return supply.trace(board, "german", unit["hex"], ends, blocked) is not None
    held = sorted(
        {u["hex"] for u in units if u["side"] == "german" and u["hex"] in board["transition"]}
    )
    for th in held:
        if (
            blocked(th)
            or supply.trace(board, "german", unit["hex"], {th}, blocked, on=md.CITY) is None
        ):
            continue
        if supply.trace(board, "german", th, ends, blocked) is not None:
            return True
    return False


def plain_steps(board: Any, side: str, on: str | None) -> dict[str, list[str]]:
    return {
        h: [n for n in md.neighbours(board, h, on) if supply.may_step(board, side, h, n)]
        for h in board["hexes"]
    }


# --- positions ---------------------------------------------------------------------------


def positions() -> tuple[Any, Any, list[list[dict[str, Any]]]]:
    """The units on the maps every 50th entry of two seeded bot games, and a shuffled copy
    of each (30% of the units moved to random hexes, 10% disrupted toggled)."""
    found: list[list[dict[str, Any]]] = []
    board = data = None
    for seed in (3, 4):  # (each game played once per process: gd_games.py)
        for count in range(50, min(3000, gd_games.length(seed) - 1) + 1, 50):
            found.append(gs.on_map(gd_games.position(seed, count)))
        first = gd_games.position(seed, 0)
        board, data = first["board"], first["counters"]
    rng = random.Random(29)
    hexes = sorted(h for h in board["hexes"] if md.kind(board, h) != md.UNUSED)
    shuffled = []
    for units in found:
        other = copy.deepcopy(units)
        for u in other:
            if rng.random() < 0.3:
                u["hex"] = rng.choice(hexes)
            if rng.random() < 0.1:
                u["disrupted"] = not u.get("disrupted")
        shuffled.append(other)
    return board, data, found + shuffled


@pytest.fixture(scope="module")
def game() -> tuple[Any, Any, list[list[dict[str, Any]]]]:
    return positions()


# --- the tests ---------------------------------------------------------------------------


def test_zone_is_the_unit_by_unit_map_and_sees_units_changed_in_place(game: Any) -> None:
    board, data, found = game
    assert len(found) >= 20
    rng = random.Random(7)
    hexes = sorted(h for h in board["hexes"] if md.kind(board, h) != md.UNUSED)
    for units in found:
        for side in gs.SIDES:
            assert zoc._zone(board, data, units, side) == plain_zone(board, data, units, side)
            assert zoc.enemy_zoc(board, data, units, side) == plain_zone(board, data, units, side)
        # the same list, its units changed in place: what was remembered is not used
        changed = copy.deepcopy(units)
        for side in gs.SIDES:
            zoc._zone(board, data, changed, side)
        enemy = [u for u in changed if u["side"] == "german"]
        if not enemy:
            continue
        u = rng.choice(enemy)
        u["hex"] = rng.choice(hexes)  # moved
        assert zoc._zone(board, data, changed, "soviet") == plain_zone(
            board, data, changed, "soviet"
        )
        u["disrupted"] = not u.get("disrupted")  # 4.27
        assert zoc._zone(board, data, changed, "soviet") == plain_zone(
            board, data, changed, "soviet"
        )
        u["side"] = "soviet"  # (not a rule: any fact the map reads is part of the key)
        assert zoc._zone(board, data, changed, "soviet") == plain_zone(
            board, data, changed, "soviet"
        )


def test_zone_of_all_is_the_zone_of_the_units_on_the_maps(game: Any) -> None:
    """zoc.zone_of_all (units off the maps among them, skipped) vs _zone of the units on the
    maps, and vs the unit-by-unit map; an error as _zone's for a unit not in the data."""
    board, data, found = game
    rng = random.Random(11)
    for units in found:
        every = copy.deepcopy(units)
        for u in rng.sample(every, min(5, len(every))):
            every.insert(rng.randrange(len(every) + 1), dict(u, hex=rng.choice((None, gs.NGP))))
        on_map = [u for u in every if u["hex"] not in (None, gs.NGP)]
        for side in gs.SIDES:
            got = zoc.zone_of_all(board, data, every, side)
            assert got == zoc._zone(board, data, on_map, side)
            assert got == plain_zone(board, data, on_map, side)
    stranger = {"id": "nobody", "side": "german", "hex": found[0][0]["hex"]}
    with pytest.raises(ValueError, match="nobody is not in the counters data"):
        zoc.zone_of_all(board, data, [*found[0], stranger], "soviet")
    off = {"id": "nobody", "side": "german", "hex": gs.NGP}  # (off the maps: not read)
    assert zoc.zone_of_all(board, data, [*found[0], off], "soviet") == zoc._zone(
        board, data, found[0], "soviet"
    )


def test_attack_problems_read_the_units_of_the_target_hex_only(game: Any) -> None:
    """choices._attacks gives combat.attack_problems the units in the target hex instead of
    every unit (it reads them only for cb.defenders): the same problems, for one attacker
    and for several, against hexes held, empty and of either side."""
    board, data, found = game
    rng = random.Random(13)
    compared = problems = 0
    for units in found:
        stacks = zoc.by_hex(units)
        for attacker in rng.sample(units, min(8, len(units))):
            near = (
                md.neighbours(board, attacker["hex"]) if attacker["hex"] in board["hexes"] else []
            )
            for target in [*near, attacker["hex"]]:
                team = [
                    attacker,
                    *(u for u in stacks.get(attacker["hex"], []) if u is not attacker),
                ]
                for chosen in ([attacker], team[:2]):
                    # (as fighting.declaration_problems shows a face-down Volkssturm unit)
                    attackers = [
                        {**u, "attack": 1} if u.get("volkssturm") and "attack" not in u else u
                        for u in chosen
                    ]
                    for turn in (1, 5):
                        every = cb.attack_problems(board, data, units, attackers, target, turn=turn)
                        there = stacks.get(target, [])
                        assert (
                            cb.attack_problems(board, data, there, attackers, target, turn=turn)
                            == every
                        )
                        compared += 1
                        problems += bool(every)
    assert compared > 500 and 0 < problems < compared


def test_zone_of_a_volkssturm_flag_and_of_other_counters_data(game: Any) -> None:
    """4.22: the same ids and hexes with a Volkssturm flag give a weak ZOC; counters data of
    other ZOC strengths (another object) are not answered from the first's map."""
    board, data, found = game
    units = copy.deepcopy(found[0])
    # a German unit whose ZOC is not weak (none: a Führer, depot or HQ, 4.21)
    unit = next(u for u in units if u["side"] == "german" and zoc.zoc_strength(data, u) != "weak")
    before = zoc._zone(board, data, units, "soviet")
    assert before == plain_zone(board, data, units, "soviet")
    unit["volkssturm"] = True
    flagged = zoc._zone(board, data, units, "soviet")
    assert flagged == plain_zone(board, data, units, "soviet") != before
    del unit["volkssturm"]
    other = copy.deepcopy(data)
    for c in other["units"].values():
        c["zoc"] = "none"
    assert zoc._zone(board, other, units, "soviet") == plain_zone(board, other, units, "soviet")
    assert zoc._zone(board, data, units, "soviet") == before
    # a unit not in the counters data: counter()'s error, as unit by unit (not skipped)
    stranger = {"id": "nobody", "side": "german", "hex": units[0]["hex"]}
    with pytest.raises(ValueError, match="nobody is not in the counters data"):
        zoc._zone(board, data, [*units, stranger], "soviet")


def test_end_of_phase_problems_are_every_hex_checked(game: Any) -> None:
    board, data, found = game
    broken = 0
    for units in found:
        got = zoc.end_of_phase_problems(board, data, units)
        assert got == plain_overstacks(board, data, units)
        broken += len(got)
    assert broken > 0  # (the shuffled positions break the limits somewhere)
    # a lone unit over a City hex's limit is found (4.0): a Soviet Tank corps counts 3 or 4
    big = next(
        uid
        for uid, c in data["units"].items()
        if int(c["stacking"]) > 2 and c["side"] == "soviet" and c["branch"] != "rifle"
    )
    lone = [{"id": big, "side": "soviet", "hex": "city:1320"}]
    assert zoc.end_of_phase_problems(board, data, lone) == plain_overstacks(board, data, lone)
    assert zoc.end_of_phase_problems(board, data, lone)


def test_random_stacks_are_found_as_every_hex_checked(game: Any) -> None:
    """end_of_phase_problems' bound per hex never passes a stack stack_problems refuses,
    nor refuses a legal one: random stacks of 1-4 units of any side, nationality and kind
    (support units, Rifle Corps in Berlin, Volkssturm), on Operational, Transition and City
    hexes, several hexes at once."""
    board, data, _ = game
    rng = random.Random(2929)
    ids = sorted(data["units"])
    hexes = ["op:2419", "op:2420", "city:1320", "city:0825"]
    broken = legal = 0
    for _ in range(1500):
        units: list[dict[str, Any]] = []
        for h in hexes:
            for uid in rng.sample(ids, rng.randint(1, 4)):
                side = "german" if data["units"][uid]["side"] == "german" else "soviet"
                units.append({"id": uid, "side": side, "hex": h})
            for n in range(rng.choice((0, 0, 1, 2, 3))):
                units.append({"id": f"vs-{h}-{n}", "side": "german", "hex": h, "volkssturm": True})
        rng.shuffle(units)
        got = zoc.end_of_phase_problems(board, data, units)
        assert got == plain_overstacks(board, data, units)
        assert list(got) == list(plain_overstacks(board, data, units))  # (the same order)
        broken += len(got)
        legal += len(hexes) - len(got)
    assert broken > 100 and legal > 100
    with pytest.raises(ValueError, match="not in the counters data"):
        zoc.end_of_phase_problems(
            board, data, [{"id": "nobody", "side": "german", "hex": "op:2419"}]
        )


def test_german_vp_is_the_unit_by_unit_count(game: Any) -> None:
    board, data, found = game
    alive = 0
    for units in found:
        for u in units:
            if u["side"] == "german":
                fast = victory.surviving(board, data, units, u)
                assert fast == plain_surviving(board, data, units, u)
                alive += fast
        expected = sum(
            victory.unit_vp(data, u)
            for u in units
            if u["side"] == "german" and plain_surviving(board, data, units, u)
        )
        assert victory.german_vp(board, data, units) == expected
    assert alive > 0


def test_retreat_problems_with_the_position_given(game: Any) -> None:
    board, data, found = game
    rng = random.Random(5)
    for units in found[::3]:
        for unit in rng.sample(units, min(6, len(units))):
            sides_at = cb.sides_by_hex(units)
            zone = zoc._zone(board, data, units, unit["side"])
            start = unit["hex"]
            for n1 in md.neighbours(board, start):
                for path in ([n1], *([n1, n2] for n2 in md.neighbours(board, n1))):
                    for attacking in (True, False):
                        kwargs = {"enemy_hex": n1, "attacking": attacking}
                        plain = cb.retreat_problems(board, data, units, unit, path, **kwargs)
                        given = cb.retreat_problems(
                            board, data, units, unit, path, sides_at=sides_at, zone=zone, **kwargs
                        )
                        assert given == plain


@pytest.mark.parametrize(
    "options", [{}, {"sixth_ss": True}, {"short_boundary": True}], ids=["plain", "6th", "short"]
)
def test_supply_steps_on_the_maps_of_the_options(options: dict[str, bool]) -> None:
    loaded = ENGINE.data_or_shipped(None)["map"]
    board = gs.board_for(loaded, options)
    assert (board["fronts"] != loaded["fronts"]) == bool(options)
    for side in gs.SIDES:
        for on in (md.OP, md.CITY, None):
            assert supply._build_steps(board, side, on) == plain_steps(board, side, on)
