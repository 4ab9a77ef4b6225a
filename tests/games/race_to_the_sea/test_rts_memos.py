"""The memos of Race to the Sea's rules give what a fresh computation gives, and never a
stale answer for a state changed in place (issue 29): the victory result by control
record, the 7.7.4.B enemy distance by enemy counters, the state copy's sharing of pieces
(shared_pieces.py), and one counter's position against `positions`."""

from __future__ import annotations

import random

from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import redeploy, shared_pieces, victory
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.shared_pieces import own
from pbem.games.race_to_the_sea.state import copy_state, hex_text, position_of, positions
from pbem.kit import pieces
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


def test_a_copy_shares_its_pieces_until_it_changes_one() -> None:
    state = played(decisions=300).state
    new = copy_state(state)
    assert new == state
    sealed = [k for k, p in state["pieces"].items() if not p["revealed"]]
    assert sealed
    assert all(new["pieces"][k] is state["pieces"][k] for k in state["pieces"])
    label = sealed[0]
    before = dict(state["pieces"][label])
    mine = own(new["pieces"], label)  # copied before the change: the source keeps its own
    assert mine is not state["pieces"][label] and mine == before
    pieces.oblige(mine, "a test")
    assert state["pieces"][label] == before and new["pieces"][label] is mine
    assert own(new["pieces"], label) is mine  # the copy's own now: not copied again
    assert all(new["pieces"][k] is state["pieces"][k] for k in state["pieces"] if k != label)


def test_a_state_copied_or_unknown_never_changes_a_shared_piece() -> None:
    """The record of what a copy owns is never used stale: once the copy is copied in turn,
    or without a record at all, each change copies the piece first."""
    state = played(decisions=300).state
    label = next(k for k, p in state["pieces"].items() if not p["revealed"])
    first = copy_state(state)
    mine = own(first["pieces"], label)
    second = copy_state(first)  # `first` is copied: its pieces change no more in place
    assert second["pieces"][label] is mine
    again = own(first["pieces"], label)
    assert again is not mine and first["pieces"][label] is again
    pieces.oblige(again, "a test")
    assert not second["pieces"][label]["due"] and second["pieces"][label] is mine
    shared_pieces.forget()  # no record: every piece may be shared
    third = copy_state(second)
    shared_pieces.forget()
    before = dict(second["pieces"][label])
    pieces.oblige(own(third["pieces"], label), "a test")
    assert second["pieces"][label] == before and third["pieces"][label]["due"] == "a test"
    assert own(state["pieces"], label) is not mine  # a state never copied by copy_state


def test_the_kits_changes_go_through_the_copys_own_pieces() -> None:
    """A view strips the other side's filled values from the view's own pieces, never from
    the state it was made from (the kit's `writable` hook)."""
    t = played(seed=5, decisions=200)
    for role in ("allies", "germans"):
        mine = t.private(role)
        filled = {k: dict(p) for k, p in mine["pieces"].items() if p.get("known")}
        assert filled
        view = ENGINE.view(mine, "germans" if role == "allies" else "allies")
        assert all(not view["pieces"][k].get("known") for k in filled)
        assert {k: mine["pieces"][k] for k in filled} == filled


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


def test_the_owed_openings_are_the_kits_over_a_whole_game() -> None:
    """`due_pieces` and `hits.owing` look at the pieces' `due` in C first (`anything_due`):
    the same answers as the kit's `pieces.due` of every piece, at every position."""
    from pbem.games.race_to_the_sea import hits

    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=3, check=False)
    rng = random.Random(3)
    owed = 0
    for _ in range(5000):
        if t.over():
            break
        every = list(t.state["pieces"].values())
        strict = {r: pieces.due(every, r) for r in ("allies", "germans")}
        for role, due in strict.items():
            assert ENGINE.due_pieces(t.state, role) == due
        assert hits.owing(t.state) == next((r for r, due in strict.items() if due), None)
        owed += bool(strict["allies"] or strict["germans"])
        t.decide(t.asked(), t.choose(t.asked(), rng))  # type: ignore[arg-type]
    assert t.over() and owed > 10


