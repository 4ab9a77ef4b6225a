"""The Barbarossa gamesheet: what the rulebook states holds, provenance, validation errors.

A broken file is refused with one DataError listing every problem found (the shared
`pbem.games.datacheck.DataChecker`); each test checks that its problem is among them.
"""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from pbem.errors import DataError
from pbem.games.barbarossa.rules import ENGINE

RAW = ENGINE.default_data()["gamesheet.toml"]


def load(raw: bytes) -> dict[str, Any]:
    return ENGINE.load_data({"gamesheet.toml": raw})


def edited(old: str, new: str, count: int = 1) -> bytes:
    text = RAW.decode()
    assert old in text, old
    return text.replace(old, new, count).encode()


def without(start: str, end: str, prefix: str = "") -> bytes:
    """The shipped text from `start` up to (not including) `end` cut out, `prefix` put first
    (top-level keys must come before the first table in TOML)."""
    text = RAW.decode()
    return (prefix + text[: text.index(start)] + text[text.index(end) :]).encode()


def problems(raw: bytes) -> str:
    with pytest.raises(DataError) as info:
        load(raw)
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.fixture(scope="module")
def sheet() -> dict[str, Any]:
    return ENGINE.load_data({})


def path(sheet: dict[str, Any], path_id: str) -> dict[str, Any]:
    return next(p for p in sheet["paths"] if p["id"] == path_id)


# --- what the rulebook states ----------------------------------------------------------------


def test_campaign_map_center_starts_at_bialystok_then_minsk(sheet: dict[str, Any]) -> None:
    """rulebook: Campaign Map and Army Group Paths, Encirclements (example)."""
    center = path(sheet, "center")
    bialystok, minsk = center["cities"][0], center["cities"][1]
    assert bialystok["name"] == "Bialystok"
    assert [b["value"] for b in bialystok["boxes"]] == [2, 5, 2]
    assert minsk["name"] == "Minsk"
    assert minsk["boxes"][0] == {"value": 3, "supply": False}
    assert minsk["boxes"][1] == {"value": 5, "supply": True}


def test_campaign_map_south_starts_at_brody_then_uman(sheet: dict[str, Any]) -> None:
    south = path(sheet, "south")
    assert [c["name"] for c in south["cities"][:2]] == ["Brody", "Uman"]
    assert [p["id"] for p in sheet["paths"]] == ["north", "center", "south"]


def test_game_setup_limits_pool_and_victory(sheet: dict[str, Any]) -> None:
    assert sheet["setup"] == {"supply": 4, "command": 2}
    assert sheet["limits"] == {"supply": 5, "command": 3, "red_dice": 3}
    assert sheet["pool"] == {"white_dice": 5}
    assert sheet["victory"] == {"historical": 11, "win": 14, "triumph": 19, "max": 20}


def test_stars_total_twenty(sheet: dict[str, Any]) -> None:
    assert sum(c["stars"] for p in sheet["paths"] for c in p["cities"]) == 20


def test_timeline_twelve_boxes_three_rasputitsa_in_october_november(
    sheet: dict[str, Any],
) -> None:
    timeline = sheet["timeline"]
    assert [b["box"] for b in timeline] == list(range(1, 13))
    rasputitsa = [b for b in timeline if b["red_dice"]]
    assert len(rasputitsa) == 3
    assert all(b["month"] in ("October", "November") for b in rasputitsa)
    assert timeline[0]["month"] == "June" and timeline[-1]["month"] == "December"


def test_event_chart_two_is_soviet_counter_attack_and_all_results_map(
    sheet: dict[str, Any],
) -> None:
    chart = sheet["event_chart"]

    def lookup(value: int) -> str:
        return next(r["event"] for r in chart if r["low"] <= value <= r["high"])

    assert lookup(2) == "soviet_counter_attack"
    assert {lookup(v) for v in range(1, 12)} == {
        "soviet_counter_attack",
        "logistical_failure",
        "luftwaffe_support",
    }
    assert chart[-1]["high"] >= 6 + sheet["limits"]["supply"]
    assert sheet["events"]["soviet_counter_attack"]["effect"] == "remove_white"
    assert sheet["events"]["logistical_failure"]["effect"] == "white_to_red"
    assert sheet["events"]["luftwaffe_support"]["effect"] == "add_white"


