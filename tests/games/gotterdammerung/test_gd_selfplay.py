"""Seeded Götterdämmerung bot games: every game ends with an outcome, and the invariants of
issue 16 hold after every decision: the stacking limits at every phase end (4.16-4.18),
step counts within each counter's steps (6.52), every unit in one place only (a hex of the
maps, a Transition Hex being on both, or the North German Plain Box, 4.15, 5.26), and the
rules that forbid places for good (5.45/5.76 no way back out of the City, 9.36 the 12th
Army, 5.71 corps outside the City); the cups and counts add up (6.81, 8.42, 9.32), Support
Points never grow (6.59, 10.3).

The games run through the engine directly (`pbem.testing.Table`: decisions round-tripped
through format/parse, dice from the table's generator), without signed entries; `pbem demo
gotterdammerung`, the conformance test and bench/selfplay.py play through the signed
pipeline. Work is shared as in the Race to the Sea self-play test: the first seeds play whole
games (trunks) and the others branch off a trunk at the start of a turn with their own
generator, so every seed is a whole game that finishes, checked after every decision of its
own part; each chunk plays one option set (its trunk's), and its branches start in turns
spread over 2-10. GD_SELFPLAY_GAMES changes how many games are played (default 30: five
whole games, one per option set, and 25 branches; 50 took two thirds more time for the
same option sets and turns).
"""

from __future__ import annotations

import copy
import functools
import os
import random
from typing import Any

import pytest

from pbem.core.engine import State
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import phases
from pbem.games.gotterdammerung.rules import ENGINE
from pbem.testing import Table

DATA = ENGINE.load_data({})
GAMES = int(os.environ.get("GD_SELFPLAY_GAMES", "25"))
CHUNKS = 5
TRUNKS = CHUNKS  # seeds that play from the set-up; the others branch off them
DECISIONS = 5000
OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"sixth_ss": True, "underground": True},
    {"curse": True, "short_boundary": True},
    {"bidding": True},
    {"support_points": 15},
)


class Watch:
    """The invariants, checked after every decision against what came before."""

    def __init__(self, state: State) -> None:
        self.points = state["support_points"]
        self.in_city: set[str] = set()
        self.phase = (state["turn"], state["phase"])

    def after(self, state: State, decision: str) -> list[str]:
        problems: list[str] = []
        board, data = state["board"], state["counters"]
        here = f"after {decision!r} (turn {state['turn']}, {state['phase']}, {state['step']})"
        now = (state["turn"], state["phase"])
        if now != self.phase and state["step"] != "remove":
            broken = phases.overstacks(state)
            if broken:
                problems.append(f"{here}: a phase ended overstacked in {sorted(broken)} (4.16)")
        self.phase = now
        if state["support_points"] > self.points and state["turn"] > 0:
            problems.append(f"{here}: Support Points grew (6.59)")
        self.points = state["support_points"]
        seen = set(state["units"])
        for uid, unit in state["units"].items():
            counter = data["units"].get(uid)
            most = 1 if counter is None else int(counter["steps"])
            if not 1 <= unit["steps"] <= most:
                problems.append(f"{here}: {uid} has {unit['steps']} steps (6.52)")
            h = unit["hex"]
            if h == "ngp":
                continue
            if h not in board["hexes"] or md.kind(board, h) == md.UNUSED:
                problems.append(f"{here}: {uid} stands in {h}, not a hex of the maps (2.1)")
                continue
            kind = md.kind(board, h)
            if uid in self.in_city and kind != md.CITY_HEX:
                problems.append(f"{here}: {uid} left the Berlin City hexes for {h} (5.45, 5.76)")
            if kind == md.CITY_HEX:
                self.in_city.add(uid)
                if (
                    counter is not None
                    and counter["size"] == "corps"
                    and counter["class"] == "vehicle"
                ):
                    problems.append(f"{here}: corps {uid} in a Berlin City hex (5.71)")
            if counter is not None and counter.get("parent") == "12A" and kind != md.OPERATIONAL:
                problems.append(f"{here}: 12th Army unit {uid} in {h} (9.36)")
        for uid in state["destroyed"]:
            if uid in seen:
                problems.append(f"{here}: {uid} is destroyed and on the map")
        if set(state["waiting"]) & seen:
            problems.append(f"{here}: a unit both waiting and on the map")
        pool = state["delay_pool"]
        if any(n < 0 for n in pool.values()) or sum(pool.values()) > 28:
            problems.append(f"{here}: the Delay cup holds {pool} (6.81)")
        revealed = sum(1 for u in state["units"].values() if u.get("volkssturm") and "attack" in u)
        revealed += sum(1 for uid in state["destroyed"] if uid.startswith("vs-"))
        if sum(state["vs_mix"].values()) + revealed < 25 - len(state["cups"]["volkssturm"]):
            problems.append(f"{here}: Volkssturm strengths lost (8.42)")
        if len(state["cups"]["twelfth"]) > 11:
            problems.append(f"{here}: the 12th Army cup grew (9.32)")
        for h in state["occupied"]:
            info = board["hexes"][h]
            if info.get("kind") != md.TRANSITION and not info.get("vp"):
                problems.append(f"{here}: a Soviet Occupied marker on {h} (5.47, 11.12)")
        return problems


