"""Race to the Sea's fast paths give the strict answers (issue 29).

- copies share their counters and pieces with the state they were copied from
  (shared_pieces.py, `state.writable_counter`): every entry of the demo save and of bot
  games is applied to a state that must come out of it exactly as it went in;
- `anything_due` (in C, without `pieces.due`'s look at each piece in Python): the same
  answer as that look, at every position;
- the decision types are records (pbem.record) made without @dataclass: equal, hashed,
  shown and refused as the frozen dataclasses they were.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.core.canonical import copy_json
from pbem.games.race_to_the_sea import decisions as rd
from pbem.games.race_to_the_sea import rules, shared_pieces
from pbem.games.race_to_the_sea import state as rs
from pbem.games.race_to_the_sea.records import BOUND, FrozenRecord, frozen_record
from pbem.games.race_to_the_sea.rules import ENGINE, STATIC_KEYS
from pbem.testing import Table
from pbem.verify import verify_text
from tests.games.race_to_the_sea import rts_games

SAVE = Path(__file__).resolve().parents[3] / "saves" / "race-to-the-sea-demo.pbem"
DATA = ENGINE.load_data({})


def _content(state: dict[str, Any]) -> Any:
    return copy_json(_live_content(state))


def _live_content(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in STATIC_KEYS}


@pytest.fixture
def checked_apply(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every apply checks that the state it was given is unchanged after it (whatever it
    returns or raises), and that anything_due gives the strict answer on both."""
    applied = [0]
    original = rules.RaceToTheSeaEngine.apply

    def apply(self: Any, state: Any, role: str, decision: Any, ctx: Any) -> Any:
        before = _content(state)
        assert rs.anything_due(state) == _strict_due(state)
        try:
            new = original(self, state, role, decision, ctx)
        finally:
            # The state itself against the deep copy made before: a copy of it now would be
            # equal to it (marshal keeps every type: a tuple stays a tuple, 1 is not 1.0's
            # copy), so comparing it directly is the same check without a second copy.
            assert _live_content(state) == before, f"{decision!r} changed the state it was given"
        assert rs.anything_due(new) == _strict_due(new)
        applied[0] += 1
        return new

    monkeypatch.setattr(rules.RaceToTheSeaEngine, "apply", apply)
    yield applied


def _strict_due(state: dict[str, Any]) -> bool:
    return any(piece["due"] for piece in state["pieces"].values())


def test_the_demo_save_never_changes_a_state_it_applies_to(checked_apply: list[int]) -> None:
    result = verify_text(SAVE.read_bytes())
    assert result.ok, result
    assert checked_apply[0] > 600


@pytest.mark.parametrize("seed", [1, 7])
def test_bot_games_never_change_a_state_they_apply_to(checked_apply: list[int], seed: int) -> None:
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=seed, check=False)
    rng = random.Random(seed)
    for _ in range(1500):
        if t.over():
            break
        t.decide(t.asked(), t.choose(t.asked(), rng))  # type: ignore[arg-type]
    assert checked_apply[0] > 500


def test_a_copy_changes_its_own_counter_never_the_sources() -> None:
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=2, check=False)
    rng = random.Random(2)
    for _ in range(200):
        t.decide(t.asked(), t.choose(t.asked(), rng))  # type: ignore[arg-type]
    state = t.state
    label = next(iter(state["counters"]))
    new = rs.copy_state(state)
    assert new == state and new["counters"][label] is state["counters"][label]
    rs.writable_counter(new, label)["hex"] = 101
    assert state["counters"][label]["hex"] != 101 and new["counters"][label]["hex"] == 101
    mine = new["counters"][label]
    assert rs.writable_counter(new, label) is mine  # its own now: not copied again
    again = rs.copy_state(new)  # `new` is copied: its counters change no more in place
    assert rs.writable_counter(new, label) is not mine and again["counters"][label] is mine
    shared_pieces.forget()
    third = rs.copy_state(again)
    shared_pieces.forget()  # no record: a change copies the counter first
    rs.writable_counter(third, label)["hex"] = 102
    assert again["counters"][label]["hex"] == 101