def test_every_item_has_a_provenance() -> None:
    doc = tomllib.loads(RAW.decode())
    seen = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if where not in ("", "events"):  # the document and the events table
                assert "provenance" in node, where
                prov = node["provenance"]
                assert prov == "stand-in" or prov.startswith("rulebook "), (where, prov)
                seen.append(prov)
            for key, value in node.items():
                if isinstance(value, dict | list):
                    walk(value, f"{where}.{key}" if where else key)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{where}[{i}]")

    walk(doc, "")
    assert len(seen) > 60
    cities = [c for p in doc["paths"] for c in p["cities"]]
    assert all(c["stars_provenance"] in ("stand-in",) for c in cities)
    bialystok = next(c for c in cities if c["id"] == "bialystok")
    assert {b["provenance"] for b in bialystok["boxes"]} == {"rulebook Encirclements"}


def test_default_data_is_the_shipped_file() -> None:
    assert set(ENGINE.default_data()) == {"gamesheet.toml"}
    assert ENGINE.load_data({}) == load(RAW)


def test_user_file_replaces_the_default() -> None:
    sheet = load(edited('name = "Dvinsk"', 'name = "Daugavpils"'))
    assert sheet["paths"][0]["cities"][0]["name"] == "Daugavpils"
    state = ENGINE.setup(sheet, {})
    assert state["paths"][0]["cities"][0]["name"] == "Daugavpils"


# --- validation errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "old,new,message",
    [
        (
            '{ value = 2, provenance = "rulebook Encirclements" },',
            '{ value = 0, provenance = "rulebook Encirclements" },',
            "gamesheet.toml: paths[center].cities[bialystok].boxes[1].value: 0 is not in 1..6",
        ),
        (
            '{ value = 3, provenance = "stand-in" },\n  { value = 2,',
            "{ value = 3 },\n  { value = 2,",
            "gamesheet.toml: paths[north].cities[dvinsk].boxes[1]: missing 'provenance'",
        ),
        (
            'event = "logistical_failure"',
            'event = "partisans"',
            "gamesheet.toml: event_chart[3].event: unknown event 'partisans'",
        ),
        (
            'effect = "add_white"',
            'effect = "add_tiger"',
            "gamesheet.toml: events.luftwaffe_support.effect: unknown effect 'add_tiger'",
        ),
        (
            "supply = 4   # black cubes",
            'supply = "4"',
            "gamesheet.toml: setup.supply: expected an integer, found '4'",
        ),
        (
            "supply = 4   # black cubes",
            "supply = 4.0",
            "gamesheet.toml: setup.supply: expected an integer, found 4.0",
        ),
        (
            "supply = 4   # black cubes",
            "supply = 6",
            "gamesheet.toml: setup.supply: 6 is not in 0..5",
        ),
        (
            "stars = 4",
            "stars = true",
            "gamesheet.toml: paths[center].cities[moscow].stars: expected an integer, found True",
        ),
        (
            "low = 3\nhigh = 4",
            "low = 4\nhigh = 4",
            "gamesheet.toml: event_chart[3].low: expected 3 (rows must be contiguous), found 4",
        ),
        (
            "low = 5\nhigh = 12",
            "low = 5\nhigh = 10",
            "gamesheet.toml: event_chart: covers 1..10, but a die of 6 plus 5 supply cubes",
        ),
        (
            'id = "pskov"',
            'id = "dvinsk"',
            "gamesheet.toml: paths[north].cities[dvinsk]: duplicate id 'dvinsk'",
        ),
        (
            "stars = 4",
            "stars = 1",
            "gamesheet.toml: victory: triumph needs 19 VP but the cities hold only 17 stars",
        ),
        (
            "red_dice = 2",
            "red_dice = 4",
            "gamesheet.toml: timeline[10].red_dice: 4 is not in 0..3",
        ),
        (
            'provenance = "rulebook Winning the Game"',
            'provenance = ""',
            "gamesheet.toml: victory.provenance: expected 'stand-in' or 'rulebook <section>', "
            "found ''",
        ),
        (
            'name = "Pskov"',
            'name = "DVINSK"',
            "gamesheet.toml: paths[north].cities[pskov].name: duplicate city name 'DVINSK'",
        ),
        (
            "win = 14",
            "win = 10",
            "gamesheet.toml: victory: expected historical < win < triumph",
        ),
        (
            "{ value = 4, supply = true, provenance",
            "{ value = 4, supply = 1, provenance",
            "gamesheet.toml: paths[north].cities[pskov].boxes[2].supply: expected true or false, "
            "found 1",
        ),
        (
            'boxes = [\n  { value = 3, provenance = "stand-in" },\n'
            '  { value = 2, provenance = "stand-in" },\n'
            '  { value = 3, provenance = "stand-in" },\n]',
            "boxes = []",
            "gamesheet.toml: paths[north].cities[dvinsk].boxes: a city needs at least one box",
        ),
        (
            'month = "June"\n',
            "",
            "gamesheet.toml: timeline[1]: missing field 'month'",
        ),
        (
            'id = "north"',
            'id = "North"',
            "gamesheet.toml: paths[1].id: 'North' must be lower case letters, digits, '-' or '_'",
        ),
        (
            "[events.luftwaffe_support]",
            '[events."Luftwaffe"]',
            "gamesheet.toml: events.Luftwaffe: event ids must be lower case letters",
        ),
        (
            "low = 5\nhigh = 12",
            "low = 5\nhigh = 4",
            "gamesheet.toml: event_chart[4].high: 4 is not in >= 5",
        ),
        (
            "[setup]",
            "[setup]\n[setup]",
            "gamesheet.toml: not valid TOML",
        ),
    ],
)
def test_gamesheet_errors_name_file_item_and_problem(old: str, new: str, message: str) -> None:
    assert message in problems(edited(old, new))


