"""Rulebook cases for Operation Barbarossa, one test per example, named by section.

Dice are scripted: `play(state, text, rolls)` plays the text on a `pbem.testing.Table`
(no entropy first, then the queued dice) and checks exactly those dice were rolled.
The event chart of the shipped gamesheet is 1-2 Soviet counter-attack, 3-4 Logistical
failure, 5+ Luftwaffe support, so `german_phase(3, ...)` gives four white dice and one
red die, `german_phase(1, ...)` four white dice and `german_phase(5, ...)` six white dice.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pbem.core.canonical import copy_json
from pbem.core.engine import Outcome, Prompt
from pbem.errors import EntropyPending, IllegalOrderError
from pbem.games.barbarossa.data import d3
from pbem.games.barbarossa.decisions import Claim, End, RollEvent
from pbem.testing import ScriptedContext


def snapshot(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)


def capture_by_arrangement(state: dict[str, Any], city_id: str, helpers: Any) -> None:
    """Test arrangement: mark every box of a front city and unlock the next one."""
    for path in state["paths"]:
        for i, c in enumerate(path["cities"]):
            if c["id"] == city_id:
                for box in c["boxes"]:
                    box["marked"] = True
                c["status"] = "captured"
                state["vp"] += c["stars"]
                if i + 1 < len(path["cities"]):
                    path["cities"][i + 1]["status"] = "unlocked"


# --- Game Setup -----------------------------------------------------------------------------


def test_game_setup_four_black_two_blue_five_white_dice(engine: Any, helpers: Any) -> None:
    state = engine.setup(engine.load_data({}), {})
    assert state["cubes"] == {"supply": 4, "command": 2}
    assert state["turn"] == 1 and state["phase"] == "campaign" and state["step"] == "roll_event"
    assert state["vp"] == 0 and state["pool"] == []
    assert not any(box["marked"] for box in state["timeline"])
    fronts = [c["id"] for p in state["paths"] for c in p["cities"] if c["status"] == "unlocked"]
    assert fronts == ["dvinsk", "bialystok", "brody"]
    assert helpers.city(state, "minsk")["status"] == "locked"
    assert engine.prompts(state) == [Prompt("german", engine.prompts(state)[0].text)]
    assert "roll event" in engine.prompts(state)[0].text
    assert engine.choices(state, "german") == [RollEvent()]
    assert engine.outcome(state) is None
    # rulebook: Preparing your dice pool -- five white dice
    after, ctx = helpers.play(state, "roll event", [6])
    assert [d["colour"] for d in after["pool"]] == ["white"] * 5
    assert after["timeline"][0]["marked"] is True
    assert ctx.purposes == ["event die"]


def test_game_setup_roles_and_metadata(engine: Any, fresh: dict[str, Any]) -> None:
    assert engine.name == "barbarossa" and engine.version == "1.1"
    assert engine.earlier_versions == ("1.0",)  # docs/barbarossa.md: the event die's cubes
    assert engine.roles == ("german", "referee") and engine.required_roles == ("german",)
    assert engine.data_files == ("gamesheet.toml",)
    assert engine.choices(fresh, "referee") == []
    assert "solitaire" in engine.describe().lower()
    with pytest.raises(
        IllegalOrderError,
        match=r"'referee' is not asked now; the game waits for the German player "
        r"\(rulebook: The Game Turn\)",
    ):
        engine.apply(fresh, "referee", RollEvent(), None)


def test_game_setup_refuses_options(engine: Any) -> None:
    from pbem.errors import DataError

    with pytest.raises(DataError, match="no options"):
        engine.setup(engine.load_data({}), {"variant": "x"})


# --- Important Concept: D3s -----------------------------------------------------------------


@pytest.mark.parametrize("roll,value", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_important_concept_d3s_red_die_is_halved_rounding_up(
    helpers: Any, roll: int, value: int
) -> None:
    assert d3(roll) == value
    state = helpers.german_phase(3, [1, 1, 1, 1, roll])  # Logistical failure: one red die
    red = state["pool"][4]
    assert red["colour"] == "red" and red["roll"] == roll and red["value"] == value


def test_important_concept_d3s_red_roll_purpose_and_range(helpers: Any, fresh: Any) -> None:
    state, _ = helpers.play(fresh, "roll event", [3])
    _, ctx = helpers.play(state, "accept", [1, 2, 3, 4, 6])
    assert ctx.purposes == [
        "pool die 1 (white)",
        "pool die 2 (white)",
        "pool die 3 (white)",
        "pool die 4 (white)",
        "pool die 5 (red)",
    ]
    assert all((r.lo, r.hi) == (1, 6) for r in ctx.records)
    assert ctx.said("die 5 (red) rolled 6: D3 result 3")


# --- Roll on the event chart ------------------------------------------------------------------


def test_roll_on_the_event_chart_example_two_is_soviet_counter_attack(
    helpers: Any, fresh: Any
) -> None:
    state, ctx = helpers.play(fresh, "roll event", [2])
    assert state["event_die"]["event"] == "soviet_counter_attack"
    assert ctx.said("event die 2: Soviet counter-attack")
    state, ctx = helpers.play(state, "accept", [4, 4, 4, 4])
    assert [d["colour"] for d in state["pool"]] == ["white"] * 4  # one white die fewer
    assert ctx.said("one white die fewer this turn")


def test_roll_on_the_event_chart_luftwaffe_and_logistical_failure(helpers: Any) -> None:
    luftwaffe = helpers.german_phase(6, [1, 2, 3, 4, 5, 1])
    assert [d["colour"] for d in luftwaffe["pool"]] == ["white"] * 6
    failure = helpers.german_phase(4, [1, 2, 3, 4, 5])
    assert [d["colour"] for d in failure["pool"]] == ["white"] * 4 + ["red"]


def test_roll_on_the_event_chart_black_cube_adds_one(helpers: Any, fresh: Any) -> None:
    state, _ = helpers.play(fresh, "roll event", [4])
    assert state["event_die"]["event"] == "logistical_failure"
    state, ctx = helpers.play(state, "boost event 1")
    assert state["cubes"]["supply"] == 3
    assert state["event_die"] == {**state["event_die"], "roll": 4, "modifier": 1, "value": 5}
    assert state["event_die"]["event"] == "luftwaffe_support"
    assert ctx.said("1 black cube spent")
    state, _ = helpers.play(state, "accept", [1] * 6)
    assert len(state["pool"]) == 6


def test_roll_on_the_event_chart_above_six_still_maps(engine: Any, helpers: Any) -> None:
    # rules 1.0 (still played by its games) let five black cubes raise the event die to 11
    old = engine.for_version("1.0")
    fresh = old.setup(old.load_data({}), {})
    fresh["cubes"]["supply"] = 5
    state, _ = helpers.play(fresh, "roll event", [6])
    state, _ = helpers.play(state, "boost event +5")
    assert state["event_die"]["value"] == 11
    assert state["event_die"]["event"] == "luftwaffe_support"


def test_roll_on_the_event_chart_blue_cube_rerolls(helpers: Any, fresh: Any) -> None:
    state, _ = helpers.play(fresh, "roll event", [2])
    state, _ = helpers.play(state, "boost event 1")
    state, ctx = helpers.play(state, "reroll event", [5])
    assert state["cubes"] == {"supply": 3, "command": 1}
    # the re-roll replaces the die: the +1 bought for the old roll is gone
    assert state["event_die"]["roll"] == 5 and state["event_die"]["value"] == 5
    assert ctx.purposes == ["event die re-roll"]
    assert ctx.said("is lost with the old roll")


def test_roll_on_the_event_chart_modifiers_need_cubes(helpers: Any, fresh: Any) -> None:
    fresh["cubes"] = {"supply": 1, "command": 0}
    state, _ = helpers.play(fresh, "roll event", [1])
    with pytest.raises(IllegalOrderError, match=r"no blue cube to spend \(rulebook: Using"):
        helpers.play(state, "reroll event")
    with pytest.raises(IllegalOrderError, match="2 black cubes needed, 1 in the supply"):
        helpers.play(state, "boost event 2")


# --- Using command cubes to re-roll dice ---------------------------------------------------


def test_using_command_cubes_to_reroll_dice_example_keeps_three_blue_cubes(
    engine: Any, helpers: Any
) -> None:
    """6, 5, 2, 3 and a red 6 (a 3); with three blue cubes, re-roll the 2 first, then
    take the six's cube: the tracker still holds three."""
    state = helpers.german_phase(3, [6, 5, 2, 3, 6], command=3)
    assert [(d["colour"], d["value"]) for d in state["pool"]] == [
        ("white", 6),
        ("white", 5),
        ("white", 2),
        ("white", 3),
        ("red", 3),
    ]
    assert Claim(1) not in engine.choices(state, "german")
    with pytest.raises(IllegalOrderError, match="command tracker is full"):
        helpers.play(state, "claim 1")
    state, ctx = helpers.play(state, "reroll 3", [4])
    assert ctx.purposes == ["re-roll die 3 (white)"]
    assert state["pool"][2]["value"] == 4 and state["cubes"]["command"] == 2
    state, ctx = helpers.play(state, "claim 1")
    assert state["cubes"]["command"] == 3
    assert ctx.said("natural six on die 1, +1 blue cube")
    assert Claim(1) not in engine.choices(state, "german")
    with pytest.raises(IllegalOrderError, match="already taken"):
        helpers.play(state, "claim 1")


