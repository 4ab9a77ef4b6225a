"""Götterdämmerung: the movement phases through the engine (pbem.games.gotterdammerung.rules):
the turn sequence (3.1, 10.4), movement (5.1-5.4), counter-moves and breakthrough (5.5,
5.16-5.17), railroads (5.6), splits (5.7), Delay markers (6.8), overruns (7) and
reinforcements (9, 12.2, 12.35). Each position is arranged by editing the table's state
(as a rulebook example is set up on the board); decisions are parsed from their text and
dice are scripted."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.errors import IllegalOrderError
from pbem.games.gotterdammerung import phases
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung.rules import ENGINE
from pbem.testing import ScriptedContext, Table

DATA = ENGINE.load_data({})


def started(options: dict[str, Any] | None = None, seed: int = 1) -> Table:
    """A new game after the Soviet artillery markers and the standard German deployment."""
    t = Table(ENGINE, ENGINE.setup(DATA, options or {}), seed=seed)
    t.decide("soviet", t.choose("soviet"))
    t.decide("german", "deploy standard")
    return t


def arrange(
    t: Table,
    phase: str,
    units: dict[str, str],
    *,
    turn: int = 2,
    waiting: bool | tuple[str, ...] = False,
    occupied: list[str] | tuple[str, ...] = (),
    rolls: list[int] | tuple[int, ...] = (),
) -> ScriptedContext:
    """Only `units` on the map (id -> hex; "ngp" for the box), at the start of `phase`;
    `waiting`: the reinforcements kept (True: all, as scheduled)."""
    s = t.state
    s["units"] = {uid: gs.new_unit(s["counters"], uid, ref(h)) for uid, h in units.items()}
    s["turn"] = turn
    s["occupied"] = sorted(ref(h) for h in occupied)
    s["bonus"] = []
    if waiting is not True:
        s["waiting"] = {uid: info for uid, info in s["waiting"].items() if uid in (waiting or ())}
    ctx = ScriptedContext(rolls)
    phases.start_phase(s, phase, ctx)
    assert not ctx.unused
    return ctx


def ref(h: str) -> str:
    return h if ":" in h or h == gs.NGP else f"op:{h}"


def d(t: Table, role: str, text: str, rolls: list[int] | tuple[int, ...] = ()) -> ScriptedContext:
    return t.decide(role, ENGINE.parse(text, t.state, role), rolls=rolls)


def refused(t: Table, role: str, text: str, fragment: str) -> str:
    with pytest.raises(IllegalOrderError) as caught:
        d(t, role, text)
    message = str(caught.value)
    assert fragment in message, message
    assert "\n" not in message
    return message


def at(t: Table, uid: str) -> str:
    return str(t.state["units"][uid]["hex"])


# --- 3.1, 10.4: the turn sequence ---------------------------------------------------------


def test_a_new_game_starts_at_turn_1_soviet_combat_phase() -> None:
    t = started()
    assert (t.state["turn"], t.state["phase"], t.state["step"]) == (1, "soviet-combat", "combat")
    assert t.asked() == "soviet"  # 10.4: the phase marker on the Soviet Combat Phase


def test_the_ten_phases_follow_in_order_and_turn_2_begins_with_soviet_movement() -> None:
    t = started()
    t.state["waiting"] = {}  # (no reinforcement due: each phase ends at once)
    seen = [(t.state["turn"], t.state["phase"])]
    for _ in range(30):
        if t.state["step"] == "reinforce":
            d(t, t.asked() or "german", "done")
        else:
            d(t, t.asked() or "", "done")
        seen.append((t.state["turn"], t.state["phase"]))
        if seen[-1] == (2, "counter-1"):
            break
    order = [p for turn, p in seen if turn == 1]
    assert order == [
        "soviet-combat",
        "siege-move",
        "siege-combat",
        "breakthrough",
        "counter-2",
        "german-move",
        "german-combat",
        "supply",
    ]
    assert [p for turn, p in seen if turn == 2] == ["soviet-move", "counter-1"]


def test_the_game_ends_after_turn_10_with_an_outcome() -> None:
    t = started()
    arrange(t, "german-combat", {"ger-hitler": "city:0825", "sov-8gmc": "0413"}, turn=10)
    d(t, "german", "done")
    assert t.state["phase"] == "supply"
    while t.state["step"] == "reinforce":
        d(t, "german", "done")
    assert t.state["step"] == "over" and t.state["turn"] == 10
    outcome = ENGINE.outcome(t.state)
    assert outcome is not None and "11.2" in outcome.text
    assert outcome.winner == "german"  # 25 VP for the Führer (11.14) and no Soviet VP


# --- 5.1-5.2: one unit at a time, ZOC, the minimum move ------------------------------------


def test_a_move_goes_on_with_the_same_unit_and_ends_when_another_starts() -> None:
    """5.13: one move per unit and phase; 5.15: the move ends when another unit starts."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc": "0213", "sov-11gtc": "0212"})
    d(t, "soviet", "move sov-8gmc 0313")
    assert t.state["moving"]["points"] == 7  # clear: 1 MP of 8
    d(t, "soviet", "move sov-8gmc 0413")  # the same unit goes on
    assert at(t, "sov-8gmc") == "op:0413" and t.state["moving"]["points"] == 6
    d(t, "soviet", "move sov-11gtc 0312")  # another starts: sov-8gmc's move is over
    refused(t, "soviet", "move sov-8gmc 0513", "5.13")
    assert at(t, "sov-8gmc") == "op:0413"


