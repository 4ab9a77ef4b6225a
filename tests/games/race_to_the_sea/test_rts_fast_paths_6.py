"""Race to the Sea's fast paths of issue 29's sixth session give the strict answers.

- `state.due_pieces` (the due pieces picked out in C) is the kit's `pieces.due`;
- `flow.reveal_with` (a reveal given the opened value) is the kit's `pieces.reveal`;
- `operations.can_deploy` asks one hex what `deploy_hexes` lists;
- `redeploy.rehide_targets` finds the enemy once for `adjacent_to_enemy`;
- `redeploy._closest` reads the enemy's coordinates from a memo by content and map.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import FalseClaimError
from pbem.games.race_to_the_sea import flow, operations, redeploy
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import state as rs
from pbem.games.race_to_the_sea.state import SIDES
from pbem.kit import pieces
from tests.games.race_to_the_sea import rts_games


def _states() -> list[dict[str, Any]]:
    return rts_games.states(3, every=5) + rts_games.states(11, every=7)


def test_the_due_pieces_are_the_kits() -> None:
    due = 0
    for state in _states():
        for side in SIDES:
            strict = pieces.due(state["pieces"].values(), side)
            fast = rs.due_pieces(state, side)
            assert fast == strict and all(a is b for a, b in zip(fast, strict, strict=True))
            due += bool(strict)
    assert due > 20


class _Opening:
    """The one thing the kit's `reveal` asks of a context: the values this entry opens."""

    def __init__(self, opened: dict[str, Any]) -> None:
        self.opened = opened

    def opened_now(self) -> dict[str, Any]:
        return dict(self.opened)


def _revealed(reveal: Any, piece: dict[str, Any], value: Any) -> Any:
    try:
        reveal(piece, value)
    except FalseClaimError as error:
        return ("refused", str(error))
    return piece


def _kit_reveal(piece: dict[str, Any], value: Any) -> None:
    pieces.reveal(piece, _Opening({piece["label"]: value}), flow.check_claims)  # type: ignore[arg-type]


@pytest.mark.parametrize("known", [False, True])
def test_a_reveal_with_its_value_is_the_kits(known: bool) -> None:
    checked = 0
    for state in rts_games.states(3, every=25):
        for label, piece in state["pieces"].items():
            if piece["revealed"] or not label.startswith(("unit/", "bid/")):
                continue
            values = [piece["value"], "no-such-unit", 3, *rs.SIDES]
            for value in values:
                strict_piece = dict(piece, due="a reason", **({"known": True} if known else {}))
                fast_piece = dict(strict_piece)
                strict = _revealed(_kit_reveal, strict_piece, value)
                fast = _revealed(flow.reveal_with, fast_piece, value)
                assert fast == strict
                checked += 1
    assert checked > 200


def test_one_hex_is_deployable_as_deploy_hexes_lists_it() -> None:
    asked = deployable = 0
    for state in _states()[::4]:
        hexes = [*rm.map_hexes(state["board"]), 0, 99, 101, 9999]
        for side in SIDES:
            listed = set(operations.deploy_hexes(state, side))
            for hex_ in hexes:
                assert operations.can_deploy(state, side, hex_) == (hex_ in listed)
                asked += 1
                deployable += hex_ in listed
    assert asked > 10000 and 0 < deployable < asked


def _strict_rehide_targets(state: dict[str, Any], side: str) -> list[str]:
    return [
        label
        for label, c in sorted(state["counters"].items())
        if c["side"] == side
        and not c["cavalry"]
        and (c["unit"] is not None or rs.opening(state, label))
        and not rs.leaving(state, label)
        and not rs.adjacent_to_enemy(state, label)
    ]


def test_the_units_to_hide_again_are_those_the_rule_reads() -> None:
    found = 0
    for state in _states():
        for side in SIDES:
            strict = _strict_rehide_targets(state, side)
            assert redeploy.rehide_targets(state, side) == strict
            found += len(strict)
    assert found > 100


