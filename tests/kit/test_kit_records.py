"""The kit's step, opening and standing-order types, `pbem show`'s Asked, the OpenSSH
key-file types and signing's Applied and MovePlan are records (pbem.record), not frozen
dataclasses (each @dataclass costs a cold `pbem show` the compiling of its methods): they
take the same arguments, with the same defaults, and compare, hash, show, match, copy and
pickle as the frozen dataclass of the same fields would, and refuse to change."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from pbem.crypto.openssh import _CIPHERS, Ed25519Secret, _CipherSpec
from pbem.kit.orders import Form, StandingOrder
from pbem.kit.steps import NO_OPENINGS, Openings, Step
from pbem.record import FrozenInstanceError
from pbem.render.board import Asked
from pbem.signing import Applied, MovePlan


def decide(state: Any, role: str, argument: str) -> None:
    return None


def asks(state: Any) -> str:
    return "a"


# Each type, and the fields (name, default) of the frozen dataclass it was.
WAS: dict[type, list[tuple[str, Any]]] = {
    Form: [("words", ...), ("meaning", ...)],
    StandingOrder: [
        ("name", ...),
        ("steps", ...),
        ("question", ...),
        ("forms", ...),
        ("decide", ...),
    ],
    Openings: [("required", ()), ("optional", frozenset()), ("rule", "")],
    Step: [
        ("asks", ...),
        ("prompt", ...),
        ("handlers", ...),
        ("choices", ...),
        ("sample", None),
        ("opens", None),
        ("commits", None),
        ("parse", None),
        ("rule", ""),
        ("exhaustive", False),
    ],
    Asked: [("role", ...), ("notes", ()), ("choices", ()), ("hint", "")],
    _CipherSpec: [("key_len", ...), ("iv_len", ...), ("block", ...), ("mode", ...)],
    Ed25519Secret: [("seed", ...), ("public", ...), ("comment", ...)],
    Applied: [("entry", ...), ("status", ...)],
    MovePlan: [("game", ...), ("role", ...), ("fields", ...), ("sealed", ...), ("private", ...)],
}

SAMPLES: list[Any] = [
    Form("keep at N", "keeps"),
    StandingOrder("support", ("a", "b"), "the support", (Form("x", "y"),), decide),
    Openings(),
    NO_OPENINGS,
    Openings(("a",), frozenset({"b"}), "4.2"),
    Step(asks, len, {int: decide}, len),
    Step(asks, len, {}, len, None, None, None, None, "1.1", True),
    Asked("soviet"),
    Asked("west", ("note",), ("one", "two"), "answer"),
    *_CIPHERS.values(),
    Ed25519Secret(b"s" * 32, b"p" * 32, "me"),
    Applied("an entry", "applied"),
    MovePlan("a game", "soviet", {"seq": 1}, [], None),
]


def twin_class(cls: type) -> type:
    fields = [
        (name, Any) if default is ... else (name, Any, dataclasses.field(default=default))
        for name, default in WAS[cls]
    ]
    return dataclasses.make_dataclass(cls.__qualname__, fields, frozen=True)


def test_the_same_arguments_and_defaults() -> None:
    for cls, fields in WAS.items():
        assert cls._fields == tuple(name for name, _ in fields)  # type: ignore[attr-defined]
        parameters = list(inspect.signature(cls).parameters.values())
        assert [p.name for p in parameters] == [name for name, _ in fields]
        for parameter, (_, default) in zip(parameters, fields, strict=True):
            expected = inspect.Parameter.empty if default is ... else default
            assert parameter.default == expected and type(parameter.default) is type(expected)


@pytest.mark.parametrize("record", SAMPLES, ids=lambda r: type(r).__name__)
def test_behaves_as_the_frozen_dataclass(record: Any) -> None:
    cls = type(record)
    values = {name: record.__dict__[name] for name in cls._fields}
    model = twin_class(cls)(**values)
    assert repr(record) == repr(model)
    assert cls.__match_args__ == type(model).__match_args__
    try:
        expected_hash: int | None = hash(model)
    except TypeError:  # (a dict or list field: unhashable, either way)
        expected_hash = None
    if expected_hash is None:
        with pytest.raises(TypeError):
            hash(record)
    else:
        assert hash(record) == expected_hash
    again = cls(*values.values())
    assert again == record and again is not record
    assert (record == model) is False
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.deepcopy(record) == record and copy.copy(record) == record
    for name in cls._fields:
        with pytest.raises(FrozenInstanceError):
            setattr(record, name, None)
    changed = {**values, cls._fields[0]: "another"}
    assert cls(**changed) != record
