"""The summaries a Berlin 1945 player plans from (issue 12): every zone, Areas A-F too, with
its units by id and name; the cards in hand and the cards played with their texts (a card
just drawn at once, to its owner only); the Movement phase's status; `pbem cards`; stand-in
data marked as such.

Positions are the demo save (saves/berlin-1945-demo.pbem) cut after its joins (the start,
before the deal: the Initial display, rulebook 3) and whole (the end), replayed and
verified as a reader of the save would, and bot games with each side's own secrets.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.app import main
from pbem.core.adjudicator import Adjudicator
from pbem.games.berlin_1945 import data as b45_data
from pbem.games.berlin_1945 import tables
from pbem.games.berlin_1945.hands import drawn_cards
from pbem.games.berlin_1945.rules import ENGINE
from pbem.games.berlin_1945.view import view as b45_view
from pbem.render.summary import render_summary
from pbem.testing import SignedTable
from pbem.transport.savefile import move_file
from pbem.verify import parse_entries, verify_text

SAVE = Path(__file__).resolve().parents[3] / "saves" / "berlin-1945-demo.pbem"
DATA = b45_data.load_data({})
ROLES = ("german", "soviet", None)
FORMATS = ("text", "markdown", "bbcode")
AREAS = ("A", "B", "C", "D", "E", "F")


@cache
def demo(where: str) -> Adjudicator:
    """The demo game at its start (after the joins) or its end."""
    entries = parse_entries(SAVE.read_bytes())
    if where == "start":
        entries = entries[: sum(1 for e in entries if e.kind in ("genesis", "join"))]
    game = verify_text(move_file(entries)).game
    assert game is not None and game.state is not None
    return game


def zone_blocks(text: str) -> dict[str, list[str]]:
    """The text summary's zone list: zone id -> its lines (the zone line first)."""
    body = text.split("  Zones, all ", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    zones: dict[str, list[str]] = {}
    current = None
    for line in body:
        if re.match(r"^   \S", line):  # a ring's heading
            continue
        found = re.match(r"^    (\S+)\s", line)
        if found:
            current = found.group(1)
            zones[current] = []
        assert current is not None, line
        zones[current].append(line.strip())
    return zones


def card_line(number: int, name: str, text: str) -> re.Pattern[str]:
    """A card with its text, as the text summary prints it."""
    return re.compile(rf"#{number} {re.escape(name)} \[[^\]]*\]( †)?: .*{re.escape(text)}$", re.M)


def card(side: str, number: int) -> dict[str, object]:
    return next(c for c in DATA["decks"][side] if c["number"] == number)


@pytest.mark.parametrize("where", ["start", "end"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_zone_is_listed_for_every_role(where: str, role: str | None, fmt: str) -> None:
    text = render_summary(demo(where), role, fmt)
    for zone in DATA["zone_ids"]:
        kind = (
            "Area"
            if zone in AREAS
            else "Sector"
            if zone in ("I", "II", "III", "IV", "V")
            else "District"
        )
        label = f"{kind} {zone}"
        if fmt == "markdown":
            assert re.search(rf"^\| {label}( \(| †| \|)", text, re.M), zone
        else:
            assert re.search(rf"^    {zone}\s+{label}\b", text, re.M), zone


def test_the_soviet_sees_areas_a_to_f_and_its_27_starting_units() -> None:
    """Rulebook 2.1: Areas A-F are the Soviet deployment areas; 3: the Initial display (from
    the Playbook, not in the rulebook; the shipped 27 regulars split 5-5-4-4-4-5 are a
    stand-in, data/counters.toml). The Soviet plans its first turn with these units."""
    zones = zone_blocks(render_summary(demo("start"), "soviet", "text"))
    listed = []
    for area in AREAS:
        lines = zones[area]
        assert lines[0].startswith(f"{area}    Area {area}: German 0 (strength 0), Soviet ")
        assert lines[1].startswith("next to ")
        listed += [x.split(" ", 1)[0] for x in lines[2:] if x.startswith("su-")]
    starting = [u["id"] for u in DATA["units"] if u["side"] == "soviet" and u["start"]]
    assert len(starting) == 27 and sorted(listed) == sorted(starting)
    for unit in DATA["units"]:
        if unit["id"] in starting:
            assert any(unit["id"] in x and unit["name"] in x for x in zones[unit["start"]])


@pytest.mark.parametrize("where", ["start", "end"])
def test_each_zone_shows_its_neighbours_and_its_units_by_id(where: str) -> None:
    game = demo(where)
    state = game.state
    assert state is not None
    zones = zone_blocks(render_summary(game, "german", "text"))
    assert list(zones) == DATA["zone_ids"]
    t = tables.of(state)
    for zone, lines in zones.items():
        near = lines[1][len("next to ") :].split(";")[0].replace("†", "").split(", ")
        assert near == list(t.adj["soviet"][zone]), zone
        here = [u for side in ("german", "soviet") for u in state["at"][side].get(zone, [])]
        assert sorted(
            x.split(" ", 1)[0] for x in lines[2:] if not x.startswith("marker")
        ) == sorted(here)


def test_a_drawn_card_shows_with_its_text_to_its_owner_at_once_and_to_nobody_else() -> None:
    """2.3: a drawn card goes to its owner's hand, unseen by the opponent; the owner's next
    decision commits it, but the owner's summary shows it from the draw on."""
    table = SignedTable("berlin-1945", ("german", "soviet"), nonce="drawn", signed=False)
    table.join_all()
    rng = random.Random(1)
    seen = 0
    while table.game.outcome() is None and seen < 3:
        table.step(rng)
        state = table.game.state
        for owner in ("german", "soviet"):
            drawn = drawn_cards(state, owner, table.known(owner))
            if not drawn or state["phase"] in ("reveal", "over"):
                continue
            seen += 1
            other = "soviet" if owner == "german" else "german"
            mine = render_summary(table.game, owner, "text", table.known(owner))
            theirs = render_summary(table.game, other, "text", table.known(other))
            public = render_summary(table.game, None, "markdown")
            for number in drawn.values():
                c = card(owner, number)
                hand = next(x for x in mine.splitlines() if x.startswith(f"  {owner} hand:"))
                assert f"#{number} {c['name']} (just drawn)" in hand
                assert card_line(number, str(c["name"]), str(c["text"])).search(mine)
                if number not in state["played"][owner]:
                    assert f"#{number} {c['name']}" not in theirs
                    assert f"#{number} {c['name']}" not in public
            for text in (theirs, render_summary(table.game, None, "text")):
                hand = next(x for x in text.splitlines() if x.startswith(f"  {owner} hand:"))
                assert "#" not in hand, hand
            assert "(just drawn)" not in public
    assert seen == 3


def test_played_cards_show_with_their_texts_in_the_public_summary() -> None:
    """2.3: a card played is shown; its text says what it did."""
    game = demo("end")
    state = game.state
    assert state is not None
    text = render_summary(game, None, "text")
    played = text.split("  Cards played:\n", 1)[1]
    count = 0
    for side in ("german", "soviet"):
        for number in state["played"][side]:
            c = card(side, number)
            assert re.search(rf"^      {side} #{number} {re.escape(str(c['name']))} ", played, re.M)
            assert card_line(number, str(c["name"]), str(c["text"])).search(played)
            count += 1
    assert count > 10


def test_the_movement_status_and_the_reichstag_limit_are_shown() -> None:
    """5.3: the German stacking limit in the Reichstag is lifted once a Soviet unit entered
    Sectors I-IV; 5.4: the orders of a Movement phase; at the end of the demo it is."""
    text = render_summary(demo("end"), None, "text")
    assert "Sectors I-IV yes: the German stacking limit in the Reichstag (V) is lifted" in text
    assert re.search(
        r"This Movement phase: \d+ orders? used, \d+ withdrawals?, additional order ", text
    )
    start = render_summary(demo("start"), None, "text")
    assert "inner ring no, Mitte no, Sectors I-IV no, Reichstag no" in start


def test_stand_in_items_are_marked_and_rulebook_items_are_not() -> None:
    text = render_summary(demo("end"), None, "text")
    assert "† stand-in data, not the published game" in text
    # 8.2 prints Steiner!; card #1 Panzerfaust's effects are stand-ins (cards.toml)
    assert re.search(r"^      german #23 Steiner! \[M\]: ", text, re.M)
    public = ENGINE.view(demo("end").state, None)
    assert public["cards"]["german-1"]["stand_in"] and not public["cards"]["german-2"]["stand_in"]
    units = public["units"]
    assert units["su-150rd"]["stand_in"] and not units["de-steiner"]["stand_in"]  # 8.2 names it
    zones = {z["id"]: z for z in public["zones"]}
    assert zones["4"]["stand_in"] and not zones["8"]["stand_in"]  # 5: Wedding is named
    near = {n["id"]: n["stand_in"] for n in zones["E"]["neighbours"]}
    assert near == {"12": True, "13": False}  # 5.5.1: "from Area E ... to District 13"


def test_a_game_on_its_own_data_gets_no_shipped_names_or_texts() -> None:
    """Names, texts and provenance come from the shipped files only for the shipped data."""
    files = b45_data.default_data()
    own = files["cards.toml"].replace(b'name = "Tiger Tanks"', b'name = "Tiger II Tanks"')
    state = ENGINE.setup(ENGINE.load_data({"cards.toml": own}), {})
    view = b45_view(state, "soviet")
    assert view["data"]["own"]
    assert all(c["text"] is None and not c["stand_in"] for c in view["cards"].values())
    assert all(u["name"] is None for u in view["units"].values())


# --- pbem cards ---------------------------------------------------------------------------------


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_pbem_cards_lists_both_decks_with_texts_and_marks_the_played_ones(tmp_path: Path) -> None:
    out = run("--home", str(tmp_path), "cards", str(SAVE), "--role", "public")
    state = demo("end").state
    assert state is not None
    assert "German deck: 25 cards" in out and "Soviet deck: 25 cards" in out
    for side in ("german", "soviet"):
        for c in DATA["decks"][side]:
            assert f"       {c['text']}\n" in out
    wenck = re.search(r"^  #2 +Wenck's 12th Army \[M\]( -- .*)?$", out, re.M)
    assert wenck is not None  # a rulebook card (8.2): no stand-in mark
    assert re.search(r"^  #1 +Panzerfaust \[C !\] †", out, re.M)
    for number in state["played"]["german"]:
        c = card("german", number)
        assert re.search(rf"^  #{number} +{re.escape(str(c['name']))} .*-- .*played", out, re.M)


def test_pbem_cards_marks_a_hand_from_its_owners_store_only(tmp_path: Path) -> None:
    from pbem.demo import run_demo
    from pbem.errors import PbemError

    with pytest.raises(PbemError, match="without an outcome"):
        run_demo("berlin-1945", tmp_path / "demo", seed=2, max_entries=40)
    homes = {role: str(tmp_path / "demo" / f"{role}-home") for role in ("german", "soviet")}
    game = run("--home", homes["german"], "show").split("\t", 1)[0]
    held = {}
    for role, home in homes.items():
        listing = run("--home", home, "cards", game)
        assert f"view of {role}" in listing
        mine = re.findall(r"^  #(\d+) +(.+?) \[.* -- in your hand", listing, re.M)
        # the same cards as the role's own summary shows in its hand (its own store's)
        summary = run("--home", home, "render", game)
        hand = next(x for x in summary.splitlines() if x.startswith(f"  {role} hand:"))
        assert sorted(mine) == sorted(re.findall(r"#(\d+) (.+?)(?: \(just drawn\))?(?:, |$)", hand))
        other = "Soviet" if role == "german" else "German"
        assert f"in the {other} hand" not in listing
        held[role] = mine
    assert held["german"] or held["soviet"]
    # the German, asking for the Soviet's view from its own store, learns nothing more
    assert "in your hand" not in run("--home", homes["german"], "cards", game, "--role", "soviet")


def test_pbem_cards_refuses_a_game_without_cards(tmp_path: Path) -> None:
    save = SAVE.parent / "race-to-berlin-demo.pbem"
    result = CliRunner().invoke(main, ["--home", str(tmp_path), "cards", str(save)])
    assert result.exit_code == 1
    assert "Race to Berlin has no cards" in result.output
