"""Race to the Sea 1914: the engine core without combat (pbem.games.race_to_the_sea.rules):
setup (15), the sequence of play (7), bids (8), Move and Cavalry Recon (9.1, 9.7), the end
of the turn (7.7) and the fog of war as hidden pieces (10.4, docs/race-to-the-sea.md)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from pbem.core.engine import State
from pbem.errors import IllegalOrderError, PbemError
from pbem.games.race_to_the_sea import movement as mv
from pbem.games.race_to_the_sea.decisions import (
    DECISION_TYPES,
    Bid,
    Move,
    Place,
    format_decision,
    parse_decision,
)
from pbem.games.race_to_the_sea.rules import ENGINE
from pbem.games.race_to_the_sea.state import positions, unit
from pbem.testing import Table, leaks
from tests.support.checked_table import CheckedTable

DATA = ENGINE.load_data({})


def table(seed: int) -> Table:
    return CheckedTable(ENGINE, ENGINE.setup(DATA, {}), seed=seed)


def everything(t: Table) -> State:
    """The state with both sides' secrets (only a test may hold it)."""
    state = ENGINE.with_secrets(t.state, "allies", t.known("allies"))
    return ENGINE.with_secrets(state, "germans", t.known("germans"))


def until_bid(t: Table, round_: int = 1, turn: int = 1) -> None:
    for _ in range(3000):
        s = t.state
        if (
            s["step"] == "bid"
            and s["turn"] == turn
            and s["round"] == round_
            and t.asked() == "germans"
        ):
            return
        t.step()
    raise AssertionError("never reached the bids")


# --- a whole game -----------------------------------------------------------------------------


def _check_invariants(t: Table, text: str, before: str) -> None:
    full = everything(t)
    pos = positions(full)
    # SZ is never negative (3.2.1; positions give the printed SZ of a known unit)
    assert all(p["sz"] is not None and p["sz"] >= 0 for p in pos.values())
    words = text.split()
    moved = None
    if words[0] in ("move", "rail"):
        moved = words[1]
    elif words[:2] == ["forced", "march"]:
        moved = words[2]
    if moved is not None and moved in pos and pos[moved]["sz"]:
        # 10.2.A-C: a unit never stops over 6 SZ (a False Report stops anywhere)
        hex_ = pos[moved]["hex"]
        side = pos[moved]["side"]
        assert sum(p["sz"] for p in pos.values() if p["hex"] == hex_ and p["side"] == side) <= 6
    # 4.1.1.B-C: the Strategic Momentum changes hands only the turn after Foch or by an
    # Event (13.0)
    s = t.state
    if s["momentum"] != before:
        foch_turn = s["foch"] is not None and s["turn"] == s["foch"] + 1
        assert foch_turn or t.last.said("4.1.1.C"), text
    # a step asks one role at a time (protocol section 8)
    assert len(ENGINE.asked_roles(s)) <= 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seeded_bot_game_ends_after_turn_10_with_an_outcome(seed: int) -> None:
    t = table(seed)
    turns_seen = set()
    while not t.over():
        before = t.state["momentum"]
        t.step()
        turns_seen.add(t.state["turn"])
        _check_invariants(t, t.history[-1][2], before)
    assert turns_seen >= set(range(1, 11))
    outcome = ENGINE.outcome(t.state)
    assert outcome is not None and set(outcome.score) == {"allies", "germans"}
    # 7.7.6.C: everything is open at the end
    assert all(p["revealed"] for p in t.state["pieces"].values())
    # 7.2, 7.4: each turn, the five bids and the unseen discard are the six cards
    discards = [p for label, p in t.state["pieces"].items() if label.startswith("discard/")]
    assert len(discards) == 20
    for piece in discards:
        side = piece["owner"]
        left = Counter(DATA["cards"]["initiative"][side])
        left.subtract(piece["bids"])
        assert len(piece["bids"]) == 5 and sum(left.values()) == 1 and min(left.values()) >= 0


