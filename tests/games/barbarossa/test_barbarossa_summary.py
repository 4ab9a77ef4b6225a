"""What a Barbarossa player reads: the text and Markdown summaries, at every position of
the demo save (saves/barbarossa-demo.pbem, replayed entry by entry).

A player must be able to act on the summary alone: the event chart is printed, so that
`boost event N` means something (rulebook: Roll on the event chart); an unclaimed
natural six says how to claim it (rulebook: Rolling sixes); each die says in words
what it was used for; the turn in the header is the turn the "Waiting for" line asks
about, and the entries shown are the ones played in that turn (rulebook: The Game Turn).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from pbem.games.barbarossa.view import chart_rows, city_names
from pbem.render.summary import render_summary
from tests.games.barbarossa.demo_save import first_seq, game_at, positions

FORMATS = ("text", "markdown")


@cache
def summaries(fmt: str) -> tuple[tuple[int, dict[str, Any] | None, str], ...]:
    """(seq, state, public summary) after every entry of the demo save."""
    found = []
    for seq, game in positions():
        found.append((seq, game.state, render_summary(game, None, fmt)))
    return tuple(found)


def summary_at(seq: int, fmt: str = "text") -> str:
    return render_summary(game_at(seq), None, fmt)


def header_turn(summary: str) -> int:
    found = re.search(r"^(?:== Turn (\d+) ==|## Turn (\d+))$", summary, flags=re.MULTILINE)
    assert found, summary
    return int(found.group(1) or found.group(2))


def state_header(state: dict[str, Any]) -> str:
    turn, label = state["turn"], state["timeline"][state["turn"] - 1]["label"]
    if state["phase"] == "over":
        return f"Game over after turn {turn} of 12 ({label})"
    phase = "campaign phase" if state["phase"] == "campaign" else "German phase"
    return f"Turn {turn} of 12 ({label}), {phase}"


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_header_and_the_waiting_line_agree_at_every_position(fmt: str) -> None:
    seen_states = 0
    for seq, state, summary in summaries(fmt):
        if state is None:  # joins only: no gamesheet yet, and no crash
            assert "Waiting for" in summary
            continue
        seen_states += 1
        head = state_header(state)
        assert header_turn(summary) == state["turn"], f"seq {seq}"
        heading = f"### {head}" if fmt == "markdown" else head
        assert f"\n{heading}\n" in summary, f"seq {seq}: no line {heading!r}"
        waiting = re.search(r"^(?:\*\*)?Waiting for:(?:\*\*)? (.*)$", summary, re.MULTILINE)
        if state["phase"] == "over":
            assert waiting is None and "Result:" in summary
            continue
        assert waiting is not None, f"seq {seq}"
        if waiting.group(1).startswith("german"):
            # the prompt goes on after the header's words: "...German phase: free dice ..."
            assert waiting.group(1).startswith(f"german ({head}:"), f"seq {seq}"
        else:
            assert waiting.group(1).startswith("referee (acknowledge entry"), f"seq {seq}"
    assert seen_states > 150


def shown_turn(summary: str) -> int:
    """The turn whose entries "What happened" lists: the header's, or the one it names."""
    named = re.search(r"What happened in turn (\d+)", summary)
    return int(named.group(1)) if named else header_turn(summary)


def test_entries_are_grouped_by_the_turn_they_were_played_in() -> None:
    """rulebook: The Game Turn -- the `end` that closes turn 3 belongs to turn 3, though
    the state it leaves is turn 4's; a turn not yet begun shows the last one played."""
    for seq, state, summary in summaries("text"):
        if state is None:
            continue
        turn = shown_turn(summary)
        assert turn in (state["turn"], state["turn"] - 1), f"seq {seq}"
        happened = summary.split("What happened", 1)[1].split("\n\n", 1)[0]
        for number in re.findall(r"- turn (\d+): ", happened):
            assert int(number) == turn, f"seq {seq}: an entry of turn {number} under {turn}"
        if state["step"] == "roll_event" and state["turn"] > 1:
            assert f"What happened in turn {state['turn'] - 1}:" in summary
            assert f"turn {state['turn'] - 1}: German phase ends" in happened
    last = summaries("text")[-1][2]
    assert "turn 11: German phase ends" not in last and "turn 12: German phase ends" in last


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_summary_prints_the_event_chart(fmt: str) -> None:
    """rulebook: Roll on the event chart -- every result, with its event and effect."""
    seq, state, summary = summaries(fmt)[-1]
    assert state is not None
    for row in chart_rows(state):
        if fmt == "text":
            line = f"    {row['range']:<5} {row['name']}: {row['text']}"
        else:
            line = f"| {row['range']} | {row['name']} | {row['text']} |"
        assert line in summary.splitlines(), f"{line!r} missing"