def test_using_command_cubes_wrong_order_loses_the_cube(helpers: Any) -> None:
    state = helpers.german_phase(3, [6, 5, 2, 3, 6], command=3)
    state, ctx = helpers.play(state, "end")
    assert state["cubes"]["command"] == 3
    assert ctx.said("no blue cube, the command tracker is full")


def test_using_command_cubes_red_die_rerolls_as_d3(helpers: Any) -> None:
    state = helpers.german_phase(3, [1, 1, 1, 1, 1])
    state, ctx = helpers.play(state, "reroll 5", [6])
    assert ctx.purposes == ["re-roll die 5 (red)"]
    assert state["pool"][4]["value"] == 3


def test_rolling_sixes_on_a_reroll_earn_a_cube(helpers: Any) -> None:
    state = helpers.german_phase(3, [1, 1, 1, 1, 1], command=1)
    state, _ = helpers.play(state, "reroll 1", [6])
    assert state["pool"][0]["six"] == "unclaimed"
    state, _ = helpers.play(state, "claim 1")
    assert state["cubes"]["command"] == 1


def test_rolling_sixes_red_six_earns_nothing(helpers: Any) -> None:
    state = helpers.german_phase(3, [1, 1, 1, 1, 6])
    with pytest.raises(IllegalOrderError, match="only a white die's natural six"):
        helpers.play(state, "claim 5")
    state, _ = helpers.play(state, "end")
    assert state["cubes"]["command"] == 2


