"""The readings of the Barbarossa rulebook that docs/barbarossa.md records, one test each,
named by the section they read; and the rules fix of version 1.1 (the event die's cubes),
with the games of version 1.0 keeping their rules.

Dice are scripted through `pbem.testing.Table` (conftest `play`); the shipped event chart
is 1-2 Soviet counter-attack, 3-4 Logistical failure, 5+ Luftwaffe support.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.errors import IllegalOrderError
from pbem.games.barbarossa.decisions import Accept, Attack, Boost, BoostEvent, Reroll, RerollEvent
from pbem.games.barbarossa.rules import ENGINE
from pbem.games.barbarossa.view import sheet_view
from pbem.render.summary import FORMATS, _environment, render_summary
from pbem.testing import SignedTable
from tests.games.barbarossa.demo_save import first_seq, game_at, last_seq

# --- Roll on the event chart: "a black cube or/and a blue cube" (rules 1.1) -----------------


def test_roll_on_the_event_chart_one_black_cube_and_one_blue_cube_at_most(
    helpers: Any, fresh: Any
) -> None:
    """rulebook: Roll on the event chart -- "You may use a black cube or/and a blue cube to
    either add +1 to the roll or even re-roll the die": one of each at most, either order."""
    assert fresh["rules"] == "1.1"
    fresh["cubes"] = {"supply": 5, "command": 3}
    state, _ = helpers.play(fresh, "roll event", [1])
    assert ENGINE.choices(state, "german") == [Accept(), BoostEvent(1), RerollEvent()]
    assert [b["cubes"] for b in sheet_view(state)["sheet"]["boosts"]] == [1]
    with pytest.raises(
        IllegalOrderError,
        match=r"4 black cubes: the event die takes one black cube at most \(\+1\) "
        r"\(rulebook: Roll on the event chart\)",
    ):
        helpers.play(state, "boost event 4")  # 1 + 4 would always buy the Luftwaffe's die
    state, _ = helpers.play(state, "boost event 1")
    assert state["event_die"]["value"] == 2 and state["cubes"]["supply"] == 4
    with pytest.raises(IllegalOrderError, match="a black cube was already spent on the event"):
        helpers.play(state, "boost event 1")
    assert ENGINE.choices(state, "german") == [Accept(), RerollEvent()]
    state, ctx = helpers.play(state, "reroll event", [2])
    assert ctx.said("is lost with the old roll")  # the +1 went with the roll it was added to
    assert state["event_die"]["value"] == 2 and state["cubes"]["command"] == 2
    with pytest.raises(IllegalOrderError, match="a blue cube was already spent to re-roll"):
        helpers.play(state, "reroll event")
    with pytest.raises(IllegalOrderError, match="a black cube was already spent"):
        helpers.play(state, "boost event 1")
    assert ENGINE.choices(state, "german") == [Accept()]
    assert sheet_view(state)["sheet"]["boosts"] == []
    state, _ = helpers.play(state, "accept", [1, 1, 1, 1])  # Soviet counter-attack: 4 dice
    assert state["event_cubes"] is None


def test_roll_on_the_event_chart_reroll_first_then_one_black_cube(helpers: Any, fresh: Any) -> None:
    """rulebook: Roll on the event chart -- "or/and": the blue cube first, then a black
    cube on the new roll; each turn's event die starts with both cubes available again."""
    fresh["cubes"] = {"supply": 5, "command": 3}
    state, _ = helpers.play(fresh, "roll event", [2])
    state, _ = helpers.play(state, "reroll event", [4])
    assert ENGINE.choices(state, "german") == [Accept(), BoostEvent(1)]
    state, _ = helpers.play(state, "boost event 1")
    assert state["event_die"]["value"] == 5 and state["event_die"]["name"] == "Luftwaffe support"
    state, _ = helpers.play(state, "accept", [1] * 6)
    state, _ = helpers.play(state, "end")
    state, _ = helpers.play(state, "roll event", [3])
    assert state["event_cubes"] == {"black": 0, "blue": 0}
    assert BoostEvent(1) in ENGINE.choices(state, "german")