# --- 7.5.1-7.5.2 and 8.3 through the engine ----------------------------------------------------


def _hands(t: Table) -> dict[str, list[int]]:
    return {side: t.private(side)["hands"][side] for side in ("germans", "allies")}


def test_rulebook_7_5_1_germans_bid_4_allies_2_through_the_engine() -> None:
    for seed in range(1, 40):
        t = table(seed)
        until_bid(t)
        hands = _hands(t)
        if 4 in hands["germans"] and 2 in hands["allies"]:
            break
    else:
        pytest.fail("no seed deals both hands the cards of 7.5.1's example")
    t.decide("germans", "bid 4")
    assert t.history[-1][2] == "bid"  # sealed: the public entry shows no number
    t.decide("allies", "bid 2")
    t.decide("germans", "open bid")
    expected = ["germans", "germans", "allies", "germans", "allies", "germans"]
    assert t.state["order"] == expected
    acted = []
    for _ in expected:
        acted.append(t.asked())
        t.step()
    assert acted == expected
    assert t.state["round"] == 2 and t.state["step"] == "bid"  # 7.6: the next round


def test_rulebook_8_3_a_lull_gives_one_action_to_the_momentum_side() -> None:
    for seed in range(1, 40):
        t = table(seed)
        until_bid(t)
        hands = _hands(t)
        common = sorted(set(hands["germans"]) & set(hands["allies"]))
        if common:
            break
    else:
        pytest.fail("no seed deals a common card")
    t.decide("germans", f"bid {common[-1]}")
    t.decide("allies", f"bid {common[-1]}")
    t.decide("germans", "open bid")
    assert t.state["order"] == ["germans"]  # 8.3.B: the Germans have the momentum (4.1.1.B)
    t.step()
    assert t.state["round"] == 2


def test_activated_units_act_once_per_round_9_b() -> None:
    for seed in range(1, 40):
        t = table(seed)
        until_bid(t)
        hands = _hands(t)
        if max(hands["germans"]) - min(hands["allies"]) >= 2:
            break
    t.decide("germans", f"bid {max(hands['germans'])}")
    t.decide("allies", f"bid {min(hands['allies'])}")
    t.decide("germans", "open bid")
    assert t.asked() == "germans"  # 7.5.1: two Advantage Actions at least
    moves = [c for c in ENGINE.choices(t.private("germans"), "germans") if isinstance(c, Move)]
    t.decide("germans", moves[0])
    counter = moves[0].counter
    assert t.state["counters"][counter]["activated"]  # 4.1.2.B
    assert t.asked() == "germans"
    again = ENGINE.choices(t.private("germans"), "germans")
    assert all(getattr(c, "counter", None) != counter for c in again)
    here = t.state["counters"][counter]["hex"]
    back = moves[0].path[-2]
    with pytest.raises(IllegalOrderError, match="already acted"):
        t.decide("germans", f"move {counter} {here:04d} {back:04d}")


def test_pass_is_refused_while_a_unit_can_act() -> None:
    t = table(5)
    until_bid(t)
    t.step()
    t.step()
    t.step()
    role = t.asked()
    assert role is not None and t.state["step"] == "act"
    with pytest.raises(IllegalOrderError, match=r"can still act \(rulebook 8.4, 9.A\)"):
        t.decide(role, "pass")


# --- decisions -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "place fr-iv 0714",
        "place french 0714",
        "place fr-ii-cav 0615 scouting",
        "done",
        "discard",
        "rail c03 0620 1007",
        "end rail",
        "bid 4",
        "bid",
        "open bid",
        "move c17 1203 1204 1305",
        "flip c05",
        "recon c22 0505 to 0506 c31",
        "pass",
        "first germans",
        "forced march c03 1203 1204",
        "hide",
        "open all",
    ],
)
def test_every_decision_round_trips(text: str) -> None:
    decision = parse_decision(text)
    assert isinstance(decision, DECISION_TYPES)
    assert format_decision(decision) == text
    assert all(ch.isalnum() or ch in " -" for ch in text)  # shell-safe words