def test_rolling_sixes_claimed_automatically_at_end_up_to_three(helpers: Any) -> None:
    state = helpers.german_phase(5, [6, 6, 6, 1, 1, 1], command=1)
    state, ctx = helpers.play(state, "end")
    assert state["cubes"]["command"] == 3
    assert ctx.said("end of phase: natural six on die 1")
    assert ctx.said("end of phase: natural six on die 2")
    assert ctx.said("natural six on die 3: no blue cube")


def test_rerolling_needs_a_blue_cube_and_a_free_die(engine: Any, helpers: Any) -> None:
    state = helpers.german_phase(5, [5, 2, 1, 1, 1, 1], command=0)
    ctx = ScriptedContext(pending=True)
    with pytest.raises(IllegalOrderError, match=r"no blue cube to spend \(rulebook: Using com"):
        engine.apply(state, "german", engine.parse("reroll 3", state, "german"), ctx)
    assert ctx.requests == 0
    state["cubes"]["command"] = 1
    state, _ = helpers.play(state, "attack bialystok with 2")
    with pytest.raises(IllegalOrderError, match="die 2 is already allocated"):
        helpers.play(state, "reroll 2")
    with pytest.raises(IllegalOrderError, match="there is no die 7"):
        helpers.play(state, "reroll 7")


# --- Concentration of Panzers (using supplies to modify dice) ------------------------------