def test_roll_on_the_event_chart_version_1_0_games_keep_their_rules(helpers: Any) -> None:
    """A game begun under rules 1.0 (the demo save among them) keeps any number of cubes
    on the event die: its genesis names 1.0, and `for_version` plays 1.0's rules."""
    table = SignedTable("barbarossa", ("german", "referee"), version="1.0")
    assert table.engine.version == "1.0" and ENGINE.for_version("1.1") is ENGINE
    with pytest.raises(ValueError, match="does not play version 0.9"):
        ENGINE.for_version("0.9")
    table.join_all()
    state = table.game.state
    assert "rules" not in state and "event_cubes" not in state
    state["cubes"] = {"supply": 5, "command": 3}
    state, _ = helpers.play(state, "roll event", [1])
    state, _ = helpers.play(state, "boost event 4")
    assert state["event_die"]["value"] == 5
    state, _ = helpers.play(state, "reroll event", [1])
    state, _ = helpers.play(state, "reroll event", [6])
    assert state["cubes"] == {"supply": 1, "command": 1} and "rules" not in state
    # its summaries read as they always did
    summary = render_summary(game_at(first_seq(_event_step)), None, "text")
    assert "'boost event N': +N for N black cubes" in summary


def _event_step(state: dict[str, Any]) -> bool:
    return state["step"] == "modify_event"


# --- Encirclements: the next box to the right is the city's own --------------------------------


def test_encirclements_stop_at_the_citys_last_box(helpers: Any) -> None:
    """rulebook: Encirclements -- "mark off that box and the next box to its right": the
    boxes are those "above the city"; once they are all marked the city is captured and
    the next city is only unlocked (Capturing Cities), none of its boxes marked."""
    state = helpers.german_phase(5, [2, 6, 1, 1, 1, 1])  # Bialystok is 2, 5, 2
    state, _ = helpers.play(state, "attack bialystok with 1")  # box 1
    state, _ = helpers.play(state, "boost 2 4")  # 6 + 4 = 10 = 2x5: encircle box 3
    state, ctx = helpers.play(state, "attack bialystok with 2")
    assert helpers.marks(state, "bialystok") == [True, True, True]
    assert helpers.city(state, "bialystok")["status"] == "captured"
    assert helpers.city(state, "minsk")["status"] == "unlocked"
    assert not any(helpers.marks(state, "minsk"))
    assert state["pool"][1]["allocated"]["marked"] == [2, 3]


# --- Long Logistical Chains: the encirclement's supply icon is paid, not offered --------------


def test_long_logistical_chains_an_encirclement_pays_the_supply_icon_without_asking(
    engine: Any, helpers: Any, fresh: Any
) -> None:
    """rulebook: Encirclements, Long Logistical Chains -- "mark off that box and the next
    box", "Before marking off a box with a supply icon, discard one black cube", "This
    rule also applies to encirclements": no choice is printed, so the cube is spent; the
    player who would keep it attacks with a die below double instead."""
    from tests.games.barbarossa.test_barbarossa_rules import capture_by_arrangement

    capture_by_arrangement(fresh, "bialystok", helpers)
    state = helpers.german_phase(1, [6, 3, 1, 1], supply=2, state=fresh)  # Minsk: 3, 5*
    # one way to attack with each die: no "attack without encircling"
    options = engine.choices(state, "german")
    attacks = [d for d in options if isinstance(d, Attack) and d.city == "minsk"]
    assert attacks == [Attack("minsk", 1), Attack("minsk", 2)]
    state, ctx = helpers.play(state, "attack minsk with 1")
    assert helpers.marks(state, "minsk")[:2] == [True, True] and state["cubes"]["supply"] == 1
    assert ctx.said("supply icon on box 2 of Minsk: 1 supply cube spent")


# --- Rolling sixes: the cube goes with the roll the die shows --------------------------------