def test_a_german_unit_stops_in_a_strong_zoc() -> None:
    """5.22 (and 4.23): a moving German unit entering an enemy strong ZOC stops there."""
    t = started()
    arrange(t, "german-move", {"sov-18rc": "0213", "ger-fueb": "0613"}, rolls=[1])  # 9.4
    refused(t, "german", "move ger-fueb 0513 0413 0313 0312", "5.22")
    d(t, "german", "move ger-fueb 0513 0413 0313")
    refused(t, "german", "move ger-fueb 0312", "5.22")
    assert at(t, "ger-fueb") == "op:0313"


def test_a_soviet_unit_goes_through_a_weak_zoc_paying_3_to_leave() -> None:
    """5.22: a weak ZOC does not stop the mover; leaving it costs 3 more MP."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc": "0412", "ger-281-inf": "0213"})
    d(t, "soviet", "move sov-8gmc 0313 0413")  # 0313 is in the weak ZOC: 1 + (3 + 1)
    assert t.state["moving"]["points"] == 8 - 5
    assert at(t, "sov-8gmc") == "op:0413"


def test_a_german_unit_leaves_a_strong_zoc_for_3_more_but_not_into_another() -> None:
    """5.22: a German unit that starts in an enemy strong ZOC leaves it for +3 MP, but not
    directly into another enemy strong ZOC."""
    t = started()
    arrange(
        t, "german-move", {"sov-18rc": "0213", "sov-46rc": "0415", "ger-fueb": "0314"}, rolls=[1]
    )  # 0314 is in both corps' ZOC; 0313 in sov-18rc's only, 0413 in neither
    refused(t, "german", "move ger-fueb 0313", "may not move from op:0314")
    refused(t, "german", "move ger-fueb 0414", "may not move from op:0314")
    d(t, "german", "move ger-fueb 0413")
    assert t.state["moving"]["points"] == 9 - 4


def test_the_minimum_move_is_one_hex_in_a_normal_movement_phase() -> None:
    """5.23: a unit with 1 MP or more moves at least one hex in a Normal Movement Phase;
    5.19: out of supply, half the allowance."""
    t = started()
    arrange(t, "soviet-move", {"sov-18rc": "0313", "ger-281-inf": "0213"})
    t.state["units"]["sov-18rc"]["out_of_supply"] = True  # 4 -> 2 MP; leaving costs 1 + 3
    d(t, "soviet", "move sov-18rc 0413")
    assert at(t, "sov-18rc") == "op:0413"
    refused(t, "soviet", "move sov-18rc 0513", "5.14")


def test_the_ngp_box_is_entered_from_a_red_arrow_hex_and_never_left() -> None:
    """5.26: the box is a plain hex beyond the red arrow; a unit in it never returns."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc": "0315"})
    d(t, "soviet", "move sov-8gmc 0316 ngp")
    assert at(t, "sov-8gmc") == gs.NGP
    arrange(t, "soviet-move", {"sov-8gmc": "ngp"}, turn=3)
    refused(t, "soviet", "move sov-8gmc 0316", "5.26")


def test_a_move_into_a_transition_hex_stops_there_and_leaves_an_occupied_marker() -> None:
    """5.44: a unit entering a Transition Hex from an Operational hex stops; 5.47: a Soviet
    unit leaves a Soviet Occupied marker, which a German unit entering removes."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc": "2419", "ger-fueb": "2619"})
    refused(t, "soviet", "move sov-8gmc 2420 2421", "5.44")
    d(t, "soviet", "move sov-8gmc 2420")
    assert "op:2420" in t.state["occupied"]
    refused(t, "soviet", "move sov-8gmc 2421", "5.44")
    arrange(t, "soviet-move", {"sov-8gmc": "2420"}, turn=3, occupied=["2420"])
    d(t, "soviet", "move sov-8gmc 2419")  # 5.43: no extra cost out of a Transition Hex
    assert t.state["occupied"] == ["op:2420"]  # 5.47: the marker stays
    arrange(t, "german-move", {"ger-fueb": "2419"}, turn=3, occupied=["2420"], rolls=[1])
    d(t, "german", "move ger-fueb 2420")
    assert t.state["occupied"] == []  # 5.47: a German unit entering removes it


def test_no_unit_moves_from_a_city_hex_into_a_transition_hex() -> None:
    """5.45: once in the Berlin City hexes, never back into a Transition Hex."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc-bg1": "city:1320"})
    refused(t, "soviet", "move sov-8gmc-bg1 op:2420", "5.45")
    d(t, "soviet", "move sov-8gmc-bg1 city:1321")


