"""One signer at a time (protocol section 8): at every head exactly one role may sign.

Joins go in order, waiting dice are rolled by one named role, and an engine that asks
two roles at once is refused by the adjudicator, so two honest entries never compete
for one seq. The waiting-for-dice signal cannot be swallowed by game code.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.core import engine as engine_registry
from pbem.core.engine import Context, Prompt, State
from pbem.errors import EntropyPending, PbemError
from tests.support.players import Table, assert_refused
from tests.support.toy import ToyDice


def test_roles_join_one_at_a_time_creator_first() -> None:
    table = Table("toy-dice", ("a", "b"))
    assert [p.role for p in table.game.prompts()] == ["a"]
    assert table.game.next_signer() == "a"
    assert_refused(table.game, table.join_entry("b"), "out of turn: a joins next")
    table.apply(table.join_entry("a"))
    assert table.game.next_signer() == "b"
    table.apply(table.join_entry("b"))
    assert table.game.next_signer() == "a"  # the engine asks a to roll


def test_the_creator_joins_first_whatever_the_engine_order() -> None:
    table = Table("toy-dice", ("b", "a"))  # b signs the genesis
    assert table.game.join_order() == ["b", "a"]
    assert_refused(table.game, table.join_entry("a"), "out of turn: b joins next")
    table.join_all()
    assert table.game.started


def test_waiting_dice_are_rolled_by_one_named_role() -> None:
    table = Table("toy-dice", ("a", "b"))
    table.join_all()
    table.move("a", "roll")
    assert table.game.waiting_for_entropy
    assert [p.role for p in table.game.prompts()] == ["b"]
    assert table.game.next_signer() == "b"


class AsksBoth(ToyDice):
    """A broken engine: after the first roll it asks both roles at once."""

    name = "toy-asks-both"

    def prompts(self, state: State) -> list[Prompt]:
        if state["turn"] == 1 and state["next"] == "b":
            return [Prompt("a", "roll"), Prompt("b", "roll")]
        return super().prompts(state)


class Swallower(ToyDice):
    """Game code that catches every Exception around a roll (a bug the signal survives)."""

    name = "toy-swallower"

    def apply(self, state: State, role: str, decision: Any, ctx: Context) -> State:
        new = copy.deepcopy(state)
        try:
            new["score"][role] += ctx.roll(1, 6, f"{role} die")
        except Exception:  # noqa: BLE001 - the point of the test
            new["score"][role] += 100
        new["left"] -= 1
        new["next"] = "b" if role == "a" else "a"
        return new


ASKS_BOTH = AsksBoth()
SWALLOWER = Swallower()


@pytest.fixture(autouse=True)
def _broken_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registered for these tests only (the conformance test plays every registered game)."""
    for name, attribute in (
        ("toy-asks-both", "ASKS_BOTH"),
        ("toy-swallower", "SWALLOWER"),
        ("toy-asks-both-at-start", "ASKS_BOTH_AT_START"),
    ):
        monkeypatch.setitem(engine_registry._LAZY, name, f"tests.core.test_one_signer:{attribute}")
        monkeypatch.delitem(engine_registry._LOADED, name, raising=False)


class AsksBothAtStart(ToyDice):
    name = "toy-asks-both-at-start"

    def prompts(self, state: State) -> list[Prompt]:
        return [Prompt("a", "roll"), Prompt("b", "roll")]


ASKS_BOTH_AT_START = AsksBothAtStart()


def test_a_join_after_which_the_engine_asks_two_roles_is_refused() -> None:
    table = Table("toy-asks-both-at-start", ("a", "b"))
    table.apply(table.join_entry("a"))
    message = assert_refused(table.game, table.join_entry("b"))
    assert "asks a and b at once" in message


def test_the_double_ask_is_named_when_the_dice_resolve() -> None:
    table = Table("toy-asks-both", ("a", "b"))
    table.join_all()
    table.move("a", "roll")  # legal; waits for b's reveal
    message = assert_refused(table.game, table.ack_entry("b"))
    assert "the rules engine asks a and b at once; one signer at a time" in message


def test_the_waiting_for_dice_signal_is_not_a_rules_error() -> None:
    assert not issubclass(EntropyPending, PbemError)
    assert not issubclass(EntropyPending, Exception)
    table = Table("toy-swallower", ("a", "b"))
    table.join_all()
    table.move("a", "roll")
    assert table.game.waiting_for_entropy  # the roll deferred, not swallowed
    table.ack("b")
    assert table.game.state["score"]["a"] <= 6


def test_a_client_whose_role_is_not_asked_cannot_sign(tmp_path: Any) -> None:
    from tests.support.players import Duo

    duo = Duo(tmp_path)
    with pytest.raises(PbemError, match="not your turn: the game waits for a"):
        duo.b.move(duo.game_id, "roll", None)
