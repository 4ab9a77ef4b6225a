"""Götterdämmerung's engine as a whole: the options chosen at game creation (12), the
syntax round trip, the score and the outcome (11)."""

from __future__ import annotations

import pytest

from pbem.errors import DataError, InvalidOrderError
from pbem.games.gotterdammerung import map_data as md
from pbem.games.gotterdammerung import rules
from pbem.games.gotterdammerung.rules import ENGINE

DATA = ENGINE.load_data({})


@pytest.mark.parametrize(
    ("options", "points"),
    [
        ({}, 12),  # 6.59 (the default)
        ({"curse": True}, 10),  # 12.24
        ({"sixth_ss": True}, 17),  # 12.36
        ({"curse": True, "sixth_ss": True}, 15),  # both: 12 - 2 + 5, 10.3's figure
        ({"support_points": 15}, 15),  # 10.3 chosen outright
        ({"support_points": 15, "curse": True}, 15),  # an explicit figure wins
    ],
)
def test_6_59_10_3_12_24_12_36_the_starting_support_points(options: dict, points: int) -> None:
    assert ENGINE.setup(DATA, options)["support_points"] == points


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cursed": True}, "unknown option cursed"),
        ({"curse": "yes"}, "option curse is true or false"),
        ({"support_points": -1}, "option support_points is a number 0-99"),
    ],
)
def test_a_bad_option_is_one_line(options: dict, message: str) -> None:
    with pytest.raises(DataError, match=message) as found:
        ENGINE.setup(DATA, options)
    assert "\n" not in str(found.value)


def test_12_51_the_shortened_boundary_is_gone_from_2520_2521_to_3615_3716() -> None:
    plain = ENGINE.setup(DATA, {})["board"]
    short = ENGINE.setup(DATA, {"short_boundary": True})["board"]
    for a, b in (("op:2520", "op:2521"), ("op:3615", "op:3716"), ("op:3018", "op:3118")):
        assert md.front_boundary(plain, a, b) == "1bf-1uf"
        assert md.front_boundary(short, a, b) is None
    # 5.27: east of 3615/3716 the boundary runs on to the map edge
    assert md.front_boundary(short, "op:3615", "op:3715") == "1bf-1uf"
    assert md.front_boundary(short, "op:3601", "op:3701") == "1bf-1uf"
    assert plain is DATA["map"]  # the loaded map is shared, never changed


def test_12_35_the_6th_ss_removes_the_1bf_2bf_boundary() -> None:
    plain = ENGINE.setup(DATA, {})["board"]
    sixth = ENGINE.setup(DATA, {"sixth_ss": True})["board"]
    assert md.front_boundary(plain, "op:1113", "op:1213") == "1bf-2bf"  # 5.27's example
    assert md.front_boundary(sixth, "op:1113", "op:1213") is None
    assert md.front_boundary(sixth, "op:2520", "op:2521") == "1bf-1uf"


@pytest.mark.parametrize(
    "text",
    [
        "bid 7",
        "bid",
        "open bid",
        "artillery art-8ga sov-29grc art-5sa sov-26grc",
        "deploy standard",
        "deploy ger-281-inf 0307 ger-547-vg 1010",
        "move sov-8gtc 2419 2420",
        "move sov-8gtc",
        "move ger-ber-dan city:0321 city:0420",
        "enter ger-fru-1 4409 4408",
        "enter ger-lang-1 ngp",
        "rail ger-344-inf-1 4032 4031",
        "split sov-1gtc sov-htr-1",
        "overrun 1611 to 1711",
        "overrun sov-8gtc 1611 to 1711",
        "attack 2420 from 2520 2521",
        "attack 2420 from 2520 2521 with sov-a sov-b ubahn",
        "lose sov-a sov-a",
        "retreat ger-x 2419 2418",
        "retreat ger-x",
        "advance sov-a 2420 2419",
        "remove ger-x ger-y",
        "reinforce jueterbog ger-a 3625 ger-b 3525",
        "reinforce alkett ger-c",
        "volkssturm city:0726 city:0827",
        "done",
    ],
)
def test_every_decision_reads_back_as_written(text: str) -> None:
    state = ENGINE.setup(DATA, {})
    decision = ENGINE.parse(text, state, "soviet")
    assert ENGINE.format(decision) == text
    assert ENGINE.parse(ENGINE.format(decision), state, "soviet") == decision