def test_a_vp_hex_entered_on_turns_1_to_3_earns_the_bonus_once() -> None:
    """11.12: entering a VP hex places a Soviet Occupied marker; 11.16: on turns 1-3 the first
    occupation earns 10 VP, once; later turns earn no bonus."""
    t = started()
    arrange(t, "soviet-move", {"sov-9rc": "2309"}, turn=3)
    ctx = d(t, "soviet", "move sov-9rc 2310")  # Seelow
    assert t.state["occupied"] == ["op:2310"] and t.state["bonus"] == ["op:2310"]
    assert ctx.said("11.16")
    arrange(t, "soviet-move", {"sov-9rc": "2309"}, turn=4)
    d(t, "soviet", "move sov-9rc 2310")
    assert t.state["occupied"] == ["op:2310"] and t.state["bonus"] == []


# --- 6.8: Delay markers ----------------------------------------------------------------------

FULL_POOL = {"-1": 10, "-2": 10, "-3": 6, "-4": 2}  # counters.toml's 28 markers (6.81)


def delayed(seed: int = 1) -> Table:
    """Turn 2's Soviet Movement Phase: sov-8gmc bears two Delay markers, sov-11gtc one."""
    t = started(seed=seed)
    arrange(t, "soviet-move", {"sov-8gmc": "0213", "sov-11gtc": "0212", "sov-18rc": "0412"})
    t.state["units"]["sov-8gmc"]["delays"] = 2
    t.state["units"]["sov-11gtc"]["delays"] = 1
    t.state["delay_pool"] = dict(FULL_POOL)
    return t


def test_a_unit_with_delay_markers_first_turns_them_over_alone() -> None:
    """6.84: the markers are turned over as the unit begins to move, one unit at a time, in
    an entry of their own (a path in the same entry is refused, before any die)."""
    t = delayed()
    refused(t, "soviet", "move sov-8gmc 0313", "6.84")
    assert t.state["units"]["sov-8gmc"]["delays"] == 2
    # the pool, largest first: ten -1 (0-9), ten -2, six -3, two -4 (26-27)
    ctx = d(t, "soviet", "move sov-8gmc", rolls=[0, 26])
    assert [p for p, _ in ctx.rolls] == ["Delay marker on sov-8gmc (6.83)"] * 2
    assert ctx.said("-5 movement")
    assert t.state["moving"]["points"] == 8 - 5  # 5.18
    assert t.state["units"]["sov-8gmc"]["delays"] == 0
    assert t.state["delay_pool"] == {"-1": 9, "-2": 10, "-3": 6, "-4": 1}  # drawn: not in the cup
    d(t, "soviet", "move sov-8gmc 0313 0413 0513")
    refused(t, "soviet", "move sov-8gmc 0613", "5.14")


def test_delay_markers_that_leave_no_points_end_the_move() -> None:
    """6.83: if the markers leave no movement points, the unit may not move."""
    t = delayed()
    t.state["units"]["sov-18rc"]["delays"] = 2  # a rifle corps: 4 MP
    d(t, "soviet", "move sov-18rc", rolls=[26, 26])  # -4 and -4
    assert t.state["moving"]["points"] == 0
    refused(t, "soviet", "move sov-18rc 0413", "6.83")


def test_markers_on_units_that_did_not_move_return_and_the_cup_is_whole_at_german_combat() -> None:
    """6.85: unrevealed markers return at the end of the Soviet Movement Phase; a marker
    turned over is out of the cup until the German Combat Phase, when the cup is whole (6.82)."""
    t = delayed()
    d(t, "soviet", "move sov-8gmc", rolls=[0, 0])
    d(t, "soviet", "done")
    assert all(u["delays"] == 0 for u in t.state["units"].values())
    assert t.state["delay_pool"] == {"-1": 8, "-2": 10, "-3": 6, "-4": 2}
    while t.state["phase"] != "german-combat":
        d(t, t.asked() or "", "done", rolls=[1] if t.state["phase"] == "counter-2" else [])
        if t.state["phase"] != "german-combat":
            assert t.state["delay_pool"]["-1"] == 8
    assert t.state["delay_pool"] == FULL_POOL


