"""Fuzzing the decision syntax of every registered game: engine.parse on anything typed.

For each game (the shipped ones and the tests' toy games), states at several points
of its demo save (a replay of a prefix of its entries) and every role: random text,
soups of the game's own words, and the save's real decision texts mutated. Parsing
must give a decision or a PbemError with a one-line message; a decision must format
and parse back to itself. Every real decision text of a save parses, at the state
just before it was played, to a decision whose canonical text reads back the same.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.core.engine import get_engine
from pbem.errors import PbemError
from tests.fuzz.fuzzing import (
    all_games,
    check_message,
    decisions_of_save,
    fuzz_settings,
    game_of_save,
    game_states,
    game_texts,
    save_names,
    states_before_each_entry,
)

SYNTAX = (
    "->",
    "=>",
    "→",
    ":",
    ",",
    ";",
    "+",
    "#",
    "!",
    "/",
    "-",
    "to",
    "in",
    "on",
    "at",
    "from",
    "with",
    "all",
    "none",
    "block",
    "units",
    "card",
    "discard",
    "extra",
    "exhausting",
    "die",
    "event",
    "0",
    "1",
    "2",
    "7",
    "+3",
    "#2",
    "12!",
    "9" * 5000,
    "²",
    "٣",
    "İ",
    "ß",
    "\u200b",
    "\t",
    "\n",
)


@st.composite
def typed(draw: st.DrawFn, game: str) -> str:
    """Something a player could type: random text, a soup of the game's words, or a real
    decision text with a few edits."""
    texts = game_texts(game)
    words = sorted({w for _role, text in texts for w in text.split()} | set(SYNTAX))
    kind = draw(st.sampled_from(["text", "soup", "edit"]))
    if kind == "text":
        return draw(st.text(max_size=60))
    if kind == "soup":
        return " ".join(draw(st.lists(st.sampled_from(words), min_size=1, max_size=8)))
    text = list(draw(st.sampled_from(texts))[1].split(" "))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["drop", "insert", "replace", "chars"]))
        if edit == "drop" and text:
            del text[min(at, len(text) - 1)]
        elif edit == "insert":
            text.insert(at, draw(st.sampled_from(words)))
        elif edit == "replace" and text:
            text[min(at, len(text) - 1)] = draw(st.sampled_from(words))
        elif edit == "chars" and text:
            i = min(at, len(text) - 1)
            text[i] = draw(st.text(st.sampled_from(text[i] + "0123456789,:;-> #!"), max_size=12))
    return draw(st.sampled_from([" ", "", "  "])).join(text)


def parse_everywhere(game: str, text: str) -> None:
    """Parse at every sampled state for every role; a decision must round-trip."""
    engine = get_engine(game)
    for state in game_states(game)[:3]:
        for role in engine.roles:
            try:
                decision = engine.parse(text, state, role)
            except PbemError as exc:
                check_message(exc)
                continue
            canonical = engine.format(decision)
            assert isinstance(canonical, str) and canonical
            again = engine.parse(canonical, state, role)
            assert again == decision, f"{text!r} -> {canonical!r} -> {again!r} != {decision!r}"


@pytest.mark.parametrize("game", all_games())
@fuzz_settings(120)
@given(data=st.data())
def test_typed_text(game: str, data: st.DataObject) -> None:
    text = data.draw(typed(game))
    parse_everywhere(game, text)


@pytest.mark.parametrize("name", save_names())
def test_save_decisions_round_trip(name: str) -> None:
    """Every decision of a demo save, at the state before it: parse, format, parse again."""
    engine = get_engine(game_of_save(name))
    before = states_before_each_entry(name)
    count = 0
    for seq, role, text in decisions_of_save(name):
        decision = engine.parse(text, before[seq], role)
        canonical = engine.format(decision)
        assert engine.parse(canonical, before[seq], role) == decision
        count += 1
    assert count > 50


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("barbarossa", "boost 1 " + "9" * 5000),
        ("barbarossa", "attack minsk with " + "9" * 5000),
        ("race-to-berlin", "attack 24 from 20 cubes " + "9" * 5000),
        ("race-to-berlin", "place " + "9" * 5000 + " in 17"),
        ("race-to-berlin", "move " + "9" * 5000 + " units 11 -> 12"),
        ("berlin-1945", "play " + "9" * 5000),
        ("berlin-1945", "cards play 1, " + "9" * 5000),
        ("berlin-1945", "execute " + "9" * 5000),
    ],
)
def test_number_past_the_digit_limit(game: str, text: str) -> None:
    """Regression (fuzz/corpus/decision-*/number-of-5000-digits): int() raised ValueError."""
    engine = get_engine(game)
    for state in game_states(game)[:2]:
        with pytest.raises(PbemError) as caught:
            engine.parse(text, state, engine.roles[0])
        assert "5000 digits" in check_message(caught.value)
