"""pbem.record.NamedTuple makes the class typing.NamedTuple makes (without compiling its
annotations): the same fields, defaults, docstring, methods, behaviour and errors."""

from __future__ import annotations

import copy
import pickle
import typing

import pytest

from pbem.core import blind
from pbem.record import NamedTuple
from pbem.verdicts import Verdict


class Ours(NamedTuple):
    """A doc."""

    seq: int
    by: str
    item: tuple[str, ...] | None = None
    more: int = 3

    def twice(self) -> int:
        return 2 * self.seq

    @property
    def who(self) -> str:
        return self.by.upper()


class Typing(typing.NamedTuple):
    """A doc."""

    seq: int
    by: str
    item: tuple[str, ...] | None = None
    more: int = 3

    def twice(self) -> int:
        return 2 * self.seq

    @property
    def who(self) -> str:
        return self.by.upper()


Typing.__qualname__ = Ours.__qualname__  # (the two reprs name one class)
Typing.__name__ = Ours.__name__


def test_the_same_class() -> None:
    assert Ours.__mro__[1:] == Typing.__mro__[1:] == (tuple, object)
    assert type(Ours) is type(Typing) is type
    assert Ours._fields == Typing._fields == ("seq", "by", "item", "more")
    assert Ours._field_defaults == Typing._field_defaults == {"item": None, "more": 3}
    assert Ours.__doc__ == Typing.__doc__ == "A doc."
    assert Ours.__module__ == Typing.__module__ == __name__
    assert list(Ours.__annotations__) == list(Typing.__annotations__)
    assert Ours.__match_args__ == Typing.__match_args__
    assert set(vars(Ours)) == set(vars(Typing))


def test_the_same_values() -> None:
    for made in (lambda cls: cls(1, "a"), lambda cls: cls(seq=2, by="b", item=("x",), more=4)):
        ours, theirs = made(Ours), made(Typing)
        assert ours == theirs and tuple(ours) == tuple(theirs) and hash(ours) == hash(theirs)
        assert repr(ours) == repr(theirs)
        assert ours._asdict() == theirs._asdict()
        assert ours._replace(seq=9) == theirs._replace(seq=9)
        assert ours.twice() == theirs.twice() and ours.who == theirs.who
        assert copy.deepcopy(ours) == ours and Ours._make(theirs) == ours
    assert pickle.loads(pickle.dumps(blind.Escrowed(1, "a", "b", ()))) == (1, "a", "b", ())
    assert Verdict("ok") == ("ok", None, None, None)
    with pytest.raises(TypeError):
        Ours(1)  # type: ignore[call-arg]
    with pytest.raises(AttributeError):
        Ours(1, "a").seq = 2  # type: ignore[misc]


def test_the_same_errors() -> None:
    with pytest.raises(TypeError, match="Non-default namedtuple field b"):

        class Bad(NamedTuple):
            a: int = 1
            b: int  # type: ignore[misc]

    with pytest.raises(AttributeError, match="Cannot overwrite NamedTuple attribute _replace"):

        class Worse(NamedTuple):
            a: int

            def _replace(self) -> None: ...  # type: ignore[misc]

    with pytest.raises(TypeError):
        NamedTuple("Functional", [("a", int)])