def test_the_views_and_the_save_do_not_depend_on_the_draw_before_the_reveal() -> None:
    """6.82-6.84 as hidden information: nobody knows a marker's value before it is turned
    over, so two games that differ only in the reveal's dice are identical until then."""
    a, b = delayed(seed=5), delayed(seed=5)
    for text in ("move sov-18rc 0413", "move sov-11gtc"):
        rolls = [3] if text.endswith("11gtc") else []
        for t in (a, b):
            d(t, "soviet", text, rolls=rolls)
        for role in ("soviet", "german", None):
            assert canonical_bytes(ENGINE.view(a.state, role)) == canonical_bytes(
                ENGINE.view(b.state, role)
            )
        assert canonical_bytes(a.state) == canonical_bytes(b.state) and a.history == b.history
    d(a, "soviet", "move sov-8gmc", rolls=[0, 0])
    d(b, "soviet", "move sov-8gmc", rolls=[26, 25])  # -4, -4
    assert a.history == b.history  # the same entry ...
    assert a.state["moving"]["points"] == 6 and b.state["moving"]["points"] == 0  # ... other dice


# --- 5.5, 5.16, 5.17: counter-moves, breakthrough, siege movement ---------------------------


def test_counter_moves_two_units_or_groups_not_from_zoc_no_foot_units() -> None:
    """5.51-5.55: two vehicle units (5.52: the units of one formation in one hex count as
    one), none that began in enemy ZOC, no foot units, none in a Berlin City hex."""
    t = started()
    arrange(
        t,
        "counter-1",
        {
            "sov-18rc": "0213",
            "ger-bran": "0313",  # in the corps' ZOC at the phase start
            "ger-281-inf": "0612",
            "ger-21-pz-a": "0513",
            "ger-21-pz-b": "0513",
            "ger-fueb": "0613",
            "ger-fhh": "0614",
            "ger-ber-dan": "city:1321",
        },
    )
    refused(t, "german", "move ger-bran 0413", "5.53")
    refused(t, "german", "move ger-281-inf 0611", "5.55")
    refused(t, "german", "move ger-ber-dan city:1320", "5.54")
    d(t, "german", "move ger-21-pz-a 0514")
    d(t, "german", "move ger-21-pz-b 0512")  # the same formation from the same hex: one
    d(t, "german", "move ger-fueb 0713")
    refused(t, "german", "move ger-fhh 0714", "5.51")


def test_breakthrough_moves_vehicles_not_in_zoc_and_not_on_the_city_map() -> None:
    """5.16: in the Soviet Breakthrough Movement Phase, vehicle units not in enemy ZOC and not
    on the Berlin City Map (Transition Hexes included) move again."""
    t = started()
    arrange(
        t,
        "breakthrough",
        {
            "sov-8gmc": "0413",
            "sov-11gtc": "0313",  # next to ger-281-inf's weak ZOC
            "ger-281-inf": "0213",
            "sov-18rc": "0612",
            "sov-9gtc": "2420",
        },
    )
    refused(t, "soviet", "move sov-11gtc 0312", "5.16")
    refused(t, "soviet", "move sov-18rc 0611", "5.16")
    refused(t, "soviet", "move sov-9gtc 2419", "5.16")
    d(t, "soviet", "move sov-8gmc 0513 0613")
    assert at(t, "sov-8gmc") == "op:0613"