def test_the_overrun_arrow_is_accepted_and_written_shell_safe() -> None:
    state = ENGINE.setup(DATA, {})
    assert ENGINE.format(ENGINE.parse("overrun 1611 -> 1711", state, "soviet")) == (
        "overrun 1611 to 1711"
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "move",
        "move 2419 2420",
        "attack 2420",
        "attack 2420 from",
        "bid ²",
        "bid 1000",
        "overrun 1611 1711",
        "deploy ger-x",
        "fly sov-8gtc 2419",
        "move sov-8gtc 24190",
    ],
)
def test_a_mangled_decision_is_one_clear_line(text: str) -> None:
    state = ENGINE.setup(DATA, {})
    with pytest.raises(InvalidOrderError) as found:
        ENGINE.parse(text, state, "soviet")
    assert "\n" not in str(found.value)


def test_11_the_score_and_the_victory_level() -> None:
    state = ENGINE.setup(DATA, {})
    state["occupied"] = ["city:0626", "op:2726", "op:2420"]  # Reichstag 25, Potsdam 15
    state["bonus"] = ["op:2726"]  # 11.16: 10
    state["elbe"] = 7  # 11.17: 4
    state["bid_vp"] = 3  # 12.44
    state["units"] = {uid: u for uid, u in state["units"].items() if u["side"] == "soviet"}
    points = rules.score(state)
    assert points == {"soviet": 25 + 15 + 10 + 4 + 3, "german": 0}
    state["step"] = "over"
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.level == "Soviet operational victory"  # 11.2: 51 to 60
    assert outcome.winner == "soviet" and outcome.score == {"soviet": 57, "german": 0}


def test_11_14_the_fuhrer_alone_counts_whatever_his_supply() -> None:
    state = ENGINE.setup(DATA, {})
    state["units"] = {uid: u for uid, u in state["units"].items() if uid == "ger-hitler"}
    assert rules.score(state)["german"] == 25


# --- 12.34: the 6th SS Panzer Army's supply from its HQ ---------------------------------------


def _sixth_position(lah: str, hq: str | None = "op:2420") -> dict:
    from pbem.games.gotterdammerung import state as gs

    state = ENGINE.setup(DATA, {"sixth_ss": True})
    data = state["counters"]
    units = {"ger-6ss-lah-1": gs.new_unit(data, "ger-6ss-lah-1", lah)}
    if hq is not None:
        units["ger-6ss-hq"] = gs.new_unit(data, "ger-6ss-hq", hq)
    state["units"] = units
    return state


def test_12_34_a_unit_beyond_six_hexes_of_its_hq_is_cut_off() -> None:
    from pbem.games.gotterdammerung import sixth
    from pbem.games.gotterdammerung import state as gs

    near = _sixth_position("op:2418")  # two hexes from the HQ in 2420
    assert sixth.cut_off(near["board"], near["counters"], gs.on_map(near)) == set()
    far = _sixth_position("op:3010")  # far beyond six hexes
    assert sixth.cut_off(far["board"], far["counters"], gs.on_map(far)) == {"ger-6ss-lah-1"}
    gone = _sixth_position("op:2418", hq=None)  # no HQ on the map: every unit is cut off
    assert sixth.cut_off(gone["board"], gone["counters"], gs.on_map(gone)) == {"ger-6ss-lah-1"}