def _boost_possible(state: dict[str, Any]) -> bool:
    return state["step"] == "modify_event" and state["cubes"]["supply"] >= 1


@pytest.mark.parametrize("fmt", FORMATS)
def test_boost_event_says_what_each_boost_gives(fmt: str) -> None:
    seq = first_seq(_boost_possible)
    state = game_at(seq).state
    summary = summary_at(seq, fmt)
    die = state["event_die"]
    assert f"Event die:{'**' if fmt == 'markdown' else ''} {die['value']} = {die['name']}" in (
        summary
    )
    top = state["event_chart"][-1]["high"]
    affordable = min(state["cubes"]["supply"], top - die["value"])
    for n in range(1, affordable + 1):
        value = die["value"] + n
        name = next(r["name"] for r in chart_rows(state) if r["low"] <= value <= r["high"])
        form = f"`boost event {n}`" if fmt == "markdown" else f"boost event {n}"
        assert f"{form}: {value} = {name}" in summary
    assert f"boost event {affordable + 1}:" not in summary


def _unclaimed_with_room(state: dict[str, Any]) -> bool:
    full = state["cubes"]["command"] >= state["limits"]["command"]
    return not full and any(d["six"] == "unclaimed" for d in state["pool"])


def _unclaimed_when_full(state: dict[str, Any]) -> bool:
    full = state["cubes"]["command"] >= state["limits"]["command"]
    return full and any(d["six"] == "unclaimed" for d in state["pool"])


@pytest.mark.parametrize("fmt", FORMATS)
def test_unclaimed_natural_sixes_are_marked(fmt: str) -> None:
    """rulebook: Rolling sixes -- each white natural six earns a blue cube (at most 3)."""
    for test, words in (
        (_unclaimed_with_room, "taken at the end of the phase if the command tracker has room"),
        (_unclaimed_when_full, "the command tracker is full"),
    ):
        seq = first_seq(test)
        state = game_at(seq).state
        summary = summary_at(seq, fmt)
        sixes = [d["die"] for d in state["pool"] if d["six"] == "unclaimed"]
        claim = "(`claim {}`)" if fmt == "markdown" else "('claim {}')"
        listed = ", ".join(f"die {n} {claim.format(n)}" for n in sixes)
        assert f"Unclaimed natural sixes:{'**' if fmt == 'markdown' else ''} {listed}" in summary
        assert summary.count("NOT CLAIMED") == len(sixes) and words in summary


def _dice_used(state: dict[str, Any]) -> bool:
    kinds = {d["allocated"]["kind"] for d in state["pool"] if d["allocated"]}
    return kinds == {"attack", "supply"}


def test_dice_are_said_in_words() -> None:
    seq = first_seq(_dice_used)
    state = game_at(seq).state
    names = city_names(state)
    for fmt in FORMATS:
        summary = summary_at(seq, fmt)
        lines = [
            line
            for line in summary.splitlines()
            if re.match(r"^    die \d+ |^\| \d+ \| (white|red) \|", line)
        ]
        assert len(lines) == len(state["pool"])
        for die, line in zip(state["pool"], lines, strict=True):
            assert "{" not in line and "[" not in line, line
            alloc = die["allocated"]
            if alloc is None:
                assert "free" in line
            elif alloc["kind"] == "supply":
                assert f"re-supply, +{alloc['gained']} black cube" in line
            else:
                assert f"attack on {names[alloc['city']]}, box" in line


def test_markdown_marks_supply_icons_once_escaped() -> None:
    summary = summaries("markdown")[-1][2]
    assert "5\\*" in summary and "\\\\" not in summary