def test_the_decisions_are_the_frozen_dataclasses_they_were() -> None:
    shapes: dict[Any, Any] = {}
    kinds: tuple[Any, ...] = rd.DECISION_TYPES
    for kind in kinds:
        fields = kind._fields
        reference = dataclasses.make_dataclass(
            kind.__name__,
            [
                (name, Any, dataclasses.field(default=kind._defaults[name]))
                if name in kind._defaults
                else (name, Any)
                for name in fields
            ],
            frozen=True,
        )
        shapes[kind] = reference
    samples = [
        rd.Place("fr-iv", None, 714),
        rd.Place(None, "french", 714),
        rd.Place("fr-ii-cav", None, 615, "scouting"),
        rd.Move("c07", (714, 715)),
        rd.Hide(("c03",), (("french", 714),), (("c05", 714, 715),)),
        rd.Hide(),
        rd.Reply(),
        rd.Reply(True, 808, lost=True),
        rd.Bid(None),
        rd.Bid(4),
        rd.Done(),
        rd.Fire("c04", 807, 808),
        rd.Assault((("c09", 605), ("c12", 706)), 707),
    ]
    for made in samples:
        made_kind: Any = type(made)
        reference = shapes[made_kind](*(made.__dict__[n] for n in made_kind._fields))
        assert repr(made) == repr(reference)
        assert hash(made) == hash(reference)
        assert vars(made) == vars(reference)
        again = type(made)(**vars(made))
        assert again == made and hash(again) == hash(made) and again is not made
        with pytest.raises(AttributeError):
            made.anything = 1  # type: ignore[attr-defined]
        assert rd.parse_decision(rd.format_decision(made)) == made
    assert rd.Done() == rd.Done() and rd.Done() != rd.Discard()
    assert rd.Bid(4) != rd.Bid(3) and rd.Place("a", None, 1) != rd.Place("a", None, 1, "x")
    assert rd.Reply(back=5) == rd.Reply(False, 5, False)
    shuffled = rd.Reply(lost=True, back=5, met=True)  # fields by name, in another order
    assert hash(shuffled) == hash(rd.Reply(True, 5, True)) and list(vars(shuffled)) == [
        "met",
        "back",
        "lost",
    ]
    assert rd.Place("fr-iv", None, 714) == rd.Place("fr-iv", None, 714, None)
    with pytest.raises(TypeError):
        rd.Move("c07")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        rd.Move("c07", (1, 2), 3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        rd.Move("c07", (1, 2), counter="c08")  # type: ignore[misc]
    with pytest.raises(TypeError):
        rd.Reply(nothing=1)  # type: ignore[call-arg]


def _cost(board: Any, flooded: list[int], a: int, b: int) -> int:
    from pbem.games.race_to_the_sea import map_data as rm

    return rm.move_cost(board, a, b, flooded) or 0


def _positions_seen(seed: int, every: int = 10) -> list[dict[str, Any]]:
    """States of a bot game, every tenth decision (or `every`) of its first 1500, each a copy
    of its own. The game is played once per process (rts_games.py)."""
    return rts_games.states(seed, every=every, first=1500)


# The stop positions are checked on every third of those states (every 30th decision, some
# 21 states a game over the same turns): each state checks every path of one or two hexes
# from each of its counters, some 1,700 checks, so a game gives some 36,000 (with 15,000
# refused and 17,000 claiming) where every tenth decision gave 110,000 in three times the
# time (a third of this file's), the same kinds of position seen again a few decisions on.
STOP_EVERY = 30


@pytest.mark.parametrize("seed", [3, 11])
def test_a_move_checked_on_its_stop_positions_gets_the_verdict_of_all_positions(
    seed: int,
) -> None:
    """`stop_positions` (what a move reads) and the No Man's Land asked hex by hex give
    `legal_move` and `forced_march_check` the verdicts of `positions` with the whole
    No Man's Land, on every path of one or two hexes from each counter, legal or not."""
    from pbem.games.race_to_the_sea import map_data as rm
    from pbem.games.race_to_the_sea import movement as mv

    checked = problems = claims = 0
    for state in _positions_seen(seed, every=STOP_EVERY):
        every = rs.positions(state)
        g = rm.grid(state["board"])
        flooded = rs.flooded(state)
        for label, counter in state["counters"].items():
            side = counter["side"]
            near = (mv.enemy_hexes(every, side), mv.nml_hexes(state["board"], every, side))
            start = counter["hex"]
            paths = [[start, n] for n in g.neighbours(start)]
            paths += [[start, n, m] for n in g.neighbours(start) for m in g.neighbours(n)][::3]
            paths += [[start], [start, 1, 2], [start, start]]
            for path in paths:
                stop = rs.stop_positions(state, label, path[-1])
                for check in (mv.legal_move, mv.forced_march_check):
                    strict = check(state["board"], every, label, path, flooded)
                    assert check(state["board"], stop, label, path, flooded) == strict
                    if check is mv.legal_move:
                        with_near = mv._path_problem(
                            state["board"], every, label, path, flooded,
                            functools.partial(_cost, state["board"], flooded),
                            mv.movement_allowance(every[label]), "move", near,
                        )  # fmt: skip
                        assert with_near == strict
                    checked += 1
                    problems += strict.problem is not None
                    claims += bool(strict.claims)
    assert checked > 5000 and problems > 1000 and claims > 50


@pytest.mark.parametrize("seed", [3, 11])
def test_a_control_record_left_as_it_is_is_the_one_rebuilt(seed: int) -> None:
    """`take_control` leaves the record alone only when rebuilding it gives the same."""
    from pbem.games.race_to_the_sea import map_data as rm
    from pbem.games.race_to_the_sea import movement as mv

    kept = 0
    for state in _positions_seen(seed):
        g = rm.grid(state["board"])
        for label, counter in list(state["counters"].items())[::3]:
            for hex_ in (counter["hex"], *g.neighbours(counter["hex"])):
                piece = rs.position_of(state, label)
                changed = mv.update_control(
                    state["board"], state["control"], {"id": label, **piece}, hex_
                )
                strict = {mv.hex_label(h): side for h, side in sorted(changed.items())}
                fast = rs.copy_state(state)
                rs.take_control(fast, label, hex_)
                assert fast["control"] == strict and list(fast["control"]) == list(strict)
                kept += fast["control"] is not strict and rs._control_stays(state, piece, hex_)
    assert kept > 100
    state = _positions_seen(3)[-1]
    some = next(iter(state["control"]))
    state["control"] = {int(some): state["control"][some]}  # not as take_control writes it
    label = next(iter(state["counters"]))
    assert not rs._control_stays(state, rs.position_of(state, label), int(some))


def test_the_result_records_are_the_frozen_dataclasses_they_were() -> None:
    from pbem.games.race_to_the_sea import casualties, initiative, victory
    from pbem.games.race_to_the_sea import movement as mv

    samples: list[Any] = [
        mv.MoveCheck(),
        mv.MoveCheck("10.2 B: too many"),
        mv.MoveCheck(claims=("10.2 A: at most 6 SZ",)),
        mv.Retreat((714, 715)),
        mv.Retreat((714,), ("a claim",)),
        initiative.Round("allies", {"allies": 3, "germans": 2}, False),
        victory.Result({"allies": 3, "germans": 2}, "allies", "Minor Victory"),
        casualties.Absorbed([], True, ["a"]),
    ]
    for made in samples:
        kind: Any = type(made)
        reference = dataclasses.make_dataclass(
            kind.__name__,
            [
                (name, Any, dataclasses.field(default=kind._defaults[name]))
                if name in kind._defaults
                else (name, Any)
                for name in kind._fields
            ],
            frozen=True,
        )(*(made.__dict__[n] for n in kind._fields))
        assert repr(made) == repr(reference) and vars(made) == vars(reference)
        try:
            assert hash(made) == hash(reference)
        except TypeError:  # a dict or list field: neither hashes
            with pytest.raises(TypeError):
                hash(reference)
        assert kind(*(made.__dict__[n] for n in kind._fields)) == made
        with pytest.raises(AttributeError):
            made.problem = "x"
    assert mv.MoveCheck().ok and not mv.MoveCheck("no").ok and mv.Retreat((1, 2)).hex == 2
    assert mv.MoveCheck().claims == () and mv.MoveCheck() == mv.MoveCheck(None, ())
    assert initiative.Round("allies", {"allies": 2, "germans": 1}, False).order() == [
        "allies",
        "germans",
        "allies",
    ]


def test_the_first_records_of_a_class_are_the_ones_its_compiled_init_makes() -> None:
    from pbem.games.race_to_the_sea.records import frozen_record

    def fresh() -> Any:
        @frozen_record
        class Sample:
            a: Any
            b: Any = 2
            c: Any = 3

        return Sample

    kind = fresh()
    first = kind(1, c=5)  # made field by field (`_bind`): nothing compiled yet
    assert kind(1, c=5) == first  # the second too (records.BOUND)
    assert "__init__" not in kind.__dict__ and kind.__dict__["_bound"] == BOUND == 2
    second = kind(1, c=5)  # compiled
    assert "__init__" in kind.__dict__
    assert first == second and hash(first) == hash(second) and repr(first) == repr(second)
    assert list(vars(first)) == list(vars(second)) == ["a", "b", "c"]
    assert kind(c=5, a=1) == first and list(vars(kind(c=5, a=1))) == ["a", "b", "c"]
    for bad_args, bad_kwargs in [((), {}), ((1, 2, 3, 4), {}), ((1,), {"a": 2}), ((1,), {"d": 4})]:
        refused = fresh()  # the first call of a class refused as the compiled __init__ refuses
        with pytest.raises(TypeError) as first_error:
            refused(*bad_args, **bad_kwargs)
        with pytest.raises(TypeError) as second_error:
            refused(*bad_args, **bad_kwargs)
        assert str(first_error.value) == str(second_error.value)
        bound_once = fresh()  # and a refused call after a record made field by field
        bound_once(1)
        with pytest.raises(TypeError) as third_error:
            bound_once(*bad_args, **bad_kwargs)
        assert str(first_error.value) == str(third_error.value)


def test_the_decision_words_are_checked_as_their_patterns_check_them() -> None:
    import re

    words = [
        *("0714", "714", "07140", "071a", "٠٧١٤", "０７１４", "", "c", "c0", "c07", "c007"),
        *("C07", "c0a", "c٠٧", "cc07", "fr-iv", "fr-", "f-iv", "fr-iv-cav", "Fr-iv", "fr_iv"),
        *("fr-IV", "fr-ii-2", "gr--", "ge-1st", "frx-iv", "fr-iv ", "fr-é", "ab-c", "ab-c\n"),
        *("0714\n", "c07\n"),
    ]
    checks = [(rd.HEX, rd.is_hex_word), (rd.COUNTER, rd.is_counter_word)]
    checks.append((rd.UNIT_ID, rd.is_unit_id))
    for pattern, check in checks:
        for word in words:
            assert check(word) == (re.match(pattern, word) is not None), (pattern, word)


def test_a_hex_key_is_read_as_the_label_it_is() -> None:
    from pbem.games.race_to_the_sea import map_data as rm
    from pbem.maps.hexes import label

    keys = ["0714", "714", "00714", "10714", "07140", "0000", "9999", "10000", "010000", "071a"]
    keys += ["٠٧١٤", "", "-714", " 714", "+714", "0714 ", "12345678"]
    for key in keys:
        assert rm._is_label(key) == (key.isdigit() and label(int(key)) == key), key


@pytest.mark.parametrize("seed", [5])
def test_the_victory_hexes_are_those_the_rules_as_they_read_give(seed: int) -> None:
    from pbem.games.race_to_the_sea import map_data as rm
    from pbem.games.race_to_the_sea import victory

    board = DATA["map"]
    hexes = list(rm.grid(board))
    rng = random.Random(seed)
    cases: list[tuple[Any, list[int]]] = [
        (s["control"], list(s.get("flooded", []))) for s in _positions_seen(seed)
    ]
    for _ in range(40):  # control changed anywhere (keys as the state writes them or not)
        picked = rng.sample(hexes, rng.randrange(0, 120))
        key = rng.choice([rm.label, int, str])
        control = {key(h): rng.choice(["allies", "germans"]) for h in picked}
        cases.append((control, rng.sample(hexes, rng.randrange(0, 4))))
    for control, flooded in cases:
        fast = victory.victory_hexes(board, control, flooded)
        strict = victory.strict_victory_hexes(board, control, flooded)
        assert fast == strict and [list(v) for v in fast.values()] == [
            list(v) for v in strict.values()
        ]


def test_the_edge_hexes_kept_are_those_of_the_grid() -> None:
    from pbem.games.race_to_the_sea import map_data as rm

    board = DATA["map"]
    for side in ("allies", "germans"):
        assert rm._edge_hexes(board, side) == tuple(rm.edge_hexes(board, side))
        assert rm.own_edge_hexes(board, side) == tuple(rm.edge_hexes(board, side))
        for edge in ("west", "east", "north", "south"):  # every edge a side may be given
            other = {**board, "edges": {**board["edges"], side: edge}}
            if edge in rm.GRID_EDGE:
                assert rm._edge_hexes(other, side) == tuple(rm.edge_hexes(other, side))


def test_the_map_tables_are_what_the_map_says() -> None:
    from pbem.games.race_to_the_sea import map_data as rm

    board = DATA["map"]
    g = rm.grid(board)
    table = rm.neighbour_table(board)
    assert list(table) == list(g) and all(table[h] == g.neighbours(h) for h in g)
    for h in g:
        assert rm.terrain(board, h) == str(rm._info(board, h)["terrain"])
    for off in (0, -101, 9999, True, "0101", 101.0):
        with pytest.raises((KeyError, TypeError)):
            rm.terrain(board, off)  # type: ignore[arg-type]


def test_a_piece_alone_in_a_hex_stacks_as_stacking_check_says() -> None:
    from pbem.games.race_to_the_sea import movement as mv

    for kind, sz in [("infantry", None), ("infantry", 3), ("infantry", 7), ("false", None)]:
        for sz_value in (sz, 0, 6):
            piece = {"id": "c01", "side": "allies", "hex": 101, "kind": kind, "sz": sz_value}
            alone = (mv._size(piece) or 0) <= mv.STACK_LIMIT
            assert mv.stacking_check((), piece, 714).ok == alone
            assert mv.stacking_check({}, piece, 714).ok == alone


def test_the_light_geometry_is_the_grids_for_every_offset() -> None:
    from pbem.games.race_to_the_sea import map_data as rm
    from pbem.maps.hexes import OFFSETS, HexGrid

    for offset in OFFSETS:
        for columns, rows in [(1, 1), (3, 2), (7, 9), (27, 22)]:
            g = HexGrid(range(1, columns + 1), range(1, rows + 1), offset=offset)
            hexes, table = rm.grid_neighbours(columns, rows, offset)
            assert tuple(hexes) == g.hexes
            assert table == {h: g.neighbours(h) for h in g}
    board = DATA["map"]
    assert rm.map_hexes(board) == rm.grid(board).hexes


def test_the_neighbour_table_is_the_same_with_a_grid_built_or_not() -> None:
    from pbem.games.race_to_the_sea import map_data as rm

    board = copy_json(DATA["map"])  # a map of its own: no grid built for it yet
    light = dict(rm.neighbour_table(board))
    assert id(board) not in rm._GRIDS
    rm._NEIGHBOURS.pop(id(board))
    rm.grid(board)
    assert dict(rm.neighbour_table(board)) == light and rm.map_hexes(board) == tuple(light)


def test_each_decision_type_is_made_once_as_declared() -> None:
    """A `class Name(FrozenRecord)` is a record as written: the decorators give it back."""
    for kind in rd.DECISION_TYPES:
        assert kind.__bases__ == (FrozenRecord,)
        assert frozen_record(kind) is kind
        assert kind.__qualname__ == kind.__name__  # (the repr's name, as before)


def test_importing_the_decisions_compiles_nothing() -> None:
    """No compile() at import (records.BOUND): the first of a process is dear."""
    code = (
        "import builtins\n"
        "def refused(*args, **kwargs):\n"
        "    raise AssertionError('compile() called at import')\n"
        "builtins.compile = refused\n"
        "from pbem.games.race_to_the_sea import decisions\n"
        "assert not [k for k in decisions.DECISION_TYPES if '__init__' in k.__dict__]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
