"""Records: the protocol's small value types, with what @dataclass gives them, without it.

Why not @dataclass: importing `dataclasses` imports `inspect` (with ast, dis, tokenize),
and making each dataclass compiles its methods with exec: together about ten
milliseconds, a quarter of a whole `pbem verify` of a move file (bench/startup.py), for
types the rules never need to see built. A record class names its fields in order
(`fields=`), and writes its own `__init__`, which stores the fields straight into the
instance's __dict__ (three times faster than a frozen dataclass's __init__: an Action
and an RNG record are made for every entry of a log). This base gives the rest, as
@dataclass(frozen=True) does: equality and hash on the compared fields (same class
only), the same repr, `__match_args__`, assignment and deletion refused, and `replace`.
`MutableRecord` is @dataclass without frozen: equality and repr, no hash.

Instances keep their fields in __dict__, as dataclass instances do, so copy, deepcopy
and pickle work unchanged (they set __dict__ directly, never through __setattr__).
"""

from __future__ import annotations

from _thread import get_ident
from typing import Any, ClassVar

_IN_REPR: set[tuple[int, int]] = set()  # (id of the record, thread) whose repr is being made


class FrozenInstanceError(AttributeError):
    """An assignment to a field of a frozen record (dataclasses' FrozenInstanceError)."""


class _Base:
    _fields: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...]] = ()
    _shown: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(
        cls,
        fields: tuple[str, ...] = (),
        hidden: tuple[str, ...] = (),
        uncompared: tuple[str, ...] = (),
        **kwargs: Any,
    ) -> None:
        """`fields` in the order of __init__; `hidden`: not in the repr; `uncompared`: not
        in equality nor hash (as field(repr=False) and field(compare=False))."""
        super().__init_subclass__(**kwargs)
        cls._fields = fields
        cls._shown = tuple(name for name in fields if name not in hidden)
        cls._compared = tuple(name for name in fields if name not in uncompared)
        type.__setattr__(
            cls, "__match_args__", fields
        )  # (positional patterns: case Prompt(role, _))

    def _values(self) -> tuple[Any, ...]:
        return tuple([self.__dict__[name] for name in self._compared])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __repr__(self) -> str:
        # As dataclasses' repr: the class's qualified name, each shown field with repr,
        # and "..." for a record met again while its own repr is being made.
        key = (id(self), get_ident())
        if key in _IN_REPR:
            return "..."
        _IN_REPR.add(key)
        try:
            shown = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._shown)
        finally:
            _IN_REPR.discard(key)
        return f"{self.__class__.__qualname__}({shown})"

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed (dataclasses.replace)."""
        values = {name: self.__dict__[name] for name in self._fields}
        values.update(changes)
        return self.__class__(**values)


class Record(_Base):
    """A frozen record (@dataclass(frozen=True))."""

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


class MutableRecord(_Base):
    """A record whose fields may be assigned (@dataclass): equal by value, unhashable."""

    __hash__ = None  # type: ignore[assignment]
