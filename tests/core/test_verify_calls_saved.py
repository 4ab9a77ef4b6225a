"""Calls saved on every entry a verifier applies (issue 29) give what the calls gave.

Each saving stands for plainer code, kept here as the reference: the kit's `current` and
`asked_roles` reading the step in line (not through `step_name`), its `_openings` skipped
when a step opens nothing and nothing is owed, `pieces.due` as a loop; the adjudicator's
memo of the roles a state asks, kept from one entry to the next (a memo of another state
object is never used); `meta.after` making its state at once; Race to Berlin's B1 check
in one scan and its parser's compiled patterns. Every state the demos' verifications
copy is asked both ways.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pbem.core import meta as meta_rules
from pbem.core.adjudicator import Adjudicator
from pbem.core.engine import State
from pbem.games.berlin_1945.rules import Berlin1945Engine
from pbem.games.race_to_berlin import decisions as rtb_decisions
from pbem.games.race_to_berlin import victory
from pbem.games.race_to_berlin.rules import ENGINE as RTB
from pbem.games.race_to_berlin.rules import RaceToBerlinEngine
from pbem.games.race_to_berlin.state import ROLES, force_units_in
from pbem.kit import pieces as kit_pieces
from pbem.kit.steps import NO_OPENINGS, StepGame
from pbem.ledger import replay
from pbem.verify import parse_entries, verify_path

ROOT = Path(__file__).resolve().parents[2]


def _states(monkeypatch: pytest.MonkeyPatch, engine: type[StepGame], title: str) -> list[State]:
    """Every state the verification of `title`'s demo copies to apply an entry to."""
    seen: list[State] = []
    clone = engine.clone

    def kept(self: StepGame, state: State) -> State:
        seen.append(state)
        return clone(self, state)

    monkeypatch.setattr(engine, "clone", kept)
    assert verify_path(ROOT / "saves" / f"{title}-demo.pbem").ok
    monkeypatch.undo()
    assert len(seen) > 100
    return seen


def _reference_asked_roles(game: StepGame, state: State) -> list[str]:
    name = game.step_name(state)
    step = None if name == game.over_step else game.steps[name]
    role = None if step is None else step.asks(state)
    return [] if role is None else [role]


def _reference_due(pieces: Any, role: str) -> list[Any]:
    return [p for p in pieces if p["due"] and p["owner"] == role and not p["revealed"]]


@pytest.mark.parametrize(
    ("engine", "title"),
    [(RaceToBerlinEngine, "race-to-berlin"), (Berlin1945Engine, "berlin-1945")],
)
def test_the_kits_step_reads_are_the_references_on_every_state(
    monkeypatch: pytest.MonkeyPatch, engine: type[StepGame], title: str
) -> None:
    game = engine()
    states = _states(monkeypatch, engine, title)
    for state in states:
        name = game.step_name(state)
        assert game.current(state) is (None if name == game.over_step else game.steps[name])
        assert game.asked_roles(state) == _reference_asked_roles(game, state)
        for role in game.roles:
            due = kit_pieces.due(game.pieces(state), role)
            assert due == _reference_due(game.pieces(state), role)
            assert game._owed(state, role) == tuple(p["label"] for p in due)


def test_due_is_the_reference_when_pieces_are_due() -> None:
    def piece(label: str, owner: str, due: str | None, revealed: bool) -> dict[str, Any]:
        return {"label": label, "owner": owner, "due": due, "revealed": revealed}

    pieces = [
        piece("a", "west", "contact", False),
        piece("b", "west", None, False),
        piece("c", "soviet", "contact", False),
        piece("d", "west", "combat", True),
        piece("e", "west", "combat", False),
    ]
    for role in ("west", "soviet", "nobody"):
        due = kit_pieces.due(pieces, role)
        assert due == _reference_due(pieces, role)
        assert all(a is b for a, b in zip(due, _reference_due(pieces, role), strict=True))
        assert kit_pieces.due(iter(pieces), role) == due  # (any iterable)
    assert [p["label"] for p in kit_pieces.due(pieces, "west")] == ["a", "e"]


def test_the_openings_skipped_are_no_openings() -> None:
    # `apply` takes NO_OPENINGS without asking `_openings` when the step opens nothing and
    # nothing is owed: what `_openings` gives then.
    for step in RTB.steps.values():
        if step.opens is None:
            assert StepGame._openings(step, {}, "west", None, ()) is NO_OPENINGS