def test_siege_movement_is_for_units_on_the_city_map_which_may_move_twice() -> None:
    """5.17: Soviet units on the Berlin City Map (Transition Hexes included) move again in
    the Siege Movement Phase; 5.46: not from a Transition Hex onto the Operational Map."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc-bg1": "city:1320", "sov-18rc": "2419", "sov-8gmc": "0413"})
    d(t, "soviet", "move sov-8gmc-bg1 city:1321")
    d(t, "soviet", "move sov-18rc 2420")
    d(t, "soviet", "done")
    d(t, "german", "done")  # counter-1
    d(t, "soviet", "done")  # soviet-combat
    assert t.state["phase"] == "siege-move"
    refused(t, "soviet", "move sov-8gmc 0513", "siege-move")
    refused(t, "soviet", "move sov-18rc 2419", "5.46")
    d(t, "soviet", "move sov-8gmc-bg1 city:1320")  # it moved in the Soviet Movement Phase too
    d(t, "soviet", "move sov-18rc city:1320")
    assert at(t, "sov-18rc") == "city:1320"


# --- 5.6: railroad movement ------------------------------------------------------------------


def test_railroad_movement_four_units_and_the_344th_outside_the_limit() -> None:
    """5.61-5.67: up to four units by railroad in the German Movement Phase, a division-,
    regiment- or brigade-size vehicle unit counting two; 9.16: the 344th Infantry Division
    enters by railroad at the SW hex on turn 2 and is not counted."""
    t = started()
    arrange(
        t,
        "german-move",
        {
            "ger-281-inf": "2614",
            "ger-21-pz-a": "2612",
            "ger-doeb": "2613",
            "ger-169-inf": "2712",
        },
        waiting=True,
        rolls=[1],  # 9.4: the Vlasov die, 1: the 600th stays
    )
    refused(t, "german", "rail ger-344-inf-1 3932 3931", "9.1")  # SW's railroad hex is 4032
    d(t, "german", "rail ger-344-inf-1 4032 4031 3931 3930")
    assert at(t, "ger-344-inf-1") == "op:3930" and t.state["phase_data"]["rail_load"] == 0
    d(t, "german", "rail ger-281-inf 2615 2516 2517")  # 1
    d(t, "german", "rail ger-21-pz-a 2613 2614")  # a vehicle regiment: 2
    d(t, "german", "rail ger-doeb 2612 2712")  # 1: four in all
    refused(t, "german", "rail ger-169-inf 2711", "5.67")  # a fifth
    d(t, "german", "rail ger-344-inf-2 4032 4031")  # 9.16: still outside the limit
    assert t.state["phase_data"]["rail_load"] == 4


def test_railroad_movement_only_in_the_german_movement_phase() -> None:
    """5.65: no railroad movement in a Counter-Move Phase."""
    t = started()
    arrange(t, "counter-1", {"ger-21-pz-a": "2612"})
    refused(t, "german", "rail ger-21-pz-a 2613", "5.65")


# --- 5.7: splitting corps ----------------------------------------------------------------------


def test_a_corps_in_a_transition_hex_splits_before_entering_city_hexes() -> None:
    """5.71-5.75: a corps-size vehicle unit enters Berlin City hexes only split, in a
    Transition Hex, into its two Battle groups and a support unit of the player's choice;
    4.12: the support unit stacks with one Battle group."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc": "2420", "sov-11gtc": "2419"})
    refused(t, "soviet", "move sov-8gmc city:1320", "5.71")
    refused(t, "soviet", "split sov-11gtc sov-htr-1", "5.72")  # not in a Transition Hex
    refused(t, "soviet", "split sov-8gmc sov-8gmc-bg1", "5.74")
    d(t, "soviet", "split sov-8gmc sov-htr-1")
    assert "sov-8gmc" not in t.state["units"]
    assert {
        uid: at(t, uid) for uid in ("sov-8gmc-bg1", "sov-8gmc-bg2", "sov-htr-1")
    } == dict.fromkeys(("sov-8gmc-bg1", "sov-8gmc-bg2", "sov-htr-1"), "op:2420")
    d(t, "soviet", "move sov-8gmc-bg1 city:1320")
    d(t, "soviet", "move sov-htr-1 city:1320")  # 4.12
    d(t, "soviet", "move sov-8gmc-bg2 city:1219")
    d(t, "soviet", "done")
    assert t.state["phase"] == "counter-1"  # no overstack (4.12, 4.18)


def test_a_reduced_corps_splits_into_one_battle_group_and_a_used_support_unit_is_gone() -> None:
    """5.77: a reduced corps gives one Battle group and a support unit; 5.75: a support unit
    committed and destroyed may not be used again."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc": "2420", "sov-11gtc": "2421"})
    t.state["units"]["sov-8gmc"]["steps"] = 1
    t.state["destroyed"] = ["sov-htr-1"]
    refused(t, "soviet", "split sov-8gmc sov-htr-1", "5.75")
    d(t, "soviet", "split sov-8gmc sov-htr-2")
    assert "sov-8gmc-bg1" in t.state["units"] and "sov-8gmc-bg2" not in t.state["units"]
    refused(t, "soviet", "split sov-11gtc sov-htr-2", "5.75")  # on the map already


def test_a_corps_with_delay_markers_turns_them_over_then_splits_and_each_group_loses_them() -> None:
    """split.py's ruling on 5.18 and 6.83-6.85: the markers are turned over first (their own
    entry); each Battle group then loses the total as it begins its move; the support unit
    does not."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc": "2420"})
    t.state["units"]["sov-8gmc"]["delays"] = 1
    t.state["delay_pool"] = dict(FULL_POOL)
    refused(t, "soviet", "split sov-8gmc sov-htr-1", "6.84")
    d(t, "soviet", "move sov-8gmc", rolls=[27])  # -4
    d(t, "soviet", "split sov-8gmc sov-htr-1")
    points = {}
    for uid, h in (
        ("sov-8gmc-bg1", "city:1320"),
        ("sov-8gmc-bg2", "city:1219"),
        ("sov-htr-1", "city:1320"),
    ):
        d(t, "soviet", f"move {uid} {h}")  # (the same cost into either hex)
        points[uid] = t.state["moving"]["points"]
    # Battle groups 9 MP, the support unit 7 (counters): the groups lose the 4
    assert points["sov-8gmc-bg1"] == points["sov-8gmc-bg2"] == points["sov-htr-1"] + 2 - 4
    assert t.state["delay_pool"]["-4"] == 1  # one marker drawn, not three


