"""Position helpers for the Race to Berlin tests, on `pbem.testing.Table`.

`Table(ENGINE)` plays decisions the way clients and the adjudicator do -- each owner
decides on its `with_secrets` state, `seal` splits the public decision from the values to
commit, `due_openings` says what the entry opens, the public decision (round-tripped
through `format`/`parse`) is applied to the public state, first without dice and then
with them -- but without keys or signatures, so hundreds of games run in seconds.

Positions are test arrangements on a new game's state (like setting up a rulebook example
on the board): `action_game` starts in the Action Phase with no block on the board;
`put_block` adds a block whose value only its owner knows (`Table.seal_for`: the public
state keeps value None, exactly as a placement leaves it); `put_unit` moves a unit;
`set_area` changes control. The shipped map at start: West 1-3, Soviet 28-30, German the
rest; area 4 (Lower Rhine: de-1fj, de-25, a regular fortification, terrain 1) borders 1
without a river; 5 (major fortification, terrain 2) borders 1 and 2 across rivers.
"""

from __future__ import annotations

from typing import Any

from pbem.games.race_to_berlin.board import refresh_markers
from pbem.games.race_to_berlin.rules import ENGINE
from pbem.testing import Table

State = dict[str, Any]

SEQ_PLACED = 5  # arranged blocks count as placed by entries 6, 7, ... (before play starts)
DATA = ENGINE.load_data({})  # the shipped data files, read once (`setup` never changes them)


def new_game(state: State | None = None, *, seed: int = 0, check: bool = True) -> Table:
    """A table for one game (a new one unless `state` is given); `seed` seeds the dice
    that are not scripted."""
    return Table(ENGINE, state, seed=seed, data=DATA, check=check)


def action_game(first: str = "west", turn: int = 1) -> Table:
    """A new game moved to the Action Phase of `turn`, `first` to act, no block placed."""
    state = ENGINE.setup(DATA, {})
    state["turn"] = turn
    state["phase"] = "action"
    state["step"] = "action"
    state["first"] = first
    state["active"] = first
    return new_game(state)


def put_block(
    game: Table,
    role: str,
    area: str,
    value: int,
    *,
    revealed: bool = False,
    cubes: int = 0,
) -> str:
    """Put `role`'s `value`-block in `area` (sealed unless `revealed`); returns its label."""
    state = game.state
    n = state["placed"][role] + 1
    label = f"block/{role}/t{state['turn']}/{n}"
    state["placed"][role] = n
    state["blocks"].append(
        {
            "label": label,
            "owner": role,
            "value": value if revealed else None,
            "revealed": revealed,
            "placed_at": SEQ_PLACED + n,
            "claims": [],
            "due": None,
            "force": state["areas"][area]["control"],
            "area": area,
            "cubes": cubes,
            "exhausted": revealed and cubes >= value,
            "off": None,
        }
    )
    state["cubes"][role]["pool"] -= cubes
    game.seal_for(role, label, value, seq=SEQ_PLACED + n)
    return label


def put_unit(game: Table, unit: str, area: str | None, strength: int | None = None) -> None:
    rec = game.state["units"][unit]
    rec["area"] = area
    rec["status"] = "board" if area else "eliminated"
    if strength is not None:
        rec["strength"] = strength


def set_area(game: Table, area: str, control: str) -> None:
    game.state["areas"][area]["control"] = control
    refresh_markers(game.state)


def clear_area(game: Table, area: str) -> None:
    for unit, rec in game.state["units"].items():
        if rec["area"] == area:
            put_unit(game, unit, None)


def block(game: Table, label: str) -> dict[str, Any]:
    return next(b for b in game.state["blocks"] if b["label"] == label)


def units_at(game: Table, area: str) -> list[str]:
    return [u for u, rec in game.state["units"].items() if rec["area"] == area]


# Combat dice for `ScriptedContext`: the attacker's die first (a 6 wins, a 1 loses).
WIN = [6, 1, 1, 1]
LOSE = [1, 1, 6, 1]


def no_reserves(game: Table) -> None:
    """Mark every Reserves token used, so that no player is asked about one."""
    for role in ("west", "soviet"):
        for token in game.state["tokens"][role]:
            if token["kind"] == "reserves":
                token["used"] = True