def test_concentration_of_panzers_example_five_made_six_for_an_encirclement(
    engine: Any, helpers: Any
) -> None:
    state = helpers.german_phase(5, [5, 2, 5, 1, 1, 1])
    state, _ = helpers.play(state, "attack bialystok with 1")  # 5 >= 2x2: boxes 1 and 2
    state, _ = helpers.play(state, "attack bialystok with 2")  # 2 >= 2: Bialystok captured
    assert helpers.city(state, "minsk")["status"] == "unlocked"
    state, ctx = helpers.play(state, "boost 3 1")
    assert state["pool"][2]["value"] == 6 and state["pool"][2]["roll"] == 5
    assert state["cubes"]["supply"] == 3
    assert ctx.said("1 black cube spent, die 3 now 6")
    state, ctx = helpers.play(state, "attack minsk with 3")
    assert helpers.marks(state, "minsk")[:3] == [True, True, False]
    assert ctx.said("encirclement: die 6 >= 2x3, next box marked")
    assert state["cubes"]["supply"] == 2  # one more for Minsk's supply icon
    # "This ability cannot be used to gain a blue cube by modifying a die to a '6'."
    assert Claim(3) not in engine.choices(state, "german")
    with pytest.raises(IllegalOrderError, match="natural six"):
        helpers.play(state, "claim 3")
    state, _ = helpers.play(state, "end")
    assert state["cubes"]["command"] == 2


def test_concentration_of_panzers_without_boost_no_encirclement(helpers: Any) -> None:
    state = helpers.german_phase(5, [5, 2, 5, 1, 1, 1])
    state, _ = helpers.play(state, "attack bialystok with 1")
    state, _ = helpers.play(state, "attack bialystok with 2")
    state, _ = helpers.play(state, "attack minsk with 3")
    assert helpers.marks(state, "minsk")[:2] == [True, False]


def test_concentration_of_panzers_several_cubes_and_limits(helpers: Any) -> None:
    state = helpers.german_phase(5, [1, 1, 1, 1, 1, 1], supply=3)
    state, _ = helpers.play(state, "boost 1 +2")
    assert state["pool"][0]["value"] == 3 and state["cubes"]["supply"] == 1
    with pytest.raises(IllegalOrderError, match="2 black cubes needed, 1 in the supply"):
        helpers.play(state, "boost 2 2")
    state, _ = helpers.play(state, "attack bialystok with 1")
    with pytest.raises(IllegalOrderError, match="already allocated"):
        helpers.play(state, "boost 1 1")


# --- Re-supplying ---------------------------------------------------------------------------


def test_resupplying_example_white_three_gives_two_cubes(helpers: Any) -> None:
    state = helpers.german_phase(1, [3, 1, 1, 1], supply=0)
    state, ctx = helpers.play(state, "supply 1")
    assert state["cubes"]["supply"] == 2
    assert state["pool"][0]["allocated"] == {"kind": "supply", "gained": 2}
    assert ctx.said("D3 of 3 is 2, +2 black cubes")


def test_resupplying_example_red_two_gives_one_cube(helpers: Any) -> None:
    state = helpers.german_phase(3, [1, 1, 1, 1, 4], supply=0)  # red 4 -> D3 2
    assert state["pool"][4]["value"] == 2
    state, _ = helpers.play(state, "supply 5")
    assert state["cubes"]["supply"] == 1


def test_resupplying_example_two_threes_give_four_cubes_up_to_five(helpers: Any) -> None:
    state = helpers.german_phase(3, [3, 1, 1, 1, 5], supply=1)  # white 3, red 5 -> 3
    state, _ = helpers.play(state, "supply 1")
    state, _ = helpers.play(state, "supply 5")
    assert state["cubes"]["supply"] == 5


def test_resupplying_capped_at_five(helpers: Any) -> None:
    state = helpers.german_phase(3, [3, 1, 1, 1, 5], supply=2)
    state, _ = helpers.play(state, "supply 1")
    state, ctx = helpers.play(state, "resupply 5")
    assert state["cubes"]["supply"] == 5
    assert state["pool"][4]["allocated"] == {"kind": "supply", "gained": 1}
    assert ctx.said("capped at 5")


def test_resupplying_needs_two_or_higher(helpers: Any) -> None:
    state = helpers.german_phase(1, [1, 1, 1, 1])
    with pytest.raises(IllegalOrderError, match=r"die 1 shows 1; re-supply needs a die of 2"):
        helpers.play(state, "supply 1")


# --- Attacking Cities -------------------------------------------------------------------------