# --- 7: overruns -----------------------------------------------------------------------------


def test_an_overrun_that_clears_the_hex_with_no_result_against_the_mover_goes_on() -> None:
    """7.1: +3 MP to the terrain's cost, one d10; 7.26-7.27: the mover enters the emptied
    hex and, the result against it being "-", moves on with the points left."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc": "0313", "ger-281-inf": "0413"})
    ctx = d(t, "soviet", "overrun 0313 to 0413", rolls=[1])  # 19 against 3, 6:1: DE
    assert [(r.lo, r.hi) for r in ctx.records] == [(1, 10)]  # 7.1: the ten-sided die
    assert "ger-281-inf" in t.state["destroyed"] and at(t, "sov-8gmc") == "op:0413"
    assert t.state["moving"]["points"] == 8 - (1 + 3)
    d(t, "soviet", "move sov-8gmc 0513 0613")
    assert at(t, "sov-8gmc") == "op:0613" and t.state["moving"]["points"] == 2


def test_an_overrun_that_fails_leaves_the_mover_where_it_was_its_move_over() -> None:
    """7.25: the target is not cleared: the mover stays in the launch hex and its move ends."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc": "0313", "ger-281-inf": "0413"})
    d(t, "soviet", "overrun 0313 to 0413", rolls=[10])  # 1A (paid with a Support Point)
    assert at(t, "sov-8gmc") == "op:0313" and at(t, "ger-281-inf") == "op:0413"
    assert t.state["moving"] is None
    refused(t, "soviet", "move sov-8gmc 0312", "5.13")


def test_an_exchange_overrun_enters_the_emptied_hex_and_stops() -> None:
    """7.26: after "E X" that empties the target the mover enters it and stops."""
    t = started()
    arrange(t, "soviet-move", {"sov-8gmc-bg2": "0313", "ger-fueb": "0413", "ger-281-inf": "0413"})
    d(t, "soviet", "overrun 0313 to 0413", rolls=[4])  # 9 against 6, 3:2: EX
    assert at(t, "sov-8gmc-bg2") == "op:0413" and t.state["moving"] is None
    refused(t, "soviet", "move sov-8gmc-bg2 0513", "5.13")


def test_overrun_limits_are_checked_before_the_die() -> None:
    """7.29: no overrun into a Transition Hex; 6.84: a unit bearing Delay markers turns them
    over first (both refused before any die is asked for)."""
    t = started()
    arrange(
        t,
        "soviet-move",
        {"sov-8gmc": "2419", "ger-ber-gsy": "2420", "sov-11gtc": "0313", "ger-281-inf": "0413"},
    )
    refused(t, "soviet", "overrun 2419 to 2420", "7.29")
    t.state["units"]["sov-11gtc"]["delays"] = 1
    refused(t, "soviet", "overrun 0313 to 0413", "6.84")


# --- 9: reinforcements -------------------------------------------------------------------------

SE_TURN_2 = ("sov-1gcc", "sov-7gmc", "sov-1pol-tc")  # 9.5


def test_reinforcements_must_enter_on_their_turn_at_their_entry_hexes() -> None:
    """9.1, 9.12: reinforcements enter in their Normal Movement Phase at their entry hexes and
    may not be held back; 9.14: one moves on from the hex it entered."""
    t = started()
    arrange(t, "soviet-move", {}, waiting=SE_TURN_2)
    refused(t, "soviet", "done", "9.12")
    refused(t, "soviet", "enter sov-1gcc 3801", "9.1")  # not an "SE" hex
    d(t, "soviet", "enter sov-1gcc 3901 3902")
    assert at(t, "sov-1gcc") == "op:3902"
    d(t, "soviet", "enter sov-7gmc 4101")
    refused(t, "soviet", "done", "9.12")
    d(t, "soviet", "enter sov-1pol-tc 4301")
    d(t, "soviet", "done")
    assert t.state["phase"] == "counter-1" and t.state["waiting"] == {}


