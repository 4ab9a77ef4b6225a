"""Seeded Race to the Sea 1914 bot games: every game ends with an outcome, and the
invariants of rts_invariants.py hold after every decision (issue 15: stacking 10.2, each
Initiative Card once per turn 7.4, no hidden identity under two counters 15, SZ never
negative and eliminated units off the map 5.2.6, counters on the map, twelve Combat Results
Cards per side 6.2; at the end every sealed piece open 7.7.6.C).

The games run through the engine directly (`pbem.testing.Table`: each owner decides on its
own `with_secrets` state and seals and opens like its client; the public decision is
round-tripped through format/parse), without signed entries, which would take minutes for
100 games; `pbem demo race-to-the-sea` and bench/selfplay.py play through the signed
pipeline. The invariants read the state with both sides' secrets.

Work is shared to keep the file near 20 s on two cores: the first 20 seeds play whole
games (trunks), and each later seed branches off a trunk at the start of a turn (2-9) with
its own random generator, so it plays a different game from there to the end. Every seed
is thus a whole game that finishes, and all 60 are checked after every decision of their
own part; the branches start in every turn 2-9 and off both trunks of their chunk. (60,
not 100: the trunks are the same 20 whole games, and 40 branches still start twice or
more in each turn.) The seeds are split into chunks that pytest-xdist spreads over the
workers; RTS_SELFPLAY_GAMES changes how many games are played (default 60).
"""

from __future__ import annotations

import copy
import functools
import os
import random

import pytest

from pbem.core.engine import State
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.bot import STANDING_ORDERS, choose
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.state import flooded, positions
from pbem.testing import Table
from tests.games.race_to_the_sea.rts_invariants import Watch

DATA = ENGINE.load_data({})
GAMES = int(os.environ.get("RTS_SELFPLAY_GAMES", "50"))
CHUNKS = 10
TRUNKS = 2 * CHUNKS  # seeds that play from the set-up; the others branch off them
DECISIONS = 5000  # far more than a game takes (about 550 decisions without combat)


def everything(t: Table) -> State:
    """The state with both sides' secrets (only a test may hold it)."""
    state = ENGINE.with_secrets(t.state, "allies", t.known("allies"))
    return ENGINE.with_secrets(state, "germans", t.known("germans"))


def branch(t: Table, seed: int) -> Table:
    """A copy of the table that goes on with its own generator. States are never changed
    in place (apply returns a new one), so the copy shares them; the records it adds to
    are copied."""
    new = copy.copy(t)
    new.rng, new.seed = random.Random(seed), seed
    new.secrets = {role: dict(values) for role, values in t.secrets.items()}
    new.sealed, new.draws, new.history = dict(t.sealed), dict(t.draws), list(t.history)
    return new


def turn_start(t: Table) -> int | None:
    """The turn whose first bid is asked now (a quiet point to branch at), else None."""
    s = t.state
    if s["step"] == "bid" and s["round"] == 1 and not s["played"]["germans"]:
        return int(s["turn"])
    return None


def play_checked(t: Table, keep: dict[int, Table] | None = None) -> list[str]:
    """Play `t` to its end checking the invariants after every decision; `keep` collects
    a branch point at the start of each turn. Returns the problems, with the seed."""
    watch = Watch(everything(t))
    for _ in range(DECISIONS):
        if t.over():
            break
        if keep is not None and (turn := turn_start(t)) is not None:
            keep.setdefault(turn, branch(t, t.seed))
        t.step()
        problems = watch.after_decision(everything(t), t.history[-1][2])
        if problems:
            return [f"seed {t.seed}: {p}" for p in problems]
    else:
        return [f"seed {t.seed}: no outcome after {DECISIONS} decisions"]
    return [f"seed {t.seed}: {p}" for p in Watch.at_the_end(t.state, ENGINE.outcome(t.state))]


