"""Positions for the Berlin 1945 rulebook tests, on `pbem.testing.Table` (every role's client
and the adjudicator's checks in memory: sealed plans and hands, private draws, openings,
`apply` first without and then with the dice).

A test starts a table (`table(seed)`), lets the bots play to the step it needs
(`t.until("plan")`), and sets the board up as a rulebook example does: `clear` the map,
`Pool(t).take("wehrmacht", 2, "8")`, `give` a side a card. `say` plays a typed decision and
passes the reaction window it opens, unless the test is about reactions.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from pbem.core.canonical import copy_json
from pbem.core.engine import State
from pbem.games.berlin_1945 import position, tables
from pbem.games.berlin_1945.rules import ENGINE
from pbem.testing import ScriptedContext, Table

START = ENGINE.setup(None, {})  # the data files are parsed once for every test


def table(seed: int = 0) -> Table:
    """A new game; `seed` decides the private draws and the bots' choices."""
    return Table(ENGINE, copy_json(START), seed=seed)


def say(
    t: Table, role: str, text: str, rolls: Iterable[int] = (), react: bool = False
) -> ScriptedContext:
    """`role` plays `text`; a reaction window it opens is passed ('no reaction') unless
    `react` (tests of reaction cards)."""
    ctx = t.decide(role, text, rolls)
    if t.state["step"] == "react" and not react:
        t.decide(t.state["react"]["role"], "no reaction")
    return ctx


def to_plan(seed: int = 0) -> Table:
    """A game at the Soviet planning of turn 1, both initial hands drawn."""
    t = table(seed)
    t.until("plan")
    return t


# --- units -----------------------------------------------------------------------------------


def clear(state: State) -> None:
    """Take every unit off the map (not removed: off), keep control as it is."""
    state["at"] = {"german": {}, "soviet": {}}
    state["removed"] = []


def units_of(state: State, side: str, type_: str | None = None) -> list[str]:
    """The units of a side (of a type), without the five that cards bring in."""
    units = tables.of(state).units
    return sorted(
        uid
        for uid, u in units.items()
        if u.side == side and (type_ is None or u.type == type_) and not u.yellow
    )


def put(state: State, zone: str, uids: list[str]) -> list[str]:
    for uid in uids:
        position.lift(state, uid)
        position.put(state, uid, zone)
    return uids


def remove(state: State, uid: str) -> None:
    """A unit on the map is removed (a casualty of an earlier turn)."""
    position.remove(state, uid)


def zone_of(t: Table, uid: str) -> str | None:
    return position.zone_of(t.state, uid)


def status(t: Table, uid: str) -> str:
    """ "on", "off" or "removed"."""
    return position.status_of(t.state, uid)


def units_in(t: Table, zone: str, side: str | None = None) -> list[str]:
    return position.units_at(t.state, zone, side)


class Pool:
    """Hands out units of a type not yet used in this position."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.used: set[str] = set()

    def take(self, type_: str, n: int, zone: str) -> list[str]:
        side = "german" if type_ in ("wehrmacht", "ss") else "soviet"
        free = [u for u in units_of(self.state, side, type_) if u not in self.used][:n]
        assert len(free) == n, f"not enough {type_}"
        self.used.update(free)
        return put(self.state, zone, free)


# --- hands ---------------------------------------------------------------------------------------


def held(t: Table, role: str) -> list[int]:
    """The slots in `role`'s hand (drawn, neither played nor discarded)."""
    hand = t.state["hands"][role]
    slots = [int(k) for k, p in hand["slots"].items() if p["status"] == "hand"]
    return sorted(slots + hand["pending"])


def cards(t: Table, role: str) -> list[int]:
    """The cards in `role`'s committed slots, as its own client knows them."""
    slots = t.private(role)["hands"][role]["slots"].values()
    return [p["value"] for p in slots if p["status"] == "hand"]


def give(t: Table, role: str, *wanted: int) -> None:
    """Put the `wanted` cards into the role's held slots (a rigged hand for a rules test:
    the slots' sealed values change, so such a game would fail the end-of-game check)."""
    slots = t.state["hands"][role]["slots"].values()
    labels = [p["label"] for p in slots if p["status"] == "hand"]
    secrets = t.secrets[role]
    missing = [c for c in wanted if c not in {secrets.get(label) for label in labels}]
    free = [label for label in labels if secrets.get(label) not in wanted]
    assert len(free) >= len(missing), f"the {role} holds too few cards"
    for label, card in zip(free, missing, strict=False):
        secrets[label] = card


def find_seed(role: str, card: int, seeds: Iterable[int] = range(300)) -> Table:
    """A game at the planning of turn 1 in which `role` holds `card`."""
    for seed in seeds:
        t = to_plan(seed)
        if card in cards(t, role):
            return t
    raise AssertionError(f"no seed deals the {role} card {card}")


def with_card_effects(state: State, key: str, effects: list[dict[str, Any]]) -> None:
    """Card `key` does `effects` in this game (a card the stand-in deck does not have)."""
    raw = json.loads(state["tables"])
    raw["cards"][key]["effects"] = effects
    state["tables"] = json.dumps(raw, sort_keys=True, separators=(",", ":"))