def test_a_reinforcement_whose_entry_hexes_are_all_enemy_held_is_lost() -> None:
    """9.13: a reinforcement may not enter a hex with enemy units; if every entry hex has
    one, it is lost (not destroyed: 11.14 does not count it)."""
    t = started()
    arrange(
        t,
        "soviet-move",
        {"ger-281-inf": "3901", "ger-doeb": "4101", "ger-169-inf": "4301"},
        waiting=SE_TURN_2,
    )
    refused(t, "soviet", "enter sov-1gcc 3901", "9.13")
    d(t, "soviet", "done")
    assert sorted(t.state["gone"]) == sorted(SE_TURN_2) and t.state["destroyed"] == []


def test_the_ngp_box_entries_follow_the_rulebook_example() -> None:
    """9.22's example: at turn 4's German Movement Phase four German and five Soviet units
    are in the box; the three Langemarck units arrive: 7 against 5, two of them enter at an
    "N" hex (one with six Soviet units)."""
    lang = ("ger-lang-1", "ger-lang-2", "ger-lang-3")
    box = {uid: "ngp" for uid in ("ger-18-pzg-1", "ger-18-pzg-2", "ger-18-pzg-3", "ger-18-pzg-4")}
    soviets = ("sov-18rc", "sov-46rc", "sov-105rc", "sov-47rc", "sov-96rc", "sov-114rc")
    t = started()
    arrange(
        t,
        "german-move",
        {**box, **dict.fromkeys(soviets[:5], "ngp")},
        turn=4,
        waiting=lang,
        rolls=[1],
    )
    assert t.state["phase_data"]["ngp_allowed"] == 2
    assert all(at(t, uid) == gs.NGP for uid in lang)
    refused(t, "german", "enter ger-18-pzg-1 0112", "9.22")  # this turn's arrivals first
    d(t, "german", "enter ger-lang-1 0112")
    d(t, "german", "enter ger-lang-2 0114 0214")
    refused(t, "german", "enter ger-lang-3 0116", "9.22")
    d(t, "german", "done")  # the third stays in the box (9.12 does not hold it)
    t = started()
    arrange(
        t, "german-move", {**box, **dict.fromkeys(soviets, "ngp")}, turn=4, waiting=lang, rolls=[1]
    )
    assert t.state["phase_data"]["ngp_allowed"] == 1


def test_a_german_unit_that_left_the_map_for_the_box_never_returns() -> None:
    """5.26: a unit that entered the NGP Box from the map may not come back, not even as one
    of 9.22's entries."""
    t = started()
    arrange(t, "german-move", {"ger-fueb": "0315"}, turn=3, rolls=[1])
    d(t, "german", "move ger-fueb 0316 ngp")
    arrange(t, "german-move", {}, turn=4, rolls=[1])
    t.state["units"]["ger-fueb"] = {
        **gs.new_unit(t.state["counters"], "ger-fueb", gs.NGP),
        "left_map": True,
    }
    t.state["phase_data"]["ngp_allowed"] = 1
    refused(t, "german", "enter ger-fueb 0112", "5.26")


def test_the_12th_army_draws_four_units_by_public_dice_at_turn_7() -> None:
    """9.33: at the start of the German Movement Phase of turn 7, four 12th Army units are
    drawn from the cup, without replacement; 9.34: they enter at a "W" hex."""
    t = started()
    cup = list(t.state["cups"]["twelfth"])
    t.state["vlasov"] = 3  # (the 600th is gone: no 9.4 die)
    arrange(t, "counter-2", {}, turn=7)
    ctx = d(t, "german", "done", rolls=[10, 0, 8, 0])  # from 11, then 10, 9 and 8 left
    draws = [r for r in ctx.records if "12th Army" in r.purpose]
    assert [(r.lo, r.hi) for r in draws] == [(0, 10), (0, 9), (0, 8), (0, 7)]
    assert all(r.secret is None for r in draws)  # public dice
    drawn = [cup[10], cup[0], cup[9], cup[1]]
    assert sorted(t.state["waiting"]) == sorted(drawn)
    assert all(t.state["waiting"][uid]["at"] == "W" for uid in drawn)
    assert t.state["cups"]["twelfth"] == [u for u in cup if u not in drawn]
    d(t, "german", f"enter {drawn[0]} 2632")
    refused(t, "german", "done", "9.12")


VLASOV = ("ger-600-1", "ger-600-2", "ger-600-3")