def test_rolling_sixes_a_six_rerolled_before_its_cube_is_taken_is_lost(helpers: Any) -> None:
    """rulebook: Rolling sixes, Using command cubes to re-roll dice -- "For each white die
    that rolls a natural six, add one blue cube": the example takes the cube after spending
    one, so the cube may wait; a re-roll replaces the roll, and its cube with it."""
    state = helpers.german_phase(3, [6, 5, 2, 3, 6], command=3)
    state, ctx = helpers.play(state, "reroll 1", [2])
    assert ctx.said("the unclaimed blue cube of its natural six is lost")
    assert state["cubes"]["command"] == 2 and state["pool"][0]["six"] is None
    with pytest.raises(IllegalOrderError, match="only a white die's natural six"):
        helpers.play(state, "claim 1")
    state, _ = helpers.play(state, "end")
    assert state["cubes"]["command"] == 2


# --- Rolling your dice: "before or after allocating them" ------------------------------------


def test_rolling_your_dice_reroll_and_boost_only_on_unused_dice(engine: Any, helpers: Any) -> None:
    """rulebook: Rolling your dice -- "modify your dice either before or after allocating
    them": an allocation is resolved when made (the box marked, the cubes gained), so the
    modifiers apply to dice not yet allocated, before or after the others are; a natural
    six's cube (not a modifier) can still be taken from an allocated die."""
    state = helpers.german_phase(5, [6, 2, 1, 1, 1, 1], supply=3, command=2)
    state, _ = helpers.play(state, "attack bialystok with 1")
    for text in ("reroll 1", "boost 1 1"):
        with pytest.raises(IllegalOrderError, match="die 1 is already allocated"):
            helpers.play(state, text)
    options = engine.choices(state, "german")
    assert not any(isinstance(d, (Reroll, Boost)) and d.die == 1 for d in options)
    state, _ = helpers.play(state, "boost 2 3")  # after allocating die 1: die 2 is free
    assert state["pool"][1]["value"] == 5
    state, _ = helpers.play(state, "claim 1")
    assert state["cubes"]["command"] == 3


# --- The gamesheet: a stand-in, said in every summary and on the map ---------------------------


def _german(state: dict[str, Any]) -> bool:
    return state["phase"] == "german"


def _campaign(state: dict[str, Any]) -> bool:
    return state["phase"] == "campaign" and state["event_die"] is not None


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_the_gamesheet_every_summary_format_says_stand_in(fmt: str) -> None:
    """rulebook: The Gamesheet -- the rulebook does not print the sheet; the shipped one is
    pbem's stand-in (gamesheet.toml), and every summary, in every format, says so."""
    from pbem.render.post import POST_FORMATS, last_move, render_post

    for seq in (first_seq(_campaign), first_seq(_german), last_seq()):
        game = game_at(seq)
        for text in (render_summary(game, None, fmt), render_summary(game, "german", fmt)):
            assert "stand-in gamesheet" in text.lower(), (fmt, seq)
        if fmt in POST_FORMATS:
            post = render_post(game, None, fmt, last_move(game))
            assert "stand-in gamesheet" in post.lower()


def test_the_gamesheet_the_page_and_the_map_say_stand_in() -> None:
    """rulebook: The Gamesheet -- the HTML page (its text state and its map's legend) and
    the picture say it too; a game on a user's own gamesheet file is not marked."""
    from pbem.render.page import render_page, render_svg

    game = game_at(first_seq(_german))
    page = render_page(game, None)
    assert "stand-in gamesheet" in page.lower() and "stand-in layout" in page
    assert "stand-in layout" in render_svg(game, None)
    own = sheet_view(game.state)
    own["paths"][0]["cities"][0]["boxes"][0]["value"] += 1
    own = sheet_view(own)
    assert own["sheet"]["stand_in"] is False
    text = _environment("txt").get_template("barbarossa/state.txt.j2").render(view=own)
    assert "stand-in" not in text


def test_the_gamesheet_a_new_game_says_stand_in() -> None:
    """A game of rules 1.1 on the shipped sheet is marked as well, in every format."""
    table = SignedTable("barbarossa", ("german", "referee"))
    table.join_all()
    rng = random.Random(5)
    for _ in range(6):
        table.step(rng)
    assert table.game.state["rules"] == "1.1"
    for fmt in FORMATS:
        assert "stand-in gamesheet" in render_summary(table.game, None, fmt).lower()
