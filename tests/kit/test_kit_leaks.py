"""The differential leak check (pbem.testing.leaks) that the conformance test runs on every
game: it must find a planted leak, and find nothing in a sound view."""

from __future__ import annotations

from typing import Any

from pbem.core.engine import State
from pbem.testing import Table, leaks, other_secrets
from tests.kit.test_kit_steps import COIN, Coin
from tests.support.skeleton import ENGINE as HIGH_CARD
from tests.support.skeleton import Stake


class LeakyCoin(Coin):
    """A planted leak: the view forgets to strip another role's filled-in value."""

    def view(self, state: State, role: str | None) -> State:
        return self.clone(state)


class NoisyCoin(Coin):
    """A subtler planted leak: the value is stripped, but its parity shows in the view."""

    def view(self, state: State, role: str | None) -> State:
        view = super().view(state, role)
        coin = state["pieces"].get("coin/a")
        if coin is not None and coin.get("known"):
            view["hint"] = "even" if coin["value"] % 2 == 0 else "odd"
        return view


def _hidden_coin(engine: Any) -> Table:
    table = Table(engine)
    table.decide("a", "hide 2")
    return table


def test_a_sound_view_leaks_nothing() -> None:
    table = _hidden_coin(COIN)
    assert leaks(COIN, table.state, "a", table.known("a"), ["b", None]) == []


def test_a_planted_leak_is_found_for_every_viewer() -> None:
    engine = LeakyCoin()
    table = _hidden_coin(engine)
    assert leaks(engine, table.state, "a", table.known("a"), ["a", "b", None]) == [
        "the view for b shows a's secrets",
        "the view for the public shows a's secrets",
    ]


def test_a_leak_of_a_derived_fact_is_found_too() -> None:
    engine = NoisyCoin()
    table = _hidden_coin(engine)
    assert leaks(engine, table.state, "a", table.known("a"), ["b"]) == [
        "the view for b shows a's secrets"
    ]


def test_other_secrets_changes_every_value_and_keeps_its_kind() -> None:
    known = {
        "block/west/t1/1": 4,
        "block/west/t1/2": 2,
        "hand/german/1": 17,
        "x/german/1": "ab12",
        "plan/turn-3": {"orders": [{"frm": "A"}, {"frm": "B"}], "card": None},
    }
    changed = other_secrets(known)
    assert changed["block/west/t1/1"] == 2 and changed["block/west/t1/2"] == 4  # swapped
    assert changed["hand/german/1"] == 18 and changed["x/german/1"] == "21ba"
    assert changed["plan/turn-3"] == {"orders": [{"frm": "B"}, {"frm": "A"}], "card": None}


def test_the_skeletons_sealed_stake_does_not_leak() -> None:
    table = Table(HIGH_CARD)
    table.decide("north", Stake(3))
    assert leaks(HIGH_CARD, table.state, "north", table.known("north"), ["south", None]) == []
