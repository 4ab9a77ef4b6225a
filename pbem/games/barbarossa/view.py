"""The Barbarossa gamesheet in words: what the summaries and the picture show beside the state.

The state holds the sheet as data (`{"kind": "attack", "city": "kiev", "marked": [5]}`,
`"six": "unclaimed"`, the event chart as ranges of event ids); a player needs it in
words to act on it. `sheet_view` is the engine's view: a copy of the whole state
(perfect information: every role sees everything) with one more key, "sheet":

- "header": the turn and phase, in the words of the prompt ("Turn 4 of 12 (early
  August), German phase"), so that the summary's header and its "Waiting for" line agree;
- "chart": the event chart, one row per range, with the event's name and effect and
  the row the event die shows now marked `current`;
- "boosts": what each `boost event N` would make of the event die now;
- "dice": the pool, each die with what it shows, its natural six and its use in words;
- "unclaimed": the dice whose natural six has not yet earned its blue cube;
- "fronts": for each unlocked city, what its next box needs (none once the game is over);
- "stand_in": whether the game plays on the shipped gamesheet, whose cities, boxes,
  stars, Rasputitsa dice and chart ranges are mostly stand-ins (the rulebook prints
  only part of the sheet): then the summaries and the picture say so.

The functions are pure functions of a state or a view; `svg` draws with them too.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pbem.core.canonical import copy_json
from pbem.core.engine import State
from pbem.games.barbarossa.board import fixed
from pbem.games.barbarossa.data import FILE_NAME, d3, load_gamesheet
from pbem.games.datacheck import shipped_file


def sheet_view(state: State) -> State:
    """The view of `state` (a copy, shared with nothing) with its "sheet" in words."""
    view: State = copy_json(state)
    view["sheet"] = {
        "header": header(view),
        "chart": chart_rows(view),
        "boosts": boost_options(view),
        "dice": [die_row(view, die) for die in view["pool"]],
        "unclaimed": [d["die"] for d in view["pool"] if six_state(d) == "unclaimed"],
        "fronts": {} if view["phase"] == "over" else {c["id"]: front_text(c) for c in fronts(view)},
        "stand_in": plays_shipped_sheet(view),
    }
    return view


# --- provenance ---------------------------------------------------------------------------


def _printed(sheet: dict[str, Any]) -> tuple[Any, ...]:
    """What the gamesheet prints, from a state or from a loaded gamesheet alike."""
    return (
        [
            (
                p["id"],
                [
                    (c["id"], c["stars"], [(b["value"], b["supply"]) for b in c["boxes"]])
                    for c in p["cities"]
                ],
            )
            for p in sheet["paths"]
        ],
        [(b["label"], b["red_dice"]) for b in sheet["timeline"]],
        [(r["low"], r["high"], r["event"]) for r in sheet["event_chart"]],
        {k: (e["name"], e["effect"]) for k, e in sheet["events"].items()},
    )


@lru_cache(maxsize=1)
def _shipped() -> tuple[Any, ...]:
    raw = shipped_file("pbem.games.barbarossa", FILE_NAME)
    return _printed(load_gamesheet(raw, FILE_NAME))


def plays_shipped_sheet(state: State) -> bool:
    """True when the state's sheet is the shipped one (stand-in values, see gamesheet.toml);
    a game on a user's own gamesheet file is not marked."""
    return _printed(state) == _shipped()


def turn_label(state: State, word: str = "Turn") -> str:
    """ "Turn 4 of 12 (early August)", as the engine's prompts begin."""
    turn = state["turn"]
    return f"{word} {turn} of {state['turns']} ({state['timeline'][turn - 1]['label']})"


def header(state: State) -> str:
    if state["phase"] == "over":
        return f"Game over after {turn_label(state, 'turn')}"
    if state["phase"] == "campaign":
        return f"{turn_label(state)}, campaign phase"
    return f"{turn_label(state)}, German phase"


def city_names(state: State) -> dict[str, str]:
    return {c["id"]: c["name"] for p in state["paths"] for c in p["cities"]}


# --- the event chart (rulebook: Roll on the event chart) -----------------------------------


