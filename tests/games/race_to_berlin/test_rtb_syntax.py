"""Race to Berlin decision syntax, choices and the deferral rule over many sampled states.

States are sampled along seeded games (half by the bot, half by uniform random choices).
For each, every choice round-trips through format/parse (also typed messily), and
applies under a context whose dice raise EntropyPending without an IllegalOrderError;
well-formed decisions outside the choices are refused before any die is asked for.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from pbem.errors import EntropyPending, IllegalOrderError, InvalidOrderError
from pbem.games.race_to_berlin.bot import choose
from pbem.games.race_to_berlin.decisions import (
    DECISION_TYPES,
    Advance,
    Attack,
    Counterattack,
    EndStrategic,
    Loss,
    Move,
    OpenBlocks,
    Place,
    PlaceReserve,
    RemoveBlock,
    Reserves,
    Retreat,
    Strategic,
    Support,
    Tokens,
)
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.testing import ScriptedContext
from tests.games.race_to_berlin.rtb_support import (
    DATA,
    new_game,
)

Sample = tuple[dict[str, Any], dict[str, dict[str, Any]]]


def sample_states(games: int, seed: int = 0) -> list[Sample]:
    out: list[Sample] = []
    for n in range(games):
        rng = random.Random(seed + n)
        g = new_game(seed=50_000 + seed + n, check=False)
        while not g.over():
            out.append((g.state, {r: dict(v) for r, v in g.secrets.items()}))
            role = g.asked()
            private = g.private(role)
            if n % 2 and not (g.state["step"] == "action" and g.state["actions"] > 30):
                decision = rng.choice(ENGINE.choices(private, role))
            else:
                decision = choose(ENGINE, private, role, rng)
            g.decide(role, decision)
        out.append((g.state, {r: dict(v) for r, v in g.secrets.items()}))
    return out


# Played when a test first asks, not at import: every xdist worker imports every test
# module while collecting, and only the worker that runs these tests needs the games.
@cache
def states() -> list[Sample]:
    return sample_states(6)


def sparse() -> list[Sample]:
    return states()[::9]


def private(sample: Sample, role: str) -> dict[str, Any]:
    state, secrets = sample
    return ENGINE.with_secrets(state, role, secrets[role])


def test_parse_format_round_trip_over_choices_of_many_states() -> None:
    seen: set[type] = set()
    for sample in states()[::2]:
        state = sample[0]
        for prompt in ENGINE.prompts(state):
            mine = private(sample, prompt.role)
            for decision in ENGINE.choices(mine, prompt.role):
                for d in (decision, ENGINE.seal(mine, prompt.role, decision)[0]):
                    text = ENGINE.format(d)
                    assert ENGINE.parse(text, mine, prompt.role) == d, text
                    messy = "  " + "   ".join(text.upper().split()) + " "
                    assert ENGINE.parse(messy, mine, prompt.role) == d, messy
                seen.add(type(decision))
    assert set(DECISION_TYPES) - seen <= {PlaceReserve}, set(DECISION_TYPES) - seen


def test_every_choice_is_legal_and_validation_precedes_the_dice() -> None:
    """The deferral rule: under a context whose roll raises EntropyPending, a decision in
    choices() never raises IllegalOrderError; it asks for dice at most once (then pends)."""
    for sample in sparse():
        state, secrets = sample
        before = json.dumps(state, sort_keys=True)
        for prompt in ENGINE.prompts(state):
            role = prompt.role
            mine = private(sample, role)
            options = ENGINE.choices(mine, role)
            assert options, f"{role} is asked but has no choice ({state['step']})"
            for decision in options:
                public, values = ENGINE.seal(mine, role, decision)
                due = ENGINE.due_openings(mine, role, public)
                ctx = ScriptedContext(
                    pending=True,
                    seq=999,
                    committed=list(values),
                    opened={label: secrets[role][label] for label in due},
                )
                try:
                    ENGINE.apply(state, role, public, ctx)
                except EntropyPending:
                    assert ctx.requests == 1
        assert json.dumps(state, sort_keys=True) == before


def candidates(state: dict[str, Any]) -> list[Any]:
    """Well-formed decisions around the state, legal or not."""
    areas = list(state["map"]["area_ids"])
    units = list(state["units"])
    out: list[Any] = [
        Tokens(),
        Tokens(True, True),
        Reserves(True),
        Reserves(False),
        Counterattack(True),
        Counterattack(False),
        Advance(),
        EndStrategic(),
        OpenBlocks(),
        Support(),
    ]
    for a in areas:
        out += [RemoveBlock(a), Support(a, True), Support(a, False), PlaceReserve(a), Place(a)]
        for n in state["map"]["areas"][a]["neighbours"]:
            out += [Attack(n, a, c) for c in (1, 2, 3)]
    for u in units[::3]:
        out.append(Loss(u))
        area = state["units"][u]["area"]
        if area:
            for n in state["map"]["areas"][area]["neighbours"]:
                out += [Move(area, n, (u,)), Strategic(u, area, n), Retreat(((u, n),))]
            out.append(Advance((u,)))
    return out


def test_decisions_outside_the_choices_are_refused_before_any_die() -> None:
    for sample in sparse()[::3]:
        state = sample[0]
        for prompt in ENGINE.prompts(state):
            role = prompt.role
            legal = ENGINE.choices(state, role)
            mine = private(sample, role)
            for decision in candidates(state):
                due = ENGINE.due_openings(mine, role, decision)
                opened = {label: sample[1][role][label] for label in due}
                ctx = ScriptedContext(pending=True, seq=999, opened=opened)
                try:
                    ENGINE.apply(state, role, decision, ctx)
                except IllegalOrderError as exc:
                    assert decision not in legal or isinstance(decision, Place), (decision, exc)
                    assert ctx.requests == 0, decision
                    message = str(exc)
                    assert message.startswith(("illegal: ", "false claim")), message
                    assert "(rulebook " in message, message
                except EntropyPending:
                    assert ctx.requests == 1
                else:
                    assert isinstance(decision, Move) or decision in legal, decision


@pytest.mark.parametrize(
    "text,decision",
    [
        ("place 4 in 17", Place("17", 4)),
        ("Place block in B1", Place("B1")),
        ("place 6ss in 24", PlaceReserve("24")),
        ("place de-6sspz-east in 24", PlaceReserve("24")),
        ("move 11 -> 12: us-1, us-3 + block", Move("11", "12", ("us-1", "us-3"), True)),
        ("move 11 to 12: block", Move("11", "12", (), True)),
        ("attack 12 from 11 cubes 2", Attack("12", "11", 2)),
        ("attack 12 from 11 with 2 cubes", Attack("12", "11", 2)),
        ("attack 12 from 11 cubes 2 exhausting", Attack("12", "11", 2, True)),
        ("attack b1 from b4 cube 1", Attack("B1", "B4", 1)),
        ("remove block in 12", RemoveBlock("12")),
        ("remove 12", RemoveBlock("12")),
        ("no support", Support()),
        ("support from 13", Support("13", False)),
        ("tokens support logistics", Tokens(True, True)),
        ("tokens logistics", Tokens(True, False)),
        ("no tokens", Tokens()),
        ("re-roll", Reserves(True)),
        ("keep", Reserves(False)),
        ("counter-attack", Counterattack(True)),
        ("no counterattack", Counterattack(False)),
        ("loss de-4", Loss("de-4")),
        (
            "retreat de-4 -> 14, de-9 -> 15, block -> 14",
            Retreat((("de-4", "14"), ("de-9", "15")), ((None, "14"),)),
        ),
        (
            "retreat de-11 -> 31, block soviet -> 31",
            Retreat((("de-11", "31"),), (("soviet", "31"),)),
        ),
        ("advance us-1 us-3 + block", Advance(("us-1", "us-3"), True)),
        ("advance us-3, us-1", Advance(("us-1", "us-3"), False)),
        ("no advance", Advance()),
        ("strategic us-1 11 -> 20", Strategic("us-1", "11", "20")),
        ("end strategic", EndStrategic()),
        ("open blocks", OpenBlocks()),
    ],
)
def test_parse_accepts_the_syntax_and_its_variants(text: str, decision: Any) -> None:
    state = ENGINE.setup(DATA, {})
    assert ENGINE.parse(text, state, "west") == decision


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty decision"),
        ("fly to berlin", "unknown command 'fly'"),
        ("place 4", "expected 'place <value> in <area>'"),
        ("place x in 17", "is not a block value"),
        ("place 4 in 99", "no area '99'"),
        ("move 11 12", "expected 'move <from> to <to> with <units> [+ block]'"),
        ("move 1 -> 2: zz-9", "no unit 'zz-9'"),
        ("attack 12", "expected 'attack <target> from <area> cubes <1|2>'"),
        ("attack 12 from 11 cubes 3", "1 or 2 cubes"),
        ("support 13", "expected 'support in <area>'"),
        ("tokens lots", "expected 'tokens logistics support'"),
        ("loss", "expected 'loss <unit>'"),
        ("retreat", "expected 'retreat <unit> to <area>"),
        ("retreat de-4 14", "expected 'retreat <unit> to <area>"),
        ("advance", "expected 'advance <units> [+ block]' or 'no advance'"),
        ("advance block", "never advances alone"),
        ("strategic us-1", "expected 'strategic <unit> from <from> to <to>'"),
        ("end game", "expected 'end strategic'"),
    ],
)
def test_parse_errors_quote_the_text_and_say_what_was_expected(text: str, fragment: str) -> None:
    state = ENGINE.setup(DATA, {})
    with pytest.raises(InvalidOrderError) as info:
        ENGINE.parse(text, state, "west")
    assert repr(text) in str(info.value)
    assert fragment in str(info.value)


def test_format_and_apply_refuse_foreign_objects() -> None:
    state = ENGINE.setup(DATA, {})
    with pytest.raises(InvalidOrderError):
        ENGINE.format("attack")
    with pytest.raises(IllegalOrderError, match="not a Race to Berlin decision"):
        ENGINE.apply(state, "soviet", "attack", ScriptedContext())


def test_only_the_asked_role_may_decide() -> None:
    state = ENGINE.setup(DATA, {})
    with pytest.raises(IllegalOrderError, match="the game waits for Soviet"):
        ENGINE.apply(state, "west", Place("1"), ScriptedContext())
    assert ENGINE.choices(state, "west") == []