def test_12_34_cut_off_units_move_half_in_the_german_movement_phase() -> None:
    from pbem.games.gotterdammerung import moving, phases
    from pbem.testing import ScriptedContext

    for lah, halved in (("op:2418", False), ("op:3010", True)):
        state = _sixth_position(lah)
        state["turn"] = 2
        state["vlasov"] = 1  # (no Vlasov die in this test)
        phases.start_phase(state, "german-move", ScriptedContext())
        full = DATA["counters"]["units"]["ger-6ss-lah-1"]["movement"]
        points = moving.preview(state, state["units"]["ger-6ss-lah-1"])["points"]
        assert points == ((full + 1) // 2 if halved else full)


def test_12_34_12_37_never_into_the_city_nor_the_2bf_into_transition_hexes() -> None:
    """The rules of who may enter which hexes hold for retreats and advances too."""
    from pbem.games.gotterdammerung import places

    state = _sixth_position("op:2419")
    lah = state["units"]["ger-6ss-lah-1"]
    assert places.barred(state, lah, "op:2420", "city:1320")[1] == "12.34"
    assert places.barred(state, lah, "op:2419", "op:2420") is None  # Transition Hexes allowed
    corps = {"id": "sov-18rc", "side": "soviet", "hex": "op:2419"}  # 2BF (stand-in chart)
    assert DATA["counters"]["units"]["sov-18rc"]["front"] == "2BF"
    assert places.barred(state, corps, "op:2419", "op:2420")[1] == "12.37"
    plain = ENGINE.setup(DATA, {})
    assert places.barred(plain, corps, "op:2419", "op:2420") is None


# --- 8.3-8.4 through the engine: the German reinforcement step ------------------------------


def _reinforcement_table(turn: int = 2) -> object:
    from pbem.games.gotterdammerung import phases
    from pbem.games.gotterdammerung import state as gs
    from pbem.testing import ScriptedContext, Table

    state = ENGINE.setup(DATA, {})
    data = state["counters"]
    keep = ("ger-depot", "ger-alkett", "ger-hitler")
    state["units"] = {uid: u for uid, u in state["units"].items() if uid in keep}
    state["destroyed"] = ["ger-281-inf", "ger-547-vg", "ger-mltk"]
    state["turn"], state["step"], state["phase"] = turn, "reinforce", "german-combat"
    state["units"]["sov-18rc"] = gs.new_unit(data, "sov-18rc", "op:0106")
    table = Table(ENGINE, state, seed=1)
    phases.start_phase(table.state, "supply", ScriptedContext())
    return table


def test_8_32_infantry_returns_at_jueterbog_once_a_phase() -> None:
    from pbem.errors import IllegalOrderError

    t = _reinforcement_table()
    assert t.state["step"] == "reinforce" and t.asked() == "german"
    assert t.state["phase_data"]["jueterbog"] is True
    with pytest.raises(IllegalOrderError, match="8.31"):
        t.decide("german", ENGINE.parse("reinforce jueterbog sov-18rc 3625", t.state, "german"))
    t.decide("german", ENGINE.parse("reinforce jueterbog ger-281-inf 3625", t.state, "german"))
    assert t.state["units"]["ger-281-inf"]["hex"] == "op:3625"
    assert "ger-281-inf" not in t.state["destroyed"]
    with pytest.raises(IllegalOrderError, match="8.32"):  # once a phase
        t.decide("german", ENGINE.parse("reinforce jueterbog ger-547-vg 3625", t.state, "german"))


def test_8_32_without_the_depot_at_jueterbog_nobody_returns() -> None:
    from pbem.errors import IllegalOrderError

    t = _reinforcement_table()
    state = t.state
    del state["units"]["ger-depot"]
    from pbem.games.gotterdammerung import phases
    from pbem.testing import ScriptedContext

    phases.start_phase(state, "supply", ScriptedContext())
    assert state["phase_data"]["jueterbog"] is False
    with pytest.raises(IllegalOrderError, match="8.32"):
        t.decide("german", ENGINE.parse("reinforce jueterbog ger-281-inf 3625", state, "german"))


def test_8_41_8_44_volkssturm_units_are_placed_face_down_from_the_cup() -> None:
    from pbem.errors import IllegalOrderError
    from pbem.games.gotterdammerung import tables as tb

    t = _reinforcement_table(turn=2)
    due = tb.volkssturm(DATA["tables"], 2)
    assert t.state["phase_data"]["volkssturm"] == due > 0
    with pytest.raises(IllegalOrderError, match="8.43"):  # not the Führer Chancellery
        t.decide("german", ENGINE.parse("volkssturm city:0825", t.state, "german"))
    hexes = ["city:0726", "city:0727", "city:0626", "city:0627"][:due]
    t.decide("german", ENGINE.parse("volkssturm " + " ".join(hexes), t.state, "german"))
    placed = [u for u in t.state["units"].values() if u.get("volkssturm")]
    assert sorted(u["hex"] for u in placed) == sorted(hexes)
    assert all("attack" not in u for u in placed)  # 8.44: face down, no strength drawn yet
    assert len(t.state["cups"]["volkssturm"]) == 25 - due
    t.decide("german", ENGINE.parse("done", t.state, "german"))
    assert t.state["turn"] == 3 and t.state["phase"] == "soviet-move"