# --- setup and hidden counters (15, 10.4) ------------------------------------------------------


def test_setup_the_allies_place_first_and_hidden_units_are_sealed_by_the_client() -> None:
    t = table(1)
    assert t.asked() == "allies"  # 15.5.A
    t.decide("allies", "place fr-iv 0716")
    label = "c01"
    assert t.history[-1][2] == "place french 0716"  # the public entry names no unit
    assert t.state["counters"][label]["unit"] is None
    assert t.state["pieces"]["unit/c01"]["value"] is None
    assert t.private("allies")["pieces"]["unit/c01"]["value"] == "fr-iv"
    assert ENGINE.view(t.private("allies"), "germans")["pieces"]["unit/c01"]["value"] is None
    # a hidden unit placed in the clear is refused
    with pytest.raises(IllegalOrderError, match="placed hidden"):
        t.raw("allies", Place("fr-xiii", None, 716))
    # cavalry is public (10.5.1) and says its side (15.4)
    t.decide("allies", "place fr-ii-cav 0615 deployed")
    assert t.state["counters"]["c02"]["unit"] == "fr-ii-cav"


def test_a_false_placement_claim_refuses_the_opening_entry() -> None:
    """A hidden counter committed as a unit that may not enter there: its opening fails."""
    t = table(1)
    t.raw("allies", Place(None, "french", 615), {"unit/c01": "fr-xiv"})  # a Turn 1 unit
    piece = t.state["pieces"]["unit/c01"]
    with pytest.raises(PbemError, match="false claim in entry .* by allies"):
        ENGINE.check_claims(piece, "fr-xiv")
    ENGINE.check_claims(piece, "fr-81-82-terr")  # an Amiens unit: true


def test_the_other_sides_view_does_not_depend_on_hidden_identities() -> None:
    t = table(6)
    until_bid(t, round_=2)
    t.step()  # the Germans' sealed bid
    for owner, viewer in (("allies", "germans"), ("germans", "allies")):
        known = t.known(owner)
        assert any(k.startswith("unit/") for k in known)
        assert leaks(ENGINE, t.state, owner, known, [viewer, None]) == []


def test_a_leak_is_found_if_the_view_kept_an_identity() -> None:
    """The leak check would see a view that shows a hidden counter's unit."""

    class Leaky(type(ENGINE)):  # type: ignore[misc]
        def view(self, state: State, role: str | None) -> State:
            out = super().view(state, role)
            out["leak"] = {k: p.get("value") for k, p in state["pieces"].items()}
            return out

    t = table(6)
    until_bid(t)
    assert leaks(Leaky(), t.state, "allies", t.known("allies"), ["germans"]) != []


def test_cavalry_recon_opens_the_target_and_removes_a_false_report() -> None:
    """9.7, 10.4.C: the target's owner opens its identity in its next entry."""
    for seed in range(1, 30):
        t = table(seed)
        while not t.over() and not (t.history and t.history[-1][2].startswith("recon")):
            t.step()
        if t.over():
            continue
        target = t.history[-1][2].split()[-1]
        owner = t.state["counters"][target]["side"]
        piece = t.state["pieces"][f"unit/{target}"]
        assert piece["due"] and not piece["revealed"]
        identity = t.known(owner)[f"unit/{target}"]
        while t.asked() != owner:
            t.step()
        t.step()
        assert t.state["pieces"][f"unit/{target}"]["revealed"]
        if unit(t.state, identity)["kind"] == "false-report":
            assert target not in t.state["counters"]
        else:
            assert t.state["counters"][target]["unit"] == identity
        return
    pytest.fail("no recon in 30 seeded games")


def test_the_movement_claims_use_the_public_sizes() -> None:
    """A hidden counter has no public SZ: movement.py makes claims, not refusals."""
    t = table(1)
    until_bid(t)
    public = positions(t.state)
    hidden = [k for k, c in t.state["counters"].items() if c["unit"] is None]
    assert hidden and all(public[k]["sz"] is None for k in hidden)
    own = positions(t.private("allies"))
    assert all(own[k]["sz"] is not None for k in hidden if own[k]["side"] == "allies")
    assert mv.RAIL_SZ_LIMIT == 4


