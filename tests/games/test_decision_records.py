"""Race to Berlin's and Berlin 1945's decisions are records (pbem.record), not the kit's
`@decision` dataclasses: each decision of the demo saves compares, hashes, shows, matches
and pickles as the frozen dataclass of the same fields would, and refuses to change."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest

from pbem.games.berlin_1945 import decisions as b45
from pbem.games.race_to_berlin import decisions as rtb
from pbem.ledger import replay
from pbem.record import FrozenInstanceError
from pbem.verify import parse_entries

ROOT = Path(__file__).resolve().parents[2]


def demo_decisions(title: str) -> list[Any]:
    entries = parse_entries((ROOT / "saves" / f"{title}-demo.pbem").read_bytes())
    game = replay(entries[:1])
    found = []
    for entry in entries[1:]:
        if "decision" in entry.body and game.state is not None:
            found.append(game.engine.parse(entry.body["decision"], game.state, entry.by))
        game.apply(entry)
    return found


def twin(record: Any) -> Any:
    cls = type(record)
    made = dataclasses.make_dataclass(
        cls.__qualname__, [(n, Any) for n in cls._fields], frozen=True
    )
    return made(**{name: record.__dict__[name] for name in cls._fields})


@pytest.mark.parametrize(("title", "module"), [("race-to-berlin", rtb), ("berlin-1945", b45)])
def test_decisions_behave_as_frozen_dataclasses(title: str, module: Any) -> None:
    found = demo_decisions(title)
    kinds = {type(d) for d in found}
    assert len(kinds) >= 8 and kinds <= set(module.DECISION_TYPES)
    for d in found:
        model = twin(d)
        assert repr(d) == repr(model)
        assert hash(d) == hash(model)
        assert type(d).__match_args__ == type(model).__match_args__
        again = type(d)(**{name: d.__dict__[name] for name in type(d)._fields})
        assert again == d and hash(again) == hash(d) and again is not d
        assert (d == model) is False  # (another class, as two dataclasses are)
        assert pickle.loads(pickle.dumps(d)) == d and copy.deepcopy(d) == d
        for name in type(d)._fields:
            with pytest.raises(FrozenInstanceError):
                setattr(d, name, None)
    # one instance of every type, every field different from another one's: not equal
    assert len(set(found)) > 50
