"""Götterdämmerung's bot samplers (choices.py) after issue 29's work give exactly what the
plain samplers gave (kept here as they were): the same decision and the generator left in
the same state, on every movement and combat position of two seeded bot games and on copies
changed by hand, so that the bots play the same games as before.

- sample_move: units checked lazily (`_some_movable` a generator), a unit the phase bars from
  moving skipped after the draws, a path not tried once its first hex was refused alone,
  neighbours and distances from per-map tables, the flags counted in C, `choices.shuffle`,
  the Soviet candidates' keys made in one list, one preview shared by the overrun and the
  walk, ZOC callbacks found only for a path that is checked.
- _attacks: each target's answer remembered by what it reads (`_target_memo`); a changed
  unit, phase, turn or map is a new key, never the old answer.
- choices.shuffle vs random.Random.shuffle.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import arrivals, choices, fighting, moving, overrun, phases, zoc
from pbem.games.gotterdammerung import combat as cb
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung.decisions import Attack, Done, Move, Overrun
from tests.games.gotterdammerung import gd_games

SEEDS = (3, 4)  # (played once per process: gd_games.py)


# --- the plain samplers (as choices.py had them before) --------------------------------------


def plain_some_movable(state: Any, side: str, rng: random.Random, most: int) -> list[Any]:
    units = gs.on_map(state)
    order = [u for u in units if u["side"] == side and not u.get("moved")]
    rng.shuffle(order)
    found: list[Any] = []
    for unit in order:
        if len(found) == most:
            break
        try:
            moving._eligible(state, unit, units)
        except IllegalOrderError:
            continue
        if gs.face(state, unit)["movement"] >= 1:
            found.append(unit)
    return found


def plain_sample_walk(state: Any, unit: Any, rng: random.Random) -> Any:
    try:
        move = moving.preview(state, unit)
    except IllegalOrderError:
        return None
    if move.get("stopped") or move["points"] < 1:
        return None
    board = state["board"]
    enemy = gs.enemy_hexes(state, unit["side"])
    start = unit["hex"]
    firsts = [
        n for n in md.neighbours(board, start) if n not in enemy and md.kind(board, n) != md.UNUSED
    ]
    candidates = [[n] for n in firsts]
    candidates += [
        [n, m]
        for n in firsts
        for m in md.neighbours(board, n)
        if m != start and m not in enemy and md.kind(board, m) != md.UNUSED
    ]
    if unit["side"] == "soviet":
        candidates.sort(key=lambda p: (choices._distance(state, p[-1]), rng.random()))
        head = candidates[: max(3, len(candidates) // 3)]
        rng.shuffle(head)
        candidates = head + candidates[len(head) :]
    else:
        rng.shuffle(candidates)
    callbacks = moving.zoc_rules(state, unit, move["zoc"] if move["fresh"] else False)
    facts = gs.mover(state, unit)
    for path in candidates[:24]:
        if not choices._may_end(state, unit, path[-1]):
            continue
        try:
            moving.check_walk(state, unit, move, path, callbacks, enemy=enemy, facts=facts)
        except IllegalOrderError:
            continue
        return Move(unit["id"], tuple(choices._short(h) for h in path))
    return None


def plain_sample_overrun(state: Any, unit: Any, rng: random.Random) -> Any:
    try:
        move = moving.preview(state, unit)
    except IllegalOrderError:
        return None
    board = state["board"]
    units = gs.on_map(state)
    for n in md.neighbours(board, unit["hex"]):
        if not any(u["hex"] == n and u["side"] == "german" for u in units):
            continue
        problems = overrun.overrun_problems(
            board,
            state["tables"],
            state["counters"],
            units,
            gs.mover(state, unit),
            unit["hex"],
            n,
            points_left=move["points"],
            phase=phases.MOVEMENT[state["phase"]],
            turn=state["turn"],
        )
        if not problems and rng.random() < 0.7:
            return Overrun(unit["id"], choices._short(unit["hex"]), choices._short(n))
    return None


def plain_sample_move(state: Any, role: str, rng: random.Random) -> Any:
    side = phases.phase_side(state)
    current = state["moving"]
    if state["phase"] in moving.NORMAL_PHASES:
        for uid in choices._due(state, side):
            sample = choices._sample_entry(state, uid, rng)
            if sample is not None:
                return sample
        if side == "german" and state["phase_data"].get("ngp_allowed", 0) > 0:
            for unit in gs.in_box(state, "german"):
                sample = choices._sample_entry(state, unit["id"], rng, code="N")
                if sample is not None:
                    return sample
    if current is not None and current["points"] > 0 and rng.random() < 0.5:
        unit = state["units"].get(current["unit"])
        if unit is not None:
            sample = plain_sample_walk(state, unit, rng)
            if sample is not None:
                return sample
    moved = sum(1 for u in state["units"].values() if u.get("moved"))
    if moved >= choices.MOVES_PER_PHASE or rng.random() < 0.1:
        return Done()
    for unit in plain_some_movable(state, side, rng, 6):
        if unit.get("delays") and state["phase"] == "soviet-move":
            return Move(unit["id"], ())
        if side == "soviet" and state["phase"] in ("soviet-move", "breakthrough"):
            sample = plain_sample_overrun(state, unit, rng)
            if sample is not None:
                return sample
        sample = plain_sample_walk(state, unit, rng)
        if sample is not None:
            return sample
    return Done()


def plain_attacks(state: Any) -> list[tuple[Attack, Any]]:
    side = phases.phase_side(state)
    board, data = state["board"], state["counters"]
    units = gs.on_map(state)
    targets = sorted({u["hex"] for u in units if u["side"] != side and not u.get("defended")})
    fighting_units = [choices._guessed(fighting.fighting_unit(u, u["side"] != side)) for u in units]
    found = []
    for target in targets:
        if state["phase"] == "siege-combat" and md.kind(board, target) == md.OPERATIONAL:
            continue
        around = set(md.neighbours(board, target))
        beside = [u for u in units if u["side"] == side and u["hex"] in around]
        near = [u for u in beside if not fighting.declaration_problems(state, units, [u], target)]
        if state["phase"] == "siege-combat":
            near = [u for u in near if md.kind(board, u["hex"]) != md.OPERATIONAL]
        nations = {data["units"].get(u["id"], {}).get("nationality") for u in near}
        if "american" in nations and len(nations) > 1:
            near = [
                u for u in near if data["units"].get(u["id"], {}).get("nationality") != "american"
            ]
        if not near:
            continue
        hexes = tuple(sorted({choices._short(u["hex"]) for u in near}))
        decision = Attack(choices._short(target), hexes, tuple(sorted(u["id"] for u in near)))
        try:
            odds = cb.combat_odds(
                board,
                state["tables"],
                data,
                fighting_units,
                near,
                target,
                turn=state["turn"],
                crt="soviet" if side == "soviet" else arrivals.crt_for_attack(data, near),
            )
        except IllegalOrderError:
            continue
        found.append((decision, odds))
    return found


def plain_volkssturm_hexes(state: Any, want: int, rng: random.Random) -> list[str]:
    board, data = state["board"], state["counters"]
    units = gs.on_map(state)
    candidates = sorted(k for k in board["hexes"] if k.startswith("city:"))
    rng.shuffle(candidates)
    good: list[str] = []
    for h in candidates:
        if len(good) == want:
            break
        if not arrivals.volkssturm_hex_problems(board, data, units, h):
            good.append(h)
    return good


# --- the comparisons ---------------------------------------------------------------------------


def _positions(step: str) -> list[Any]:
    return [
        state
        for seed in SEEDS
        for n in range(gd_games.length(seed))
        if (state := gd_games.position(seed, n))["step"] == step
    ]


def _same_move(state: Any, role: str, seed: int) -> None:
    a, b = random.Random(seed), random.Random(seed)
    got = choices.sample_move(state, role, a)
    assert got == plain_sample_move(state, role, b), (state["turn"], state["phase"], seed)
    assert a.getstate() == b.getstate(), (state["turn"], state["phase"], seed)


def test_sample_move_is_the_plain_sampler() -> None:
    positions = _positions("move")
    assert len(positions) > 300
    phases_seen = set()
    for i, state in enumerate(positions):
        phases_seen.add(state["phase"])
        role = gs.role_of(state, phases.phase_side(state))
        for seed in (i, i + 7919):
            _same_move(state, role, seed)
    assert {"soviet-move", "german-move", "siege-move", "breakthrough", "counter-1"} <= phases_seen


def test_sample_walk_of_every_unit_is_the_plain_one() -> None:
    """Every unit of the side, not only those the bot reaches: units the phase bars, units
    beside the enemy, units that cannot end where they go (overstacks)."""
    tried = answers = 0
    for state in _positions("move")[::9]:
        side = phases.phase_side(state)
        for j, unit in enumerate(u for u in gs.on_map(state) if u["side"] == side):
            a, b = random.Random(j), random.Random(j)
            got = choices._sample_walk(state, unit, a)
            assert got == plain_sample_walk(state, unit, b), (state["phase"], unit["id"])
            assert a.getstate() == b.getstate()
            tried += 1
            answers += got is not None
    assert tried > 500 and 0 < answers < tried


def test_attacks_are_the_plain_ones_and_never_a_stale_answer() -> None:
    positions = _positions("combat")
    assert len(positions) > 50
    for state in positions:  # (in game order: later calls find earlier answers)
        assert choices._attacks(state) == plain_attacks(state)
    # the same positions changed by hand after their answers were kept: every change of
    # what an answer reads is a new key (a unit's field, its type, the turn, the phase)
    rng = random.Random(5)
    changed = 0
    for state in rng.sample(positions, 20):
        before = choices._attacks(state)
        if not before:
            continue
        target = gs.hex_of(state, before[0][0].target)
        attacker = state["units"][before[0][0].units[0]]
        for edit in ("attacked", "steps", "out_of_supply", "turn", "defender", "type"):
            other = copy.deepcopy({k: v for k, v in state.items() if k not in gs.STATIC_KEYS})
            other.update({k: state[k] for k in gs.STATIC_KEYS})
            unit = other["units"][attacker["id"]]
            if edit == "attacked":
                unit["attacked"] = True
            elif edit == "steps":
                unit["steps"] = 1
            elif edit == "out_of_supply":
                unit["out_of_supply"] = not unit.get("out_of_supply")
            elif edit == "turn":
                other["turn"] = 1 if state["turn"] != 1 else 2
            elif edit == "defender":
                for u in other["units"].values():
                    if u["hex"] == target:
                        u["out_of_supply"] = not u.get("out_of_supply")
            else:
                unit["steps"] = float(unit["steps"])
            assert choices._attacks(other) == plain_attacks(other), edit
            changed += 1
    assert changed > 30
    # a map object of its own (equal content) starts the kept answers afresh
    state = positions[0]
    other = dict(state, board=copy.deepcopy(state["board"]))
    assert choices._attacks(other) == plain_attacks(state)
    assert choices._TARGETS["static"][0] is other["board"]


def test_volkssturm_hexes_are_the_plain_ones() -> None:
    tried = 0
    for state in _positions("reinforce"):
        for want in (1, 3):
            a, b = random.Random(want), random.Random(want)
            got = choices._volkssturm_hexes(state, want, a)
            assert got == plain_volkssturm_hexes(state, want, b)
            assert a.getstate() == b.getstate()
            tried += 1
    assert tried >= 10


@pytest.mark.parametrize("size", [0, 1, 2, 3, 17, 64, 200])
def test_shuffle_is_random_shuffle(size: int) -> None:
    for seed in range(40):
        a, b = random.Random(seed), random.Random(seed)
        x, y = list(range(size)), list(range(size))
        a.shuffle(x)
        choices.shuffle(b, y)
        assert x == y and a.getstate() == b.getstate()


def test_shuffle_of_another_generator_is_its_own() -> None:
    class Counted(random.Random):
        calls = 0

        def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
            Counted.calls += 1
            super().shuffle(x)

    rng = Counted(3)
    items = list(range(10))
    choices.shuffle(rng, items)
    assert Counted.calls == 1 and sorted(items) == list(range(10))


def test_zoc_by_hex_is_what_may_end_reads() -> None:
    """_may_end with the units by hex (zoc.by_hex) and without them agree."""
    for state in _positions("move")[::25]:
        stacks = zoc.by_hex(state["units"].values())
        for unit in list(state["units"].values())[:30]:
            if unit["hex"] in (None, gs.NGP):
                continue
            for h in md.neighbours(state["board"], unit["hex"]):
                if md.kind(state["board"], h) == md.UNUSED:
                    continue
                assert choices._may_end(state, unit, h, stacks) == choices._may_end(state, unit, h)