# --- signed play ---------------------------------------------------------------------------------


def test_a_signed_game_seals_the_bids_one_signer_at_a_time(monkeypatch: Any) -> None:
    """The adjudicator accepts each entry only from the role asked (protocol section 8):
    the Germans commit, the Allies bid in the clear, the Germans open (7.4)."""
    from pbem.core import engine as core_engine
    from pbem.testing import SignedTable

    monkeypatch.setitem(
        core_engine._LAZY, "race-to-the-sea", "pbem.games.race_to_the_sea.rules:ENGINE"
    )
    table_ = SignedTable("race-to-the-sea", ("allies", "germans"), nonce="rts")
    table_.join_all()
    rng = random.Random(3)
    while table_.game.state is None or table_.game.state["turn"] < 2:
        table_.step(rng)
    moves = [e for e in table_.game.entries if e.kind == "move"]
    texts = [(e.by, e.body["decision"], e.body) for e in moves]
    bids = [(by, text, body) for by, text, body in texts if text.split()[0] in ("bid", "open")]
    assert len(bids) == 15  # five rounds of three entries in turn 1
    for i in range(0, 15, 3):
        (g1, t1, b1), (a, t2, b2), (g2, t3, b3) = bids[i : i + 3]
        assert (g1, t1) == ("germans", "bid") and "commit" in b1
        assert a == "allies" and t2.startswith("bid ") and "commit" not in b2
        assert (g2, t3) == ("germans", "open bid") and "open" in b3
    seqs = [e.seq for e in table_.game.entries]
    assert len(seqs) == len(set(seqs))  # never two entries at one seq
    assert ENGINE.format(Bid(None)) == "bid"


def test_a_sealed_bid_of_a_card_already_played_is_refused_when_it_opens() -> None:
    """7.4: the sealed bid claims a card left in hand; the claim is checked at opening."""
    for seed in range(1, 40):
        t = table(seed)
        until_bid(t)
        if 5 in _hands(t)["germans"] and _hands(t)["germans"].count(5) == 1:
            break
    t.decide("germans", "bid 5")
    t.step()
    t.step()
    until_bid(t, round_=2)
    t.raw("germans", Bid(None), {"bid/germans/t1/r2": 5})
    t.step()  # the Allies bid in the clear
    with pytest.raises(IllegalOrderError, match="false claim in entry .* by germans"):
        t.decide("germans", "open bid")


def test_rulebook_7_7_3_the_momentum_side_chooses_who_marches_first() -> None:
    t = table(2)
    t.until("march_first")
    assert t.asked() == t.state["momentum"] == "germans"  # 4.1.1.B
    discards = len(t.state["decks"]["allies"]["discard"])
    ctx = t.decide("germans", "first allies")
    assert len(t.state["decks"]["allies"]["discard"]) == discards + 1  # the Allies draw
    assert any(text.startswith("7.7.3: card") for text in ctx.texts)
    march = t.state["march"]
    if march is not None:
        assert t.asked() == march["order"][0]


def test_rulebook_15_6_2_1_one_unit_in_each_of_cambrai_and_valenciennes() -> None:
    from pbem.games.race_to_the_sea import map_data as rm
    from pbem.games.race_to_the_sea.state import entry_hexes

    t = table(1)
    t.until("place", "germans")
    while t.state["turn"] != 1:
        t.step()
        t.until("place", "germans")
    board = t.state["board"]
    cambrai, mons = rm.hex_of(board, "Cambrai"), rm.hex_of(board, "Mons")
    assert {cambrai, mons} <= set(entry_hexes(t.state, "de-i-bav", "germans"))
    t.decide("germans", f"place de-i-bav {cambrai:04d}")
    assert cambrai not in entry_hexes(t.state, "de-ii-bav", "germans")
    assert mons in entry_hexes(t.state, "de-ii-bav", "germans")  # B: any number in Mons


