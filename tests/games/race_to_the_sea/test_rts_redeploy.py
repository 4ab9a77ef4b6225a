"""Race to the Sea 1914: the Fog of War step's False Report redeployment and overstack
cure (7.7.4.B, pbem.games.race_to_the_sea.redeploy; docs/race-to-the-sea.md, "The end-turn
Fog of War step (7.7.4)")."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.errors import IllegalOrderError, PbemError
from pbem.games.race_to_the_sea import hits, redeploy
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea.decisions import Hide, format_decision, parse_decision
from pbem.games.race_to_the_sea.flow import spanning_problems
from pbem.games.race_to_the_sea.state import control_of, identity, positions, unit
from pbem.testing import Table, leaks
from tests.games.race_to_the_sea.test_rts_engine import ENGINE, everything, table


def _at_fog(seed: int = 3) -> Table:
    t = table(seed)
    t.until("fog")
    return t


def _own_hidden(t: Table, side: str) -> dict[str, str]:
    """label -> unit id of `side`'s hidden counters, as its own state knows them."""
    own = t.private(side)
    return {
        k: str(identity(own, k))
        for k, c in sorted(own["counters"].items())
        if c["side"] == side and c["unit"] is None and not c["cavalry"]
    }


def _false(t: Table, unit_id: str) -> bool:
    return bool(unit(t.state, unit_id)["kind"] == "false-report")


def _friendly_hex(t: Table, side: str, but: int | None = None) -> int:
    return next(
        c["hex"]
        for _k, c in sorted(t.state["counters"].items())
        if c["side"] == side and control_of(t.state, c["hex"]) == side and c["hex"] != but
    )


def test_the_redeployment_decision_round_trips() -> None:
    text = "hide up c03 up c07 put french 0714 put belgian 0202 shift c05 0714 0715"
    d = parse_decision(text)
    assert d == Hide(("c03", "c07"), (("french", 714), ("belgian", 202)), (("c05", 714, 715),))
    assert format_decision(d) == text
    assert format_decision(Hide()) == "hide"
    with pytest.raises(PbemError, match="expected 'hide"):
        parse_decision("hide put french 0714 up c03")  # the clauses in order


def test_7_7_4_b_both_sides_are_asked_in_the_strategic_momentum_order() -> None:
    t = _at_fog()
    assert t.state["fog"] == [
        t.state["momentum"],
        *(s for s in ENGINE.roles if s != t.state["momentum"]),
    ]
    assert t.asked() == t.state["momentum"]


def test_7_7_4_b_a_false_report_is_picked_up_and_put_in_a_friendly_hex() -> None:
    """The False Report picked up opens (and leaves the map with its markers); one is put
    in a friendly-controlled hex; every own hidden counter takes a fresh label, its stack
    following its unit (a fresh stack piece each)."""
    t = _at_fog()
    side = t.asked()
    assert side is not None
    hidden = _own_hidden(t, side)
    fr = next(k for k, u in hidden.items() if _false(t, u))
    where = t.state["counters"][fr]["hex"]
    to = _friendly_hex(t, side, but=where)
    nationality = t.state["counters"][fr]["nationality"]
    before = everything(t)
    old_stacks = {identity(before, k): hits.stack_of(before, k) for k in hidden}
    count = sum(1 for c in t.state["counters"].values() if c["side"] == side and c["hex"] == to)
    t.decide(side, f"hide up {fr} put {nationality} {to:04d}")
    assert t.state["pieces"][f"unit/{fr}"]["revealed"]
    assert fr not in t.state["counters"] and not set(hidden) & set(t.state["counters"])
    after = sum(1 for c in t.state["counters"].values() if c["side"] == side and c["hex"] == to)
    assert after == count + 1
    full = everything(t)
    new = {k: identity(full, k) for k, c in full["counters"].items() if c["side"] == side}
    kept = {u for k, u in hidden.items() if k != fr}
    placed = [k for k, u in new.items() if u not in kept and not full["counters"][k]["unit"]]
    assert len(placed) == 1 and full["counters"][placed[0]]["hex"] == to
    assert _false(t, str(new[placed[0]]))  # a False Report from the pool
    for k, unit_id in new.items():
        if unit_id in old_stacks and k not in placed:
            assert full["stacks"][k] == hits.rehide_label(k)
            assert hits.stack_of(full, k) == old_stacks[unit_id]
    redeploy.check_at_end(full, side)  # the group claims hold
    assert spanning_problems(full, side) == []


def test_7_7_4_b_picking_up_a_real_unit_is_caught_at_its_opening() -> None:
    """Only False Reports are picked up: a client that names a real unit must open it in
    the same entry, and the entry is refused."""
    t = _at_fog()
    side = t.asked()
    assert side is not None
    real = next(k for k, u in _own_hidden(t, side).items() if not _false(t, u))
    public, values, due = t.prepare(side, Hide((real,)))
    assert due == [f"unit/{real}"]
    with pytest.raises(IllegalOrderError, match=r"not a False Report.*7\.7\.4\.B"):
        t.raw(side, public, values, due)


