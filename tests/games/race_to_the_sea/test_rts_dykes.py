"""Race to the Sea 1914: Opening the Dykes (9.8, pbem.games.race_to_the_sea.dykes): when
the Allies may flood Dixmude (9.8.A), the hex as water and the displaced Allied counters
(9.8.B, 2.1.8.B), no VP for it (9.8.C)."""

from __future__ import annotations

import pytest

from pbem.core.engine import State
from pbem.errors import IllegalOrderError, InvalidOrderError
from pbem.games.race_to_the_sea import dykes
from pbem.games.race_to_the_sea import map_data as rm
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import Flood, Move, format_decision, parse_decision
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.state import control_of, copy_state, positions
from pbem.testing import Table

DATA = ENGINE.load_data({})
DIXMUDE = rm.hex_of(DATA["map"], "Dixmude")  # 0905


def allied_action(seed: int = 1) -> Table:
    """A table at an Action Round where the Allies are asked (turn 1, round 1)."""
    t = Table(ENGINE, ENGINE.setup(DATA, {}), seed=seed)
    for _ in range(3000):
        if t.state["step"] == "act" and t.asked() == "allies":
            return t
        t.step()
    raise AssertionError("never reached an Allied action")


def arrange(t: Table, siege: int | None = 1, dixmude: str | None = "allies") -> State:
    """Antwerp fell on `siege`; Dixmude (German at the start, 15.3) held by `dixmude`."""
    s = copy_state(t.state)
    s["siege"] = siege
    if dixmude == "allies":
        s["control"]["0905"] = "allies"
    t.state = s
    return s


def only(s: State, side: str) -> str:
    return next(k for k, c in sorted(s["counters"].items()) if c["side"] == side)


def allied_slot(s: State) -> int:
    """An index of the round's action order where the Allies act again."""
    return next(i for i in range(s["index"] + 1, len(s["order"])) if s["order"][i] == "allies")


# --- syntax ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["flood", "flood 0805"])
def test_flood_round_trips(text: str) -> None:
    decision = parse_decision(text)
    assert isinstance(decision, Flood)
    assert format_decision(decision) == text


def test_flood_names_a_hex_of_four_digits() -> None:
    with pytest.raises(InvalidOrderError, match="is not a hex"):
        parse_decision("flood ypres")


# --- 9.8.A: when ------------------------------------------------------------------------------


def test_9_8_a_refused_before_the_siege_of_antwerp_ends() -> None:
    t = allied_action()
    arrange(t, siege=None)
    with pytest.raises(IllegalOrderError, match=r"Siege of Antwerp has not ended.*9\.8\.A"):
        t.decide("allies", "flood")
    assert Flood(None) not in ENGINE.choices(t.private("allies"), "allies")


def test_9_8_a_refused_when_dixmude_is_not_allied_controlled() -> None:
    t = allied_action()
    s = arrange(t, dixmude=None)
    assert control_of(s, DIXMUDE) == "germans"  # 15.3: east of the Historic Trench Line
    with pytest.raises(IllegalOrderError, match=r"not Allied-controlled.*9\.8\.A"):
        t.decide("allies", "flood")
    assert not any(isinstance(c, Flood) for c in ENGINE.choices(t.private("allies"), "allies"))


def test_9_8_a_refused_for_the_germans() -> None:
    t = allied_action()
    s = arrange(t)
    s["index"] = s["order"].index("germans")
    assert t.asked() == "germans"
    with pytest.raises(IllegalOrderError, match=r"only the Allies.*9\.8\.A"):
        t.decide("germans", "flood")
    assert not any(isinstance(c, Flood) for c in ENGINE.choices(t.private("germans"), "germans"))


def test_9_8_a_the_dykes_open_once_as_one_action_of_no_unit() -> None:
    t = allied_action()
    s = arrange(t)
    assert Flood(None) in ENGINE.choices(t.private("allies"), "allies")
    index = s["index"]
    before = {k: c["activated"] for k, c in s["counters"].items()}
    t.decide("allies", "flood")
    after = t.state
    assert after["flooded"] == [DIXMUDE]
    assert after["index"] == index + 1  # one Action of the round (9.0.A)
    assert {k: c["activated"] for k, c in after["counters"].items()} == before  # no unit (9.B)
    # a second time, at the Allies' next action: the one Flooded marker is used (4.1.5)
    again = copy_state(after)
    again["index"] = allied_slot(after)
    t.state = again
    with pytest.raises(IllegalOrderError, match=r"already flooded"):
        t.decide("allies", "flood")
    assert not any(isinstance(c, Flood) for c in ENGINE.choices(t.private("allies"), "allies"))


def test_9_8_b_a_hex_to_displace_to_only_when_a_counter_is_there() -> None:
    t = allied_action()
    arrange(t)
    with pytest.raises(IllegalOrderError, match=r"no Allied counter is in Dixmude.*9\.8\.B"):
        t.decide("allies", "flood 0805")