@pytest.mark.parametrize(("mover", "totals"), [("fr-iv", [9]), ("fr-false-1", [])])
def test_a_false_stacking_claim_is_found_when_the_counters_open(
    mover: str, totals: list[int]
) -> None:
    """10.2.A: a hidden unit moving into a hex of hidden units makes a claim (the public
    does not know their sizes); the claim is checked when the identities open. A False
    Report stops anywhere (10.2.C)."""
    from pbem.games.race_to_the_sea import flow
    from pbem.games.race_to_the_sea import map_data as rm

    board = DATA["map"]
    amiens = rm.hex_of(board, "Amiens")
    area = rm.allied_start_area(board)
    start = next(
        h
        for h in rm.grid(board).neighbours(amiens)
        if h in area and rm.move_cost(board, h, amiens) is not None
    )
    far = next(h for h in area if rm.grid(board).distance(h, amiens) > 3)
    t = table(7)
    t.decide("allies", f"place fr-81-82-terr {amiens:04d}")
    t.decide("allies", f"place fr-84-88-terr {amiens:04d}")
    t.decide("allies", f"place fr-ii-cav {amiens:04d} deployed")  # 6 SZ in Amiens
    t.decide("allies", f"place {mover} {start:04d}")  # c04
    if mover != "fr-iv":
        t.decide("allies", f"place fr-iv {far:04d}")
    t.decide("allies", f"place fr-xiii {far:04d}")
    t.decide("allies", f"place fr-vi-res {far:04d}")
    t.decide("allies", "done")
    while not (t.state["step"] == "act" and t.asked() == "allies"):
        if t.state["step"] == "rail":
            t.decide("allies", "end rail")
        else:
            t.step()
    assert t.state["counters"]["c04"]["hex"] == start
    t.raw("allies", Move("c04", (start, amiens)))  # fr-iv's client would refuse: 9 SZ
    claim = t.state["pieces"]["unit/c04"]["claims"][-1]
    assert claim["rule"] == "10.2.A" and claim["known"] == 2  # the cavalry is public
    problems = flow.spanning_problems(everything(t), "allies")
    assert [total for _claim, total in problems] == totals
    assert flow.spanning_problems(t.state, "allies") == []  # the public cannot tell yet


def test_a_unit_committed_under_two_counters_is_found_at_the_end() -> None:
    """15: each unit is one counter; a client committing one unit twice is caught when
    everything opens (7.7.6.C), not before (the public cannot tell)."""
    from pbem.games.race_to_the_sea import flow

    t = table(1)
    t.raw("allies", Place(None, "french", 615), {"unit/c01": "fr-81-82-terr"})
    t.raw("allies", Place(None, "french", 615), {"unit/c02": "fr-81-82-terr"})
    assert flow.duplicates(t.state, "allies") == []
    assert flow.duplicates(everything(t), "allies") == [("c02", "c01", "fr-81-82-terr")]


def test_a_reinforcement_on_an_enemy_held_hex_goes_to_the_closest_friendly_hex() -> None:
    """7.1.B: Ostend starts German-controlled (15.3), so the British IV Corps (turn 5,
    Ostend) may only enter the closest friendly-controlled hexes."""
    from pbem.games.race_to_the_sea import map_data as rm
    from pbem.games.race_to_the_sea.state import entry_hexes, listed_hexes

    state = ENGINE.setup(DATA, {})
    board = state["board"]
    ostend = rm.hex_of(board, "Ostend")
    assert listed_hexes(state, "gb-iv", "allies") == [ostend]
    hexes = entry_hexes(state, "gb-iv", "allies")
    assert hexes and ostend not in hexes
    g = rm.grid(board)
    assert len({g.distance(h, ostend) for h in hexes}) == 1
    assert all(mv.control_of(board, {}, h) == "allies" for h in hexes)