def range_text(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def chart_rows(state: State) -> list[dict[str, Any]]:
    """The chart's rows in order; `current` marks the row of the event die now. Rows next
    to each other with one event are one row on the sheet (the data splits 1 and 2 only
    to give each its provenance)."""
    die = state.get("event_die")
    merged: list[dict[str, Any]] = []
    for row in state["event_chart"]:
        if merged and merged[-1]["event"] == row["event"]:
            merged[-1] = dict(merged[-1], high=row["high"])
        else:
            merged.append(row)
    rows = []
    for row in merged:
        event = state["events"][row["event"]]
        rows.append(
            {
                "range": range_text(row["low"], row["high"]),
                "low": row["low"],
                "high": row["high"],
                "event": row["event"],
                "name": event["name"],
                "text": event["text"],
                "current": die is not None and row["low"] <= die["value"] <= row["high"],
            }
        )
    return rows


def event_of(state: State, value: int) -> str:
    for row in state["event_chart"]:
        if row["low"] <= value <= row["high"]:
            return str(state["events"][row["event"]]["name"])
    return "off the chart"


def boost_options(state: State) -> list[dict[str, Any]]:
    """While the event die may be changed: `boost event N` for each N the supply tracker
    pays for and the chart still covers, with the result it gives."""
    die = state.get("event_die")
    if die is None or state["step"] != "modify_event":
        return []
    top = state["event_chart"][-1]["high"]
    most = min(state["cubes"]["supply"], top - die["value"])
    if fixed(state):  # rules 1.1: one black cube at most on the event die
        most = 0 if state["event_cubes"]["black"] else min(most, 1)
    return [
        {"cubes": n, "value": die["value"] + n, "name": event_of(state, die["value"] + n)}
        for n in range(1, most + 1)
    ]


# --- the campaign map (rulebook: Attacking Cities, Encirclements, Long Logistical Chains) ---


def fronts(state: State) -> list[dict[str, Any]]:
    return [c for p in state["paths"] for c in p["cities"] if c["status"] == "unlocked"]


def front_text(city: dict[str, Any]) -> str:
    """ "box 3 needs 4+ (8+ also marks box 4); supply icon: 1 black cube"."""
    boxes = city["boxes"]
    k = next(i for i, b in enumerate(boxes) if not b["marked"])
    box = boxes[k]
    text = f"box {k + 1} needs {box['value']}+"
    if k + 1 < len(boxes):
        text += f" ({2 * box['value']}+ also marks box {k + 2})"
    if box["supply"]:
        text += "; supply icon: 1 black cube"
    return text


# --- the dice pool --------------------------------------------------------------------------


def six_state(die: dict[str, Any]) -> str | None:
    """None, or what became of a white die's natural six: unclaimed, claimed, lost."""
    if die["colour"] != "white" or die["roll"] != 6:
        return None
    return str(die["six"]) if die["six"] else None


def shows_text(die: dict[str, Any]) -> str:
    """What a die shows: "rolled 3", "rolled 5 = D3 3", "rolled 4, +2 = 6"."""
    if die["roll"] is None:
        return "not rolled"
    text = f"rolled {die['roll']}"
    if die["colour"] == "red":
        text += f" = D3 {d3(die['roll'])}"
    if die["boost"]:
        text += f", +{die['boost']} = {die['value']}"
    return text


def six_text(die: dict[str, Any], tracker_full: bool = False) -> str | None:
    """A natural six in words; an unclaimed one says how to claim it (rulebook: Rolling
    sixes; the engine takes it at the end of the phase if the tracker has room then)."""
    state = six_state(die)
    if state == "unclaimed" and tracker_full:
        return (
            "natural six, blue cube NOT CLAIMED yet: the command tracker is full (spend a "
            f"blue cube first, then 'claim {die['die']}'; lost at the end of the phase if "
            "still full)"
        )
    if state == "unclaimed":
        return (
            f"natural six, blue cube NOT CLAIMED yet ('claim {die['die']}'; taken at the "
            "end of the phase if the command tracker has room)"
        )
    if state == "claimed":
        return "natural six, blue cube claimed"
    if state == "lost":
        return "natural six, no blue cube (the command tracker was full)"
    return None


def used_text(die: dict[str, Any], names: dict[str, str]) -> str | None:
    """What the die was allocated to, in words; None while it is free."""
    alloc = die["allocated"]
    if alloc is None:
        return None
    if alloc["kind"] == "supply":
        gained = alloc["gained"]
        return f"re-supply, +{gained} black cube{'' if gained == 1 else 's'}"
    city = names.get(alloc["city"], alloc["city"])
    marked = alloc.get("marked") or []
    if len(marked) == 1:
        return f"attack on {city}, box {marked[0]} marked"
    boxes = " and ".join(str(b) for b in marked)
    return f"attack on {city}, boxes {boxes} marked (encirclement)"


def die_row(state: State, die: dict[str, Any]) -> dict[str, Any]:
    return {
        "die": die["die"],
        "colour": die["colour"],
        "value": die["value"],
        "shows": shows_text(die),
        "six": six_text(die, state["cubes"]["command"] >= state["limits"]["command"]),
        "used": used_text(die, city_names(state)),
    }