# --- 9.8.B: the water hex and the displaced counters -----------------------------------------


def _with_allied_counter_in_dixmude(t: Table) -> tuple[State, str, str]:
    s = arrange(t)
    mine, theirs = only(s, "allies"), only(s, "germans")
    s["counters"][mine]["hex"] = DIXMUDE
    s["counters"][theirs]["hex"] = 1105  # two hexes east of Dixmude
    return s, mine, theirs


def test_9_8_b_allied_counters_are_displaced_not_closer_to_an_enemy() -> None:
    t = allied_action()
    s, mine, _ = _with_allied_counter_in_dixmude(t)
    # 1005 and 1006 are next to the German counter in 1105: closer than Dixmude (2 hexes)
    assert dykes.targets(s) == [805, 806, 904, 906]
    floods = [c for c in ENGINE.choices(t.private("allies"), "allies") if isinstance(c, Flood)]
    assert floods == [Flood(805), Flood(806), Flood(904), Flood(906)]
    with pytest.raises(IllegalOrderError, match=r"name the hex.*9\.8\.B"):
        t.decide("allies", "flood")
    with pytest.raises(IllegalOrderError, match=r"1006 is not a displacement hex.*9\.8\.B"):
        t.decide("allies", "flood 1006")
    hidden = s["counters"][mine]["unit"] is None
    t.decide("allies", "flood 0805")
    moved = t.state["counters"][mine]
    assert moved["hex"] == 805 and not moved["activated"]  # displaced for free (9.8.B)
    assert (moved["unit"] is None) == hidden  # moved as a counter, its identity not read
    assert t.state["flooded"] == [DIXMUDE]
    assert control_of(t.state, DIXMUDE) is None  # water: no side controls it (2.1.8.B)
    assert control_of(t.state, 805) == "allies"


def test_9_8_b_when_every_hex_is_closer_any_open_hex_will_do() -> None:
    """9.8.B "not closer to an enemy unit (if possible)": German counters two hexes away on
    three sides make every neighbour of Dixmude closer, so all of them are allowed."""
    t = allied_action()
    s, _, _ = _with_allied_counter_in_dixmude(t)
    germans = [k for k, c in sorted(s["counters"].items()) if c["side"] == "germans"]
    for label, hex_ in zip(germans, (705, 1004, 1007), strict=False):
        s["counters"][label]["hex"] = hex_
    assert dykes.targets(s) == [805, 806, 904, 906, 1005, 1006]
    s["counters"][germans[0]]["hex"] = 1005  # now next to Dixmude, in one of its neighbours
    assert dykes.targets(s) == [805, 806, 904, 906, 1006]  # never enemy-occupied (10.2.D)


def test_9_8_b_no_unit_moves_into_the_flooded_hex() -> None:
    t = allied_action()
    s, mine, _ = _with_allied_counter_in_dixmude(t)
    t.decide("allies", "flood 0805")
    later = copy_state(t.state)
    later["index"] = allied_slot(later)
    t.state = later
    assert DIXMUDE not in mv.reachable(
        later["board"], positions(later), mine, later["flooded"]
    )  # what choices.actions lists
    moves = [c for c in ENGINE.choices(t.private("allies"), "allies") if isinstance(c, Move)]
    assert all(DIXMUDE not in m.path for m in moves)
    with pytest.raises(IllegalOrderError, match=r"9\.8 B: hex 0905 is flooded"):
        t.decide("allies", f"move {mine} 0805 0905")


# --- 9.8.C: no VP ------------------------------------------------------------------------------


def test_9_8_c_a_flooded_hex_is_no_vp_hex() -> None:
    s = ENGINE.setup(DATA, {})
    s["step"] = "over"
    base = ENGINE.outcome(s)
    assert base is not None
    s["control"]["0905"] = "allies"  # east of the trench line, with LOC west (14.1)
    held = ENGINE.outcome(s)
    assert held is not None and held.score["allies"] == base.score["allies"] + 1
    s["flooded"] = [DIXMUDE]
    flooded = ENGINE.outcome(s)
    assert flooded is not None and flooded.score == base.score


def test_9_8_b_a_displaced_hidden_counter_makes_a_stacking_claim() -> None:
    """10.2.A: the displaced counters stop in their hex as a move's do, hidden sizes
    making the owner's claim (flow.move)."""
    t = allied_action()
    s, mine, _ = _with_allied_counter_in_dixmude(t)
    mate = next(
        k
        for k, c in sorted(s["counters"].items())
        if c["side"] == "allies" and k != mine and c["unit"] is None
    )
    s["counters"][mate]["hex"] = 805
    assert s["counters"][mine]["unit"] is None
    t.decide("allies", "flood 0805")
    claims = [
        made
        for label in (mine, mate)
        for made in t.state["pieces"][f"unit/{label}"]["claims"]
        if made["rule"] == "10.2.A" and "0805" in made["text"]
    ]
    assert len(claims) == 1 and sorted(claims[0]["members"]) == sorted([mine, mate])