def test_attacking_cities_die_must_match_or_exceed_the_box(helpers: Any) -> None:
    state = helpers.german_phase(1, [2, 1, 3, 1])
    with pytest.raises(
        IllegalOrderError,
        match=r"die 2 shows 1, box 1 of Bialystok needs 2 or more \(rulebook: Attacking",
    ):
        helpers.play(state, "attack bialystok with 2")
    state, ctx = helpers.play(state, "attack bial with 1")
    assert helpers.marks(state, "bialystok") == [True, False, False]
    assert ctx.said("box 1 of Bialystok (2) marked (die 2 >= 2)")
    # the same city may be attacked again the same turn, one die at a time
    with pytest.raises(IllegalOrderError, match="die 3 shows 3, box 2 of Bialystok needs 5"):
        helpers.play(state, "attack bialystok with 3")
    state, _ = helpers.play(state, "attack brody with 3")
    assert helpers.marks(state, "brody") == [True, False, False]


def test_attacking_cities_only_unlocked_ones(helpers: Any) -> None:
    state = helpers.german_phase(1, [6, 6, 6, 6])
    with pytest.raises(IllegalOrderError, match="Minsk is locked; capture Bialystok first"):
        helpers.play(state, "attack minsk with 1")


# --- Encirclements ----------------------------------------------------------------------------


def test_encirclements_example_bialystok_and_minsk(helpers: Any) -> None:
    """Roll 6, 5, 3, 2 and a red 6 (a 3): the 5 doubles Bialystok's 2 and encircles the 5
    box, the 2 takes the last 2 box; the 6 doubles Minsk's 3 and encircles its 5 box,
    paying one supply cube for the supply icon."""
    state = helpers.german_phase(3, [6, 5, 3, 2, 6])
    assert [d["value"] for d in state["pool"]] == [6, 5, 3, 2, 3]
    state, ctx = helpers.play(state, "attack bialystok with 2")
    assert helpers.marks(state, "bialystok") == [True, True, False]
    assert ctx.said("box 2 of Bialystok (5) marked (encirclement: die 5 >= 2x2, next box marked)")
    state, ctx = helpers.play(state, "attack bialystok with 4")
    assert helpers.marks(state, "bialystok") == [True, True, True]
    assert helpers.city(state, "bialystok")["status"] == "captured"
    assert ctx.said("Bialystok captured")
    supply = state["cubes"]["supply"]
    state, ctx = helpers.play(state, "attack minsk with 1")
    assert helpers.marks(state, "minsk")[:3] == [True, True, False]
    assert state["cubes"]["supply"] == supply - 1
    assert ctx.said("encirclement: die 6 >= 2x3, next box marked")
    assert ctx.said("supply icon on box 2 of Minsk: 1 supply cube spent")
    assert state["pool"][0]["allocated"] == {"kind": "attack", "city": "minsk", "marked": [1, 2]}


def test_encirclements_do_not_spill_into_the_next_city(helpers: Any) -> None:
    state = helpers.german_phase(5, [5, 6, 1, 1, 1, 1])
    state, _ = helpers.play(state, "attack bialystok with 1")  # 5 >= 2x2: boxes 1 and 2
    state, ctx = helpers.play(state, "attack bialystok with 2")  # 6 >= 2x2, but no box left
    assert helpers.city(state, "bialystok")["status"] == "captured"
    assert state["pool"][1]["allocated"]["marked"] == [3]
    assert not any(helpers.marks(state, "minsk"))


# --- Capturing Cities and Gaining Victory Points (VPs) ---------------------------------------


def test_capturing_cities_stars_to_vp_and_next_city_unlocked(engine: Any, helpers: Any) -> None:
    state = helpers.german_phase(5, [6, 3, 3, 1, 1, 1])  # Brody is 2, 3, 3
    state, _ = helpers.play(state, "attack brody with 1")
    state, ctx = helpers.play(state, "attack brody with 2")
    brody, uman = helpers.city(state, "brody"), helpers.city(state, "uman")
    assert brody["status"] == "captured" and uman["status"] == "unlocked"
    assert state["vp"] == brody["stars"] == 1
    assert ctx.said("Brody captured: every box marked, +1 VP (total 1); Uman unlocked")
    with pytest.raises(IllegalOrderError, match="Brody is already captured"):
        helpers.play(state, "attack brody with 3")
    with pytest.raises(IllegalOrderError, match="Kiev is locked; capture Uman first"):
        helpers.play(state, "attack kiev with 3")
    state, _ = helpers.play(state, "attack uman with 3")
    assert helpers.marks(state, "uman")[0] is True