def test_the_fog_checks_of_one_position_derived_once_give_the_strict_answers() -> None:
    """`_stacking_claims` derives the counters by hex and the enemy's hexes once per call
    (it moves no counter): each hex's units and each shift's problem are those of the
    one-by-one scans they replace."""

    def strict_units(state: dict, side: str, hex_: int) -> tuple[list[str], list[int]]:
        hidden, known = [], []
        for k, c in sorted(state["counters"].items()):
            if c["side"] != side or c["hex"] != hex_:
                continue
            if c["unit"] is None:
                hidden.append(k)
            else:
                known.append(int(DATA["units"]["units"][c["unit"]]["sz"]))
        return hidden, known

    g = rm.grid(BOARD)
    for seed in (2, 6):
        state = played(seed=seed, decisions=500).state
        for side in ("allies", "germans"):
            by_hex, enemy = redeploy._by_hex(state, side), redeploy._enemy_hexes(state, side)
            for hex_ in sorted(g.hexes)[::3]:
                assert redeploy._hex_units(state, side, hex_, by_hex) == strict_units(
                    state, side, hex_
                )
            for k, c in state["counters"].items():
                for to in g.neighbours(c["hex"]):
                    fast = redeploy.shift_problem(state, side, k, c["hex"], to, enemy)
                    assert fast == redeploy.shift_problem(state, side, k, c["hex"], to)


def test_reachable_with_the_zones_of_its_position_and_its_crowded_hexes() -> None:
    """A bot derives the enemy and No Man's Land hexes once per position (`near`), and
    `reachable` hands `stacking_check` only the friendly pieces of each hex: the same
    destinations as when it derives them itself, each path a legal move of all pieces."""
    from pbem.games.race_to_the_sea import movement as mv
    from pbem.games.race_to_the_sea.state import flooded

    for seed in (2, 6):
        state = played(seed=seed, decisions=500).state
        pos = positions(state)
        for side in ("allies", "germans"):
            near = (mv.enemy_hexes(pos, side), mv.nml_hexes(BOARD, pos, side))
            for label in sorted(k for k, p in pos.items() if p["side"] == side):
                found = mv.reachable(BOARD, pos, label, flooded(state), near)
                assert found == mv.reachable(BOARD, pos, label, flooded(state))
                assert found == mv.reachable(
                    BOARD, [{"id": k, **p} for k, p in pos.items()], label, flooded(state)
                )
                for path in found.values():
                    assert mv.legal_move(BOARD, pos, label, path, flooded(state)).ok


def test_the_closest_enemy_from_the_map_table_of_coordinates_is_grid_distance() -> None:
    g = rm.grid(BOARD)
    hexes = sorted(g.hexes)
    rng = random.Random(7)
    for k in (0, 1, 2, 9, 30):
        enemy = frozenset(rng.sample(hexes, k))
        for h in hexes[::7]:
            strict = min((g.distance(h, e) for e in enemy), default=None)
            assert redeploy._closest(BOARD, enemy, h) == strict


def test_positions_read_each_units_table_of_its_own() -> None:
    """The kind and SZ table of `positions` is kept by units table (by identity): another
    table (a changed copy) gets its own, never the first's answers."""
    t = played(seed=6, decisions=300)
    state = t.private("allies")
    every = positions(state)
    assert all(position_of(state, k) == p for k, p in every.items())
    known = next(k for k, c in state["counters"].items() if c["unit"] is not None)
    unit_id = state["counters"][known]["unit"]
    units = {k: dict(v) for k, v in state["units_data"]["units"].items()}
    units[unit_id]["sz"] = 99
    changed = {**state, "units_data": {**state["units_data"], "units": units}}
    assert positions(changed)[known]["sz"] == 99 == position_of(changed, known)["sz"]
    assert positions(state)[known]["sz"] == every[known]["sz"] != 99