def test_the_closest_enemy_is_the_grids_and_never_a_stale_one() -> None:
    compared = 0
    for state in _states()[::3]:
        board = state["board"]
        g = rm.grid(board)
        for side in SIDES:
            enemy = redeploy._enemy_hexes(state, side)
            for hex_ in list(rm.map_hexes(board))[::11]:
                strict = min((g.distance(hex_, h) for h in enemy), default=None)
                assert redeploy._closest(board, enemy, hex_) == strict
                compared += 1
    assert compared > 1000
    # The memo is by content: a changed enemy is another key, never the old answer; a
    # copy of the map (another object) gets its own coordinates.
    board = rts_games.states(3, first=1)[0]["board"]
    far, near = 101, 2020
    assert redeploy._closest(board, frozenset({far}), near) == rm.grid(board).distance(far, near)
    assert redeploy._closest(board, frozenset({far, near}), near) == 0
    other = dict(board)
    assert redeploy._closest(other, frozenset({far}), near) == rm.grid(board).distance(far, near)
    assert redeploy._COORDINATES[(id(other), frozenset({far}))][0] is other


def test_a_moves_one_look_at_the_counters_finds_what_the_strict_looks_find() -> None:
    """`move_positions`: the stop positions, the enemy's hexes `enemy_hexes` finds in them,
    and the counters of the side in the stop hex once the counter stands there (what
    `record_claims` finds by its own look); and `legal_move` given those enemy hexes gives
    the verdict it finds without them."""
    from pbem.games.race_to_the_sea import movement as mv

    checked = claims = refused = 0
    for state in _states()[::3]:
        board, flooded = state["board"], rs.flooded(state)
        g = rm.grid(board)
        for label, counter in list(state["counters"].items())[::2]:
            side, start = counter["side"], counter["hex"]
            for hex_ in (start, *g.neighbours(start)):
                pos, enemies, here = rs.move_positions(state, label, hex_)
                assert pos == rs.stop_positions(state, label, hex_)
                assert enemies == mv.enemy_hexes(pos, side)
                moved = rs.copy_state(state)
                rs.writable_counter(moved, label)["hex"] = hex_
                strict = [
                    k
                    for k, c in moved["counters"].items()
                    if c["hex"] == hex_ and c["side"] == side
                ]
                assert sorted(here) == sorted(strict)
                path = [start, hex_]
                verdict = mv.legal_move(board, pos, label, path, flooded)
                assert mv.legal_move(board, pos, label, path, flooded, enemies, here) == verdict
                assert mv.legal_move(board, pos, label, path[::-1], flooded, enemies, here) == (
                    mv.legal_move(board, pos, label, path[::-1], flooded)
                )  # (a path that does not start at the counter: refused alike)
                near = mv.near_enemies(board, enemies)
                assert mv.forced_march_check(
                    board, pos, label, path, flooded, near, here
                ) == mv.forced_march_check(board, pos, label, path, flooded)
                piece = {"id": label, **pos[label]}
                big = {**piece, "kind": "infantry", "sz": 6}  # (refused beside any other)
                for mover in (piece, big):
                    strict_stack = mv.stacking_check(pos, mover, hex_)
                    assert mv.stacking_check(pos, mover, hex_, here) == strict_stack
                    refused += strict_stack.problem is not None
                checked += 1
                claims += bool(verdict.claims)
    assert checked > 1000 and claims > 20 and refused > 20


def test_an_assault_asks_no_mans_land_of_its_one_hex_as_the_whole_set_says() -> None:
    """`check_announcement` without `nml` (No Man's Land asked of the target hex, from the
    counters) gives the verdict it gives with `mv.nml_hexes` of every position; and that
    hex-by-hex No Man's Land holds the hexes the set holds."""
    from pbem.games.race_to_the_sea import assault
    from pbem.games.race_to_the_sea import movement as mv
    from pbem.games.race_to_the_sea.decisions import Assault

    checked = refused = 0
    for state in _states()[::3]:
        board = state["board"]
        g = rm.grid(board)
        for side in SIDES:
            whole = mv.nml_hexes(board, rs.positions(state), side)
            near = mv.near_enemies(board, mv.enemy_hexes(state["counters"], side))[1]
            assert all((h in near) == (h in whole) for h in [*rm.map_hexes(board), 0, 99])
            for label, counter in list(state["counters"].items())[::3]:
                if counter["side"] != side:
                    continue
                for target in g.neighbours(counter["hex"]):
                    d = Assault(((label, counter["hex"]),), target)
                    verdict = assault.check_announcement(state, side, d, whole)
                    assert assault.check_announcement(state, side, d) == verdict
                    checked += 1
                    refused += verdict is not None and "NML" in verdict
    assert checked > 500 and refused > 50