def test_capturing_the_last_city_of_a_path(helpers: Any, fresh: Any) -> None:
    for cid in ("brody", "uman", "kiev"):
        capture_by_arrangement(fresh, cid, helpers)
    rostov = helpers.city(fresh, "rostov")
    for box in rostov["boxes"][:-1]:
        box["marked"] = True
    vp = fresh["vp"]
    state = helpers.german_phase(5, [6, 1, 1, 1, 1, 1], state=fresh)
    state, ctx = helpers.play(state, "attack rostov with 1")
    assert helpers.city(state, "rostov")["status"] == "captured"
    assert state["vp"] == vp + rostov["stars"]
    assert ctx.said("the end of Army Group South's path")


# --- Long Logistical Chains ------------------------------------------------------------------


def test_long_logistical_chains_no_black_cube_box_cannot_be_marked(
    engine: Any, helpers: Any, fresh: Any
) -> None:
    capture_by_arrangement(fresh, "bialystok", helpers)
    helpers.city(fresh, "minsk")["boxes"][0]["marked"] = True
    state = helpers.german_phase(1, [5, 1, 1, 1], supply=0, state=fresh)
    assert not any(getattr(d, "city", None) == "minsk" for d in engine.choices(state, "german"))
    ctx = ScriptedContext(pending=True)
    with pytest.raises(
        IllegalOrderError,
        match=r"box 2 of Minsk has a supply icon and there is no black cube to discard "
        r"\(rulebook: Long Logistical Chains\)",
    ):
        engine.apply(state, "german", engine.parse("attack minsk with 1", state, "german"), ctx)
    assert ctx.requests == 0
    state["cubes"]["supply"] = 1
    state, ctx = helpers.play(state, "attack minsk with 1")
    assert helpers.marks(state, "minsk")[:2] == [True, True]
    assert state["cubes"]["supply"] == 0


def test_long_logistical_chains_apply_to_encirclements(helpers: Any, fresh: Any) -> None:
    capture_by_arrangement(fresh, "bialystok", helpers)
    state = helpers.german_phase(1, [6, 1, 1, 1], supply=0, state=fresh)
    state, ctx = helpers.play(state, "attack minsk with 1")
    assert helpers.marks(state, "minsk")[:2] == [True, False]
    assert ctx.said("has a supply icon and no black cube is left: not marked")
    assert state["pool"][0]["allocated"]["marked"] == [1]


# --- The Timeline (Rasputitsa) ----------------------------------------------------------------


def at_turn(state: dict[str, Any], turn: int) -> dict[str, Any]:
    state["turn"] = turn
    for box in state["timeline"][: turn - 1]:
        box["marked"] = True
    return state


@pytest.mark.parametrize(
    "turn,event_die,colours",
    [
        (8, 6, ["white"] * 6),
        (9, 6, ["white"] * 5 + ["red"]),
        (10, 6, ["white"] * 4 + ["red"] * 2),
        (10, 3, ["white"] * 2 + ["red"] * 3),
        (11, 1, ["white"] * 3 + ["red"]),
        (12, 6, ["white"] * 6),
    ],
)
def test_the_timeline_rasputitsa_red_dice_this_turn_only(
    helpers: Any, fresh: Any, turn: int, event_die: int, colours: list[str]
) -> None:
    state = at_turn(fresh, turn)
    state, ctx = helpers.play(state, "roll event", [event_die])
    box = state["timeline"][turn - 1]
    assert box["marked"] and sum(b["marked"] for b in state["timeline"]) == turn
    if box["red_dice"]:
        assert ctx.said(f"Rasputitsa: timeline box {turn} shows {box['red_dice']} red die")
    state, _ = helpers.play(state, "accept", [2] * len(colours))
    assert [d["colour"] for d in state["pool"]] == colours
    assert all(d["value"] == (1 if d["colour"] == "red" else 2) for d in state["pool"])
    if turn < 12:
        state, _ = helpers.play(state, "end")
        state, _ = helpers.play(state, "roll event", [6])
        assert state["pool"][0]["colour"] == "white"  # the pool is prepared afresh


