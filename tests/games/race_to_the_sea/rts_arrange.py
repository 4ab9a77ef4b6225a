"""Arranging Race to the Sea positions in tests: sealed pieces a side holds, as if its
client had committed them in an earlier entry."""

from __future__ import annotations

from pbem.core.canonical import JSON
from pbem.core.engine import State
from pbem.testing import Table


def sealed_piece(t: Table, side: str, label: str, value: JSON, state: State | None = None) -> str:
    """A kit piece `label` of `side`, sealed in the public state (`t.state`, or `state`
    about to become it), its value `side`'s secret (committed, say, in entry 5)."""
    (t.state if state is None else state)["pieces"][label] = {
        "label": label,
        "owner": side,
        "value": None,
        "revealed": False,
        "placed_at": 5,
        "claims": [],
        "due": None,
    }
    t.seal_for(side, label, value)
    return label


def markers_of(t: Table, side: str, counter: str, stack: list[list[str]]) -> str:
    """A sealed Casualties markers piece under `counter` (its owner's secret, hits.py)."""
    label = sealed_piece(t, side, f"markers/{counter}/90", stack)
    t.state["stacks"][counter] = label
    return label