def test_7_7_4_b_the_new_labels_do_not_tell_which_counters_are_false_reports() -> None:
    """Two worlds that differ only in which of two hidden counters in one hex is the False
    Report: after the same redeployment the opponent's view is the same."""
    t = _at_fog()
    side = t.asked()
    assert side is not None
    hidden = _own_hidden(t, side)
    pair = next(
        (a, b)
        for a in hidden
        for b in hidden
        if a < b
        and t.state["counters"][a]["hex"] == t.state["counters"][b]["hex"]
        and t.state["counters"][a]["nationality"] == t.state["counters"][b]["nationality"]
        and _false(t, hidden[a]) != _false(t, hidden[b])
    )
    other_world = copy.deepcopy(t)
    secrets = other_world.secrets[side]
    a, b = (f"unit/{k}" for k in pair)
    secrets[a], secrets[b] = secrets[b], secrets[a]
    nationality = t.state["counters"][pair[0]]["nationality"]
    to = _friendly_hex(t, side)
    viewer = next(r for r in ENGINE.roles if r != side)
    for world in (t, other_world):
        world.decide(side, f"hide put {nationality} {to:04d}")
    assert ENGINE.view(t.state, viewer) == ENGINE.view(other_world.state, viewer)
    assert ENGINE.view(t.state, None) == ENGINE.view(other_world.state, None)
    assert t.known(side) != other_world.known(side)  # the owner's commitments differ
    assert leaks(ENGINE, t.state, side, t.known(side), [viewer, None]) == []


def _overstack(t: Table, side: str) -> tuple[int, list[str]]:
    """Arrange an overstacked own hex away from the enemy (a position for the test): real
    hidden units moved into one hex until it holds more than 6 SZ."""
    own = t.private(side)
    pos = positions(own)
    board = t.state["board"]
    g = rm.grid(board)
    enemy = {p["hex"] for p in pos.values() if p["side"] != side}
    real = [k for k, u in _own_hidden(t, side).items() if not _false(t, u)]
    for k in real:
        hex_ = t.state["counters"][k]["hex"]
        if any(g.distance(hex_, e) <= 2 for e in enemy):
            continue
        movers, total = (
            [],
            sum(int(p["sz"] or 0) for p in pos.values() if p["side"] == side and p["hex"] == hex_),
        )
        for j in real:
            if total > 6:
                break
            if t.state["counters"][j]["hex"] != hex_:
                movers.append(j)
                total += int(pos[j]["sz"])
        if total > 6:
            for j in movers:
                t.state["counters"][j]["hex"] = hex_
            return hex_, movers
    raise AssertionError("no hex to overstack")


def _ways_out(t: Table, side: str, hex_: int) -> list[tuple[str, int]]:
    own = t.private(side)
    return [
        (k, to)
        for k, c in sorted(own["counters"].items())
        if c["side"] == side and c["hex"] == hex_ and positions(own)[k]["sz"]
        for to in rm.grid(t.state["board"]).neighbours(hex_)
        if redeploy.shift_problem(t.state, side, k, hex_, to) is None
    ]


def test_7_7_4_b_an_overstack_left_uncured_is_a_false_claim() -> None:
    """7.1.C, 7.7.4.B: a plain 'hide' over an overstacked hex claims it is cured; the
    claim is found false when the counters open."""
    t = _at_fog()
    side = t.asked()
    assert side is not None
    hex_, _movers = _overstack(t, side)
    assert _ways_out(t, side, hex_)
    t.decide(side, "hide")
    redeploy.check_at_end(t.state, side)  # the public cannot tell yet
    with pytest.raises(PbemError, match=r"false claim .*left with \d+ SZ.*7\.7\.4\.B"):
        redeploy.check_at_end(everything(t), side)


def test_7_7_4_b_overstacked_units_move_one_hex_not_closer_to_an_enemy() -> None:
    t = _at_fog()
    side = t.asked()
    assert side is not None
    hex_, _movers = _overstack(t, side)
    cure = redeploy.sample(t.private(side), side, _NoRedeploy())
    assert cure.shift and not cure.up and not cure.put
    g = rm.grid(t.state["board"])
    enemies = [c["hex"] for c in t.state["counters"].values() if c["side"] != side]
    for _k, start, to in cure.shift:
        assert start == hex_ and g.adjacent(start, to)
        assert min(g.distance(to, e) for e in enemies) >= min(g.distance(start, e) for e in enemies)
    t.decide(side, cure)
    full = everything(t)
    assert spanning_problems(full, side) == []
    redeploy.check_at_end(full, side)
    sizes = [p["sz"] for p in positions(full).values() if p["side"] == side and p["hex"] == hex_]
    assert sum(int(s or 0) for s in sizes) <= 6


def test_7_7_4_b_a_move_closer_to_an_enemy_is_refused() -> None:
    t = _at_fog()
    side = t.asked()
    assert side is not None
    hex_, movers = _overstack(t, side)
    board = t.state["board"]
    g = rm.grid(board)
    enemies = [c["hex"] for c in t.state["counters"].values() if c["side"] != side]
    near = min(g.distance(hex_, e) for e in enemies)
    closer = [
        h
        for h in g.neighbours(hex_)
        if min(g.distance(h, e) for e in enemies) < near
        and rm.move_cost(board, hex_, h) is not None
    ]
    assert closer
    with pytest.raises(IllegalOrderError, match=r"closer to an enemy.*7\.7\.4\.B"):
        t.decide(side, Hide(shift=((movers[0], hex_, closer[0]),)))


def test_7_7_4_b_a_move_out_of_a_hex_not_overstacked_is_a_false_claim() -> None:
    t = _at_fog()
    side = t.asked()
    assert side is not None
    real = [k for k, u in _own_hidden(t, side).items() if not _false(t, u)]
    for k in real:
        hex_ = t.state["counters"][k]["hex"]
        ways = [to for kk, to in _ways_out(t, side, hex_) if kk == k]
        if ways:
            break
    else:
        pytest.fail("no unit can move")
    t.decide(side, Hide(shift=((k, hex_, ways[0]),)))
    with pytest.raises(PbemError, match=r"false claim .*was overstacked"):
        redeploy.check_at_end(everything(t), side)


class _NoRedeploy:
    """A random source that never picks a False Report up (the bot's 30%)."""

    def random(self) -> float:
        return 0.99

    def choice(self, seq: Any) -> Any:
        return seq[0]
