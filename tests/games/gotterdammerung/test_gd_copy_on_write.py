"""Götterdämmerung: copy-on-write units (state.copy_state shares the unit dicts, state.own
copies one before it changes). Applying an entry never changes the state it was applied
to; a state owns no unit once copied; what `own` remembers is never trusted for another
mapping; and a whole game's states are those of a deep copy per entry (the plain way).
"""

from __future__ import annotations

import copy
import functools
import marshal
from typing import Any

import pytest

from pbem.core.canonical import canonical_bytes
from pbem.games.gotterdammerung import state as gs
from pbem.games.gotterdammerung import units_owned
from pbem.games.gotterdammerung.rules import ENGINE
from tests.support.checked_table import CheckedTable

_APPLY = type(ENGINE).apply


class _Count:
    applied = 0


def _guarded_apply(self: Any, state: Any, role: str, decision: Any, ctx: Any) -> Any:
    """The engine's apply, checking that it leaves the state it is given as it was: the
    state is canonical JSON (canonical_bytes refuses any other), and its marshal version 0
    bytes are the same after (they tell apart all that canonical bytes do, and a tuple from
    a list, and the order of keys; at a sixth of their cost)."""
    canonical_bytes(_plain(state))
    before = marshal.dumps(_plain(state), 0)
    new = _APPLY(self, state, role, decision, ctx)
    assert marshal.dumps(_plain(state), 0) == before, "apply changed the state it was given"
    _Count.applied += 1
    return new


def _plain(state: Any) -> Any:
    return {k: v for k, v in state.items() if k not in gs.STATIC_KEYS}


DEEP_COPIED = 0  # the seed whose game is played again with deep copies


@functools.cache
def _guarded_game(seed: int) -> tuple[int, tuple[bytes, ...]]:
    """A bot game with every apply guarded, played once per process: how many applies
    were checked, and (for DEEP_COPIED) its states' canonical bytes after each decision,
    taken as the game went (bytes: nothing a later test does can change them)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(ENGINE), "apply", _guarded_apply)
        _Count.applied = 0
        if seed == DEEP_COPIED:
            states = _game(seed)
        else:
            CheckedTable(ENGINE, seed=seed).play()
            states = []
        return _Count.applied, tuple(states)


@pytest.mark.parametrize("seed", [DEEP_COPIED, 3])
def test_apply_never_changes_the_state_it_is_given(seed: int) -> None:
    applied, _states = _guarded_game(seed)
    assert applied > 100


def test_a_copy_shares_units_until_one_is_owned() -> None:
    state = ENGINE.setup(None, {})
    uid = next(iter(state["units"]))
    copied = gs.copy_state(state)
    assert copied["units"][uid] is state["units"][uid]
    mine = gs.own(copied, uid)
    assert mine is not state["units"][uid] and mine is copied["units"][uid]
    assert gs.own(copied, uid) is mine  # owned: not copied again
    mine["hex"] = "op:0101"
    assert state["units"][uid]["hex"] != "op:0101"
    # the original, copied again, owns nothing: its next change copies too
    again = gs.copy_state(copied)
    assert again["units"][uid] is mine
    assert gs.own(copied, uid) is not mine
    assert again["units"][uid] is mine and mine["hex"] == "op:0101"


def test_own_trusts_no_other_mapping_and_forgets_safely() -> None:
    state = ENGINE.setup(None, {})
    uid = next(iter(state["units"]))
    mine = gs.own(state, uid)
    other = dict(state)
    other["units"] = dict(state["units"])  # a mapping `own` has never seen: owns nothing
    assert gs.own(other, uid) is not mine
    # forgotten (more mappings than are kept): the next change copies once more, safely
    for _ in range(units_owned.KEPT + 1):
        gs.own({"units": {uid: {"id": uid}}}, uid)
    assert gs.own(state, uid) is not mine


def test_set_field_copies_only_for_a_new_value() -> None:
    state = gs.copy_state(ENGINE.setup(None, {}))
    uid = next(iter(state["units"]))
    shared = state["units"][uid]
    gs.set_field(state, uid, "disrupted", False)  # already False
    assert state["units"][uid] is shared
    gs.set_field(state, uid, "delays", False)  # 0 is not False: JSON tells them apart
    assert state["units"][uid] is not shared and state["units"][uid]["delays"] is False


def _deep_copy(state: Any) -> Any:
    """What copy_state does with every unit copied (the plain way: nothing shared)."""
    new = copy.deepcopy(_plain(state))
    new.update({k: state[k] for k in gs.STATIC_KEYS if k in state})
    return new


def _game(seed: int) -> list[bytes]:
    table = CheckedTable(ENGINE, seed=seed)
    states = []
    while not table.over():
        table.step()
        states.append(canonical_bytes(_plain(table.state)))
    return states


def test_a_game_is_the_same_as_with_deep_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game with shared units is the guarded one (the same seed, the same decisions:
    a guard only checks), so the shared game is not played twice."""
    _applied, shared = _guarded_game(DEEP_COPIED)
    monkeypatch.setattr(gs, "copy_state", _deep_copy)
    assert _game(DEEP_COPIED) == list(shared)