def branch(t: Table, seed: int) -> Table:
    """A copy of the table that goes on with its own generator (states are never changed in
    place, so the copy shares them; the records it adds to are copied)."""
    new = copy.copy(t)
    new.rng, new.seed = random.Random(seed), seed
    new.secrets = {role: dict(values) for role, values in t.secrets.items()}
    new.sealed, new.draws, new.history = dict(t.sealed), dict(t.draws), list(t.history)
    return new


def turn_start(t: Table) -> int | None:
    s = t.state
    quiet = s["phase"] == "soviet-move" and s["step"] == "move" and s["moving"] is None
    if quiet and not any(u.get("moved") for u in s["units"].values()):
        return int(s["turn"])
    return None


def play_checked(t: Table, keep: dict[int, Table] | None = None) -> list[str]:
    watch = Watch(t.state)
    for _ in range(DECISIONS):
        if t.over():
            break
        if keep is not None and (turn := turn_start(t)) is not None:
            keep.setdefault(turn, branch(t, t.seed))
        t.step()
        problems = watch.after(t.state, t.history[-1][2])
        if problems:
            return [f"seed {t.seed}: {p}" for p in problems]
    else:
        return [f"seed {t.seed}: no outcome after {DECISIONS} decisions"]
    outcome = ENGINE.outcome(t.state)
    if outcome is None or sorted(outcome.score) != ["german", "soviet"]:
        return [f"seed {t.seed}: the game ended without an outcome for both seats (11.0)"]
    return []


def _table(seed: int) -> Table:
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    return Table(ENGINE, ENGINE.setup(DATA, options), seed=seed, check=False)


@functools.cache
def trunk(seed: int) -> tuple[list[str], dict[int, Table], Table]:
    """A whole game from the set-up, checked after every decision, played once per process
    (the chunk that owns the seed, and test_a_branch_plays_another_game_from_the_same_position
    for seed 0, read the same game): its problems, its branch points and its finished
    table. Neither is changed by a reader: `branch` copies a point before it plays on."""
    points: dict[int, Table] = {}
    t = _table(seed)
    return play_checked(t, points), points, t


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_seeded_bot_games_finish_with_the_invariants(chunk: int) -> None:
    problems: list[str] = []
    trunks: list[dict[int, Table]] = []
    for seed in range(chunk, min(GAMES, TRUNKS), CHUNKS):
        found, points, _played = trunk(seed)
        problems += found
        trunks.append(points)
    for seed in range(TRUNKS + chunk, GAMES, CHUNKS):
        points = trunks[0]
        turn = 2 + (2 * (seed // CHUNKS) + chunk) % 9  # turns 2-10 over the chunks
        problems += play_checked(branch(points[turn], seed))
    assert not problems, "\n".join(problems[:10])


def test_a_branch_plays_another_game_from_the_same_position() -> None:
    problems, points, played = trunk(0)
    assert problems == []
    assert sorted(points) == list(range(2, 11))  # turn 1 starts at the Soviet Combat Phase
    start = points[6]
    other = branch(start, 77)
    assert play_checked(other) == []
    assert other.history[: len(start.history)] == played.history[: len(start.history)]
    assert other.history != played.history


def test_the_watch_catches_a_broken_invariant() -> None:
    t = _table(0)
    for _ in range(200):
        t.step()
    watch = Watch(t.state)
    state = copy.deepcopy(t.state)
    some = next(iter(state["units"].values()))
    some["steps"] = 9
    state["support_points"] += 1
    problems = watch.after(state, "test")
    assert any("steps" in p for p in problems) and any("Support Points" in p for p in problems)
