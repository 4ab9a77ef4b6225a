"""The memos of Race to the Sea's rules give what a fresh computation gives, and never a
stale answer for a state changed in place (issue 29): the victory result by control
record, the 7.7.4.B enemy distance by enemy counters, the state copy's sharing of opened
pieces, and one counter's position against `positions`."""

from __future__ import annotations

import random

from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import redeploy, victory
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.state import copy_state, hex_text, position_of, positions
from pbem.testing import Table

DATA = ENGINE.load_data({})
BOARD = DATA["map"]


def played(seed: int = 2, decisions: int = 400) -> Table:
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=seed, check=False)
    rng = random.Random(seed)
    for _ in range(decisions):
        if t.over():
            break
        t.decide(t.asked(), t.choose(t.asked(), rng))  # type: ignore[arg-type]
    return t


def test_the_victory_result_follows_a_control_record_changed_in_place() -> None:
    control: dict[str, str] = {}
    first = victory.result(BOARD, control)
    assert first == victory._result(BOARD, control, ())
    first.points["allies"] += 100  # a caller's change does not reach the memo
    assert victory.result(BOARD, control) == victory._result(BOARD, control, ())
    calais = rm.hex_of(BOARD, "Calais")
    control[hex_text(calais)] = "germans"  # in place: the same dict object
    changed = victory.result(BOARD, control)
    assert changed == victory._result(BOARD, control, ())
    assert changed.points["germans"] > victory._result(BOARD, {}, ()).points["germans"]
    assert victory.result(BOARD, control, [calais]) == victory._result(BOARD, control, [calais])


def test_the_enemy_distance_follows_the_enemy_counters() -> None:
    state = played().state
    g = rm.grid(BOARD)
    some = sorted(g.hexes)[::37]

    def fresh(side: str, h: int) -> int | None:
        enemy = [c["hex"] for c in state["counters"].values() if c["side"] != side]
        return min(g.distance(h, e) for e in enemy) if enemy else None

    for h in some:
        assert redeploy._enemy_distance(state, "allies", h) == fresh("allies", h)
    label, counter = next((k, c) for k, c in state["counters"].items() if c["side"] == "germans")
    counter["hex"] = some[0]  # moved in place
    assert redeploy._enemy_distance(state, "allies", some[0]) == 0 == fresh("allies", some[0])
    for h in some:
        assert redeploy._enemy_distance(state, "allies", h) == fresh("allies", h)
        assert redeploy._enemy_distance(state, "germans", h) == fresh("germans", h)
    del state["counters"][label]
    for h in some:
        assert redeploy._enemy_distance(state, "allies", h) == fresh("allies", h)


def test_a_copy_shares_only_opened_pieces_and_copies_the_rest() -> None:
    state = played(decisions=300).state
    new = copy_state(state)
    assert new == state
    opened = [k for k, p in state["pieces"].items() if p["revealed"]]
    sealed = [k for k, p in state["pieces"].items() if not p["revealed"]]
    assert opened and sealed
    assert all(new["pieces"][k] is state["pieces"][k] for k in opened)
    assert all(new["pieces"][k] is not state["pieces"][k] for k in sealed)


def test_every_piece_opened_stays_as_it_was_over_a_whole_game() -> None:
    """The sharing above holds because nothing changes an opened piece: over a whole bot
    game, each opened piece keeps the exact content it had when it opened."""
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=4, check=False)
    rng = random.Random(4)
    seen: dict[str, dict[str, object]] = {}
    for _ in range(5000):
        if t.over():
            break
        for label, piece in t.state["pieces"].items():
            if piece["revealed"]:
                assert seen.setdefault(label, dict(piece)) == piece, label
        t.decide(t.asked(), t.choose(t.asked(), rng))  # type: ignore[arg-type]
    assert t.over() and len(seen) > 50


def test_one_position_is_the_one_of_all_positions() -> None:
    t = played(seed=6, decisions=600)
    for state in (t.state, t.private("allies"), t.private("germans")):
        every = positions(state)
        assert every and all(position_of(state, k) == p for k, p in every.items())