def test_the_timeline_rasputitsa_dates(fresh: Any) -> None:
    rasputitsa = [b for b in fresh["timeline"] if b["red_dice"]]
    assert len(rasputitsa) == 3
    assert {b["month"] for b in rasputitsa} <= {"October", "November"}


def test_logistical_failure_with_every_red_die_in_use(engine: Any, helpers: Any) -> None:
    raw = engine.default_data()["gamesheet.toml"].replace(b"red_dice = 2", b"red_dice = 3")
    state = engine.setup(engine.load_data({"gamesheet.toml": raw}), {})
    state = at_turn(state, 10)
    state, _ = helpers.play(state, "roll event", [3])
    state, ctx = helpers.play(state, "accept", [1, 1, 1, 1, 1])
    assert [d["colour"] for d in state["pool"]] == ["white"] * 2 + ["red"] * 3
    assert ctx.said("no effect, all 3 red dice are already in the pool")


# --- Ending the Game / Winning the game / Losing the game -----------------------------------


def test_ending_the_game_after_twelve_turns(engine: Any, helpers: Any, fresh: Any) -> None:
    state = fresh
    for turn in range(1, 13):
        assert state["turn"] == turn and engine.outcome(state) is None
        state, _ = helpers.play(state, "roll event", [5])
        state, _ = helpers.play(state, "accept", [1] * 6)
        state, ctx = helpers.play(state, "end")
        assert ctx.said(f"turn {turn}: German phase ends; unused dice lost: 1, 2, 3, 4, 5, 6")
    assert state["phase"] == "over" and state["turn"] == 12
    assert all(box["marked"] for box in state["timeline"])
    assert engine.prompts(state) == [] and engine.choices(state, "german") == []
    assert ctx.said("timeline complete after turn 12: game over with 0 VP")
    assert engine.outcome(state) == Outcome(
        winner=None, level="loss", score={"german": 0}, text="German defeat: 0 VP (13 or fewer)"
    )
    with pytest.raises(IllegalOrderError, match="the game is over"):
        engine.apply(state, "german", End(), None)


@pytest.mark.parametrize(
    "vp,winner,level",
    [
        (20, "german", "triumph"),
        (19, "german", "triumph"),
        (18, "german", "win"),
        (14, "german", "win"),
        (13, None, "historical loss"),
        (11, None, "historical loss"),
        (10, None, "loss"),
        (0, None, "loss"),
    ],
)
def test_winning_and_losing_the_game_vp_bands(
    engine: Any, fresh: Any, vp: int, winner: str | None, level: str
) -> None:
    fresh.update(phase="over", step="over", turn=12, vp=vp)
    outcome = engine.outcome(fresh)
    assert (outcome.winner, outcome.level, dict(outcome.score)) == (winner, level, {"german": vp})
    assert str(vp) in outcome.text


# --- The Game Turn: decisions at the wrong step ----------------------------------------------


def test_the_game_turn_decisions_belong_to_their_step(helpers: Any, fresh: Any) -> None:
    with pytest.raises(IllegalOrderError, match=r"'accept' is not possible now"):
        helpers.play(fresh, "accept")
    with pytest.raises(IllegalOrderError, match="expected 'roll event'"):
        helpers.play(fresh, "attack bialystok with 1")
    state, _ = helpers.play(fresh, "roll event", [4])
    with pytest.raises(IllegalOrderError, match="not possible now"):
        helpers.play(state, "end")
    state, _ = helpers.play(state, "accept", [1, 1, 1, 1, 1])
    with pytest.raises(IllegalOrderError, match="not possible now"):
        helpers.play(state, "roll event")


