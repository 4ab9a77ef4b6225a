"""`@decision` (pbem.kit.decisions) makes each decision type a frozen record: every
decision of the Barbarossa, Race to the Sea and Götterdämmerung demo saves compares,
hashes, shows, matches, copies and pickles as the frozen dataclass of the same fields
would, takes its fields as that dataclass's __init__ does, and refuses to change; a
decision type that extends a dataclass stays one."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from pbem.games.barbarossa import decisions as barbarossa
from pbem.games.gotterdammerung import decisions as gotterdammerung
from pbem.games.race_to_the_sea import decisions as race_to_the_sea
from pbem.kit.decisions import decision
from pbem.record import FrozenInstanceError, Record
from tests.games.test_decision_records import demo_decisions


def twin(record: Any) -> Any:
    cls = type(record)
    made = dataclasses.make_dataclass(
        cls.__qualname__, [(n, Any) for n in cls._fields], frozen=True
    )
    return made(**{name: record.__dict__[name] for name in cls._fields})


@pytest.mark.parametrize(
    ("title", "module"),
    [
        ("barbarossa", barbarossa),
        ("race-to-the-sea", race_to_the_sea),
        ("gotterdammerung", gotterdammerung),
    ],
)
def test_decisions_behave_as_frozen_dataclasses(title: str, module: Any) -> None:
    found = [d for d in demo_decisions(title) if isinstance(d, Record)]
    kinds = {type(d) for d in found}
    assert len(kinds) >= 5 and kinds <= set(module.DECISION_TYPES)
    for d in found:
        model = twin(d)
        assert repr(d) == repr(model) and hash(d) == hash(model)
        assert type(d).__match_args__ == type(model).__match_args__
        assert list(vars(d)) == list(vars(model))  # (field order: `spelled` reads vars)
        values = [d.__dict__[name] for name in type(d)._fields]
        assert (
            type(d)(*values) == d
            and type(d)(**dict(zip(type(d)._fields, values, strict=True))) == d
        )
        assert (d == model) is False
        assert pickle.loads(pickle.dumps(d)) == d and copy.deepcopy(d) == d
        for name in type(d)._fields:
            with pytest.raises(FrozenInstanceError):
                setattr(d, name, None)


def test_arguments_and_defaults_as_a_dataclass() -> None:
    class Shape:
        a: int
        b: tuple[str, ...] = ()
        c: str | None = None

    body = {k: v for k, v in vars(Shape).items() if k not in ("__dict__", "__weakref__")}
    made = decision(type("Shape", (), dict(body)))
    model = dataclasses.dataclass(frozen=True)(type("Shape", (), dict(body)))
    assert made._fields == tuple(f.name for f in dataclasses.fields(model))
    for args, kwargs in [((1,), {}), ((1, ("x",)), {"c": "y"}), ((), {"a": 2, "c": "z"})]:
        assert repr(made(*args, **kwargs)) == repr(model(*args, **kwargs))
        assert list(vars(made(*args, **kwargs))) == list(vars(model(*args, **kwargs)))
    for args, kwargs in [((), {}), ((1, 2, 3, 4), {}), ((1,), {"d": 1}), ((1,), {"a": 1})]:
        with pytest.raises(TypeError):
            model(*args, **kwargs)
        with pytest.raises(TypeError):
            made(*args, **kwargs)


def test_a_decision_that_extends_a_dataclass_stays_one() -> None:
    assert dataclasses.is_dataclass(gotterdammerung.Move)
    assert not issubclass(gotterdammerung.Move, Record)

    @decision
    class Empty:
        pass

    assert (
        Empty() == Empty()
        and hash(Empty()) == hash(())
        and repr(Empty()) == ("test_a_decision_that_extends_a_dataclass_stays_one.<locals>.Empty()")
    )