@pytest.mark.parametrize(("roll", "revolts"), [(3, False), (4, True)])
def test_the_vlasov_die_at_the_german_movement_phase(roll: int, revolts: bool) -> None:
    """9.4: from turn 2, at the start of the German Movement Phase, a die: 4-6 and the 600th
    Infantry Division leaves the map (not destroyed); once gone, no more die."""
    t = started()
    arrange(t, "counter-2", dict.fromkeys(VLASOV, "3015"), turn=2)
    ctx = d(t, "german", "done", rolls=[roll])
    assert ctx.purposes == ["the Vlasov die (9.4)"]
    assert all((uid in t.state["units"]) is not revolts for uid in VLASOV)
    assert all((uid in t.state["gone"]) is revolts for uid in VLASOV) and t.state["destroyed"] == []
    arrange(t, "counter-2", {}, turn=3)
    ctx = d(t, "german", "done", rolls=[] if revolts else [1])
    assert bool(ctx.purposes) is not revolts


def test_the_americans_enter_on_turn_6_at_a_sw_hex() -> None:
    """9.71: on turn 6 the Soviet player brings on the four American units at one "SW" hex."""
    americans = ("us-9id", "us-69id", "us-104id", "us-3ad")
    t = started()
    arrange(t, "soviet-move", {}, turn=5, waiting=americans)
    d(t, "soviet", "done")  # not due yet
    arrange(t, "soviet-move", {}, turn=6, waiting=americans)
    refused(t, "soviet", "done", "9.12")
    refused(t, "soviet", "enter us-3ad 2632", "9.1")  # a "W" hex
    for uid in americans:
        d(t, "soviet", f"enter {uid} 4032")
    assert {at(t, uid) for uid in americans} == {"op:4032"}
    assert t.state["units"]["us-3ad"]["side"] == "soviet"  # 9.72: as Soviet units


def test_hitlers_curse_holds_the_deployed_units_and_keeps_units_out_of_berlin() -> None:
    """12.22: on turns 1-2 the units with a deployment code (A-J) may not move; 12.23: on
    turns 1-4 no German unit enters Berlin City hexes from outside them."""
    t = started({"curse": True})
    arrange(t, "german-move", {"ger-281-inf": "3015", "ger-ber-dan": "2420"}, turn=2, rolls=[1])
    refused(t, "german", "move ger-281-inf 3016", "12.22")
    refused(t, "german", "move ger-ber-dan city:1320", "12.23")
    arrange(t, "german-move", {"ger-281-inf": "3015", "ger-ber-dan": "2420"}, turn=3, rolls=[1])
    d(t, "german", "move ger-281-inf 3016")
    refused(t, "german", "move ger-ber-dan city:1320", "12.23")
    arrange(t, "german-move", {"ger-ber-dan": "2420"}, turn=5, rolls=[1])
    d(t, "german", "move ger-ber-dan city:1320")
    t = started()  # without the option
    arrange(t, "german-move", {"ger-281-inf": "3015", "ger-ber-dan": "2420"}, turn=2, rolls=[1])
    d(t, "german", "move ger-281-inf 3016")
    d(t, "german", "move ger-ber-dan city:1320")


SECOND_BF_TURN_3 = ("sov-2bf-depot", "sov-1gtc", "sov-8gtc", "sov-3gcc")  # 9.5


def test_with_the_6th_ss_panzer_army_the_2bf_reinforcements_come_on_turn_2() -> None:
    """12.35: with the 6th SS Panzer Army the four 2nd Belorussian Front units of turn 3
    appear in the Soviet Movement Phase of turn 2 (without it, on turn 3)."""
    t = started({"sixth_ss": True})
    arrange(t, "soviet-move", {}, turn=2, waiting=True)
    assert all(t.state["waiting"][uid]["turn"] == 2 for uid in SECOND_BF_TURN_3)
    refused(t, "soviet", "done", "9.12")
    entries = ("3901", "4101", "4301", "0601", "0601", "0801", "1001")  # (a depot stacks 0)
    for uid, h in zip((*SE_TURN_2, *SECOND_BF_TURN_3), entries, strict=True):
        d(t, "soviet", f"enter {uid} {h}")
    d(t, "soviet", "done")
    assert t.state["phase"] == "counter-1"
    t = started()
    arrange(t, "soviet-move", {}, turn=2, waiting=True)
    assert all(t.state["waiting"][uid]["turn"] == 3 for uid in SECOND_BF_TURN_3)


def test_a_counter_move_never_enters_berlin_city_hexes() -> None:
    """5.51: "vehicle units on the Operational Map"; 3.1: vehicle units on the Berlin City
    Map cannot be moved in this phase: a German vehicle unit in a Transition Hex may
    counter-move (5.43) but not into a City hex."""
    t = started()
    arrange(t, "counter-1", {"ger-21-pz-a": "2420"})
    refused(t, "german", "move ger-21-pz-a city:1320", "5.51")
    d(t, "german", "move ger-21-pz-a 2419")
    assert t.state["units"]["ger-21-pz-a"]["hex"] == "op:2419"