def test_the_game_turn_refusals_say_the_step_and_what_it_expects(
    engine: Any, helpers: Any, fresh: Any
) -> None:
    """A decision of another step is refused quoting the prompt: where the turn stands and
    every form the step accepts."""
    with pytest.raises(IllegalOrderError) as info:
        helpers.play(fresh, "attack bialystok with 1")
    assert str(info.value) == (
        "illegal: 'attack bialystok with 1' is not possible now (Turn 1 of 12 (late June), "
        "campaign phase: roll on the event chart; expected 'roll event') "
        "(rulebook: The Game Turn)"
    )
    state, _ = helpers.play(fresh, "roll event", [4])
    assert engine.prompts(state)[0].text == (
        "Turn 1 of 12 (late June), campaign phase: event die 4 = Logistical failure; "
        "expected 'boost event <cubes>', 'reroll event' or 'accept'"
    )
    with pytest.raises(IllegalOrderError, match=r"\(Turn 1 of 12 \(late June\), campaign phase"):
        helpers.play(state, "end")
    state, _ = helpers.play(state, "accept", [5, 1, 1, 1, 2])
    state, _ = helpers.play(state, "supply 1")
    expected = (
        "Turn 1 of 12 (late June), German phase: free dice 2=1, 3=1, 4=1, 5=red 1; "
        "expected 'attack <city> with <die>', 'supply <die>', 'reroll <die>', "
        "'boost <die> <cubes>', 'claim <die>' or 'end'"
    )
    assert engine.prompts(state)[0].text == expected
    with pytest.raises(IllegalOrderError) as info:
        helpers.play(state, "roll event")
    assert str(info.value) == (
        f"illegal: 'roll event' is not possible now ({expected}) (rulebook: The Game Turn)"
    )


# --- Deferral rule: validation before the first roll ----------------------------------------


def test_rolling_decision_waits_for_entropy_then_resolves(engine: Any, fresh: Any) -> None:
    before = snapshot(fresh)
    ctx = ScriptedContext(pending=True)
    with pytest.raises(EntropyPending):
        engine.apply(fresh, "german", RollEvent(), ctx)
    assert ctx.requests == 1 and snapshot(fresh) == before
    real = ScriptedContext([4])
    after = engine.apply(fresh, "german", RollEvent(), real)
    assert snapshot(fresh) == before and after["event_die"]["roll"] == 4


def test_illegal_decision_raises_before_any_roll(engine: Any, helpers: Any) -> None:
    state = helpers.german_phase(1, [1, 1, 1, 1], command=0)
    for text in ("reroll 1", "reroll 9", "attack bialystok with 1", "accept", "roll event"):
        ctx = ScriptedContext(pending=True)
        with pytest.raises(IllegalOrderError):
            engine.apply(state, "german", engine.parse(text, state, "german"), ctx)
        assert ctx.requests == 0, text


def test_state_copies_share_only_what_no_decision_changes(engine: Any, helpers: Any) -> None:
    """The gamesheet's fixed parts are shared by every state of a game; the map and the
    timeline are shared until a decision changes them, and then replaced, never changed:
    every earlier state still shows what it showed."""
    state = helpers.german_phase(5, [5, 2, 5, 1, 1, 1])
    earlier = copy_json(state)
    after, _ = helpers.play(state, "attack bialystok with 1")
    for key in engine.static_keys:
        assert after[key] is state[key]
    assert after["timeline"] is state["timeline"]
    assert after["paths"] is not state["paths"] and state == earlier
    center = next(i for i, p in enumerate(state["paths"]) if p["id"] == "center")
    for i, path in enumerate(after["paths"]):
        assert (path is state["paths"][i]) == (i != center)  # only the attacked path is new
    nxt, _ = helpers.play(after, "end")
    nxt, _ = helpers.play(nxt, "roll event", [5])
    assert nxt["timeline"] is not after["timeline"] and nxt["paths"] is after["paths"]
    assert [b["marked"] for b in after["timeline"]] == [True] + [False] * 11
    assert [b["marked"] for b in nxt["timeline"]] == [True, True] + [False] * 10


def test_view_is_the_whole_state_as_a_copy(engine: Any, fresh: Any) -> None:
    for role in ("german", "referee", None):
        view = engine.view(fresh, role)
        # the state, and beside it the sheet in words (pbem.games.barbarossa.view)
        assert {k: v for k, v in view.items() if k != "sheet"} == fresh and view is not fresh
        view["paths"][0]["cities"][0]["boxes"][0]["marked"] = True
        assert fresh["paths"][0]["cities"][0]["boxes"][0]["marked"] is False
        view["events"]["luftwaffe_support"]["name"] = "changed"
        assert fresh["events"]["luftwaffe_support"]["name"] == "Luftwaffe support"
