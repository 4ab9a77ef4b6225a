"""Götterdämmerung combat through the engine (pbem.games.gotterdammerung.rules.ENGINE):
declarations (6.1-6.3), odds and shifts (6.3-6.4, 6.9), results (6.5), retreats (6.6),
disruption (6.66), advances (6.7), Delay markers (6.8), Volkssturm reveals (8.45), the
12th Army's and the 6th SS Army's CRT (9.37, 12.34), the U-Bahn (12.1) and overstacks
(4.18). Positions are arranged on an empty map around the clear hexes 3821-3922; every
decision is parsed by the engine and applied through pbem.testing.Table with scripted
dice (the Soviet CRT at 2:1 reads, by die: 1DR 1DR 1D EX EX 1A)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.errors import PbemError
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import phases
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung.rules import ENGINE
from pbem.testing import ScriptedContext, Table

DATA = ENGINE.load_data({})
BOARD = DATA["map"]
T, E1, E2 = "op:3821", "op:3921", "op:3922"  # the target and two hexes east of it (clear)
W1, W2 = "op:3721", "op:3620"  # a two-hex retreat west of the target


def table(**options: Any) -> Table:
    """An empty map (no unit, no reinforcement waiting) with these options."""
    t = Table(ENGINE, ENGINE.setup(DATA, options), seed=1)
    t.state["units"] = {}
    t.state["waiting"] = {}
    return t


def put(t: Table, uid: str, h: str, **extra: Any) -> dict[str, Any]:
    where = h if ":" in h else f"op:{h}"
    if uid.startswith("vs-"):
        unit = gs.new_vs_unit(uid, where)
    else:
        unit = gs.new_unit(t.state["counters"], uid, where)
    unit.update(extra)
    t.state["units"][uid] = unit
    return unit


def phase(t: Table, name: str, turn: int = 3) -> None:
    """Start phase `name` of `turn` as the engine does (phases.start_phase)."""
    t.state["turn"] = turn
    phases.start_phase(t.state, name, ScriptedContext())


def do(t: Table, role: str, text: str, rolls: list[int] | tuple[int, ...] = ()) -> ScriptedContext:
    return t.decide(role, ENGINE.parse(text, t.state, role), rolls=rolls)


def refused(t: Table, role: str, text: str, match: str) -> None:
    before = canonical_bytes({k: v for k, v in t.state.items() if k not in gs.STATIC_KEYS})
    with pytest.raises(PbemError, match=match) as info:
        do(t, role, text, rolls=[1, 1, 1])
    assert "\n" not in str(info.value)  # one line
    after = canonical_bytes({k: v for k, v in t.state.items() if k not in gs.STATIC_KEYS})
    assert before == after


def soviet_attack(**options: Any) -> Table:
    """sov-21rc (12) in 3921 against ger-281-inf (3) and ger-9-fj-a (2) in 3821: 12 against
    5, the 6.3 example."""
    t = table(**options)
    put(t, "sov-21rc", E1)
    put(t, "ger-281-inf", T)
    put(t, "ger-9-fj-a", T)
    phase(t, "soviet-combat")
    return t


# --- 6.1-6.3 declarations, odds and shifts ------------------------------------------------------


def test_6_3_example_12_against_5_is_2_to_1_and_the_attack_is_declared_by_hexes() -> None:
    t = soviet_attack()
    ctx = do(t, "soviet", "attack 3821 from 3921", rolls=[3])
    assert ctx.texts[0] == "attack on 3821: 12 against 5, 2:1, die 3: 1D"
    assert ctx.events[0].data["column"] == "2:1"
    assert t.state["units"]["sov-21rc"]["attacked"] is True
    assert t.state["step"] == "loss" and t.asked() == "german"  # 6.52: the owner chooses


def test_6_3_with_names_the_units_of_the_attacking_hexes() -> None:
    t = table()
    put(t, "sov-6gtc-bg1", E1)  # attack 9
    put(t, "sov-9mc-bg1", E1)  # attack 7, stays out of the attack (6.22)
    put(t, "sov-21rc", E2)  # attack 12
    put(t, "ger-281-inf", T)
    put(t, "ger-9-fj-a", T)
    phase(t, "soviet-combat")
    refused(t, "soviet", "attack 3821 from 3921 with sov-21rc", "not in the attacking hexes")
    ctx = do(t, "soviet", "attack 3821 from 3921 3922 with sov-6gtc-bg1 sov-21rc", rolls=[3])
    assert ctx.texts[0].startswith("attack on 3821: 21 against 5, 4:1, die 3: ")
    assert ctx.texts[0].endswith("1DR")
    units = t.state["units"]
    assert units["sov-6gtc-bg1"].get("attacked") and units["sov-21rc"].get("attacked")
    assert not units["sov-9mc-bg1"].get("attacked")


def _major_city() -> tuple[str, str]:
    """A major city hex (two columns left on the Soviet CRT, 6.42) and a neighbour that
    attacks it across a plain hexside."""
    for h, info in sorted(BOARD["hexes"].items()):
        if info["kind"] != md.OPERATIONAL or info["terrain"] != "major-city" or info["fortified"]:
            continue
        for n in md.neighbours(BOARD, h):
            plain = not md.river(BOARD, n, h) and not md.full_lake(BOARD, n, h)
            if md.kind(BOARD, n) == md.OPERATIONAL and plain and not md.front_boundary(BOARD, n, h):
                return h, n
    raise AssertionError("no major city hex")


def test_6_48_example_10_against_1_shifted_two_left_is_8_to_1_then_6_to_1() -> None:
    target, start = _major_city()
    t = table()
    put(t, "sov-2pol-a", start)  # attack 10
    put(t, "ger-bec", target)  # defence 1
    phase(t, "soviet-combat")
    ctx = do(t, "soviet", f"attack {target[3:]} from {start[3:]}", rolls=[6])
    assert "10 against 1, 8:1 shifted to 6:1, die 6: 1DR" in ctx.texts[0]


def test_6_3_beyond_8_to_1_is_read_as_8_to_1() -> None:
    t = table()
    put(t, "sov-6gtc", E1)  # attack 20
    put(t, "ger-bec", T)  # defence 1
    phase(t, "soviet-combat")
    ctx = do(t, "soviet", "attack 3821 from 3921", rolls=[1])
    assert "20 against 1, 8:1, die 1: DE" in ctx.texts[0]


def test_second_6_48_a_german_attack_below_1_3_is_refused_before_any_die() -> None:
    t = table()
    put(t, "ger-bec", E1)  # attack 1
    put(t, "sov-21rc", T)  # defence 10
    phase(t, "german-combat")
    refused(t, "german", "attack 3821 from 3921", "6.48")
    put(t, "ger-fueb", E2)  # attack 5: 6 against 10 is 1:2
    ctx = do(t, "german", "attack 3821 from 3921 3922", rolls=[4])
    assert "6 against 10, 1:2" in ctx.texts[0]


def test_6_13_6_25_a_city_hex_may_not_attack_a_transition_hex() -> None:
    t = table()
    put(t, "sov-6gtc-bg1", "city:1320")
    put(t, "sov-9mc-bg1", "op:2419")
    put(t, "ger-281-inf", "op:2420")
    phase(t, "soviet-combat")
    refused(t, "soviet", "attack 2420 from 1320 with sov-6gtc-bg1", "6.13, 6.25")
    ctx = do(t, "soviet", "attack 2420 from 2419", rolls=[3])  # 6.25: Operational -> Transition
    assert ctx.texts[0].startswith("attack on 2420: 7 against 3")


def test_6_14_once_per_phase_for_attacker_and_defender() -> None:
    t = table()
    put(t, "sov-21rc", E1)
    put(t, "sov-9mc-bg1", E2)
    put(t, "ger-bec", T)
    put(t, "ger-9-fj-a", "op:4021")
    put(t, "ger-281-inf", "op:4021")
    phase(t, "soviet-combat")
    do(t, "soviet", "attack 3821 from 3921", rolls=[3])  # 12:1 -> 8:1, die 3: 2DR
    assert "ger-bec" in t.state["destroyed"] and t.state["step"] == "advance"
    do(t, "soviet", "done")
    refused(t, "soviet", "attack 4021 from 3921 with sov-21rc", "6.14")
    ctx = do(t, "soviet", "attack 4021 from 3922", rolls=[3])  # 7 against 5: 1:1, die 3: -
    assert ctx.texts[0] == "attack on 4021: 7 against 5, 1:1, die 3: -"
    put(t, "sov-6gtc-bg1", "op:4121")
    refused(t, "soviet", "attack 4021 from 4121", "6.14")


def test_6_18_the_2bf_attacks_from_turn_3_and_12_35_with_the_6th_ss_army() -> None:
    t = table()
    put(t, "sov-18rc", E1)  # 2BF
    put(t, "ger-281-inf", T)
    phase(t, "soviet-combat", turn=2)
    refused(t, "soviet", "attack 3821 from 3921", "6.18")
    refused(t, "soviet", "attack 3821 from 3921 with sov-18rc", "6.18")
    phase(t, "soviet-combat", turn=3)
    assert "12 against 3" in do(t, "soviet", "attack 3821 from 3921", rolls=[3]).texts[0]
    t = table(sixth_ss=True)  # 12.35: 6.18 is ignored
    put(t, "sov-18rc", E1)
    put(t, "ger-281-inf", T)
    phase(t, "soviet-combat", turn=2)
    assert "12 against 3" in do(t, "soviet", "attack 3821 from 3921", rolls=[3]).texts[0]


def test_6_67_disrupted_and_6_73_advanced_units_do_not_attack() -> None:
    t = table()
    put(t, "sov-21rc", E1, disrupted=True)
    put(t, "sov-9mc-bg1", E2, advanced=True)
    put(t, "ger-281-inf", T)
    phase(t, "soviet-combat")
    t.state["units"]["sov-21rc"]["disrupted"] = True
    t.state["units"]["sov-9mc-bg1"]["advanced"] = True  # start_phase cleared the flag
    refused(t, "soviet", "attack 3821 from 3921 with sov-21rc", "6.67")
    refused(t, "soviet", "attack 3821 from 3922 with sov-9mc-bg1", "6.73")


def test_9_72_americans_do_not_attack_with_soviet_units() -> None:
    t = table()
    put(t, "us-9id", E1)
    put(t, "sov-21rc", E2)
    put(t, "ger-281-inf", T)
    phase(t, "soviet-combat")
    refused(t, "soviet", "attack 3821 from 3921 3922", "9.72")
    assert "8 against 3" in do(t, "soviet", "attack 3821 from 3921", rolls=[3]).texts[0]


def test_6_94_artillery_markers_shift_three_on_turn_1_and_leave_after_the_phase() -> None:
    t = table()
    put(t, "sov-21rc", E1, artillery=True)
    put(t, "ger-281-inf", T)
    put(t, "ger-9-fj-a", T)
    phase(t, "soviet-combat", turn=1)
    ctx = do(t, "soviet", "attack 3821 from 3921", rolls=[3])
    assert "12 against 5, 2:1 shifted to 5:1, die 3: 2DR" in ctx.texts[0]  # 6.46, 6.92
    assert {"ger-281-inf", "ger-9-fj-a"} <= set(t.state["destroyed"])  # 2 steps, 2 units
    do(t, "soviet", "done")  # no advance
    do(t, "soviet", "done")  # the end of the phase
    assert t.state["phase"] == "siege-move"
    assert "artillery" not in t.state["units"]["sov-21rc"]  # 6.94


# --- 6.52, 6.59 losses ----------------------------------------------------------------------


def test_6_52_the_owner_names_the_steps_in_its_own_entry() -> None:
    t = soviet_attack()
    do(t, "soviet", "attack 3821 from 3921", rolls=[3])  # 1D
    with pytest.raises(PbemError, match="not asked"):
        do(t, "soviet", "lose ger-9-fj-a")
    refused(t, "german", "lose ger-9-fj-a ger-281-inf", "name 1 unit")
    refused(t, "german", "lose sov-21rc", "did not take part")
    ctx = do(t, "german", "lose ger-9-fj-a")
    assert "ger-9-fj-a is destroyed (step losses, 6.52)" in ctx.texts
    assert t.state["units"]["ger-281-inf"]["hex"] == T
    assert t.state["combat"] is None and t.state["step"] == "combat" and t.asked() == "soviet"


def test_6_52_no_choice_no_question() -> None:
    t = table()
    put(t, "sov-21rc", E1)
    put(t, "ger-281-inf", T)
    phase(t, "soviet-combat")
    ctx = do(t, "soviet", "attack 3821 from 3921", rolls=[3])  # 4:1, die 3: 1DR
    assert "ger-281-inf is destroyed (1 step(s), 6.52)" in ctx.texts
    assert t.state["step"] == "advance"  # 6.71: the hex is empty


@pytest.mark.parametrize(
    ("options", "points"),
    [({}, 12), ({"curse": True}, 10), ({"sixth_ss": True}, 17), ({"support_points": 15}, 15)],
)
def test_6_59_support_points_pay_first(options: dict[str, Any], points: int) -> None:
    t = soviet_attack(**options)
    assert t.state["support_points"] == points
    ctx = do(t, "soviet", "attack 3821 from 3921", rolls=[6])  # 2:1, die 6: 1A
    assert t.state["support_points"] == points - 1
    assert t.state["units"]["sov-21rc"]["steps"] == 2
    assert any("Support Point" in text for text in ctx.texts)


def test_6_59_without_points_the_soviet_steps_go_and_one_point_pays_what_it_can() -> None:
    t = soviet_attack(support_points=0)
    do(t, "soviet", "attack 3821 from 3921", rolls=[6])  # 1A
    assert t.state["units"]["sov-21rc"]["steps"] == 1  # flipped (6.52), nothing to choose
    t = table(support_points=1)
    put(t, "sov-21rc", E1)  # 12
    put(t, "ger-281-inf", T)
    put(t, "ger-1-naval", T)
    put(t, "ger-goerlitz", T)  # 3 + 3 + 4 = 10: 1:1
    phase(t, "soviet-combat")
    ctx = do(t, "soviet", "attack 3821 from 3921", rolls=[6])  # 1:1, die 6: 2A
    assert "12 against 10, 1:1, die 6: 2A" in ctx.texts[0]
    assert t.state["support_points"] == 0 and t.state["units"]["sov-21rc"]["steps"] == 1


def test_6_52_two_soviet_attackers_choose_their_step_loss() -> None:
    t = table(support_points=0)
    put(t, "sov-6gtc-bg1", E1)  # 9
    put(t, "sov-1gcc-bg1", E2)  # 6
    put(t, "ger-281-inf", T)
    put(t, "ger-1-naval", T)
    phase(t, "soviet-combat")
    ctx = do(t, "soviet", "attack 3821 from 3921 3922", rolls=[6])  # 15 against 6: 2:1, 1A
    assert "15 against 6, 2:1, die 6: 1A" in ctx.texts[0]
    assert t.state["step"] == "loss" and t.asked() == "soviet"
    do(t, "soviet", "lose sov-1gcc-bg1")
    assert "sov-1gcc-bg1" in t.state["destroyed"] and "sov-6gtc-bg1" in t.state["units"]


def test_6_54_ex_costs_every_unit_that_took_part_one_step() -> None:
    t = table(support_points=0)
    put(t, "sov-21rc", E1)
    put(t, "sov-9mc-bg1", E2)  # does not take part
    put(t, "ger-281-inf", T)
    put(t, "ger-9-fj-a", T)
    phase(t, "soviet-combat")
    ctx = do(t, "soviet", "attack 3821 from 3921", rolls=[4])  # 2:1, die 4: EX
    assert ctx.texts[0].endswith("EX")
    units = t.state["units"]
    assert units["sov-21rc"]["steps"] == 1 and units["sov-9mc-bg1"]["steps"] == 1
    assert {"ger-281-inf", "ger-9-fj-a"} <= set(t.state["destroyed"])
    assert t.state["combat"] is None and t.state["step"] == "combat"  # no advance (6.54)


def test_6_54_6_59_ex_with_support_points_costs_one_point_per_soviet_unit() -> None:
    t = soviet_attack()
    do(t, "soviet", "attack 3821 from 3921", rolls=[4])  # EX
    assert t.state["support_points"] == 11 and t.state["units"]["sov-21rc"]["steps"] == 2
    assert {"ger-281-inf", "ger-9-fj-a"} <= set(t.state["destroyed"])


def test_6_55_de_destroys_every_defender_and_vehicles_advance_three_hexes_any_way() -> None:
    t = table()
    put(t, "sov-6gtc", E1)  # 20
    put(t, "sov-21rc", E2)  # 12
    put(t, "ger-281-inf", T)
    put(t, "ger-9-fj-a", T)
    phase(t, "soviet-combat")
    ctx = do(t, "soviet", "attack 3821 from 3921 3922", rolls=[1])  # 32 against 5: 6:1, DE
    assert ctx.texts[0].endswith("DE")
    assert {"ger-281-inf", "ger-9-fj-a"} <= set(t.state["destroyed"])
    assert t.state["step"] == "advance" and t.asked() == "soviet"
    refused(t, "soviet", "advance sov-21rc 3821 3721", "at most 1")  # foot: one hex
    refused(t, "soviet", "advance sov-6gtc 3821 3721 3620 3520", "at most 3")
    refused(t, "soviet", "advance sov-6gtc 3721", "first hex")
    do(t, "soviet", "advance sov-6gtc 3821 3722 3621")  # 6.75: any direction
    assert t.state["units"]["sov-6gtc"]["hex"] == "op:3621"
    assert t.state["units"]["sov-6gtc"]["advanced"] is True
    do(t, "soviet", "done")
    assert t.state["units"]["sov-21rc"]["hex"] == E2 and t.state["step"] == "combat"


# --- 6.53, 6.57, 6.58, 6.6 retreats ---------------------------------------------------------


def test_6_61_the_owner_retreats_after_a_soviet_attack_and_is_disrupted() -> None:
    t = soviet_attack()
    do(t, "soviet", "attack 3821 from 3921", rolls=[1])  # 2:1, die 1: 1DR
    do(t, "german", "lose ger-9-fj-a")
    assert t.state["step"] == "retreat" and t.asked() == "german"
    refused(t, "german", "retreat ger-281-inf 3721", "must retreat 2 hexes")
    refused(t, "german", "retreat ger-281-inf 3820 3720", "strong ZOC")  # of a corps (6.63)
    ctx = do(t, "german", "retreat ger-281-inf 3721 3620")
    unit = t.state["units"]["ger-281-inf"]
    assert unit["hex"] == W2 and unit["disrupted"] is True  # 6.62, 6.66
    assert "ger-281-inf retreats to 3620 and is disrupted (6.62)" in ctx.texts
    assert t.state["step"] == "advance" and t.asked() == "soviet"


def _retreating_corps(disrupted: bool) -> Table:
    """ger-fueb and ger-6ss-lah-1 (5 + 5) against sov-1pol-a out of supply (8 halved: 4,
    6.17) in 3821, ger-bec in 3619 (its weak ZOC covers 3620): 2:1, die 1: **R."""
    t = table(support_points=0)
    put(t, "ger-fueb", E1)
    put(t, "ger-6ss-lah-1", E2)
    put(t, "sov-1pol-a", T, out_of_supply=True, disrupted=disrupted)
    put(t, "ger-bec", "op:3619")
    phase(t, "german-combat")
    ctx = do(t, "german", "attack 3821 from 3921 3922", rolls=[1])
    assert "10 against 4, 2:1, die 1: **R" in ctx.texts[0]
    assert t.state["units"]["sov-1pol-a"]["delays"] == 2  # 6.58
    assert t.state["step"] == "retreat" and t.asked() == "german"  # 6.58: "by the German player"
    return t


def test_6_63_a_retreat_through_weak_zoc_costs_a_step() -> None:
    t = _retreating_corps(False)
    ctx = do(t, "german", "retreat sov-1pol-a 3721 3620")
    unit = t.state["units"]["sov-1pol-a"]
    assert unit["hex"] == W2 and unit["steps"] == 1 and unit["disrupted"]
    assert "sov-1pol-a loses 1 step(s) (retreat through enemy ZOC, 6.63)" in ctx.texts
    t = _retreating_corps(False)
    do(t, "german", "retreat sov-1pol-a 3722 3622")  # no enemy ZOC on the way
    assert t.state["units"]["sov-1pol-a"]["steps"] == 2
    # 6.74: the German vehicles may follow two hexes along the retreat path
    assert t.state["step"] == "advance" and t.asked() == "german"
    assert t.state["combat"]["advance"]["limits"] == {"ger-6ss-lah-1": 2, "ger-fueb": 2}
    do(t, "german", "advance ger-fueb 3821 3722")
    assert t.state["units"]["ger-fueb"]["hex"] == "op:3722"


def test_6_62_a_disrupted_unit_may_not_retreat_into_weak_zoc() -> None:
    t = _retreating_corps(True)  # 6.67: disrupted, it still defends
    refused(t, "german", "retreat sov-1pol-a 3721 3620", "disrupted")
    do(t, "german", "retreat sov-1pol-a 3722 3622")
    assert t.state["units"]["sov-1pol-a"]["hex"] == "op:3622"


def test_6_53_a_unit_that_cannot_retreat_at_all_loses_the_steps_instead() -> None:
    t = soviet_attack()  # sov-21rc in 3921: its strong ZOC closes 3820 and 3922 (6.63)
    for uid, h in zip(
        ("sov-6gtc-bg1", "sov-9mc-bg1", "sov-1gcc-bg1"), ("3721", "3722", "3822"), strict=True
    ):
        put(t, uid, h)
    ctx = do(t, "soviet", "attack 3821 from 3921", rolls=[1])  # 2:1, die 1: 1DR
    assert ctx.texts[0].endswith("1DR")
    do(t, "german", "lose ger-9-fj-a")
    assert "ger-281-inf is destroyed (no retreat possible, 6.53)" in t.last.texts
    assert t.state["step"] == "advance"


def test_6_53_a_retreat_goes_as_far_as_it_can_and_the_missing_hex_costs_a_step() -> None:
    t = table(support_points=0)
    put(t, "ger-fueb", E1)
    put(t, "ger-6ss-lah-1", E2)
    put(t, "sov-1pol-a", T, out_of_supply=True)
    for uid, h in zip(
        ("ger-depot", "ger-okh", "ger-alkett"), ("3722", "3820", "3822"), strict=True
    ):
        put(t, uid, h)  # German units without a ZOC (4.21) close three hexes
    for uid, h in zip(("sov-9grc", "sov-21rc", "sov-8gmc"), ("3620", "3621", "3720"), strict=True):
        put(t, uid, h)  # full hexes beyond 3721: no retreat may end there (6.63)
    phase(t, "german-combat")
    do(t, "german", "attack 3821 from 3921 3922", rolls=[1])  # 10 against 4: **R
    assert t.state["step"] == "retreat"
    ctx = do(t, "german", "retreat sov-1pol-a 3721")
    unit = t.state["units"]["sov-1pol-a"]
    assert unit["hex"] == W1 and unit["steps"] == 1 and unit["disrupted"]
    assert "sov-1pol-a loses 1 step(s) (a retreat one hex short, 6.53)" in ctx.texts


def test_6_69_a_unit_without_movement_allowance_ignores_the_r() -> None:
    t = soviet_attack()
    put(t, "ger-ber-flak", T)  # movement 0
    t.state["units"].pop("ger-9-fj-a")
    do(t, "soviet", "attack 3821 from 3921", rolls=[1])  # 12 against 6: 2:1, 1DR
    do(t, "german", "lose ger-281-inf")
    assert t.state["units"]["ger-ber-flak"]["hex"] == T
    assert t.state["combat"] is None and t.state["step"] == "combat"  # no retreat, no advance


def test_6_68_a_retreat_from_an_operational_hex_stops_in_a_transition_hex() -> None:
    t = table()
    put(t, "sov-21rc", "op:2519")
    put(t, "ger-281-inf", "op:2419")
    put(t, "ger-9-fj-a", "op:2419")
    phase(t, "soviet-combat")
    do(t, "soviet", "attack 2419 from 2519", rolls=[1])  # 12 against 5: 1DR
    do(t, "german", "lose ger-9-fj-a")
    refused(t, "german", "retreat ger-281-inf 2420 2320", "stops its retreat")
    ctx = do(t, "german", "retreat ger-281-inf 2420")
    unit = t.state["units"]["ger-281-inf"]
    assert unit["hex"] == "op:2420" and unit["disrupted"] and unit["steps"] == 1
    assert not any("6.53" in x for x in ctx.texts)


def test_6_64_6_57_german_attackers_retreat_by_the_soviet_player_away_from_the_defender() -> None:
    t = table()
    put(t, "ger-281-inf", E1)  # attack 2
    put(t, "sov-6gtc-bg1", T)  # defence 4: 1:2
    phase(t, "german-combat")
    ctx = do(t, "german", "attack 3821 from 3921", rolls=[3])  # clear 1:2, die 3: -
    assert ctx.texts[0].endswith(": -")
    t.state["units"]["sov-6gtc-bg1"]["defended"] = False
    t.state["units"]["ger-281-inf"]["attacked"] = False
    ctx = do(t, "german", "attack 3821 from 3921", rolls=[4])  # die 4: AR
    assert ctx.texts[0].endswith("AR")
    assert t.state["step"] == "retreat" and t.asked() == "soviet"  # 6.57
    refused(t, "soviet", "retreat ger-281-inf 3922 3822", "may not end beside hex op:3821")
    do(t, "soviet", "retreat ger-281-inf 4020 4120")
    assert t.state["units"]["ger-281-inf"]["hex"] == "op:4120"
    # 6.74: the defender may advance one hex, into the hex the attacker left
    assert t.state["step"] == "advance" and t.asked() == "soviet"
    refused(t, "soviet", "advance sov-6gtc-bg1 3921 4020", "at most 1")
    do(t, "soviet", "advance sov-6gtc-bg1 3921")
    assert t.state["units"]["sov-6gtc-bg1"]["hex"] == E1


def test_6_63_stacking_holds_at_the_end_of_a_retreat() -> None:
    t = soviet_attack()
    put(t, "ger-1-naval", W2)
    put(t, "ger-610-zbv", W2)  # 3620 is full (2 + 2)
    do(t, "soviet", "attack 3821 from 3921", rolls=[1])  # 1DR
    do(t, "german", "lose ger-9-fj-a")
    refused(t, "german", "retreat ger-281-inf 3721 3620", "over the stacking limit")
    do(t, "german", "retreat ger-281-inf 3721 3621")


def test_6_65_a_unit_that_retreated_into_the_attacked_hex_adds_nothing_and_dies_first() -> None:
    t = soviet_attack()
    put(t, "ger-1-naval", W2)  # defence 3
    put(t, "sov-9mc-bg1", "op:3520")  # attack 7, beside 3620
    do(t, "soviet", "attack 3821 from 3921", rolls=[1])  # 1DR
    do(t, "german", "lose ger-9-fj-a")
    do(t, "german", "retreat ger-281-inf 3721 3620")
    assert t.state["units"]["ger-281-inf"]["retreated_into"] is True
    do(t, "soviet", "done")  # no advance
    ctx = do(t, "soviet", "attack 3620 from 3520", rolls=[3])  # 7 against 3 only: 2:1, 1D
    assert "7 against 3, 2:1" in ctx.texts[0]
    assert "ger-281-inf is destroyed (it had retreated into the attacked hex, 6.65)" in ctx.texts
    assert "ger-1-naval" in t.state["destroyed"]  # the 1D itself


def test_6_66_disruption_ends_at_the_end_of_the_turn() -> None:
    t = table()
    put(t, "ger-281-inf", "op:3821", disrupted=True)
    put(t, "sov-21rc", "op:0213", disrupted=True)
    phase(t, "supply")
    while t.state["phase"] == "supply":
        do(t, t.asked() or "german", "done")
    assert t.state["turn"] == 4 and t.state["phase"] == "soviet-move"
    assert not t.state["units"]["ger-281-inf"]["disrupted"]
    assert not t.state["units"]["sov-21rc"]["disrupted"]


# --- 6.7 advances ---------------------------------------------------------------------------


def test_6_74_after_an_r_vehicles_advance_two_hexes_along_the_retreat_path() -> None:
    t2 = soviet_attack()
    put(t2, "sov-6gtc-bg1", E2)  # 9: 21 against 5 is 4:1
    do(t2, "soviet", "attack 3821 from 3921 3922", rolls=[3])  # 4:1, die 3: 1DR
    do(t2, "german", "lose ger-9-fj-a")
    do(t2, "german", "retreat ger-281-inf 3721 3620")
    info = t2.state["combat"]["advance"]
    assert info["limits"] == {"sov-21rc": 1, "sov-6gtc-bg1": 2}
    refused(t2, "soviet", "advance sov-6gtc-bg1 3821 3722", "retreat path")
    refused(t2, "soviet", "advance sov-21rc 3821 3721", "at most 1")
    do(t2, "soviet", "advance sov-6gtc-bg1 3821 3721")
    do(t2, "soviet", "advance sov-21rc 3821")
    assert t2.state["step"] == "combat"


def test_6_75_after_a_numerical_destruction_vehicles_advance_the_difference() -> None:
    t = table()
    put(t, "sov-6gtc", E1)  # 20 against 4: 5:1
    put(t, "ger-281-inf", T)
    put(t, "ger-bec", T)
    phase(t, "soviet-combat")
    ctx = do(t, "soviet", "attack 3821 from 3921", rolls=[6])  # 5:1, die 6: 2D
    assert ctx.texts[0].endswith("2D")
    assert t.state["combat"]["advance"]["limits"] == {"sov-6gtc": 1}  # 2 - 2 applied, at least 1
    refused(t, "soviet", "advance sov-6gtc 3821 3721", "at most 1")


def test_6_76_soviet_vehicles_stop_in_enemy_zoc_after_the_first_hex() -> None:
    t = table()
    put(t, "sov-6gtc", E1)
    put(t, "ger-bec", T)
    put(t, "ger-9-fj-a", W2)  # its ZOC covers 3721
    phase(t, "soviet-combat")
    do(t, "soviet", "attack 3821 from 3921", rolls=[1])  # DE
    refused(t, "soviet", "advance sov-6gtc 3821 3721 3621", "must stop its advance at op:3721")
    do(t, "soviet", "advance sov-6gtc 3821 3722 3622")  # clear of its ZOC: three hexes
    assert t.state["units"]["sov-6gtc"]["hex"] == "op:3622"


def test_6_78_no_advance_into_the_city_in_a_combat_phase_and_only_there_in_siege() -> None:
    t = table()
    put(t, "sov-6gtc-bg1", "op:2420")  # a Transition Hex: it may attack the City Map
    put(t, "ger-bec", "city:1320")
    phase(t, "soviet-combat")
    do(t, "soviet", "attack 1320 from 2420", rolls=[1])  # 9 against 1: 8:1 -> 6:1, DE
    assert "ger-bec" in t.state["destroyed"] and t.state["step"] == "advance"
    refused(t, "soviet", "advance sov-6gtc-bg1 1320", "6.78")
    do(t, "soviet", "done")
    t = table()
    put(t, "sov-6gtc-bg1", "op:2320")
    put(t, "ger-bec", "op:2420")
    put(t, "sov-9mc-bg1", "city:1219")
    put(t, "ger-9-fj-a", "city:1320")
    phase(t, "siege-combat")
    do(t, "soviet", "attack 2420 from 2320", rolls=[1])  # DE
    refused(t, "soviet", "advance sov-6gtc-bg1 2420", "6.78")
    do(t, "soviet", "done")
    do(t, "soviet", "attack 1320 from 1219", rolls=[1])  # 7 against 2: 3:1 -> 1:1, 1D
    assert "ger-9-fj-a" in t.state["destroyed"]
    do(t, "soviet", "advance sov-9mc-bg1 1320")  # 6.78: City hexes in the siege
    assert t.state["units"]["sov-9mc-bg1"]["hex"] == "city:1320"


# --- 6.8 Delay markers, 9.37 and 12.34 ------------------------------------------------------


def german_attack(
    *attackers: str, defender: str = "sov-2gcc-bg1", hq: str | None = None, **options: Any
) -> Table:
    t = table(**options)
    for uid, h in zip(attackers, (E1, E2), strict=False):
        put(t, uid, h)
    put(t, defender, T)
    if hq is not None:
        put(t, "ger-6ss-hq", hq)  # 12.34: the 6th SS Panzer Army's HQ
    phase(t, "german-combat")
    return t


@pytest.mark.parametrize(("roll", "code", "delays"), [(2, "*", 1), (1, "**", 2)])
def test_6_82_delay_markers_are_placed_as_a_count_with_no_value(
    roll: int, code: str, delays: int
) -> None:
    t = german_attack("ger-281-inf")  # 2 against 2: 1:1 clear
    pool = dict(t.state["delay_pool"])
    ctx = do(t, "german", "attack 3821 from 3921", rolls=[roll])
    assert ctx.texts[0].endswith(f": {code}")
    assert t.state["units"]["sov-2gcc-bg1"]["delays"] == delays
    assert t.state["delay_pool"] == pool  # nothing drawn until the unit moves (6.83)
    assert len(ctx.rolls) == 1


def test_6_58_double_star_one_places_two_markers_and_a_step() -> None:
    t = german_attack("ger-fueb", "ger-bran", support_points=0)  # 9 against 2: 4:1
    ctx = do(t, "german", "attack 3821 from 3921 3922", rolls=[1])
    assert ctx.texts[0].endswith("**1")
    assert "sov-2gcc-bg1" in t.state["destroyed"]  # its one step
    t = german_attack("ger-fueb", "ger-bran")
    do(t, "german", "attack 3821 from 3921 3922", rolls=[1])
    assert t.state["support_points"] == 11 and t.state["units"]["sov-2gcc-bg1"]["delays"] == 2


def test_9_37_the_12th_army_alone_reads_the_soviet_crt_mixed_the_german() -> None:
    t = german_attack("ger-12a-clau")  # 4 against 2: 2:1
    ctx = do(t, "german", "attack 3821 from 3921", rolls=[3])  # Soviet CRT 2:1, die 3: 1D
    assert ctx.texts[0].endswith("1D")
    t = german_attack("ger-12a-clau", "ger-281-inf")  # 6 against 2: 3:1, German CRT
    ctx = do(t, "german", "attack 3821 from 3921 3922", rolls=[3])
    assert ctx.texts[0].endswith(": **")


def test_12_34_the_6th_ss_army_alone_reads_the_soviet_crt() -> None:
    t = german_attack("ger-6ss-lah-2", hq="op:4122", sixth_ss=True)  # 4 against 2: 2:1
    assert do(t, "german", "attack 3821 from 3921", rolls=[3]).texts[0].endswith("1D")
    t = german_attack("ger-6ss-lah-2", "ger-12a-clau", hq="op:4122", sixth_ss=True)  # 4:1
    assert do(t, "german", "attack 3821 from 3921 3922", rolls=[3]).texts[0].endswith("**R")


def test_12_34_cut_off_from_its_hq_the_6th_ss_attacks_at_half_strength() -> None:
    t = german_attack("ger-6ss-lah-2", sixth_ss=True)  # no HQ on the map: cut off
    assert t.state["phase_data"]["sixth_cut"] == ["ger-6ss-lah-2"]
    ctx = do(t, "german", "attack 3821 from 3921", rolls=[3])
    assert "2 against 2, 1:1" in ctx.texts[0]  # 4 halved


# --- 8.45 Volkssturm ---------------------------------------------------------------------------


def volkssturm_table() -> Table:
    t = table()
    put(t, "sov-6gtc-bg1", "city:1219")
    put(t, "vs-01", "city:1320")
    put(t, "ger-9-fj-a", "city:1320")
    phase(t, "soviet-combat")
    return t


def test_8_45_a_face_down_volkssturm_is_turned_over_before_the_odds() -> None:
    t = volkssturm_table()
    mix = dict(t.state["vs_mix"])
    ctx = do(t, "soviet", "attack 1320 from 1219", rolls=[len(_backs(mix)) - 1, 3])
    strongest = _backs(mix)[-1]
    assert ctx.texts[0] == f"vs-01 is turned over: {strongest} (8.45)"
    defence = int(strongest.split("-")[1])
    assert f"9 against {defence + 2}," in ctx.texts[1]
    assert t.state["vs_mix"][strongest] == mix[strongest] - 1
    assert ctx.purposes[0] == "Volkssturm vs-01 turned over (8.45)"


def _backs(mix: dict[str, int]) -> list[str]:
    return [key for key in sorted(mix) for _ in range(mix[key])]


def test_8_45_the_strength_is_drawn_at_the_reveal_not_before() -> None:
    """Two copies of one position with different scripted reveals: the same views and saves
    until the reveal (nothing about the strength is in the state before), then each its own
    strength, drawn from the unrevealed mix."""
    a, b = volkssturm_table(), volkssturm_table()
    assert "attack" not in a.state["units"]["vs-01"]
    for role in (None, "soviet", "german"):
        assert canonical_bytes(ENGINE.view(a.state, role)) == canonical_bytes(
            ENGINE.view(b.state, role)
        )
    static = set(gs.STATIC_KEYS)
    assert canonical_bytes(
        {k: v for k, v in a.state.items() if k not in static}
    ) == canonical_bytes({k: v for k, v in b.state.items() if k not in static})
    n = len(_backs(a.state["vs_mix"]))
    first = do(a, "soviet", "attack 1320 from 1219", rolls=[0, 3])
    last = do(b, "soviet", "attack 1320 from 1219", rolls=[n - 1, 3])
    assert first.texts[0] == "vs-01 is turned over: 0-1-3 (8.45)"
    assert last.texts[0] == "vs-01 is turned over: 2-3-1 (8.45)"
    assert "9 against 3," in first.texts[1] and "9 against 5," in last.texts[1]


def test_8_45_a_face_down_volkssturm_attacking_alone() -> None:
    t = table()
    put(t, "vs-01", "city:1219")
    put(t, "sov-6gtc-bg1", "city:1320")
    phase(t, "german-combat")
    mix = dict(t.state["vs_mix"])
    strongest = _backs(mix)[-1]  # 2-3-1
    ctx = do(t, "german", "attack 1320 from 1219", rolls=[len(_backs(mix)) - 1, 3])
    assert ctx.texts[0] == f"vs-01 is turned over: {strongest} (8.45)"
    assert "2 against 4, 1:2" in ctx.texts[1]


def test_8_45_a_volkssturm_turned_to_a_zero_attack_makes_no_attack() -> None:
    t = table()
    put(t, "vs-01", "city:1219")
    put(t, "sov-6gtc-bg1", "city:1320")
    phase(t, "german-combat")
    ctx = do(t, "german", "attack 1320 from 1219", rolls=[0])  # the first back: 0-1-3
    assert ctx.texts[0] == "vs-01 is turned over: 0-1-3 (8.45)"
    assert t.state["units"]["vs-01"]["attack"] == 0
    assert t.state["step"] == "combat" and t.state["combat"] is None


def test_8_45_a_german_attack_the_reveal_puts_below_1_3_is_not_made() -> None:
    t = table()
    put(t, "vs-01", "city:1219")
    put(t, "sov-6gtc-bg1", "city:1320")  # defence 4
    phase(t, "german-combat")
    ones = _backs(t.state["vs_mix"]).index("1-1-3")
    ctx = do(t, "german", "attack 1320 from 1219", rolls=[ones])  # 1 against 4: below 1:3
    assert ctx.texts[0] == "vs-01 is turned over: 1-1-3 (8.45)"
    assert "is not made" in ctx.texts[1] and "6.48" in ctx.texts[1]
    assert len(ctx.rolls) == 1  # no combat die
    assert t.state["combat"] is None and t.state["step"] == "combat"
    assert t.state["units"]["sov-6gtc-bg1"]["delays"] == 0


# --- 12.1 the U-Bahn -----------------------------------------------------------------------------


def ubahn_table(**options: Any) -> Table:
    t = table(**options)
    put(t, "sov-6gtc-bg1", "city:0324")
    put(t, "sov-9mc-bg1", "city:0423")
    put(t, "ger-9-fj-a", "city:0424")
    phase(t, "soviet-combat")
    return t


def test_12_12_the_u_bahn_needs_the_option_the_city_map_and_a_line() -> None:
    assert "u-bahn" in md.hexside(BOARD, "city:0324", "city:0424")
    assert "u-bahn" not in md.hexside(BOARD, "city:0423", "city:0424")
    refused(ubahn_table(), "soviet", "attack 0424 from 0324 ubahn", "12.12")
    t = ubahn_table(underground=True)
    refused(t, "soviet", "attack 0424 from 0423 ubahn", "12.12")
    plain = ubahn_table(underground=True)
    ctx = do(plain, "soviet", "attack 0424 from 0324", rolls=[3])
    base = ctx.events[0].data["column"]
    ctx = do(t, "soviet", "attack 0424 from 0324 ubahn", rolls=[3, 5])
    columns = DATA["tables"]["columns"]
    assert columns.index(ctx.events[0].data["column"]) == columns.index(base) + 1
    assert ctx.purposes[-1] == "U-Bahn demolition (12.14)"
    assert t.state["ubahn"] is None  # 5: the demolition failed


def test_12_14_a_demolition_die_of_1_to_4_ends_the_u_bahn() -> None:
    t = ubahn_table(underground=True)
    ctx = do(t, "soviet", "attack 0424 from 0324 ubahn", rolls=[3, 4])
    assert "U-Bahn demolition die 4: the tunnels are flooded (12.14)" in ctx.texts
    assert t.state["ubahn"] == "demolished"
    while t.state["step"] != "combat":
        do(t, t.asked() or "soviet", "done")
    put(t, "sov-1gcc-bg1", "city:0424")  # another U-Bahn hexside: 0424-0524
    put(t, "ger-bec", "city:0524")
    assert "u-bahn" in md.hexside(BOARD, "city:0424", "city:0524")
    refused(t, "soviet", "attack 0524 from 0424 ubahn", "12.12, 12.14")
    assert "6 against 1" in do(t, "soviet", "attack 0524 from 0424", rolls=[3]).texts[0]


# --- 4.18 overstacks at the end of a phase ------------------------------------------------------


def test_4_18_the_opposing_player_removes_the_excess_and_no_more() -> None:
    t = table()
    put(t, "sov-21rc", "op:0213")
    put(t, "sov-6gtc-bg1", "op:0213")  # 4 + 2 stacking points
    put(t, "ger-281-inf", T)
    phase(t, "soviet-combat")
    do(t, "soviet", "done")
    assert t.state["step"] == "remove" and t.asked() == "german"
    refused(t, "german", "remove sov-21rc sov-6gtc-bg1", "4.18")
    refused(t, "german", "remove ger-281-inf", "4.18")
    ctx = do(t, "german", "remove sov-6gtc-bg1")
    assert "sov-6gtc-bg1" in t.state["destroyed"]
    assert any("4.18" in x for x in ctx.texts)
    assert t.state["phase"] == "siege-move"


def test_4_18_an_overstack_of_the_other_side_is_removed_by_the_phase_player() -> None:
    """4.18: "the opposing player chooses": the opponent of the overstacked units' owner,
    whoever's phase it is."""
    t = table()
    put(t, "ger-281-inf", "op:0213")
    put(t, "ger-9-fj-a", "op:0213")
    put(t, "ger-fueb", "op:0213")  # over the limit of 4 (stand-in stacking values)
    put(t, "sov-21rc", T)
    if not phases.overstacks(t.state):
        pytest.skip("the stand-in stacking values leave this stack legal")
    phase(t, "soviet-combat")
    do(t, "soviet", "done")
    assert t.state["step"] == "remove" and t.asked() == "soviet"