def test_check_b1_is_one_scan_of_force_units_in(monkeypatch: pytest.MonkeyPatch) -> None:
    def reference(state: State) -> str | None:
        for role in ROLES:
            if force_units_in(state, "B1", role):
                return role
        return None

    class Ctx:
        def event(self, text: str, **data: Any) -> None:
            pass

    states = _states(monkeypatch, RaceToBerlinEngine, "race-to-berlin")
    germans = 0
    for state in states:
        germans += bool(force_units_in(state, "B1", "german"))
        for mover in (None, *ROLES):
            probe = {**state, "units": dict(state["units"]), "result": None}
            if mover is not None:  # a unit of `mover`'s moved into B1
                unit = next(u for u, r in probe["units"].items() if r["force"] == mover)
                probe["units"][unit] = {**probe["units"][unit], "area": "B1"}
            expected = reference(probe)
            assert victory.check_b1(probe, Ctx()) is (expected is not None)
            assert (probe["result"] or {}).get("winner") == expected
    assert germans  # (B1 is held by Germans: the scan finds units there)


def test_the_parsers_compiled_patterns_match_as_re_does() -> None:
    texts = ["attack 5 from 4 cubes 2", "place block in 7", "move 11 -> 12 with us-1", "x"]
    patterns = [p for p in vars(rtb_decisions).values() if isinstance(p, str) and "(?P<" in p]
    assert patterns
    for pattern in patterns:
        for text in texts:
            mine = rtb_decisions._compiled(pattern).match(text)
            theirs = re.match(pattern, text)
            assert (mine and mine.groupdict()) == (theirs and theirs.groupdict())


def test_an_asked_memo_of_another_state_object_is_never_used() -> None:
    entries = parse_entries((ROOT / "saves" / "race-to-berlin-demo.pbem").read_bytes())
    game: Adjudicator = replay(entries[:40])
    state = game.state
    assert state is not None
    asked = game.engine.asked_roles(state)
    # A memo naming an equal but other state object, with a wrong answer: not used.
    game._asked_memo = ({**state}, ["nobody-at-all"])
    game._check_asked(state, _FakeEntry(asked[0]))
    with pytest.raises(Exception, match="out of turn"):
        game._check_asked(state, _FakeEntry("nobody-at-all"))
    # One naming this very state object is used (what the verifier saves).
    game._asked_memo = (state, ["only-this-one"])
    game._check_asked(state, _FakeEntry("only-this-one"))


class _FakeEntry:
    def __init__(self, by: str) -> None:
        self.by = by


def test_meta_after_is_the_reference_on_every_kind_of_entry() -> None:
    """`meta.after` asks `reversible` and `recorded` in line and makes the state at once:
    what Record.replace with them gave, for reversible entries and others, with and
    without a run of undoable entries before."""

    def reference(meta: meta_rules.MetaState, entry: Any, drew: bool, waits: bool) -> Any:
        can_undo = meta_rules.reversible(entry.kind, entry.body, drew, waits)
        if can_undo or meta.undo:
            meta = meta.replace(undo=meta_rules.recorded(meta, entry.seq, entry.by, "S", can_undo))
        return meta

    class Entry:
        def __init__(self, kind: str, body: dict[str, Any], seq: int = 9) -> None:
            self.kind, self.body, self.seq, self.by = kind, body, seq, "west"

    bodies = [
        {},
        {"decision": "x"},
        {"decision": "x", "note": "hi"},
        {"decision": "x", "commit": {}},
    ]
    runs = [(), tuple((n, "west", f"S{n}") for n in range(meta_rules.UNDO_MAX))]
    for kind in ("move", "ack"):
        for body in bodies:
            for undo in runs:
                for drew in (False, True):
                    for waits in (False, True):
                        meta = meta_rules.MetaState(undo=undo)
                        entry = Entry(kind, body)
                        got, said, answered, back = meta_rules.after(
                            meta, entry, False, ("west", "soviet"), "S", drew, waits
                        )  # type: ignore[arg-type]
                        assert (said, answered, back) == ("", "", None)
                        assert got == reference(meta, entry, drew, waits)
                        assert got.undo == reference(meta, entry, drew, waits).undo
