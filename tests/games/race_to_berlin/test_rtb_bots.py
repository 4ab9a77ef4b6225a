"""Seeded bot games: every game ends (B1, a cube penalty, or victory points) and the
invariants hold after every decision.

200 games run through the engine directly (`rtb_support.Game`: each owner decides on its
own `with_secrets` state, seals and opens like its client, the public decision is
round-tripped through format/parse and applied to the public state), because 200 full
games with signed entries would take too long for the test budget; 20 more run through
the real adjudicator with signed entries (`Table`), checking views, replay and openings.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.core.engine import register
from pbem.games.race_to_berlin.bot import choose, win_chance
from pbem.games.race_to_berlin.data import BERLIN
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.ledger import replay
from tests.games.race_to_berlin.rtb_support import Game
from tests.support.players import Table

register("race-to-berlin", "pbem.games.race_to_berlin.rules:ENGINE")

ENGINE_GAMES = 200
TABLE_GAMES = 20
FULL_CHECKS = 20  # games whose every decision is also checked against choices()
CONTROL = {"west": "west", "soviet": "soviet", "german-west": "german", "german-east": "german"}
CONTROLS = {"west": ("west", "german-east"), "soviet": ("soviet", "german-west")}
BERLIN_OK = {"west": ("B1", "B4", "B5"), "soviet": ("B1", "B2", "B3"), "german": ("B1",)}


def assert_plain_json(value: Any, where: str = "state") -> None:
    """Only dicts with str keys, lists, ints, strs, bools and None (no tuples, no floats)."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), f"{where}: key {key!r}"
            assert_plain_json(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            assert_plain_json(item, f"{where}[{i}]")
    else:
        assert value is None or isinstance(value, bool | int | str), f"{where}: {value!r}"


def check_invariants(state: dict[str, Any], secrets: dict[str, dict[str, Any]]) -> None:
    units = state["units"]
    commanded: dict[tuple[str, str], int] = Counter()
    for rec in units.values():
        if rec["area"] is not None:
            owner = "west" if rec["force"] in CONTROLS["west"] else "soviet"
            commanded[(rec["area"], owner)] += 1
    per_area: Counter[str] = Counter()
    in_berlin: Counter[str] = Counter()
    for unit, rec in units.items():
        area = rec["area"]
        if area is None:
            assert rec["status"] != "board", unit
            continue
        control = CONTROL[rec["force"]]
        assert state["areas"][area]["control"] == control, f"{unit} in a non-friendly {area}"
        per_area[area] += 1
        if area in BERLIN:
            in_berlin[control] += 1
            assert area in BERLIN_OK[control], f"{unit} in {area}"
        if rec["strength"] is not None:
            assert 1 <= rec["strength"] <= 4
    assert all(n <= 3 for n in per_area.values()), per_area
    assert all(n <= 3 for n in in_berlin.values()), in_berlin

    total = state["cubes_total"]
    for role in ("west", "soviet"):
        cubes = state["cubes"][role]
        on_blocks = sum(b["cubes"] for b in state["blocks"] if b["owner"] == role and b["area"])
        assert cubes["pool"] >= 0
        assert cubes["pool"] + on_blocks + cubes["lost"] == total, (role, cubes, on_blocks)

    seen: dict[tuple[str, str], int] = Counter()
    values: dict[str, Counter[int]] = {"west": Counter(), "soviet": Counter()}
    for b in state["blocks"]:
        value = secrets[b["owner"]].get(b["label"])
        assert isinstance(value, int)
        values[b["owner"]][value] += 1
        if not b["revealed"]:
            assert b["value"] is None, "a sealed value in the public state"
        else:
            assert b["value"] == value
        if b["area"] is None:
            assert b["cubes"] == 0
            continue
        assert b["cubes"] <= value
        assert b["exhausted"] == (b["cubes"] == value), b
        assert commanded[(b["area"], b["owner"])], f"block {b['label']} alone in {b['area']}"
        seen[(b["area"], b["owner"])] += 1
        assert seen[(b["area"], b["owner"])] == 1
    areas_with_blocks = Counter(area for area, _owner in seen)
    for area, n in areas_with_blocks.items():
        assert n == 1 or area == "B1", f"{n} blocks in {area}"
    for role in ("west", "soviet"):
        owned = Counter(state["block_values"][role])
        assert all(values[role][v] <= owned[v] for v in values[role]), values[role]
    held = Counter(holder for holder in state["eagles"].values() if holder)
    assert state["vp"] == {"west": held["west"], "soviet": held["soviet"]}
    for role in ("west", "soviet"):
        markers = state["markers"][role]
        assert markers["used"] + markers["left"] == markers["total"]


def play_game(seed: int, check: bool = True, full: bool = False) -> Game:
    """One bot game; `check`: invariants after every decision; `full`: also that each
    decision is among choices() and that apply never mutates its input."""
    rng = random.Random(seed)
    g = Game(rng=random.Random(10_000 + seed), check=full)
    steps = 0
    while not g.over():
        asked = g.asked()
        assert asked, "dead end: nobody is asked and there is no outcome"
        role = asked[0]
        private = g.private(role)
        decision = choose(ENGINE, private, role, rng)
        if full:
            assert decision in ENGINE.choices(private, role)
        g.decide(role, decision)
        if check:
            check_invariants(g.state, g.secrets)
        steps += 1
        assert steps < 3000, "the bots do not finish"
    return g


def test_two_hundred_seeded_bot_games_end_with_the_invariants_holding() -> None:
    levels: Counter[str] = Counter()
    for seed in range(ENGINE_GAMES):
        g = play_game(seed, full=seed < FULL_CHECKS)
        outcome = ENGINE.outcome(g.state)
        assert outcome is not None and ENGINE.prompts(g.state) == []
        assert outcome.level in ("automatic victory", "cube loss", "points", "draw")
        assert all(b["revealed"] for b in g.state["blocks"])
        levels[outcome.level] += 1
        if seed % 50 == 0:
            assert_plain_json(g.state)
            canonical_bytes(g.state)
    # the bots play the game: most games go the distance, some end early
    assert levels["points"] + levels["draw"] > ENGINE_GAMES // 3, levels


@pytest.mark.parametrize("seed", range(TABLE_GAMES))
def test_bot_games_through_the_adjudicator_with_signed_entries(seed: int) -> None:
    table = Table("race-to-berlin", ("west", "soviet"), nonce=f"bots-{seed}")
    table.join_all()
    game = table.game
    rng = random.Random(seed)
    while game.outcome() is None:
        table.step(rng)
        assert game.state is not None
        values = {
            role: {lb: v for lb, v in table.known(role).items()} for role in ("west", "soviet")
        }
        if not game.waiting_for_entropy:
            check_invariants(game.state, values)
        for role, other in (("west", "soviet"), ("soviet", "west")):
            view = ENGINE.view_known(game.state, role, table.known(role))
            for b in view["blocks"]:
                if b["owner"] == other and not b["revealed"]:
                    assert b["value"] is None
        assert len(game.entries) < 5000
    assert game.unopened() == []
    again = replay(game.entries, {})
    assert canonical_bytes(again.state) == canonical_bytes(game.state)
    assert [r.line() for r in again.rng_log] == [r.line() for r in game.rng_log]


def test_bot_games_are_deterministic() -> None:
    a, b = play_game(7, check=False), play_game(7, check=False)
    assert a.state == b.state and a.history == b.history


def test_bot_never_uses_global_random(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("global random used")

    for name in ("random", "randint", "choice", "shuffle", "randrange", "uniform", "sample"):
        monkeypatch.setattr(random, name, forbidden)
    play_game(3, check=False)


def test_bot_refuses_a_role_with_nothing_to_decide(fresh: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="no decision"):
        choose(ENGINE, fresh, "west", random.Random(0))


def test_bot_odds_follow_the_two_dice_difference() -> None:
    assert win_chance(10, 0) == 1.0
    assert win_chance(0, 10) == 0.0
    assert 0.3 < win_chance(3, 3) < 0.45  # a tie in strength favours the defender