@functools.cache
def trunk(seed: int) -> tuple[list[str], dict[int, Table], Table]:
    """A whole game from the set-up, checked after every decision, played once per process
    (the chunk that owns the seed, and test_a_branch_plays_another_game_from_the_same_position
    for seed 1, read the same game): its problems, its branch points and its finished
    table. Neither is changed by a reader: `branch` copies a point before it plays on."""
    # check=False: apply's "input unchanged" check costs as much as the game itself;
    # the engine tests keep it on for their bot games.
    points: dict[int, Table] = {}
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=seed, check=False)
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
        points = trunks[(seed // CHUNKS) % len(trunks)]
        turn = 2 + (seed // CHUNKS + chunk) % 8  # every turn 2-9 over the chunks
        problems += play_checked(branch(points[turn], seed))
    assert not problems, "\n".join(problems[:10])


def test_a_branch_plays_another_game_from_the_same_position() -> None:
    problems, points, played = trunk(1)
    assert problems == []
    assert sorted(points) == list(range(1, 11))  # a branch point at each turn's start
    start = points[5]
    assert start.state["turn"] == 5 and len(start.history) < len(played.history)
    other = branch(start, 77)
    assert play_checked(other) == []
    assert other.history[: len(start.history)] == played.history[: len(start.history)]
    assert other.history != played.history
    assert len(start.history) < min(len(played.history), len(other.history))


def test_the_bot_answers_only_the_asked_role_with_a_listed_choice() -> None:
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=7, check=False)
    rng = random.Random(7)
    for _ in range(120):
        asked = t.asked()
        assert asked is not None
        idle = "germans" if asked == "allies" else "allies"
        with pytest.raises(ValueError, match="no decision to make now"):
            choose(ENGINE, t.private(idle), idle, rng)
        private = t.private(asked)
        decision = choose(ENGINE, private, asked, rng)
        # sampled, not listed: still a member of the step's full list of choices
        assert decision in ENGINE.choices(private, asked)
        t.decide(asked, decision)


def test_the_bots_standing_orders_are_orders_the_game_reads() -> None:
    from pbem.games.race_to_the_sea.standing import ORDERS

    assert STANDING_ORDERS, "the bot answers the combat reactions in advance"
    for name, argument in STANDING_ORDERS.items():
        assert ORDERS[name].read(argument) == argument
    assert "march" not in STANDING_ORDERS  # 7.7.3: bot games still force-march


def test_rail_destinations_are_those_rail_move_problem_accepts() -> None:
    """7.3: the one-search listing used by the choices equals checking every hex of the
    track (`rail_move_problem`), on the rail phases of a bot game."""
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=4, check=False)
    seen = 0
    while not t.over() and t.state["turn"] <= 4:
        s = t.state
        if s["step"] == "rail":
            full = everything(t)
            pos, board = positions(full), full["board"]
            for label, piece in sorted(pos.items()):
                if piece["side"] != "allies":
                    continue
                listed = mv.rail_destinations(board, pos, full["control"], label, flooded(full))
                checked = [
                    end
                    for end in sorted(rm.rail_reachable(board, piece["hex"]))
                    if mv.rail_move_problem(
                        board, pos, full["control"], label, end, flooded(full)
                    ).ok
                ]
                assert listed == checked, label
                seen += len(listed)
        t.step()
    assert seen > 0


def test_the_bot_is_seeded() -> None:
    games = []
    for _ in range(2):
        t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=3, check=False)
        for _ in range(150):
            t.step()
        games.append([text for _seq, _role, text in t.history])
    assert games[0] == games[1]


def test_a_broken_invariant_is_reported() -> None:
    """The watch is real: a counter moved onto a full hex and a card lost are found."""
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=2, check=False)
    t.until("act")
    full = everything(t)
    watch = Watch(full)
    side = "allies"
    labels = [k for k, c in full["counters"].items() if c["side"] == side]
    target = full["counters"][labels[0]]["hex"]
    for label in labels[1:]:
        full["counters"][label]["hex"] = target  # every Allied counter into one hex
    full["decks"]["germans"]["pile"].pop()
    # a German counter on water, another off the map (the map's hexes are listed once)
    germans = sorted(k for k, c in full["counters"].items() if c["side"] == "germans")
    board = full["board"]
    water = min(h for h in rm.grid(board).hexes if rm.terrain(board, h) == "water")
    full["counters"][germans[0]]["hex"] = water
    full["counters"][germans[1]]["hex"] = 9999
    problems = watch.after_decision(full, "a cheat")
    assert any("10.2" in p for p in problems), problems
    assert any("6.2: germans" in p for p in problems), problems
    assert any(f"10.3.2: {germans[0]} is on prohibited terrain" in p for p in problems), problems
    assert any(f"{germans[1]} is on 9999, which is not a map hex" in p for p in problems)