def test_gamesheet_errors_every_problem_in_one_message() -> None:
    text = RAW.decode()
    for old, new in (
        ('{ value = 2, provenance = "rulebook Encirclements" },', "{ value = 0 },"),
        ('event = "logistical_failure"', 'event = "partisans"'),
        ("supply = 4   # black cubes", "supply = 6"),
        ("win = 14", "win = 10"),
    ):
        text = text.replace(old, new, 1)
    message = problems(text.encode())
    assert message.count("gamesheet.toml: ") == 5, message
    for problem in (
        "paths[center].cities[bialystok].boxes[1]: missing 'provenance'",
        "paths[center].cities[bialystok].boxes[1].value: 0 is not in 1..6",
        "event_chart[3].event: unknown event 'partisans'",
        "setup.supply: 6 is not in 0..5",
        "victory: expected historical < win < triumph",
    ):
        assert f"gamesheet.toml: {problem}" in message


def test_gamesheet_errors_a_section_of_the_wrong_kind() -> None:
    no_pool = without("[pool]", "[victory]", prefix="pool = 5\n")
    assert "gamesheet.toml: pool: expected a table, found int" in problems(no_pool)
    no_events = without("[events.soviet", "[[event_chart]]", prefix="events = {}\n")
    message = problems(no_events)
    assert "gamesheet.toml: events: no events defined" in message
    # the chart's references to the events that are gone are reported as well
    assert "gamesheet.toml: event_chart[1].event: unknown event 'soviet_counter_attack'" in message
    no_timeline = without("[[timeline]]", "# --- The campaign event chart", "timeline = 3\n")
    message = problems(no_timeline)
    assert "gamesheet.toml: timeline: expected an array of tables, found int" in message


def test_gamesheet_errors_one_mistake_is_reported_once() -> None:
    """Checks that need a broken part are not made: no map, so no stars to compare the
    victory bands with; no limits, so no bounds for the setup or the chart's reach."""
    text = RAW.decode()
    no_map = text[: text.index("[[paths]]")].encode()
    assert problems(no_map) == "gamesheet.toml: top level: missing section 'paths'"
    no_limits = without("[limits]", "[pool]")
    assert problems(no_limits) == "gamesheet.toml: top level: missing section 'limits'"


def test_gamesheet_wrong_number_of_timeline_boxes() -> None:
    text = RAW.decode()
    start = text.index("[[timeline]]\nbox = 12")
    end = text.index("# --- The campaign event chart")
    with pytest.raises(DataError, match=r"gamesheet.toml: timeline: expected 12 boxes, found 11"):
        load((text[:start] + text[end:]).encode())


def test_gamesheet_timeline_out_of_order() -> None:
    with pytest.raises(DataError, match=r"timeline\[3\]\.box: boxes must be numbered 1..12"):
        load(edited("box = 3", "box = 4"))


def test_gamesheet_missing_section_and_unknown_section() -> None:
    text = RAW.decode()
    start, end = text.index("[victory]"), text.index("# --- The Timeline")
    with pytest.raises(DataError, match="gamesheet.toml: top level: missing section 'victory'"):
        load((text[:start] + text[end:]).encode())
    with pytest.raises(DataError, match="unknown section"):
        load(RAW + b"\n[weather]\nprovenance = 'stand-in'\n")


def test_gamesheet_not_utf8_and_unknown_file() -> None:
    with pytest.raises(DataError, match="gamesheet.toml: not UTF-8"):
        load(b"\xff\xfe")
    with pytest.raises(DataError, match="map.toml: unknown data file for barbarossa"):
        ENGINE.load_data({"map.toml": b""})
